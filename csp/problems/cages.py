"""Puzzles drawn as a map of cages with a clue per cage (killer sudoku, kenken).

A puzzle is a block of lines; blocks are separated by blank lines and `#`
starts a comment line. The first n lines are the map: n characters each, a
cell's character the label of its cage (any letter or digit; a cage's cells
must be orthogonally connected). The other lines of the block hold the
clues, separated by spaces: `LABEL=TARGET` and, where the kind takes an
operation, `LABEL=TARGETOP` (`a=12+`, `b=2/`). Every cage has one clue.

>>> [(n, cages, line)] = read("aab\\ncdb\\ncdd\\na=3 b=4\\nc=5 d=6", ops="")
>>> n, [(c.label, c.cells, c.target) for c in cages][:2]
(3, [('a', ((0, 0), (0, 1)), 3), ('b', ((0, 2), (1, 2)), 4)])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from csp import grid
from csp.errors import InputError
from csp.problems import paragraphs
from csp.problems._numbers import natural
from csp.problems.pictures import Board


@dataclass(frozen=True)
class Cage:
    label: str
    cells: tuple[grid.Cell, ...]
    target: int
    op: str = ""  # "" where the kind takes none, or for a one-cell kenken cage


def read(text: str, ops: str) -> Iterator[tuple[int, tuple[Cage, ...], int] | InputError]:
    """Each puzzle's size, cages in map order and first line, or the error of a bad one
    (then the next block is read afresh). `ops`: the operations a clue may
    name after its target."""
    for block in paragraphs(text):
        try:
            yield _puzzle(block, ops)
        except InputError as err:
            yield err


def _puzzle(block: list[tuple[int, str]], ops: str) -> tuple[int, tuple[Cage, ...], int]:
    clue = re.compile(rf"^(\w)=(\d+)([{re.escape(ops)}]?)$" if ops else r"^(\w)=(\d+)()$")
    first = block[0][0]
    n = len(block[0][1])
    if len(block) < n:
        raise InputError(f"the map of line {first} is {n} wide but the block has only "
                         f"{len(block)} lines", line=first, token=block[0][1])
    for r, (number, row) in enumerate(block[:n]):
        if len(row) != n or not all(ch.isalnum() for ch in row):
            raise InputError(f"map row {r + 1} of the puzzle of line {first} is {row!r}: "
                             f"{n} letters or digits expected", line=number, token=row)
    cells = grid.regions([row for _, row in block[:n]], skip="")
    clues: dict[str, tuple[int, str]] = {}
    for number, line in block[n:]:
        for token in line.split():
            found = clue.match(token)
            if not found:
                form = f"LABEL=TARGET, then maybe one of {ops}" if ops else "LABEL=TARGET"
                raise InputError(f"{token!r} is not a clue {form}", line=number, token=token)
            label, target, op = found.group(1), int(found.group(2)), found.group(3) or ""
            if label not in cells:
                raise InputError(f"clue {token!r}: the map has no cage {label!r}",
                                 line=number, token=token)
            if label in clues:
                raise InputError(f"clue {token!r}: cage {label!r} has two clues",
                                 line=number, token=token)
            clues[label] = (target, op)
    for label, where in cells.items():
        if label not in clues:
            raise InputError(f"cage {label!r} of the puzzle of line {first} has no clue",
                             line=first, token=label)
        if not grid.connected(where):
            raise InputError(f"cage {label!r} of the puzzle of line {first} is in pieces: "
                             "use a label per cage", line=first, token=label)
    return (n, tuple(Cage(label, tuple(where), *clues[label]) for label, where in cells.items()),
            first)


# -- what killer and kenken share past reading: a cell's variable, the grid out,
# the puzzle back in its input format


def decode_grid(n: int, solution: Mapping[Any, int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(solution[grid.name(cell)] for cell in row) for row in grid.rows(n))


def format_grid(answer: tuple[tuple[int, ...], ...]) -> str:
    return "\n".join("".join(map(str, row)) for row in answer)


def cells_of(n: int, answer: tuple[tuple[int, ...], ...]) -> dict[grid.Cell, int]:
    """The answer as `{cell: digit}`."""
    return {(r, c): answer[r][c] for r, c in grid.box(n, n)}


SIGNS = {"+": "+", "-": "\u2212", "x": "\u00d7", "/": "\u00f7"}
"""How an operation is printed in a picture: the minus, times and division signs."""


def drawing(name: str, blocks: bool) -> Callable[..., str]:
    """The `draw` of a kind of caged puzzles (a `.n` and `.cages`), named `name`."""
    def draw(puzzle: Any, answer: tuple[tuple[int, ...], ...] | None = None,
             marks: Iterable[grid.Cell] = ()) -> str:
        return draw_cages(puzzle.n, puzzle.cages, answer, marks,
                          f"{name} {puzzle.n}x{puzzle.n}", blocks)

    return draw


def answer_cells(puzzle: Any, answer: tuple[tuple[int, ...], ...]) -> dict[grid.Cell, int]:
    """The `cells` of a kind of caged puzzles: the answer as `{cell: digit}`."""
    return cells_of(puzzle.n, answer)


def draw_cages(n: int, cages: tuple[Cage, ...], answer: tuple[tuple[int, ...], ...] | None,
               marks: Iterable[grid.Cell], title: str, blocks: bool) -> str:
    """The grid with its cages as SVG: killer sudoku (`blocks`) draws the
    blocks thick and each cage as a dashed outline, kenken each cage thick;
    a cage's clue in its first cell's corner, the answer's digits in blue."""
    board = Board(n, n, title=title)
    if answer is not None:
        for r, c in grid.box(n, n):
            board.number((r, c), str(answer[r][c]), given=False)
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage.cells}
    for cage in cages:
        if blocks:
            board.cage(cage.cells)
    for cage in cages:
        board.corner(min(cage.cells), f"{cage.target}{SIGNS.get(cage.op, cage.op)}")
    shape = grid.block_shape(n)
    board.lines(region=(lambda cell: grid.block_of(cell, n, shape)) if blocks else owner.get)
    board.marks(marks)
    return str(board)


