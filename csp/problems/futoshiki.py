"""Futoshiki: a Latin square (1..n once in every row and column) with some
givens and inequality signs between neighbouring cells.

Input: a puzzle is drawn as its grid. A *cell row* holds the n cells at
even positions (0, 2, 4, ...: a digit 1..9 or `.` for a blank) and between
two cells a space or a sign, `<` or `>`, that holds between them; a *sign
row*, between two cell rows, holds under a cell `^` (the cell above is
smaller than the one below) or `v` (larger), spaces elsewhere. A sign row
without a sign may be left out, or blank. The first cell row fixes n; the
puzzle ends after its n-th cell row. Lines starting with `#` are comments.
Output: the square, a row of digits a line.

    . . .<.
        v
    . .>. .
    ^
    . . . 1
    . . . .

A model: a variable `rRcC` per cell, all different rows and columns (the
cells of `csp.grid.rows`/`columns`), a `Sum` for each sign.

>>> [puzzle] = parse(".<.\\n^\\n. 1\\n")
>>> puzzle.n, puzzle.signs
(2, (((0, 0), (0, 1)), ((0, 0), (1, 0))))
>>> import csp
>>> print(format(puzzle, decode(puzzle, csp.solve(declare(puzzle)).solution)))
12
21
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent, Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
from csp.problems._numbers import natural
from csp.problems.kind import Kind
from csp.problems.latin import random_square
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = ("futoshiki: cell rows of digits or '.' at even columns with '<'/'>' between, "
               "sign rows of '^' (above smaller) or 'v' under cells; n cell rows a puzzle")

Cell = tuple[int, int]


@dataclass(frozen=True)
class Futoshiki:
    """An n x n square: `givens[r * n + c]` (0 = blank), and the signs as
    (smaller cell, larger cell) pairs."""

    n: int
    givens: tuple[int, ...]
    signs: tuple[tuple[Cell, Cell], ...]
    line: int | None = None


Answer = tuple[tuple[int, ...], ...]


def parse(text: str) -> list[Futoshiki]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Futoshiki | InputError]:
    """Each puzzle, or the first error in a bad one (its other rows are still
    read as its rows, so that the next puzzle starts where it should)."""
    rows: list[str] = []
    signs: list[tuple[Cell, Cell]] = []
    first = 0
    bad: InputError | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            if set(line) <= set(" ^v"):
                if not rows:
                    yield InputError("a sign row before the first cell row of a puzzle",
                                     line=number, token=line.strip())
                elif bad is None:
                    _sign_row(line, len(rows) - 1, _size(rows[0]), signs, number)
                continue
            if not rows:
                first = number
            if bad is None:
                _cell_row(line, rows, signs, number, first)
        except InputError as err:
            bad = bad or err
        rows.append(line)
        if len(rows) == _size(rows[0]):
            yield bad or Futoshiki(len(rows), tuple(_given(ch) for row in rows
                                                    for ch in row[::2]), tuple(signs), first)
            rows, signs, bad = [], [], None
    if rows:
        yield bad or InputError(f"the puzzle of line {first} has {len(rows)} cell rows, not "
                                f"{_size(rows[0])}", line=first)


def _size(row: str) -> int:
    return (len(row) + 1) // 2


def _given(ch: str) -> int:
    return 0 if ch == "." else int(ch)


def _cell_row(line: str, rows: list[str], signs: list[tuple[Cell, Cell]], number: int,
              first: int) -> None:
    n = _size(rows[0]) if rows else _size(line)
    r = len(rows)
    if len(line) != 2 * n - 1:
        raise InputError(f"cell row {r + 1} of the puzzle of line {first} is {len(line)} "
                         f"characters long, not {2 * n - 1} ({n} cells)", line=number,
                         token=line.strip())
    for k, ch in enumerate(line):
        if k % 2 == 0 and not (ch == "." or ch.isdigit() and 1 <= int(ch) <= n):
            raise InputError(f"row {r + 1}, column {k // 2 + 1}: {ch!r} is not a digit 1..{n}"
                             " or '.'", line=number, token=ch)
        if k % 2 == 1 and ch not in " <>":
            raise InputError(f"row {r + 1}, between columns {k // 2 + 1} and {k // 2 + 2}: "
                             f"{ch!r} is not '<', '>' or a space", line=number, token=ch)
        if ch in "<>":
            left, right = (r, k // 2), (r, k // 2 + 1)
            signs.append((left, right) if ch == "<" else (right, left))


def _sign_row(line: str, r: int, n: int, signs: list[tuple[Cell, Cell]], number: int) -> None:
    for k, ch in enumerate(line):
        if ch == " ":
            continue
        if k % 2 or k // 2 >= n:
            raise InputError(f"the sign {ch!r} below row {r + 1} is not under a cell "
                             f"(column {k + 1} of the line)", line=number, token=ch)
        above, below = (r, k // 2), (r + 1, k // 2)
        signs.append((above, below) if ch == "^" else (below, above))


def declare(puzzle: Futoshiki, form: str | None = None) -> Model:
    """All different rows and columns; smaller - larger < 0 for each sign."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for futoshiki; the only form is 'model'")
    n = puzzle.n
    m = Model(f"futoshiki {n}")
    var = {cell: m.var(grid.name(cell), [g] if (g := puzzle.givens[cell[0] * n + cell[1]])
                       else range(1, n + 1)) for cell in grid.box(n, n)}
    for unit in grid.rows(n) + grid.columns(n):
        m.add(AllDifferent([var[cell] for cell in unit]))
    for smaller, larger in puzzle.signs:
        m.add(Sum([var[smaller], var[larger]], [1, -1]) < 0)
    return m


