r"""Kakuro (cross sums): fill the white cells with digits 1..9 so that every
*run* (a maximal line of white cells across or down) has all-different
digits adding up to its *clue*.

Two input formats, told apart by the first line:

- *algospot* (docs/developing/problems.md section 3): `T`, then per case `n`, n rows of n
  integers (1 white, 0 black), `q`, and q hints `r c d s` (1-based black cell,
  d = 0 for the run to its right, 1 for the run below it, s its sum);
- *grid*: one line per row of tokens separated by spaces: `#` black, `.`
  white, `D\A` a clue cell whose D is the sum of the run below it and A of the
  run to its right (either may be empty: `23\`, `\16`). Puzzles are separated
  by blank lines.

Output: an algospot case as that format has it: one line per row, integers
separated by single spaces, the digit of each white cell and 0 for every
other cell; a grid as it was read, the digits in its white cells (`#` and
the clues kept, columns aligned), grids separated by blank lines.

>>> [puzzle] = parse("# 4\\ 3\\\n\\4 . .\n\\3 . .")
>>> [(run.total, run.cells) for run in puzzle.runs]
[(4, ((1, 1), (1, 2))), (3, ((2, 1), (2, 2))), (4, ((1, 1), (2, 1))), (3, ((1, 2), (2, 2)))]
>>> declare(puzzle)
<Model 'kakuro 3x3': 4 variables, 8 constraints>
>>> print(format(puzzle, {(1, 1): 3, (1, 2): 1, (2, 1): 1, (2, 2): 2}))
 # 4\ 3\
\4  3  1
\3  1  2
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from csp import generation
from csp.constraints import AllDifferent, Sum
from csp.errors import InputError
from csp.model import Model
from csp.problems import every
from csp.problems._numbers import integer, is_integer, is_natural, natural, short
from csp.problems.kind import Kind
from csp.problems.pictures import Board

FORMS = ("model",)
DEFAULT_FORM = "model"
PARSE_OPTIONS: tuple[str, ...] = ()

DESCRIPTION = (
    "algospot KAKURO2 (T; n; n rows of 0/1; q; q hints 'r c d s') or a grid of "
    "'#' black, '.' white, 'D\\A' clue cells, one row per line; detected automatically"
)

Cell = tuple[int, int]
ACROSS, DOWN = 0, 1


@dataclass(frozen=True)
class Run:
    """A maximal line of white cells; `total` is its clue (None: no clue)."""

    cells: tuple[Cell, ...]
    total: int | None
    direction: int  # ACROSS or DOWN


@dataclass(frozen=True)
class Kakuro:
    """A puzzle: the white cells, and each clue `(r, c, direction, sum)` (0-based)."""

    rows: int
    cols: int
    white: frozenset[Cell]
    hints: tuple[tuple[int, int, int, int], ...]
    runs: tuple[Run, ...]
    layout: str = "grid"  # "grid" or "algospot"
    line: int | None = None


Answer = dict[Cell, int]
"""The digit of every white cell."""


# -- reading -------------------------------------------------------------------------


MAX_SIZE = 1000
"""The largest algospot grid side read; real kakuros are a few dozen cells wide."""


def parse(text: str) -> list[Kakuro]:
    """Every puzzle in `text` (either format); the first bad one raises `InputError`."""
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Kakuro | InputError]:
    """Each puzzle of `text`, or the `InputError` saying why it is bad (with its
    line). The next grid, or the next algospot case, is still read: an
    algospot case's rows end at its hint count and its hints at the next
    case's size, whatever is wrong inside."""
    lines = [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), start=1)]
    content = [(n, line) for n, line in lines if line]
    if not content:
        return
    if is_natural(content[0][1]):
        yield from _algospot(content)
    else:
        yield from _grids(lines)


