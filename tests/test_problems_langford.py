"""Langford pairs: OEIS A014552 on every backend, raw and up to reversal."""

from __future__ import annotations

import pytest
from budget import finished, limit

import csp
from csp.errors import InputError
from csp.problems import langford

UP_TO_REVERSAL = {1: 0, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150}  # OEIS A014552


def test_counts_raw_and_up_to_reversal(csp_backend):
    # every backend up to n = 7; n = 8 within the budget
    for n, classes in UP_TO_REVERSAL.items():
        puzzle = langford.Langford(n)
        xc = langford.declare(puzzle)
        result = csp.count(xc, csp_backend, time_limit=limit(n <= 7))
        if not finished(result.status):
            break
        assert result.count == 2 * classes, n
        group = langford.symmetry(puzzle, xc)
        assert csp.count(xc, csp_backend, up_to_symmetry=group).count == classes, n


def test_every_row_is_a_langford_row():
    puzzle = langford.Langford(7)
    xc = langford.declare(puzzle)
    rows = set()
    for solution in csp.solutions(xc):
        row = langford.decode(puzzle, solution, xc)
        for k in range(1, 8):
            i, j = [s for s, v in enumerate(row) if v == k]
            assert j - i == k + 1
        rows.add(row)
    assert len(rows) == 52 and {row[::-1] for row in rows} == rows


def test_crosscheck_n4():
    assert csp.crosscheck(langford.declare(langford.Langford(4))).agree


def test_parse_errors_name_the_line():
    assert langford.parse("3\n\n# x\n4\n") == [langford.Langford(3, 1), langford.Langford(4, 4)]
    items = list(langford.puzzles("3\nthree\n4\n"))
    assert isinstance(items[1], InputError) and items[1].line == 2
    assert items[1].token == "three" and items[2] == langford.Langford(4, 3)


@pytest.mark.parametrize("n, classes", [(11, 17_792), (12, 108_144)])
def test_large_counts(n, classes):  # under a second on dlx
    puzzle = langford.Langford(n)
    assert csp.count(langford.declare(puzzle), "dlx").count == 2 * classes
