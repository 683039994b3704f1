"""Polyomino tiling in the "puzzle box" format (docs/developing/problems.md section 5).

A file is a map, then a blank line, then the pieces. In the map `#` is a wall
and `.` a free cell. Each piece is drawn with `#` (and `.` or spaces for
empty cells); pieces are separated by lines that hold no `#` (a blank line,
or a line of dots) and are trimmed of empty rows and columns. A map of a
single line is a 1-D puzzle: every line below it that holds a `#` is one
piece.

A piece therefore has at least one cell: a line without `#` only separates
pieces, in 1-D as in 2-D, so the format cannot draw an empty piece (a block
of dots is a separator, and does not take a letter). A drawing that is no
piece, a character other than `#`, `.` and space, is an error naming its
line; pieces that do not have as many cells as the map has free cells are an
error listing each piece's size.

Every free cell is covered by exactly one piece and every piece is used once.
Pieces may be rotated (in 1-D: reversed), and also reflected with
`reflect=True`. The pieces are named `a`, `b`, `c`, ... in input order, and
an answer is printed as the map with each free cell replaced by its piece's
letter.

As an exact cover: one primary item per free cell and per piece, one option
per placement of an orientation of a piece, carrying `(piece, cells)`.

>>> [puzzle] = parse("#.#.........#..#\\n\\n#..#.##\\n#.#..##\\n##...##")
>>> len(puzzle.pieces), puzzle.free_cells
(3, 12)
>>> xc = declare(puzzle)
>>> answer = answer_of(puzzle, "#b#bccbbacca#aa#")
>>> xc.check(encode(puzzle, answer, xc))
[]
>>> format(puzzle, answer)
'#b#bccbbacca#aa#'
"""

from __future__ import annotations

import string
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from csp import grid
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.grid import normalise
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import CELL, Board, colour

FORMS = ("exact-cover",)
DEFAULT_FORM = "exact-cover"
PARSE_OPTIONS = ("reflect",)

DESCRIPTION = (
    "puzzle box: a map ('#' wall, '.' free), a blank line, then pieces drawn with '#' "
    "separated by lines without '#'; a one-line map is a 1-D puzzle; --reflect allows flips"
)

NAMES = string.ascii_lowercase + string.ascii_uppercase + string.digits
"""The pieces' letters, in input order."""

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


@dataclass(frozen=True)
class Polyomino:
    """A map (rows of `#` and `.`) and the pieces, each a sorted tuple of cells."""

    board: tuple[str, ...]
    pieces: tuple[Shape, ...]
    reflect: bool = False
    line: int | None = None

    @property
    def free(self) -> list[Cell]:
        return [(r, c) for r, row in enumerate(self.board) for c, ch in enumerate(row) if ch == "."]

    @property
    def free_cells(self) -> int:
        return sum(row.count(".") for row in self.board)


Answer = dict[Cell, int]
"""The piece (0-based, in input order) covering each free cell."""


# -- reading -------------------------------------------------------------------------


def parse(text: str, *, reflect: bool = False) -> list[Polyomino]:
    """The puzzle in `text` (a file holds one), or `InputError` saying what is wrong."""
    return every(puzzles(text, reflect=reflect))


def puzzles(text: str, *, reflect: bool = False) -> Iterator[Polyomino | InputError]:
    try:
        yield _parse(text, reflect)
    except InputError as err:
        yield err


