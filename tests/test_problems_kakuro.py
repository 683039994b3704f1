"""Kakuro: both input formats, the model, and the shared data on every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import Budget, finished

import csp
from csp.errors import InputError
from csp.problems import kakuro

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kakuro.txt"
EXAMPLE_ANSWER = EXAMPLE.with_name("kakuro.answer.txt")


def data(shared_data):
    return json.loads((shared_data / "kakuro" / "kakuro.json").read_text())["puzzles"]


def answer_of(entry):
    """The data's solution rows ('#' = not white) as {cell: digit}."""
    rows = entry["solution"] or entry["example_solution"]
    return {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}


def answers(puzzle, backend, limit=None, time_limit=None):
    """Every answer `backend` finds (None if it ran out of `time_limit`)."""
    model = kakuro.declare(puzzle)
    found = []
    search = csp.solutions(model, backend, limit=limit, time_limit=time_limit)
    for solution in search:
        assert not model.problems(solution)
        found.append(kakuro.decode(puzzle, solution))
    return found if finished(search.status) else None


def test_algospot_sample_reads_and_round_trips():
    [puzzle] = kakuro.parse(EXAMPLE.read_text())
    shape = (puzzle.rows, puzzle.layout, len(puzzle.white), len(puzzle.hints))
    assert shape == (8, "algospot", 36, 24)
    assert kakuro.parse(kakuro.format_puzzle(puzzle)) == [puzzle]


def test_grid_format_round_trips(shared_data):
    for entry in data(shared_data):
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        assert (puzzle.rows, puzzle.cols, puzzle.layout) == (entry["rows"], entry["cols"], "grid")
        assert kakuro.format_puzzle(puzzle) == "\n".join(entry["grid"])


def test_several_grids_separated_by_blank_lines(shared_data):
    grids = ["\n".join(e["grid"]) for e in data(shared_data)]
    assert len(kakuro.parse("\n\n".join(grids) + "\n")) == len(grids)


def test_model_accepts_the_known_answers(shared_data):
    for entry in data(shared_data):
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        answer = answer_of(entry)
        assert set(answer) == puzzle.white
        assert kakuro.declare(puzzle).problems(kakuro.encode(puzzle, answer)) == []


@pytest.mark.parametrize("text, message", [
    ("1\n2\n0 1\n1 1 1\n0\n", "line 4: case 1, row 2: expected 2 integers"),
    ("1\n2\n0 0\n0 1\n1\n2 2 0 3\n", "line 6: hint at row 2, column 2 is on a white cell"),
    ("1\n2\n0 0\n0 1\n1\n1 1 0 3\n", "line 6: hint at row 1, column 1: no white cell to its right"),
    ("1\n2\n0 0\n0 1\n1\n2 1 0 x\n", "line 6: .*'x' is not an integer"),
    ("# 4\\\n\\4 . .\n", "line 2: row 2 has 3 cells, the first row has 2"),
    ("# 4\\ 3\\\n\\4 . x\n\\3 . .", r"line 2: row 2, column 3: 'x' is not '#'"),
])
def test_bad_input(text, message):
    with pytest.raises(InputError, match=message):
        kakuro.parse(text)


def test_one_bad_grid_does_not_stop_the_others():
    good = "# 4\\ 3\\\n\\4 . .\n\\3 . ."
    items = list(kakuro.puzzles(f"{good}\n\n# 4\\\n\\4 . .\n\n{good}\n"))
    assert [type(i).__name__ for i in items] == ["Kakuro", "InputError", "Kakuro"]
    assert items[1].line == 6


CASE = "3\n0 0 0\n0 1 1\n0 1 1\n4\n2 1 0 4\n3 1 0 3\n1 2 1 4\n1 3 1 3"
"""An algospot case of 9 lines: the module doctest's 3x3 grid (answer 3 1 / 1 2)."""


