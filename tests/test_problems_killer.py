"""Killer sudoku: the generated collection (tests/data/killer) on every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import finished, limit

import csp
from csp import grid
from csp.errors import InputError
from csp.problems import killer

DATA = Path(__file__).resolve().parent / "data" / "killer" / "puzzles.json"
COLLECTION = json.loads(DATA.read_text())["puzzles"]


def test_collection_has_one_answer_each(csp_backend):
    # every backend the puzzles up to 6x6; the 9x9 ones within the budget
    tried = 0
    for entry in COLLECTION:
        [puzzle] = killer.parse(entry["puzzle"])
        m = killer.declare(puzzle)
        search = csp.solutions(m, csp_backend, limit=2, time_limit=limit(puzzle.n <= 6))
        found = list(search)
        if not finished(search.status):
            continue
        assert len(found) == 1 and m.is_solution(found[0])
        assert killer.format(puzzle, killer.decode(puzzle, found[0], m)) == entry["answer"]
        tried += 1
    assert tried >= 8


def test_answers_are_sudoku_grids_that_meet_the_cages():
    for entry in COLLECTION:
        [puzzle] = killer.parse(entry["puzzle"])
        assert killer.format_puzzle(puzzle) == entry["puzzle"]
        n = puzzle.n
        answer = {(r, c): int(d) for r, row in enumerate(entry["answer"].split())
                  for c, d in enumerate(row)}
        for unit in grid.rows(n) + grid.columns(n) + grid.blocks(n):
            assert sorted(answer[cell] for cell in unit) == list(range(1, n + 1))
        for cage in puzzle.cages:
            digits = [answer[cell] for cell in cage.cells]
            assert len(set(digits)) == len(digits) and sum(digits) == cage.target


def test_crosscheck_a_small_one():
    [puzzle] = killer.parse(COLLECTION[0]["puzzle"])
    assert csp.crosscheck(killer.declare(puzzle)).agree


@pytest.mark.parametrize("text, line, token, message", [
    ("aab\nabb\nccc\na=3 b=7\n", 1, "c", "cage 'c' of the puzzle of line 1 has no clue"),
    ("ab\nba\na=3 b=3\n", 1, "a", "cage 'a' of the puzzle of line 1 is in pieces"),
    ("aa\nbb\na=3 b=3 c=1\n", 3, "c=1", "the map has no cage 'c'"),
    ("aa\nbb\na=3 a=3\n", 3, "a=3", "cage 'a' has two clues"),
    ("aa\nbb\na=3+ b=3\n", 3, "a=3+", "is not a clue LABEL=TARGET"),
    ("aa\nb-\na=3 b=3\n", 2, "b-", "map row 2 of the puzzle of line 1"),
    ("aaaa\nbbbb\n", 1, "aaaa", "is 4 wide but the block has only 2 lines"),
    ("aabb\naabb\nccdd\nccdd\na=3 b=10 c=10 d=10\n", 1, "a", "cannot add up to 3"),
])
def test_errors_name_line_and_token(text, line, token, message):
    [error] = killer.puzzles(text)
    assert isinstance(error, InputError)
    assert (error.line, error.token) == (line, token) and message in str(error)


def test_a_bad_puzzle_does_not_stop_the_others():
    good = COLLECTION[0]["puzzle"]
    items = list(killer.puzzles(good + "\nab\nba\na=3 b=3\n\n" + good))
    assert [type(i).__name__ for i in items] == ["Killer", "InputError", "Killer"]
    assert items[2].line == len(good.splitlines()) + 6  # after a blank, 3 lines, a blank
