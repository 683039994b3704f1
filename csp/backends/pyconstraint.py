"""The `python-constraint` backend (PyPI `python-constraint2`, module `constraint`).

A plain backtracking solver with forward checking, written in Python and
compiled with Cython: slow, but independent of the other backends, which is
what a cross-check wants. Constraints map onto its built-ins where they exist
(all-different, exact/min/max sums with multipliers, in-set, all-equal); a
table is a function constraint over a set of tuples; every other kind of
the model language (logic, the functions, the globals) is a function
constraint calling the constraint's own checker once its scope is assigned:
python-constraint checks predicates, so it takes every kind as it is, where
a decomposition would give it auxiliary variables to search over.

An `ExactCover` is taken natively, not as one 0/1 variable per option with
sums (a coloured 4x4 word square took minutes that way): one variable per
primary item, whose domain is the options covering it, and per primary item
one `_Cover` constraint that, when its item takes option `o`, forces `o` on
`o`'s other primary items and removes from every domain the options that
clash with `o` (sharing a primary item, or a secondary item without the same
colour). The chosen options are the values taken; since every item's value
is the one chosen option covering it, each solution is met once. Every
variable has the same number of constraints, so python-constraint's
`BacktrackingSolver` picks the variable with the fewest options left, as
Algorithm X does.

It has no time limit of its own, and its compiled search loop never looks at
Python's signal flag, so neither a time limit checked between solutions nor
Ctrl-C would stop a long stretch of search without a solution. `build` adds
a `_Clock`: a constraint over every variable, which accepts every
assignment but is called at each node, in Python; every `_Clock.EVERY` calls
it checks the time limit and reports progress, and its Python frame is where
a pending Ctrl-C is delivered.

>>> from csp import Model, AllDifferent
>>> m = Model()
>>> a, b = m.var("a", [1, 2]), m.var(("b", 1), [1, 2])
>>> _ = m.add(AllDifferent([a, b]))
>>> sorted(sorted(s.values()) for s in PythonConstraintBackend().solutions(m))
[[1, 2], [1, 2]]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any, ClassVar

import constraint as pc

from csp.backends.base import ALL_CONSTRAINT_KINDS, COLOURS, Progress, Search
from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table
from csp.exactcover import ExactCover
from csp.global_constraints import AllEqual
from csp.model import Assignment, Model
from csp.result import Result, Status


def _guarded(base: type) -> type:
    """A sum constraint whose pre-processing tolerates an empty domain.

    python-constraint prunes domains constraint by constraint before the
    search; a sum takes `min`/`max` of its domains there and fails on one
    that an earlier constraint (or its own unary pruning) emptied. The
    problem then has no solution,
    which python-constraint itself reports once every constraint is
    pre-processed, so skipping the pruning is safe.
    """

    class Guarded(base):
        def preProcess(self, variables, domains, constraints, vconstraints):  # noqa: N802
            if any(not domains[v] for v in variables):
                return
            try:
                super().preProcess(variables, domains, constraints, vconstraints)
            except ValueError:
                # Its own unary pruning emptied a domain before taking min/max.
                if any(not domains[v] for v in variables):
                    return
                raise

    Guarded.__name__ = base.__name__
    return Guarded


_EXACT = _guarded(pc.ExactSumConstraint)
_MIN = _guarded(pc.MinSumConstraint)
_MAX = _guarded(pc.MaxSumConstraint)


class _OutOfTime(Exception):
    """Raised by `_Clock` inside python-constraint's search to end it."""


class _Clock(pc.Constraint):
    """A constraint that accepts everything and keeps the search responsive.

    python-constraint calls the constraints of a variable each time it gives
    the variable a value; this one, added last over every variable, is
    called once per value that passes the others, i.e. at every node. Every
    `EVERY` calls it runs `tick` (which may raise `_OutOfTime`); being Python
    code, it is also where the interpreter raises a pending
    KeyboardInterrupt. Adding it to every variable's constraints leaves
    python-constraint's variable order (by number of constraints, then
    domain size) unchanged.
    """

    EVERY = 256

    def __init__(self, tick: Callable[[], None] | None = None) -> None:
        self.tick = tick
        self._countdown = self.EVERY

    def __call__(self, variables: Any, domains: Any, assignments: Any,  # noqa: D102
                 forwardcheck: Any = False) -> bool:
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = self.EVERY
            if self.tick is not None:
                self.tick()
        return True

    def preProcess(self, variables: Any, domains: Any, constraints: Any,  # noqa: N802, D102
                   vconstraints: Any) -> None:
        # Never pruned away, even over a single variable: nothing to do here.
        return None


