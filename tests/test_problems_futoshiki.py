"""Futoshiki: the generated collection (tests/data/futoshiki) on every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import csp
from csp.errors import InputError
from csp.problems import futoshiki

BACKENDS = csp.backends.engines()
DATA = Path(__file__).resolve().parent / "data" / "futoshiki" / "puzzles.json"
COLLECTION = json.loads(DATA.read_text())["puzzles"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_collection_has_one_answer_each(backend):
    # the enumerating backends take the puzzles up to 5x5; the compiled ones all
    top = 7 if backend in ("dlx", "bitmask", "cpsat") else 5
    tried = 0
    for entry in COLLECTION:
        [puzzle] = futoshiki.parse(entry["puzzle"])
        if puzzle.n > top:
            continue
        m = futoshiki.declare(puzzle)
        found = list(csp.solutions(m, backend, limit=2))
        assert len(found) == 1 and m.is_solution(found[0])
        assert futoshiki.format(puzzle, futoshiki.decode(puzzle, found[0], m)) == entry["answer"]
        tried += 1
    assert tried >= 6


def test_collection_round_trips_and_signs_hold_in_the_answers():
    for entry in COLLECTION:
        [puzzle] = futoshiki.parse(entry["puzzle"])
        assert futoshiki.format_puzzle(puzzle) == entry["puzzle"]
        answer = [list(map(int, row)) for row in entry["answer"].split()]
        for (r0, c0), (r1, c1) in puzzle.signs:
            assert answer[r0][c0] < answer[r1][c1]


def test_crosscheck_a_small_one():
    [puzzle] = futoshiki.parse(COLLECTION[0]["puzzle"])
    assert csp.crosscheck(futoshiki.declare(puzzle)).agree


def test_without_signs_it_is_a_latin_square():
    [puzzle] = futoshiki.parse(". . .\n. . .\n. . .\n")
    assert csp.count(futoshiki.declare(puzzle)).count == 12
    [puzzle] = futoshiki.parse(".<.<.\n. . .\n. . .\n")
    assert csp.count(futoshiki.declare(puzzle)).count == 2


def test_bad_puzzles_are_reported_and_the_others_read():
    text = ".x.\n. .\n\n.<.\n1 .\n\n. .\n^ v\n. 3\n\n1 .\n. .\n\n  ^\n. . .\n. .\n"
    items = list(futoshiki.puzzles(text))
    errors = [(i.line, i.token) for i in items if isinstance(i, InputError)]
    assert errors == [(1, "x"), (9, "3"), (14, "^"), (16, ". .")]
    good = [i for i in items if not isinstance(i, InputError)]
    assert [(p.line, p.signs) for p in good] == [(4, (((0, 0), (0, 1)),)), (11, ())]