def _parse(text: str, reflect: bool) -> Polyomino:
    lines = list(enumerate((raw.rstrip() for raw in text.splitlines()), start=1))
    while lines and not lines[0][1]:
        lines.pop(0)
    if not lines:
        raise InputError("no map: the input is empty")
    start = lines[0][0]
    board: list[str] = []
    while lines and lines[0][1]:
        number, row = lines.pop(0)
        bad = next((k for k, ch in enumerate(row) if ch not in "#."), None)
        if bad is not None:
            raise InputError(f"map row {len(board) + 1}, column {bad + 1}: {row[bad]!r} is "
                             "neither '#' (wall) nor '.' (free)", line=number, token=row[bad])
        if board and len(row) != len(board[0]):
            raise InputError(f"map row {len(board) + 1} has {len(row)} cells, the first has "
                             f"{len(board[0])}: the map is not rectangular", line=number)
        board.append(row)
    pieces: list[Shape] = []
    drawing: list[tuple[int, str]] = []
    one_line = len(board) == 1
    for number, row in [*lines, (0, "")]:
        bad = next((k for k, ch in enumerate(row) if ch not in "#. "), None)
        if bad is not None:
            raise InputError(f"piece {NAMES[len(pieces)] if len(pieces) < len(NAMES) else '?'}"
                             f", column {bad + 1}: {row[bad]!r} is not '#' or empty ('.', ' ')",
                             line=number, token=row[bad])
        if "#" in row:
            drawing.append((number, row))
        if drawing and ("#" not in row or one_line):
            pieces.append(_shape(row for _, row in drawing))
            drawing = []
    if not pieces:
        raise InputError("no pieces after the map (a blank line must separate them)", line=start)
    if len(pieces) > len(NAMES):
        raise InputError(f"{len(pieces)} pieces: at most {len(NAMES)} can be named")
    puzzle = Polyomino(tuple(board), tuple(pieces), reflect, start)
    area = sum(len(p) for p in pieces)
    if area != puzzle.free_cells:
        # Each piece's size, so that a piece drawn wrong or split in two shows.
        sizes = ", ".join(f"{NAMES[k]} {len(p)}" for k, p in enumerate(pieces))
        raise InputError(f"the pieces have {area} cells ({sizes}) but the map has "
                         f"{puzzle.free_cells} free cells: they cannot tile it", line=start)
    return puzzle


