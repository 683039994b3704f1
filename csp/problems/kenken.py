"""KenKen: a Latin square (1..n once in every row and column) cut into cages,
each with a target and an operation that its digits must give: `+` (their
sum), `x` (their product), `-` (the difference of its two digits, larger
minus smaller), `/` (their quotient, larger over smaller); a one-cell cage
holds its target. Digits may repeat in a cage (not in a row or column).

Input (`csp.problems.cages`): a puzzle is a block of lines, blocks separated
by blank lines: the n x n map of cage labels (a letter or digit a cell), then
the clues as `LABEL=TARGETOP` (`a=12+`, `b=2/`, `c=3` for one cell)
separated by spaces. Output: the square, a row of digits a line.

A model: a variable `rRcC` per cell, all different rows and columns, a `Sum`
per `+` cage and a `Relation` (a table of the allowed digits) per `x`, `-`
and `/` cage.

>>> [puzzle] = parse("aab\\ncbb\\ncdd\\na=3x b=6+ c=1- d=2/")
>>> import csp
>>> m = declare(puzzle)
>>> print(format(puzzle, decode(puzzle, csp.solve(m).solution, m)))
132
213
321
>>> csp.count(m).count
1
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent, Relation, Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
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
from csp.problems.latin import random_square

FORMS = ("model",)
OPS = "+-x/"
DESCRIPTION = ("kenken: n lines of n cage labels, then clues LABEL=TARGETOP with OP one of "
               "+ - x / (none for a one-cell cage); puzzles separated by blank lines")


@dataclass(frozen=True)
class KenKen:
    n: int
    cages: tuple[Cage, ...]
    line: int | None = None


Answer = tuple[tuple[int, ...], ...]


def parse(text: str) -> list[KenKen]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[KenKen | InputError]:
    for item in read(text, ops=OPS):
        yield item if isinstance(item, InputError) else _checked(*item)


def _checked(n: int, cages: tuple[Cage, ...], line: int) -> KenKen | InputError:
    for cage in cages:
        size = len(cage.cells)
        clue = f"{cage.label}={cage.target}{cage.op}"
        if size > 1 and not cage.op:
            return InputError(f"clue {clue}: a cage of {size} cells needs an operation "
                              f"({' '.join(OPS)})", line=line, token=clue)
        if cage.op in ("-", "/") and size != 2:
            return InputError(f"clue {clue}: {cage.op} takes a cage of two cells, not {size}",
                              line=line, token=clue)
    return KenKen(n, cages, line)


RULES = {
    "x": lambda target: lambda *d: math.prod(d) == target,
    "-": lambda target: lambda a, b: abs(a - b) == target,
    "/": lambda target: lambda a, b: max(a, b) == target * min(a, b),
}
"""The operations other than `+` (a `Sum`), as predicates on a cage's digits."""


def declare(puzzle: KenKen, form: str | None = None) -> Model:
    """All different rows and columns; each cage's digits give its target."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for kenken; the only form is 'model'")
    n = puzzle.n
    m = Model(f"kenken {n}x{n}")
    var = {cell: m.var(grid.name(cell), range(1, n + 1)) for cell in grid.box(n, n)}
    for unit in grid.rows(n) + grid.columns(n):
        m.add(AllDifferent([var[cell] for cell in unit]))
    for cage in puzzle.cages:
        cells = [var[cell] for cell in cage.cells]
        if len(cells) == 1 or cage.op == "+":
            m.add(Sum(cells) == cage.target)
        else:
            m.add(Relation(cells, RULES[cage.op](cage.target)))
    return m


def decode(puzzle: KenKen, solution: Mapping[Any, int], problem: Model | None = None) -> Answer:
    return decode_grid(puzzle.n, solution)


def format(puzzle: KenKen, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return format_grid(answer)


def format_puzzle(puzzle: KenKen) -> str:
    """The puzzle in its input format (`parse` reads it back)."""
    return format_cages(puzzle.n, puzzle.cages)


# -- making puzzles (csp.generation): a random Latin square, its cages cut by walls -------

LARGEST = 4
"""The most cells a cage made has."""


def _operation(salt: int, cells: list[grid.Cell], digits: list[int]) -> tuple[int, str]:
    """A cage's clue: its operation drawn at random, but the same for the same
    cage of one puzzle (a function of the cells, so that the walls alone
    make the puzzle)."""
    rng = random.Random(f"{salt}:{cells}")
    low, high = min(digits), max(digits)
    if len(cells) == 1:
        return digits[0], ""
    ops = ["+", "x"] + (["-", "-"] + ["/", "/"] * (high % low == 0) if len(cells) == 2 else [])
    op = rng.choice(ops)
    return {"+": sum(digits), "x": math.prod(digits), "-": high - low,
            "/": high // low}[op], op


def _make_puzzle(n: int, answer: tuple[Answer, int], walls: Sequence[Wall]) -> KenKen:
    square, salt = answer
    return KenKen(n, caged(n, walls, lambda cells: _operation(
        salt, cells, [square[r][c] for r, c in cells])))


MAKER = generation.Maker(
    sizes="n, an n x n square (3 to 9); default 6",
    size=lambda text: make_size(text, 6, 3),
    solution=lambda n, rng: (random_square(n, rng), rng.randrange(1 << 30)),
    clues=lambda n, answer: generation.edges(n), puzzle=_make_puzzle, where=lambda wall: wall,
    start=lambda n, answer, walls, rng: generation.random_walls(n, rng, 3,
                                                                lambda cage, cell: True),
    fits=lambda n, answer, walls: walls_fit(n, walls, LARGEST, None),
    kind_answer=lambda n, answer: answer[0],
    uniformity="the square as latin's; the cages cut from a random partition (cages of 1 to 3 "
               "cells), walls added while not unique, taken away while it stays unique; each "
               "cage's operation drawn at random",
)


KIND = Kind(name="kenken", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, format_puzzle=format_puzzle,
            draw=drawing("kenken", blocks=False), cells=answer_cells, maker=MAKER)
