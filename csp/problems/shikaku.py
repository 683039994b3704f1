"""Shikaku (divide into rectangles): cut the grid into rectangles, each holding
exactly one clue, whose area is that clue (docs/developing/problems.md section 4).

Input: `w h`, then h lines of w integers, 0 for a blank and k > 0 for a clue;
a file may hold several puzzles one after the other. Clues that do not add up
to w*h are an error. Output: the grid with each cell replaced by the area of
the rectangle covering it, columns padded to the widest number.

As an exact cover: one primary item per cell and per clue; one option per
rectangle of the clue's area that holds that clue and no other, carrying
`(clue, top, left, height, width)`.

>>> [puzzle] = parse("3 2\\n2 0 0\\n0 4 0")
>>> xc = declare(puzzle)
>>> [xc.data[k] for k in range(xc.n_options)]
[(0, 0, 0, 1, 2), (0, 0, 0, 2, 1), (1, 0, 1, 2, 2)]
>>> import csp
>>> [solution] = csp.solutions(xc)
>>> print(format(puzzle, decode(puzzle, solution, xc)))
2 4 4
2 4 4
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from csp import generation
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems import every
from csp.problems._numbers import check_size, is_natural, natural, short
from csp.problems.kind import Kind
from csp.problems.pictures import Board, colouring

FORMS = ("exact-cover",)
DEFAULT_FORM = "exact-cover"
PARSE_OPTIONS = ("letters",)

DESCRIPTION = "'w h' then h rows of w integers, 0 blank, k > 0 a clue (the area of its rectangle)"

Cell = tuple[int, int]


@dataclass(frozen=True)
class Shikaku:
    """A w x h grid and its clues `(row, column, area)`, 0-based, in row-major order."""

    width: int
    height: int
    clues: tuple[tuple[int, int, int], ...]
    line: int | None = None
    letters: bool = False
    """Print a letter per rectangle (`--letters`), not its area: two
    neighbouring rectangles of one area are then told apart."""


Answer = dict[Cell, int]
"""The clue (0-based, row-major) whose rectangle covers each cell."""


# -- reading -------------------------------------------------------------------------


MAX_CELLS = 250_000
"""The largest grid read (500x500): real puzzles have a few hundred cells
(the shared data's largest, 720); building past this would only eat memory."""


def parse(text: str) -> list[Shikaku]:
    """Every puzzle in `text`; the first bad one raises `InputError`."""
    return every(puzzles(text))


def puzzles(text: str, *, letters: bool = False) -> Iterator[Shikaku | InputError]:
    """Each puzzle of `text`, or the `InputError` saying why it is bad.

    A puzzle's rows end after h lines, or before a size line that cannot be a
    row (too few rows); lines of w numbers after them are rows too many. After
    a bad puzzle the reading resumes at the next size line.

    >>> [type(item).__name__ for item in puzzles("2 1\\n1 1\\n0 0\\n1 1\\n1\\n")]
    ['InputError', 'Shikaku']
    """
    lines = [(n, raw.split()) for n, raw in enumerate(text.splitlines(), start=1)]
    lines = [(n, tokens) for n, tokens in lines if tokens and not tokens[0].startswith("#")]
    at = 0
    while at < len(lines):
        start, header = lines[at]
        if len(header) != 2 or not all(is_natural(t) for t in header):
            yield InputError(f"expected a size line 'w h', found {' '.join(header)!r}",
                             line=start, token=" ".join(header))
            at = _next_size(lines, at + 1)
            continue
        try:
            width, height = (natural(t, "grid size") for t in header)
            check_size(width * height, MAX_CELLS, f"a {width}x{height} grid: its number of cells")
        except InputError as err:
            yield err.located(line=start)
            at = _next_size(lines, at + 1)
            continue
        end = at + 1
        while end < len(lines) and end - at <= height and not (
                width != 2 and _is_size(lines[end][1])):
            end += 1
        rows = lines[at + 1:end]
        at = end
        after = lines[end][0] if end < len(lines) else None
        try:
            puzzle = _puzzle(start, width, height, rows, after)
        except InputError as err:
            yield err if err.line is not None else err.located(line=start)
            at = _next_size(lines, at)
            continue
        if at < len(lines) and _is_row(lines[at][1], width):
            yield InputError(f"the {width}x{height} puzzle of line {start} has more than {height} "
                             f"row{'s' * (height != 1)}: line {lines[at][0]} is one too many",
                             line=lines[at][0])
            at = _next_size(lines, at)
            continue
        yield dataclasses.replace(puzzle, letters=True) if letters else puzzle


def _is_size(tokens: list[str]) -> bool:
    return len(tokens) == 2 and all(is_natural(t) and t.strip("0") for t in tokens)


def _is_row(tokens: list[str], width: int) -> bool:
    return len(tokens) == width and all(is_natural(t) for t in tokens)


def _next_size(lines: list[tuple[int, list[str]]], at: int) -> int:
    """The index of the first size line from `at` on (where reading resumes)."""
    while at < len(lines) and not _is_size(lines[at][1]):
        at += 1
    return at


def _puzzle(start: int, width: int, height: int, rows: list[tuple[int, list[str]]],
            after: int | None) -> Shikaku:
    """The puzzle of size line `start`; `after` is the line after its rows."""
    if width < 1 or height < 1:
        raise InputError(f"a {width}x{height} grid has no cells")
    if len(rows) < height and after is None:
        raise InputError(f"the input ends after {len(rows)} of the {height} rows")
    if len(rows) < height:
        raise InputError(f"the {width}x{height} puzzle of line {start} has {len(rows)} rows, "
                         f"not {height}: line {after} is the next puzzle's size", line=after)
    clues = []
    for r, (number, tokens) in enumerate(rows):
        if len(tokens) != width:
            raise InputError(f"row {r + 1} has {len(tokens)} numbers, expected {width}",
                             line=number)
        for c, token in enumerate(tokens):
            if not is_natural(token):
                raise InputError(f"row {r + 1}, column {c + 1}: {short(token)!r} is not a clue "
                                 "(a positive integer) or 0 (blank)", line=number, token=token)
            try:
                area = natural(token, f"row {r + 1}, column {c + 1}: clue")
            except InputError as err:
                raise err.located(line=number) from None
            if area:
                clues.append((r, c, area))
    total = sum(area for _, _, area in clues)
    if total != width * height:
        raise InputError(f"the clues add up to {total} but the {width}x{height} grid has "
                         f"{width * height} cells: no division into rectangles")
    return Shikaku(width, height, tuple(clues), start)


# -- declaring -----------------------------------------------------------------------


def declare(puzzle: Shikaku, form: str | None = None) -> ExactCover:
    """Items: cells and clues. Options: each rectangle that could be a clue's."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for shikaku; the only form is 'exact-cover'")
    w, h = puzzle.width, puzzle.height
    clue_at = {(r, c): k for k, (r, c, _) in enumerate(puzzle.clues)}
    xc = ExactCover([f"#{k}" for k in range(len(puzzle.clues))]
                    + [f"{r},{c}" for r in range(h) for c in range(w)], name="shikaku")
    for k, (r, c, area) in enumerate(puzzle.clues):
        for height in (d for d in range(1, min(area, h) + 1) if area % d == 0):
            width = area // height
            if width > w:
                continue
            for top in range(max(0, r - height + 1), min(r, h - height) + 1):
                for left in range(max(0, c - width + 1), min(c, w - width) + 1):
                    cells = [(i, j) for i in range(top, top + height)
                             for j in range(left, left + width)]
                    if all(clue_at.get(cell, k) == k for cell in cells):
                        xc.add_option([f"#{k}", *(f"{i},{j}" for i, j in cells)],
                                      (k, top, left, height, width))
    return xc


# -- answers -------------------------------------------------------------------------


def decode(puzzle: Shikaku, solution: Sequence[int], problem: ExactCover | None = None
           ) -> Answer:
    """The clue whose rectangle covers each cell."""
    if problem is None:
        problem = declare(puzzle)
    answer: Answer = {}
    for k in solution:
        clue, top, left, height, width = problem.data[k]
        for i in range(top, top + height):
            for j in range(left, left + width):
                answer[(i, j)] = clue
    return answer


def encode(puzzle: Shikaku, answer: Mapping[Cell, int], problem: ExactCover) -> tuple[int, ...]:
    """The exact-cover solution whose rectangles are those of `answer`."""
    return tuple(k for k, (clue, top, left, height, width) in enumerate(problem.data)
                 if all(answer.get((i, j)) == clue for i in range(top, top + height)
                        for j in range(left, left + width)))


def format(puzzle: Shikaku, answer: Mapping[Cell, int]) -> str:  # noqa: A001
    """Each cell replaced by the area of its rectangle, columns padded to the
    widest; with `letters`, by a letter per rectangle (a..z, A..Z, then
    numbers), as CodinGame prints it.

    >>> [puzzle] = puzzles("2 1\\n1 1\\n", letters=True)
    >>> format(puzzle, {(0, 0): 0, (0, 1): 1})
    'a b'
    """
    if puzzle.letters:
        names = [_letter(k) for k in range(len(puzzle.clues))]
        width = max(len(name) for name in names)
        return "\n".join(" ".join(names[answer[(r, c)]].rjust(width)
                                  for c in range(puzzle.width)) for r in range(puzzle.height))
    area = [a for _, _, a in puzzle.clues]
    width = len(str(max(area)))
    return "\n".join(" ".join(str(area[answer[(r, c)]]).rjust(width)
                              for c in range(puzzle.width)) for r in range(puzzle.height))


def _letter(k: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[k] if k < len(letters) else str(k - len(letters) + 1)


def format_puzzle(puzzle: Shikaku) -> str:
    """The puzzle in its input format (`parse` reads it back)."""
    grid = [["0"] * puzzle.width for _ in range(puzzle.height)]
    for r, c, area in puzzle.clues:
        grid[r][c] = str(area)
    return "\n".join([f"{puzzle.width} {puzzle.height}", *(" ".join(row) for row in grid)])


def draw(puzzle: Shikaku, answer: Mapping[Cell, int] | None = None,
         marks: Collection[Cell] = ()) -> str:
    """The grid as SVG: the clues; with an answer, each rectangle in its own
    colour (neighbours differ) within thick borders."""
    board = Board(puzzle.height, puzzle.width, title=f"shikaku {puzzle.width}x{puzzle.height}")
    if answer is not None:
        rectangles: dict[int, list[Cell]] = {}
        for cell, clue in sorted(answer.items()):
            rectangles.setdefault(clue, []).append(cell)
        for clue, hue in colouring(rectangles).items():
            board.fill(rectangles[clue], hue)
    for r, c, area in puzzle.clues:
        board.number((r, c), str(area))
    board.lines(region=None if answer is None else answer.get)
    board.marks(marks)
    return str(board)


def cells(puzzle: Shikaku, answer: Mapping[Cell, int]) -> dict[Cell, str]:
    """The rectangle covering each cell, as `HxW at rRcC` (its top-left cell)."""
    spans: dict[int, list[Cell]] = {}
    for cell, clue in answer.items():
        spans.setdefault(clue, []).append(cell)
    shown = {}
    for clue, where in spans.items():
        (top, left), (bottom, right) = min(where), max(where)
        shown[clue] = f"{bottom - top + 1}x{right - left + 1} at r{top + 1}c{left + 1}"
    return {cell: shown[clue] for cell, clue in answer.items()}


def with_given(puzzle: Shikaku, answer: Mapping[Cell, int], cell: Cell) -> Shikaku | None:
    """One more clue, at `cell`: its rectangle in `answer` cut in two between
    the cell and the rectangle's clue (across if they are in different rows,
    else down), each part clued with its area. None if `cell` is a clue."""
    clue = answer[cell]
    r0, c0, _ = puzzle.clues[clue]
    if (r0, c0) == cell:
        return None
    mine = [x for x, k in answer.items() if k == clue]
    if cell[0] != r0:
        # the cut runs between the cell's row and the next row towards the clue
        cut = cell[0] + (1 if r0 > cell[0] else 0)
        part = [x for x in mine if (x[0] < cut) == (cell[0] < cut)]
    else:
        cut = cell[1] + (1 if c0 > cell[1] else 0)
        part = [x for x in mine if (x[1] < cut) == (cell[1] < cut)]
    area = len(mine)
    clues = [(r, c, a) for k, (r, c, a) in enumerate(puzzle.clues) if k != clue]
    clues += [(r0, c0, area - len(part)), (*cell, len(part))]
    return dataclasses.replace(puzzle, clues=tuple(sorted(clues)))


# -- making puzzles (csp.generation) ------------------------------------------------------
# A random division into rectangles, a clue in each at random; the clues are
# all needed, so that a puzzle with another solution is repaired where the two
# differ: a clue moved within its rectangle, or a rectangle cut in two.

LARGEST = 12
"""The largest rectangle made."""
MAKE_MAX = 40

Rectangle = tuple[int, int, int, int]  # top, left, height, width
Made = tuple[tuple[Rectangle, ...], tuple[Cell, ...]]  # the rectangles and their clues' cells


def _make_size(text: str | None) -> tuple[int, int]:
    """`--size N` (N x N) or `WxH`."""
    return generation.sides(text, (8, 8), 2, MAKE_MAX, "shikaku")


def _make_solution(size: tuple[int, int], rng: random.Random) -> Made:
    width, height = size
    covered: set[Cell] = set()
    rectangles: list[Rectangle] = []
    for r in range(height):
        for c in range(width):
            if (r, c) in covered:
                continue
            across = next((k for k in range(c, width) if (r, k) in covered), width) - c
            shapes = [(h, w) for h in range(1, height - r + 1) for w in range(1, across + 1)
                      if 2 <= h * w <= LARGEST] or [(1, 1)]
            h, w = rng.choice(shapes)
            rectangles.append((r, c, h, w))
            covered.update((i, j) for i in range(r, r + h) for j in range(c, c + w))
    return tuple(rectangles), tuple(_somewhere(rect, rng) for rect in rectangles)


def _somewhere(rect: Rectangle, rng: random.Random) -> Cell:
    top, left, h, w = rect
    return top + rng.randrange(h), left + rng.randrange(w)


def _make_puzzle(size: tuple[int, int], made: Made, clues: object = ()) -> Shikaku:
    rectangles, where = made
    return Shikaku(*size, tuple(sorted((r, c, h * w) for (r, c), (_, _, h, w)
                                       in zip(where, rectangles))))


def _kind_answer(size: tuple[int, int], made: Made) -> Answer:
    """The clue (in row-major order) covering each cell."""
    rectangles, where = made
    order = {cell: k for k, cell in enumerate(sorted(where))}
    return {(i, j): order[cell] for cell, (top, left, h, w) in zip(where, rectangles)
            for i in range(top, top + h) for j in range(left, left + w)}


def _repair(size: tuple[int, int], made: Made, other: dict[Cell, str], rng: random.Random
            ) -> list[Made]:
    """Divisions that each move a clue, or cut a rectangle in two, where another
    solution differs."""
    rectangles, where = made
    mine = cells(_make_puzzle(size, made), _kind_answer(size, made))
    apart = {cell for cell in mine if other.get(cell) != mine[cell]}
    touched = [k for k, (top, left, h, w) in enumerate(rectangles)
               if any((i, j) in apart for i in range(top, top + h) for j in range(left, left + w))]
    offered = []
    for k in rng.sample(touched, min(len(touched), 6)):
        top, left, h, w = rectangles[k]
        if h * w > 1 and rng.random() < 0.5:
            moved = list(where)
            moved[k] = _somewhere(rectangles[k], rng)
            offered.append((rectangles, tuple(moved)))
        cuts = [("across", a) for a in range(1, h)] + [("down", a) for a in range(1, w)]
        if h * w >= 4 and cuts:
            way, at = rng.choice(cuts)
            parts = ([(top, left, at, w), (top + at, left, h - at, w)] if way == "across"
                     else [(top, left, h, at), (top, left + at, h, w - at)])
            if min(ph * pw for _, _, ph, pw in parts) >= 2:
                split = list(rectangles[:k]) + parts + list(rectangles[k + 1:])
                spots = list(where[:k]) + [_somewhere(p, rng) for p in parts] + list(where[k + 1:])
                offered.append((tuple(split), tuple(spots)))
    return offered


MAKER = generation.Maker(
    sizes=f"N (N x N) or WxH (2 to {MAKE_MAX}); default 8",
    size=_make_size, solution=_make_solution, clues=lambda size, made: [],
    puzzle=_make_puzzle, repair=_repair, kind_answer=_kind_answer,
    uniformity="rectangles drawn at random cell by cell (2 to 12 cells, each shape that fits "
               "equally likely), a clue in each at random, then repaired where another solution "
               "differs, the repair that leaves fewest solutions kept: not uniform",
)


KIND = Kind(name="shikaku", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, parse_options=PARSE_OPTIONS,
            format_puzzle=format_puzzle, draw=draw, cells=cells, with_given=with_given,
            maker=MAKER)
