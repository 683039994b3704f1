"""Nonogram (paint by numbers, griddlers, hanjie): fill cells so that each
row and column shows the runs of filled cells its clue lists, in order.

Input: Steve Simpson's `.non` format, as webpbn.com exports it and the
nonogram-db collection keeps it: a line per key, `width W` and `height H`
before `rows` and `columns`; `rows` is followed by H lines, one clue a line,
its runs separated by commas (`2,1`; `0` or a blank line for an empty row),
`columns` by W lines the same way. Lines of other keys (`title`, `by`,
`copyright`, `license`, `goal`, ...) and lines not understood are passed
over; a file may bundle several puzzles separated by a line `====` (a
`.nonpack`). Multi-colour puzzles (a `color` key, or a colour letter after
a run) are refused. Output: the grid, `#` for a filled cell and `.` for an
empty one, a row a line.

    width 5
    height 3
    rows
    3
    1,1
    5
    columns
    1
    3
    1,1
    3
    1

A model: a boolean per cell, and for each row and column one `Regular`
whose automaton reads the clue's runs (`0* 1^a 0+ 1^b ... 0*`, deterministic:
state i means that the first i symbols of `1^a 0 1^b 0 ...` were read).

>>> [puzzle] = parse("width 3\\nheight 2\\nrows\\n1,1\\n3\\ncolumns\\n2\\n1\\n2\\n")
>>> puzzle.rows, puzzle.columns
(((1, 1), (3,)), ((2,), (1,), (2,)))
>>> import csp
>>> m = declare(puzzle)
>>> print(format(puzzle, decode(puzzle, csp.solve(m).solution, m)))
#.#
###
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.errors import InputError
from csp.global_constraints import Regular
from csp.model import Model
from csp.problems import every
from csp.problems._numbers import check_size, natural
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = ("nonogram: the .non format (width W, height H, then 'rows' and 'columns' each "
               "followed by a clue a line, runs separated by commas); puzzles separated by ====")
MAX_SIDE = 1000
"""The longest row or column read: webpbn's largest puzzles have 100 or so."""

Clue = tuple[int, ...]


@dataclass(frozen=True)
class Nonogram:
    """The clues of the rows (top to bottom) and of the columns (left to right)."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    line: int | None = None
    goal: str | None = None
    """The `goal` key (the published answer, a 0/1 per cell row by row), if given."""


Answer = tuple[str, ...]


def parse(text: str) -> list[Nonogram]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Nonogram | InputError]:
    """Each puzzle of a `.non` file or `.nonpack` bundle, or the error of a bad one."""
    lines = text.splitlines()
    start = 0
    for end in [k for k, line in enumerate(lines) if line.strip() == "===="] + [len(lines)]:
        if any(line.strip() for line in lines[start:end]):
            try:
                yield _puzzle(lines, start, end)
            except InputError as err:
                yield err
        start = end + 1


def _puzzle(lines: list[str], start: int, end: int) -> Nonogram:
    size: dict[str, int] = {}
    clues: dict[str, tuple[Clue, ...]] = {}
    goal = None
    at = start
    while at < end:
        number, words = at + 1, lines[at].split(None, 1)
        at += 1
        key = words[0].lower() if words else ""
        if key in ("width", "height"):
            size[key] = natural(words[1].strip() if len(words) > 1 else "", key)
            check_size(size[key], MAX_SIDE, f"the {key}")
        elif key in ("rows", "columns"):
            count = size.get("height" if key == "rows" else "width")
            if count is None:
                raise InputError(f"'{key}' before the puzzle's width and height", line=number)
            if at + count > end:
                raise InputError(f"'{key}' wants {count} clue lines; the puzzle has "
                                 f"{end - at}", line=number)
            other = size.get("width" if key == "rows" else "height")
            clues[key] = tuple(_clue(lines[at + k], at + k + 1, key[:-1], k, other)
                               for k in range(count))
            at += count
        elif key == "color":
            raise InputError("a multi-colour puzzle (a 'color' key): only black-and-white "
                             "nonograms are read", line=number)
        elif key == "goal" and len(words) > 1:
            goal = words[1].strip().strip('"')
    first = start + 1
    for key in ("rows", "columns"):
        if key not in clues:
            raise InputError(f"the puzzle of line {first} has no '{key}'", line=first)
    return Nonogram(clues["rows"], clues["columns"], first, goal)


def _clue(text: str, number: int, what: str, k: int, length: int | None) -> Clue:
    runs = []
    for token in (t.strip() for t in text.split(",")):
        if token[:1].isdigit() and token[-1:].isalpha():
            raise InputError(f"{what} {k + 1}: the run {token!r} names a colour; only "
                             "black-and-white nonograms are read", line=number, token=token)
        runs.append(natural(token, f"{what} {k + 1}'s run") if token else 0)
    clue = tuple(run for run in runs if run)
    if length is not None and sum(clue) + len(clue) - 1 > length:
        raise InputError(f"{what} {k + 1}: the runs {text.strip()!r} need "
                         f"{sum(clue) + len(clue) - 1} cells; the {what} has {length}",
                         line=number, token=text.strip())
    return clue


def automaton(clue: Clue) -> tuple[list[tuple[int, int, int]], int, list[int]]:
    """The deterministic automaton of a line with these runs: (transitions,
    start, accepting). State i: the first i symbols of the pattern
    `1^a 0 1^b 0 ... 1^z` read, and any 0 where a 0 may repeat.

    >>> automaton((2,))
    ([(0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 2)], 0, [2])
    """
    pattern = [symbol for k, run in enumerate(clue) for symbol in [0] * (k > 0) + [1] * run]
    transitions = [(0, 0, 0)]                  # leading empty cells
    for i, symbol in enumerate(pattern):
        transitions.append((i, symbol, i + 1))
        if symbol == 0:
            transitions.append((i + 1, 0, i + 1))  # a gap of more than one cell
    if pattern:
        transitions.append((len(pattern), 0, len(pattern)))  # trailing empty cells
    return transitions, 0, [len(pattern)]


def declare(puzzle: Nonogram, form: str | None = None) -> Model:
    """A boolean per cell; one `Regular` per row and per column."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for nonogram; the only form is 'model'")
    height, width = len(puzzle.rows), len(puzzle.columns)
    m = Model(f"nonogram {width}x{height}")
    filled = {cell: m.bool(grid.name(cell)) for cell in grid.box(height, width)}
    for clue, line in zip(puzzle.rows + puzzle.columns,
                          grid.rows(height, width) + grid.columns(height, width)):
        m.add(Regular([filled[cell] for cell in line], *automaton(clue)))
    return m


