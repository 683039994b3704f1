"""Lattice Practices (ACM ICPC Asia Regional Tokyo 1998, problem B), generalised.

2n boards, each with n notches, are slotted into a lattice: n vertical boards
(slots `V0..V{n-1}`, left to right) cross n horizontal ones (`H0..H{n-1}`,
top to bottom) at n x n points. A notch is deep (`0`) or shallow (`1`); at
every crossing one board must be deep and the other shallow. A board may be
used either side up, so a board equals its reverse. The question is the
number of *essentially different* lattices (docs/developing/problems.md section 7): lattices
equal under mirroring, rotation by 180 degrees, or turning over (which
exchanges the vertical and horizontal boards) are one. Boards with the same
notches (up to reversal) are interchangeable, so a lattice is its matrix of
notches.

Glossary: a *pattern* is a board's notches read in the direction it is slotted
in; the *notch matrix* `M[i][j]` is the notch of vertical board i at its
crossing with horizontal board j (that board has `1 - M[i][j]` there). The
symmetries act on M as the square's 8: reversing i, reversing j, and the
transposition with complement `M'[i][j] = 1 - M[j][i]` (turning over). A
*type* is a class of boards with the same notches up to reversal, named by its
first board in input order.

Input (contest format): each data set is 2n strings of n `0`/`1` characters
separated by white space anywhere (line breaks included); a line `END` ends
the input. Output: one count per data set.

Both declarations treat the boards as a multiset of types, so that each notch
matrix is exactly one solution: exchanging two boards of one type is not a
symmetry to divide out (with ten equal boards there would be 10! of them), and
the symmetry group is just the lattice's 8 moves.

- `form="exact-cover"` (the default): primary items, the boards `b{b}` of a
  type of one board, the types `t{b}` of several boards, and the slots;
  secondary items, the crossings `x{i},{j}` coloured with `M[i][j]` and, when a
  type has several boards, each slot's type `k{slot}` coloured with the type.
  One option per type, slot and pattern, carrying `(type, slot, pattern)`;
  and for a type of k > 1 boards, one option per set of k slots it takes,
  carrying `(type, slots, None)`.
- `form="model"`: a variable per slot whose value `2 b + r` is type b, reversed
  if r = 1; a binary table between every two slots (opposite notches where they
  cross, and different types where a type has one board); for a type of k > 1
  boards, a 0/1 variable per slot (it holds the type) and their sum is k.

>>> [one, two] = parse(SAMPLE)
>>> one.n, len(one.boards)
(5, 10)
>>> xc = declare(one)
>>> group = symmetry(one, xc)
>>> len(group)
8
>>> import csp
>>> csp.count(xc, up_to_symmetry=group).count
40
>>> model = declare(two, "model")
>>> csp.count(model, up_to_symmetry=symmetry(two, model)).count
6
>>> csp.count(model, up_to_symmetry=True).count    # `symmetry` declared the group on model
6

Five boards `11111` and five `00000` make two notch matrices (all shallow
vertical boards, or all deep), which turning over exchanges: one lattice.

>>> [same] = parse("11111 " * 5 + "00000 " * 5)
>>> xc = declare(same)
>>> csp.count(xc).count, csp.count(xc, up_to_symmetry=symmetry(same, xc)).count
(2, 1)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csp.constraints import Sum, Table
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import every
from csp.problems.kind import Kind
from csp.problems.pictures import MARGIN, Svg
from csp.symmetry import Group, induced

FORMS = ("exact-cover", "model")
DEFAULT_FORM = "exact-cover"
PARSE_OPTIONS: tuple[str, ...] = ()
UP_TO_SYMMETRY = True
"""The answer to a data set is its number of solutions up to `symmetry`."""

DESCRIPTION = (
    "Lattice Practices: data sets of 2n boards of n notches ('0' deep, '1' shallow), "
    "white space anywhere, 'END' ends; prints the number of essentially different lattices"
)

SAMPLE = """\
10000 01000 00100 11000 01100 11111 01110 11100 10110 11110
10101 01000 00000 11001 01100 11101 01110 11100 10110 11010
END
"""
"""The problem statement's sample: the answers are 40 and 6."""

MAX_PLACEMENTS = 200_000
"""The most ways the boards of one type may take their slots (one option each)."""


