"""bench/qwh.py: the quasigroup-with-holes and quasigroup completion
instances made from a seed, on which `bitmask` learning is tuned and reported
(bench/bench_learning.py --qwh)."""

from __future__ import annotations

import random

import bench_scripts
import pytest

import csp
from csp.backends.bitmask import BitmaskBackend

qwh = bench_scripts.load("qwh")


def _latin(grid: list[list[int]]) -> bool:
    n = len(grid)
    return (all(sorted(row) == list(range(n)) for row in grid)
            and all(sorted(col) == list(range(n)) for col in zip(*grid)))


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_the_chain_gives_latin_squares_and_moves(n: int) -> None:
    squares = [qwh.square(n, random.Random(seed)) for seed in range(4)]
    assert all(_latin(s) for s in squares)
    cyclic = [[(r + c) % n for c in range(n)] for r in range(n)]
    if n >= 5:  # (the chain left the cyclic square it starts from)
        assert any(s != cyclic for s in squares)


def test_balanced_holes_and_the_square_solves_the_instance() -> None:
    made = qwh.instance(12, 40, 7)
    assert made == qwh.instance(12, 40, 7)  # (a seed always makes the same instance)
    grid, solution = made["grid"], made["solution"]
    assert _latin(solution)
    holes = [sum(v < 0 for v in row) for row in grid]
    assert sum(holes) == 40 and set(holes) == {3, 4}  # 40 = 12 * 3 + 4
    assert all(v in (-1, s) for row, srow in zip(grid, solution) for v, s in zip(row, srow))
    uniform = qwh.instance(12, 40, 7, balanced=False)
    assert sum(v < 0 for row in uniform["grid"] for v in row) == 40
    model = bench_scripts.load("bench_learning").latin(grid)
    assert model.check({(r, c): solution[r][c] for r in range(12) for c in range(12)}) == []
    for backend in (BitmaskBackend(learn=False), BitmaskBackend(learn_after=0)):
        found = csp.solve(model, backend).solution
        assert found is not None and model.check(found) == []


def test_quasigroup_completion_preassigns_consistently() -> None:
    made = qwh.qcp(15, 120, 3)
    grid = made["grid"]
    assert sum(v < 0 for row in grid for v in row) == 120
    for line in [*grid, *map(list, zip(*grid))]:
        given = [v for v in line if v >= 0]
        assert len(given) == len(set(given))
    assert qwh.seeds("1,4,7-9") == [1, 4, 7, 8, 9]


def test_a_cell_left_without_a_value_stays_a_hole() -> None:
    # Seed 3 of 12:40 takes back every value of a cell: it used to stop with
    # an IndexError; the cell is now a hole (the instance has no solution).
    grid = qwh.qcp(12, 40, 3)["grid"]
    assert sum(v < 0 for row in grid for v in row) == 40
    for line in [*grid, *map(list, zip(*grid))]:
        given = [v for v in line if v >= 0]
        assert len(given) == len(set(given))
    with pytest.raises(ValueError, match="qcp 4:1:0: forward checking left 2 cells"):
        qwh.qcp(4, 1, 0)


def test_the_ledger_keeps_tuned_and_reported_seeds_apart() -> None:
    assert qwh.seeds("") == []
    assert qwh.reported(30, 330, [7, 104, 605, 700]) == [104, 605]
    assert qwh.reported(25, 264, [104]) == []  # (another order: nothing reported)
    for key, text in qwh.REPORTED.items():
        assert not set(qwh.seeds(text)) & set(qwh.seeds(qwh.TUNED.get(key, "")))


def test_tuning_refuses_seeds_reported_on_and_malformed_specs() -> None:
    tune = bench_scripts.load("bench_learning_tune")
    assert tune._unseen("30:330:0-19") is None
    assert tune._unseen("30:330:700-707") is None
    why = tune._unseen("30:330:0-19,105")
    assert why is not None and why.startswith("seed 105 was reported on")
    why = tune._unseen("30:330:499-501")
    assert why is not None and why.startswith("seeds 500,501 were reported on")
    assert tune._unseen("30:330:x") == "not N:HOLES:SEEDS, e.g. 30:330:0-19"
    assert tune._unseen("30:330") == "not N:HOLES:SEEDS, e.g. 30:330:0-19"
    assert tune._unseen("30:330:") == "no seeds"
    for spec in tune.DEFAULT_QWH:  # (the default set is a tuning set)
        assert tune._unseen(spec) is None


def test_tuning_counts_the_quasigroups_of_qwh_count() -> None:
    # `--qwh` quasigroups are solved to a first solution, `--qwh-count` ones
    # counted: a count's restarts are chosen apart (BitmaskBackend's
    # restart_margin), so it is tuned on counts.
    tune = bench_scripts.load("bench_learning_tune")
    chosen = tune.instances(["10:40:0"], False, (), ("10:40:1-2",))
    assert [(name, first) for name, _, first in chosen] == [
        ("bqwh-10-40-0", True), ("bqwh-10-40-1", False), ("bqwh-10-40-2", False)]


def test_a_renamed_copy_is_the_same_puzzle() -> None:
    # --renamed measures a solver's spread over copies of one puzzle: each
    # copy must have exactly the original's completions, under other names.
    # (bench/ is outside pytest's doctest modules: qwh's examples run here.)
    import doctest

    assert doctest.testmod(qwh).failed == 0
    tune = bench_scripts.load("bench_learning_tune")
    chosen = tune.instances([], False, (), ("8:40:0,3",), renamed=2)
    assert [name for name, _, _ in chosen] == [
        "bqwh-8-40-0", "bqwh-8-40-0/r1", "bqwh-8-40-0/r2",
        "bqwh-8-40-3", "bqwh-8-40-3/r1", "bqwh-8-40-3/r2"]
    grid = qwh.instance(8, 40, 0)["grid"]
    copy = qwh.renamed(grid, 1)
    assert copy != grid and qwh.renamed(grid, 1) == copy
    counts = [BitmaskBackend().count(model).count for _, model, _ in chosen]
    assert counts == [36, 36, 36, 93, 93, 93]
    assert csp.count(chosen[1][1], "cpsat").count == 36


def test_the_direct_encoding_counts_as_bitmask_and_cpsat() -> None:
    # bench_qwh_sat.py sets the field's SAT solvers beside bitmask on these
    # instances: its encoding must have exactly their completions.
    import doctest

    pytest.importorskip("pysat", reason="bench_qwh_sat needs python-sat (the sat extra)")
    sat = bench_scripts.load("bench_qwh_sat")
    assert doctest.testmod(sat).failed == 0
    latin = bench_scripts.load("bench_learning").latin
    for seed in (0, 2, 3):  # 36, 245 and 93 completions
        made = qwh.instance(8, 40, seed)
        model = latin(made["grid"])
        want = BitmaskBackend().count(model).count
        assert want == csp.count(model, "cpsat").count
        assert sat.count(made["grid"], "g4")[1] == want
        assert sat.count(made["grid"], "m22")[1] == want
        got = sat.limited(made["grid"], "g4", 60)
        assert got is not None and got[1] == want
    clauses, atoms = sat.direct([[0, -1], [-1, 0]])  # (1 must go in both holes)
    assert atoms == 2 and [1] in clauses and [2] in clauses
