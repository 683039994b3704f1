"""Futoshiki: the generated collection (tests/data/futoshiki) on every backend."""

from __future__ import annotations

import json
from pathlib import Path

from budget import finished, limit

import csp
from csp.errors import InputError
from csp.problems import futoshiki

DATA = Path(__file__).resolve().parent / "data" / "futoshiki" / "puzzles.json"
COLLECTION = json.loads(DATA.read_text())["puzzles"]


def test_collection_has_one_answer_each(csp_backend):
    # every backend the puzzles up to 5x5; the larger ones within the budget
    tried = 0
    for entry in COLLECTION:
        [puzzle] = futoshiki.parse(entry["puzzle"])
        m = futoshiki.declare(puzzle)
        search = csp.solutions(m, csp_backend, limit=2, time_limit=limit(puzzle.n <= 5))
        found = list(search)
        if not finished(search.status):
            continue
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
