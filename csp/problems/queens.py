"""N queens: n queens on an n x n board, no two in one row, column or diagonal.

The classic exact cover with secondary items (docs/developing/problems.md section 6): rows
and columns are primary (exactly one queen each), the 2n-1 + 2n-1 diagonals
secondary (at most one queen each); one option per square, carrying (r, c).

Input: the board size n, one per line (`csp solve queens 8` takes it on the
command line). Output: the column of the queen in each row, 1-based, e.g.
`2 4 1 3`.

>>> [puzzle] = parse("4")
>>> xc = declare(puzzle)
>>> xc.n_primary, len(xc.secondary), xc.n_options
(8, 14, 16)
>>> answer = (2, 4, 1, 3)
>>> xc.check(encode(puzzle, answer, xc))
[]
>>> format(puzzle, answer)
'2 4 1 3'
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import every
from csp.problems._numbers import check_size, is_natural, natural, short
from csp.problems.kind import Kind
from csp.problems.pictures import CELL, Board

FORMS = ("exact-cover",)
DEFAULT_FORM = "exact-cover"
PARSE_OPTIONS: tuple[str, ...] = ()

DESCRIPTION = "N queens: the board size n, one per line (or `csp solve queens N`)"


@dataclass(frozen=True)
class Queens:
    n: int
    line: int | None = None


Answer = tuple[int, ...]
"""The 1-based column of the queen in each row."""


MAX_N = 1000
"""The largest board read: its exact cover has n**2 options (a million here);
far past any board a search can count, and still quick to build."""


def parse(text: str) -> list[Queens]:
    """Every board size in `text`; a bad one raises `InputError`."""
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Queens | InputError]:
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not is_natural(line) or line.strip("0") == "":
            yield InputError(f"{short(line)!r} is not a board size (a positive integer)",
                             line=number, token=line)
            continue
        try:
            n = natural(line, "board size")
            check_size(n, MAX_N, "board size")
        except InputError as err:
            yield err.located(line=number)
        else:
            yield Queens(n, number)


def declare(puzzle: Queens, form: str | None = None) -> ExactCover | Model:
    """Rows and columns primary, diagonals secondary; an option per square."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for queens; the only form is 'exact-cover'")
    n = puzzle.n
    xc = ExactCover(
        [f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)],
        [f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)],
        name=f"{n} queens",
    )
    for r in range(n):
        for c in range(n):
            # a: the diagonal r + c; b: the anti-diagonal r - c, shifted to be >= 0
            xc.add_option([f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"], (r, c))
    return xc


def decode(puzzle: Queens, solution: Sequence[int], problem: ExactCover | None = None) -> Answer:
    """The queen's column (1-based) in each row; options are numbered r * n + c."""
    columns = [0] * puzzle.n
    for k in solution:
        r, c = divmod(k, puzzle.n)
        columns[r] = c + 1
    return tuple(columns)


def encode(puzzle: Queens, answer: Answer, problem: Any = None) -> tuple[int, ...]:
    """The exact-cover solution (option indices) that places `answer`."""
    return tuple(sorted(r * puzzle.n + c - 1 for r, c in enumerate(answer)))


def format(puzzle: Queens, answer: Answer) -> str:  # noqa: A001
    return " ".join(map(str, answer))


def format_puzzle(puzzle: Queens) -> str:
    return str(puzzle.n)


def symmetry(puzzle: Queens, problem: ExactCover | Model | None = None) -> Any:
    """The square's 8 symmetries (rotations, reflections), as a `csp.symmetry.Group`
    on the options, declared as the problem's symmetry (`problem.symmetry`):
    each moves the queen on square (r, c) with the board.

    >>> import csp
    >>> [puzzle] = parse("8")
    >>> xc = declare(puzzle)
    >>> csp.count(xc, up_to_symmetry=symmetry(puzzle, xc)).count
    12
    >>> csp.count(xc, up_to_symmetry=True).count    # the group declared on xc
    12
    """
    from csp.symmetry import Group, by_data, grid_symmetries

    xc = problem if problem is not None else declare(puzzle)
    assert isinstance(xc, ExactCover)  # queens are declared as an exact cover only
    n = puzzle.n
    moves = grid_symmetries([(r, c) for r in range(n) for c in range(n)])
    return Group(xc, [by_data(xc, move) for move in moves[1:]]).attach()


def _inline(argument: str) -> str | None:
    """`csp solve queens 8`: the size on the command line (a sign too, so that
    `-1` is refused as a size, not looked for as a file)."""
    digits = argument[1:] if argument[:1] in "+-" else argument
    return argument if digits.isascii() and digits.isdigit() else None


def draw(puzzle: Queens, answer: Answer | None = None, marks: Collection[Cell] = ()) -> str:
    """The board as SVG, a crown on each queen's square."""
    n = puzzle.n
    board = Board(n, n, cell=CELL if n <= 20 else 20, title=f"{n} queens")
    board.fill([(r, c) for r in range(n) for c in range(n) if (r + c) % 2], "#c9b28f")
    board.fill([(r, c) for r in range(n) for c in range(n) if (r + c) % 2 == 0], "#f3e6cf")
    for r, column in enumerate(answer or ()):
        x, y = board.centre((r, column - 1))
        s = board.cell * 0.32
        crown = [(-0.7, 0.5), (-0.9, -0.45), (-0.4, 0.05), (0, -0.7), (0.4, 0.05), (0.9, -0.45),
                 (0.7, 0.5)]
        board.polygon([(x + s * a, y + s * b) for a, b in crown], fill="#222222")
        board.rect(x - 0.75 * s, y + 0.55 * s, 1.5 * s, 0.3 * s, fill="#222222")
    board.lines(thin=0.5)
    board.marks(marks)
    return str(board)


Cell = tuple[int, int]


def cells(puzzle: Queens, answer: Answer) -> dict[Cell, str]:
    """The queens' squares (0-based)."""
    return {(r, column - 1): "Q" for r, column in enumerate(answer)}


KIND = Kind(name="queens", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry, inline=_inline,
            format_puzzle=format_puzzle, draw=draw, cells=cells)