def _ints(number: int, line: str, count: int | None, what: str) -> list[int]:
    tokens = line.split()
    if count is not None and len(tokens) != count:
        raise InputError(f"{what}: expected {count} integer{'s' * (count != 1)}, found "
                         f"{len(tokens)}: {line!r}",
                         line=number, token=line)
    try:
        return [integer(t, f"{what}:") for t in tokens]
    except InputError as err:
        raise err.located(line=number) from None


def _lone(line: str) -> bool:
    """Whether `line` is one integer: a count or a size, not a row or a hint."""
    tokens = line.split()
    return len(tokens) == 1 and is_integer(tokens[0])


def _algospot(content: list[tuple[int, str]]) -> Iterator[Kakuro | InputError]:
    """Each case of the file. A bad case is reported with the line at fault and
    the reading goes on with the next case as long as the case's layout (the
    size line, n rows, the hint count, that many hints) can still be delimited;
    when it cannot, the error ends the file."""
    number, line = content[0]
    try:
        [cases] = _ints(number, line, 1, "number of cases")
    except InputError as err:
        yield err
        return
    at = 1
    for case in range(1, cases + 1):
        if at >= len(content):
            yield InputError(f"the input ends after {case - 1} of the {cases} cases that line "
                             f"{number} announces", line=number)
            return
        item, next_at = _case(content, at, case)
        yield item
        if next_at is None:
            return
        at = next_at
    if at < len(content):
        extra, text = content[at]
        yield InputError(f"{text!r} follows the {cases} cases that line {number} announces",
                         line=extra, token=text)


def _case(content: list[tuple[int, str]], at: int, case: int
          ) -> tuple[Kakuro | InputError, int | None]:
    """Case `case`, starting at `content[at]`, and where the next case starts
    (None: the case cannot be delimited, so no later case can be found)."""
    errors: list[InputError] = []  # the first is reported
    start, line = content[at]
    try:
        [n] = _ints(start, line, 1, f"case {case}: grid size")
    except InputError as err:
        return err, None
    if n < 0:
        return InputError(f"case {case}: grid size {n}", line=start, token=n), None
    if n > MAX_SIZE:
        return InputError(f"case {case}: grid size {n:,} is over the maximum of {MAX_SIZE:,}",
                          line=start, token=n), None
    if n == 0:
        errors.append(InputError(f"case {case}: grid size 0", line=start, token=0))
    # The rows: n lines of n integers. A lone integer where a row should be
    # (n > 1) is the hint count after too few rows; more rows of n integers
    # before the hint count are too many. Either way the case still ends.
    at += 1
    rows: list[tuple[int, str]] = []
    while at < len(content) and not (len(rows) == n or (n > 1 and _lone(content[at][1]))):
        rows.append(content[at])
        at += 1
    if len(rows) < n and at < len(content):
        errors.append(InputError(f"case {case} has {len(rows)} rows, its size line {start} "
                                 f"says {n}: line {content[at][0]} is not a row of {n} "
                                 "integers", line=content[at][0]))
    while at < len(content) and n > 1 and len(content[at][1].split()) == n:
        if len(rows) == n:
            errors.append(InputError(f"case {case} has more than the {n} rows its size line "
                                     f"{start} says", line=content[at][0]))
        rows.append(content[at])
        at += 1
    if at >= len(content):
        ended = InputError(f"case {case}: the input ends before the number of hints of the "
                           f"case starting on line {start}", line=start)
        return (errors[0] if errors else ended), None
    grid = []
    for r, (number, line) in enumerate(rows[:n]):
        try:
            row = _ints(number, line, n, f"case {case}, row {r + 1}")
        except InputError as err:
            errors.append(err)
            continue
        for c, v in enumerate(row):
            if v not in (0, 1):
                errors.append(InputError(f"case {case}, row {r + 1}, column {c + 1}: {v} is "
                                         "not 0 (black) or 1 (white)", line=number, token=v))
        grid.append(row)
    number, line = content[at]
    try:
        [q] = _ints(number, line, 1, f"case {case}: number of hints")
        if q < 0:
            raise InputError(f"case {case}: {q} hints", line=number, token=q)
    except InputError as err:
        # Without the hint count the case has no end: nothing after it can be read.
        return (errors[0] if errors else err), None
    count_line = number
    at += 1
    hints = []
    for k in range(q):
        if at >= len(content):
            return InputError(f"case {case}: the input ends after {k} of the {q} hints that "
                              f"line {count_line} announces", line=count_line), None
        number, line = content[at]
        if _lone(line):
            # A lone integer: the next case's size, so this case has fewer hints
            # than announced; resume there.
            errors.append(InputError(f"case {case}: line {count_line} announces {q} hints but "
                                     f"only {k} follow (a hint is 'r c d s')", line=count_line))
            return errors[0], at
        at += 1
        try:
            r, c, d, s = _ints(number, line, 4, f"case {case}: hint 'r c d s'")
        except InputError as err:
            errors.append(err)
            continue
        hints.append((number, r - 1, c - 1, d, s))
    # More hints than announced: the case ends at the next lone integer.
    if at < len(content) and len(content[at][1].split()) == 4:
        errors.append(InputError(f"case {case}: line {count_line} announces {q} hints but more "
                                 "follow", line=content[at][0]))
        while at < len(content) and len(content[at][1].split()) == 4:
            at += 1
    if errors:
        return errors[0], at
    white = frozenset((r, c) for r in range(n) for c in range(n) if grid[r][c])
    try:
        return _build(n, n, white, hints, "algospot", start), at
    except InputError as err:
        return (err if err.line is not None else err.located(line=start)), at


