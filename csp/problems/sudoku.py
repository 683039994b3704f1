"""Sudoku of any size: N x N grids with r x c boxes (N = r c), digits 1..N.

Glossary (after Norvig): a *cell* is (row, column), 0-based; a *unit* is a
row, a column or a box; a *given* is a digit fixed by the puzzle; a *digit*
is 1..N and is written with the puzzle's *symbols* (`symbols[d - 1]`).

Input, one puzzle per line (docs/developing/problems.md section 2):

- N*N symbols in row-major order, `.` for a blank (and `0` too when `0` is not
  one of the symbols), e.g. 81 characters for 9x9. Anything after the first
  blank space on the line is ignored (files often carry the solution there).
- or a grid of N lines of N whitespace-separated numbers, 0 for a blank.

A line starting with `e` (as in `end`) ends the input, unless `e` is one of
the given `symbols` and the line is a whole puzzle; blank lines and `#`
comments are skipped. N is inferred from the line length, the box shape is
the squarest r x c with r <= c (3x3 for 9, 2x3 for 6) unless `boxes=(r, c)`
is given, and the symbols are, unless `symbols` is given: `1-9` cut to N for
N <= 9 (`.` and `0` are both blanks, as docs/developing/problems.md has it for 9x9); for a
larger N the first of `1-9A-Z`, `0-9A-Z`, `A-Z` (cut to N symbols) that holds
every symbol of the line (a line with both `.` and `0` uses `0` as a symbol).
Output: one line per puzzle in the same symbols (or the same grid of
numbers).

Two declarations: `form="exact-cover"` (the default; 4 N^2 primary items
"cell filled", "row has digit", "column has digit", "box has digit", and one
option per cell and candidate digit) and `form="model"` (a variable per cell,
all-different per unit).

>>> line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> [puzzle] = parse(line)
>>> puzzle.size, puzzle.box, puzzle.symbols
(9, (3, 3), '123456789')
>>> xc = declare(puzzle)
>>> xc.n_primary, xc.n_options
(324, 593)
>>> declare(puzzle, form="model")
<Model 'sudoku 9x9': 81 variables, 27 constraints>
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import AllDifferent
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import every
from csp.problems._numbers import check_size, is_natural, natural, short
from csp.problems.kind import Kind
from csp.problems.pictures import CELL, Board

FORMS = ("exact-cover", "model")
DEFAULT_FORM = "exact-cover"
"""The default up to 16x16; larger grids default to LARGE_FORM."""
LARGE_FORM = "model"
"""From 25x25 on, the model's stronger reasoning (matching-based all-different)
finishes where exact-cover search does not (see bench/RESULTS.md)."""
PARSE_OPTIONS = ("symbols", "boxes")

DESCRIPTION = (
    "one puzzle per line: N*N symbols row by row, '.' or '0' blank (81 for 9x9; "
    "16x16 0-9A-F or 1-9A-G, 25x25 A-Y, ...), or N lines of N numbers; 'e' ends the input"
)

_DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALPHABETS = (_DIGITS, "0" + _DIGITS, "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
              _DIGITS.lower(), "0" + _DIGITS.lower(), "abcdefghijklmnopqrstuvwxyz")
"""The symbol sets a line may use, in order of preference (lowercase too: 16x16
collections are often written in lowercase hex)."""

MIN_SIZE = 4
"""The smallest sudoku (2x2 boxes): a stray digit is not a 1x1 puzzle."""
BLANKS = ".0"

MAX_SIZE = 100
"""The largest grid read (100x100, a million options): the shared data's
largest is 36x36; a 1000x1000 grid would take a billion options to build."""


@dataclass(frozen=True)
class Sudoku:
    """One puzzle: `givens[r * size + c]` is the digit at (r, c), 0 = blank."""

    size: int
    box: tuple[int, int]
    givens: tuple[int, ...]
    symbols: str
    layout: str = "line"  # "line" (one line of symbols) or "grid" (lines of numbers)
    line: int | None = None

    def unit_of_box(self, r: int, c: int) -> int:
        """The index of the box holding cell (r, c), boxes numbered row-major."""
        return grid.block_of((r, c), self.size, self.box)


Answer = tuple[int, ...]
"""A solved grid: N*N digits in row-major order."""


# -- reading -------------------------------------------------------------------------


def parse(text: str, *, symbols: str | None = None,
          boxes: tuple[int, int] | str | None = None) -> list[Sudoku]:
    """Every puzzle in `text`; the first bad one raises `InputError`."""
    return every(puzzles(text, symbols=symbols, boxes=boxes))


def puzzles(text: str, *, symbols: str | None = None,
            boxes: tuple[int, int] | str | None = None) -> Iterator[Sudoku | InputError]:
    """Each puzzle of `text` in turn, or the `InputError` saying why it is bad.

    A bad puzzle does not stop the reading: the next line starts afresh.
    """
    box = _box_option(boxes)
    if symbols is not None and len(set(symbols)) != len(symbols):
        raise InputError(f"--symbols {symbols!r} repeats a symbol")
    lines = iter(_character_grids(text.splitlines()))
    for number, raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        tokens = line.split()
        if line.startswith("e") and not _is_puzzle(tokens[0], symbols):
            return
        try:
            if len(tokens) >= 4 and all(is_natural(t) for t in tokens):
                yield _grid(number, tokens, lines, symbols, box)
            else:
                yield _line(number, _field(tokens, symbols), symbols, box)
        except InputError as err:
            yield err.located(line=number)


def _character_grids(raw_lines: list[str]) -> list[tuple[int, str]]:
    """The numbered lines, with each grid written as N lines of N characters
    (a block of exactly N such lines, N = 4, 9, 16, ...) joined into the one
    line of N*N symbols it is: nine lines of nine are a 9x9 grid, not nine
    3x3 puzzles."""
    out: list[tuple[int, str]] = []
    at = 0
    while at < len(raw_lines):
        line = raw_lines[at].strip()
        width = len(line)
        if width >= MIN_SIZE and " " not in line and math.isqrt(width) ** 2 == width:
            run = at
            while (run < len(raw_lines) and len(raw_lines[run].strip()) == width
                   and " " not in raw_lines[run].strip()):
                run += 1
            # exactly N lines of N: a grid (a longer run is a list of one-line puzzles)
            if run - at == width:
                out.append((at + 1, "".join(r.strip() for r in raw_lines[at:run])))
                at = run
                continue
            # A longer run, all of it: its tail is never a grid (974 lines of
            # 81 are 974 puzzles, not 893 and a grid), and it is counted once.
            out.extend((k + 1, raw_lines[k]) for k in range(at, run))
            at = run
            continue
        out.append((at + 1, raw_lines[at]))
        at += 1
    return out


def _field(tokens: list[str], symbols: str | None) -> str:
    """The puzzle among a line's fields (`hash puzzle rating` or `puzzle
    solution`, as collections write them): the first field of N*N symbols,
    N >= 4, with a blank (a solution has none); else the first such field;
    else the first field."""
    if len(tokens) == 1:
        return tokens[0]
    fits = [t for t in tokens
            if len(t) >= MIN_SIZE ** 2 and math.isqrt(len(t)) ** 2 == len(t)]
    blank = [t for t in fits if set(t) & set(BLANKS)]
    return (blank or fits or tokens)[0]


def _is_puzzle(text: str, symbols: str | None) -> bool:
    """Whether `text`, a line's first word, is a whole puzzle in `symbols`
    (then a leading `e` is a symbol, not the end of the input)."""
    return (symbols is not None and len(text) == len(symbols) ** 2
            and set(text) <= set(symbols) | set(BLANKS))


def _box_option(boxes: tuple[int, int] | str | None) -> tuple[int, int] | None:
    if boxes is None or isinstance(boxes, tuple):
        return boxes
    rows, x, cols = boxes.lower().partition("x")
    if not (x and is_natural(rows) and is_natural(cols) and rows.strip("0") and cols.strip("0")):
        raise InputError(f"box shape {short(boxes)!r} is not ROWSxCOLUMNS, e.g. 2x3")
    shape = natural(rows, "box shape: rows"), natural(cols, "box shape: columns")
    check_size(shape[0] * shape[1], MAX_SIZE, "box shape: the grid size")
    return shape


def _shape(size: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is not None:
        if box[0] * box[1] != size:
            raise InputError(f"{box[0]}x{box[1]} boxes do not fit a {size}x{size} grid")
        return box
    rows = max(r for r in range(1, math.isqrt(size) + 1) if size % r == 0)
    if rows == 1 and size > 1:
        raise InputError(f"a {size}x{size} grid has no box shape but 1x{size}: give the boxes")
    return rows, size // rows


def _line(number: int, text: str, symbols: str | None, box: tuple[int, int] | None) -> Sudoku:
    size = math.isqrt(len(text))
    check_size(size, MAX_SIZE, f"a line of {len(text):,} symbols: the grid size")
    if size * size != len(text) or size < MIN_SIZE:
        raise InputError(
            f"a line of {len(text)} symbols: a sudoku line holds N*N symbols, N >= "
            f"{MIN_SIZE} (81 for 9x9, 256 for 16x16)", token=text)
    alphabet = symbols if symbols is not None else _infer_symbols(text, size)
    if len(alphabet) != size:
        raise InputError(f"{len(alphabet)} symbols {alphabet!r} for a {size}x{size} grid")
    # A symbol of the alphabet is its digit even where it could be a blank ('0' of 0-F).
    digit = dict.fromkeys(BLANKS, 0) | {s: d for d, s in enumerate(alphabet, start=1)}
    try:
        givens = tuple(map(digit.__getitem__, text))  # one lookup per cell, in C
    except KeyError:
        k, symbol = next((k, s) for k, s in enumerate(text) if s not in digit)
        raise InputError(
            f"unknown symbol {symbol!r} at position {k + 1} (row {k // size + 1}, "
            f"column {k % size + 1}); the symbols are {alphabet!r} (see --symbols)",
            token=symbol) from None
    return Sudoku(size, _shape(size, box), givens, alphabet, "line", number)


def _infer_symbols(text: str, size: int) -> str:
    used = set(text) - {"."}
    if size <= 9 or "." not in text:
        # '0' is a blank: up to 9x9 the digits are 1..N (so a line may mix '.'
        # and '0'); a larger grid without '.' has no other blank.
        used.discard("0")
    for alphabet in _ALPHABETS:
        if len(alphabet) >= size and used <= set(alphabet[:size]):
            return alphabet[:size]
    # None fits: take the closest, so that the first unknown symbol is reported
    # with its position.
    candidates = [a[:size] for a in _ALPHABETS if len(a) >= size]
    return max(candidates, key=lambda a: len(used & set(a)), default=_DIGITS[:size])


def _grid(number: int, first: list[str], lines: Iterator[tuple[int, str]],
          symbols: str | None, box: tuple[int, int] | None) -> Sudoku:
    size = len(first)
    if size > MAX_SIZE:
        # Skip the grid's other rows, so that the grid is one error, not one per row.
        for skipped, (_, raw) in enumerate(lines, start=2):
            if skipped == size or len(raw.split()) != size:
                break
        check_size(size, MAX_SIZE, f"a grid row of {size:,} numbers: the grid size")
    rows = [first]
    row_lines = [number]
    for at, raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        tokens = line.split()
        if len(tokens) != size or not all(is_natural(t) for t in tokens):
            raise InputError(f"row {len(rows) + 1} (line {at}) of the grid starting here is "
                             f"{line!r}: expected {size} numbers", token=line)
        rows.append(tokens)
        row_lines.append(at)
        if len(rows) == size:
            break
    else:
        raise InputError(f"the grid has {len(rows)} rows, expected {size}")
    givens = []
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            value = natural(token, f"row {r + 1}, column {c + 1} (line {row_lines[r]}):")
            if value > size:
                raise InputError(f"number {token} at row {r + 1}, column {c + 1} (line "
                                 f"{row_lines[r]}) is over {size}", token=token)
            givens.append(value)
    alphabet = symbols if symbols is not None else _DIGITS[:size]
    return Sudoku(size, _shape(size, box), tuple(givens), alphabet, "grid", number)


# -- declaring -----------------------------------------------------------------------


def declare(puzzle: Sudoku, form: str | None = None) -> ExactCover | Model:
    """The puzzle as an exact cover or as a model of all-different units; by
    default the exact cover up to 16x16 (fastest there), the model beyond."""
    form = form or (DEFAULT_FORM if puzzle.size <= 16 else LARGE_FORM)
    if form == "exact-cover":
        return declare_exact_cover(puzzle)
    if form == "model":
        return declare_model(puzzle)
    raise InputError(f"unknown form {form!r} for sudoku; the forms are {', '.join(FORMS)}")


def declare_exact_cover(puzzle: Sudoku) -> ExactCover:
    """Items: cell (r, c) filled, row r / column c / box b has digit d.
    Options: one per cell and digit (only the given digit in a given cell),
    carrying `(r, c, d)`."""
    n = puzzle.size
    cells = range(n)
    digits = range(1, n + 1)
    xc = ExactCover(
        [f"p{r},{c}" for r in cells for c in cells]
        + [f"r{r}#{d}" for r in cells for d in digits]
        + [f"c{c}#{d}" for c in cells for d in digits]
        + [f"b{b}#{d}" for b in cells for d in digits],
        name=f"sudoku {n}x{n}",
    )
    for r in cells:
        for c in cells:
            given = puzzle.givens[r * n + c]
            b = puzzle.unit_of_box(r, c)
            for d in (given,) if given else digits:
                xc.add_option([f"p{r},{c}", f"r{r}#{d}", f"c{c}#{d}", f"b{b}#{d}"], (r, c, d))
    return xc


def declare_model(puzzle: Sudoku) -> Model:
    """A variable `rRcC` (1-based) per cell, all different in every unit."""
    n = puzzle.size
    m = Model(f"sudoku {n}x{n}")
    cell = [[m.var(_name(r, c), [g] if (g := puzzle.givens[r * n + c]) else range(1, n + 1))
             for c in range(n)] for r in range(n)]
    for unit in [*grid.rows(n), *grid.columns(n), *grid.blocks(n, puzzle.box)]:
        m.add(AllDifferent([cell[r][c] for r, c in unit]))
    return m


# -- a collection: one shape, each puzzle its givens (csp.family) ----------------------


def shape(puzzle: Sudoku) -> str:
    """What puzzles sharing a structure have in common: the grid and box sizes."""
    return f"{puzzle.size}x{puzzle.size} with {puzzle.box[0]}x{puzzle.box[1]} boxes"


def declare_shape(puzzle: Sudoku, form: str | None = None) -> ExactCover | Model:
    """The blank grid of the puzzle's size, declared as `declare` would."""
    blank = Sudoku(puzzle.size, puzzle.box, (0,) * (puzzle.size * puzzle.size),
                   puzzle.symbols)
    return declare(blank, form or (DEFAULT_FORM if puzzle.size <= 16 else LARGE_FORM))


def givens(puzzle: Sudoku, problem: ExactCover | Model) -> Any:
    """The givens in the blank grid `problem`: the options (cell, digit) of the
    exact cover (option `cell * N + digit - 1`), or `{cell variable: digit}`."""
    return grid.givens(puzzle.givens, puzzle.size, problem)


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


# -- answers -------------------------------------------------------------------------


def decode(puzzle: Sudoku, solution: Sequence[int] | Mapping[Any, int],
           problem: ExactCover | None = None) -> Answer:
    """The solved grid from a solution of either declaration.

    An exact-cover solution (option indices) needs its `problem` to read the
    options' `(r, c, d)`; a model solution is a dict of cell values.
    """
    n = puzzle.size
    if isinstance(solution, Mapping):
        return tuple(solution[_name(r, c)] for r in range(n) for c in range(n))
    if problem is None:
        problem = declare_exact_cover(puzzle)
    grid = [0] * (n * n)
    data = problem.data
    for k in solution:
        r, c, d = data[k]
        grid[r * n + c] = d
    return tuple(grid)


def format(puzzle: Sudoku, answer: Answer) -> str:  # noqa: A001 - the module's printer
    """The solved grid in the puzzle's own notation.

    >>> [p] = parse("12.4..1.2...4..1")
    >>> format(p, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    '1234341221434321'
    """
    if puzzle.layout == "grid":
        n = puzzle.size
        width = len(str(n))
        return "\n".join(" ".join(str(answer[r * n + c]).rjust(width) for c in range(n))
                         for r in range(n))
    return "".join(map(("." + puzzle.symbols).__getitem__, answer))  # digit 0 is a blank


def format_puzzle(puzzle: Sudoku) -> str:
    """The puzzle itself, written back in its notation (`parse` reads it again)."""
    if puzzle.layout == "grid":
        return format(puzzle, puzzle.givens)
    return "".join(puzzle.symbols[d - 1] if d else "." for d in puzzle.givens)


def answer_of(puzzle: Sudoku, text: str) -> Answer:
    """Read a solved grid written in the puzzle's symbols (the inverse of `format`)."""
    if puzzle.layout == "grid":
        return tuple(natural(t, "answer") for t in text.split())
    digit = {s: d for d, s in enumerate(puzzle.symbols, start=1)}
    try:
        return tuple(digit[s] for s in text.strip())
    except KeyError as err:
        raise InputError(f"unknown symbol {err.args[0]!r} in answer") from None


def encode(puzzle: Sudoku, answer: Answer, problem: ExactCover | Model) -> Any:
    """The solution of `problem` (a declaration of `puzzle`) that spells `answer`:
    a dict for a model, the sorted option indices for an exact cover."""
    n = puzzle.size
    if isinstance(problem, Model):
        return {_name(r, c): answer[r * n + c] for r in range(n) for c in range(n)}
    return tuple(sorted(k for k, (r, c, d) in enumerate(problem.data) if answer[r * n + c] == d))


# -- for puzzle authors: pictures, cells, one more given ------------------------------


def draw(puzzle: Sudoku, answer: Answer | None = None, marks: Collection[grid.Cell] = ()) -> str:
    """The grid as SVG: thick box lines, the givens in bold, the answer's
    digits in blue, the cells `marks` highlighted."""
    n = puzzle.size
    board = Board(n, n, cell=CELL if n <= 16 else 28, title=f"sudoku {n}x{n}")
    digits = answer if answer is not None else puzzle.givens
    for (r, c), digit in zip(grid.box(n, n), digits):
        if digit:
            shown = puzzle.symbols[digit - 1] if puzzle.layout == "line" else str(digit)
            board.number((r, c), shown, given=bool(puzzle.givens[r * n + c]))
    board.lines(region=lambda cell: puzzle.unit_of_box(*cell))
    board.marks(marks)
    return str(board)


def cells(puzzle: Sudoku, answer: Answer) -> dict[grid.Cell, int]:
    """The digit of every cell."""
    return dict(zip(grid.box(puzzle.size, puzzle.size), answer))


def with_given(puzzle: Sudoku, answer: Answer, cell: grid.Cell) -> Sudoku:
    """The puzzle with `cell` given, as `answer` has it."""
    k = cell[0] * puzzle.size + cell[1]
    return dataclasses.replace(puzzle, givens=puzzle.givens[:k] + (answer[k],)
                               + puzzle.givens[k + 1:])


# -- making puzzles (csp.generation) ------------------------------------------------------


def _make_size(text: str | None) -> tuple[int, tuple[int, int]]:
    """`--size N` (the squarest boxes, as `csp solve` takes an N x N grid) or `RxC` boxes."""
    if text is None:
        return 9, (3, 3)
    if "x" in text.lower():
        box = _box_option(text)
        assert box is not None
        if box[0] * box[1] < MIN_SIZE:
            raise InputError(f"--size {text}: a sudoku has at least {MIN_SIZE}x{MIN_SIZE} cells")
        return box[0] * box[1], box
    n = natural(text.strip(), "--size")
    if n < MIN_SIZE:
        raise InputError(f"--size {n}: a sudoku is at least {MIN_SIZE}x{MIN_SIZE}")
    check_size(n, MAX_SIZE, "--size")
    return n, _shape(n, None)


@functools.lru_cache(maxsize=8)
def _blank(n: int, box: tuple[int, int]) -> ExactCover:
    return declare_exact_cover(Sudoku(n, box, (0,) * (n * n), _DIGITS[:min(n, 35)]))


def _make_solution(size: tuple[int, tuple[int, int]], rng: random.Random) -> Answer:
    n, box = size
    rows = generation.square(n, rng, _blank(n, box), uniform=n <= UNIFORM_UP_TO)
    return tuple(itertools.chain.from_iterable(generation.sudoku_moves(rows, box, rng)))


UNIFORM_UP_TO = 6
"""Grids up to 6x6 are drawn exactly uniformly (39,168 completions of a 6x6
first row are enumerated); larger ones by a randomized search, then a random
symmetry of the grid."""


def _make_puzzle(size: tuple[int, tuple[int, int]], answer: Answer,
                 clues: Sequence[tuple[grid.Cell, int]]) -> Sudoku:
    n, box = size
    givens = [0] * (n * n)
    for (r, c), digit in clues:
        givens[r * n + c] = digit
    symbols = "0" + _DIGITS if n == 36 else _DIGITS[:n]
    return Sudoku(n, box, tuple(givens), symbols, "line" if n <= 36 else "grid")


MAKER = generation.Maker(
    sizes="N, an N x N grid of the squarest boxes (4, 6, 8, 9, 10, 12, ... up to 100; not "
          "prime), or RxC boxes (2x3: 6x6); default 9",
    size=_make_size, solution=_make_solution,
    clues=lambda size, answer: list(zip(grid.box(size[0], size[0]), answer)),
    puzzle=_make_puzzle,
    uniformity="exactly uniform up to 6x6; beyond, a randomized search (options in random "
               "order) then a random symmetry of the grid: every grid of a class of "
               "equivalent grids equally likely, the classes not",
)


KIND = Kind(
    name="sudoku", description=DESCRIPTION, parse=puzzles, declare=declare, decode=decode,
    format=format, forms=FORMS, parse_options=PARSE_OPTIONS,
    form_notes={LARGE_FORM: "default from 25x25"},
    shape=shape, declare_shape=declare_shape, givens=givens,
    format_puzzle=format_puzzle, draw=draw, cells=cells, with_given=with_given, maker=MAKER,
)
