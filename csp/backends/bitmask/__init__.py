"""The `bitmask` backend: propagation search over bitmask domains, compiled.

Each domain is a 64-bit mask over the variable's own sorted values; all-different
(naked and hidden singles), sums (subset tables for all-different digits as in
kakuro, bounds otherwise), tables (supports) and disequalities shrink the masks to
a fixpoint after every decision, and the unassigned variable with the fewest
candidates is filled next, smallest value first.

>>> from csp import AllDifferent, Model, Sum
>>> m = Model()
>>> xs = [m.var(f"x{i}", range(1, 4)) for i in range(3)]
>>> _ = m.add(AllDifferent(xs))
>>> _ = m.add(Sum(xs[:2]) == 3)
>>> search = BitmaskBackend().solutions(m)
>>> list(search), search.status.value
([{'x0': 1, 'x1': 2, 'x2': 3}, {'x0': 2, 'x1': 1, 'x2': 3}], 'COMPLETE')
>>> BitmaskBackend().count(m).count
2
"""

from __future__ import annotations

from typing import ClassVar

from csp.backends.base import CONSTRAINT_KINDS, PAUSED, Progress, SlicedSearch
from csp.backends.bitmask import kernel
from csp.backends.bitmask.compile import MAX_VALUES, Compiled, compile_model
from csp.model import Assignment, Model
from csp.result import Result, Stats


class BitmaskSearch(SlicedSearch):
    """One propagation search over its own state arrays."""

    backend = "bitmask"

    def __init__(self, problem: Model, **limits) -> None:
        super().__init__(**limits)
        self.problem = problem
        self.compiled: Compiled = compile_model(problem)
        self.state = kernel.new_state(self.compiled.problem)
        if not self.compiled.feasible:
            self.state.st[kernel.PHASE] = kernel.PHASE_DONE

    def _advance(self, count_only: bool, budget: int) -> int:
        return int(kernel.search(self.compiled.problem, self.state, count_only, budget))

    def _solution(self) -> Assignment:
        compiled = self.compiled
        return Assignment(
            (name, values[int(mask).bit_length() - 1] if mask > 0 else values[63])
            for name, values, mask in zip(compiled.names, compiled.values, self.state.dom)
        )

    def _measure(self, stats: Stats) -> None:
        st = self.state.st
        stats.solutions = int(st[kernel.SOLUTIONS])
        stats.nodes = int(st[kernel.NODES])
        stats.failures = int(st[kernel.FAILURES])
        stats.extra["propagations"] = int(st[kernel.PROPAGATIONS])


class BitmaskBackend:
    """Bitmask-domain propagation search: the native backend for `Model`."""

    name: ClassVar[str] = "bitmask"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model,)
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS

    def refuses(self, problem: Model) -> str | None:
        """Why this backend cannot take `problem` (None if it can): a domain that
        does not fit in one 64-bit mask."""
        for name, variable in problem.variables.items():
            if len(variable.domain) > MAX_VALUES:
                return (f"variable {name!r} has {len(variable.domain)} values; the bitmask "
                        f"backend takes at most {MAX_VALUES} per variable")
        return None

    def solutions(self, problem: Model, *, limit: int | None = None,
                  time_limit: float | None = None,
                  progress: Progress | None = None) -> BitmaskSearch:
        return BitmaskSearch(problem, limit=limit, time_limit=time_limit, progress=progress)

    def count(self, problem: Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return BitmaskSearch(problem, time_limit=time_limit, progress=progress).count()


__all__ = ["MAX_VALUES", "PAUSED", "BitmaskBackend", "BitmaskSearch"]