def build(m: Model, clock: _Clock | None = None) -> pc.Problem | None:
    """The python-constraint `Problem` of `m`, its variables numbered 0..n-1
    in declaration order (so that any hashable name works); None if some
    domain is empty (python-constraint refuses empty domains) or a
    constraint over no variable is false. `clock`, if
    given, is added last over every variable."""
    names = list(m.variables)
    if any(not m.variables[x].domain for x in names):
        return None
    index = {x: i for i, x in enumerate(names)}
    problem = pc.Problem()
    for i, x in enumerate(names):
        problem.addVariable(i, list(m.variables[x].domain))
    for c in m.constraints:
        scope = [index[x] for x in c.scope]
        if not scope:
            # A constant (a table over no variable): python-constraint fails
            # any constraint over no variable, true or not.
            if not c.holds({}):
                return None
            continue
        if isinstance(c, AllDifferent):
            if len(scope) > 1:
                problem.addConstraint(pc.AllDifferentConstraint(), scope)
        elif isinstance(c, Linear) and c.op == "!=":
            problem.addConstraint(pc.FunctionConstraint(_differs(c.weights, c.rhs)), scope)
        elif isinstance(c, Linear):
            weights = None if all(w == 1 for w in c.weights) else list(c.weights)
            kind = {"==": _EXACT, ">=": _MIN, "<=": _MAX}[c.op]
            problem.addConstraint(kind(c.rhs, weights), scope)
        elif isinstance(c, Compare):
            if c.constant is not None:
                kind = pc.InSetConstraint if c.op == "==" else pc.NotInSetConstraint
                problem.addConstraint(kind({c.constant}), scope)
            elif c.op == "==":
                problem.addConstraint(pc.AllEqualConstraint(), scope)
            else:
                problem.addConstraint(pc.AllDifferentConstraint(), scope)
        elif isinstance(c, Table) and len(scope) == 1:
            values = {t[0] for t in c.tuples}
            kind = pc.NotInSetConstraint if c.forbidden else pc.InSetConstraint
            problem.addConstraint(kind(values), scope)
        elif isinstance(c, AllEqual):
            problem.addConstraint(pc.AllEqualConstraint(), scope)
        elif isinstance(c, Table):  # a Relation too: its tuples are expanded
            problem.addConstraint(pc.FunctionConstraint(_member(c._set, not c.forbidden)),
                                  scope)
        else:
            # Any other kind: its own checker, called once its scope is assigned.
            problem.addConstraint(pc.FunctionConstraint(_holds(c)), scope)
    if clock is not None and names:
        problem.addConstraint(clock, list(range(len(names))))
    return problem


def _holds(c: Constraint) -> Any:
    scope = c.scope
    return lambda *values: c.holds(dict(zip(scope, values)))


def _differs(weights: tuple[int, ...], rhs: int) -> Any:
    """The test of `sum(w * x) != rhs` (a function of its own, so that the
    closure binds this constraint's weights, not the loop's last)."""
    return lambda *values: sum(w * v for w, v in zip(weights, values)) != rhs


def _member(rows: frozenset[tuple[int, ...]], inside: bool) -> Any:
    if inside:
        return lambda *values: values in rows
    return lambda *values: values not in rows