def _grids(lines: list[tuple[int, str]]) -> Iterator[Kakuro | InputError]:
    block: list[tuple[int, str]] = []
    for number, line in [*lines, (0, "")]:
        if line:
            block.append((number, line))
        elif block:
            try:
                yield _grid(block)
            except InputError as err:
                yield err if err.line is not None else err.located(line=block[0][0])
            block = []


def _grid(block: list[tuple[int, str]]) -> Kakuro:
    cols = len(block[0][1].split())
    white = set()
    hints = []
    for r, (number, line) in enumerate(block):
        tokens = line.split()
        if len(tokens) != cols:
            raise InputError(f"row {r + 1} has {len(tokens)} cells, the first row has {cols}: "
                             "the grid is not rectangular", line=number)
        for c, token in enumerate(tokens):
            if token == ".":
                white.add((r, c))
            elif token != "#":
                down, slash, across = token.partition("\\")
                if not slash or not all(p == "" or is_natural(p) for p in (down, across)):
                    raise InputError(f"row {r + 1}, column {c + 1}: {short(token)!r} is not '#', "
                                     "'.' or a clue 'D\\A'", line=number, token=token)
                try:
                    if across:
                        hints.append((number, r, c, ACROSS, natural(across, "clue")))
                    if down:
                        hints.append((number, r, c, DOWN, natural(down, "clue")))
                except InputError as err:
                    raise err.located(line=number) from None
    return _build(len(block), cols, frozenset(white), hints, "grid", block[0][0])


