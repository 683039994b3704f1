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

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar

import numpy as np

from csp.backends.base import CONSTRAINT_KINDS, FAMILY, PAUSED, Progress, SlicedSearch
from csp.backends.bitmask import batch, kernel
from csp.backends.bitmask.compile import MAX_VALUES, Compiled, compile_model
from csp.model import Assignment, Model
from csp.result import Result, Stats, Status


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
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS | {FAMILY}

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


    def solve_many(self, problem: Model, givens: Sequence[Mapping[object, Sequence[int]]], *,
                   count: bool = False, progress: Progress | None = None
                   ) -> Iterator[Result]:
        """Each puzzle `problem` with the domains `givens[j]` (`{name: values}`)
        fixed, solved in one compiled loop over the model compiled once: its
        first solution (`count`: its number of solutions), in order."""
        compiled = compile_model(problem)
        p = compiled.problem
        position = [{v: i for i, v in enumerate(values)} for values in compiled.values]
        index = {name: i for i, name in enumerate(compiled.names)}
        fixed_var: list[int] = []
        fixed_mask: list[int] = []
        starts = [0]
        for fixed in givens:
            for name, values in fixed.items():
                x = index[name]
                fixed_var.append(x)
                fixed_mask.append(_mask(position[x], values))
            starts.append(len(fixed_var))
        fresh = kernel.new_state(p)
        if not compiled.feasible:
            fresh.st[kernel.PHASE] = kernel.PHASE_DONE
        state = kernel.new_state(p)
        where = np.zeros(batch.BATCH_SIZE, dtype=np.int64)
        out = np.zeros((len(givens), batch.OUT_SIZE), dtype=np.int64)
        found = np.zeros((len(givens), max(len(compiled.names), 1)), dtype=np.int64)
        arrays = (np.asarray(starts, dtype=np.int64), np.asarray(fixed_var, dtype=np.int64),
                  np.asarray(fixed_mask, dtype=np.int64))
        done = 0
        clock = time.perf_counter()
        while done < len(givens):
            now = batch.solve_batch(p, state, fresh, *arrays, count, where, out, found,
                                    BATCH_BUDGET)
            seconds = (time.perf_counter() - clock) / max(now - done, 1)
            for j in range(done, now):
                yield _family_result(compiled, out[j], found[j], count, seconds)
            done = now
            clock = time.perf_counter()
            if progress is not None:
                progress(Stats(solutions=int(out[:done, batch.OUT_SOLUTIONS].sum()),
                               nodes=int(out[:done, batch.OUT_NODES].sum())))


BATCH_BUDGET = 1 << 16
"""Decisions per call of the family kernel (a decision may cost a propagation
of every constraint): Ctrl-C and progress are served while a collection is solved."""


def _mask(position: dict[int, int], values: Sequence[int]) -> int:
    """The int64 mask of `values` in a variable's layout (bit 63 is the sign)."""
    mask = 0
    for v in values:
        mask |= 1 << position[v]
    return mask - (1 << 64) if mask >= 1 << 63 else mask


def _family_result(compiled: Compiled, out: np.ndarray, found: np.ndarray, count: bool,
                   seconds: float) -> Result:
    solutions = int(out[batch.OUT_SOLUTIONS])
    stats = Stats(solutions=solutions, nodes=int(out[batch.OUT_NODES]),
                  failures=int(out[batch.OUT_FAILURES]), time=seconds)
    solution = None
    if solutions and not count:
        solution = Assignment(zip(compiled.names, map(tuple.__getitem__, compiled.values,
                                                      found.tolist())))
    exhausted = int(out[batch.OUT_DONE]) == 1
    return Result(solutions, Status.COMPLETE if exhausted else Status.SOLUTION_LIMIT, stats,
                  "bitmask", solution)


__all__ = ["MAX_VALUES", "PAUSED", "BitmaskBackend", "BitmaskSearch"]
