"""Pictures of puzzles and their answers, as SVG written by hand.

SVG is plain XML: a picture is a few dozen `<rect>`, `<line>` and `<text>`
elements, so it is written here directly, with the text escaped
(`xml.sax.saxutils`), rather than through a library (svgwrite is no longer
maintained; drawsvg and others bring far more than a grid needs). No browser,
no Cairo: the output is a string. `tests/test_pictures.py` parses every
kind's picture as XML and checks what it shows.

`Svg` is a canvas of elements; `Board` is one laid out as a grid of square
cells, with what the grid kinds draw: thin lines between cells, thick ones
between regions (sudoku boxes, shikaku rectangles, pieces), dashed cage
outlines, numbers, corner labels, and highlighted cells (`marks`: the cells
where two solutions differ, for `--why-not-unique`).

>>> board = Board(2, 3)
>>> board.number((0, 1), "7")
>>> board.lines(region=lambda cell: cell[1] < 2)
>>> svg = str(board)
>>> svg.startswith("<svg") and svg.count("<text") == 1
True
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(svg).tag
'{http://www.w3.org/2000/svg}svg'
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from csp.grid import Cell

CELL = 40
"""The side of a cell, in pixels."""
MARGIN = 12
INK = "#222222"
GIVEN = INK
"""The colour of what the puzzle gives."""
FOUND = "#1f5fbf"
"""The colour of what the answer adds."""
MARK = "#e8413c"
"""The colour of highlighted cells."""
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

PALETTE = ("#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
           "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f")
"""Twelve distinct pale colours (ColorBrewer's Set3), for pieces and rectangles."""


STRONG = ("#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
          "#9c755f", "#ff9da7", "#bab0ac")
"""Ten distinct strong colours (Tableau 10), for lines and arcs."""


def colour(k: int, strong: bool = False) -> str:
    """The k-th distinct colour, pale (for fills) or `strong` (for lines): the
    palette, then hues spaced by the golden angle.

    >>> colour(0), colour(12), colour(0, strong=True)
    ('#8dd3c7', '#b4e9ce', '#4e79a7')
    """
    palette = STRONG if strong else PALETTE
    if k < len(palette):
        return palette[k]
    hue = (k * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45 if strong else 0.81, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def colouring(regions: Mapping[Any, Collection[Any]]) -> dict[Any, str]:
    """A colour per region such that regions that touch differ (greedy, in
    order; a map needs at most four, the palette has twelve).

    >>> colouring({"a": [(0, 0)], "b": [(0, 1)], "c": [(0, 2)]})
    {'a': '#8dd3c7', 'b': '#ffffb3', 'c': '#8dd3c7'}
    """
    owner = {cell: key for key, cells in regions.items() for cell in cells}
    chosen: dict[Any, int] = {}
    for key, cells in regions.items():
        taken = {chosen[owner[other]] for cell in cells for other in _around(cell)
                 if other in owner and owner[other] in chosen and owner[other] != key}
        chosen[key] = next(k for k in range(len(taken) + 1) if k not in taken)
    return {key: colour(k) for key, k in chosen.items()}


def _around(cell: Cell) -> list[Cell]:
    return [cell[:axis] + (cell[axis] + step,) + cell[axis + 1:]
            for axis in range(len(cell)) for step in (-1, 1)]


def _number(value: float) -> str:
    return str(round(value, 2)).removesuffix(".0")


class Svg:
    """A canvas: SVG elements in drawing order, later ones on top."""

    def __init__(self, width: float, height: float, title: str | None = None) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []

    def element(self, tag: str, text: str | None = None, /, **attributes: object) -> None:
        """One element; an attribute `stroke_width` is written `stroke-width`."""
        attrs = "".join(f" {name.rstrip('_').replace('_', '-')}="
                        f"{quoteattr(_number(v) if isinstance(v, float) else str(v))}"
                        for name, v in attributes.items() if v is not None)
        self.parts.append(f"<{tag}{attrs}/>" if text is None else
                          f"<{tag}{attrs}>{escape(text)}</{tag}>")

    def rect(self, x: float, y: float, width: float, height: float, fill: str = "none",
             **more: object) -> None:
        self.element("rect", x=float(x), y=float(y), width=float(width), height=float(height),
                     fill=fill, **more)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 1,
             colour: str = INK, **more: object) -> None:
        more.setdefault("stroke_linecap", "square")
        self.element("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2),
                     stroke=colour, stroke_width=float(width), **more)

    def polygon(self, points: Iterable[tuple[float, float]], fill: str = "none",
                **more: object) -> None:
        self.element("polygon", points=" ".join(f"{_number(x)},{_number(y)}" for x, y in points),
                     fill=fill, **more)

    def polyline(self, points: Iterable[tuple[float, float]], width: float = 2,
                 colour: str = INK, **more: object) -> None:
        self.element("polyline", points=" ".join(f"{_number(x)},{_number(y)}"
                                                 for x, y in points),
                     fill="none", stroke=colour, stroke_width=float(width),
                     stroke_linejoin="round", stroke_linecap="round", **more)

    def circle(self, x: float, y: float, radius: float, fill: str = "none",
               **more: object) -> None:
        self.element("circle", cx=float(x), cy=float(y), r=float(radius), fill=fill, **more)

    def text(self, x: float, y: float, text: str, size: float = 20, colour: str = INK,
             anchor: str = "middle", bold: bool = False, **more: object) -> None:
        """Text whose middle (anchor "middle"; or its start, "start"; its end,
        "end") sits at x and whose digits are centred on y (a baseline set
        from the size: renderers disagree on `dominant-baseline`)."""
        self.element("text", text, x=float(x), y=float(y + 0.36 * size), font_size=float(size),
                     font_family=FONT, fill=colour, text_anchor=anchor,
                     font_weight="bold" if bold else None, **more)

    def __str__(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(self.width)}" '
                f'height="{_number(self.height)}" viewBox="0 0 {_number(self.width)} '
                f'{_number(self.height)}">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        background = f'<rect width="{_number(self.width)}" height="{_number(self.height)}" ' \
                     'fill="white"/>'
        return "\n".join([head + title, background, *self.parts, "</svg>"]) + "\n"


class Board(Svg):
    """A canvas with a grid of `rows` x `cols` square cells at (`left`, `top`),
    and `extra_width` / `extra_height` pixels more for what a kind draws
    beside it (a word list, the pieces)."""

    def __init__(self, rows: int, cols: int, *, cell: float = CELL, left: float = MARGIN,
                 top: float = MARGIN, extra_width: float = 0, extra_height: float = 0,
                 title: str | None = None) -> None:
        super().__init__(left + cols * cell + MARGIN + extra_width,
                         top + rows * cell + MARGIN + extra_height, title)
        self.rows, self.cols, self.cell = rows, cols, cell
        self.left, self.top = left, top

    def corner_of(self, cell: Cell) -> tuple[float, float]:
        """The top-left corner of a cell."""
        return self.left + cell[1] * self.cell, self.top + cell[0] * self.cell

    def centre(self, cell: Cell) -> tuple[float, float]:
        x, y = self.corner_of(cell)
        return x + self.cell / 2, y + self.cell / 2

    def fill(self, cells: Iterable[Cell], colour: str) -> None:
        for cell in cells:
            self.rect(*self.corner_of(cell), self.cell, self.cell, fill=colour)

    def number(self, cell: Cell, text: str, *, given: bool = True, size: float | None = None,
               colour: str | None = None) -> None:
        """A number (or letter) in the middle of a cell: bold in the puzzle's
        colour if `given`, else in the answer's."""
        size = size or self.cell * (0.55 if len(text) < 3 else 0.4)
        self.text(*self.centre(cell), text, size=size,
                  colour=colour or (GIVEN if given else FOUND), bold=given)

    def corner(self, cell: Cell, text: str, size: float | None = None) -> None:
        """A small label in the top-left corner of a cell (a cage's sum), on
        white so that a cage's outline does not run through it."""
        x, y = self.corner_of(cell)
        size = size or self.cell * 0.27
        self.rect(x + 1.5, y + 1.5, len(text) * size * 0.62 + 3, size + 2, fill="white")
        self.text(x + 3, y + 2 + size / 2, text, size=size, anchor="start")

    def lines(self, region: Callable[[Any], Any] | None = None,
              cells: Collection[Cell] | None = None, thin: float = 1, thick: float = 3) -> None:
        """The grid: a thin line between two cells, a thick one between cells of
        different regions (`region(cell)`) and around the board. With `cells`,
        only those cells are the board (an irregular map): a side between a
        cell and no cell is thick."""
        inside = set(cells) if cells is not None else None

        def present(cell: Cell) -> bool:
            r, c = cell
            return 0 <= r < self.rows and 0 <= c < self.cols and (inside is None or
                                                                 cell in inside)

        def apart(a: Cell, b: Cell) -> bool:
            return region is not None and region(a) != region(b)

        segments: list[tuple[float, float, float, float, float]] = []
        for r in range(self.rows + 1):
            for c in range(self.cols):
                above, below = (r - 1, c), (r, c)
                if not (present(above) or present(below)):
                    continue
                x, y = self.corner_of(below)
                bold = not (present(above) and present(below)) or apart(above, below)
                segments.append((x, y, x + self.cell, y, thick if bold else thin))
        for c in range(self.cols + 1):
            for r in range(self.rows):
                left, right = (r, c - 1), (r, c)
                if not (present(left) or present(right)):
                    continue
                x, y = self.corner_of(right)
                bold = not (present(left) and present(right)) or apart(left, right)
                segments.append((x, y, x, y + self.cell, thick if bold else thin))
        # thin lines first, so that a thick one is never drawn over
        for x1, y1, x2, y2, width in sorted(segments, key=lambda s: s[4]):
            self.line(x1, y1, x2, y2, width, colour=INK if width == thick else "#999999")

    def cage(self, cells: Collection[Cell], inset: float = 4) -> None:
        """A dashed outline just inside the border of a cage (killer sudoku)."""
        within = set(cells)
        d, side = inset, self.cell
        for r, c in within:
            x, y = self.corner_of((r, c))
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if (r + dr, c + dc) in within:
                    continue
                # along the open side, from one end to the other: each end is
                # inset, flush with the neighbour's outline, or past it round an
                # inner corner
                if dr:
                    ends = [self._end((r, c), (0, step), (dr, 0), within) for step in (-1, 1)]
                    at = y + d if dr < 0 else y + side - d
                    self.line(x + side / 2 + ends[0], at, x + side / 2 + ends[1], at, 1,
                              stroke_dasharray="3,3", stroke_linecap="butt")
                else:
                    ends = [self._end((r, c), (step, 0), (0, dc), within) for step in (-1, 1)]
                    at = x + d if dc < 0 else x + side - d
                    self.line(at, y + side / 2 + ends[0], at, y + side / 2 + ends[1], 1,
                              stroke_dasharray="3,3", stroke_linecap="butt")

    def _end(self, cell: Cell, along: Cell, out: Cell, within: set[Cell]) -> float:
        """Where the outline of `cell`'s open side `out` ends in the direction
        `along`, from the side's middle."""
        half, d = self.cell / 2, 4
        sign = along[0] + along[1]
        nxt = (cell[0] + along[0], cell[1] + along[1])
        if nxt not in within:
            return sign * (half - d)
        diagonal = (nxt[0] + out[0], nxt[1] + out[1])
        return sign * (half + d) if diagonal in within else sign * half

    def marks(self, cells: Iterable[Cell]) -> None:
        """Highlight cells: a pale red fill and a red frame (drawn over the grid)."""
        for cell in cells:
            x, y = self.corner_of(cell)
            self.rect(x + 2, y + 2, self.cell - 4, self.cell - 4, fill=MARK, fill_opacity="0.25",
                      stroke=MARK, stroke_width=2.0)


class Picture:
    """A picture that shows itself in Jupyter (`_repr_svg_`); `str()` is its SVG."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> None:
        """Write the SVG to `path`."""
        Path(path).write_text(self.svg, encoding="utf-8")


def note(svg: Svg, x: float, y: float, lines: Iterable[str], size: float = 13) -> None:
    """Lines of text, left-aligned from (x, y) down."""
    for k, line in enumerate(lines):
        svg.text(x, y + k * size * 1.3, line, size=size, anchor="start")


__all__ = ["CELL", "FOUND", "GIVEN", "MARK", "MARGIN", "PALETTE", "STRONG", "Board", "Picture",
           "Svg", "colour", "colouring", "note"]
