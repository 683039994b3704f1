"""Magic squares: the numbers 1..n^2 in an n x n square so that every row,
every column and both diagonals have the same sum, n (n^2 + 1) / 2.

A model: a variable per cell, all different, a `Sum` per line. The square's
8 moves (rotations, reflections) map magic squares onto magic squares:
`symmetry` declares them, so that `--up-to-symmetry` counts each square once
(3x3: 8 squares, 1 up to symmetry, the Lo Shu; 4x4: 7,040 and 880).

Input: n, one per line (`csp solve magic 3` takes it on the command line).
Output: the square, a row a line, numbers right-aligned.

>>> import csp
>>> [puzzle] = parse("3")
>>> m = declare(puzzle)
>>> m
<Model 'magic 3': 9 variables, 9 constraints>
>>> csp.count(m).count, csp.count(m, up_to_symmetry=symmetry(puzzle, m)).count
(8, 1)
>>> [lo_shu] = csp.solutions(m, up_to_symmetry=True)
>>> print(format(puzzle, decode(puzzle, lo_shu, m)))
2 7 6
9 5 1
4 3 8
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from csp import grid
from csp.constraints import AllDifferent, Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import Board, note
from csp.problems.sizes import inline, sizes

FORMS = ("model",)
DESCRIPTION = "magic squares: the side n, one per line (or `csp solve magic N`)"


@dataclass(frozen=True)
class Magic:
    n: int
    line: int | None = None

    @property
    def total(self) -> int:
        """The sum of every line: 1..n^2 spread evenly over n rows."""
        return self.n * (self.n ** 2 + 1) // 2


Answer = tuple[tuple[int, ...], ...]


def parse(text: str) -> list[Magic]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Magic | InputError]:
    return sizes(text, Magic, "a side")


def declare(puzzle: Magic, form: str | None = None) -> Model:
    """All different 1..n^2; each row, column and diagonal sums to the total."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for magic; the only form is 'model'")
    n = puzzle.n
    m = Model(f"magic {n}")
    var = {cell: m.var(grid.name(cell), range(1, n * n + 1)) for cell in grid.box(n, n)}
    m.add(AllDifferent(var.values()))
    diagonals = [[(k, k) for k in range(n)], [(k, n - 1 - k) for k in range(n)]]
    for line in grid.rows(n) + grid.columns(n) + diagonals:
        m.add(Sum([var[cell] for cell in line]) == puzzle.total)
    return m


def decode(puzzle: Magic, solution: Mapping[Any, int], problem: Model | None = None) -> Answer:
    return tuple(tuple(solution[grid.name(cell)] for cell in row) for row in grid.rows(puzzle.n))


def format(puzzle: Magic, answer: Answer) -> str:  # noqa: A001 - the module's printer
    width = len(str(puzzle.n ** 2))
    return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in answer)


def symmetry(puzzle: Magic, problem: Model | None = None):  # -> csp.symmetry.Group
    """The square's rotations and reflections, as maps of (cell, value) pairs."""
    from csp.symmetry import Group

    m = problem if problem is not None else declare(puzzle)
    n = puzzle.n
    cells = grid.box(n, n)
    generators = [{(grid.name(cell), v): (grid.name(move(cell)), v)
                   for cell in cells for v in range(1, n * n + 1)}
                  for move in grid.symmetries(cells)[1:]]
    return Group(m, generators).attach()


def draw(puzzle: Magic, answer: Answer | None = None, marks: Collection[grid.Cell] = ()) -> str:
    """The square as SVG, with the sum every line must reach."""
    n = puzzle.n
    board = Board(n, n, extra_height=24, extra_width=max(0, 150 - n * 40),
                  title=f"magic square {n}x{n}")
    if answer is not None:
        for r, c in grid.box(n, n):
            board.number((r, c), str(answer[r][c]), given=False)
    board.lines()
    board.marks(marks)
    note(board, board.left, board.top + n * board.cell + 16,
         [f"every line adds up to {puzzle.total}"])
    return str(board)


def cells(puzzle: Magic, answer: Answer) -> dict[grid.Cell, int]:
    return {(r, c): answer[r][c] for r, c in grid.box(puzzle.n, puzzle.n)}


KIND = Kind(name="magic", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry, inline=inline,
            format_puzzle=lambda puzzle: str(puzzle.n), draw=draw, cells=cells)
