"""The protocol every backend implements, and the search driver they share.

A backend takes the problems of its `accepts` forms directly (its `native`
form first); `csp.dispatch` lowers any other form by a reformulation. It
offers two operations:

- `solutions(problem, limit=, time_limit=, progress=)` returns a `Search`: a
  lazy iterator of solutions whose `status` and `stats` are live;
- `count(problem, time_limit=, progress=)` returns a `Result` and never
  materialises solutions.

What else it can do is declared as data in `capabilities`, and that data,
never a backend's name, decides what the rest of `csp` does with it:

- `SPLIT`: the backend also implements `Splitting` (`split`, `choose`,
  `count_chosen`) on its native form, so parallel counting and canonicity
  pruning up to symmetry cut its own search tree into subproblems;
- `COLOURS`: an exact-cover backend that takes coloured secondary items;
- `MULTIPLICITIES`: an exact-cover backend that takes primary items with
  bounds (`ExactCover.bounds`, Knuth's DLX3); a backend without it gets such
  a cover lowered to a `Model` (a sum between the bounds per item) if it takes
  models, and refuses it otherwise. `SPLIT` covers only the covers without
  bounds: a bounded cover is counted whole;
- `FAMILY`: the backend also implements `solve_family(problem, givens, count=,
  progress=)` on its native form: many puzzles of one shape, the structure
  compiled once and each puzzle only its givens (forced options for an exact
  cover, fixed domains for a model), yielding a `Result` per puzzle (see
  `csp.family`);
- `MEMO`: memoized counting: the backend's `count` (and, with `SPLIT`,
  `count_chosen`) also takes `memo=` ("auto", True or False), `memo_bytes=`
  (a memory bound) and `branch=` ("mrv" or "first"), and it offers
  `zdd(problem, memo_bytes=, branch=, time_limit=, progress=)`, the diagram of
  the solutions (`csp.count`, `csp.zdd`; a backend without it refuses
  `memo=True`);
- `PORTFOLIO`: the backend runs other backends (see `csp.backends.engines`);
- `SLICED`: its `solutions` returns a `SlicedSearch` (whose `count()` is the
  backend's `count`): a search that runs in the calling thread, starts no
  thread or process, and comes back to Python between short slices (so
  `race` runs such a member in its own process);
- `COUNTS_ONLY`: the backend counts without listing solutions (an exact
  model counter: `ganak`); its `solutions` is never called: `csp.solve` and
  `csp.solutions` refuse it before solving, `crosscheck` compares its count;
- `OUTSIDE`: its solver runs outside this process (a child process, a JVM, a
  program), which `csp.backends.forked` starts and always ends: a crash of
  the solver is an error naming it, never a crash of the caller;
- a constraint's kind (`"AllDifferent"`, `"Sum"`, `"Table"`, `"Compare"`,
  and those of `ALL_CONSTRAINT_KINDS`: `"Logic"`, `"Element"`, `"Regular"`,
  ...): a model backend that takes that kind of constraint as it is. A
  constraint of another kind is decomposed (`csp.decompose`) or refused
  before solving (see `csp.dispatch`).

A backend may also say what it refuses in a form it takes, before solving:
`refuses(problem) -> str | None` (`bitmask`: a domain of over 64 values).

A backend that accepts both forms may say which serves it better, as data:
`cover_kinds`, the constraint kinds of a model it would rather take lowered
to an exact cover (`python-constraint`: a sudoku as a model is a search of
minutes, as an exact cover of a tenth of a second). A model made only of
those kinds goes to it as an exact cover (`preferred_form`).

>>> sorted(CONSTRAINT_KINDS)
['AllDifferent', 'Compare', 'Sum', 'Table']
"""

from __future__ import annotations

import math
import numbers
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from csp.result import Result, Stats, Status

if TYPE_CHECKING:
    from csp.problem import Problem

Progress = Callable[[Stats], None]
"""A progress callback: called now and then with the statistics so far."""

