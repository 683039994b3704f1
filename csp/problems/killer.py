"""Killer sudoku: a sudoku without givens whose cells are grouped in cages;
the digits of a cage are all different and add up to its sum.

Input (`csp.problems.cages`): a puzzle is a block of lines, blocks separated
by blank lines: the N x N map of cage labels (a letter or digit a cell),
then the sums as `LABEL=SUM` separated by spaces. The blocks are the
squarest r x c with r <= c (3x3 for 9x9, 2x3 for 6x6, `csp.grid.block_shape`).
Output: the grid, a row of digits a line.

A model: a variable `rRcC` per cell, all different in every row, column and
block (`csp.grid.rows`, `columns`, `blocks`) and in every cage, a `Sum` per
cage.

>>> [puzzle] = parse("aabb\\ncdde\\ncfge\\nhfgg\\na=3 b=7 c=5 d=5 e=5 f=4 g=7 h=4")
>>> import csp
>>> m = declare(puzzle)
>>> m
<Model 'killer 4x4': 16 variables, 27 constraints>
>>> print(format(puzzle, decode(puzzle, csp.solve(m).solution, m)))
1234
3412
2143
4321
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent, Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every, sudoku
from csp.problems.cages import (
    Cage,
    Wall,
    answer_cells,
    caged,
    decode_grid,
    drawing,
    format_cages,
    format_grid,
    make_size,
    read,
    walls_fit,
)
from csp.problems.kind import Kind

FORMS = ("model",)
DESCRIPTION = ("killer sudoku: N lines of N cage labels, then the cages' sums as LABEL=SUM; "
               "puzzles separated by blank lines")


@dataclass(frozen=True)
class Killer:
    n: int
    cages: tuple[Cage, ...]
    line: int | None = None


Answer = tuple[tuple[int, ...], ...]


def parse(text: str) -> list[Killer]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Killer | InputError]:
    for item in read(text, ops=""):
        if isinstance(item, InputError):
            yield item
            continue
        yield _checked(*item)


def _checked(n: int, cages: tuple[Cage, ...], line: int) -> Killer | InputError:
    for cage in cages:
        low = sum(range(1, len(cage.cells) + 1))
        high = sum(range(n - len(cage.cells) + 1, n + 1))
        if len(cage.cells) > n or not low <= cage.target <= high:
            return InputError(f"cage {cage.label!r}: {len(cage.cells)} different digits 1..{n} "
                              f"cannot add up to {cage.target}", line=line, token=cage.label)
    return Killer(n, cages, line)


def declare(puzzle: Killer, form: str | None = None) -> Model:
    """All different in rows, columns, blocks and cages; a sum per cage."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for killer; the only form is 'model'")
    n = puzzle.n
    m = Model(f"killer {n}x{n}")
    var = {cell: m.var(grid.name(cell), range(1, n + 1)) for cell in grid.box(n, n)}
    for unit in grid.rows(n) + grid.columns(n) + grid.blocks(n):
        m.add(AllDifferent([var[cell] for cell in unit]))
    for cage in puzzle.cages:
        if len(cage.cells) > 1:
            m.add(AllDifferent([var[cell] for cell in cage.cells]))
        m.add(Sum([var[cell] for cell in cage.cells]) == cage.target)
    return m


def decode(puzzle: Killer, solution: Mapping[Any, int], problem: Model | None = None) -> Answer:
    return decode_grid(puzzle.n, solution)


def format(puzzle: Killer, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return format_grid(answer)


def format_puzzle(puzzle: Killer) -> str:
    """The puzzle in its input format (`parse` reads it back)."""
    return format_cages(puzzle.n, puzzle.cages)


# -- making puzzles (csp.generation): a random sudoku grid, its cages cut by walls --------

LARGEST = 6
"""The most cells a cage made has (and fewer than a row's)."""


def _make_solution(n: int, rng: random.Random) -> Answer:
    flat = sudoku.MAKER.solution((n, grid.block_shape(n)), rng)
    return tuple(tuple(flat[r * n:(r + 1) * n]) for r in range(n))


def _make_puzzle(n: int, answer: Answer, walls: Sequence[Wall]) -> Killer:
    return Killer(n, caged(n, walls, lambda cells: (sum(answer[r][c] for r, c in cells), "")))


def _value(answer: Answer) -> dict[grid.Cell, int]:
    return {(r, c): d for r, row in enumerate(answer) for c, d in enumerate(row)}


MAKER = generation.Maker(
    sizes="n, an n x n grid (4 to 9; blocks the squarest, rows for a prime n); default 9",
    size=lambda text: make_size(text, 9, 4), solution=_make_solution,
    clues=lambda n, answer: generation.edges(n), puzzle=_make_puzzle, where=lambda wall: wall,
    start=lambda n, answer, walls, rng: generation.random_walls(
        n, rng, 5, lambda cage, cell: answer[cell[0]][cell[1]] not in
        {answer[r][c] for r, c in cage}),
    fits=lambda n, answer, walls: walls_fit(n, walls, min(LARGEST, n - 1), _value(answer)),
    uniformity="the grid as sudoku's; the cages cut from a random partition (cages of 1 to 5 "
               "cells, the small likelier), walls added while not unique, taken away while "
               "it stays unique",
)


KIND = Kind(name="killer", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, format_puzzle=format_puzzle,
            draw=drawing("killer", blocks=True), cells=answer_cells, maker=MAKER)
