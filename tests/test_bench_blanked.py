"""bench/bench_learning.py's blanked sudokus: the tuning half's 36x36
minimal1 with a clue taken away, the sudokus `bitmask` learning is tuned on
since its own large sudokus never reach learning (bench/RESULTS.md)."""

from __future__ import annotations

import json

import bench_scripts
import pytest

import csp
from csp.backends.bitmask import BitmaskBackend
from csp.problems import sudoku

bench_scripts.load("qwh")  # (bench_learning imports it)
learning = bench_scripts.load("bench_learning")


def _entry(shared_data, name):
    data = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    return next(e for e in data if e["name"] == name)


def test_a_seed_blanks_that_many_clues_and_always_the_same(shared_data):
    original = _entry(shared_data, learning.BLANKED_FROM)["puzzle"]
    for seed in learning.BLANKED_SEEDS:
        text = learning.blanked_text(seed)
        assert text == learning.blanked_text(seed)
        changed = [i for i, (a, b) in enumerate(zip(original, text)) if a != b]
        assert len(text) == len(original) and len(changed) == 1
        assert text[changed[0]] == "." and original[changed[0]] != "."
    three = learning.blanked_text(3, clues=3)
    assert sum(a != b for a, b in zip(original, three)) == 3
    seeds = learning.BLANKED_SEEDS
    assert len({learning.blanked_text(seed) for seed in seeds}) == len(seeds)


def test_only_the_tuning_half_is_blanked():
    with pytest.raises(ValueError, match="not of the tuning half"):
        learning.blanked(0, "michael404-TestData36-minimal2")  # (reported on)
    with pytest.raises(ValueError, match="cannot blank"):
        learning.blanked(0, clues=0)


@pytest.mark.parametrize("backend", [BitmaskBackend(), BitmaskBackend(learn_after=0), "cpsat"])
def test_a_blanked_sudoku_keeps_its_solution_and_counts_alike(shared_data, backend):
    # Seed 2's blank leaves the solution unique: 0.5 s on either solver
    # (the tuning seeds take CP-SAT 2 to 8 s, `bitmask` up to over 30 s:
    # bench_learning_tune.py --blanked).
    if backend == "cpsat" and "cpsat" not in csp.backends.engines():
        pytest.skip("cpsat is not installed")
    entry = _entry(shared_data, learning.BLANKED_FROM)
    [puzzle] = sudoku.parse(learning.blanked_text(2), symbols=entry["symbols"])
    problem = sudoku.declare(puzzle, "model")
    found = list(csp.solutions(problem, backend))
    assert [sudoku.format(puzzle, sudoku.decode(puzzle, s, problem)) for s in found] \
        == [entry["solution"]]
    assert csp.count(problem, backend).count == 1


def test_cpsat_parameters_for_tuning_take_repeated_fields():
    """`bench_learning_tune.py --cpsat` sets CP-SAT's repeated parameters from
    a list (how its restarts were switched off at stop 44), and names a
    misspelt one."""
    pytest.importorskip("ortools")
    tune = bench_scripts.load("bench_learning_tune")
    solver = tune._parameters({"restart_algorithms": [0], "restart_period": 100})
    assert list(solver.parameters.restart_algorithms) == [0]  # NO_RESTART only
    assert solver.parameters.num_workers == 1 and solver.parameters.restart_period == 100
    with pytest.raises(AttributeError):
        tune._parameters({"restart_algorithm": [0]})


def test_the_tuning_script_blanks_another_tuning_sudoku(monkeypatch, capsys):
    """`--blanked-from NAME:CLUES` (the second sudoku set, stop 55) takes
    another sudoku of the tuning half; a reported one, or more clues than it
    has, is an argument error, said before any run."""
    tune = bench_scripts.load("bench_learning_tune")
    [(name, model, first)] = tune.instances([], False, (3,), (),
                                            ("michael404-TestData36-puzzel1", 8))
    assert name == "michael404-TestData36-puzzel1-blank8-seed3" and not first
    assert len(model.variables) == 1296
    for spec, why in (("michael404-TestData36-evil1:8", "not of the tuning half"),
                      ("michael404-TestData36-puzzel1:5000", "cannot blank 5000"),
                      ("michael404-TestData36-puzzel1", "not NAME:CLUES")):
        monkeypatch.setattr("sys.argv", ["bench_learning_tune.py", "--blanked", "0",
                                         "--blanked-from", spec, "--config", "{}"])
        with pytest.raises(SystemExit) as stop:
            tune.main()
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert f"--blanked-from {spec}: " in err and why in err
