"""Cells, units, regions, pieces and symmetries of rectangular boards and 3-D boxes.

The helpers a puzzle kind needs before it declares anything, so that a
declaration is about the puzzle's rules, not about coordinates.

Glossary: a *cell* is a tuple of 0-based coordinates, `(row, column)` on a
board, `(x, y, z)` in a box (any number of dimensions works the same); a
*unit* is a list of cells that must hold different values (a row, a column,
a sudoku block); a *shape* is a piece's cells, sorted and moved so that its
smallest coordinate on every axis is 0; a *move* is a function from cell to
cell, a symmetry of a board.

>>> box(2, 3)
[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
>>> rows(2, 3)[1], columns(2, 3)[0]
([(1, 0), (1, 1), (1, 2)], [(0, 0), (1, 0)])
>>> blocks(4)[1]                          # a 4x4 sudoku's second 2x2 block
[(0, 2), (0, 3), (1, 2), (1, 3)]
>>> neighbours((0, 0), box(2, 3))
[(1, 0), (0, 1)]
>>> regions(["aab", "acb"])
{'a': [(0, 0), (0, 1), (1, 0)], 'b': [(0, 2), (1, 2)], 'c': [(1, 1)]}

Pieces: every orientation of a shape (rotations; reflections with
`reflect=True`), and every placement of it on a board:

>>> L = normalise([(0, 0), (1, 0), (2, 0), (2, 1)])
>>> len(orientations(L)), len(orientations(L, reflect=True))
(4, 8)
>>> len(placements(L, box(3, 3)))         # 4 rotations, each 2 ways on a 3x3 board
8
>>> V = normalise([(0, 0, 0), (1, 0, 0), (0, 1, 0)])    # a polycube: the Soma V
>>> len(orientations(V)), len(placements(V, box(3, 3, 3)))
(12, 144)

Symmetries of a board as moves, the identity first (for
`csp.symmetry.by_data` or `csp.symmetry.induced`):

>>> len(symmetries(box(3, 3))), len(symmetries(box(2, 3))), len(symmetries(box(3, 3, 3)))
(8, 4, 48)
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Callable, Iterable, Sequence

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]
Move = Callable[[Cell], Cell]

LABELS = string.ascii_lowercase + string.ascii_uppercase + string.digits
"""Letters for naming pieces or regions, in order."""


# -- boards and units ----------------------------------------------------------------


def box(*dims: int) -> list[Cell]:
    """Every cell of a board (`box(rows, columns)`) or of a 3-D box
    (`box(x, y, z)`), in row-major order."""
    return [tuple(cell) for cell in itertools.product(*(range(d) for d in dims))]


def rows(height: int, width: int | None = None) -> list[list[Cell]]:
    """The rows of a `height` x `width` board (square if `width` is None)."""
    width = height if width is None else width
    return [[(r, c) for c in range(width)] for r in range(height)]


def columns(height: int, width: int | None = None) -> list[list[Cell]]:
    """The columns of a `height` x `width` board (square if `width` is None)."""
    width = height if width is None else width
    return [[(r, c) for r in range(height)] for c in range(width)]


def block_shape(size: int) -> tuple[int, int]:
    """The squarest r x c blocks (r <= c) of a `size` x `size` sudoku: 3x3 for
    9, 2x3 for 6, 1 x size for a prime size.

    >>> block_shape(9), block_shape(6), block_shape(12)
    ((3, 3), (2, 3), (3, 4))
    """
    r = max(k for k in range(1, math.isqrt(size) + 1) if size % k == 0)
    return r, size // r


def block_of(cell: Cell, size: int, block: tuple[int, int] | None = None) -> int:
    """The number of the block holding `cell`, blocks numbered row-major."""
    r_block, c_block = block or block_shape(size)
    return (cell[0] // r_block) * (size // c_block) + cell[1] // c_block


def blocks(size: int, block: tuple[int, int] | None = None) -> list[list[Cell]]:
    """The sudoku blocks (r x c, default `block_shape(size)`) of a `size` x
    `size` grid, numbered row-major, each in row-major order."""
    found: list[list[Cell]] = [[] for _ in range(size)]
    for cell in box(size, size):
        found[block_of(cell, size, block)].append(cell)
    return found


def neighbours(cell: Cell, cells: Iterable[Cell]) -> list[Cell]:
    """The orthogonal neighbours of `cell` among `cells` (one step along one
    axis), in the order: each axis, minus then plus."""
    within = set(cells)
    found = []
    for axis in range(len(cell)):
        for step in (-1, 1):
            other = cell[:axis] + (cell[axis] + step,) + cell[axis + 1:]
            if other in within:
                found.append(other)
    return found


def edges(cells: Sequence[Cell]) -> list[tuple[int, int]]:
    """The orthogonal neighbours among `cells` as pairs of their positions in
    `cells`, each pair once (i < j): the edges of a `csp.Connected` over a
    grid's cells (hitori's unshaded cells, nurikabe's sea).

    >>> edges(box(2, 2))
    [(0, 1), (0, 2), (1, 3), (2, 3)]
    """
    at = {cell: k for k, cell in enumerate(cells)}
    return sorted((k, at[other]) for k, cell in enumerate(cells)
                  for other in neighbours(cell, at) if at[other] > k)


def windows(height: int, width: int, size: int = 2) -> list[list[Cell]]:
    """Every `size` x `size` square of cells of a `height` x `width` board,
    row-major: any two cells that touch, on a side or at a corner, share a
    2 x 2 one (star battle's "no two stars touch" is at most one star in
    each).

    >>> windows(2, 3)
    [[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 1), (0, 2), (1, 1), (1, 2)]]
    """
    return [[(r + dr, c + dc) for dr in range(size) for dc in range(size)]
            for r in range(height - size + 1) for c in range(width - size + 1)]


def regions(lines: Sequence[str], skip: str = ". #") -> dict[str, list[Cell]]:
    """The cells of each region of a map (`lines`, one character a cell):
    character -> its cells in row-major order, regions in order of first
    appearance. Characters in `skip` are no region."""
    found: dict[str, list[Cell]] = {}
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch not in skip:
                found.setdefault(ch, []).append((r, c))
    return found


def connected(cells: Iterable[Cell]) -> bool:
    """Whether `cells` form one orthogonally connected piece.

    >>> connected([(0, 0), (0, 1), (1, 1)]), connected([(0, 0), (1, 1)])
    (True, False)
    """
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        for other in neighbours(stack.pop(), todo):
            todo.discard(other)
            stack.append(other)
    return not todo


# -- pieces --------------------------------------------------------------------------


def normalise(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that the smallest coordinate on every axis is 0, sorted."""
    cells = list(cells)
    low = [min(axis) for axis in zip(*cells)]
    return tuple(sorted(tuple(x - x0 for x, x0 in zip(cell, low)) for cell in cells))


