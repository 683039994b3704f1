"""Making puzzles: random full solutions, clues added and removed while the
puzzle stays unique, at a chosen difficulty (`csp.rating`).

A kind opts in by declaring a `Maker` (`Kind.maker`): what sizes it takes,
how to draw a random full solution, which clues a solution gives, how a set
of clues makes a puzzle. The search is shared (`generate`):

1. draw a random full solution;
2. add clues until the puzzle is unique: while two solutions are found, a
   clue that touches a cell where they differ (a given there rules the
   other out); a kind whose clues are all fixed (kakuro's sums) instead
   `repair`s its solution where the other one differs;
3. aiming at easy, medium or hard: add clues at random until the
   techniques of that difficulty's highest rung settle the puzzle at the
   root (`csp.rating.settles`, which also proves it unique);
4. take clues away, in random order, while the puzzle stays unique (and,
   aiming at easy to hard, settled by that rung);
5. rate it (`csp.rating.rate`): a puzzle of another difficulty than the one
   aimed at is dropped and another solution drawn;
6. prove it unique by a complete count (every solution counted, no limit).

`seed` makes it reproducible: puzzle k is drawn from `random.Random` seeded
with the text `"{seed}/{k}"` (hashed by SHA-512, the same on every machine
and Python version), so that the first puzzles of a longer run are those of
a shorter one; the backends' searches are deterministic.

>>> from csp import problems
>>> [made] = generate(problems.get("latin"), "4", seed=7)
>>> made.text.splitlines()
['...2', '....', '.1..', '2..3']
>>> made.rating.level
'singles'
"""

from __future__ import annotations

import itertools
import os
import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.rating import DIFFICULTIES, Rating
from csp.result import Status

TOP = {"easy": "singles", "medium": "intersections", "hard": "subsets"}
"""The rung of each difficulty below extreme: a puzzle aimed there must be
settled by that rung's techniques, and not by the rung below."""
BELOW = {"medium": "singles", "hard": "intersections"}
WANTED = {"easy": {"singles"}, "medium": {"intersections"}, "hard": {"subsets"},
          "extreme": {"probing", "search"}}
REPAIRS = 60
"""The most times a kind's `repair` is tried on one solution."""
CLIMB = 50
"""Repairs are compared by their puzzles' solutions, counted up to this."""
ATTEMPTS = 2_000
"""The most solutions drawn for one puzzle before `generate` gives up (a
difficulty a size cannot reach: a 4x4 Latin square is never hard)."""
UNIFORM_LIMIT = 50_000
"""The most completions `completions` lists, to draw one exactly uniformly."""


class Unreachable(InputError):
    """No puzzle of the difficulty asked for after `ATTEMPTS` solutions drawn."""


@dataclass(frozen=True)
class Maker:
    """How a kind makes puzzles. An *answer* here is the maker's own (the
    kind's answer, or more: `kind_answer` turns it into the kind's).

    - `sizes`: what `--size` takes, in words (for messages and help);
    - `size(text)`: the `--size` argument (None: the default) checked and
      read, an `InputError` for one no puzzle can have;
    - `solution(size, rng)`: a random full solution;
    - `clues(size, answer)`: every clue the solution gives, in a fixed order;
    - `puzzle(size, answer, clues)`: the puzzle those clues make;
    - `where(clue)`: the cells a clue is about (default: `clue[0]`, the
      cell of a given `(cell, value)`);
    - `start(size, answer, clues, rng)`: the clues to begin with (default
      none);
    - `fits(size, answer, clues)`: whether those clues make a well-formed
      puzzle (default: always); clues are only added or removed while it holds;
    - `repair(size, answer, other, rng)`: new solutions, each changed a
      little where the kind's `cells` of another solution (`other`) differ,
      for a kind whose clues cannot rule the other out; the one whose puzzle
      has fewest solutions is kept (a hill climb; none offered: give up);
    - `uniformity`: how uniform `solution` is, in words.
    """

    sizes: str
    size: Callable[[str | None], Any]
    solution: Callable[[Any, random.Random], Any]
    clues: Callable[[Any, Any], list[Any]]
    puzzle: Callable[[Any, Any, Sequence[Any]], Any]
    where: Callable[[Any], Iterable[Hashable]] | None = None
    start: Callable[[Any, Any, list[Any], random.Random], list[Any]] | None = None
    fits: Callable[[Any, Any, Sequence[Any]], bool] | None = None
    repair: Callable[[Any, Any, dict[Any, Any], random.Random], list[Any]] | None = None
    kind_answer: Callable[[Any, Any], Any] | None = None
    uniformity: str = ""