SPLIT = "split"
"""The backend implements `Splitting` on its native form."""
COLOURS = "colours"
"""An exact-cover backend that takes coloured secondary items."""
MULTIPLICITIES = "multiplicities"
"""An exact-cover backend that takes primary items with bounds (multiplicities)."""
FAMILY = "family"
"""The backend solves many puzzles of one shape in one compiled loop (`solve_family`)."""
MEMO = "memo"
"""Memoized counting: `count` takes memo=, memo_bytes=, branch=; `zdd` builds the diagram."""
PORTFOLIO = "portfolio"
"""The backend runs other backends (`race`): no independent engine, so the
defaults that want witnesses or fallbacks (`crosscheck`, `auto`, the
backends a refusal names) leave it out (`csp.backends.engines`)."""
SLICED = "sliced"
"""The backend's searches are `SlicedSearch`es: in the calling thread, no
thread or process of their own, back in Python between short slices."""
PROJECTION = "projection"
"""A model backend whose `solutions` and `count` also take `over=` (a list of
variable names) and give the distinct assignments of those variables only
(`csp.projection`); the others are projected by blocking."""
COUNTS_ONLY = "counts-only"
"""The backend counts solutions without listing them (an exact model counter):
only its `count` is called; asking it for solutions is refused before solving."""
OUTSIDE = "outside"
"""The backend's solver runs outside this process (a child process, a JVM, a
program): a time limit it overruns is enforced by killing it, and its crash
is an error naming it (`csp.errors.SolverFailed`)."""
CONSTRAINT_KINDS = frozenset({"AllDifferent", "Sum", "Table", "Compare"})
"""The kinds of constraint every model backend takes: all-different, linear
(`Sum`), tables and (in)equalities. `Constraint.kinds()` names what a
constraint needs."""
LOGIC = "Logic"
"""`And`, `Or`, `Not`, `Implies`, `Xor` and `Iff` over literals (`csp.logic`)."""
FUNCTION_KINDS = frozenset({"Element", "Count", "NValue", "Minimum", "Maximum", "Abs", "Times",
                            "Div", "Mod"})
"""A function compared with a variable or an int (`csp.expressions`)."""
GLOBAL_KINDS = frozenset({"AllEqual", "AllDifferentExcept", "Increasing", "Decreasing", "Lex",
                          "GlobalCardinality", "Regular", "Circuit", "Inverse", "Connected"})
"""The global constraints of `csp.global_constraints`."""
ALL_CONSTRAINT_KINDS = (CONSTRAINT_KINDS | FUNCTION_KINDS | GLOBAL_KINDS
                        | {LOGIC, "SumNotEqual", "Intension"})
"""Every kind of constraint a model backend may declare; any it does not
declare is decomposed by the dispatch layer (`csp.decompose`) or refused."""


