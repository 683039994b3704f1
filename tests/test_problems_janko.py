"""Hitori, skyscrapers and star battle: janko.at's puzzles with their
published solutions (tests/data/KIND/janko.json, made by
tests/make_janko_data.py) on every backend, each proven unique (limit 2).

Every backend runs the puzzles within its reach (`REACH`, the largest side
it gets through in a few seconds here); `cpsat` and `bitmask` run all of
them (`cpsat` the large hitori with --runslow, where its decomposed
`Connected` is slow to build; but `BEYOND`), so each published answer is
checked by two backends.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from published import JANKO, MODULES, collection

import csp
from csp.cli import main
from csp.errors import InputError
from csp.problems import hitori, skyscrapers, starbattle

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
REACH = {
    # kind: {backend: largest side run by default}; others: FAST's
    "hitori": {"cpsat": 12, "bitmask": 99, "sat": 5, "dlx": 0, "python-constraint": 0},
    "skyscrapers": {"cpsat": 99, "bitmask": 99, "sat": 6, "dlx": 4, "python-constraint": 0},
    "starbattle": {"cpsat": 99, "bitmask": 99, "sat": 10, "dlx": 10, "python-constraint": 0},
}
FAST = 5
BEYOND = {("bitmask", "starbattle"): {"26_14x14", "27_15x15"}}
"""Puzzles left out for a backend even with --runslow: bitmask's search (no
clause learning on the sums) takes 1.3 million nodes (7-9 s) on the first
and had not finished after 9 million (50 s) on the second, where CP-SAT takes
0.05 s (bench/RESULTS.md, bench/bench_kinds.py)."""


@pytest.mark.parametrize("kind", JANKO)
def test_the_collection_has_its_published_answers(kind, csp_backend, runslow):
    reach = REACH[kind].get(csp_backend, FAST)
    if runslow and csp_backend in ("cpsat", "bitmask"):
        reach = 99
    tried = 0
    for entry in collection(kind):
        if entry.side > reach or entry.name in BEYOND.get((csp_backend, kind), ()):
            continue
        m = MODULES[kind].declare(entry.puzzle)
        found = list(csp.solutions(m, csp_backend, limit=2))
        assert len(found) == 1, entry.name
        assert m.is_solution(found[0])
        assert entry.check(found[0]), entry.name
        tried += 1
    if not tried:
        pytest.skip(f"no {kind} within {csp_backend}'s reach here ({reach})")


def test_collections_hold_ten_and_large_ones():
    for kind in JANKO:
        entries = collection(kind)
        assert len(entries) >= 10
        assert len({e.name for e in entries}) == len(entries)
    assert sum(e.side >= 10 for e in collection("hitori")) >= 10
    assert sum(e.side >= 10 for e in collection("starbattle")) >= 10


def test_a_small_one_on_python_constraint():
    # python-constraint checks Connected and the sums by its checkers, at
    # the leaves: a 4x4 hitori (janko.at's first) is its size
    [puzzle] = hitori.parse("4 4\n3 3 1 4\n4 3 2 2\n1 3 4 2\n3 4 3 2\n")
    m = hitori.declare(puzzle)
    assert csp.count(m, "python-constraint").count == 1
    [puzzle] = starbattle.parse("5 5 1\n1 1 2 2 2\n1 1 2 3 3\n4 4 4 3 3\n4 5 5 5 3\n"
                                "4 4 5 5 5\n")
    assert csp.count(starbattle.declare(puzzle), "python-constraint").count == \
        csp.count(starbattle.declare(puzzle), "cpsat").count


def test_hitori_counts_every_shading_that_keeps_the_rules():
    # no repeated number: every cell may stay white, or a lone cell be shaded
    # where its neighbours stay connected (not the corners' neighbours' cut)
    [puzzle] = hitori.parse("2 2\n1 2\n2 1\n")
    assert csp.count(hitori.declare(puzzle), "cpsat").count == 5
    # 1 1 1: one white at most, no two shaded side by side
    [puzzle] = hitori.parse("1 3\n1 1 1\n")
    assert csp.count(hitori.declare(puzzle), "cpsat").count == 1  # "# 1 #"


def test_skyscrapers_without_clues_count_latin_squares():
    [puzzle] = skyscrapers.parse("3 3\n- - -\n- - -\n- - -\n- - -\n")
    assert csp.count(skyscrapers.declare(puzzle), "cpsat").count == 12
    [puzzle] = skyscrapers.parse("3 3\n3 - -\n- - -\n- - -\n- - -\n")
    assert csp.count(skyscrapers.declare(puzzle), "cpsat").count == 2


@pytest.mark.parametrize("kind, text, error", [
    ("hitori", "2 2\n1 2\n", "has 1 lines after its first, not 2"),
    ("hitori", "2 2\n1 2\n2 x\n", "row 2's number 'x' is not a whole number"),
    ("hitori", "2\n1 2\n", "starts with a line of 2 numbers"),
    ("hitori", "2 3\n1 2 3\n1 2\n", "row 2 of the puzzle of line 1 has 2 cells, not 3"),
    ("skyscrapers", "3 3\n- - -\n- 4 -\n- - -\n- - -\n", "'4' is not a height 1..3"),
    ("skyscrapers", "3 4\n- - -\n- - -\n- - -\n- - -\n", "square"),
    ("skyscrapers", "3 3\n- - -\n- - -\n- - -\n", r"not 4 \(the clues\) or 7"),
    ("starbattle", "2 2\na a\nb b\n", "starts with a line of 3 numbers"),
    ("starbattle", "2 2 1\na a\nb\n", "row 2 of the puzzle of line 1 has 1 cells, not 2"),
])
def test_bad_input_is_an_input_error_naming_it(kind, text, error):
    with pytest.raises(InputError, match=error):
        MODULES[kind].parse(text)


def test_a_bad_puzzle_is_reported_and_the_next_read():
    items = list(hitori.puzzles("2 2\n1 x\n2 1\n\n2 2\n1 2\n2 1\n"))
    assert isinstance(items[0], InputError) and items[0].line == 2
    assert items[1].numbers == ((1, 2), (2, 1))


@pytest.mark.parametrize("kind, expected", [
    ("skyscrapers", "1\n1\n"), ("starbattle", "1\n1\n"), ("hitori", "1\n1\n"),
])
def test_csp_solve_counts_the_examples(capsys, kind, expected):
    assert main(["solve", kind, str(EXAMPLES / f"{kind}.txt"), "--count",
                 "--backend", "cpsat"]) == 0
    assert capsys.readouterr().out == expected


def test_csp_solve_all_prints_each_answer_then_the_count(capsys):
    assert main(["solve", "starbattle", str(EXAMPLES / "starbattle.txt"), "--all",
                 "--backend", "cpsat"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("...*..\n*.....\n") and out.count("1 solution") == 2
