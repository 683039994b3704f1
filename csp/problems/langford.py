"""Langford pairs: arrange two copies of each of 1..n in a row of 2n so that
the two k's have exactly k numbers between them.

As an exact cover (Knuth, TAOCP 7.2.2.1): a primary item per number k and per
slot of the row; an option per way to put the pair of k's, in slots i and
i + k + 1, carrying `(k, i)`. A row and its reversal are the same arrangement
seen from the other end: `symmetry` declares the reversal, so that
`--up-to-symmetry` counts each arrangement once (OEIS A014552: 1, 1, 26, 150
for n = 3, 4, 7, 8; none unless n is 0 or 3 mod 4).

Input: n, one per line (`csp solve langford 7` takes it on the command line).
Output: the row, numbers separated by spaces.

>>> [puzzle] = parse("3")
>>> xc = declare(puzzle)
>>> xc.n_primary, xc.n_options
(9, 9)
>>> import csp
>>> sorted(format(puzzle, decode(puzzle, s, xc)) for s in csp.solutions(xc))
['2 3 1 2 1 3', '3 1 2 1 3 2']
>>> csp.count(xc, up_to_symmetry=symmetry(puzzle, xc)).count
1
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import Board, colour, note
from csp.problems.sizes import inline, sizes

FORMS = ("exact-cover",)
DESCRIPTION = "Langford pairs: n, one per line (or `csp solve langford N`); prints the row"


@dataclass(frozen=True)
class Langford:
    n: int
    line: int | None = None


Answer = tuple[int, ...]
"""The row: the number in each of the 2n slots."""


def parse(text: str) -> list[Langford]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Langford | InputError]:
    return sizes(text, Langford, "a number of pairs")


def declare(puzzle: Langford, form: str | None = None) -> ExactCover:
    """Items: each number k and each slot; options: the pair of k's in slots
    i and i + k + 1."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for langford; the only form is 'exact-cover'")
    n = puzzle.n
    xc = ExactCover([f"{k}" for k in range(1, n + 1)] + [f"s{i}" for i in range(2 * n)],
                    name=f"langford {n}")
    for k in range(1, n + 1):
        for i in range(2 * n - k - 1):
            xc.add_option([f"{k}", f"s{i}", f"s{i + k + 1}"], (k, i))
    return xc


def decode(puzzle: Langford, solution: Sequence[int], problem: ExactCover | None = None
           ) -> Answer:
    xc = problem if problem is not None else declare(puzzle)
    row = [0] * (2 * puzzle.n)
    for option in solution:
        k, i = xc.data[option]
        row[i] = row[i + k + 1] = k
    return tuple(row)


def format(puzzle: Langford, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return " ".join(map(str, answer))


def symmetry(puzzle: Langford, problem: ExactCover | None = None):  # -> csp.symmetry.Group
    """The reversal of the row: the pair of k's in slots i, i + k + 1 goes to
    slots 2n - 2 - i - k, 2n - 1 - i."""
    from csp.symmetry import Group, by_data

    xc = problem if problem is not None else declare(puzzle)
    last = 2 * puzzle.n - 1
    return Group(xc, [by_data(xc, lambda data: (data[0], last - data[1] - data[0] - 1))]
                 ).attach()


def draw(puzzle: Langford, answer: Answer | None = None,
         marks: Collection[tuple[int, int]] = ()) -> str:
    """The row as SVG: 2n boxes, an arc over each pair joining its two k's."""
    n = puzzle.n
    top = 14 + 9 * n  # room for the highest arc
    board = Board(1, 2 * n, top=top, extra_height=24, title=f"langford {n}")
    if answer is not None:
        first: dict[int, int] = {}
        for i, k in enumerate(answer):
            board.number((0, i), str(k), given=False, colour="#222222")
            if k in first:
                (x0, y), (x1, _) = board.centre((0, first[k])), board.centre((0, i))
                lift = 8 + 9 * k
                board.element("path", d=f"M {x0} {y - 22} C {x0} {y - 22 - lift} {x1} "
                              f"{y - 22 - lift} {x1} {y - 22}", fill="none",
                              stroke=colour(k - 1, strong=True), stroke_width=3.0)
            first[k] = i
    board.lines()
    board.marks(marks)
    note(board, board.left, top + board.cell + 16,
         [f"two of each of 1..{n}: k numbers between the two k's"])
    return str(board)


def cells(puzzle: Langford, answer: Answer) -> dict[tuple[int, int], int]:
    """The number in each slot, as a cell of a one-row board."""
    return {(0, i): k for i, k in enumerate(answer)}


KIND = Kind(name="langford", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry, inline=inline,
            format_puzzle=lambda puzzle: str(puzzle.n), draw=draw, cells=cells)