# -- making puzzles (csp.generation): the clues are walls between cells ---------------

Wall = tuple[grid.Cell, grid.Cell]


def make_size(text: str | None, default: int, least: int) -> int:
    """`--size n` for a grid of n x n digits, one character each: `least` to 9."""
    if text is None:
        return default
    n = natural(text.strip(), "--size")
    if not least <= n <= 9:
        raise InputError(f"--size {n}: the grid is {least} to 9 wide (a digit a cell)")
    return n


def caged(n: int, walls: Iterable[Wall], target: Callable[[list[Any]], tuple[int, str]]
          ) -> tuple[Cage, ...]:
    """The cages the walls cut the grid into, labelled in order, each with its
    clue `target(cells)` (the target and the operation)."""
    from csp.generation import cages

    return tuple(Cage(grid.LABELS[k], tuple(cells), *target(cells))
                 for k, cells in enumerate(cages(n, walls)))


def walls_fit(n: int, walls: Iterable[Wall], largest: int,
              value: Mapping[grid.Cell, int] | None) -> bool:
    """Whether the walls make at most as many cages as there are labels, each
    of at most `largest` cells and, given `value`, without a repeated digit."""
    from csp.generation import cages

    found = cages(n, walls)
    return len(found) <= len(grid.LABELS) and all(
        len(cells) <= largest and (value is None or len({value[c] for c in cells}) == len(cells))
        for cells in found)


def format_cages(n: int, cages: tuple[Cage, ...]) -> str:
    """The cage map and its clues (`label=target`, with the operation where there
    is one), ten to a line: what `read` reads back."""
    label = {cell: cage.label for cage in cages for cell in cage.cells}
    rows = ["".join(label[cell] for cell in row) for row in grid.rows(n)]
    clues = [f"{cage.label}={cage.target}{cage.op}" for cage in cages]
    return "\n".join(rows + [" ".join(clues[k:k + 10]) for k in range(0, len(clues), 10)]) + "\n"