class _Clashes:
    """The options of an exact cover and what each one clashes with.

    `primaries[o]` are the primary items of option `o`; `clashes(o)` the
    options that cannot be chosen with it (computed when first asked: most
    options of a large cover are never chosen).
    """

    def __init__(self, xc: ExactCover) -> None:
        arrays = xc.arrays()
        start, items = arrays["start"].tolist(), arrays["items"].tolist()
        colours = arrays["colours"].tolist()
        n_primary = xc.n_primary
        self.entries = [list(zip(items[start[o]:start[o + 1]], colours[start[o]:start[o + 1]]))
                        for o in range(xc.n_options)]
        self.primaries = [[i for i, _ in entry if i < n_primary] for entry in self.entries]
        #: item -> colour (0: none) -> the options giving it that colour
        self.users: dict[int, dict[int, list[int]]] = {}
        for o, entry in enumerate(self.entries):
            for item, colour in entry:
                self.users.setdefault(item, {}).setdefault(colour, []).append(o)
        self.n_primary = n_primary
        self._clashes: dict[int, list[int]] = {}

    def clashes(self, o: int) -> list[int]:
        found = self._clashes.get(o)
        if found is None:
            out: set[int] = set()
            for item, colour in self.entries[o]:
                for other_colour, options in self.users[item].items():
                    # one colour on a secondary item is shared, never anything else
                    if item < self.n_primary or not colour or other_colour != colour:
                        out.update(options)
            out.discard(o)
            found = self._clashes[o] = sorted(out)
        return found


class _Cover(pc.Constraint):
    """The constraint of one primary item: when it takes option `o`, so do
    `o`'s other primary items, and no option clashing with `o` stays in a
    domain (forward checking; without it, only a check of the assignment).
    """

    def __init__(self, item: int, clashes: _Clashes) -> None:
        self.item = item
        self.data = clashes

    def __call__(self, variables: Any, domains: Any, assignments: Any,  # noqa: D102
                 forwardcheck: Any = False) -> bool:
        o = assignments.get(self.item)
        if o is None:
            return True
        primaries = self.data.primaries[o]
        if any(q != self.item and assignments.get(q) == o for q in primaries):
            return True  # another item of `o` took it first and did the work
        for q in primaries:
            if q == self.item:
                continue
            if q in assignments:
                return False  # q is covered by another option
            if forwardcheck:
                domain = domains[q]
                if o not in domain:
                    return False
                for value in domain[:]:
                    if value != o:
                        domain.hideValue(value)
        for other in self.data.clashes(o):
            for q in self.data.primaries[other]:
                taken = assignments.get(q)
                if taken is not None:
                    if taken == other:
                        return False
                    continue
                if forwardcheck:
                    domain = domains[q]
                    if other in domain:
                        domain.hideValue(other)
                        if not domain:
                            return False
        return True

    def preProcess(self, variables: Any, domains: Any, constraints: Any,  # noqa: N802, D102
                   vconstraints: Any) -> None:
        # A one-variable constraint would be folded into its domain and dropped.
        return None


def build_cover(xc: ExactCover, clock: _Clock | None = None) -> pc.Problem | None:
    """The python-constraint `Problem` of the exact cover `xc`: variable `i` is
    primary item `i`, its domain the options covering it; None if some primary
    item has no option."""
    clashes = _Clashes(xc)
    domains: list[list[int]] = [[] for _ in range(xc.n_primary)]
    for o, primaries in enumerate(clashes.primaries):
        for i in primaries:
            domains[i].append(o)
    if not all(domains):
        return None
    problem = pc.Problem(pc.BacktrackingSolver())  # the fewest options left first
    for i, domain in enumerate(domains):
        problem.addVariable(i, domain)
        problem.addConstraint(_Cover(i, clashes), [i])
    if clock is not None and domains:
        problem.addConstraint(clock, list(range(len(domains))))
    return problem


