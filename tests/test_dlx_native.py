"""The C kernel of the dancing cells (`_cells`, built by `pip install`) against the
numba kernel it transliterates: the same counts, nodes, updates, solutions in
the same order, subproblems, and the same state after every budgeted call."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import csp
from csp import ExactCover, Status
from csp.backends.dlx import DLXBackend, cells
from csp.backends.dlx.cells import CellsSearch, NumbaCellsSearch
from csp.problems import polyomino, queens, sudoku, wordsquare

native = pytest.mark.skipif(cells.native is None, reason="the C kernel is not built here")


def test_the_c_kernel_is_built_where_ci_requires_it():
    # CI installs with CSP_REQUIRE_NATIVE=1: a build that silently fell back
    # to numba fails here rather than passing on the slower kernel.
    if os.environ.get("CSP_REQUIRE_NATIVE") == "1":
        assert cells.native is not None, "csp.backends.dlx._cells was not built"
        assert cells.kernel_name() == "C"


@native
def test_the_c_kernel_is_not_older_than_its_source():
    # An editable install keeps the last .so when a rebuild fails to compile
    # (the extension is optional): that stale kernel must not be tested.
    source = Path(cells.__file__).with_name("_cells.c")
    built = Path(cells.native.__file__)
    if built.parent == source.parent:  # an editable install (in a wheel: no source)
        assert built.stat().st_mtime >= source.stat().st_mtime, \
            "_cells.c changed after the C kernel was built: CSP_REQUIRE_NATIVE=1 pip install -e ."


def _instances(data):
    """Real covers with known counts, a few thousand nodes each: plain,
    secondary items, colours, forced moves."""
    answers = {"pent_4x15": 16, "pent_3x20": 8}
    for name, count in answers.items():
        text = (data / "polyomino" / f"{name}.txt").read_text()
        yield name, polyomino.declare(polyomino.parse(text, reflect=name == "pent_3x20")[0]), count
    yield "queens 9", queens.declare(queens.Queens(9)), 352
    yield "word squares", ExactCover.read(data / "wordsquare" / "squares4-100.xc"), 100
    words = "bad dab add bed bee bid cab ace aid dad ebb".split()
    yield "3x3 word squares", wordsquare.declare(wordsquare.WordSquare(tuple(words))), None
    line = (data / "sudoku" / "norvig_hardest.txt").read_text().split()[1]
    blank = "." * 30 + line[30:]  # a solved grid with its first 30 cells blank: a few solutions
    yield "sudoku", sudoku.declare(sudoku.parse(blank)[0]), None
    manual = ExactCover.read(data / "xc" / "knuth_dlx2_manual.dlx", warn=lambda _: None)
    yield "knuth's manual", manual, 1


@native
def test_c_and_numba_agree_on_counts_nodes_and_updates(shared_data):
    for name, xc, known in _instances(shared_data):
        c, numba = CellsSearch(xc).count(), NumbaCellsSearch(xc).count()
        assert c.stats.extra["kernel"] == "C" and numba.stats.extra["kernel"] == "numba"
        figures = [(r.count, r.stats.nodes, r.stats.updates, r.status) for r in (c, numba)]
        assert figures[0] == figures[1], name
        assert known is None or c.count == known, name
        assert c.stats.nodes > 1, name


@native
def test_c_and_numba_list_the_same_solutions_in_the_same_order(shared_data):
    for name, xc, _ in _instances(shared_data):
        c, numba = CellsSearch(xc), NumbaCellsSearch(xc)
        assert list(c) == list(numba), name
        assert (c.stats.nodes, c.stats.updates) == (numba.stats.nodes, numba.stats.updates)
        assert c.sanity() == []


@native
def test_budgeted_calls_leave_the_same_state(shared_data):
    # Paused every 37 nodes, resumed, with a stack too small to start with:
    # PAUSED, FOUND and GROW at the same places, the same arrays after each.
    text = (shared_data / "polyomino" / "pent_3x20.txt").read_text()
    xc = polyomino.declare(polyomino.parse(text, reflect=True)[0])
    runs = [Search(xc) for Search in (CellsSearch, NumbaCellsSearch)]
    for run in runs:
        run.stack = np.zeros(4, dtype=np.int32)
    events = {0: 0, 1: 0, 2: 0, 3: 0}
    while True:
        got = [int(run.kernel.search(run.cells.nd, run.cells.sets, run.cells.item, run.choice,
                                     run.saved, run.saved_ap, run.stack, run.force, run.state,
                                     False, 37)) for run in runs]
        assert got[0] == got[1]
        events[got[0]] += 1
        for a, b in zip(*(vars(run.cells).values() for run in runs)):
            assert np.array_equal(a, b)
        for name in ("choice", "saved", "saved_ap", "force", "state", "stack"):
            assert np.array_equal(getattr(runs[0], name), getattr(runs[1], name)), name
        if got[0] == cells.slots.GROW:
            for run in runs:
                run.stack = np.concatenate([run.stack, np.zeros_like(run.stack)])
        elif got[0] == cells.slots.EXHAUSTED:
            break
    assert events[cells.slots.FOUND] == 8 and events[cells.slots.PAUSED] > 10
    assert events[cells.slots.GROW] > 0
    assert runs[0].state[cells.slots.SOLUTIONS] == 8


@native
def test_subproblems_and_limits_agree(shared_data):
    xc = queens.declare(queens.Queens(10))
    prefixes = []
    for engine in ("cells", "cells-numba"):
        search = DLXBackend(engine).split(xc, [], 3)
        prefixes.append(list(search))
        assert search.status is Status.COMPLETE
    assert prefixes[0] == prefixes[1] and len(prefixes[0]) > 20
    counts = []
    for engine in ("cells", "cells-numba"):
        backend = DLXBackend(engine)
        results = [backend.count_chosen(xc, prefix) for prefix in prefixes[0]]
        counts.append([(r.count, r.stats.nodes, r.stats.updates) for r in results])
        assert sum(r.count for r in results) == 724
    assert counts[0] == counts[1]
    # an incompatible prefix (two queens on one row) and a solution limit
    for Search in (CellsSearch, NumbaCellsSearch):
        assert not Search(xc).choose([0, 1])
        limited = Search(xc, limit=7)
        assert len(list(limited)) == 7 and limited.status is Status.SOLUTION_LIMIT
    first = [list(itertools.islice(Search(xc), 7)) for Search in (CellsSearch, NumbaCellsSearch)]
    assert first[0] == first[1]


@native
def test_the_structures_are_built_alike(shared_data):
    for name, xc, _ in _instances(shared_data):
        c, numba = cells.build(xc), cells.build(xc, numba=True)
        for field in ("nd", "sets", "item", "first_primary"):
            assert np.array_equal(getattr(c, field), getattr(numba, field)), (name, field)


def test_without_the_c_kernel_numba_runs(monkeypatch, shared_data):
    # An install without a C compiler has no _cells: everything still works.
    monkeypatch.setattr(cells, "native", None)
    assert cells.kernel_name() == "numba"
    xc = ExactCover.read(shared_data / "wordsquare" / "squares4-100.xc")
    result = DLXBackend().count(xc)
    assert (result.count, result.stats.extra["kernel"]) == (100, "numba")
    assert len(list(DLXBackend().solutions(xc))) == 100
    # families then run numba's loop on the links, with the same answers
    shape = ExactCover.from_text("a b\na\nb\na b\n")
    found = [(r.solution, r.count) for r in DLXBackend().solve_family(shape, [[0], [2], [0, 2]])]
    assert found == [((0, 1), 1), ((2,), 1), (None, 0)]


@native
def test_the_environment_can_ask_for_numba(monkeypatch):
    monkeypatch.setenv(cells.NUMBA_VARIABLE, "1")
    assert cells.kernel_name() == "numba"
    monkeypatch.delenv(cells.NUMBA_VARIABLE)
    assert cells.kernel_name() == "C"


@native
def test_bad_arrays_are_refused():
    xc = queens.declare(queens.Queens(4))
    search = CellsSearch(xc)
    with pytest.raises(TypeError, match="state: an array of 8-byte integers expected"):
        cells.native.search(search.cells.nd, search.cells.sets, search.cells.item, search.choice,
                            search.saved, search.saved_ap, search.stack, search.force,
                            search.state.astype(np.int32), True, 100)
    with pytest.raises(ValueError, match="the arrays' sizes do not agree"):
        arrays = xc.arrays()
        cells.native.build(arrays["start"], arrays["items"], arrays["colours"], xc.n_primary,
                           *(np.zeros(3, dtype=np.int32) for _ in range(4)))


@native
def test_counting_a_cover_file_does_not_import_numba(shared_data, tmp_path):
    path = tmp_path / "queens8.xc"
    path.write_text(queens.declare(queens.Queens(8)).to_text())
    script = ("import sys\nfrom csp.cli import main\n"
              f"status = main(['xc', {str(path)!r}, '--count'])\n"
              "print('numba' in sys.modules, status)\n")
    env = {k: v for k, v in os.environ.items() if k != cells.NUMBA_VARIABLE}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert out.splitlines()[-1] == "False 0", out
    assert "92 solutions" in out and "kernel=C" in out


@native
def test_a_family_on_the_c_kernel_matches_each_puzzle_alone(shared_data):
    # Known grids with their first 30 cells blank: several solutions each,
    # counted and solved in the C loop; the same as the numba engine one by one.
    lines = (shared_data / "sudoku" / "norvig_top95.txt").read_text().splitlines()[:12]
    grids = [line.split()[1] for line in lines]
    opened = sudoku.parse("\n".join("." * 30 + grid[30:] for grid in grids))
    shape, givens = csp.family(sudoku.KIND, opened)
    counted = list(DLXBackend().solve_family(shape, givens, count=True))
    first = list(DLXBackend().solve_family(shape, givens))
    links = list(DLXBackend("links").solve_family(shape, givens, count=True))
    for j, given in enumerate(givens):
        alone = NumbaCellsSearch(shape)
        assert alone.choose(given)
        result = alone.count()
        assert (counted[j].count, counted[j].stats.nodes, counted[j].stats.updates) \
            == (result.count, result.stats.nodes, result.stats.updates)
        assert counted[j].count == links[j].count and counted[j].status is Status.COMPLETE
        alone = NumbaCellsSearch(shape)
        alone.choose(given)
        assert first[j].solution == next(iter(alone)) and first[j].count == 1
        assert not shape.check(first[j].solution)
    assert sum(r.count for r in counted) > len(givens)
    # a given that clashes with another: no solution, in both loops
    clash = [list(givens[0]) + [k] for k in range(shape.n_options) if k not in givens[0]][:3]
    assert [r.count for r in DLXBackend().solve_family(shape, clash, count=True)] \
        == [r.count for r in DLXBackend("links").solve_family(shape, clash, count=True)]


def test_every_engine_says_which_kernel_ran():
    # The README: the statistics say kernel=C or kernel=numba, whatever the engine.
    from csp.backends.dlx import DLXBackend

    xc = queens.declare(queens.Queens(6))
    for engine in ("cells", "cells-numba", "links"):
        result = DLXBackend(engine=engine).count(xc)
        assert result.count == 4, engine
        assert result.stats.extra["kernel"] in ("C", "numba"), engine