@dataclass(frozen=True)
class Lattice:
    """One data set: 2n boards of n notches, as given."""

    boards: tuple[str, ...]
    line: int | None = None

    @property
    def n(self) -> int:
        return len(self.boards[0])

    def patterns(self, b: int) -> tuple[str, ...]:
        """The distinct ways board b can be slotted in: as given, and reversed."""
        board = self.boards[b]
        return (board,) if board == board[::-1] else (board, board[::-1])

    def types(self) -> dict[int, tuple[int, ...]]:
        """The boards by type (the same notches, up to reversal): the first board
        of each type -> all its boards, in input order.

        >>> Lattice(("011", "110", "101", "010", "101", "000")).types()
        {0: (0, 1), 2: (2, 4), 3: (3,), 5: (5,)}
        """
        found: dict[str, list[int]] = {}
        for b, board in enumerate(self.boards):
            found.setdefault(min(board, board[::-1]), []).append(b)
        return {boards[0]: tuple(boards) for boards in found.values()}


Slot = tuple[str, int]
"""`("V", i)` or `("H", j)`."""

Answer = dict[Slot, tuple[int, str]]
"""Each slot's board (0-based, in input order) and pattern."""


# -- reading -------------------------------------------------------------------------------


def parse(text: str) -> list[Lattice]:
    """Every data set of `text`; a bad one raises `InputError`."""
    return every(puzzles(text))


def puzzles(text: str) -> Iterator[Lattice | InputError]:
    """Each data set, or the `InputError` of a bad one (reading resumes on the
    next line)."""
    boards: list[str] = []
    first_line: int | None = None
    skip_line: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() == "END":
            break
        for token in raw.split():
            if number == skip_line:
                continue
            error = _bad_token(token, boards, number)
            if error is not None:
                yield error
                boards, skip_line = [], number
                continue
            if not boards:
                first_line = number
            boards.append(token)
            if len(boards) == 2 * len(boards[0]):
                yield _data_set(tuple(boards), first_line)
                boards = []
    if boards:
        yield InputError(f"the data set has {len(boards)} boards; boards of "
                         f"{len(boards[0])} notches come {2 * len(boards[0])} to a data set",
                         line=first_line)


def _data_set(boards: tuple[str, ...], line: int | None) -> Lattice | InputError:
    # Checked here, not when declaring, so that the data set is reported as
    # bad with its line and the others are still solved.
    puzzle = Lattice(boards, line)
    for rep, same in puzzle.types().items():
        ways = math.comb(len(boards), len(same))
        if ways > MAX_PLACEMENTS:
            return InputError(f"{len(same)} of the {len(boards)} boards are {boards[rep]!r} (up "
                              f"to reversal): their {ways:,} ways to take the slots are too many "
                              f"(at most {MAX_PLACEMENTS:,})", line=line)
    return puzzle


def _bad_token(token: str, boards: list[str], number: int) -> InputError | None:
    if set(token) - {"0", "1"}:
        bad = next(ch for ch in token if ch not in "01")
        return InputError(f"board {token!r}: notch {bad!r} is neither '0' (deep) nor "
                          "'1' (shallow)", line=number, token=token)
    if boards and len(token) != len(boards[0]):
        return InputError(f"board {token!r} has {len(token)} notches, the data set's first "
                          f"board has {len(boards[0])}", line=number, token=token)
    return None


# -- declaring -------------------------------------------------------------------------------


def slots(n: int) -> list[Slot]:
    return [("V", i) for i in range(n)] + [("H", j) for j in range(n)]


def declare(puzzle: Lattice, form: str | None = None) -> ExactCover | Model:
    """The exact cover (default) or the model of a data set."""
    if form in (None, "exact-cover"):
        return declare_exact_cover(puzzle)
    if form == "model":
        return declare_model(puzzle)
    raise InputError(f"unknown form {form!r} for lattice; the forms are: {', '.join(FORMS)}")


def _crossings(slot: Slot, pattern: str) -> list[tuple[tuple[int, int], int]]:
    """The crossings a board in `slot` meets, each with `M[i][j]` it implies."""
    kind, k = slot
    n = len(pattern)
    if kind == "V":
        return [((k, j), int(pattern[j])) for j in range(n)]
    return [((i, k), 1 - int(pattern[i])) for i in range(n)]