def _shape(rows: Iterator[str]) -> Shape:
    return _normal([(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"])


def _normal(cells: Sequence[Cell]) -> Shape:
    """The cells moved so that the smallest row and column are 0, sorted."""
    return normalise(cells)  # type: ignore[return-value]


def orientations(shape: Shape, reflect: bool = False) -> list[Shape]:
    """The distinct rotations of `shape` (and reflections, with `reflect`).

    >>> len(orientations(((0, 0), (0, 1), (1, 1), (1, 2))))   # the S tetromino
    2
    >>> len(orientations(((0, 0), (0, 1), (1, 1), (1, 2)), reflect=True))
    4
    """
    return grid.orientations(shape, reflect)  # type: ignore[return-value]


# -- declaring -----------------------------------------------------------------------


def declare(puzzle: Polyomino, form: str | None = None) -> ExactCover:
    """Items: every free cell and every piece. Options: every placement."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for polyomino; the only form is 'exact-cover'")
    free = puzzle.free
    xc = ExactCover([NAMES[k] for k in range(len(puzzle.pieces))]
                    + [f"{r},{c}" for r, c in free], name="polyomino")
    for k, piece in enumerate(puzzle.pieces):
        for cells in grid.placements(piece, free, puzzle.reflect):
            xc.add_option([NAMES[k], *(f"{r},{c}" for r, c in cells)], (k, cells))
    return xc


# -- answers -------------------------------------------------------------------------


def decode(puzzle: Polyomino, solution: Sequence[int], problem: ExactCover | None = None
           ) -> Answer:
    """The piece covering each free cell, read from the chosen options' data."""
    if problem is None:
        problem = declare(puzzle)
    answer: Answer = {}
    for k in solution:
        piece, cells = problem.data[k]
        answer.update(dict.fromkeys(cells, piece))
    return answer


def encode(puzzle: Polyomino, answer: Mapping[Cell, int], problem: ExactCover) -> tuple[int, ...]:
    """The exact-cover solution that places the pieces as `answer` says."""
    return tuple(k for k, (piece, cells) in enumerate(problem.data)
                 if all(answer.get(cell) == piece for cell in cells))


def answer_of(puzzle: Polyomino, text: str) -> Answer:
    """Read an answer written as `format` writes it."""
    return {(r, c): NAMES.index(ch) for r, row in enumerate(text.splitlines())
            for c, ch in enumerate(row) if ch not in "#."}


def format(puzzle: Polyomino, answer: Mapping[Cell, int]) -> str:  # noqa: A001
    """The map with each free cell replaced by its piece's letter."""
    return "\n".join(
        "".join(NAMES[answer[(r, c)]] if ch == "." and (r, c) in answer else ch
                for c, ch in enumerate(row))
        for r, row in enumerate(puzzle.board))


def format_puzzle(puzzle: Polyomino) -> str:
    """The puzzle in the shared data's format: pieces drawn with `#` and spaces."""
    blocks = ["\n".join(puzzle.board)]
    for piece in puzzle.pieces:
        rows = max(r for r, _ in piece) + 1
        cols = max(c for _, c in piece) + 1
        cells = set(piece)
        blocks.append("\n".join(
            "".join("#" if (r, c) in cells else " " for c in range(cols)).rstrip()
            for r in range(rows)))
    return "\n\n".join(blocks) + "\n"


def symmetry(puzzle: Polyomino, problem: ExactCover | None = None):  # -> csp.symmetry.Group
    """The map's own symmetries that map the puzzle onto itself, as a
    `csp.symmetry.Group` on the options declared as the problem's symmetry
    (`problem.symmetry`): up to 8 for a square box, 4 for a
    rectangle, fewer for an irregular map; a reflection counts only when the
    pieces may be flipped (`reflect=True`), since a mirrored one-sided piece is
    not the same piece.

    >>> import csp
    >>> [puzzle] = parse("....\\n....\\n\\n##\\n##\\n\\n##\\n##", reflect=True)
    >>> xc = declare(puzzle)
    >>> group = symmetry(puzzle, xc)
    >>> len(group), csp.count(xc).count, csp.count(xc, up_to_symmetry=True).count
    (2, 2, 1)

    (Turning the 2x4 box upside down moves no placement of a 2x2 square: on
    the options the box's 4 symmetries act as 2.)
    """
    from csp.symmetry import Group, grid_symmetries, induced

    if problem is None:
        problem = declare(puzzle)
    generators = []
    for move in grid_symmetries(puzzle.free)[1:]:
        def image(name, move=move):
            if name in problem.primary[:len(puzzle.pieces)]:
                return name
            r, c = move(tuple(map(int, str(name).split(","))))
            return f"{r},{c}"
        try:
            generators.append(induced(problem, image))
        except InputError:
            continue  # a placement without an image: not a symmetry of these pieces
    return Group(problem, generators).attach()


def draw(puzzle: Polyomino, answer: Mapping[Cell, int] | None = None,
         marks: Collection[Cell] = ()) -> str:
    """The map as SVG, walls dark; with an answer, each piece in its own colour
    and letter within thick borders; without, the pieces drawn below the map."""
    rows, cols = len(puzzle.board), len(puzzle.board[0])
    small = 18
    shelf = pieces_layout(puzzle.pieces, max(cols * CELL, 360), small)
    below = 0 if answer is not None else shelf[1] + 16
    board = Board(rows, cols, extra_height=below, extra_width=max(0, 360 - cols * CELL),
                  title=f"polyomino, {len(puzzle.pieces)} pieces")
    board.fill([(r, c) for r, row in enumerate(puzzle.board) for c, ch in enumerate(row)
                if ch != "."], "#555555")
    for cell, k in (answer or {}).items():
        board.fill([cell], colour(k))
        board.number(cell, NAMES[k], given=False, colour="#555555", size=14)
    board.lines(region=(answer if answer is not None else dict.fromkeys(puzzle.free, -1)).get)
    board.marks(marks)
    if answer is None:
        top = board.top + rows * board.cell + 16
        for k, (piece, (x, y)) in enumerate(zip(puzzle.pieces, shelf[0])):
            for r, c in piece:
                board.rect(board.left + x + c * small, top + y + r * small, small, small,
                           fill=colour(k), stroke="#222222", stroke_width=1.0)
            board.text(board.left + x - 8, top + y + small / 2, NAMES[k], size=12)
    return str(board)


def pieces_layout(pieces: Sequence[Shape], width: float, cell: float
                  ) -> tuple[list[tuple[float, float]], float]:
    """Where each piece goes on a shelf `width` wide (cells of side `cell`),
    left to right and row by row, and the height used."""
    at: list[tuple[float, float]] = []
    x = y = row_height = 0.0
    for piece in pieces:
        w = (max(c for _, c in piece) + 1) * cell + 20
        h = (max(r for r, _ in piece) + 1) * cell
        if x + w > width and x > 0:
            x, y, row_height = 0.0, y + row_height + 10, 0.0
        at.append((x + 12, y))
        x += w
        row_height = max(row_height, h)
    return at, y + row_height


def cells(puzzle: Polyomino, answer: Mapping[Cell, int]) -> dict[Cell, str]:
    """The piece's letter on each free cell."""
    return {cell: NAMES[piece] for cell, piece in answer.items()}


KIND = Kind(name="polyomino", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, parse_options=PARSE_OPTIONS,
            symmetry=symmetry, format_puzzle=format_puzzle, draw=draw, cells=cells)
