"""`dominoes`: the domino tilings of a board, as an exact cover.

Glossary: a *board* is a grid of *cells*, `.` free and `#` blocked; a
*domino* covers two free cells side by side; a *tiling* covers every free cell
with exactly one domino.

Input: boards drawn with `.` and `#`, one row per line, separated by blank
lines (`%` starts a comment line). Output: the board with each domino drawn
by a letter of its own (`a`-`z`, `A`-`Z`, then again), `#` kept.

The exact cover: one primary item per free cell, one option per domino
(two adjacent free cells), carrying its cells.

>>> import csp
>>> [board] = parse("...\\n...\\n")
>>> xc = declare(board)
>>> xc.n_primary, xc.n_options, csp.count(xc).count
(6, 7, 3)
>>> print(format(board, decode(board, csp.solve(xc).solution, xc)))
aab
ccb
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from csp import ExactCover, InputError
from csp.problems import Kind

DESCRIPTION = "domino tilings: a board of '.' (free) and '#' (blocked), boards between blank lines"

Cell = tuple[int, int]
"""(row, column), 0-based."""
Domino = tuple[Cell, Cell]
LETTERS = string.ascii_lowercase + string.ascii_uppercase


@dataclass(frozen=True)
class Board:
    rows: tuple[str, ...]
    line: int | None = None  # where it starts in its file

    @property
    def free(self) -> list[Cell]:
        return [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row)
                if ch == "."]


def parse(text: str) -> Iterator[Board | InputError]:
    """The boards of `text`; a bad one is an `InputError` naming its line."""
    rows: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines() + [""], start=1):
        line = raw.strip()
        if line.startswith("%"):
            continue
        if line:
            if not rows:
                start = number
            rows.append(line)
            continue
        if rows:
            yield _board(rows, start)
            rows = []


def _board(rows: list[str], start: int) -> Board | InputError:
    for offset, row in enumerate(rows):
        bad = set(row) - {".", "#"}
        if bad:
            return InputError(f"a board row holds only '.' and '#', not {sorted(bad)}",
                              line=start + offset, token=row)
        if len(row) != len(rows[0]):
            return InputError(f"this row has {len(row)} cells and the board's first row "
                              f"{len(rows[0])}", line=start + offset, token=row)
    return Board(tuple(rows), start)


def declare(board: Board, form: str | None = None) -> ExactCover:
    """A primary item per free cell, an option per domino."""
    if form not in (None, "exact-cover"):
        raise InputError(f"dominoes are declared as an exact cover only, not {form!r}")
    free = board.free
    if not free:
        raise InputError("the board has no free cell", line=board.line)
    # Items are named r<row>c<column>, so that the cover can be written in
    # Knuth's format (`csp xc`, `csp crosscheck` read it back).
    xc = ExactCover([_name(cell) for cell in free],
                    name=f"dominoes {len(board.rows)}x{len(board.rows[0])}")
    cells = set(free)
    for r, c in free:
        for neighbour in ((r, c + 1), (r + 1, c)):
            if neighbour in cells:
                xc.add_option([_name((r, c)), _name(neighbour)], ((r, c), neighbour))
    return xc


def _name(cell: Cell) -> str:
    return f"r{cell[0]}c{cell[1]}"


def decode(board: Board, solution: Sequence[int], problem: ExactCover) -> list[Domino]:
    """The dominoes of a solution, in the order of their first cell."""
    return sorted(problem.data[k] for k in solution)


def format(board: Board, answer: list[Domino]) -> str:  # noqa: A001 - the kind's printer
    grid = [list(row) for row in board.rows]
    for n, cells in enumerate(answer):
        for r, c in cells:
            grid[r][c] = LETTERS[n % len(LETTERS)]
    return "\n".join("".join(row) for row in grid)


KIND = Kind(name="dominoes", description=DESCRIPTION, parse=parse, declare=declare,
            decode=decode, format=format)
"""What csp reads through the entry point `dominoes` of the group `csp.problems`."""
