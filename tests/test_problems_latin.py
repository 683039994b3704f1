"""Latin squares: OEIS A002860 and A000315 on every backend, both forms, and up to symmetry."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import csp
from csp import grid
from csp.errors import InputError
from csp.problems import latin

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def all_squares(n):
    """Every Latin square of order n, by brute force over rows (the oracle)."""
    rows = list(itertools.permutations(range(1, n + 1)))
    squares = [()]
    for _ in range(n):
        squares = [s + (row,) for s in squares for row in rows
                   if all(row[c] != other[c] for other in s for c in range(n))]
    return squares


@pytest.mark.parametrize("form", latin.FORMS)
def test_counts_on_every_backend(csp_backend, form):
    four, reduced = latin.parse((EXAMPLES / "latin.txt").read_text())[:2]
    assert csp.count(latin.declare(four, form), csp_backend).count == 576  # A002860
    assert csp.count(latin.declare(reduced, form), csp_backend).count == 56  # A000315


def test_all_5x5_and_their_answers():
    [five] = latin.parse("5")
    assert csp.count(latin.declare(five), "dlx").count == 161_280  # A002860, in 0.5 s
    [four] = latin.parse("4")
    xc = latin.declare(four)
    found = {latin.decode(four, s, xc) for s in csp.solutions(xc)}
    assert found == set(all_squares(4))


@pytest.mark.parametrize("form", latin.FORMS)
def test_up_to_the_squares_symmetries(form):
    [four] = latin.parse("4")
    problem = latin.declare(four, form)
    group = latin.symmetry(four, problem)
    moves = grid.symmetries(grid.box(4, 4))
    # the oracle: the orbits of the brute-force squares under the 8 moves
    orbits = {min(tuple(tuple(s[r][c] for (r, c) in [move(cell) for cell in row])
                        for row in grid.rows(4)) for move in moves)
              for s in all_squares(4)}
    assert len(group) == 8
    assert csp.count(problem, up_to_symmetry=group).count == len(orbits) == 108


def test_givens_keep_only_their_symmetries_and_the_completion_is_unique():
    puzzles = latin.parse((EXAMPLES / "latin.txt").read_text())
    assert [len(latin.symmetry(p)) for p in puzzles] == [8, 2, 1]
    completion = puzzles[2]
    assert csp.crosscheck(latin.declare(completion)).agree
    [solution] = csp.solutions(latin.declare(completion, "model"))
    assert latin.format(completion, latin.decode(completion, solution)) == (
        "1234\n3412\n2143\n4321")
    assert all(latin.format(completion, latin.decode(completion, s)) ==
               "1234\n3412\n2143\n4321" for s in csp.solutions(latin.declare(completion)))


def test_large_squares_print_spaced():
    [ten] = latin.parse("10")
    answer = tuple(tuple((r + c) % 10 + 1 for c in range(10)) for r in range(10))
    assert latin.format(ten, answer).splitlines()[1] == " 2  3  4  5  6  7  8  9 10  1"


def test_bad_puzzles_name_line_and_token_and_the_others_are_read():
    items = list(latin.puzzles("3\n\n12\n2x\n\n1 2\n2 3\n\n12\n21\n\n123\n21\n"))
    assert items[0] == latin.Latin(3, (0,) * 9, 1)
    assert isinstance(items[1], InputError) and (items[1].line, items[1].token) == (4, "x")
    assert "row 2, column 2" in str(items[1])
    assert isinstance(items[2], InputError) and (items[2].line, items[2].token) == (7, "3")
    assert items[3] == latin.Latin(2, (1, 2, 2, 1), 9)
    assert isinstance(items[4], InputError) and items[4].line == 12
    assert "row 2 of the 2x2 square of line 11 has 2 cells" not in str(items[4])
    with pytest.raises(InputError, match="line 1: '0' is not a size"):
        latin.parse("0")