def declare_exact_cover(puzzle: Lattice) -> ExactCover:
    n = puzzle.n
    types = puzzle.types()
    shared = {rep for rep, boards in types.items() if len(boards) > 1}
    board_items = [f"t{rep}" if rep in shared else f"b{rep}" for rep in types]
    slot_types = [f"k{_var(slot)}" for slot in slots(n)] if shared else []
    xc = ExactCover(board_items + [_var(slot) for slot in slots(n)],
                    [f"x{i},{j}" for i in range(n) for j in range(n)] + slot_types,
                    name="lattice")
    for rep in types:
        board = [] if rep in shared else [f"b{rep}"]
        for slot in slots(n):
            # The slot's type: a type of several boards takes its slots with one
            # option below, so that any other type's placement there conflicts.
            slot_type = [(f"k{_var(slot)}", rep)] if shared else []
            for pattern in puzzle.patterns(rep):
                xc.add_option([*board, _var(slot),
                               *((f"x{i},{j}", m) for (i, j), m in _crossings(slot, pattern)),
                               *slot_type], (rep, slot, pattern))
    for rep in types:
        if rep in shared:
            for taken in itertools.combinations(slots(n), len(types[rep])):
                xc.add_option([f"t{rep}", *((f"k{_var(slot)}", rep) for slot in taken)],
                              (rep, taken, None))
    return xc


