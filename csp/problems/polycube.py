"""Packing polycubes into a 3-D box: every cell of the box covered by exactly
one piece, every piece used once, pieces rotated in space (and mirrored too
with `reflect=True`, as no physical piece can be).

Input: puzzles one after another, each a line `box X Y Z` (the box's sides)
followed by its pieces, a line each: a one-character name, then the piece's
cells as `x,y,z` (whole numbers, any offset). `#` starts a comment line.
Output: the box layer by layer (z = 1, 2, ...) side by side, a row (y) of
each layer a line, each cell the name of the piece covering it.

As an exact cover: a primary item per cell and per piece, an option per
placement of a piece (`csp.grid.placements`), carrying `(piece, cells)`.
`symmetry` declares the box's moves (48 for a cube) that carry the pieces
onto pieces: a rotation always, a reflection when the pieces may be mirrored
or when every piece's mirror image is a piece of the set (as with the two
screws of the Soma cube), so `--up-to-symmetry` counts essentially
different packings: the seven Soma pieces fill the 3x3x3 cube in 11,520
ways, 240 up to the cube's symmetries.

>>> [puzzle] = parse("box 2 2 1\\na 0,0,0 1,0,0\\nb 5,5,5 5,6,5")
>>> import csp
>>> xc = declare(puzzle)
>>> xc.n_primary, xc.n_options
(6, 8)
>>> print(format(puzzle, decode(puzzle, csp.solve(xc).solution, xc)))
aa
bb
>>> csp.count(xc).count, len(symmetry(puzzle, xc)), csp.count(xc, up_to_symmetry=True).count
(4, 8, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from csp import grid
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import MARGIN, Board, Svg, colour

FORMS = ("exact-cover",)
PARSE_OPTIONS = ("reflect",)
DESCRIPTION = ("polycubes in a box: 'box X Y Z', then a piece a line: a one-character name "
               "and its cells x,y,z; --reflect allows mirror images")


@dataclass(frozen=True)
class Polycube:
    """A box and its pieces (names, normalised shapes)."""

    sides: tuple[int, int, int]
    names: tuple[str, ...]
    pieces: tuple[grid.Shape, ...]
    reflect: bool = False
    line: int | None = None

    @property
    def cells(self) -> list[grid.Cell]:
        return grid.box(*self.sides)


Answer = dict[grid.Cell, int]
"""The piece (0-based) covering each cell."""


def parse(text: str, *, reflect: bool = False) -> list[Polycube]:
    return every(puzzles(text, reflect=reflect))


def puzzles(text: str, *, reflect: bool = False) -> Iterator[Polycube | InputError]:
    """Each puzzle (from a `box` line to the next), or the error of a bad one."""
    block: list[tuple[int, str]] = []
    for number, raw in [*enumerate(text.splitlines(), start=1), (0, "box")]:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.split()[0] == "box" and block:
            try:
                yield _puzzle(block, reflect)
            except InputError as err:
                yield err
            block = []
        if number:
            block.append((number, line))


def _puzzle(block: list[tuple[int, str]], reflect: bool) -> Polycube:
    (first, head), pieces = block[0], block[1:]
    words = head.split()
    if words[0] != "box":
        raise InputError(f"{words[0]!r}: a puzzle starts with 'box X Y Z'", line=first,
                         token=words[0])
    if len(words) != 4 or not all(w.isdigit() and int(w) > 0 for w in words[1:]):
        raise InputError(f"{head!r} is not 'box X Y Z' with three positive sides",
                         line=first, token=head)
    sides = (int(words[1]), int(words[2]), int(words[3]))
    names: list[str] = []
    shapes: list[grid.Shape] = []
    for number, line in pieces:
        name, *cells = line.split()
        if len(name) != 1 or name in names or not name.isalnum():
            raise InputError(f"piece name {name!r} is not one new letter or digit",
                             line=number, token=name)
        if not cells:
            raise InputError(f"piece {name} has no cells", line=number, token=name)
        shape = []
        for token in cells:
            parts = token.split(",")
            if len(parts) != 3 or not all(p.lstrip("-").isdigit() for p in parts):
                raise InputError(f"piece {name}: {token!r} is not a cell x,y,z",
                                 line=number, token=token)
            shape.append((int(parts[0]), int(parts[1]), int(parts[2])))
        if len(set(shape)) != len(shape):
            raise InputError(f"piece {name} repeats a cell", line=number, token=name)
        names.append(name)
        shapes.append(grid.normalise(shape))
    volume = sides[0] * sides[1] * sides[2]
    if sum(map(len, shapes)) != volume:
        sizes = ", ".join(f"{n} {len(s)}" for n, s in zip(names, shapes))
        raise InputError(f"the pieces have {sum(map(len, shapes))} cells ({sizes or 'none'}) "
                         f"but the box has {volume}", line=first, token=head)
    return Polycube(sides, tuple(names), tuple(shapes), reflect, first)


def _cell(cell: grid.Cell) -> str:
    return ",".join(map(str, cell))


def declare(puzzle: Polycube, form: str | None = None) -> ExactCover:
    """Items: the pieces and the cells; options: every placement of a piece."""
    if form not in (None, "exact-cover"):
        raise InputError(f"unknown form {form!r} for polycube; the only form is 'exact-cover'")
    xc = ExactCover([*puzzle.names, *map(_cell, puzzle.cells)], name="polycube")
    for k, piece in enumerate(puzzle.pieces):
        for cells in grid.placements(piece, puzzle.cells, puzzle.reflect):
            xc.add_option([puzzle.names[k], *map(_cell, cells)], (k, cells))
    return xc


def decode(puzzle: Polycube, solution: Sequence[int], problem: ExactCover | None = None
           ) -> Answer:
    xc = problem if problem is not None else declare(puzzle)
    answer: Answer = {}
    for option in solution:
        k, cells = xc.data[option]
        answer.update(dict.fromkeys(cells, k))
    return answer


def format(puzzle: Polycube, answer: Mapping[grid.Cell, int]) -> str:  # noqa: A001
    """The layers side by side: a line per y, a block of x cells per z."""
    x_side, y_side, z_side = puzzle.sides
    return "\n".join(" ".join("".join(puzzle.names[answer[(x, y, z)]] for x in range(x_side))
                              for z in range(z_side)) for y in range(y_side))


def symmetry(puzzle: Polycube, problem: ExactCover | None = None):  # -> csp.symmetry.Group
    """The box's moves that carry every piece onto a piece of the set."""
    from csp.symmetry import Group, induced

    xc = problem if problem is not None else declare(puzzle)
    shapes = [set(grid.orientations(p, puzzle.reflect)) for p in puzzle.pieces]
    generators = []
    for move in grid.symmetries(puzzle.cells)[1:]:
        image: dict[Hashable, Hashable] = {}
        for k, piece in enumerate(puzzle.pieces):
            moved = grid.normalise(map(move, piece))
            # the piece itself if the move is a rotation of it, else its mirror in the set
            j = k if moved in shapes[k] else next(
                (j for j, s in enumerate(shapes) if moved in s), None)
            if j is None:
                break
            image[puzzle.names[k]] = puzzle.names[j]
        else:
            if len(set(image.values())) < len(image):
                continue  # two pieces turn into one (two screws, one mirror screw): no symmetry
            image.update({_cell(c): _cell(move(c)) for c in puzzle.cells})
            generators.append(induced(xc, image))
    return Group(xc, generators).attach()


