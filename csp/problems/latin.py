"""Latin squares: fill an n x n grid with 1..n, each once in every row and column.

Input: puzzles separated by blank lines. A puzzle is either a size alone on
its line (every Latin square of that order), or a grid: n rows, each n
numbers separated by spaces or, up to 9x9, n characters; `.` or `0` is a
blank, any other number a given. `#` starts a comment line. Output: the
square, a row a line (digits run together up to 9x9, spaced beyond).

Two declarations: `form="exact-cover"` (the default: items "cell filled",
"row has d", "column has d"; an option per cell and candidate, carrying
`(r, c, d)`), and `form="model"` (a variable `rRcC` per cell, all-different
rows and columns). `symmetry` declares the moves of the square (rotations,
reflections, the transposition) that keep the givens, for `--up-to-symmetry`.

>>> puzzles_ = parse("4\\n\\n12345\\n2....\\n3....\\n4....\\n5....")
>>> [(p.n, p.givens.count(0)) for p in puzzles_]
[(4, 16), (5, 16)]
>>> import csp
>>> csp.count(declare(puzzles_[0])).count, csp.count(declare(puzzles_[1])).count
(576, 56)
>>> xc = declare(puzzles_[1])
>>> len(symmetry(puzzles_[1], xc)), csp.count(xc, up_to_symmetry=True).count
(2, 31)
>>> print(format(puzzles_[1], decode(puzzles_[1], csp.solve(xc).solution, xc)))
12345
25134
31452
43521
54213
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import every, paragraphs
from csp.problems.kind import Kind
from csp.problems.pictures import Board
from csp.problems.sizes import inline

FORMS = ("exact-cover", "model")
DESCRIPTION = ("Latin squares: a size n alone (every square of order n) or n rows of n "
               "numbers ('.' or 0 blank; up to 9x9 rows may run digits together), "
               "puzzles separated by blank lines")


@dataclass(frozen=True)
class Latin:
    """An n x n square: `givens[r * n + c]` is the number at (r, c), 0 = blank."""

    n: int
    givens: tuple[int, ...]
    line: int | None = None


Answer = tuple[tuple[int, ...], ...]
"""The rows of the square."""


def parse(text: str) -> list[Latin]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Latin | InputError]:
    """Each puzzle of `text`, or the error of a bad one (the next block of
    lines starts afresh)."""
    for block in paragraphs(text):
        try:
            yield _puzzle(block)
        except InputError as err:
            yield err


def _puzzle(block: list[tuple[int, str]]) -> Latin:
    first, line = block[0]
    if len(block) == 1 and inline(line) is not None:  # a size, "-1" included
        if int(line) < 1:
            raise InputError(f"{line!r} is not a size (a whole number >= 1)",
                             line=first, token=line)
        return Latin(int(line), (0,) * int(line) ** 2, first)
    n = len(block)
    givens: list[int] = []
    for r, (number, line) in enumerate(block):
        tokens = line.split() if len(line.split()) > 1 or n == 1 else list(line)
        if len(tokens) != n:
            raise InputError(f"row {r + 1} of the {n}x{n} square of line {first} has "
                             f"{len(tokens)} cells, not {n}", line=number, token=line)
        for c, token in enumerate(tokens):
            value = 0 if token == "." else int(token) if token.isdigit() else -1
            if not 0 <= value <= n:
                raise InputError(f"row {r + 1}, column {c + 1} of the square of line {first}:"
                                 f" {token!r} is not a number 1..{n} or a blank ('.', 0)",
                                 line=number, token=token)
            givens.append(value)
    return Latin(n, tuple(givens), first)


def declare(puzzle: Latin, form: str | None = None) -> ExactCover | Model:
    """The square as an exact cover (the default) or as a model."""
    n, digits = puzzle.n, range(1, puzzle.n + 1)
    candidates = {cell: [g] if (g := puzzle.givens[cell[0] * n + cell[1]]) else digits
                  for cell in grid.box(n, n)}
    if form in (None, "exact-cover"):
        xc = ExactCover([f"p{r},{c}" for r, c in grid.box(n, n)]
                        + [f"r{r}#{d}" for r in range(n) for d in digits]
                        + [f"c{c}#{d}" for c in range(n) for d in digits], name=f"latin {n}")
        for (r, c), values in candidates.items():
            for d in values:
                xc.add_option([f"p{r},{c}", f"r{r}#{d}", f"c{c}#{d}"], (r, c, d))
        return xc
    if form == "model":
        m = Model(f"latin {n}")
        var = {cell: m.var(_name(*cell), values) for cell, values in candidates.items()}
        for unit in grid.rows(n) + grid.columns(n):
            m.add(AllDifferent([var[cell] for cell in unit]))
        return m
    raise InputError(f"unknown form {form!r} for latin; the forms are {', '.join(FORMS)}")


def shape(puzzle: Latin) -> str:
    """Squares of one order share a structure (see `csp.family`)."""
    return f"{puzzle.n}x{puzzle.n}"


def declare_shape(puzzle: Latin, form: str | None = None) -> ExactCover | Model:
    """The blank square of the puzzle's order."""
    return declare(Latin(puzzle.n, (0,) * puzzle.n ** 2), form)


