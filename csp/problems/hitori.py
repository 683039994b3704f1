"""Hitori: shade cells of a grid of numbers so that no number repeats in a
row or column among the unshaded cells, no two shaded cells touch on a
side, and the unshaded cells form one orthogonally connected area.

Input: janko.at's layout (`csp.problems._janko`): a line `R C`, then R lines
of C numbers separated by spaces; puzzles separated by blank lines. Output:
the grid, each unshaded cell its number and each shaded one `#`, columns
padded to the widest number.

    4 4
    3 3 1 4
    4 3 2 2
    1 3 4 2
    3 4 3 2

A model: a boolean per cell, 1 when it is left unshaded; in each row and
column at most one unshaded cell of each repeated number (a `Sum`), at least
one of any two neighbours unshaded, and `Connected` over the unshaded cells
with the grid's edges (`csp.grid.edges`). `Connected` is native on the
backends that declare it and decomposed for the others (`csp.decompose`:
shortest-path distances, functional auxiliaries, so counts are unchanged).

>>> [puzzle] = parse("4 4\\n3 3 1 4\\n4 3 2 2\\n1 3 4 2\\n3 4 3 2\\n")
>>> import csp
>>> m = declare(puzzle)
>>> print(format(puzzle, decode(puzzle, csp.solve(m).solution, m)))
3 # 1 4
4 3 2 #
1 # 4 2
# 4 3 #
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from csp import grid
from csp.constraints import Sum
from csp.errors import InputError
from csp.global_constraints import Connected
from csp.model import Model
from csp.problems import every
from csp.problems._janko import Block, blocks, expect_rows
from csp.problems._numbers import natural
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = "hitori: a line 'R C', then R lines of C numbers; puzzles separated by blank lines"


@dataclass(frozen=True)
class Hitori:
    numbers: tuple[tuple[int, ...], ...]
    line: int | None = None


Answer = tuple[tuple[int | None, ...], ...]
"""The grid with None for each shaded cell."""


def parse(text: str) -> list[Hitori]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Hitori | InputError]:
    for block in blocks(text, "hitori", ("rows", "columns")):
        if isinstance(block, InputError):
            yield block
            continue
        try:
            height, width = block.header
            expect_rows(block, height, "hitori")
            yield Hitori(tuple(_numbers(block, r, width) for r in range(height)), block.line)
        except InputError as err:
            yield err if err.line is not None else err.located(line=block.line)


def _numbers(block: Block, r: int, width: int) -> tuple[int, ...]:
    """Row `r`'s numbers; a bad one is refused naming its line."""
    try:
        return tuple(natural(t, f"row {r + 1}'s number")
                     for t in block.row(r, width, f"row {r + 1}"))
    except InputError as err:
        raise err if err.line is not None else err.located(line=block.lines[r]) from None


def declare(puzzle: Hitori, form: str | None = None) -> Model:
    """Unshaded cells: no number twice in a unit, no two shaded neighbours, connected."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for hitori; the only form is 'model'")
    height, width = len(puzzle.numbers), len(puzzle.numbers[0])
    m = Model(f"hitori {height}x{width}")
    cells = grid.box(height, width)
    white = {cell: m.bool(grid.name(cell)) for cell in cells}
    for unit in grid.rows(height, width) + grid.columns(height, width):
        alike = defaultdict(list)
        for r, c in unit:
            alike[puzzle.numbers[r][c]].append(white[r, c])
        for same in alike.values():
            if len(same) > 1:
                m.add(Sum(same) <= 1)
    edges = grid.edges(cells)
    for i, j in edges:
        m.add(Sum([white[cells[i]], white[cells[j]]]) >= 1)
    m.add(Connected([white[cell] for cell in cells], edges))
    return m


def decode(puzzle: Hitori, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple(tuple(puzzle.numbers[r][c] if solution[grid.name((r, c))] else None
                       for r, c in row)
                 for row in grid.rows(len(puzzle.numbers), len(puzzle.numbers[0])))


def format(puzzle: Hitori, answer: Answer) -> str:  # noqa: A001 - the module's printer
    wide = max(len(str(n)) for row in puzzle.numbers for n in row)
    return "\n".join(" ".join(("#" if n is None else str(n)).rjust(wide) for n in row)
                     for row in answer)


def draw(puzzle: Hitori, answer: Answer | None = None, marks: Collection[grid.Cell] = ()
         ) -> str:
    """The numbers as SVG, the answer's shaded cells filled."""
    height, width = len(puzzle.numbers), len(puzzle.numbers[0])
    board = Board(height, width, title=f"hitori {height}x{width}")
    if answer is not None:
        board.fill([(r, c) for r, row in enumerate(answer) for c, n in enumerate(row)
                    if n is None], "#333333")
    for r, c in grid.box(height, width):
        board.number((r, c), str(puzzle.numbers[r][c]))
    board.lines()
    board.marks(marks)
    return str(board)


KIND = Kind(name="hitori", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, draw=draw)
