"""Projection: the distinct assignments of some of a model's variables.

`csp.count(model, over=[...])` and `csp.solutions(model, over=[...])` count
and list the assignments of the variables `over` that extend to a solution,
each once, however many ways it extends. A model that states a property
through variables of its own (a flow for connectivity, partial sums, an
automaton's states chosen freely) then counts what it means to count.

A backend with the `PROJECTION` capability does it itself (its `solutions`
and `count` take `over=`); for the others `ProjectedSearch` does it by
*blocking*: find a solution, report its projection, forbid that projection
(a forbidden `Table` over `over`), solve again, until none is left. Each
round is a complete search for one solution, so the cost grows with the
number of projections, not of solutions; nothing but the projections found
so far is kept.

>>> from csp import Model, Sum
>>> m = Model()
>>> x, y = m.var("x", range(3)), m.var("y", range(3))
>>> _ = m.add(Sum([x, y]) >= 2)
>>> import csp
>>> csp.count(m).count, csp.count(m, over=[x]).count
(6, 3)
>>> sorted(s["x"] for s in csp.solutions(m, over=["x"]))
[0, 1, 2]
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable
from typing import Any

from csp import dispatch
from csp.backends.base import PROJECTION, Progress, Search
from csp.constraints import Table, Term
from csp.errors import InputError
from csp.model import Assignment, Model
from csp.result import Status


def over_names(problem: Any, over: Iterable[Any]) -> list[Hashable]:
    """The names of the variables `over` (variables or names) of `problem`,
    checked: a model's, each once."""
    if not isinstance(problem, Model):
        raise InputError("over= projects a model's solutions onto some of its variables; "
                         f"this problem is a {type(problem).__name__}")
    if isinstance(over, (str, bytes)):
        raise InputError(f"over=: got the string {over!r}; pass a list of variables")
    names: list[Hashable] = []
    for item in over:
        name = item.name if isinstance(item, Term) else item
        try:
            known = name in problem.variables
        except TypeError:
            known = False
        if not known:
            raise InputError(f"over=: {name!r} is not a variable of this model", token=name)
        if isinstance(item, Term) and problem.variables[name] is not item:
            raise InputError(f"over=: variable {name!r} belongs to another model", token=name)
        if name in names:
            raise InputError(f"over=: variable {name!r} is named twice", token=name)
        names.append(name)
    return names


class ProjectedSearch(Search):
    """Projections found one complete search at a time, each blocked before
    the next search (see the module)."""

    def __init__(self, problem: Model, over: list[Hashable], backend: Any, *,
                 limit: int | None = None, time_limit: float | None = None,
                 progress: Progress | None = None) -> None:
        super().__init__()
        self.problem = problem
        self.over = over
        self.backend_choice = backend
        self.limit = limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.progress = progress
        self.found: list[tuple[int, ...]] = []
        self.started = time.perf_counter()
        self.stats.extra["projection"] = "blocking"

    def _blocked(self) -> Model:
        """The model with every projection found so far forbidden."""
        blocked = Model(self.problem.name)
        for name, variable in self.problem.variables.items():
            blocked.var(name, variable.domain)
        blocked.constraints = list(self.problem.constraints)  # scopes are names
        if self.found:
            blocked.add(Table(self.over, self.found, forbidden=True))
        return blocked

    def __next__(self) -> Assignment:
        if self.status is not None:
            raise StopIteration
        if self.limit is not None and len(self.found) >= self.limit:
            return self._end(Status.SOLUTION_LIMIT)
        left = None
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                return self._end(Status.TIME_LIMIT)
        plan = dispatch.prepare(self._blocked(), self.backend_choice)
        self.backend = plan.name
        search = plan.solutions(limit=1, time_limit=left)
        try:
            solution = next(search, None)
        except KeyboardInterrupt:
            search.close()
            return self._end(Status.INTERRUPTED)
        finally:
            inner = search.stats
            self.stats.nodes = (self.stats.nodes or 0) + (inner.nodes or 0)
            if inner.failures is not None:
                self.stats.failures = (self.stats.failures or 0) + inner.failures
        if solution is None:
            search.close()
            status = search.status
            return self._end(Status.COMPLETE if status is Status.COMPLETE else
                             status or Status.INTERRUPTED)
        search.close()
        row = tuple(solution[name] for name in self.over)
        self.found.append(row)
        self.stats.solutions = len(self.found)
        self.stats.time = time.perf_counter() - self.started
        if self.progress is not None:
            self.progress(self.stats.copy())
        return Assignment(zip(self.over, row))

    def _end(self, status: Status) -> Any:
        self.status = status
        self.stats.solutions = len(self.found)
        self.stats.time = time.perf_counter() - self.started
        self.stats.extra["rounds"] = len(self.found) + (status is Status.COMPLETE)
        raise StopIteration


def projected(problem: Any, over: Iterable[Any], backend: Any, *, limit: int | None,
              time_limit: float | None, progress: Progress | None) -> Search:
    """The distinct projections of `problem`'s solutions onto `over`: by the
    backend itself where it declares `PROJECTION`, else by blocking. `"auto"`
    prefers an available backend that projects itself and takes the problem."""
    names = over_names(problem, over)
    if isinstance(backend, str) and backend == "auto":
        backend = _projecting(problem) or "auto"
    plan = dispatch.prepare(problem, backend)
    if PROJECTION in plan.backend.capabilities and isinstance(plan.target, Model):
        search: Search = plan.backend.solutions(  # type: ignore[call-arg]
            plan.target, limit=limit, time_limit=time_limit, progress=progress, over=names)
        search.backend = plan.name
        return search
    return ProjectedSearch(problem, names, backend, limit=limit, time_limit=time_limit,
                           progress=progress)


def _projecting(problem: Model) -> str | None:
    from csp import backends

    for name in backends.engines():
        if PROJECTION in backends.get(name).capabilities:
            try:
                dispatch.prepare(problem, name)
            except InputError:
                continue
            return name
    return None


__all__ = ["PROJECTION", "ProjectedSearch", "over_names", "projected"]