def _build(rows: int, cols: int, white: frozenset[Cell],
           hints: list[tuple[int, int, int, int, int]], layout: str, line: int) -> Kakuro:
    """Find the runs and attach each hint to the run it names."""
    runs: dict[tuple[int, int, int], list[Cell]] = {}  # (r, c, direction) of the cell before
    for direction, (dr, dc) in ((ACROSS, (0, 1)), (DOWN, (1, 0))):
        for r, c in sorted(white):
            if (r - dr, c - dc) in white:
                continue
            cells: list[Cell] = []
            while (r + dr * len(cells), c + dc * len(cells)) in white:
                cells.append((r + dr * len(cells), c + dc * len(cells)))
            runs[(r - dr, c - dc, direction)] = cells
    totals: dict[tuple[int, int, int], int] = {}
    for number, r, c, d, s in hints:
        where = f"hint at row {r + 1}, column {c + 1}"
        if not (0 <= r < rows and 0 <= c < cols):
            raise InputError(f"{where} is outside the {rows}x{cols} grid", line=number)
        if (r, c) in white:
            raise InputError(f"{where} is on a white cell", line=number)
        if d not in (ACROSS, DOWN):
            raise InputError(f"{where}: direction {d} is not 0 (across) or 1 (down)",
                             line=number, token=d)
        if (r, c, d) not in runs:
            side = "to its right" if d == ACROSS else "below it"
            raise InputError(f"{where}: no white cell {side}", line=number)
        if (r, c, d) in totals:
            raise InputError(f"{where}: a second sum for the same run", line=number)
        if s < 1:
            raise InputError(f"{where}: sum {s} is not positive", line=number, token=s)
        totals[(r, c, d)] = s
    ordered = sorted(runs, key=lambda key: (key[2], key[0], key[1]))
    return Kakuro(
        rows, cols, white,
        tuple((r, c, d, s) for _, r, c, d, s in hints),
        tuple(Run(tuple(runs[k]), totals.get(k), k[2]) for k in ordered),
        layout, line,
    )


# -- declaring -----------------------------------------------------------------------


def declare(puzzle: Kakuro, form: str | None = None) -> Model:
    """A digit per white cell; every run all-different, every clued run summing to its clue."""
    if form not in (None, "model"):
        raise InputError(f"unknown form {form!r} for kakuro; the only form is 'model'")
    m = Model(f"kakuro {puzzle.rows}x{puzzle.cols}")
    cell = {rc: m.var(_name(rc), range(1, 10)) for rc in sorted(puzzle.white)}
    for run in puzzle.runs:
        digits = [cell[rc] for rc in run.cells]
        if len(digits) > 1:
            m.add(AllDifferent(digits))
        if run.total is not None:
            m.add(Sum(digits) == run.total)
    return m


# -- answers -------------------------------------------------------------------------


def _name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def decode(puzzle: Kakuro, solution: Mapping[Any, int], problem: Any = None) -> Answer:
    """The digit of each white cell, from a solution of the model."""
    return {rc: solution[_name(rc)] for rc in sorted(puzzle.white)}


def encode(puzzle: Kakuro, answer: Mapping[Cell, int], problem: Any = None) -> dict[str, int]:
    """The model solution that spells `answer` (the inverse of `decode`)."""
    return {_name(rc): answer[rc] for rc in sorted(puzzle.white)}


def format(puzzle: Kakuro, answer: Mapping[Cell, int]) -> str:  # noqa: A001
    r"""The solved grid. An algospot case prints as its format says: a line per
    row, each white cell's digit and 0 for every other cell. A grid prints as
    it was read, its dots filled: `#` a black cell, `D\A` a clue cell, the
    columns aligned.

    >>> [puzzle] = parse("1\n3\n0 0 0\n0 1 1\n0 1 1\n4\n2 1 0 4\n3 1 0 3\n1 2 1 4\n1 3 1 3")
    >>> print(format(puzzle, {(1, 1): 3, (1, 2): 1, (2, 1): 1, (2, 2): 2}))
    0 0 0
    0 3 1
    0 1 2
    """
    if puzzle.layout == "algospot":
        return "\n".join(" ".join(str(answer.get((r, c), 0)) for c in range(puzzle.cols))
                         for r in range(puzzle.rows))
    tokens = _tokens(puzzle)
    for cell, digit in answer.items():
        tokens[cell[0]][cell[1]] = str(digit)
    width = [max(len(row[c]) for row in tokens) for c in range(puzzle.cols)]
    return "\n".join(" ".join(token.rjust(w) for token, w in zip(row, width)).rstrip()
                     for row in tokens)