def _signed_permutations(dim: int, reflect: bool) -> Iterable[tuple[tuple[int, ...], Cell]]:
    """The axis permutations and sign vectors of the rotations of `dim`-space
    (and the reflections too, with `reflect`), the identity first."""
    for order in itertools.permutations(range(dim)):
        # the parity of the permutation: a rotation has an even number of
        # transpositions and sign flips together
        inversions = sum(order[i] > order[j] for i in range(dim) for j in range(i + 1, dim))
        for signs in itertools.product((1, -1), repeat=dim):
            flips = signs.count(-1)
            if reflect or (inversions + flips) % 2 == 0:
                yield order, signs


def orientations(shape: Iterable[Cell], reflect: bool = False) -> list[Shape]:
    """The distinct rotations of a piece (and reflections, with `reflect`),
    normalised, the piece's own orientation first: up to 4 (8) on a board, up to
    24 (48) in space.

    >>> len(orientations([(0, 0), (0, 1), (1, 1), (1, 2)]))   # the S tetromino
    2
    >>> len(orientations([(0, 0), (0, 1), (1, 1), (1, 2)], reflect=True))
    4
    """
    cells = list(shape)
    dim = len(cells[0])
    found: dict[Shape, None] = {}
    for order, signs in _signed_permutations(dim, reflect):
        moved = [tuple(s * cell[a] for a, s in zip(order, signs)) for cell in cells]
        found.setdefault(normalise(moved))
    return list(found)