def givens(puzzle: Latin, problem: ExactCover | Model) -> Any:
    """The given numbers in the blank square: option `cell * n + number - 1`
    of the exact cover, or `{cell variable: number}`."""
    return grid.givens(puzzle.givens, puzzle.n, problem)


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def decode(puzzle: Latin, solution: Sequence[int] | Mapping[Any, int],
           problem: ExactCover | Model | None = None) -> Answer:
    n = puzzle.n
    if isinstance(solution, Mapping):
        return tuple(tuple(solution[_name(r, c)] for c in range(n)) for r in range(n))
    xc = problem if isinstance(problem, ExactCover) else declare(puzzle, "exact-cover")
    assert isinstance(xc, ExactCover)
    square = [[0] * n for _ in range(n)]
    for k in solution:
        r, c, d = xc.data[k]
        square[r][c] = d
    return tuple(map(tuple, square))


def format(puzzle: Latin, answer: Answer) -> str:  # noqa: A001 - the module's printer
    if puzzle.n <= 9:
        return "\n".join("".join(map(str, row)) for row in answer)
    width = len(str(puzzle.n))
    return "\n".join(" ".join(str(d).rjust(width) for d in row) for row in answer)


def symmetry(puzzle: Latin, problem: ExactCover | Model | None = None):  # -> csp.symmetry.Group
    """The square's moves that keep every given where it is."""
    from csp.symmetry import Group, by_data

    problem = problem if problem is not None else declare(puzzle)
    n = puzzle.n

    def given(cell: grid.Cell) -> int:
        return puzzle.givens[cell[0] * n + cell[1]]

    moves = [move for move in grid.symmetries(grid.box(n, n))[1:]
             if all(given(move(cell)) == given(cell) for cell in grid.box(n, n))]
    def moved(move: grid.Move) -> Any:  # an option's (r, c, d) under the move
        return lambda data: (*move(data[:2]), data[2])

    if isinstance(problem, ExactCover):
        generators: list[Any] = [by_data(problem, moved(move)) for move in moves]
    else:
        generators = [{(_name(*cell), d): (_name(*move(cell)), d)
                       for cell in grid.box(n, n) for d in problem.domain(_name(*cell))}
                      for move in moves]
    return Group(problem, generators).attach()


def format_puzzle(puzzle: Latin) -> str:
    """The square with its givens, '.' for a blank (`parse` reads it back)."""
    rows = [tuple(puzzle.givens[r * puzzle.n:(r + 1) * puzzle.n]) for r in range(puzzle.n)]
    return format(puzzle, tuple(rows)).replace("0", ".") if puzzle.n <= 9 else \
        "\n".join(" ".join(str(d) if d else "." for d in row) for row in rows)


def draw(puzzle: Latin, answer: Answer | None = None, marks: Collection[grid.Cell] = ()) -> str:
    """The square as SVG: the givens in bold, the answer's numbers in blue."""
    n = puzzle.n
    board = Board(n, n, title=f"latin square {n}x{n}")
    for r, c in grid.box(n, n):
        given = puzzle.givens[r * n + c]
        value = answer[r][c] if answer is not None else given
        if value:
            board.number((r, c), str(value), given=bool(given))
    board.lines()
    board.marks(marks)
    return str(board)


def cells(puzzle: Latin, answer: Answer) -> dict[grid.Cell, int]:
    return {(r, c): answer[r][c] for r, c in grid.box(puzzle.n, puzzle.n)}


def with_given(puzzle: Latin, answer: Answer, cell: grid.Cell) -> Latin:
    """The square with `cell` given, as `answer` has it."""
    k = cell[0] * puzzle.n + cell[1]
    return Latin(puzzle.n, puzzle.givens[:k] + (answer[cell[0]][cell[1]],)
                 + puzzle.givens[k + 1:], puzzle.line)


# -- making puzzles (csp.generation) ------------------------------------------------------

MAKE_MAX = 64
"""The largest square made (the rating's model keeps a domain in one 64-bit mask)."""
UNIFORM_UP_TO = 5
"""Squares up to 5x5 are drawn exactly uniformly (the 1,344 completions of a
5x5 first row are enumerated); larger ones by a randomized search, then a
random isotopy."""


def _make_size(text: str | None) -> int:
    return generation.width(text, 6, 2, MAKE_MAX, "Latin square")


@functools.lru_cache(maxsize=8)
def _blank(n: int) -> ExactCover:
    made = declare(Latin(n, (0,) * n * n), "exact-cover")
    assert isinstance(made, ExactCover)
    return made


def random_square(n: int, rng: random.Random) -> Answer:
    """A random Latin square (see `UNIFORM_UP_TO`)."""
    rows = generation.square(n, rng, _blank(n), uniform=n <= UNIFORM_UP_TO)
    return tuple(map(tuple, generation.latin_moves(rows, rng)))


def _make_puzzle(n: int, answer: Answer, clues: Sequence[tuple[grid.Cell, int]]) -> Latin:
    givens = [0] * (n * n)
    for (r, c), value in clues:
        givens[r * n + c] = value
    return Latin(n, tuple(givens))


MAKER = generation.Maker(
    sizes=f"n, an n x n square (2 to {MAKE_MAX}); default 6",
    size=_make_size, solution=lambda n, rng: random_square(n, rng),
    clues=lambda n, answer: [((r, c), answer[r][c]) for r, c in grid.box(n, n)],
    puzzle=_make_puzzle,
    uniformity=f"exactly uniform up to {UNIFORM_UP_TO}x{UNIFORM_UP_TO}; beyond, a randomized "
               "search then a random isotopy (rows, columns, transposition)",
)


KIND = Kind(name="latin", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry,
            inline=inline, shape=shape, declare_shape=declare_shape, givens=givens,
            format_puzzle=format_puzzle, draw=draw, cells=cells, with_given=with_given,
            maker=MAKER)