@dataclass
class Made:
    """A puzzle made: the puzzle, its text in the kind's input format, its
    rating, its number in the run (from 1), the solutions drawn for it and
    the seconds it took."""

    puzzle: Any
    text: str
    rating: Rating
    number: int
    attempts: int
    seconds: float


def makers() -> list[str]:
    """The kinds that make puzzles."""
    from csp import problems

    return [name for name, kind in problems.kinds().items() if kind.maker is not None]


def generate(kind: Any, size: str | None = None, *, count: int = 1, seed: int | str | None = None,
             difficulty: str | None = None, time_limit: float | None = None,
             backend: Any = "auto") -> Iterator[Made]:
    """Make `count` distinct puzzles of `kind` (a `Kind` or its name), each
    proven unique by a complete count, at `difficulty` (easy, medium, hard,
    extreme; None: any). Stops early, with what it has, after `time_limit`
    seconds (the caller sees fewer than `count`). `seed`: see the module's
    text (None: a random one; `seed_of` tells which)."""
    from csp import problems

    kind = problems.get(kind) if isinstance(kind, str) else kind
    maker = _maker(kind)
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise InputError(f"unknown difficulty {difficulty!r}; the difficulties are "
                         f"{', '.join(DIFFICULTIES)}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError(f"the count must be a whole number >= 0, not {count!r}")
    if difficulty in ("medium", "hard") and "model" not in kind.forms:
        raise InputError(f"{kind.name} puzzles are rated on their exact cover, where the "
                         "intersections and subsets of all-different constraints do not "
                         "arise: only easy and extreme puzzles can be made")
    checked = maker.size(size)
    if difficulty in ("medium", "hard"):
        _intersect(kind, maker, checked, difficulty)
    seed = seed_of(seed)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    judge = Judge(kind, backend)
    seen: set[str] = set()
    for number in range(1, count + 1):
        rng = random.Random(f"{seed}/{number}")
        begun = time.perf_counter()
        for attempt in itertools.count(1):
            if deadline is not None and time.perf_counter() > deadline:
                return
            if attempt > ATTEMPTS:
                raise Unreachable(f"no {difficulty or ''} {kind.name} puzzle made of "
                                  f"{ATTEMPTS:,} solutions drawn for puzzle {number}".replace(
                                      "  ", " "))
            made = _attempt(kind, maker, judge, checked, rng, difficulty, deadline)
            if made is None:
                continue
            puzzle, rating = made
            text = kind.format_puzzle(puzzle).rstrip("\n")
            if text in seen:
                continue
            seen.add(text)
            yield Made(puzzle, text, rating, number, attempt, time.perf_counter() - begun)
            break


def _intersect(kind: Any, maker: Maker, size: Any, difficulty: str) -> None:
    """Refuse medium where no two all-different constraints share two cells:
    intersections (locked candidates) never arise there (a Latin square's
    rows and columns meet in one cell); and hard where there is no
    all-different constraint (subsets, by matching, never arise: a
    nonogram, a star battle)."""
    from csp.constraints import AllDifferent

    answer = maker.solution(size, random.Random(0))
    model = Judge(kind, "auto").model(maker.puzzle(size, answer, []))
    units = [set(c.scope) for c in getattr(model, "constraints", ())
             if isinstance(c, AllDifferent)]
    if not units:
        raise InputError(f"a {kind.name} puzzle has no all-different constraint: "
                         f"{'subsets (by matching)' if difficulty == 'hard' else 'intersections'} "
                         f"never arise, no puzzle is {difficulty}")
    if difficulty == "hard":
        return
    if not any(len(a & b) >= 2 for a, b in itertools.combinations(units, 2)):
        raise InputError(f"no two all-different units of a {kind.name} puzzle share two cells: "
                         "intersections never arise, no puzzle is medium")


def width(text: str | None, default: int, least: int, most: int, kind: str) -> int:
    """A `--size` of `n` (an n x n grid) read, `least` to `most` (else an
    `InputError` naming the kind); None: `default`.

    >>> width("7", 6, 2, 64, "Latin square")
    7
    """
    from csp.problems._numbers import natural

    if text is None:
        return default
    n = natural(text.strip(), "--size")
    if not least <= n <= most:
        raise InputError(f"--size {n}: a {kind} to make is {least} to {most} wide")
    return n


def sides(text: str | None, default: tuple[int, int], least: int, most: int, kind: str
          ) -> tuple[int, int]:
    """A `--size` of `N` (N x N) or `WxH` read, each side `least` to `most`
    (else an `InputError` naming the kind); None: `default`.

    >>> sides("7x5", (8, 8), 2, 40, "shikaku"), sides(None, (8, 8), 2, 40, "shikaku")
    ((7, 5), (8, 8))
    """
    from csp.problems._numbers import natural

    if text is None:
        return default
    width, x, height = text.lower().partition("x")
    found = (natural(width.strip(), "--size"), natural((height if x else width).strip(),
                                                       "--size"))
    if not all(least <= side <= most for side in found):
        raise InputError(f"--size {text}: a {kind} to make is {least} to {most} cells a side")
    return found


def seed_of(seed: int | str | None) -> int | str:
    """The seed itself, or a random one for None (from the system's entropy)."""
    return int.from_bytes(os.urandom(4), "big") if seed is None else seed


def _maker(kind: Any) -> Maker:
    if kind.maker is None:
        raise InputError(f"{kind.name} puzzles cannot be generated; the kinds that can: "
                         f"{', '.join(makers())}")
    maker: Maker = kind.maker
    return maker


def _attempt(kind: Any, maker: Maker, judge: Judge, size: Any, rng: random.Random,
             difficulty: str | None, deadline: float | None) -> tuple[Any, Rating] | None:
    """One solution drawn and made into a puzzle of the difficulty wanted, or None."""

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    made = _unique(maker, judge, size, rng, late)
    if made is None:
        return None
    answer, candidates, unique = made
    for _ in range(ORDERS if difficulty is not None else 1):
        # Take clues away, in random order, while it stays unique: a minimal puzzle.
        kept = _fewer(maker, size, answer, unique, rng, late,
                      lambda clues: judge.unique(maker.puzzle(size, answer, clues)))
        if kept is None:
            return None
        found = _aim(maker, judge, size, answer, candidates, kept, rng, difficulty, late)
        if found is not None:
            puzzle = maker.puzzle(size, answer, found[0])
            if not judge.proven(puzzle):
                raise AssertionError(f"a {kind.name} puzzle made unique is not: a bug")
            return puzzle, found[1]
    return None


PASSES = 8
"""How many clues that overshoot (the rung below would settle the puzzle too)
are passed over while adding clues back, before giving up."""
ORDERS = 4
"""How many orders of taking clues away are tried on one solution, aiming at a
difficulty, before another solution is drawn."""


def _aim(maker: Maker, judge: Judge, size: Any, answer: Any, candidates: list[Any],
         kept: list[Any], rng: random.Random, difficulty: str | None,
         late: Callable[[], bool]) -> tuple[list[Any], Rating] | None:
    """A minimal puzzle's clues at `difficulty`, with its rating: as they are
    if they rate there; with clues added back if they are harder (until the
    rung of the difficulty settles the puzzle, then those it can spare
    taken away again); None if they are easier, or the clues added overshoot."""
    from csp.rating import LEVELS

    def puzzle(clues: list[Any]) -> Any:
        return maker.puzzle(size, answer, clues)

    if difficulty is None:
        return kept, judge.rate(puzzle(kept))
    level = TOP.get(difficulty)
    if level is None:  # extreme: not settled by the rung below probing
        if judge.settles(puzzle(kept), "subsets"):
            return None
        return kept, judge.rate(puzzle(kept))
    below = BELOW.get(difficulty)
    if below is not None and judge.settles(puzzle(kept), below):
        return None  # easier than wanted: no clue taken away makes it harder
    if judge.settles(puzzle(kept), level):
        return kept, Rating(level, 1)
    left = [c for c in candidates if c not in kept]
    rng.shuffle(left)
    added: list[Any] = []
    passed = 0
    while True:
        fitting = [c for c in left if _fits(maker, size, answer, kept + added + [c])]
        if not fitting or late():
            return None
        clue = fitting[0]
        left.remove(clue)
        trial = kept + added + [clue]
        if not judge.settles(puzzle(trial), level):
            added.append(clue)  # nearer: keep it
        elif below is None or not judge.settles(puzzle(trial), below):
            added.append(clue)
            break
        elif passed < PASSES:
            passed += 1  # it overshoots: pass it over, try another
        else:
            return None
    spared = _fewer(maker, size, answer, added, rng, late,
                    lambda clues: judge.settles(puzzle(kept + clues), level), keep=kept)
    if spared is None or (below is not None and judge.settles(puzzle(kept + spared), below)):
        return None
    assert LEVELS.index(level) < len(LEVELS)
    return kept + spared, Rating(level, 1)


def _unique(maker: Maker, judge: Judge, size: Any, rng: random.Random, late: Callable[[], bool]
            ) -> tuple[Any, list[Any], list[Any]] | None:
    """A solution, its clues and the clues kept: added, each touching a cell
    where another solution differs, until the puzzle is unique (the solution
    repaired where the kind cannot add a clue)."""
    answer = maker.solution(size, rng)
    candidates = maker.clues(size, answer)
    kept = _first(maker, size, answer, candidates, rng)
    where = maker.where or (lambda clue: (clue[0],))
    repairs = 0
    while not late():
        puzzle = maker.puzzle(size, answer, kept)
        intended = judge.cells(puzzle, _kind_answer(maker, size, answer))
        other = judge.other(puzzle, intended)
        if other is None:
            return answer, candidates, kept
        apart = {c for c in intended.keys() | other.keys() if intended.get(c) != other.get(c)}
        left = [c for c in candidates if c not in kept and _fits(maker, size, answer, kept + [c])]
        near = [c for c in left if apart.intersection(where(c))]
        if near or left:
            kept.append(rng.choice(near or left))
            continue
        if maker.repair is None or repairs >= REPAIRS:
            return None
        repairs += 1
        # A hill climb on the number of solutions: of the repairs offered,
        # the one whose puzzle has fewest (counted up to CLIMB).
        offered = maker.repair(size, answer, other, rng)
        if not offered:
            return None
        answer = min(offered, key=lambda option: (judge.count(
            maker.puzzle(size, option, _first(maker, size, option, maker.clues(size, option),
                                              rng)), CLIMB), rng.random()))
        candidates = maker.clues(size, answer)
        kept = _first(maker, size, answer, candidates, rng)
    return None


FIRST = 4
"""Without a `start`, a puzzle begins with one clue in FIRST, drawn at random
(a sudoku: 20 of the 81 givens): fewer searches than adding them one by one."""


def _first(maker: Maker, size: Any, answer: Any, candidates: list[Any], rng: random.Random
           ) -> list[Any]:
    if maker.start is not None:
        return maker.start(size, answer, candidates, rng)
    kept: list[Any] = []
    for clue in rng.sample(candidates, len(candidates) // FIRST):
        if _fits(maker, size, answer, kept + [clue]):
            kept.append(clue)
    return kept


def _fewer(maker: Maker, size: Any, answer: Any, clues: list[Any], rng: random.Random,
           late: Callable[[], bool], good: Callable[[list[Any]], bool],
           keep: Sequence[Any] = ()) -> list[Any] | None:
    """`clues` less those that can go, tried in random order, while `good`
    holds (and the kind's `fits`, with `keep` beside them); None if out of time."""
    for clue in rng.sample(clues, len(clues)):
        if late():
            return None
        trial = [c for c in clues if c != clue]
        if _fits(maker, size, answer, [*keep, *trial]) and good(trial):
            clues = trial
    return clues


def _fits(maker: Maker, size: Any, answer: Any, clues: Sequence[Any]) -> bool:
    return maker.fits is None or maker.fits(size, answer, clues)


def _kind_answer(maker: Maker, size: Any, answer: Any) -> Any:
    return answer if maker.kind_answer is None else maker.kind_answer(size, answer)


class Judge:
    """The searches a generator asks of a kind's puzzles, each puzzle's
    problem declared quickly: a kind with a shape (`csp.family`) declares the
    blank of each size once and each puzzle as that blank plus its givens."""

    def __init__(self, kind: Any, backend: Any) -> None:
        self.kind = kind
        self.backend = backend
        self.blanks: dict[tuple[Any, str | None], Any] = {}

    def problem(self, puzzle: Any, form: str | None = None) -> Any:
        kind = self.kind
        if kind.shape is None:
            return kind.declare(puzzle, form)
        from csp.family import with_givens

        key = (kind.shape(puzzle), form)
        if key not in self.blanks:
            self.blanks[key] = kind.declare_shape(puzzle, form)
        blank = self.blanks[key]
        return with_givens(blank, kind.givens(puzzle, blank))

    def model(self, puzzle: Any) -> Any:
        """The puzzle as a model where the kind has one (all-different reasoning)."""
        return self.problem(puzzle, "model" if "model" in self.kind.forms else None)

    def cells(self, puzzle: Any, answer: Any) -> dict[Any, Any]:
        return dict(self.kind.cells(puzzle, answer))

    def other(self, puzzle: Any, intended: dict[Any, Any]) -> dict[Any, Any] | None:
        """A solution of `puzzle` other than `intended` (its cells), or None
        if it has no other (a search to the end with limit 2)."""
        import csp

        prepared = self.quick(puzzle)
        if prepared is not None:
            problem = prepared[0]
            search = prepared[1].solutions(self.kind.givens(puzzle, problem), limit=2)
        else:
            problem = self.problem(puzzle)
            search = csp.solutions(problem, self.backend, limit=2)
        for solution in search:
            found = self.cells(puzzle, self.kind.decode(puzzle, solution, problem))
            if found != intended:
                return found
        return None

    def count(self, puzzle: Any, limit: int) -> int:
        """The puzzle's solutions, counted up to `limit`."""
        import csp

        return csp.count(self.problem(puzzle), self.backend, limit=limit).count

    def unique(self, puzzle: Any) -> bool:
        """A search to the end with limit 2 finds one solution (the blank
        compiled once, `prepared`, when no backend was asked for)."""
        import csp

        prepared = self.quick(puzzle)
        if prepared is not None:
            blank, compiled = prepared
            result = compiled.solutions(self.kind.givens(puzzle, blank), limit=2).count()
        else:
            result = csp.count(self.problem(puzzle), self.backend, limit=2)
        return result.count == 1 and result.status is Status.COMPLETE

    def settles(self, puzzle: Any, level: str) -> bool:
        from csp import rating

        prepared = self.prepared(puzzle)
        if prepared is None:
            return rating.settles(self.model(puzzle), level)
        blank, compiled = prepared
        # As rating.settles: a solution found at the root, without a decision.
        result = compiled.solutions(self.kind.givens(puzzle, blank),
                                    backend=rating.backend(level), limit=1).count()
        return result.count == 1 and result.stats.nodes == 0

    def quick(self, puzzle: Any) -> tuple[Any, Any] | None:
        """`prepared`, for the searches of `other` and `unique` when no
        backend was asked for (the complete count of `proven` is the
        dispatch's)."""
        return self.prepared(puzzle) if self.backend == "auto" else None

    def prepared(self, puzzle: Any) -> tuple[Any, Any] | None:
        """The blank model of a kind with a shape, and it compiled once for
        `bitmask` (`Prepared`): each puzzle is then its givens as domains,
        rated without compiling again. None for a kind without a shape, or
        whose model is not one `bitmask` takes."""
        from csp.backends.bitmask import BitmaskBackend, Prepared
        from csp.model import Model

        if self.kind.shape is None or "model" not in self.kind.forms:
            return None
        key = (self.kind.shape(puzzle), "prepared")
        if key not in self.blanks:
            blank = self.kind.declare_shape(puzzle, "model")
            fits = isinstance(blank, Model) and BitmaskBackend().refuses(blank) is None
            # `unique` and `other` search with every technique but failed-value
            # probing, which costs more than it saves on a count to 2 of trial
            # clues (9x9 medium: 59 ms a puzzle with it, 33 without; 16x16:
            # 0.35 s and 0.23 s); `settles` switches on its rung's.
            quick = BitmaskBackend(probe=False)
            self.blanks[key] = (blank, Prepared(blank, quick)) if fits else None
        found: tuple[Any, Any] | None = self.blanks[key]
        return found

    def rate(self, puzzle: Any) -> Rating:
        from csp import rating

        return rating.rate(self.model(puzzle))

    def proven(self, puzzle: Any) -> bool:
        """Unique by a complete count: every solution counted, no limit."""
        import csp

        result = csp.count(self.problem(puzzle), self.backend)
        return result.status is Status.COMPLETE and result.count == 1


# -- random full solutions ------------------------------------------------------------


def completions(blank: ExactCover, forced: list[int], limit: int = UNIFORM_LIMIT
                ) -> list[tuple[int, ...]] | None:
    """Every solution of `blank` with the options `forced` (their indices),
    or None if it has more than `limit`: kept per blank and forcing, so that
    drawing another is a lookup."""
    import csp
    from csp.family import with_givens

    key = (id(blank), tuple(forced))
    if key not in _COMPLETIONS or _COMPLETIONS[key][0] is not blank:
        search = csp.solutions(with_givens(blank, forced), limit=limit + 1)
        found = [tuple(solution) for solution in search]
        _COMPLETIONS[key] = (blank, None if len(found) > limit else found)
    return _COMPLETIONS[key][1]


_COMPLETIONS: dict[tuple[int, tuple[int, ...]],
                   tuple[ExactCover, list[tuple[int, ...]] | None]] = {}


def shuffled(xc: ExactCover, rng: random.Random) -> ExactCover:
    """The exact cover with its options in a random order (payloads moved
    with them): a depth-first search then meets a random solution first."""
    arrays = xc.arrays()
    start, items, colours = arrays["start"], arrays["items"], arrays["colours"]
    order = list(range(xc.n_options))
    rng.shuffle(order)
    spans = [(int(start[k]), int(start[k + 1])) for k in order]
    indptr = [0]
    for lo, hi in spans:
        indptr.append(indptr[-1] + hi - lo)
    picked = [i for lo, hi in spans for i in range(lo, hi)]
    data = xc.data
    return ExactCover.from_arrays(xc.primary, xc.secondary, indptr, items[picked],
                                  colours[picked], colour_names=xc.colours,
                                  data=[data[k] for k in order], name=xc.name, check=False)


def square(n: int, rng: random.Random, blank: ExactCover, uniform: bool) -> list[list[int]]:
    """A random n x n grid of 1..n from `blank`, the exact cover of an empty
    grid whose options carry `(r, c, d)`. If `uniform`, exactly uniformly: a
    uniformly random completion of the first row 1..n (all are listed once),
    its digits then relabelled by a uniformly random permutation (every
    first row has as many completions, by relabelling). Otherwise the first
    row a random permutation and the rest by a randomized search (options
    in random order)."""
    import csp
    from csp.family import with_givens

    option = {payload: k for k, payload in enumerate(blank.data)}
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    listed = None
    if uniform:
        listed = completions(blank, [option[(0, c, c + 1)] for c in range(n)])
    if listed is not None:
        chosen = [blank.data[k] for k in rng.choice(listed)]  # with_givens keeps the indices
    else:
        seeded = with_givens(blank, [option[(0, c, relabel[c + 1])] for c in range(n)])
        assert isinstance(seeded, ExactCover)
        mixed = shuffled(seeded, rng)
        found = csp.solve(mixed).solution
        assert found is not None
        chosen = [mixed.data[k] for k in found]
        relabel = list(range(n + 1))
    rows = [[0] * n for _ in range(n)]
    for r, c, d in chosen:
        rows[r][c] = relabel[d]
    return rows


def sudoku_moves(rows: list[list[int]], box: tuple[int, int], rng: random.Random
                 ) -> list[list[int]]:
    """A random symmetry of a sudoku grid with r x c boxes: the bands, the
    rows within each band, the stacks, the columns within each stack, and
    the grid transposed when the boxes are square (the digits are already
    random). Applied to any sampler, it makes every grid of a class of
    equivalent grids equally likely."""
    r, c = box
    n = r * c
    order_rows = [band * r + k for band in rng.sample(range(c), c) for k in rng.sample(range(r), r)]
    order_cols = [stack * c + k for stack in rng.sample(range(r), r)
                  for k in rng.sample(range(c), c)]
    moved = [[rows[i][j] for j in order_cols] for i in order_rows]
    if r == c and rng.random() < 0.5:
        moved = [[moved[j][i] for j in range(n)] for i in range(n)]
    return moved


def latin_moves(rows: list[list[int]], rng: random.Random) -> list[list[int]]:
    """A random isotopy of a Latin square (rows, columns, transposition)."""
    n = len(rows)
    order_rows, order_cols = rng.sample(range(n), n), rng.sample(range(n), n)
    moved = [[rows[i][j] for j in order_cols] for i in order_rows]
    if rng.random() < 0.5:
        moved = [[moved[j][i] for j in range(n)] for i in range(n)]
    return moved


# -- cages from walls (killer, kenken) ------------------------------------------------


def edges(n: int) -> list[tuple[Any, Any]]:
    """Every pair of neighbouring cells of an n x n grid, each once: where a wall can be."""
    return [((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
            for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n]


def cages(n: int, walls: Iterable[tuple[Any, Any]]) -> list[list[Any]]:
    """The cages the walls cut an n x n grid into (connected pieces), each
    sorted, in order of their first cell."""
    cut = set(walls)
    owner: dict[Any, int] = {}
    found: list[list[Any]] = []
    for start in ((r, c) for r in range(n) for c in range(n)):
        if start in owner:
            continue
        owner[start] = len(found)
        piece, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for other in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if (0 <= other[0] < n and 0 <= other[1] < n and other not in owner
                        and tuple(sorted(((r, c), other))) not in cut):
                    owner[other] = len(found)
                    piece.append(other)
                    stack.append(other)
        found.append(sorted(piece))
    return found


def random_walls(n: int, rng: random.Random, largest: int,
                 allowed: Callable[[list[tuple[int, int]], tuple[int, int]], bool]
                 ) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The walls of a random partition into connected cages of 1 to
    `largest` cells (sizes drawn at random, small ones likelier), a cell
    joining a cage only if `allowed(cage, cell)`."""
    free = {(r, c) for r in range(n) for c in range(n)}
    owner: dict[tuple[int, int], int] = {}
    for k, start in enumerate(rng.sample(sorted(free), len(free))):
        if start not in free:
            continue
        size = rng.choice([s for s in range(1, largest + 1) for _ in range(largest + 1 - s)])
        cage = [start]
        free.discard(start)
        while len(cage) < size:
            near = sorted({(r + dr, c + dc) for r, c in cage
                           for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} & free)
            near = [cell for cell in near if allowed(cage, cell)]
            if not near:
                break
            cage.append(rng.choice(near))
            free.discard(cage[-1])
        owner.update(dict.fromkeys(cage, k))
    return [edge for edge in edges(n) if owner[edge[0]] != owner[edge[1]]]


__all__ = ["Judge", "Made", "Maker", "Unreachable", "cages", "edges", "generate", "latin_moves",
           "makers", "random_walls", "seed_of", "sides", "width", "shuffled", "square",
           "sudoku_moves", "completions"]