@runtime_checkable
class Backend(Protocol):
    name: ClassVar[str]
    native: ClassVar[type]
    accepts: ClassVar[tuple[type, ...]]
    capabilities: ClassVar[frozenset[str]]

    def solutions(
        self,
        problem: Problem,
        *,
        limit: int | None = None,
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> Search: ...

    def count(
        self,
        problem: Problem,
        *,
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> Result: ...


@runtime_checkable
class Splitting(Protocol):
    """What a backend with the `SPLIT` capability adds, on its native form.

    A *prefix* is a partial solution: for an exact cover, a tuple of option
    indices. The subtrees below the prefixes `split` reports partition the
    solutions below `prefix`.
    """

    def split(self, problem: Any, prefix: Sequence[Any], depth: int, *,
              time_limit: float | None = None) -> Search:
        """The partial solutions `depth` levels deep that extend `prefix`
        (solutions met above that depth are reported too)."""
        ...

    def choose(self, problem: Any, prefix: Sequence[Any], *, limit: int | None = None,
               time_limit: float | None = None, progress: Progress | None = None) -> Search:
        """The solutions that extend `prefix`."""
        ...

    def count_chosen(self, problem: Any, prefix: Sequence[Any], *,
                     time_limit: float | None = None,
                     progress: Progress | None = None) -> Result:
        """The number of solutions that extend `prefix`, not materialised."""
        ...


def preferred_form(backend: Any, problem: Any) -> type:
    """The form `backend` solves `problem` in: the problem's own if the
    backend accepts it, but an exact cover for a model made only of the
    backend's `cover_kinds` (when it accepts exact covers); else its native
    form.

    >>> from csp import AllDifferent, Model, backends
    >>> m = Model()
    >>> _ = m.add(AllDifferent(m.vars("abc", range(3))))
    >>> [preferred_form(backends.get(name), m).__name__ for name in ("python-constraint", "dlx")]
    ['ExactCover', 'ExactCover']
    >>> preferred_form(backends.get("cpsat"), m).__name__
    'Model'
    """
    from csp.exactcover import ExactCover
    from csp.model import Model

    accepts = backend.accepts
    if isinstance(problem, Model) and ExactCover in accepts:
        kinds: frozenset[str] = getattr(backend, "cover_kinds", frozenset())
        if kinds and problem.constraints and all(c.kinds() & kinds
                                                 for c in problem.constraints):
            return ExactCover
    return type(problem) if isinstance(problem, accepts) else backend.native


def validate(backend: Any, *, probe: bool = False) -> list[str]:
    """What is wrong with `backend` as a `Backend` ([] if nothing).

    With `probe`, it also counts a one-option problem of its native form and
    checks the answer: a plug-in that returns the wrong type or count is
    caught when it is listed, not in the middle of a user's run.
    """
    from csp.exactcover import ExactCover
    from csp.model import Model

    problems = []
    for member in ("name", "native", "accepts", "capabilities", "solutions", "count"):
        if not hasattr(backend, member):
            problems.append(f"it has no {member!r}")
    if problems:
        return problems
    if not isinstance(backend.name, str) or not backend.name:
        problems.append(f"its name {backend.name!r} is not a non-empty string")
    if backend.native not in (ExactCover, Model):
        problems.append(f"its native form {backend.native!r} is neither ExactCover nor Model")
    accepts = backend.accepts
    if not (isinstance(accepts, tuple) and all(isinstance(t, type) for t in accepts)):
        problems.append(f"its accepts {accepts!r} is not a tuple of classes")
    elif backend.native not in accepts:
        problems.append("its accepts does not include its native form")
    if not (isinstance(backend.capabilities, (frozenset, set))
            and all(isinstance(c, str) for c in backend.capabilities)):
        problems.append(f"its capabilities {backend.capabilities!r} are not a set of strings")
    for method in ("solutions", "count"):
        if not callable(getattr(backend, method)):
            problems.append(f"its {method!r} is not callable")
    if not problems and SPLIT in backend.capabilities and not isinstance(backend, Splitting):
        problems.append("it declares 'split' but lacks split/choose/count_chosen")
    if (not problems and FAMILY in backend.capabilities
            and not callable(getattr(backend, "solve_family", None))):
        problems.append("it declares 'family' but lacks solve_family")
    if problems or not probe:
        return problems
    return _probe(backend)


def _probe(backend: Any) -> list[str]:
    from csp.exactcover import ExactCover
    from csp.model import Model

    if backend.native is ExactCover:
        problem: Any = ExactCover(["a"])
        problem.add_option(["a"])
        expected = 1
    else:
        problem = Model("probe")
        problem.var("x", [0, 1])
        expected = 2
    result = backend.count(problem, time_limit=10)
    if not isinstance(result, Result):
        return [f"its count returned a {type(result).__name__}, not a csp.Result"]
    if result.count != expected or result.status is not Status.COMPLETE:
        return [f"it counted {result.count} ({result.status}) solutions of a probe that has "
                f"{expected}"]
    return []


def check_limit(limit: int | None) -> int | None:
    """`limit` (a number of solutions) checked: an int >= 0, or None for no limit.

    >>> check_limit(2.5)
    Traceback (most recent call last):
        ...
    TypeError: limit must be a whole number of solutions or None, not 2.5
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, numbers.Integral):
        raise TypeError(f"limit must be a whole number of solutions or None, not {limit!r}")
    if limit < 0:
        raise ValueError(f"limit must be >= 0, not {limit}")
    return int(limit)


def check_progress(progress: Progress | None) -> Progress | None:
    """`progress` checked: a callable (taking the statistics so far) or None."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable taking Stats, or None, not {progress!r}")
    return progress


def _compiling_seconds() -> float:
    """Seconds spent compiling numba kernels so far; 0 in a process that never
    loaded a compiled backend (read without importing numba)."""
    cache = sys.modules.get("csp._numba_cache")
    return 0.0 if cache is None else cache.compiling_seconds()


def check_time_limit(time_limit: float | None) -> float | None:
    """`time_limit` as the drivers use it: None for no limit (so is infinity).

    A negative or NaN limit is refused with a ValueError naming it, rather than
    failing later inside the search or, for NaN, never expiring; one that is
    not a number, with a TypeError.

    >>> check_time_limit(float("inf")) is None
    True
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"time_limit must be a number of seconds or None, not {time_limit!r}")
    if math.isnan(time_limit):
        raise ValueError("time_limit must be a number of seconds >= 0, not nan")
    if time_limit < 0:
        raise ValueError(f"time_limit must be >= 0, not {time_limit}")
    return None if math.isinf(time_limit) else float(time_limit)


class Search(Iterator[Any]):
    """A lazy enumeration of solutions.

    Iterate it for solutions; `status` is None while solutions may still come,
    then one of `Status`; `stats` is updated as the search goes.
    """

    backend: str = "?"

    def __init__(self) -> None:
        self.status: Status | None = None
        self.stats = Stats()

    def __iter__(self) -> Search:
        return self

    def __next__(self) -> Any:
        raise NotImplementedError

    def close(self) -> None:
        """Stop early: the search ends as `INTERRUPTED` if it was not over."""
        if self.status is None:
            self.status = Status.INTERRUPTED

    def result(self) -> Result:
        """Exhaust the iterator and report (the solutions are dropped)."""
        first = None
        for solution in self:
            if first is None:
                first = solution
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend, first)


# Events a resumable kernel reports when it returns to Python.
EXHAUSTED = 0
"""The search space is exhausted."""
FOUND = 1
"""A solution is in the state arrays (enumeration mode)."""
PAUSED = 2
"""The node budget of this slice ran out; call again to go on."""


class SlicedSearch(Search):
    """Drives a resumable compiled kernel in slices of a node budget.

    Between slices Python regains control: the time limit is checked, the
    progress callback is called and Ctrl-C (KeyboardInterrupt, delivered when
    the kernel returns) ends the search as `INTERRUPTED`, keeping what was
    found. Subclasses implement `_advance`, `_solution` and `_measure`.
    """

    SLICE_SECONDS = 0.05
    PROGRESS_SECONDS = 0.2
    FIRST_BUDGET = 16
    """Nodes of the first slice: small, since a node may cost milliseconds (a
    large table to propagate); `_tune` grows it within a few slices when nodes
    are cheap."""
    MAX_BUDGET = 1 << 30
    MAX_GROWTH = 8

    def __init__(
        self,
        *,
        limit: int | None = None,
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> None:
        super().__init__()
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        self.limit = limit
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self._budget = self.FIRST_BUDGET
        #: seconds per node, measured on the last slice that used its whole
        #: budget (None until one did)
        self._per_node: float | None = None
        self._started: float | None = None
        self._last_progress = 0.0
        self._found = 0

    # -- what a kernel-backed search implements ---------------------------------

    def _advance(self, count_only: bool, budget: int) -> int:
        """Run the kernel for at most about `budget` nodes; return an event."""
        raise NotImplementedError

    def _solution(self) -> Any:
        """The solution the kernel just reported, in the terms of the problem."""
        raise NotImplementedError

    def _measure(self, stats: Stats) -> None:
        """Copy the kernel's counters (solutions, nodes, ...) into `stats`."""
        raise NotImplementedError

    # -- the driver ----------------------------------------------------------------

    def __next__(self) -> Any:
        if self.status is not None:
            raise StopIteration
        if self.limit is not None and self._found >= self.limit:
            self._finish(Status.SOLUTION_LIMIT)
            raise StopIteration
        event = self._run(count_only=False)
        if event == FOUND:
            self._found += 1
            solution = self._solution()
            if self.limit is not None and self._found >= self.limit:
                self._finish(Status.SOLUTION_LIMIT)
            return solution
        raise StopIteration

    def close(self) -> None:
        # As Search.close, with the statistics brought up to date.
        if self.status is None:
            self._finish(Status.INTERRUPTED)

    def count(self) -> Result:
        """Count every remaining solution inside the kernel, up to the
        search's limit (then found one by one, none read back: a
        uniqueness check counts to 2 without building a solution)."""
        if self.limit is None:
            self._run(count_only=True)
        while self.status is None:
            if self._found >= self.limit:  # type: ignore[operator]
                self._finish(Status.SOLUTION_LIMIT)
            elif self._run(count_only=False) == FOUND:
                self._found += 1
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)

    def _run(self, count_only: bool) -> int:
        now = time.perf_counter()
        if self._started is None:
            self._started = now
            self._last_progress = now
        try:
            return self._slices(count_only, now)
        except KeyboardInterrupt:
            # Ctrl-C is delivered when the kernel returns, or in the Python
            # between slices (a progress callback): either way, keep what was found.
            self._finish(Status.INTERRUPTED)
            return EXHAUSTED

    def _slices(self, count_only: bool, now: float) -> int:
        started = self._started
        assert started is not None
        while True:
            if self.time_limit is not None and now - started >= self.time_limit:
                self._finish(Status.TIME_LIMIT)
                return EXHAUSTED
            budget = self._slice_budget(now)
            compiled = _compiling_seconds()
            event = self._advance(count_only, budget)
            after = time.perf_counter()
            # A first run compiles its kernels inside the first slice (seconds):
            # that is not search time, so the clock of the limit skips it.
            compiled = _compiling_seconds() - compiled
            if compiled > 0:
                started = self._started = started + compiled
            self._tune(budget, max(after - now - compiled, 0.0), full=event == PAUSED)
            now = after
            if event == EXHAUSTED:
                self._finish(Status.COMPLETE)
                return EXHAUSTED
            if event == FOUND:
                self._update(now)
                return FOUND
            if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
                self._last_progress = now
                self._update(now)
                self.progress(self.stats)

    def _slice_budget(self, now: float) -> int:
        """The node budget of the next slice: never more than the time left allows."""
        if self.time_limit is None or self._per_node is None:
            return self._budget
        assert self._started is not None
        remaining = self.time_limit - (now - self._started)
        # At least one node, so that the search always moves on.
        return max(1, min(self._budget, int(remaining / self._per_node)))

    def _tune(self, budget: int, elapsed: float, *, full: bool) -> None:
        """Keep slices near SLICE_SECONDS so that limits and Ctrl-C stay prompt.

        Only a slice that used its whole budget (`full`) measures the cost of a
        node; one that stopped at a solution did fewer nodes than `budget`, so
        it can only say that the budget is too large.
        """
        elapsed = max(elapsed, 1e-9)
        if full:
            self._per_node = elapsed / budget
        elif self._per_node is not None:
            self._per_node = max(self._per_node, elapsed / budget)
        if full and elapsed < self.SLICE_SECONDS / 4:
            # Grow toward a slice of SLICE_SECONDS, at most MAX_GROWTH-fold.
            factor = min(float(self.MAX_GROWTH), self.SLICE_SECONDS / elapsed)
            grown = max(self._budget, int(budget * factor))
            self._budget = min(self.MAX_BUDGET, grown)
        elif elapsed > self.SLICE_SECONDS * 2:
            self._budget = max(1, min(self._budget, int(budget * self.SLICE_SECONDS / elapsed)))

    def _update(self, now: float) -> None:
        self._measure(self.stats)
        assert self._started is not None
        self.stats.time = now - self._started

    def _finish(self, status: Status) -> None:
        now = time.perf_counter()
        if self._started is None:
            self._started = now
        self.status = status
        self._update(now)