def decode(puzzle: Futoshiki, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple(tuple(solution[grid.name(cell)] for cell in row) for row in grid.rows(puzzle.n))


def format(puzzle: Futoshiki, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return "\n".join("".join(map(str, row)) for row in answer)


def format_puzzle(puzzle: Futoshiki) -> str:
    """The puzzle drawn in its input format (`parse` reads it back)."""
    n = puzzle.n
    text = [[" "] * (2 * n - 1) for _ in range(2 * n - 1)]
    for r, c in grid.box(n, n):
        text[2 * r][2 * c] = str(puzzle.givens[r * n + c] or ".")
    for (r0, c0), (r1, c1) in puzzle.signs:
        at = (r0 + r1, c0 + c1)  # the midpoint, doubled: the sign's place in the drawing
        horizontal = r0 == r1
        text[at[0]][at[1]] = ("<" if c0 < c1 else ">") if horizontal else ("^" if r0 < r1
                                                                           else "v")
    drawn = ("".join(row).rstrip() for row in text)
    return "\n".join(row for row in drawn if row) + "\n"  # no empty sign rows


def draw(puzzle: Futoshiki, answer: Answer | None = None, marks: Collection[Cell] = ()
         ) -> str:
    """The square as SVG: a box per cell, a chevron between two cells whose
    point is at the smaller one, the givens in bold, the answer in blue."""
    n = puzzle.n
    board = Board(n, n, cell=48, title=f"futoshiki {n}x{n}")
    gap = 8
    for r, c in grid.box(n, n):
        x, y = board.corner_of((r, c))
        board.rect(x + gap, y + gap, board.cell - 2 * gap, board.cell - 2 * gap,
                   stroke="#222222", stroke_width=2.0)
        given = puzzle.givens[r * n + c]
        value = answer[r][c] if answer is not None else given
        if value:
            board.number((r, c), str(value), given=bool(given), size=22)
    for smaller, larger in puzzle.signs:
        (x0, y0), (x1, y1) = board.centre(smaller), board.centre(larger)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        # the point towards the smaller cell, the open side towards the larger
        dx, dy = (x0 - x1) / board.cell * 4, (y0 - y1) / board.cell * 4
        wide = (dy * 1.5, dx * 1.5)
        board.polyline([(mx - dx + wide[0], my - dy + wide[1]), (mx + dx, my + dy),
                        (mx - dx - wide[0], my - dy - wide[1])])
    board.marks(marks)
    return str(board)


def cells(puzzle: Futoshiki, answer: Answer) -> dict[Cell, int]:
    return {(r, c): answer[r][c] for r, c in grid.box(puzzle.n, puzzle.n)}


def with_given(puzzle: Futoshiki, answer: Answer, cell: Cell) -> Futoshiki:
    """The square with `cell` given, as `answer` has it."""
    k = cell[0] * puzzle.n + cell[1]
    return Futoshiki(puzzle.n, puzzle.givens[:k] + (answer[cell[0]][cell[1]],)
                     + puzzle.givens[k + 1:], puzzle.signs, puzzle.line)


# -- making puzzles (csp.generation) ------------------------------------------------------


def _make_size(text: str | None) -> int:
    if text is None:
        return 5
    n = natural(text.strip(), "--size")
    if not 2 <= n <= 9:
        raise InputError(f"--size {n}: a futoshiki is 2 to 9 wide (a digit a cell)")
    return n


def _make_clues(n: int, answer: Answer) -> list[Any]:
    """The givens `(cell, digit)` and the signs `((smaller, larger), "<")`."""
    value: dict[Any, int] = {(r, c): answer[r][c] for r, c in grid.box(n, n)}
    signs = [(tuple(sorted((cell, other), key=value.__getitem__)), "<")
             for cell in value for other in grid.neighbours(cell, value) if other > cell]
    return [(cell, value[cell]) for cell in value] + signs


def _make_puzzle(n: int, answer: Answer, clues: Sequence[Any]) -> Futoshiki:
    givens = [0] * (n * n)
    for clue, what in clues:
        if what != "<":
            givens[clue[0] * n + clue[1]] = what
    return Futoshiki(n, tuple(givens), tuple(pair for pair, what in clues if what == "<"))


MAKER = generation.Maker(
    sizes="n, an n x n square (2 to 9); default 5",
    size=_make_size, solution=lambda n, rng: random_square(n, rng),
    clues=_make_clues, puzzle=_make_puzzle,
    where=lambda clue: clue[0] if clue[1] == "<" else (clue[0],),
    uniformity="as latin's squares",
)


KIND = Kind(name="futoshiki", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, format_puzzle=format_puzzle,
            draw=draw, cells=cells, with_given=with_given, maker=MAKER)
