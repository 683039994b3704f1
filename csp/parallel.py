"""Counting in parallel: split the search tree into independent subproblems.

An `ExactCover` on `dlx` is split by the search itself: the choices of its
first levels (`DLXSearch.split`) are prefixes, and each worker counts the
solutions below one prefix (`DLXSearch.choose`). A `Model`, on any backend, is
split on the values of its variables with the fewest values: each subproblem
is the model with those variables fixed. Either way the subproblems partition
the solutions, so their counts add up to the count of one process.

The subproblems run on a local process pool by default, or on any executor
with `submit(fn, *args)` returning futures (a `concurrent.futures` executor,
or a Dask `distributed.Client`).

>>> from csp import ExactCover
>>> from csp.parallel import count
>>> xc = ExactCover.from_text("a b c\\na\\nb\\nc\\na b\\nb c\\na b c\\n")
>>> count(xc, workers=1).count
4
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import time
from collections.abc import Hashable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result, Stats, Status
from csp.solve import resolve_backend

TASKS_PER_WORKER = 8
"""Subproblems per worker, so that uneven subtrees still balance out."""


def count(
    problem: ExactCover | Model,
    backend: str = "auto",
    *,
    workers: int | None = None,
    executor: Any = None,
    time_limit: float | None = None,
) -> Result:
    """Count the solutions of `problem` on several processes.

    `workers` defaults to the number of cores; `executor` (anything with
    `submit`) replaces the local pool. The result is the same as `csp.count`'s;
    `stats.extra["subproblems"]` says into how many pieces the tree was cut.
    """
    started = time.perf_counter()
    name = resolve_backend(problem, backend)
    workers = workers or os.cpu_count() or 1
    target = workers * TASKS_PER_WORKER
    if isinstance(problem, ExactCover) and name == "dlx":
        tasks = [(_count_prefix, problem, prefix) for prefix in _dlx_prefixes(problem, target)]
    elif isinstance(problem, Model):
        tasks = [(_count_fixed, problem, name, fixed) for fixed in _model_splits(problem, target)]
    else:
        raise InputError(
            f"parallel counting takes an ExactCover on dlx or a Model on any backend, "
            f"not {type(problem).__name__} on {name}"
        )
    outcomes = _run(tasks, workers, executor, time_limit)
    return _merge(outcomes, name, len(tasks), time.perf_counter() - started)


def _dlx_prefixes(xc: ExactCover, target: int) -> list[tuple[int, ...]]:
    from csp.backends.dlx import DLXSearch

    prefixes: list[tuple[int, ...]] = [()]
    for depth in range(1, 5):
        if len(prefixes) >= target:
            break
        splitter = DLXSearch(xc)
        splitter.split(depth)
        prefixes = list(splitter)
    return prefixes


def _model_splits(model: Model, target: int) -> list[dict[Hashable, int]]:
    # Fix the variables with the fewest values first, as a search would branch.
    order = sorted(model.variables.values(), key=lambda v: len(v.domain))
    chosen: list[Any] = []
    size = 1
    for variable in order:
        if size >= target or len(variable.domain) <= 1:
            break
        chosen.append(variable)
        size *= len(variable.domain)
    if not chosen:
        return [{}]
    names = [v.name for v in chosen]
    return [dict(zip(names, values)) for values in itertools.product(*(v.domain for v in chosen))]


def _remaining(deadline: float | None) -> float | None:
    # A wall-clock deadline, so that tasks queued behind others get what is left.
    return None if deadline is None else max(0.0, deadline - time.time())


def _count_prefix(xc: ExactCover, prefix: Sequence[int], deadline: float | None) -> Result:
    from csp.backends.dlx import DLXSearch

    search = DLXSearch(xc, time_limit=_remaining(deadline))
    search.choose(prefix)
    return search.count()


def _count_fixed(model: Model, backend: str, fixed: dict[Hashable, int],
                 deadline: float | None) -> Result:
    from csp.solve import count as count_one

    return count_one(_restrict(model, fixed), backend, time_limit=_remaining(deadline))


def _restrict(model: Model, fixed: dict[Hashable, int]) -> Model:
    """A copy of `model` with the variables of `fixed` reduced to one value."""
    copy = Model(model.name)
    for name, variable in model.variables.items():
        copy.var(name, [fixed[name]] if name in fixed else variable.domain)
    for constraint in model.constraints:
        copy.constraints.append(constraint)  # scopes are names: they bind as they are
    return copy


def _run(tasks: list[tuple], workers: int, executor: Any, time_limit: float | None
         ) -> list[Result]:
    deadline = None if time_limit is None else time.time() + time_limit
    if executor is None and workers == 1:
        return [fn(*args, deadline) for fn, *args in tasks]
    own = executor is None
    if own:
        methods = multiprocessing.get_all_start_methods()
        # fork shares the compiled kernels with the children; spawn elsewhere.
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        futures = [executor.submit(fn, *args, deadline) for fn, *args in tasks]
        return [future.result() for future in futures]
    finally:
        if own:
            assert isinstance(executor, Executor)
            executor.shutdown(cancel_futures=True)


_SEVERITY = [Status.COMPLETE, Status.SOLUTION_LIMIT, Status.TIME_LIMIT, Status.INTERRUPTED]


def _merge(outcomes: list[Result], backend: str, pieces: int, elapsed: float) -> Result:
    stats = Stats(time=elapsed, extra={"subproblems": pieces})
    stats.solutions = sum(r.count for r in outcomes)
    for field in ("nodes", "failures", "updates"):
        values = [getattr(r.stats, field) for r in outcomes]
        if values and all(v is not None for v in values):
            setattr(stats, field, sum(values))
    status = max((r.status for r in outcomes), key=_SEVERITY.index, default=Status.COMPLETE)
    return Result(stats.solutions, status, stats, backend)


__all__ = ["count"]
