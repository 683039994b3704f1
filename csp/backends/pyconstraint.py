"""The `python-constraint` backend (PyPI `python-constraint2`, module `constraint`).

A plain backtracking solver with forward checking, written in Python and
compiled with Cython: slow, but independent of the other backends, which is
what a cross-check wants. Constraints map onto its built-ins where they exist
(all-different, exact/min/max sums with multipliers, in-set, all-equal); a
table is a function constraint over a set of tuples.

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

from csp.backends.base import CONSTRAINT_KINDS, Progress, Search
from csp.constraints import AllDifferent, Compare, Linear, Table
from csp.model import Assignment, Model
from csp.reformulate import allowed_tuples
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
    domain is empty (python-constraint refuses empty domains). `clock`, if
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
        if isinstance(c, AllDifferent):
            if len(scope) > 1:
                problem.addConstraint(pc.AllDifferentConstraint(), scope)
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
        else:
            if isinstance(c, Table):  # a Relation too: its tuples are expanded
                rows, inside = c._set, not c.forbidden
            else:
                domains = [m.variables[x].domain for x in c.scope]
                rows, inside = frozenset(allowed_tuples(c, domains)), True
            problem.addConstraint(pc.FunctionConstraint(_member(rows, inside)), scope)
    if clock is not None and names:
        problem.addConstraint(clock, list(range(len(names))))
    return problem


def _member(rows: frozenset[tuple[int, ...]], inside: bool) -> Any:
    if inside:
        return lambda *values: values in rows
    return lambda *values: values not in rows


class PythonConstraintSearch(Search):
    """A lazy walk over python-constraint's solution iterator."""

    backend = "python-constraint"
    PROGRESS_SECONDS = 0.2

    def __init__(self, m: Model, *, limit: int | None = None, time_limit: float | None = None,
                 progress: Progress | None = None) -> None:
        super().__init__()
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit must be >= 0, not {time_limit}")
        self.names: list[Hashable] = list(m.variables)
        self.problem = build(m, _Clock(self._tick))
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

    def __next__(self) -> Assignment:
        raw = self._next_raw()
        if raw is None:
            raise StopIteration
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
    """python-constraint's backtracking solver; native form `Model`."""

    name: ClassVar[str] = "python-constraint"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model,)
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS

    def solutions(self, problem: Model, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> PythonConstraintSearch:
        return PythonConstraintSearch(problem, limit=limit, time_limit=time_limit,
                                      progress=progress)

    def count(self, problem: Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return PythonConstraintSearch(problem, time_limit=time_limit,
                                      progress=progress).count()


__all__ = ["PythonConstraintBackend", "PythonConstraintSearch", "build"]
