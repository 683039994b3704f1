"""KenKen: the generated collection (tests/data/kenken) on every backend."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import csp
from csp import grid
from csp.errors import InputError
from csp.problems import kenken

DATA = Path(__file__).resolve().parent / "data" / "kenken" / "puzzles.json"
COLLECTION = json.loads(DATA.read_text())["puzzles"]


def test_collection_has_one_answer_each(csp_backend):
    for entry in COLLECTION:
        [puzzle] = kenken.parse(entry["puzzle"])
        m = kenken.declare(puzzle)
        found = list(csp.solutions(m, csp_backend, limit=2))
        assert len(found) == 1 and m.is_solution(found[0])
        assert kenken.format(puzzle, kenken.decode(puzzle, found[0], m)) == entry["answer"]


def test_answers_are_latin_squares_that_meet_the_cages():
    ops = {"": lambda d: d[0], "+": sum, "x": math.prod, "-": lambda d: max(d) - min(d),
           "/": lambda d: max(d) // min(d)}
    used = set()
    for entry in COLLECTION:
        [puzzle] = kenken.parse(entry["puzzle"])
        assert kenken.format_puzzle(puzzle) == entry["puzzle"]
        n = puzzle.n
        answer = {(r, c): int(d) for r, row in enumerate(entry["answer"].split())
                  for c, d in enumerate(row)}
        for unit in grid.rows(n) + grid.columns(n):
            assert sorted(answer[cell] for cell in unit) == list(range(1, n + 1))
        for cage in puzzle.cages:
            digits = [answer[cell] for cell in cage.cells]
            assert ops[cage.op](digits) == cage.target
            if cage.op == "/":
                assert max(digits) % min(digits) == 0
            used.add(cage.op)
    assert used == {"", "+", "-", "x", "/"}


def test_crosscheck_a_small_one():
    [puzzle] = kenken.parse(COLLECTION[0]["puzzle"])
    assert csp.crosscheck(kenken.declare(puzzle)).agree


@pytest.mark.parametrize("text, line, token, message", [
    ("aab\nabb\nccc\na=3+ b=7+ c=6\n", 1, "c=6", "a cage of 3 cells needs an operation"),
    ("aab\nabb\nccc\na=3- b=7+ c=6+\n", 1, "a=3-", "- takes a cage of two cells, not 3"),
    ("ab\nab\na=3% b=3+\n", 3, "a=3%", "is not a clue LABEL=TARGET, then maybe one of +-x/"),
])
def test_errors_name_line_and_token(text, line, token, message):
    [error] = kenken.puzzles(text)
    assert isinstance(error, InputError)
    assert (error.line, error.token) == (line, token) and message in str(error)
