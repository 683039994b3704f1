"""Skyscrapers (towers): fill an n x n grid with towers of heights 1..n, each
height once in every row and column; a clue outside the grid is how many
towers one sees from there looking along its row or column, a taller tower
hiding every lower one behind it.

Input: janko.at's layout (`csp.problems._janko`): a line `N N`, then four
lines of N clues, those above the columns, below them, left of the rows and
right of them (`-` for no clue), then N lines of N cells (a given height, or
`-`), which may be left out when nothing is given; puzzles separated by
blank lines. Output: the grid, a row of heights a line, separated by spaces.

    4 4
    4 - - -
    - 2 2 -
    - 2 2 1
    3 2 - -

A model: a variable `rRcC` per cell, all different rows and columns; for
each clue, a boolean per tower after the first, reified as "taller than
every tower before it" (`b == (x[i] > m)`, `m` the running maximum of the
towers before, `Maximum([m, x[i]])`), and the `Sum` of them equal to the
clue less one (the first tower is always seen). The auxiliaries are
functions of the heights: counts are those of the grids.

>>> [puzzle] = parse("4 4\\n4 - - -\\n- 2 2 -\\n- 2 2 1\\n3 2 - -\\n")  # janko.at's 26
>>> import csp
>>> m = declare(puzzle)
>>> print(format(puzzle, decode(puzzle, csp.solve(m).solution, m)))
1 4 3 2
2 1 4 3
3 2 1 4
4 3 2 1
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent, Sum
from csp.errors import InputError
from csp.expressions import Maximum
from csp.model import Model, Variable
from csp.problems import every
from csp.problems._janko import Block, blocks
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = ("skyscrapers: a line 'N N', four lines of N clues (above, below, left, right; "
               "'-' none), then N lines of givens ('-' blank) or none")
SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class Skyscrapers:
    n: int
    clues: tuple[tuple[int, ...], ...]
    """The clues of each side in `SIDES`' order, 0 for none."""
    givens: tuple[int, ...]
    """A height per cell row by row, 0 for a blank."""
    line: int | None = None


Answer = tuple[tuple[int, ...], ...]


def parse(text: str) -> list[Skyscrapers]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Skyscrapers | InputError]:
    for block in blocks(text, "skyscrapers", ("rows", "columns")):
        try:
            yield block if isinstance(block, InputError) else _puzzle(block)
        except InputError as err:
            yield err


def _puzzle(block: Block) -> Skyscrapers:
    n, width = block.header
    if n != width:
        raise InputError(f"a skyscrapers grid is square; this one is {n}x{width}",
                         line=block.line)
    if len(block.cells) not in (4, 4 + n):
        raise InputError(f"the skyscrapers of line {block.line} has {len(block.cells)} lines "
                         f"after its first, not 4 (the clues) or {4 + n} (and the givens)",
                         line=block.line)
    names = [f"the clues {side}" for side in ("above", "below", "left", "right")]
    names += [f"row {r + 1}" for r in range(n)]
    lines = [tuple(_height(t, n, block.lines[k], names[k]) for t in block.row(k, n, names[k]))
             for k in range(len(block.cells))]
    givens = tuple(h for row in lines[4:] for h in row) or (0,) * n * n
    return Skyscrapers(n, tuple(lines[:4]), givens, block.line)


def _height(token: str, n: int, line: int, where: str) -> int:
    if token == "-":
        return 0
    if not (token.isascii() and token.isdigit() and 1 <= int(token) <= n):
        raise InputError(f"{where}: {token!r} is not a height 1..{n} or '-'", line=line,
                         token=token)
    return int(token)


def sight_lines(n: int) -> dict[str, list[list[grid.Cell]]]:
    """The cells each clue looks along, nearest first, by side."""
    rows, columns = grid.rows(n), grid.columns(n)
    return {"top": columns, "bottom": [line[::-1] for line in columns],
            "left": rows, "right": [line[::-1] for line in rows]}


