"""Word squares: fill an n x n grid with words of a list so that every row and
every column reads a word of the list (a word may be used more than once).

Input: one list per file, the words separated by spaces or lines (`#` starts
a comment line), all of one length n; upper and lower case are the same.
Output: the square, a word a line.

As an exact cover with colours (Knuth's trick, TAOCP 7.2.2.1): a primary item
per row and per column (each gets one word) and a secondary item per cell
whose colour is the letter written there; an option puts a word in a row or
a column and colours the cells it crosses, so that a row word and a column
word meet only where they agree. Options carry `("row" | "column", k, word)`.
Transposing the square maps squares onto squares: `symmetry` declares it.

>>> [puzzle] = parse("sator arepo tenet opera rotas")
>>> import csp
>>> xc = declare(puzzle)
>>> xc.n_primary, len(xc.secondary), xc.n_options
(10, 25, 50)
>>> sorted(format(puzzle, decode(puzzle, s, xc)).split()[0] for s in csp.solutions(xc))
['rotas', 'sator']
>>> [first] = csp.solutions(xc, limit=1)
>>> print(format(puzzle, decode(puzzle, first, xc)))
sator
arepo
tenet
opera
rotas
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import CELL, Board, note

FORMS = ("exact-cover",)
DESCRIPTION = ("word squares: a list of words of one length n (spaces or lines); fill an n x n "
               "grid so that every row and column is a word")


@dataclass(frozen=True)
class WordSquare:
    words: tuple[str, ...]
    line: int | None = None

    @property
    def n(self) -> int:
        return len(self.words[0])


Answer = tuple[str, ...]
"""The rows of the square."""


def parse(text: str) -> list[WordSquare]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[WordSquare | InputError]:
    """The word list (a file holds one), or the error naming the first bad word."""
    words: dict[str, None] = {}
    first = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.lstrip().startswith("#"):
            continue
        for token in raw.split():
            word = token.lower()
            if not word.isalpha():
                yield InputError(f"{token!r} is not a word (letters only)", line=number,
                                 token=token)
                return
            if words and len(word) != len(next(iter(words))):
                yield InputError(f"{token!r} has {len(word)} letters, the first word "
                                 f"{next(iter(words))!r} {len(next(iter(words)))}: the "
                                 "words of a square have one length", line=number, token=token)
                return
            first = first or number
            words.setdefault(word)  # a repeated word adds nothing
    if not words:
        yield InputError("no words")
        return
    yield WordSquare(tuple(words), first)


def declare(puzzle: WordSquare, form: str | None = None) -> ExactCover:
    """Rows and columns primary; cells secondary, coloured by their letter."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for wordsquare; the only form is 'exact-cover'")
    n = puzzle.n
    xc = ExactCover([f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)],
                    [f"{r},{c}" for r in range(n) for c in range(n)],
                    name=f"word square {n}")
    for line, item in (("row", "r"), ("column", "c")):
        for k in range(n):
            for word in puzzle.words:
                cells = [(k, j) if line == "row" else (j, k) for j in range(n)]
                xc.add_option([f"{item}{k}", *((f"{r},{c}", letter)
                                               for (r, c), letter in zip(cells, word))],
                              (line, k, word))
    return xc


def decode(puzzle: WordSquare, solution: Sequence[int], problem: ExactCover | None = None
           ) -> Answer:
    xc = problem if problem is not None else declare(puzzle)
    rows = {k: word for line, k, word in (xc.data[o] for o in solution) if line == "row"}
    return tuple(rows[k] for k in range(puzzle.n))


def format(puzzle: WordSquare, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return "\n".join(answer)


def symmetry(puzzle: WordSquare, problem: ExactCover | None = None):  # -> csp.symmetry.Group
    """Transposition: the word of row k goes to column k and back."""
    from csp.symmetry import Group, by_data

    xc = problem if problem is not None else declare(puzzle)
    other = {"row": "column", "column": "row"}
    return Group(xc, [by_data(xc, lambda data: (other[data[0]], *data[1:]))]).attach()


SHOWN = 36
"""The most words of the list a picture shows."""


def draw(puzzle: WordSquare, answer: Answer | None = None,
         marks: Collection[tuple[int, int]] = ()) -> str:
    """The square as SVG, and beside it the word list (its first `SHOWN` words)."""
    n = puzzle.n
    words = list(puzzle.words[:SHOWN])
    more = [f"... and {len(puzzle.words) - SHOWN} more"] if len(puzzle.words) > SHOWN else []
    per_column = max(n * 3, 9)
    columns = [words[k:k + per_column] for k in range(0, len(words), per_column)]
    width = n * 9 + 18
    tall = 17 * (min(len(words), per_column) + len(more))
    board = Board(n, n, extra_width=16 + max(width * len(columns), 9 * len(more[0]) if more else 0),
                  extra_height=max(0, tall - n * CELL),
                  title=f"word square {n}x{n}")
    for r, word in enumerate(answer or ()):
        for c, letter in enumerate(word):
            board.number((r, c), letter.upper(), given=False)
    board.lines()
    board.marks(marks)
    for k, column in enumerate(columns):
        note(board, board.left + n * board.cell + 16 + k * width, board.top + 8, column)
    note(board, board.left + n * board.cell + 16, board.top + 8 + 17 * per_column, more)
    return str(board)


def cells(puzzle: WordSquare, answer: Answer) -> dict[tuple[int, int], str]:
    return {(r, c): letter for r, word in enumerate(answer) for c, letter in enumerate(word)}


KIND = Kind(name="wordsquare", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry,
            format_puzzle=lambda puzzle: " ".join(puzzle.words), draw=draw, cells=cells)
