"""Magic squares: 8 of order 3 (1 up to symmetry) on every backend, 7,040 of order 4 (880)."""

from __future__ import annotations

import pytest

import csp
from csp import grid
from csp.errors import InputError
from csp.problems import magic


def is_magic(square):
    n = len(square)
    total = n * (n * n + 1) // 2
    lines = [list(row) for row in square] + [list(col) for col in zip(*square)]
    lines += [[square[k][k] for k in range(n)], [square[k][n - 1 - k] for k in range(n)]]
    return (sorted(v for row in square for v in row) == list(range(1, n * n + 1))
            and all(sum(line) == total for line in lines))


def test_order_3_on_every_backend(csp_backend):
    [puzzle] = magic.parse("3")
    m = magic.declare(puzzle)
    squares = {magic.decode(puzzle, s, m) for s in csp.solutions(m, csp_backend)}
    assert len(squares) == 8 and all(is_magic(s) for s in squares)
    group = magic.symmetry(puzzle, m)
    assert csp.count(m, csp_backend, up_to_symmetry=group).count == 1


def test_order_4_counts_7040():
    # 2.5 s on bitmask; dlx (the lowered model) takes 90 s, cpsat longer
    assert csp.count(magic.declare(magic.Magic(4)), "bitmask").count == 7040


@pytest.mark.slow
def test_order_4_up_to_symmetry_is_880():
    # 50 s on bitmask: the lex-leader table cuts little here
    puzzle = magic.Magic(4)
    m = magic.declare(puzzle)
    assert csp.count(m, "bitmask", up_to_symmetry=magic.symmetry(puzzle, m)).count == 880
    # the oracle: the orbits of the listed squares under the square's 8 moves
    moves = grid.symmetries(grid.box(4, 4))
    orbits = set()
    for solution in csp.solutions(m, "bitmask"):
        square = magic.decode(puzzle, solution, m)
        assert is_magic(square)
        orbits.add(min(tuple(tuple(square[r][c] for r, c in map(move, row))
                             for row in grid.rows(4)) for move in moves))
    assert len(orbits) == 880


def test_order_2_has_none_and_bad_sizes_are_named():
    assert csp.count(magic.declare(magic.Magic(2))).count == 0
    items = list(magic.puzzles("3\n-4\n"))
    assert isinstance(items[1], InputError) and (items[1].line, items[1].token) == (2, "-4")
    assert magic.format(magic.Magic(4), ((16, 2, 3, 13),) * 1) == "16  2  3 13"