def declare_model(puzzle: Lattice) -> Model:
    n = puzzle.n
    types = puzzle.types()
    alone = {rep for rep, boards in types.items() if len(boards) == 1}
    m = Model(name="lattice")
    values = _values(puzzle)
    for slot in slots(n):
        m.var(_var(slot), values)
    for s, t in itertools.combinations(slots(n), 2):
        allowed = [(u, v) for u in values for v in values if _fits(puzzle, alone, s, u, t, v)]
        m.add(Table([_var(s), _var(t)], allowed))
    for rep, boards in types.items():
        if rep in alone:
            continue
        for slot in slots(n):
            m.var(_holds(slot, rep), (0, 1))
            m.add(Table([_var(slot), _holds(slot, rep)], [(v, int(v // 2 == rep)) for v in values]))
        m.add(Sum([_holds(slot, rep) for slot in slots(n)]) == len(boards))
    return m


def _values(puzzle: Lattice) -> list[int]:
    return [2 * b + r for b in puzzle.types() for r in range(len(puzzle.patterns(b)))]


def _var(slot: Slot) -> str:
    return f"{slot[0]}{slot[1]}"


def _holds(slot: Slot, rep: int) -> str:
    """The 0/1 variable: `slot` holds a board of type `rep`."""
    return f"{_var(slot)}:t{rep}"


def _pattern(puzzle: Lattice, value: int) -> str:
    b, r = divmod(value, 2)
    return puzzle.patterns(b)[r]


def _fits(puzzle: Lattice, alone: set[int], s: Slot, u: int, t: Slot, v: int) -> bool:
    if u // 2 == v // 2 and u // 2 in alone:
        return False  # one board in two slots
    meets = dict(_crossings(s, _pattern(puzzle, u)))
    return all(meets.get(cell, m) == m for cell, m in _crossings(t, _pattern(puzzle, v)))


# -- symmetry --------------------------------------------------------------------------------


def symmetry(puzzle: Lattice, problem: ExactCover | Model | None = None) -> Group:
    """The lattice's 8 symmetries (mirroring, rotating by 180 degrees, turning
    over) as a group on `problem`, declared as its symmetry (`problem.symmetry`).
    Exchanging boards of one type is no symmetry here: the declarations already
    have one solution per notch matrix."""
    if problem is None:
        problem = declare(puzzle)
    n = puzzle.n
    moves = [_mirror(n), _flip(n), _turn_over(n)]
    gens: list[Any]
    if isinstance(problem, ExactCover):
        gens = [induced(problem, _item_map(move), _colour_map(move)) for move in moves]
    else:
        gens = [_pair_map(puzzle, problem, move) for move in moves]
    return Group(problem, gens).attach()


@dataclass(frozen=True)
class _Move:
    """A symmetry of the notch matrix: (i, j) -> (i', j'), with complement when
    it exchanges vertical and horizontal."""

    n: int
    reverse_i: bool = False
    reverse_j: bool = False
    transpose: bool = False

    def cell(self, i: int, j: int) -> tuple[int, int]:
        if self.reverse_i:
            i = self.n - 1 - i
        if self.reverse_j:
            j = self.n - 1 - j
        return (j, i) if self.transpose else (i, j)

    def slot(self, slot: Slot, pattern: str) -> tuple[Slot, str]:
        """Where a board in `slot` goes, and its new pattern."""
        kind, k = slot
        along = self.reverse_j if kind == "V" else self.reverse_i
        across = self.reverse_i if kind == "V" else self.reverse_j
        k = self.n - 1 - k if across else k
        pattern = pattern[::-1] if along else pattern
        if self.transpose:
            kind = "H" if kind == "V" else "V"
        return (kind, k), pattern


def _mirror(n: int) -> _Move:
    return _Move(n, reverse_i=True)


def _flip(n: int) -> _Move:
    # With mirroring, this makes the rotation by 180 degrees.
    return _Move(n, reverse_j=True)


def _turn_over(n: int) -> _Move:
    return _Move(n, transpose=True)


def _item_map(move: _Move) -> Any:
    def image(name: Hashable) -> Hashable:
        text = str(name)
        if text[0] == "x":
            i, j = move.cell(*map(int, text[1:].split(",")))
            return f"x{i},{j}"
        if text[0] in "VH":
            return _var(move.slot((text[0], int(text[1:])), "")[0])
        if text[0] == "k":  # a slot's type goes with the slot
            return "k" + str(image(text[1:]))
        return name
    return image


def _colour_map(move: _Move) -> Any:
    # Turning over complements the notch matrix; a slot's type stays.
    if not move.transpose:
        return None
    return lambda item, colour: 1 - colour if str(item)[0] == "x" else colour


def _pair_map(puzzle: Lattice, m: Model, move: _Move) -> dict[tuple[str, int], tuple[str, int]]:
    shared = [rep for rep, boards in puzzle.types().items() if len(boards) > 1]
    mapping = {}
    for slot in slots(puzzle.n):
        for value in m.variables[_var(slot)].domain:
            b = value // 2
            target, pattern = move.slot(slot, _pattern(puzzle, value))
            mapping[(_var(slot), value)] = (_var(target), 2 * b + puzzle.patterns(b).index(pattern))
        for rep in shared:
            for holds in (0, 1):
                mapping[(_holds(slot, rep), holds)] = (_holds(target, rep), holds)
    return mapping


# -- answers ---------------------------------------------------------------------------------


def decode(puzzle: Lattice, solution: Sequence[int] | Mapping[Any, int],
           problem: ExactCover | Model | None = None) -> Answer:
    """Each slot's board and pattern; the boards of one type go to its slots in
    slot order."""
    placed: dict[Slot, tuple[int, str]] = {}
    if isinstance(solution, Mapping):
        for slot in slots(puzzle.n):
            value = solution[_var(slot)]
            placed[slot] = (value // 2, _pattern(puzzle, value))
    else:
        xc = problem if isinstance(problem, ExactCover) else declare_exact_cover(puzzle)
        for k in solution:
            rep, slot, pattern = xc.data[k]
            if pattern is not None:  # not the choice of a type's slots
                placed[slot] = (rep, pattern)
    boards = {rep: iter(same) for rep, same in puzzle.types().items()}
    answer: Answer = {}
    for slot in slots(puzzle.n):
        rep, pattern = placed[slot]
        answer[slot] = (next(boards[rep]), pattern)
    return answer


def notches(puzzle: Lattice, answer: Answer) -> list[str]:
    """The notch matrix: row i is the pattern of vertical board i."""
    return [answer[("V", i)][1] for i in range(puzzle.n)]


def format(puzzle: Lattice, answer: Answer) -> str:  # noqa: A001 - the module's printer
    """A lattice: each slot with its board (1-based) and the pattern slotted in.

    >>> [puzzle] = parse("01 10 01 10")
    >>> answer = {("V", 0): (0, "01"), ("V", 1): (2, "01"), ("H", 0): (1, "10"),
    ...           ("H", 1): (3, "01")}
    >>> print(format(puzzle, answer))
    V0 board 1 01
    V1 board 3 01
    H0 board 2 10
    H1 board 4 01
    """
    return "\n".join(f"{kind}{k} board {answer[(kind, k)][0] + 1} {answer[(kind, k)][1]}"
                     for kind, k in slots(puzzle.n))


def format_puzzle(puzzle: Lattice) -> str:
    return " ".join(puzzle.boards)


# -- pictures ---------------------------------------------------------------------------------

VERTICAL, HORIZONTAL = "#c08a4f", "#7a9cc6"
"""The colours of the vertical and the horizontal boards."""


def draw(puzzle: Lattice, answer: Answer | None = None, marks: Collection[Slot] = ()) -> str:
    """A lattice as SVG, seen from above: the vertical boards (numbered at the
    top) woven with the horizontal ones (numbered at the left); at each
    crossing the board with the shallow notch is drawn over the other. The
    boards alone, their notches cut deep or shallow, without an answer."""
    if answer is None:
        return _boards(puzzle)
    n = puzzle.n
    step, width = 44, 14
    svg = Svg(2 * MARGIN + (n + 0.6) * step, 2 * MARGIN + (n + 0.6) * step,
              f"lattice of {2 * n} boards")
    at = [MARGIN + (k + 1) * step for k in range(n)]
    low, high = MARGIN + step * 0.55, MARGIN + (n + 0.45) * step
    marked = set(marks)

    def board(kind: str, k: int, start: float, end: float) -> None:
        fill = VERTICAL if kind == "V" else HORIZONTAL
        edge = "#e8413c" if (kind, k) in marked else "#333333"
        x, y, w, h = ((at[k] - width / 2, start, width, end - start) if kind == "V"
                      else (start, at[k] - width / 2, end - start, width))
        svg.rect(x, y, w, h, fill=fill, stroke=edge, stroke_width=1.5)

    for j in range(n):
        board("H", j, low, high)
    for i in range(n):
        board("V", i, low, high)
    matrix = notches(puzzle, answer)
    for i in range(n):
        for j in range(n):
            if matrix[i][j] == "0":  # the vertical board's notch is deep: the horizontal is over
                x0, x1, y = at[i] - width / 2 - 1, at[i] + width / 2 + 1, at[j] - width / 2
                svg.rect(x0, y, x1 - x0, width, fill=HORIZONTAL)
                edge = "#e8413c" if ("H", j) in marked else "#333333"
                for side in (y, y + width):
                    svg.line(x0, side, x1, side, 1.5, colour=edge, stroke_linecap="butt")
    for k in range(n):
        svg.text(at[k], MARGIN + step * 0.3, str(answer[("V", k)][0] + 1), size=12)
        svg.text(MARGIN + step * 0.3, at[k], str(answer[("H", k)][0] + 1), size=12)
    return str(svg)


def _boards(puzzle: Lattice) -> str:
    """The boards of a data set, each a bar with its notches: deep (0) cut
    two thirds in, shallow (1) a quarter."""
    n = puzzle.n
    pitch, height, notch = 26, 18, 8
    svg = Svg(2 * MARGIN + 70 + (n + 1) * pitch, 2 * MARGIN + len(puzzle.boards) * (height + 10),
              f"{len(puzzle.boards)} lattice boards")
    for b, pattern in enumerate(puzzle.boards):
        x, y = MARGIN + 70, MARGIN + b * (height + 10)
        svg.text(MARGIN, y + height / 2, f"board {b + 1}", size=12, anchor="start")
        svg.rect(x, y, (n + 1) * pitch, height, fill=VERTICAL, stroke="#333333",
                 stroke_width=1.5)
        for k, depth in enumerate(pattern):
            cut = height * (2 / 3 if depth == "0" else 1 / 4)
            svg.rect(x + (k + 1) * pitch - notch / 2, y - 1, notch, cut + 1, fill="white",
                     stroke="#333333", stroke_width=1.0)
    return str(svg)


def cells(puzzle: Lattice, answer: Answer) -> dict[Slot, tuple[int, str]]:
    """Each slot's board and pattern."""
    return dict(answer)


KIND = Kind(name="lattice", description=DESCRIPTION, parse=puzzles, declare=declare,
            decode=decode, format=format, forms=FORMS, symmetry=symmetry,
            up_to_symmetry=UP_TO_SYMMETRY, format_puzzle=format_puzzle, draw=draw, cells=cells)