class PythonConstraintSearch(Search):
    """A lazy walk over python-constraint's solution iterator."""

    backend = "python-constraint"
    PROGRESS_SECONDS = 0.2

    def __init__(self, problem: Model | ExactCover, *, limit: int | None = None,
                 time_limit: float | None = None, progress: Progress | None = None) -> None:
        super().__init__()
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit must be >= 0, not {time_limit}")
        self.cover = isinstance(problem, ExactCover)
        if isinstance(problem, ExactCover):
            self.names: list[Hashable] = list(range(problem.n_primary))
            self.problem = build_cover(problem, _Clock(self._tick))
        else:
            self.names = list(problem.variables)
            self.problem = build(problem, _Clock(self._tick))
        self.limit = limit
        self.time_limit = time_limit
        self.progress = progress
        self._iterator: Iterator[dict[int, int]] | None = None
        self._started: float | None = None
        self._last_progress = 0.0

    def _tick(self) -> None:
        """Called by the `_Clock` during the search: enforce the time limit
        (by raising `_OutOfTime` through the solver) and report progress."""
        if self._started is None:
            return
        now = time.perf_counter()
        if self.time_limit is not None and now - self._started >= self.time_limit:
            raise _OutOfTime
        if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
            self._last_progress = now
            self.stats.time = now - self._started
            self.progress(self.stats)

    def _solutions(self) -> Iterator[dict[int, int]]:
        if self.problem is None:
            return iter(())
        if not self.names:
            # python-constraint reports no solution for a problem without
            # variables; the empty assignment is its one solution.
            return iter(({},))
        return self.problem.getSolutionIter()

    def _next_raw(self) -> dict[int, int] | None:
        """The next solution of the solver, or None once the search has ended."""
        if self.status is not None:
            return None
        now = time.perf_counter()
        if self._started is None:
            self._started = self._last_progress = now
            self._iterator = self._solutions()
        if self.limit is not None and self.stats.solutions >= self.limit:
            self._finish(Status.SOLUTION_LIMIT)
            return None
        if self.time_limit is not None and now - self._started >= self.time_limit:
            self._finish(Status.TIME_LIMIT)
            return None
        assert self._iterator is not None
        try:
            raw = next(self._iterator)
        except StopIteration:
            self._finish(Status.COMPLETE)
            return None
        except _OutOfTime:
            self._finish(Status.TIME_LIMIT)
            return None
        except KeyboardInterrupt:
            self._finish(Status.INTERRUPTED)
            return None
        self.stats.solutions += 1
        now = time.perf_counter()
        self.stats.time = now - self._started
        if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
            self._last_progress = now
            try:
                self.progress(self.stats)
            except KeyboardInterrupt:
                # Ctrl-C in the callback: this solution is kept, the search ends.
                self._finish(Status.INTERRUPTED)
                return raw
        if self.limit is not None and self.stats.solutions >= self.limit:
            self._finish(Status.SOLUTION_LIMIT)
        return raw

    def __next__(self) -> Assignment | tuple[int, ...]:
        raw = self._next_raw()
        if raw is None:
            raise StopIteration
        if self.cover:
            return tuple(sorted(set(raw.values())))  # the options the items took
        return Assignment((x, raw[i]) for i, x in enumerate(self.names))

    def count(self) -> Result:
        """Run to the end without building the solutions in the model's terms."""
        while self._next_raw() is not None:
            pass
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)

    def close(self) -> None:
        if self.status is None:
            self._finish(Status.INTERRUPTED)

    def _finish(self, status: Status) -> None:
        self.status = status
        if self._started is None:
            self._started = time.perf_counter()
        self.stats.time = time.perf_counter() - self._started
        self._iterator = None


class PythonConstraintBackend:
    """python-constraint's backtracking solver; native form `Model`, and an
    `ExactCover` taken directly (a variable per primary item)."""

    name: ClassVar[str] = "python-constraint"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    capabilities: ClassVar[frozenset[str]] = ALL_CONSTRAINT_KINDS | {COLOURS}
    cover_kinds: ClassVar[frozenset[str]] = frozenset({"AllDifferent", "Compare"})
    """A model of all-differents alone (a sudoku, a latin square, givens as
    domains or equalities) is taken as an exact cover: as a model its search
    sees no hidden single (the README's sudoku: TIME_LIMIT after 30 s; 9 of
    10 of Norvig's top95 past 2 s), as a cover it picks the item with fewest
    options (0.14 s; all 10 in 0.8 s on average). Enumerating a loose one
    costs more per solution that way (5x5 latin squares with a row given:
    3.3 s against 0.2 s), but a puzzle is what this form is for.
    bench/RESULTS.md, issue 24."""

    def solutions(self, problem: Model | ExactCover, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> PythonConstraintSearch:
        return PythonConstraintSearch(problem, limit=limit, time_limit=time_limit,
                                      progress=progress)

    def count(self, problem: Model | ExactCover, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return PythonConstraintSearch(problem, time_limit=time_limit,
                                      progress=progress).count()


__all__ = ["PythonConstraintBackend", "PythonConstraintSearch", "build", "build_cover"]