def placements(shape: Iterable[Cell], within: Iterable[Cell], reflect: bool = False
               ) -> list[Shape]:
    """Every placement of a piece inside a set of cells (a board, a box, the
    free cells of a map): each orientation translated to every position where
    all its cells are inside, each placement once, its cells sorted."""
    inside = set(within)
    anchors = sorted(inside)
    found = []
    for oriented in orientations(shape, reflect):
        first = oriented[0]
        for anchor in anchors:
            # the shape's first cell (smallest in row-major order) on the anchor
            shift = tuple(a - f for a, f in zip(anchor, first))
            cells = tuple(tuple(x + d for x, d in zip(cell, shift)) for cell in oriented)
            if all(cell in inside for cell in cells):
                found.append(cells)
    return found


# -- symmetries ----------------------------------------------------------------------


def symmetries(cells: Iterable[Cell]) -> list[Move]:
    """The symmetries of the bounding box of `cells` that map the cell set onto
    itself, as moves, the identity first: 8 for a square, 4 for a rectangle,
    48 for a cube, 16 for a square prism, 8 for a box of three different sides;
    fewer for an irregular set. Reflections are included: a kind whose pieces
    may not be flipped sorts out which moves keep its pieces.

    >>> moves = symmetries(box(2, 2))
    >>> sorted(move((0, 1)) for move in moves)
    [(0, 0), (0, 0), (0, 1), (0, 1), (1, 0), (1, 0), (1, 1), (1, 1)]
    """
    shape = set(cells)
    if not shape:
        return [lambda cell: cell]
    dim = len(next(iter(shape)))
    low = [min(axis) for axis in zip(*shape)]
    extent = [max(axis) - x0 for axis, x0 in zip(zip(*shape), low)]

    def make(order: tuple[int, ...], signs: Cell) -> Move:
        def move(cell: Cell) -> Cell:
            rel = [x - x0 for x, x0 in zip(cell, low)]
            return tuple((rel[a] if s > 0 else extent[a] - rel[a]) + low[i]
                         for i, (a, s) in enumerate(zip(order, signs)))
        return move

    found = []
    for order, signs in _signed_permutations(dim, reflect=True):
        if any(extent[a] != extent[i] for i, a in enumerate(order)):
            continue  # axes of different lengths cannot be exchanged
        move = make(order, signs)
        if {move(cell) for cell in shape} == shape:
            found.append(move)
    return found


def name(cell: Cell) -> str:
    """The variable name of a board's cell, 1-based: what the kinds' models use.

    >>> name((0, 2))
    'r1c3'
    """
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def givens(values: Sequence[int], n: int, blank: object) -> list[int] | dict[str, int]:
    """The given numbers of an n x n grid of numbers 1..n (`values` row by row,
    0 for a blank cell) in the blank grid `blank` declared as the kinds
    declare it: the options `cell * n + number - 1` of its exact cover, or
    `{cell variable: number}` of its model (a family's givens, `csp.family`).

    >>> givens([0, 2, 1, 0], 2, None)
    [3, 4]
    """
    from csp.model import Model

    if isinstance(blank, Model):
        return {name((k // n, k % n)): v for k, v in enumerate(values) if v}
    return [k * n + v - 1 for k, v in enumerate(values) if v]


__all__ = [
    "LABELS", "Cell", "Move", "Shape", "block_of", "block_shape", "blocks", "box", "columns",
    "connected", "edges", "givens", "name", "neighbours", "normalise", "orientations", "placements",
    "regions", "rows", "symmetries", "windows",
]