@pytest.mark.parametrize("bad, line, message", [
    (CASE.replace("0 1 1", "0 2 1", 1), 4, "case 1, row 2, column 2: 2 is not 0"),
    (CASE.replace("0 1 1\n0 1 1", "0 1 1", 1), 5,
     "case 1 has 2 rows, its size line 2 says 3: line 5 is not a row"),
    (CASE.replace("0 1 1\n", "0 1 1\n0 1 1\n", 1), 6, "case 1 has more than the 3 rows"),
    (CASE.replace("\n4\n", "\n5\n"), 6, "line 6 announces 5 hints but only 4 follow"),
    (CASE.replace("\n4\n", "\n3\n"), 10, "line 6 announces 3 hints but more follow"),
    (CASE.replace("3 1 0 3", "3 1 0"), 8, "hint 'r c d s': expected 4 integers, found 3"),
    (CASE.replace("3 1 0 3", "3 2 0 3"), 8, "hint at row 3, column 2 is on a white cell"),
])
def test_a_bad_algospot_case_does_not_stop_the_next(bad, line, message):
    items = list(kakuro.puzzles(f"3\n{bad}\n{CASE}\n{CASE}\n"))
    assert [type(i).__name__ for i in items] == ["InputError", "Kakuro", "Kakuro"]
    assert items[0].line == line and message in items[0].message
    after = len(bad.splitlines()) + 2  # the line of the second case's size
    assert [i.line for i in items[1:]] == [after, after + 9]
    answer = kakuro.decode(items[1], csp.solve(kakuro.declare(items[1])).solution)
    assert kakuro.format(items[1], answer) == "0 0 0\n0 3 1\n0 1 2"


def test_algospot_case_count_is_checked():
    *cases, missing = kakuro.puzzles(f"3\n{CASE}\n{CASE}\n")
    assert len(cases) == 2 and missing.line == 1
    assert "ends after 2 of the 3 cases that line 1 announces" in missing.message
    *cases, extra = kakuro.puzzles(f"1\n{CASE}\n{CASE}\n")
    assert len(cases) == 1 and extra.line == 11
    assert "follows the 1 cases that line 1 announces" in extra.message


def test_an_algospot_case_that_cannot_be_delimited_ends_the_file():
    # No hint count after the rows: where the case ends is unknown.
    items = list(kakuro.puzzles(f"2\n{CASE.replace(chr(10) + '4' + chr(10), chr(10))}\n{CASE}"))
    assert len(items) == 1 and isinstance(items[0], InputError)


def test_algospot_sample_on_every_backend(csp_backend):
    [puzzle] = kakuro.parse(EXAMPLE.read_text())
    # the problem's own backend must solve it; the others within the budget
    # (python-constraint takes minutes on this 8x8 sample)
    required = csp_backend == csp.backends.default_for(kakuro.declare(puzzle))
    found = answers(puzzle, csp_backend, time_limit=Budget(seconds=5).limit(required))
    if found is None:
        pytest.skip(f"{csp_backend} did not finish within the budget")
    [answer] = found
    assert kakuro.format(puzzle, answer) == EXAMPLE_ANSWER.read_text().strip()


def small(entry):
    return entry["rows"] * entry["cols"] <= 36


def test_shared_data_on_every_backend(shared_data, csp_backend):
    # every backend the small puzzles; the larger ones, smallest first, as far
    # as it goes within the budget (dlx takes the rest in the slow test below)
    budget = Budget(seconds=5)
    for entry in sorted(data(shared_data), key=lambda e: e["rows"] * e["cols"]):
        if not small(entry) and budget.spent():
            break
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        found = answers(puzzle, csp_backend, time_limit=budget.limit(small(entry)))
        if found is None:
            break
        assert len(found) == entry["solution_count"], entry["name"]
        if entry["solution"]:
            assert found == [answer_of(entry)]
        else:
            assert answer_of(entry) in found


@pytest.mark.slow
def test_large_grids_on_dlx(shared_data):
    for entry in data(shared_data):
        # SumasCruzadas_94 does not finish in a minute through the lowering
        if small(entry) or entry["name"] == "kuso_SumasCruzadas_94":
            continue
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        assert answers(puzzle, "dlx") == [answer_of(entry)], entry["name"]


def test_a_grid_prints_its_black_and_clue_cells(shared_data):
    # An algospot case prints 0 for every non-white cell, as its format says
    # (test_algospot_sample_on_every_backend); a grid prints as it was read.
    entry = next(e for e in data(shared_data) if e["name"] == "cross_sums_4")
    [puzzle] = kakuro.parse("\n".join(entry["grid"]))
    lines = kakuro.format(puzzle, answer_of(entry)).splitlines()
    assert lines == [" # 6\\ 6\\ 6\\", "\\6  1  3  2", "\\6  3  2  1", "\\6  2  1  3"]
    again = "\n".join(line.replace("1", ".").replace("2", ".").replace("3", ".")
                      for line in lines[1:])
    assert kakuro.parse(lines[0] + "\n" + again) == [puzzle]