def declare(puzzle: Skyscrapers, form: str | None = None) -> Model:
    """All different rows and columns; for each clue, the count of towers seen."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for skyscrapers; the only form is 'model'")
    n = puzzle.n
    m = Model(f"skyscrapers {n}x{n}")
    var = {cell: m.var(grid.name(cell), [g] if (g := puzzle.givens[cell[0] * n + cell[1]])
                       else range(1, n + 1)) for cell in grid.box(n, n)}
    for unit in grid.rows(n) + grid.columns(n):
        m.add(AllDifferent([var[cell] for cell in unit]))
    for side, clues in zip(SIDES, puzzle.clues):
        for k, (clue, line) in enumerate(zip(clues, sight_lines(n)[side])):
            if clue:
                m.add(Sum(_seen(m, [var[cell] for cell in line], f"{side}{k + 1}")) == clue - 1)
    return m


def _seen(m: Model, towers: list[Variable], name: str) -> list[Variable]:
    """A boolean per tower after the first, true when it is taller than every
    tower before it: than `tallest`, the running maximum (a variable per
    prefix, `Maximum([tallest, tower]) == next`: arity-3 constraints, where
    `Maximum(towers[:i])` would be one of arity i + 1 to decompose)."""
    seen = []
    tallest = towers[0]
    for i, tower in enumerate(towers[1:], start=2):
        seen.append(b := m.bool(f"{name}seen{i}"))
        m.add(b == (tower > tallest))
        if i < len(towers):
            taller = m.var(f"{name}tallest{i}", range(1, len(towers) + 1))
            m.add(Maximum([tallest, tower]) == taller)
            tallest = taller
    return seen


def decode(puzzle: Skyscrapers, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple(tuple(solution[grid.name(cell)] for cell in row) for row in grid.rows(puzzle.n))


def format(puzzle: Skyscrapers, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return "\n".join(" ".join(map(str, row)) for row in answer)


def draw(puzzle: Skyscrapers, answer: Answer | None = None,
         marks: Collection[grid.Cell] = ()) -> str:
    """The grid as SVG: the givens in bold, the answer's heights in blue."""
    n = puzzle.n
    board = Board(n, n, title=f"skyscrapers {n}x{n}")
    for r, c in grid.box(n, n):
        given = puzzle.givens[r * n + c]
        value = answer[r][c] if answer is not None else given
        if value:
            board.number((r, c), str(value), given=bool(given))
    board.lines()
    board.marks(marks)
    return str(board)


def cells(puzzle: Skyscrapers, answer: Answer) -> dict[grid.Cell, int]:
    """The height of every cell."""
    return {(r, c): h for r, row in enumerate(answer) for c, h in enumerate(row)}


def format_puzzle(puzzle: Skyscrapers) -> str:
    """The puzzle in its input format (the givens' lines only if any is given)."""
    n = puzzle.n
    lines = [" ".join(str(h) if h else "-" for h in clues) for clues in puzzle.clues]
    if any(puzzle.givens):
        lines += [" ".join(str(h) if h else "-" for h in puzzle.givens[r * n:(r + 1) * n])
                  for r in range(n)]
    return "\n".join([f"{n} {n}", *lines]) + "\n"


def seen(towers: Sequence[int]) -> int:
    """How many of the towers one sees, looking from the first.

    >>> seen([2, 1, 3, 5, 4])
    3
    """
    tallest, count = 0, 0
    for height in towers:
        if height > tallest:
            tallest, count = height, count + 1
    return count


# -- making puzzles (csp.generation) ------------------------------------------------------
# A random Latin square (csp.problems.latin); its clues are those outside the
# grid only, every side's: the shared search adds and takes them away. A
# square whose 4n clues leave it ambiguous is dropped for another.

MAKE_MAX = 9


def _make_size(text: str | None) -> int:
    return generation.width(text, 5, 3, MAKE_MAX, "skyscrapers grid")


def _make_solution(n: int, rng: random.Random) -> Answer:
    from csp.problems.latin import random_square

    return random_square(n, rng)


Clue = tuple[tuple[str, int, int], int]
"""A clue outside the grid: ((side, k, n), the towers seen from there)."""


def _clues(n: int, answer: Answer) -> list[Clue]:
    """Every clue outside the grid, in `SIDES`' order."""
    return [((side, k, n), seen([answer[r][c] for r, c in line]))
            for side, lines in sight_lines(n).items() for k, line in enumerate(lines)]


def _make_puzzle(n: int, answer: Answer, clues: Sequence[Clue]) -> Skyscrapers:
    given = dict(clues)
    return Skyscrapers(n, tuple(tuple(given.get((side, k, n), 0) for k in range(n))
                                for side in SIDES), (0,) * (n * n))


MAKER = generation.Maker(
    sizes=f"n, an n x n grid (3 to {MAKE_MAX}); default 5",
    size=_make_size, solution=_make_solution, clues=_clues, puzzle=_make_puzzle,
    where=lambda clue: sight_lines(clue[0][2])[clue[0][0]][clue[0][1]],
    uniformity="the Latin squares of csp.problems.latin (exactly uniform up to 5x5)",
)


KIND = Kind(name="skyscrapers", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, draw=draw, cells=cells,
            format_puzzle=format_puzzle, maker=MAKER)
