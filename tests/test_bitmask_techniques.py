"""The techniques of `bitmask`, each switched off (or restarts on, very often):
counts and enumerations must not change. Restarts keep explored subtrees as
nogoods, so a restart between two solutions must neither lose nor repeat one:
counts are checked against known answers and against `dlx` on problems with
many solutions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_models import brute_force, overlapping_all_differents, queens_model

import csp
from csp import AllDifferent, Model, Status
from csp.backends.bitmask import BitmaskBackend, domains, kernel, layout, learn, matching
from csp.backends.bitmask.compile import compile_model
from csp.bench.instances import OPENED_COUNT, sudoku_opened
from csp.problems import kakuro, sudoku

VARIANTS = {
    "default": {},
    "no-restarts": {"restarts": 0},
    "no-matching": {"matching": False},
    "no-locked": {"locked": False},
    "no-probe": {"probe": False},
    "wdeg-off": {"wdeg": "off"},
    "wdeg-ratio": {"wdeg": "ratio"},
    "no-places": {"places": False},
    "no-defer": {"defer": False},
    "no-counts": {"counts": False},
    "last-conflict": {"last": True},
    "last-conflict-restarts-1": {"last": True, "restarts": 1},
    # Counted places and no strong reasoning: a narrowing that leaves no single wakes nothing.
    "singles-only": {"matching": False, "locked": False},
    # A restart after the first failure, then after 2, 4, 7, ... more: many
    # restarts, between and around solutions.
    "restarts-1": {"restarts": 1},
    "restarts-5-no-places": {"restarts": 5, "places": False},
    # Learning from the first conflict, restarts every few conflicts, and a
    # database so small that it is reduced (and refuses clauses) all the time.
    # (Restarts by the job: Glucose's when counting, Luby's for a first solution.)
    "learn": {"learn": True, "learn_after": 0, "learn_restart": 3},
    "learn-luby": {"learn": True, "learn_after": 0, "learn_restart": 3, "restart_margin": 0},
    # Values in order, and values by their activity for first solutions too.
    "learn-values-in-order": {"learn": True, "learn_after": 0, "learn_restart": 3,
                              "value_activity": False},
    "learn-no-phase": {"learn": True, "learn_after": 0, "learn_restart": 3, "phase": False},
    "learn-tiny-database": {"learn": True, "learn_after": 0, "learn_restart": 2,
                            "max_clauses": 16, "max_literals": 64},
    # Glucose's restarts as often as they come: whenever the
    # recent clauses are worse than the long-run average at all.
    "learn-glucose-restarts": {"learn": True, "learn_after": 0, "learn_restart": 1,
                               "restart_margin": 100},
    "learn-no-activity-no-restarts": {"learn": True, "learn_after": 0, "learn_restart": 0,
                                      "activity": False},
    "learn-last-no-places": {"learn": True, "learn_after": 5, "last": True, "places": False},
}


@pytest.fixture(params=list(VARIANTS), ids=list(VARIANTS))
def variant(request) -> BitmaskBackend:
    return BitmaskBackend(**VARIANTS[request.param])


def _key(solution) -> tuple:
    return tuple(sorted(solution.items(), key=repr))


def test_queens_counts(variant: BitmaskBackend) -> None:
    for n, count in ((5, 10), (6, 4), (7, 40), (8, 92)):  # OEIS A000170
        model = queens_model(n)
        assert variant.count(model).count == count
        found = [_key(s) for s in variant.solutions(model)]
        assert len(found) == len(set(found)) == count


def test_sudoku_with_38_solutions(shared_data: Path, variant: BitmaskBackend) -> None:
    special = json.loads((shared_data / "sudoku" / "sudoku9_special.json").read_text())
    for entry in special["puzzles"]:
        [puzzle] = sudoku.parse(entry["puzzle"])
        model = sudoku.declare(puzzle, form="model")
        assert variant.count(model).count == entry["solution_count"]
        found = [sudoku.format(puzzle, sudoku.decode(puzzle, s))
                 for s in variant.solutions(model)]
        assert len(found) == len(set(found)) == entry["solution_count"]
        if "all_solutions" in entry:
            assert set(found) == set(entry["all_solutions"])


def test_kakuro_counts(shared_data: Path, variant: BitmaskBackend) -> None:
    data = json.loads((shared_data / "kakuro" / "kakuro.json").read_text())
    for entry in data["puzzles"]:
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        result = variant.count(kakuro.declare(puzzle))
        assert (result.count, result.status) == (entry["solution_count"], Status.COMPLETE)


def test_restarts_count_many_solutions_as_dlx() -> None:
    # Norvig's hardest minus 4 givens: 52,276 solutions (dlx, xcover, miniexact,
    # exact-cover and cpsat agree); bitmask restarts between and around them.
    instance = sudoku_opened(4)
    [model] = instance.build("model")
    result = BitmaskBackend(restarts=1).count(model)
    assert result.count == OPENED_COUNT == csp.count(instance.build("exact-cover")[0], "dlx").count
    assert result.stats.extra["restarts"] > 10


def test_restarts_between_solutions_neither_lose_nor_repeat() -> None:
    model = queens_model(9)
    plain = {_key(s) for s in BitmaskBackend().solutions(model)}
    search = BitmaskBackend(restarts=1).solutions(model)
    found = [_key(s) for s in search]
    assert search.status is Status.COMPLETE
    assert len(found) == len(set(found)) == len(plain) == 352
    assert set(found) == plain
    assert search.stats.extra["restarts"] > 10 and search.stats.extra["nogoods"] > 0


def test_36x36_with_restarts(shared_data: Path) -> None:
    entries = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    entry = next(e for e in entries if e["name"].endswith("TestData36-puzzel1"))
    [puzzle] = sudoku.parse(entry["puzzle"], symbols=entry["symbols"])
    search = BitmaskBackend(restarts=20).solutions(sudoku.declare(puzzle, form="model"))
    found = [sudoku.format(puzzle, sudoku.decode(puzzle, s)) for s in search]
    assert (found, search.status) == ([entry["solution"]], Status.COMPLETE)
    assert search.stats.extra["restarts"] > 0


def _large_sudoku(shared_data: Path, name: str) -> tuple[dict, sudoku.Sudoku, Model]:
    """The entry of sudoku_large.json whose name ends with `name`, parsed and declared."""
    entries = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    entry = next(e for e in entries if e["name"].endswith(name))
    [puzzle] = sudoku.parse(entry["puzzle"], symbols=entry["symbols"])
    return entry, puzzle, sudoku.declare(puzzle, form="model")


def _root(backend: BitmaskBackend, model: Model) -> kernel.State:
    """The state of `backend` on `model` once the root is propagated (no probing)."""
    search = backend.solutions(model)
    kernel.search(search.arrays, search.state, True, 0)  # propagates the root, then pauses
    return search.state


def test_deferred_strong_reasoning_settles_the_same_root(shared_data: Path) -> None:
    # Matching and intersections after the singles' fixpoint, or after each
    # constraint's singles: one fixpoint, so the same root domains and the
    # same answer, with fewer runs of the strong reasoning.
    entry, puzzle, model = _large_sudoku(shared_data, "TestData25-minimal2")
    runs = {}
    for defer in (True, False):
        state = _root(BitmaskBackend(defer=defer, probe=False), model)
        runs[defer] = (state.dom.copy(), int(state.st[layout.STRONG]))
        search = BitmaskBackend(defer=defer).solutions(model, limit=2)
        found = [sudoku.format(puzzle, sudoku.decode(puzzle, s)) for s in search]
        assert (found, search.status) == ([entry["solution"]], Status.COMPLETE)
    assert (runs[True][0] == runs[False][0]).all()
    assert 0 < runs[True][1] < runs[False][1]


def _recount(problem, state) -> np.ndarray:
    """The places of every value in every all-different (as a mask of positions
    in it), read from the domains."""
    places = np.zeros_like(state.places)
    for c in np.flatnonzero(problem.kind == layout.ALLDIFF):
        a = problem.cstart[c]
        for e in range(a, problem.cstart[c + 1]):
            m = int(domains.to_common(problem, e, state.dom[problem.cvars[e]]))
            for k in range(64):
                if (m >> k) & 1:
                    places[c * 64 + k] |= 1 << int(e - a)
    return places


def test_counted_places_follow_the_domains_and_settle_the_same_root(shared_data: Path) -> None:
    # The places kept up to date by narrowing and undoing equal a recount at
    # every pause of a search (mid-tree, after failures, backtracks and
    # restarts); waking fewer singles reaches the same root fixpoint.
    _, _, model = _large_sudoku(shared_data, "TestData25-puzzel1")
    roots = {}
    for counts in (True, False):
        state = _root(BitmaskBackend(counts=counts, probe=False), model)
        roots[counts] = (state.dom.copy(), int(state.st[layout.PROPAGATIONS]))
    assert (roots[True][0] == roots[False][0]).all()
    assert roots[True][1] < roots[False][1]
    search = BitmaskBackend(restarts=5).solutions(model)
    for _ in range(200):
        assert search._advance(True, 7) == layout.PAUSED
        assert (search.state.places == _recount(search.arrays, search.state)).all()
        if search.state.st[layout.RESTARTS] >= 3:
            break
    assert search.state.st[layout.RESTARTS] >= 3


def _copy(state: kernel.State) -> kernel.State:
    return kernel.State(*(a.copy() for a in state))


def test_matching_by_places_prunes_as_edge_by_edge(shared_data: Path) -> None:
    # The matching's pruning read from the place masks (counts on) equals the
    # one from the graph built edge by edge (counts off), all-different by
    # all-different, on domains that only singles have settled: at the root
    # and mid-search, of a search with restarts and singles only.
    _, _, model = _large_sudoku(shared_data, "TestData25-puzzel1")
    singles = BitmaskBackend(matching=False, locked=False, probe=False, restarts=5)
    search = singles.solutions(model)
    states = [(search.arrays, _copy(_root(singles, model)))]
    for _ in range(6):
        search._advance(True, 40)
        states.append((search.arrays, _copy(search.state)))  # (nogoods added at restarts)
    pruned = 0
    for problem, state in states:
        for c in np.flatnonzero(problem.kind == layout.ALLDIFF):
            by = {}
            for mode in (layout.COUNTS_STRONG, layout.COUNTS_OFF):
                copy = _copy(state)
                copy.st[layout.OPT_COUNTS] = mode
                by[mode] = (bool(matching.matching(problem, copy, c)), copy.dom)
            assert by[layout.COUNTS_STRONG][0] == by[layout.COUNTS_OFF][0]
            assert (by[layout.COUNTS_STRONG][1] == by[layout.COUNTS_OFF][1]).all()
            pruned += int((by[layout.COUNTS_OFF][1] != state.dom).sum())
    assert pruned > 0  # the states leave the matching something to find


def test_an_all_different_too_wide_for_place_masks() -> None:
    # Places are kept as masks of positions, for all-differents of at most 64
    # cells; a wider one (a staircase: x_i in {i, i + 1}, 70 cells) always
    # wakes its singles. Its solutions: x_i = i below a gap k, i + 1 from it.
    m = Model()
    xs = [m.var(f"x{i}", (i, i + 1)) for i in range(70)]
    m.add(AllDifferent(xs))
    for options in ({}, {"counts": False}, {"restarts": 1}):
        assert BitmaskBackend(**options).count(m).count == 71


def test_givens_leave_their_large_all_differents_and_the_count_stays(shared_data: Path) -> None:
    # A given (a variable of one value) leaves each all-different of more than
    # KEEP_GIVENS variables, and the other cells lose its value from their
    # initial masks: the kernel scans only the open cells. A published 25x25
    # sudoku (tests/data/sudoku/sudoku_large.json), proved unique with its
    # published solution, with and without learning.
    entries = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    entry = next(e for e in entries if e["name"] == "michael404-TestData25-puzzel1")
    [puzzle] = sudoku.parse(entry["puzzle"], symbols=entry["symbols"])
    model = sudoku.declare(puzzle, form="model")
    assert isinstance(model, Model)
    problem = compile_model(model).problem
    givens = {i for i, g in enumerate(puzzle.givens) if g}
    sizes = []
    for c in np.flatnonzero(problem.kind == layout.ALLDIFF):
        scope = problem.cvars[problem.cstart[c]:problem.cstart[c + 1]].tolist()
        assert not givens & set(scope)
        sizes.append(len(scope))
    assert len(sizes) == 75 and max(sizes) < 25
    blank = min(set(range(625)) - givens)  # row 0: it lost each of that row's givens
    row = {puzzle.givens[c] for c in range(25)} - {0}
    assert row and not any(int(problem.dom0[blank]) >> (g - 1) & 1 for g in row)
    for options in ({}, {"learn_after": 0}):
        result = BitmaskBackend(**options).count(model)
        assert (result.count, result.status) == (1, Status.COMPLETE)
    [only] = BitmaskBackend().solutions(model)
    assert sudoku.format(puzzle, sudoku.decode(puzzle, only)) == entry["solution"]
    # The model itself is untouched: only the kernel's masks lost values.
    assert len(model.variables[list(model.variables)[blank]].domain) == 25


def test_a_last_conflict_on_a_value_that_may_go_unused_is_not_branched_on() -> None:
    # A last conflict on a value's places is recorded where the all-different
    # has as many values as cells; after backtracking above that point, on
    # another branch, it may have more, and a value may go unused: its places
    # are then no partition of the solutions. Here the state after such a
    # backtrack is set by hand (x, y, z different, each in 1..4: 24
    # solutions, 6 of them without 1): branching on 1's places lost those 6.
    m = Model()
    m.add(AllDifferent([m.var(i, [1, 2, 3, 4]) for i in range(3)]))
    search = BitmaskBackend(last=True, probe=False).solutions(m)
    problem, state = search.arrays, search.state
    c = int(np.flatnonzero(problem.kind == layout.ALLDIFF)[0])
    state.st[layout.LAST_CHOICE] = -(c + 1)
    state.st[layout.LAST_BIT] = 1  # value 1, in c's common space
    assert search.count().count == 24


def test_nogoods_of_a_branch() -> None:
    # At a restart the kernel stops with its branch intact: the nogoods are
    # built from decisions that hold on it (those above the deepest level),
    # and each refuted alternative is on a variable none of them decided.
    model = queens_model(8)
    search = BitmaskBackend(restarts=3).solutions(model)
    problem, state = search.arrays, search.state
    assert kernel.search(problem, state, True, 1 << 20) == layout.RESTART
    depth = int(state.st[layout.DEPTH])
    learned = learn.nogoods(problem, state)
    assert learned and all(len(above) < depth for above, _ in learned)
    for above, alternatives in learned:
        assert all(state.dom[x] == 1 << k for x, k in above)
        assert all(state.dom[x] != 1 << k for x, k in alternatives)
        assert not {x for x, _ in alternatives} & {x for x, _ in above}


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="wdeg must be one of off, ties, ratio"):
        BitmaskBackend(wdeg="most")
    with pytest.raises(ValueError, match="restarts must be a whole number >= 0, not -1"):
        BitmaskBackend(restarts=-1)
    with pytest.raises(ValueError, match="not 2.5"):
        BitmaskBackend(restarts=2.5)  # type: ignore[arg-type]
    # A truthy string would switch the technique on whatever it says.
    with pytest.raises(TypeError, match="counts must be True or False, not 'no'"):
        BitmaskBackend(counts="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="defer must be True or False, not 2"):
        BitmaskBackend(defer=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="last must be True or False, not 'yes'"):
        BitmaskBackend(last="yes")  # type: ignore[arg-type]


# -- random models: every variant against brute force -------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(overlapping_all_differents(), st.sampled_from(list(VARIANTS)))
def test_random_models_every_variant(m: Model, name: str) -> None:
    names = list(m.variables)
    backend = BitmaskBackend(**VARIANTS[name])
    found = [tuple(s[v] for v in names) for s in backend.solutions(m)]
    assert len(found) == len(set(found))
    assert set(found) == brute_force(m)
    assert backend.count(m).count == len(found)