def _tokens(puzzle: Kakuro) -> list[list[str]]:
    """The grid's tokens: `.` white, `#` black, `D\\A` a clue cell."""
    clue: dict[Cell, list[str]] = {}
    for r, c, d, s in puzzle.hints:
        clue.setdefault((r, c), ["", ""])[d == ACROSS] = str(s)
    return [["." if (r, c) in puzzle.white else "\\".join(clue[(r, c)])
             if (r, c) in clue else "#" for c in range(puzzle.cols)]
            for r in range(puzzle.rows)]


def format_puzzle(puzzle: Kakuro) -> str:
    r"""The puzzle written back in its own format (one case for algospot).

    >>> text = "# 4\\ 3\\\n\\4 . .\n\\3 . ."
    >>> format_puzzle(parse(text)[0]) == text
    True
    """
    if puzzle.layout == "algospot":
        rows = [" ".join("1" if (r, c) in puzzle.white else "0" for c in range(puzzle.cols))
                for r in range(puzzle.rows)]
        hints = [f"{r + 1} {c + 1} {d} {s}" for r, c, d, s in puzzle.hints]
        return "\n".join(["1", str(puzzle.rows), *rows, str(len(hints)), *hints])
    return "\n".join(" ".join(row) for row in _tokens(puzzle))


def draw(puzzle: Kakuro, answer: Mapping[Cell, int] | None = None,
         marks: Collection[Cell] = ()) -> str:
    """The grid as SVG: black cells dark, a clue cell split by its diagonal
    with the sum of the run below it in the lower left and that of the run to
    its right in the upper right, the answer's digits in the white cells."""
    board = Board(puzzle.rows, puzzle.cols, title=f"kakuro {puzzle.rows}x{puzzle.cols}")
    dark = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
            if (r, c) not in puzzle.white]
    board.fill(dark, "#3a3a3a")
    clue: dict[Cell, list[str]] = {}
    for r, c, d, s in puzzle.hints:
        clue.setdefault((r, c), ["", ""])[d] = str(s)
    side = board.cell
    for cell, (across, down) in clue.items():
        x, y = board.corner_of(cell)
        board.line(x, y, x + side, y + side, 1.5, colour="#dddddd")
        if across:
            board.text(x + side * 0.7, y + side * 0.28, across, size=side * 0.3, colour="white")
        if down:
            board.text(x + side * 0.3, y + side * 0.72, down, size=side * 0.3, colour="white")
    for cell, digit in (answer or {}).items():
        board.number(cell, str(digit), given=False)
    board.lines()
    board.marks(marks)
    return str(board)


def cells(puzzle: Kakuro, answer: Mapping[Cell, int]) -> dict[Cell, int]:
    return dict(answer)


# -- making puzzles (csp.generation) ------------------------------------------------------
# A random layout of runs (2 to LONGEST cells, the pattern symmetric under a
# half turn, as published grids are), filled with random digits; the sums are
# the clues, all needed, so that a puzzle with another solution is repaired:
# digits where the two differ are drawn again.

LONGEST = 6
"""The longest run made."""
BLACK = 0.08
"""The share of cells made black at first (and their mirror images); more go
where a run would be one cell or longer than LONGEST."""
MAKE_MAX = 30


def _make_size(text: str | None) -> tuple[int, int]:
    """`--size N` (N x N) or `RxC`, counting the clue row and column."""
    if text is None:
        return 6, 6
    rows, x, cols = text.lower().partition("x")
    sides = (natural(rows.strip(), "--size"), natural((cols if x else rows).strip(), "--size"))
    if not all(3 <= side <= MAKE_MAX for side in sides):
        raise InputError(f"--size {text}: a kakuro to make is 3 to {MAKE_MAX} cells a side, "
                         "the clue row and column included")
    return sides


def _runs(white: set[Cell]) -> list[list[Cell]]:
    """The maximal runs of white cells, across then down."""
    found = []
    for dr, dc in ((0, 1), (1, 0)):
        for r, c in sorted(white):
            if (r - dr, c - dc) not in white:
                run = [(r, c)]
                while (run[-1][0] + dr, run[-1][1] + dc) in white:
                    run.append((run[-1][0] + dr, run[-1][1] + dc))
                found.append(run)
    return found