def decode(puzzle: Nonogram, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple("".join("#" if solution[grid.name(cell)] else "." for cell in row)
                 for row in grid.rows(len(puzzle.rows), len(puzzle.columns)))


def format(puzzle: Nonogram, answer: Sequence[str]) -> str:  # noqa: A001 - the module's printer
    return "\n".join(answer)


def draw(puzzle: Nonogram, answer: Answer | None = None, marks: Collection[grid.Cell] = ()
         ) -> str:
    """The grid as SVG: the answer's filled cells shaded (the clues are the file's)."""
    height, width = len(puzzle.rows), len(puzzle.columns)
    board = Board(height, width, title=f"nonogram {height}x{width}")
    if answer is not None:
        board.fill([(r, c) for r, row in enumerate(answer) for c, x in enumerate(row)
                    if x == "#"], "#333333")
    board.lines()
    board.marks(marks)
    return str(board)


def cells(puzzle: Nonogram, answer: Sequence[str]) -> dict[grid.Cell, str]:
    """`#` or `.` for every cell."""
    return {(r, c): x for r, row in enumerate(answer) for c, x in enumerate(row)}


def format_puzzle(puzzle: Nonogram) -> str:
    """The puzzle in the .non format, closed by a `====` line so that several
    written one after another read back as a bundle."""
    def clue(runs: Clue) -> str:
        return ",".join(map(str, runs)) or "0"

    return "\n".join([f"width {len(puzzle.columns)}", f"height {len(puzzle.rows)}", "rows",
                      *map(clue, puzzle.rows), "columns", *map(clue, puzzle.columns),
                      "===="]) + "\n"


# -- making puzzles (csp.generation) ------------------------------------------------------
# A random picture (each cell filled with chance FILLED); its runs are the
# clues, all needed, so that a picture with another solution is repaired:
# a cell where the two differ is flipped, the flip that leaves fewest
# solutions kept.

FILLED = 0.55
"""The chance that a cell of a random picture is filled: denser pictures
are more often unique."""
MAKE_MAX = 40


def _make_size(text: str | None) -> tuple[int, int]:
    """`--size N` (N x N) or `WxH`."""
    return generation.sides(text, (10, 10), 2, MAKE_MAX, "nonogram")


def runs(line: str) -> Clue:
    """The runs of `#` in a row of the picture.

    >>> runs("##..#.###")
    (2, 1, 3)
    """
    return tuple(len(run) for run in line.split(".") if run)


def _make_solution(size: tuple[int, int], rng: random.Random) -> Answer:
    width, height = size
    return tuple("".join("#" if rng.random() < FILLED else "." for _ in range(width))
                 for _ in range(height))


def _make_puzzle(size: tuple[int, int], answer: Answer, clues: object = ()) -> Nonogram:
    columns = ["".join(row[c] for row in answer) for c in range(size[0])]
    return Nonogram(tuple(map(runs, answer)), tuple(map(runs, columns)))


def _repair(size: tuple[int, int], answer: Answer, other: Mapping[grid.Cell, str],
            rng: random.Random) -> list[Answer]:
    """Pictures that each flip one cell where another solution differs."""
    mine = cells(_make_puzzle(size, answer), answer)
    apart = sorted(cell for cell in mine if other.get(cell) != mine[cell])
    offered = []
    for r, c in rng.sample(apart, min(len(apart), TRIES)):
        row = answer[r]
        flipped = row[:c] + ("." if row[c] == "#" else "#") + row[c + 1:]
        offered.append(answer[:r] + (flipped,) + answer[r + 1:])
    return offered


TRIES = 6
"""The repairs offered at a time."""


MAKER = generation.Maker(
    sizes=f"N (N x N) or WxH (2 to {MAKE_MAX}); default 10",
    size=_make_size, solution=_make_solution, clues=lambda size, answer: [],
    puzzle=_make_puzzle, repair=_repair,
    uniformity=f"each cell filled with chance {FILLED}, then cells flipped where another "
               "solution differs, the flip that leaves fewest solutions kept: not uniform over "
               "unique nonograms",
)


KIND = Kind(name="nonogram", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, draw=draw, cells=cells,
            format_puzzle=format_puzzle, maker=MAKER)
