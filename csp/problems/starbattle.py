"""Star battle: place k stars in every row, every column and every region
of a square grid, no two stars touching, not even at a corner.

Input: janko.at's layout (`csp.problems._janko`): a line `R C K` (rows,
columns, stars per row, column and region), then R lines of C region
labels separated by spaces (any word: `1`, `12`, `a`); puzzles separated by
blank lines. Output: the grid, `*` for a star and `.` for an empty cell.

    6 6 1
    1 1 2 2 2 2
    1 2 2 4 5 2
    1 2 2 4 5 5
    3 3 4 4 6 5
    3 4 4 6 6 5
    3 3 3 6 6 6

A model: a boolean per cell, a `Sum` equal to k per row, column and region,
and at most one star in each 2 x 2 square (`csp.grid.windows`): two cells
touch exactly when some 2 x 2 square holds both.

>>> [puzzle] = parse("6 6 1\\n1 1 2 2 2 2\\n1 2 2 4 5 2\\n1 2 2 4 5 5\\n"
...                  "3 3 4 4 6 5\\n3 4 4 6 6 5\\n3 3 3 6 6 6\\n")
>>> import csp
>>> m = declare(puzzle)
>>> format(puzzle, decode(puzzle, csp.solve(m).solution, m)).split()
['...*..', '*.....', '.....*', '..*...', '....*.', '.*....']
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from csp import grid
from csp.constraints import Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
from csp.problems._janko import blocks, expect_rows
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = ("star battle: a line 'R C K' (K stars per row, column and region), then R "
               "lines of C region labels; puzzles separated by blank lines")


@dataclass(frozen=True)
class StarBattle:
    stars: int
    regions: tuple[tuple[str, ...], ...]
    """The region label of each cell, row by row."""
    line: int | None = None


Answer = tuple[str, ...]


def parse(text: str) -> list[StarBattle]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[StarBattle | InputError]:
    for block in blocks(text, "star battle", ("rows", "columns", "stars")):
        if isinstance(block, InputError):
            yield block
            continue
        try:
            height, width, stars = block.header
            expect_rows(block, height, "star battle")
            yield StarBattle(stars, tuple(tuple(block.row(r, width, f"row {r + 1}"))
                                          for r in range(height)), block.line)
        except InputError as err:
            yield err


def declare(puzzle: StarBattle, form: str | None = None) -> Model:
    """k stars per row, column and region; at most one in each 2 x 2 square."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for starbattle; the only form is 'model'")
    height, width = len(puzzle.regions), len(puzzle.regions[0])
    m = Model(f"star battle {height}x{width} {puzzle.stars}")
    star = {cell: m.bool(grid.name(cell)) for cell in grid.box(height, width)}
    regions: dict[str, list[grid.Cell]] = {}
    for r, c in star:
        regions.setdefault(puzzle.regions[r][c], []).append((r, c))
    for unit in grid.rows(height, width) + grid.columns(height, width) + list(regions.values()):
        m.add(Sum([star[cell] for cell in unit]) == puzzle.stars)
    for square in grid.windows(height, width):
        m.add(Sum([star[cell] for cell in square]) <= 1)
    return m


def decode(puzzle: StarBattle, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple("".join("*" if solution[grid.name(cell)] else "." for cell in row)
                 for row in grid.rows(len(puzzle.regions), len(puzzle.regions[0])))


def format(puzzle: StarBattle, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return "\n".join(answer)


def draw(puzzle: StarBattle, answer: Answer | None = None, marks: Collection[grid.Cell] = ()
         ) -> str:
    """The regions as SVG, the answer's stars as `*`."""
    height, width = len(puzzle.regions), len(puzzle.regions[0])
    board = Board(height, width, title=f"star battle {height}x{width}")
    if answer is not None:
        for r, row in enumerate(answer):
            for c, x in enumerate(row):
                if x == "*":
                    board.number((r, c), "*", given=False)
    board.lines(lambda cell: puzzle.regions[cell[0]][cell[1]])
    board.marks(marks)
    return str(board)


KIND = Kind(name="starbattle", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, draw=draw)
