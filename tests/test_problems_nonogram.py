"""Nonograms: the nonogram-db collection (tests/data/nonogram, `.non` files
with their published `goal`) on every backend, each proven unique (limit 2).

Every backend runs the puzzles within its reach (`REACH`, cells); `cpsat`
and `bitmask` run all of them, so each published answer is checked by two
backends.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from published import collection

import csp
from csp.cli import main
from csp.errors import InputError
from csp.global_constraints import Regular
from csp.model import Model
from csp.problems import nonogram

DATA = Path(__file__).resolve().parent / "data" / "nonogram"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
REACH = {"cpsat": 10**6, "bitmask": 10**6, "sat": 300, "dlx": 100, "python-constraint": 0}
FAST = 100


def test_the_collection_has_its_published_answers(csp_backend):
    reach = REACH.get(csp_backend, FAST)
    tried = 0
    for entry in collection("nonogram"):
        if entry.cells > reach:
            continue
        found = list(csp.solutions(nonogram.declare(entry.puzzle), csp_backend, limit=2))
        assert len(found) == 1, entry.name
        assert entry.check(found[0]), entry.name
        tried += 1
    if not tried:
        pytest.skip(f"no nonogram within {csp_backend}'s reach here ({reach} cells)")


def test_the_collection_is_large():
    entries = collection("nonogram")
    assert len(entries) >= 10 and sum(min(e.height, e.width) >= 10 for e in entries) >= 10


def test_a_tiny_one_on_python_constraint():
    [puzzle] = nonogram.parse("width 3\nheight 2\nrows\n1,1\n3\ncolumns\n2\n1\n2\n")
    assert csp.count(nonogram.declare(puzzle), "python-constraint").count == 1


def test_the_automaton_counts_the_placements_of_the_runs():
    # runs 2,1 in 6 cells: C(6 - 3 + 1, 2) = 6 placements; no runs: one
    for clue, count in [((2, 1), 6), ((), 1), ((6,), 1), ((1, 1, 1), 4), ((3, 3), 0)]:
        row = Model()
        cells = [row.bool(k) for k in range(6)]
        row.add(Regular(cells, *nonogram.automaton(clue)))
        assert csp.count(row, "cpsat").count == count, clue


def test_a_bundle_holds_several_puzzles_and_a_bad_one_is_reported():
    one = "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n"
    items = list(nonogram.puzzles(one + "====\nwidth 2\nheight 1\nrows\n3\ncolumns\n1\n1\n"
                                  "====\n" + one))
    assert [type(i).__name__ for i in items] == ["Nonogram", "InputError", "Nonogram"]
    assert "the runs '3' need 3 cells; the row has 2" in str(items[1])


@pytest.mark.parametrize("text, error", [
    ("rows\n1\ncolumns\n1\n", "'rows' before the puzzle's width and height"),
    ("width 1\nheight 1\nrows\n1\n", "has no 'columns'"),
    ("width 2\nheight 1\nrows\n1b\ncolumns\n1\n1\n", "names a colour"),
    ("width 2\nheight 1\ncolor a #ff0000\nrows\n1\ncolumns\n1\n1\n", "multi-colour"),
    ("width x\nheight 1\n", "width 'x' is not a whole number"),
    ("width 2\nheight 3\nrows\n1\n", "'rows' wants 3 clue lines"),
])
def test_bad_input_is_an_input_error_naming_it(text, error):
    with pytest.raises(InputError, match=error):
        nonogram.parse(text)


def test_csp_solve_reads_a_non_file(capsys):
    assert main(["solve", "nonogram", str(EXAMPLES / "nonogram.non"), "--count"]) == 0
    assert capsys.readouterr().out == "1\n"
    assert main(["solve", "nonogram", str(DATA / "webpbn-26167.non"), "--all",
                 "--backend", "cpsat"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("1 solution\n") and out.count("\n") == 11
