"""`bitmask` learning from its conflicts (`learn=True`): counts and solutions
as without it, on random models of the whole model language (csp.fuzz)
against brute force, and every clause it learns holds in every solution."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import bench_scripts
import pytest
from shared_models import queens_model

import csp
from csp.backends.bitmask import BitmaskBackend, BitmaskSearch, layout
from csp.bench import instances
from csp.cli import main
from csp.errors import BadOption
from csp.fuzz.compare import brute_force
from csp.fuzz.models import random_model
from csp.problems import sudoku

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LEARN = {"learn": True, "learn_after": 0, "learn_restart": 3}
"""Learning from the first conflict, restarting often: the most to go wrong."""


def _learned_clauses(search: BitmaskSearch) -> list[list[tuple[int, int, bool]]]:
    """The clauses in the database, as (variable, value index, is x = k)."""
    s, p = search.state, search.arrays
    owner = {a: x for x in range(len(p.dom0)) for a in range(int(p.voff[x]), int(p.voff[x + 1]))}
    clauses = []
    for i in range(int(s.st[layout.N_CLAUSES])):
        start = int(layout.learning_array(s, layout.L_CL_START)[i])
        length = int(layout.learning_array(s, layout.L_CL_LEN)[i])
        clause = []
        for lit in layout.learning_array(s, layout.L_CL_LITS)[start:start + length].tolist():
            x = owner[lit >> 1]
            clause.append((x, (lit >> 1) - int(p.voff[x]), lit & 1 == 0))
        clauses.append(clause)
    return clauses


def _assert_clauses_hold(search: BitmaskSearch, solutions: list) -> None:
    """Every clause in the database holds in every solution (and there are some)."""
    names, values = search.compiled.names, search.compiled.values
    clauses = _learned_clauses(search)
    assert clauses
    for solution in solutions:
        index = [values[x].index(solution[name]) for x, name in enumerate(names)]
        for clause in clauses:
            assert any((index[x] == k) == positive for x, k, positive in clause), clause


@pytest.mark.parametrize("seed", range(60))
def test_random_models_learning_against_brute_force(seed: int) -> None:
    model = random_model(random.Random(seed)).build()
    plain = csp.count(model, BitmaskBackend()).count
    learning = csp.count(model, BitmaskBackend(**LEARN))
    assert learning.count == plain
    assert csp.count(model, BitmaskBackend(**LEARN, minimise=True)).count == plain
    assert csp.count(model, BitmaskBackend(**LEARN, clauses_last=False)).count == plain
    # Learning from a restart after a few failures, where no solution was found yet:
    waiting = BitmaskBackend(learn=True, learn_after=3, restarts=1, learn_restart=3)
    assert csp.count(model, waiting).count == plain
    oracle = brute_force(model)
    if oracle is not None:
        assert learning.count == len(oracle)


def test_learned_clauses_hold_in_every_solution() -> None:
    """A learned clause is implied by the model: no solution violates it."""
    model = queens_model(8)
    search = BitmaskSearch(model, BitmaskBackend(**LEARN).options)
    solutions = list(search)
    assert len(solutions) == 92  # OEIS A000170
    stats = search.stats.extra
    assert stats["conflicts"] > 0 and stats["learned"] > 0
    _assert_clauses_hold(search, solutions)


def test_many_solutions_none_lost_none_repeated() -> None:
    """Many conflicts between solutions: backjumps stop at the floor."""
    model = queens_model(10)
    backend = BitmaskBackend(**LEARN)
    assert backend.count(model).count == 724  # OEIS A000170
    found = [tuple(sorted(s.items(), key=repr)) for s in backend.solutions(model)]
    assert len(found) == len(set(found)) == 724


def test_a_tiny_database_is_pruned_not_outgrown() -> None:
    model = queens_model(9)
    backend = BitmaskBackend(**LEARN, max_clauses=16, max_literals=64)
    result = backend.count(model)
    assert result.count == 352  # OEIS A000170
    assert result.stats.extra["learned"] > 16  # more than fit at once: reduced on the way


@pytest.mark.parametrize("seed", range(20))
def test_reductions_and_phases_on_random_models(seed: int) -> None:
    """A database reduced every few clauses, with and without phase saving:
    the counts stay those of plain bitmask."""
    model = random_model(random.Random(1000 + seed)).build()
    plain = csp.count(model, BitmaskBackend()).count
    for phase in (True, False):
        tight = BitmaskBackend(**LEARN, phase=phase, max_clauses=32, reduce_first=16,
                               reduce_grow=4)
        assert csp.count(model, tight).count == plain


def test_a_database_reduced_often_still_counts_exactly() -> None:
    for phase in (True, False):
        backend = BitmaskBackend(**LEARN, phase=phase, reduce_first=16, reduce_grow=8)
        result = backend.count(queens_model(9))
        assert result.count == 352  # OEIS A000170
        assert result.stats.extra["deleted"] > 0
        found = [tuple(sorted(s.items(), key=repr)) for s in backend.solutions(queens_model(8))]
        assert len(found) == len(set(found)) == 92


def test_learning_waits_by_default_and_switches_are_checked() -> None:
    """By default learning waits for 1,000 failures without a solution."""
    options = BitmaskBackend().options
    assert options.learn and options.learn_after == 1_000
    assert BitmaskBackend().count(queens_model(6)).stats.extra["conflicts"] == 0
    with pytest.raises(TypeError, match="learn must be True or False"):
        BitmaskBackend(learn="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_clauses must be a whole number >= 16"):
        BitmaskBackend(learn=True, max_clauses=3)
    with pytest.raises(ValueError, match="reduce_grow must be a whole number >= 1"):
        BitmaskBackend(learn=True, reduce_grow=0)
    with pytest.raises(TypeError, match="phase must be True or False"):
        BitmaskBackend(learn=True, phase="no")  # type: ignore[arg-type]
    assert (options.restart_margin, options.learn_restart) == (None, 100)  # by the job
    with pytest.raises(ValueError, match="restart_margin must be None .by the job., 0 .Luby's "
                                         "restarts. or a percentage >= 100, not 50"):
        BitmaskBackend(restart_margin=50)


def test_options_by_name_for_the_command_line(capsys) -> None:
    learning = csp.backends.get("bitmask:learn:learn_after=0:learn_restart=3")
    assert learning.name == "bitmask:learn:learn_after=0:learn_restart=3"
    assert learning.options.learn and learning.options.learn_restart == 3
    result = csp.count(queens_model(8), learning)
    assert result.count == 92 and result.stats.extra["conflicts"] > 0  # OEIS A000170
    again = pickle.loads(pickle.dumps(learning))  # (how a worker process gets it)
    assert again.name == learning.name and again.options == learning.options
    plain = csp.backends.get("bitmask:matching=off:probe=false").options
    assert (plain.matching, plain.locked, plain.probe) == (False, True, False)
    assert not csp.backends.get("bitmask:learn=off").options.learn
    for spec, message in [("bitmask:nope", "no option 'nope'; bitmask's options: matching"),
                          ("bitmask:learn=maybe", "learn takes true or false, not 'maybe'"),
                          ("bitmask:learn_after", "learn_after takes a value"),
                          ("bitmask:learn_after=x", "takes a whole number, not 'x'"),
                          ("bitmask:max_clauses=3", "max_clauses must be a whole number >= 16")]:
        with pytest.raises(BadOption, match=message):
            csp.backends.get(spec)
    sudoku = str(EXAMPLES / "sudoku.txt")
    assert main(["solve", "sudoku", sudoku, "--backend", "bitmask:learn=off"]) == 0
    assert capsys.readouterr().out.startswith("417369825632158947")
    assert main(["solve", "sudoku", sudoku, "--backend", "bitmask:learn=maybe"]) == 2
    assert "learn takes true or false, not 'maybe'" in capsys.readouterr().err


def _run_in_slices(model, budget: int, first: bool = False,
                   **options: bool) -> tuple[list[int], set[int]]:
    """Count `model` learning (with `options`), or find its first solution, by
    kernel calls of `budget` nodes: the figures (solutions, nodes, conflicts,
    learned, then the solution's domains if `first`) and the phases it paused in."""
    from csp.backends.bitmask import kernel

    # (The largest database, not one to the problem's size: a cascade of
    # conflicts long enough to pause in.)
    backend = BitmaskBackend(**LEARN, **options, max_clauses=1 << 16, max_literals=1 << 22)
    search = BitmaskSearch(model, backend.options)
    paused_in = set()
    while kernel.search(search.arrays, search.state, not first, budget) == layout.PAUSED:
        paused_in.add(int(search.state.st[layout.PHASE]))
    st = search.state.st
    figures = [int(st[k]) for k in (layout.SOLUTIONS, layout.NODES, layout.CONFLICTS,
                                    layout.LEARNED)]
    return figures + (search.state.dom.tolist() if first else []), paused_in


def test_a_kernel_call_pauses_inside_learning_and_resumes_exactly() -> None:
    """A call pauses after its node budget, or its budget's worth of analysis
    (`analyze.WORK_PER_NODE`), even between the analyses of a cascade of
    conflicts: that is where Ctrl-C and time limits are seen. Resumed, the
    search is the same, node for node and conflict for conflict."""
    model = queens_model(11)
    whole, _ = _run_in_slices(model, 1 << 30, minimise=True)
    sliced, _ = _run_in_slices(model, 1, minimise=True)
    assert whole == sliced and whole[0] == 2680  # OEIS A000170
    # 11 queens' cascades are cheap: they pause between two analyses rarely,
    # and stop 38's trial of watches with blockers made that never. The first
    # solutions of two published quasigroups paused there 17 to 115 times
    # each at stop 38 (and still did with that trial).
    bench_scripts.load("qwh")  # (bench_learning imports it)
    latin = bench_scripts.load("bench_learning").latin
    qcp = json.loads((Path(__file__).parent / "data" / "latin" / "qcp.json").read_text())
    paused_in = set()
    for puzzle in qcp["puzzles"]:
        if puzzle["name"] in ("qcp-25-264-2", "qwh-o030-h320"):
            model = latin(puzzle["grid"])
            for minimise in (False, True):
                whole, _ = _run_in_slices(model, 1 << 30, True, minimise=minimise)
                sliced, phases = _run_in_slices(model, 1, True, minimise=minimise)
                assert whole == sliced and whole[0] == 1
                paused_in |= phases
    assert layout.PHASE_CONFLICT in paused_in  # (work ran out between two analyses)


def test_ctrl_c_stops_a_learning_search_with_what_it_found(shared_data) -> None:
    """A real SIGINT to a process counting a hard 36x36 sudoku with learning:
    the count ends INTERRUPTED (no traceback), its conflicts so far reported."""
    import os
    import signal
    import subprocess
    import sys
    import time

    large = shared_data / "sudoku" / "sudoku_large.json"
    script = (
        "import json, sys, time\n"
        "from pathlib import Path\n"
        "from csp.backends.bitmask import BitmaskBackend\n"
        "from csp.problems import sudoku\n"
        f"data = json.loads(Path({str(large)!r}).read_text())['puzzles']\n"
        "p = next(p for p in data if p['name'] == 'michael404-TestData36-minimal2')\n"
        "model = sudoku.declare_model(sudoku.parse(p['puzzle'], symbols=p['symbols'])[0])\n"
        "def progress(stats):\n"
        "    print('searching', flush=True)\n"
        "result = BitmaskBackend(learn_after=0).count(model, progress=progress)\n"
        "print(result.status.value, result.stats.extra['conflicts'], time.perf_counter(),\n"
        "      flush=True)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "searching"  # (past import and JIT)
        time.sleep(1.0)  # deep in the search, learning
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    lines = out.split()
    assert "INTERRUPTED" in lines, err
    assert int(lines[lines.index("INTERRUPTED") + 1]) > 0
    assert "Traceback" not in err


def test_minimised_clauses_hold_in_every_solution(shared_data) -> None:
    """Minimisation (`minimise=True`) drops only literals the others imply:
    the count is the same, and every clause still holds in every solution
    (Norvig's first hardest sudoku with its first two givens blanked: 271
    solutions, found with and without learning, and Hall-set explanations)."""
    from csp.problems import sudoku

    puzzle = list((shared_data / "sudoku" / "norvig_hardest.txt").read_text().split()[0])
    for i in [i for i, c in enumerate(puzzle) if c.isdigit()][:2]:
        puzzle[i] = "."
    model = sudoku.declare_model(sudoku.parse("".join(puzzle))[0])
    assert BitmaskBackend().count(model).count == 271
    search = BitmaskSearch(model, BitmaskBackend(**LEARN, minimise=True).options)
    solutions = list(search)
    assert len(solutions) == 271
    assert search.stats.extra["minimised"] > 0  # (literals dropped)
    _assert_clauses_hold(search, solutions)
    with pytest.raises(TypeError, match="minimise must be True or False"):
        BitmaskBackend(learn=True, minimise=1)  # type: ignore[arg-type]


QUASIGROUPS = [(0, 2171), (1, 7553), (2, 159)]
"""Seeds of `bench/qwh.py`'s order-10 quasigroups with 60 balanced holes, and
their completions: counted by plain bitmask and by CP-SAT (stop 34)."""


def _quasigroup(seed: int) -> csp.Model:
    qwh = bench_scripts.load("qwh")
    latin = bench_scripts.load("bench_learning").latin
    return latin(qwh.instance(10, 60, seed)["grid"])


@pytest.mark.parametrize(("seed", "count"), QUASIGROUPS)
def test_quasigroup_completions_counted_with_hall_set_explanations(seed: int, count: int) -> None:
    """All-differents only: every prune is explained by a Hall set (one set for
    all the values of it a cell lost, found fewest values first; a value
    placed outside it, as one literal)."""
    model = _quasigroup(seed)
    for minimise in (False, True):
        result = csp.count(model, BitmaskBackend(**LEARN, minimise=minimise))
        assert result.count == count
        assert result.stats.extra["conflicts"] > 0


def test_glucose_restarts_come_when_the_clauses_get_worse() -> None:
    """With `restart_margin`, learning restarts when its recent clauses'
    literal block distance is over that % of the long-run one: at 100 %
    (whenever they are worse at all) restarts come, and at a margin no
    average reaches, never; Luby's sequence (margin 0) restarts regardless.
    The count is the same each way."""
    model = _quasigroup(0)
    runs = {margin: BitmaskSearch(model, BitmaskBackend(
                learn=True, learn_after=0, learn_restart=1, restart_margin=margin).options)
            for margin in (0, 100, 10**6)}
    for search in runs.values():
        assert search.count().count == QUASIGROUPS[0][1]
    restarts = {margin: search.stats.extra["restarts"] for margin, search in runs.items()}
    assert restarts[10**6] == 0 < restarts[100] and restarts[0] > 0
    st = runs[100].state.st
    assert st[layout.LBD_FAST] >= 1 << 16 and st[layout.LBD_SLOW] >= 1 << 16  # (x 65,536)


def test_hall_set_clauses_hold_in_every_completion() -> None:
    search = BitmaskSearch(_quasigroup(2), BitmaskBackend(**LEARN).options)
    solutions = list(search)
    assert len(solutions) == 159
    _assert_clauses_hold(search, solutions)


def test_the_restarts_are_chosen_by_the_job() -> None:
    """By default a search that must prove there is no other solution (a
    count, every solution, a uniqueness check's `limit=2`) restarts as
    Glucose does, and one for a first solution at Luby's sequence; a margin
    the user gave is kept for every job. The counts agree with each other
    and with CP-SAT's (QUASIGROUPS)."""
    from csp.backends.bitmask import PROOF_MARGIN, Prepared

    model, completions = _quasigroup(1), QUASIGROUPS[1][1]
    by_job = BitmaskBackend(learn=True, learn_after=0, learn_restart=1)
    luby = BitmaskBackend(learn=True, learn_after=0, learn_restart=1, restart_margin=0)
    counted = BitmaskSearch(model, by_job.options)
    assert counted.count().count == completions
    assert counted.state.st[layout.OPT_MARGIN] == PROOF_MARGIN
    assert BitmaskSearch(model, luby.options).count().count == completions
    pair = BitmaskSearch(model, by_job.options, limit=2)
    assert len(list(pair)) == 2 and pair.state.st[layout.OPT_MARGIN] == PROOF_MARGIN
    first = BitmaskSearch(model, by_job.options, limit=1)
    assert len(list(first)) == 1 and first.state.st[layout.OPT_MARGIN] == 0
    assert first.options.restart_margin == 0 and by_job.options.restart_margin is None
    kept = BitmaskSearch(model, luby.options)
    assert kept.options.restart_margin == 0 == kept.state.st[layout.OPT_MARGIN]
    # A prepared model's searches choose too, each for its own job.
    prepared = Prepared(model, by_job)
    assert prepared.solutions({}).count().count == completions
    assert prepared.solutions({}).state.st[layout.OPT_MARGIN] == PROOF_MARGIN
    assert prepared.solutions({}, limit=1).state.st[layout.OPT_MARGIN] == 0
    # The command line's bitmask spec leaves it to the job, or takes a margin.
    assert csp.backends.get("bitmask:learn_after=0").options.restart_margin is None
    assert csp.backends.get("bitmask:restart_margin=0").options.restart_margin == 0


def test_phase_saving_is_chosen_by_the_job() -> None:
    """By default, phase saving is on for a first solution and off for a
    search that must prove there is no other; a choice the user gave is
    kept for every job. The counts agree with CP-SAT's (QUASIGROUPS) either
    way."""
    from csp.backends.bitmask import Prepared

    model, completions = _quasigroup(1), QUASIGROUPS[1][1]
    by_job = BitmaskBackend(learn=True, learn_after=0, learn_restart=1)
    assert by_job.options.phase is None
    counted = BitmaskSearch(model, by_job.options)
    assert counted.count().count == completions
    # (Without phase saving, values by their activity: `value_activity`.)
    saving, by_activity = layout.PHASE_SAVING, layout.VALUE_ACTIVITY
    assert counted.options.phase is False
    assert counted.state.st[layout.OPT_PHASE] == by_activity
    pair = BitmaskSearch(model, by_job.options, limit=2)
    assert len(list(pair)) == 2 and pair.state.st[layout.OPT_PHASE] == by_activity
    first = BitmaskSearch(model, by_job.options, limit=1)
    assert len(list(first)) == 1 and first.state.st[layout.OPT_PHASE] == saving
    for phase in (True, False):
        kept = BitmaskSearch(model, BitmaskBackend(learn=True, learn_after=0,
                                                   phase=phase).options)
        assert kept.count().count == completions
        assert kept.state.st[layout.OPT_PHASE] == (saving if phase else by_activity)
    prepared = Prepared(model, by_job)
    assert prepared.solutions({}).state.st[layout.OPT_PHASE] == by_activity
    assert prepared.solutions({}, limit=1).state.st[layout.OPT_PHASE] == saving
    # The command line's spec leaves it to the job, or takes a switch.
    assert csp.backends.get("bitmask:learn_after=0").options.phase is None
    assert csp.backends.get("bitmask:phase=false").options.phase is False
    assert csp.backends.get("bitmask:phase").options.phase is True
    with pytest.raises(TypeError, match="phase must be True or False or None, not 'no'"):
        BitmaskBackend(phase="no")  # type: ignore[arg-type]


def test_values_by_their_activity_change_the_search_not_the_count() -> None:
    """Without phase saving, a decision tries first its variable's value
    least active in conflicts (`value_activity`, on by default): a different
    search, the same counts (CP-SAT's, QUASIGROUPS); `value_activity=False`
    tries the values in order, and phase saving, where on, comes first."""
    for seed, completions in QUASIGROUPS:
        model = _quasigroup(seed)
        runs = {}
        for value_activity in (True, False):
            backend = BitmaskBackend(learn=True, learn_after=0, learn_restart=1,
                                     value_activity=value_activity)
            search = BitmaskSearch(model, backend.options)
            result = search.count()
            assert result.count == completions
            assert search.state.st[layout.OPT_PHASE] == (
                layout.VALUE_ACTIVITY if value_activity else 0)
            activity = layout.learning_array(search.state, layout.L_AACT)
            assert (activity.any() if value_activity else not activity.any())
            runs[value_activity] = (result.stats.nodes, result.stats.extra["conflicts"])
        assert runs[True] != runs[False]
    first = BitmaskSearch(_quasigroup(1), BitmaskBackend(learn=True, learn_after=0,
                                                        value_activity=True).options, limit=1)
    assert len(list(first)) == 1 and first.state.st[layout.OPT_PHASE] == layout.PHASE_SAVING
    assert csp.backends.get("bitmask:value_activity=false").options.value_activity is False
    with pytest.raises(TypeError, match="value_activity must be True or False, not 'no'"):
        BitmaskBackend(value_activity="no")  # type: ignore[arg-type]


def test_clauses_last_changes_the_search_not_the_count() -> None:
    """The learned clauses run once the constraints have settled
    (`clauses_last`, on by default), or first, whenever a narrowing was
    made: the same fixpoint at every node that does not fail, another
    conflict found first where one does, so another search with the same
    counts (CP-SAT's, QUASIGROUPS), and clauses that hold in every solution
    either way."""
    runs = {}
    for clauses_last in (True, False):
        backend = BitmaskBackend(**LEARN, clauses_last=clauses_last)
        for seed, completions in QUASIGROUPS:
            search = BitmaskSearch(_quasigroup(seed), backend.options)
            result = search.count()
            assert result.count == completions
            assert search.state.st[layout.OPT_CLAUSES_LAST] == int(clauses_last)
            runs[clauses_last, seed] = result.stats.extra["conflicts"]
            assert runs[clauses_last, seed] > 0
        search = BitmaskSearch(queens_model(8), backend.options)
        solutions = list(search)
        assert len(solutions) == 92  # OEIS A000170
        _assert_clauses_hold(search, solutions)
    assert any(runs[True, seed] != runs[False, seed] for seed, _ in QUASIGROUPS)
    assert BitmaskBackend().options.clauses_last is True
    assert csp.backends.get("bitmask:clauses_last=false").options.clauses_last is False
    with pytest.raises(TypeError, match="clauses_last must be True or False, not 1"):
        BitmaskBackend(clauses_last=1)  # type: ignore[arg-type]


def _implied_literals(search: BitmaskSearch, clause: list[tuple[int, int, bool]]) -> int:
    """How many of a learned clause's x = k another of its literals implies in
    a Latin square: y != k with y in x's row or column, or x != b."""
    names, values = search.compiled.names, search.compiled.values
    denied = [(names[x], values[x][k]) for x, k, positive in clause if not positive]
    implied = 0
    for x, k, positive in clause:
        (r, c), value = names[x], values[x][k]
        if positive and any((place[0] == r or place[1] == c) and (value == v) != (place == (r, c))
                            for place, v in denied):
            implied += 1
    return implied


def test_implied_literals_leave_the_clauses_not_the_solutions() -> None:
    """`implied` (off by default) drops each learned x = k that another literal
    of the clause implies through an all-different (y != k, y beside x) or
    x's own domain (x != b). Only the asserting literal may be left so (it
    is never dropped), the clauses still hold in every solution, and the
    counts are CP-SAT's either way (QUASIGROUPS)."""
    most = {}
    for implied in (False, True):
        backend = BitmaskBackend(**LEARN, implied=implied)
        most[implied] = 0
        for seed, completions in QUASIGROUPS:
            search = BitmaskSearch(_quasigroup(seed), backend.options)
            solutions = list(search)
            assert len(solutions) == completions
            assert search.state.st[layout.OPT_IMPLIED] == int(implied)
            assert (search.stats.extra["minimised"] > 0) == implied  # (minimise is off)
            _assert_clauses_hold(search, solutions)
            most[implied] = max([most[implied]] + [_implied_literals(search, clause)
                                                   for clause in _learned_clauses(search)])
    assert most[True] <= 1 < most[False]
    assert BitmaskBackend().options.implied is False
    assert csp.backends.get("bitmask:implied=true").options.implied is True
    with pytest.raises(TypeError, match="implied must be True or False, not 'no'"):
        BitmaskBackend(implied="no")  # type: ignore[arg-type]


def test_a_learning_state_never_waits() -> None:
    # Waiting is learn.start_state's (the plain search, then a restart); a
    # learning state made with learn_after > 0 is refused, not half-waiting.
    search = BitmaskSearch(queens_model(6), BitmaskBackend(learn_after=0).options)
    options = BitmaskBackend(learn_after=5).options
    with pytest.raises(ValueError, match="learning that waits starts with learn.start_state"):
        layout.new_state(search.arrays, options)
    assert layout.new_state(search.arrays, options._replace(learn_after=0)).learn.size > 1


@pytest.mark.parametrize("name", ["michael404-TestData25-puzzel1",
                                  "michael404-TestData36-puzzel1"])
def test_learning_that_waits_starts_at_a_restart(shared_data: Path, name: str) -> None:
    """With `learn_after`, the search is the plain one (restarts keeping
    nogoods, no reasons, no clause database) until that many failures; a
    restart then starts learning, with the nogoods explained by their scope.
    These two need 2,384 and 874 failures to their solution without
    learning: the count (1, a proof of uniqueness) is exact, and both phases
    really ran."""
    data = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    entry = next(p for p in data if p["name"] == name)
    model = sudoku.declare_model(sudoku.parse(entry["puzzle"], symbols=entry["symbols"])[0])
    options = BitmaskBackend(learn=True, learn_after=200, restarts=50, learn_restart=3).options
    search = BitmaskSearch(model, options)
    assert search.state.learn.size == 1  # no clause database yet
    result = search.count()
    assert result.count == 1
    extra = result.stats.extra
    assert extra["nogoods"] > 0 and extra["conflicts"] > 0 and extra["learned"] > 0
    assert result.stats.failures >= 200 + extra["conflicts"]
    assert search.state.learn.size > 1


def test_learning_that_waits_does_not_start_under_solutions() -> None:
    """Learning waits for `learn_after` failures since the last solution.
    10 queens finds one in about ten failures: with 300 it stays plain (under
    a solution no backjump passes the floor), and its plain restarts go on as
    before; with 30 it learns between its solutions. Either way, every
    solution once."""
    def unique(search: BitmaskSearch) -> int:
        found = [tuple(sorted(s.items(), key=repr)) for s in search]
        assert len(found) == len(set(found))
        return len(found)

    plain = BitmaskBackend(learn=True, learn_after=300, restarts=10,
                           learn_restart=3).solutions(queens_model(10))
    assert unique(plain) == 724  # OEIS A000170
    extra = plain.stats.extra
    assert extra["conflicts"] == 0 and extra["restarts"] > 1 and plain.state.learn.size == 1
    between = BitmaskBackend(learn=True, learn_after=30, restarts=10,
                             learn_restart=3).solutions(queens_model(10))
    assert unique(between) == 724
    assert between.stats.extra["conflicts"] > 0 and between.state.learn.size > 1
    once = BitmaskBackend(learn=True, learn_after=30, restarts=0).solutions(queens_model(10))
    assert unique(once) == 724 and once.stats.extra["restarts"] == 1


def test_learning_that_waits_counts_from_the_start_once_solutions_are_rare() -> None:
    """10 queens fails some five times a solution: with `learn_rare` 20 (the
    default) its solutions are frequent and the wait for 300 failures counts
    since the last one, so the search stays plain; with `learn_rare` 1 they
    are rare, the wait counts from the start, and learning starts at a
    restart between its solutions. Either way, every solution once."""
    def search(rare: int) -> BitmaskSearch:
        backend = BitmaskBackend(learn_after=300, restarts=10, learn_restart=3,
                                 learn_rare=rare)
        found = backend.solutions(queens_model(10))
        solutions = [tuple(sorted(s.items(), key=repr)) for s in found]
        assert len(solutions) == len(set(solutions)) == 724  # OEIS A000170
        return found

    frequent = search(20)
    assert frequent.stats.failures < 20 * 724
    assert frequent.stats.extra["conflicts"] == 0 and frequent.state.learn.size == 1
    rare = search(1)
    assert rare.stats.extra["conflicts"] > 0 and rare.state.learn.size > 1
    assert BitmaskBackend().options.learn_rare == 20
    with pytest.raises(ValueError, match="learn_rare must be a whole number >= 0"):
        BitmaskBackend(learn_rare=-1)


def test_a_solution_found_early_does_not_keep_the_proof_plain() -> None:
    """The second 25x25 sudoku of `csp bench --suite full` finds its solution
    within a few thousand failures of the plain search, and needs some 18,000
    in all: learning after 10,000 failures without a solution (the default
    until stop 63; the default's 1,000 learn before the solution), the proof
    of uniqueness learns once the restarts after the solution have seen
    10,000 more. The count stays 1."""
    model = instances.get("sudoku-25x25").problems("model")[1]
    search = BitmaskSearch(model, BitmaskBackend(learn_after=10_000).options)
    found = iter(search)
    assert next(found) is not None
    assert search.stats.extra["conflicts"] == 0 and search.state.learn.size == 1
    assert list(found) == []
    assert search.stats.extra["conflicts"] > 0 and search.state.learn.size > 1
    assert BitmaskBackend(learn=False).count(model).count == 1


def test_a_puzzle_settled_before_learning_starts_pays_nothing() -> None:
    """9x9 sudokus need a handful of failures: with learning that waits for
    more, the search is the plain one, node for node, and never makes the
    learning arrays."""
    waiting = BitmaskBackend(learn=True, learn_after=1000).options
    for puzzle in sudoku.parse((EXAMPLES / "sudoku.txt").read_text()):
        model = sudoku.declare(puzzle, form="model")
        plain = BitmaskSearch(model, BitmaskBackend(learn=False).options)
        late = BitmaskSearch(model, waiting)
        assert plain.count().stats.nodes == late.count().stats.nodes
        assert late.stats.extra["conflicts"] == 0 and late.state.learn.size == 1