def _layout(size: tuple[int, int], rng: random.Random) -> set[Cell]:
    """White cells whose runs all have 2 to LONGEST cells."""
    rows, cols = size
    while True:
        white = {(r, c) for r in range(1, rows) for c in range(1, cols)}
        for cell in sorted(white):
            if rng.random() < BLACK:
                white -= {cell, (rows - cell[0], cols - cell[1])}
        changed = True
        while changed:
            changed = False
            for run in _runs(white):
                if len(run) == 1 or len(run) > LONGEST:
                    cell = run[0] if len(run) == 1 else rng.choice(run[1:-1])
                    white -= {cell, (rows - cell[0], cols - cell[1])}
                    changed = True
                    break
        if len(white) >= max(4, 0.6 * (rows - 1) * (cols - 1)):
            return white


def _fill(white: set[Cell], rng: random.Random, fixed: Mapping[Cell, int] | None = None
          ) -> dict[Cell, int] | None:
    """Random digits, different along every run (the cells of `fixed` kept);
    None if none fit."""
    runs = {cell: [run for run in _runs(white) if cell in run] for cell in white}
    digits = dict(fixed or {})
    todo = sorted(white - digits.keys())
    choices: list[list[int]] = []  # the digits left to try at each cell of todo so far
    at = 0
    while at < len(todo):
        cell = todo[at]
        if len(choices) == at:
            used = {digits[other] for run in runs[cell] for other in run if other in digits}
            choices.append(rng.sample([d for d in range(1, 10) if d not in used], 9 - len(used)))
        if choices[at]:
            digits[cell] = choices[at].pop()
            at += 1
            continue
        choices.pop()  # none left here: back to the cell before
        at -= 1
        if at < 0:
            return None
        del digits[todo[at]]
    return digits


def _make_solution(size: tuple[int, int], rng: random.Random) -> dict[Cell, int]:
    while True:
        filled = _fill(_layout(size, rng), rng)
        if filled is not None:
            return filled


def _make_puzzle(size: tuple[int, int], answer: Mapping[Cell, int], clues: Any) -> Kakuro:
    hints = []
    for run in _runs(set(answer)):
        (r, c), (r1, _) = run[0], run[-1]
        direction = DOWN if r1 > r else ACROSS
        before = (r - 1, c) if direction == DOWN else (r, c - 1)
        hints.append((0, *before, direction, sum(answer[cell] for cell in run)))
    return _build(*size, frozenset(answer), hints, "grid", 0)


def _repair(size: tuple[int, int], answer: dict[Cell, int], other: dict[Cell, int],
            rng: random.Random) -> list[dict[Cell, int]]:
    """Fillings that each change one digit where another solution differs
    (to one its runs do not hold yet)."""
    runs = _runs(set(answer))
    apart = [cell for cell in answer if other.get(cell) != answer[cell]]
    offered = []
    for cell in rng.sample(apart, min(len(apart), TRIES)):
        used = {answer[c] for run in runs if cell in run for c in run}
        free = [d for d in range(1, 10) if d not in used]
        if free:
            offered.append({**answer, cell: rng.choice(free)})
    return offered


TRIES = 6
"""The repairs offered at a time."""


MAKER = generation.Maker(
    sizes=f"N (N x N) or RxC, the clue row and column included (3 to {MAKE_MAX}); default 6",
    size=_make_size, solution=_make_solution, clues=lambda size, answer: [],
    puzzle=_make_puzzle, repair=_repair,
    uniformity="a random layout, digits drawn at random cell by cell (backtracking), then "
               "changed one at a time where another solution differs, the change that "
               "leaves fewest solutions kept: not uniform over kakuros",
)


KIND = Kind(name="kakuro", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, format_puzzle=format_puzzle,
            draw=draw, cells=cells, apart=lambda puzzle: puzzle.layout != "algospot",
            maker=MAKER)
