"""Shikaku: the section-4 format, the exact cover, and the shared data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import Budget, finished

import csp
from csp.errors import InputError
from csp.problems import shikaku

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def data(shared_data):
    return json.loads((shared_data / "shikaku" / "shikaku.json").read_text())["puzzles"]


def as_text(entry):
    """The shared data's grid ('.' blank) in the format of section 4."""
    rows = [row.split() for row in entry["grid"]]
    body = "\n".join(" ".join("0" if t == "." else t for t in row) for row in rows)
    return f"{len(rows[0])} {len(rows)}\n{body}"


def answer_of(entry):
    rows = entry.get("solution") or entry["example_solution"]
    return {(r, c): int(k) for r, row in enumerate(rows) for c, k in enumerate(row.split())}


def answers(puzzle, backend, limit=None, time_limit=None):
    """Every answer `backend` finds (None if it ran out of `time_limit`)."""
    xc = shikaku.declare(puzzle)
    found = []
    search = csp.solutions(xc, backend, limit=limit, time_limit=time_limit)
    for solution in search:
        assert not xc.check(solution)
        found.append(shikaku.decode(puzzle, solution, xc))
    return found if finished(search.status) else None


def test_sample_of_problems_md():
    [puzzle] = shikaku.parse((EXAMPLES / "shikaku.txt").read_text())
    [answer] = answers(puzzle, "dlx")
    assert shikaku.format(puzzle, answer) == "2 4 4\n2 4 4"


def test_columns_are_padded_to_the_widest_number():
    [puzzle] = shikaku.parse("4 3\n0 0 0 0\n12 0 0 0\n0 0 0 0")
    [answer] = answers(puzzle, "dlx")
    assert shikaku.format(puzzle, answer).splitlines()[0] == "12 12 12 12"
    [puzzle] = shikaku.parse("6 2\n10 0 0 0 0 0\n0 0 0 0 0 2")
    [answer] = answers(puzzle, "dlx")
    assert shikaku.format(puzzle, answer).splitlines() == ["10 10 10 10 10  2"] * 2


def test_round_trip_and_several_puzzles_per_file(shared_data):
    entries = data(shared_data)
    puzzles = shikaku.parse("\n".join(as_text(e) for e in entries))
    assert len(puzzles) == len(entries)
    for puzzle in puzzles:
        assert shikaku.parse(shikaku.format_puzzle(puzzle))[0].clues == puzzle.clues


def test_exact_cover_accepts_the_known_answers(shared_data):
    for entry in data(shared_data):
        [puzzle] = shikaku.parse(as_text(entry))
        xc = shikaku.declare(puzzle)
        solution = shikaku.encode(puzzle, answer_of(entry), xc)
        assert xc.check(solution) == [], entry["name"]


@pytest.mark.parametrize("text, message", [
    ("3 2\n2 0 0\n0 3 0", "line 1: the clues add up to 5 but the 3x2 grid has 6 cells"),
    ("3 2\n2 0\n0 4 0", "line 2: row 1 has 2 numbers, expected 3"),
    ("3 2\n2 0 0\n0 -4 0", "line 3: row 2, column 2: '-4' is not a clue"),
    ("3 x\n", "line 1: expected a size line 'w h'"),
    ("3 2\n2 0 0\n", "line 1: the input ends after 1 of the 2 rows"),
])
def test_bad_input(text, message):
    with pytest.raises(InputError, match=message):
        shikaku.parse(text)


def test_one_bad_puzzle_does_not_stop_the_others():
    items = list(shikaku.puzzles("3 2\n2 0 0\n0 3 0\n3 2\n2 0 0\n0 4 0\n"))
    assert [type(i).__name__ for i in items] == ["InputError", "Shikaku"]


GOOD = "3 2\n2 0 0\n0 4 0\n"


@pytest.mark.parametrize("text, line, message", [
    (GOOD + "0 0 0\n" + GOOD + GOOD, 4,
     "the 3x2 puzzle of line 1 has more than 2 rows: line 4 is one too many"),
    (GOOD + "0 0 0\n0 0 0\n" + GOOD + GOOD, 4, "more than 2 rows"),
    ("3 3\n2 0 0\n0 4 0\n" + GOOD + GOOD, 4,
     "the 3x3 puzzle of line 1 has 2 rows, not 3: line 4 is the next puzzle's size"),
    ("3 x\n0 0 0\n" + GOOD + GOOD, 1, "expected a size line 'w h', found '3 x'"),
    ("3 2\n2 0 0\n0 3 0\n0 1 0\n" + GOOD + GOOD, 1, "the clues add up to 5"),
])
def test_a_puzzle_with_wrong_rows_does_not_stop_the_next(text, line, message):
    bad, *good = shikaku.puzzles(text)
    assert isinstance(bad, InputError) and bad.line == line and message in bad.message
    assert len(good) == 2 and all(isinstance(p, shikaku.Shikaku) for p in good)
    assert all(shikaku.format_puzzle(p) == GOOD.strip() for p in good)


def test_a_line_that_is_no_row_after_a_good_puzzle_is_its_own_error():
    items = list(shikaku.puzzles(GOOD + "x y z\n" + GOOD))
    assert [type(i).__name__ for i in items] == ["Shikaku", "InputError", "Shikaku"]
    assert items[1].line == 4 and "expected a size line" in items[1].message


def test_shared_data_counts_and_answers(shared_data):
    # all 298 puzzles on the problem's own backend
    for entry in data(shared_data):
        [puzzle] = shikaku.parse(as_text(entry))
        found = answers(puzzle, "auto")
        assert len(found) == entry["solution_count"], entry["name"]
        assert answer_of(entry) in found


def test_shared_puzzles_on_every_backend(shared_data, csp_backend):
    # every backend the puzzles up to 7x7; the larger ones, smallest first,
    # as far as it goes within the budget
    budget = Budget(seconds=5)
    for entry in sorted(data(shared_data), key=lambda e: e["rows"] * e["cols"]):
        required = entry["rows"] * entry["cols"] <= 49
        if not required and budget.spent():
            break
        [puzzle] = shikaku.parse(as_text(entry))
        found = answers(puzzle, csp_backend, time_limit=budget.limit(required))
        if found is None:
            break
        assert len(found) == entry["solution_count"], entry["name"]
        assert answer_of(entry) in found


def test_letters_tell_neighbouring_rectangles_of_one_area_apart(capsys):
    from csp.cli import main

    path_text = "4 1\n2 0 2 0\n"
    [puzzle] = shikaku.parse(path_text)
    answer = shikaku.decode(puzzle, csp.solve(shikaku.declare(puzzle)).solution)
    assert shikaku.format(puzzle, answer) == "2 2 2 2"  # docs/developing/problems.md's output
    [lettered] = shikaku.puzzles(path_text, letters=True)
    assert shikaku.format(lettered, answer) == "a a b b"
    import io
    import sys

    stdin, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(path_text.encode()))
    try:
        assert main(["solve", "shikaku", "-", "--letters"]) == 0
    finally:
        sys.stdin = stdin
    assert capsys.readouterr().out == "a a b b\n"