def draw(puzzle: Polycube, answer: Mapping[grid.Cell, int] | None = None,
         marks: Collection[grid.Cell] = ()) -> str:
    """The box as SVG, layer by layer (z = 1, 2, ... side by side, y down, x
    across), each piece in its colour and letter; and each piece drawn in
    isometric view below (the pieces alone without an answer)."""
    x_side, y_side, z_side = puzzle.sides
    cell = 28
    gap = cell
    cube = 14
    views = [_isometric(piece, cube) for piece in puzzle.pieces]
    shelf_height = max((h for _, h, _ in views), default=0) + 30
    width = max(z_side * (x_side * cell + gap), sum(w + 20 for w, _, _ in views))
    svg = Svg(width + 2 * MARGIN, MARGIN + 18 + y_side * cell + 16 + shelf_height + MARGIN,
              f"polycube {x_side}x{y_side}x{z_side}")
    for z in range(z_side):
        layer = Board(y_side, x_side, cell=cell, left=MARGIN + z * (x_side * cell + gap),
                      top=MARGIN + 18)
        svg.text(layer.left + x_side * cell / 2, MARGIN + 6, f"z = {z + 1}", size=12)
        piece_at = {(y, x): answer[(x, y, z)] for x in range(x_side) for y in range(y_side)
                    } if answer is not None else {}
        for (y, x), k in piece_at.items():
            layer.fill([(y, x)], colour(k))
            layer.number((y, x), puzzle.names[k], given=False, colour="#444444", size=13)
        layer.lines(region=piece_at.get if answer is not None else None, thick=2.5)
        layer.marks([(y, x) for x, y, level in marks if level == z])
        svg.parts += layer.parts
    at = float(MARGIN)
    top = MARGIN + 18 + y_side * cell + 16
    for k, (w, _, faces) in enumerate(views):
        for points, shade in faces:
            svg.polygon([(at + px, top + 14 + py) for px, py in points], fill=colour(k),
                        stroke="#333333", stroke_width=0.8)
            if shade:
                svg.polygon([(at + px, top + 14 + py) for px, py in points], fill="black",
                            fill_opacity=str(shade))
        svg.text(at + w / 2, top + 4, puzzle.names[k], size=12)
        at += w + 20
    return str(svg)


def _isometric(piece: grid.Shape, a: float
               ) -> tuple[float, float, list[tuple[list[tuple[float, float]], float]]]:
    """A piece's cubes in isometric view: its width, height and faces (points,
    shade), farthest first, so that nearer faces are drawn over them."""
    def project(x: float, y: float, z: float) -> tuple[float, float]:
        return (x - y) * a * 0.866, (x + y) * a * 0.5 - z * a

    faces = []
    for x, y, z in sorted(piece, key=lambda c: (c[0] + c[1] + c[2], c[2])):
        top = [(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
        right = [(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)]
        left = [(x, y + 1, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
        for corners, shade in ((top, 0.0), (right, 0.25), (left, 0.12)):
            faces.append(([project(*corner) for corner in corners], shade))
    xs = [px for points, _ in faces for px, _ in points]
    ys = [py for points, _ in faces for _, py in points]
    shifted = [([(px - min(xs), py - min(ys)) for px, py in points], shade)
               for points, shade in faces]
    return max(xs) - min(xs), max(ys) - min(ys), shifted


def cells(puzzle: Polycube, answer: Mapping[grid.Cell, int]) -> dict[grid.Cell, str]:
    """The piece's name on each cell (x, y, z)."""
    return {cell: puzzle.names[k] for cell, k in answer.items()}


def format_puzzle(puzzle: Polycube) -> str:
    lines = [f"box {' '.join(map(str, puzzle.sides))}"]
    lines += [f"{name} {' '.join(','.join(map(str, cell)) for cell in piece)}"
              for name, piece in zip(puzzle.names, puzzle.pieces)]
    return "\n".join(lines)


KIND = Kind(name="polycube", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, parse_options=PARSE_OPTIONS,
            symmetry=symmetry, format_puzzle=format_puzzle, draw=draw, cells=cells)
