"""Star battle: place k stars in every row, every column and every region
of a square grid, no two stars touching, not even at a corner.

Input: janko.at's layout (`csp.problems._janko`): a line `R C K` (rows,
columns, stars per row, column and region), then R lines of C region
labels separated by spaces (any word: `1`, `12`, `a`); puzzles separated by
blank lines. Output: the grid, `*` for a star and `.` for an empty cell.

    6 6 1
    1 1 2 2 2 2
    1 2 2 4 5 2
    1 2 2 4 5 5
    3 3 4 4 6 5
    3 4 4 6 6 5
    3 3 3 6 6 6

A model: a boolean per cell, a `Sum` equal to k per row, column and region,
and at most one star in each 2 x 2 square (`csp.grid.windows`): two cells
touch exactly when some 2 x 2 square holds both.

>>> [puzzle] = parse("6 6 1\\n1 1 2 2 2 2\\n1 2 2 4 5 2\\n1 2 2 4 5 5\\n"
...                  "3 3 4 4 6 5\\n3 4 4 6 6 5\\n3 3 3 6 6 6\\n")
>>> import csp
>>> m = declare(puzzle)
>>> format(puzzle, decode(puzzle, csp.solve(m).solution, m)).split()
['...*..', '*.....', '.....*', '..*...', '....*.', '.*....']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp import generation, grid
from csp.constraints import Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
from csp.problems._janko import blocks, expect_rows
from csp.problems._numbers import natural
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DESCRIPTION = ("star battle: a line 'R C K' (K stars per row, column and region), then R "
               "lines of C region labels; puzzles separated by blank lines")


@dataclass(frozen=True)
class StarBattle:
    stars: int
    regions: tuple[tuple[str, ...], ...]
    """The region label of each cell, row by row."""
    line: int | None = None


Answer = tuple[str, ...]


def parse(text: str) -> list[StarBattle]:
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[StarBattle | InputError]:
    for block in blocks(text, "star battle", ("rows", "columns", "stars")):
        if isinstance(block, InputError):
            yield block
            continue
        try:
            height, width, stars = block.header
            expect_rows(block, height, "star battle")
            yield StarBattle(stars, tuple(tuple(block.row(r, width, f"row {r + 1}"))
                                          for r in range(height)), block.line)
        except InputError as err:
            yield err


def declare(puzzle: StarBattle, form: str | None = None) -> Model:
    """k stars per row, column and region; at most one in each 2 x 2 square."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for starbattle; the only form is 'model'")
    height, width = len(puzzle.regions), len(puzzle.regions[0])
    m = Model(f"star battle {height}x{width} {puzzle.stars}")
    star = {cell: m.bool(grid.name(cell)) for cell in grid.box(height, width)}
    regions: dict[str, list[grid.Cell]] = {}
    for r, c in star:
        regions.setdefault(puzzle.regions[r][c], []).append((r, c))
    for unit in grid.rows(height, width) + grid.columns(height, width) + list(regions.values()):
        m.add(Sum([star[cell] for cell in unit]) == puzzle.stars)
    for square in grid.windows(height, width):
        m.add(Sum([star[cell] for cell in square]) <= 1)
    return m


def decode(puzzle: StarBattle, solution: Mapping[Any, int], problem: Model | None = None
           ) -> Answer:
    return tuple("".join("*" if solution[grid.name(cell)] else "." for cell in row)
                 for row in grid.rows(len(puzzle.regions), len(puzzle.regions[0])))


def format(puzzle: StarBattle, answer: Answer) -> str:  # noqa: A001 - the module's printer
    return "\n".join(answer)


def draw(puzzle: StarBattle, answer: Answer | None = None, marks: Collection[grid.Cell] = ()
         ) -> str:
    """The regions as SVG, the answer's stars as `*`."""
    height, width = len(puzzle.regions), len(puzzle.regions[0])
    board = Board(height, width, title=f"star battle {height}x{width}")
    if answer is not None:
        for r, row in enumerate(answer):
            for c, x in enumerate(row):
                if x == "*":
                    board.number((r, c), "*", given=False)
    board.lines(lambda cell: puzzle.regions[cell[0]][cell[1]])
    board.marks(marks)
    return str(board)


def cells(puzzle: StarBattle, answer: Sequence[str]) -> dict[grid.Cell, str]:
    """`*` or `.` for every cell."""
    return {(r, c): x for r, row in enumerate(answer) for c, x in enumerate(row)}


def format_puzzle(puzzle: StarBattle) -> str:
    """The puzzle in its input format (janko.at's layout)."""
    width = max(len(label) for row in puzzle.regions for label in row)
    return "\n".join([f"{len(puzzle.regions)} {len(puzzle.regions[0])} {puzzle.stars}",
                      *(" ".join(label.rjust(width) for label in row)
                        for row in puzzle.regions)]) + "\n"


# -- making puzzles (csp.generation) ------------------------------------------------------
# Stars placed at random row by row (backtracking), then regions grown from
# them at random, each taking k stars; the regions are the clues, all
# needed, so that a puzzle with another solution is repaired: a cell where
# the other solution has a star and this one none moves to a neighbouring
# region (the other solution then has k - 1 stars in one region), the move
# that leaves fewest solutions kept.

MAKE_MAX = 30
Made = tuple[frozenset[grid.Cell], tuple[tuple[int, ...], ...]]
"""A solution as the maker keeps it: the stars, and each cell's region."""


def _make_size(text: str | None) -> tuple[int, int]:
    """`--size N` (N x N, 1 star a unit below 10 cells a side, 2 from 10)
    or `N:K` (K stars)."""
    if text is None:
        return 8, 1
    side, colon, stars = text.partition(":")
    n = natural(side.strip(), "--size")
    k = natural(stars.strip(), "--size's stars") if colon else 1 if n < 10 else 2
    if k < 1 or not 4 * k + 1 <= n <= MAKE_MAX:
        raise InputError(f"--size {text}: a star battle to make is {4 * max(k, 1) + 1} to "
                         f"{MAKE_MAX} cells a side for {k} star(s) a unit (at least 4K + 1)")
    return n, k


def _place(n: int, k: int, rng: random.Random) -> frozenset[grid.Cell] | None:
    """k stars in every row and column, none touching another, drawn row by
    row at random (backtracking, at most PLACING steps); None if stuck."""
    rows: list[tuple[int, ...]] = [c for c in itertools.combinations(range(n), k)
                                   if all(b - a > 1 for a, b in zip(c, c[1:]))]
    counts = [0] * n
    chosen: list[tuple[int, ...]] = []
    options: list[list[tuple[int, ...]]] = []
    steps = 0
    while len(chosen) < n:
        steps += 1
        if steps > PLACING:
            return None
        r = len(chosen)
        if len(options) == r:
            above = set(chosen[-1]) if chosen else set()
            left = n - r - 1  # rows below this one
            fits = [row for row in rows
                    if not any(abs(c - a) <= 1 for c in row for a in above)
                    and all(counts[c] < k for c in row)]
            # Each column's stars still wanted must fit the rows left (never two adjacent).
            fits = [row for row in fits
                    if all(k - counts[c] - (c in row) <= (left + 1) // 2 for c in range(n))]
            rng.shuffle(fits)
            options.append(fits)
        if options[r]:
            row = options[r].pop()
            chosen.append(row)
            for c in row:
                counts[c] += 1
            continue
        options.pop()
        if not chosen:
            return None
        for c in chosen.pop():
            counts[c] -= 1
    return frozenset((r, c) for r, row in enumerate(chosen) for c in row)


PLACING = 20_000
"""The most steps of one placement of stars before it starts again."""


def _neighbours(cell: grid.Cell, n: int) -> list[grid.Cell]:
    r, c = cell
    return [(i, j) for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= i < n and 0 <= j < n]


def _grow(n: int, k: int, stars: frozenset[grid.Cell], rng: random.Random
          ) -> dict[grid.Cell, int] | None:
    """n connected regions of k stars each, grown at random from n of the
    stars; None if a star is left that no region can take."""
    seeds = rng.sample(sorted(stars), n)
    owner = {star: region for region, star in enumerate(seeds)}
    held = [1] * n
    while len(owner) < n * n:
        frontier = sorted({(other, owner[cell]) for cell in owner
                           for other in _neighbours(cell, n) if other not in owner
                           and (other not in stars or held[owner[cell]] < k)})
        if not frontier:
            return None
        cell, region = rng.choice(frontier)
        owner[cell] = region
        held[region] += cell in stars
    return owner


def _make_solution(size: tuple[int, int], rng: random.Random) -> Made:
    n, k = size
    while True:
        stars = _place(n, k, rng)
        if stars is None:
            continue
        owner = _grow(n, k, stars, rng)
        if owner is not None:
            return stars, tuple(tuple(owner[r, c] for c in range(n)) for r in range(n))


def _make_puzzle(size: tuple[int, int], made: Made, clues: object = ()) -> StarBattle:
    return StarBattle(size[1], tuple(tuple(str(region + 1) for region in row)
                                     for row in made[1]))


def _kind_answer(size: tuple[int, int], made: Made) -> Answer:
    n = size[0]
    return tuple("".join("*" if (r, c) in made[0] else "." for c in range(n)) for r in range(n))


def _connected(cells: set[grid.Cell], n: int) -> bool:
    if not cells:
        return False
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        for other in _neighbours(stack.pop(), n):
            if other in cells and other not in seen:
                seen.add(other)
                stack.append(other)
    return len(seen) == len(cells)


def _repair(size: tuple[int, int], made: Made, other: Mapping[grid.Cell, str],
            rng: random.Random) -> list[Made]:
    """Regions that each move one cell, a star of the other solution and not
    of this one, to a neighbouring region (both staying connected)."""
    n = size[0]
    stars, regions = made
    candidates = sorted(cell for cell, x in other.items() if x == "*" and cell not in stars)
    offered = []
    for r, c in rng.sample(candidates, len(candidates)):
        mine = regions[r][c]
        rest: set[grid.Cell] = {(i, j) for i in range(n) for j in range(n)
                                if regions[i][j] == mine and (i, j) != (r, c)}
        targets = sorted({regions[i][j] for i, j in _neighbours((r, c), n)} - {mine})
        if not targets or not _connected(rest, n):
            continue
        moved = [list(row) for row in regions]
        moved[r][c] = rng.choice(targets)
        offered.append((stars, tuple(map(tuple, moved))))
        if len(offered) == TRIES:
            break
    return offered


TRIES = 6
"""The repairs offered at a time."""


MAKER = generation.Maker(
    sizes=f"N (N x N, 1 star a unit below 10, 2 from 10) or N:K (K stars a unit), N from "
          f"4K + 1 to {MAKE_MAX}; default 8",
    size=_make_size, solution=_make_solution, clues=lambda size, made: [],
    puzzle=_make_puzzle, repair=_repair, kind_answer=_kind_answer,
    uniformity="stars placed row by row at random (backtracking), regions grown from them at "
               "random, then cells moved between regions where another solution differs, "
               "the move that leaves fewest solutions kept: not uniform",
)


KIND = Kind(name="starbattle", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, draw=draw, cells=cells,
            format_puzzle=format_puzzle, maker=MAKER)
