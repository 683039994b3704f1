"""Counting in parallel: split the search tree into independent subproblems.

A backend that splits its own search (the `split` capability, as `dlx`
declares) is split by the search itself: the partial solutions of its first
levels are prefixes, and each worker counts the solutions below one prefix.
On any other backend, a problem that reaches it as a `Model` is split on the
values of its variables with the fewest values (each subproblem is the model
with those variables fixed), and one that reaches it as an `ExactCover` on the
options of its items with the fewest options (each subproblem is the cover
with those options chosen). Either way the
subproblems partition the solutions, so their counts add up to the count of
one process.

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

import ctypes
import itertools
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections.abc import Hashable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from csp import dispatch
from csp.backends.base import SPLIT, Backend
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result, Stats, Status

TASKS_PER_WORKER = 8
"""Subproblems per worker, so that uneven subtrees still balance out."""


def count(
    problem: ExactCover | Model,
    backend: str | Backend = "auto",
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
    plan = dispatch.prepare(problem, backend)
    workers = workers or os.cpu_count() or 1
    target = workers * TASKS_PER_WORKER
    tasks: list[tuple[Any, ...]]
    if SPLIT in plan.backend.capabilities:
        tasks = [(_count_prefix, plan, prefix) for prefix in dispatch.prefixes(plan, target)]
    elif isinstance(plan.target, Model):
        tasks = [(_count_fixed, plan.target, plan.backend, fixed)
                 for fixed in _model_splits(plan.target, target)]
    else:
        tasks = [(_count_forced, plan.target, plan.backend, prefix)
                 for prefix in _cover_splits(plan.target, target)]
    outcomes = _run(tasks, workers, executor, time_limit)
    return _merge(outcomes, plan.name, len(tasks), time.perf_counter() - started)


def _model_splits(model: Model, target: int) -> list[dict[Hashable, int]]:
    # Fix the variables with the fewest values first, as a search would branch.
    order = sorted(model.variables.values(), key=lambda v: len(v.domain))
    chosen: list[Any] = []
    size = 1
    for variable in order:
        if size >= target:
            break
        if len(variable.domain) <= 1:
            continue  # a given: nothing to split on
        chosen.append(variable)
        size *= len(variable.domain)
    if not chosen:
        return [{}]
    names = [v.name for v in chosen]
    return [dict(zip(names, values)) for values in itertools.product(*(v.domain for v in chosen))]


def _cover_splits(xc: ExactCover, target: int, max_depth: int = 4) -> list[tuple[int, ...]]:
    """Prefixes (sets of compatible options) whose subtrees partition the
    solutions, for a backend that does not split its own search: as Algorithm
    X would branch, on the uncovered primary item with the fewest options left."""
    arrays = xc.arrays()
    start, items, colours = arrays["start"], arrays["items"], arrays["colours"]
    entries = [dict(zip(items[start[k]:start[k + 1]].tolist(),
                        colours[start[k]:start[k + 1]].tolist())) for k in range(xc.n_options)]
    by_item: list[list[int]] = [[] for _ in range(xc.n_primary)]
    for k, entry in enumerate(entries):
        for item in entry:
            if item < xc.n_primary:
                by_item[item].append(k)

    def fits(k: int, taken: dict[int, int]) -> bool:
        return all(item not in taken or (colour and taken[item] == colour)
                   for item, colour in entries[k].items())

    def children(prefix: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        taken: dict[int, int] = {}
        for k in prefix:
            taken.update(entries[k])
        open_items = [i for i in range(xc.n_primary) if i not in taken]
        if not open_items:
            return None  # a solution already: it stays as it is
        options = {i: [k for k in by_item[i] if fits(k, taken)] for i in open_items}
        item = min(open_items, key=lambda i: len(options[i]))
        return [prefix + (k,) for k in options[item]]

    prefixes: list[tuple[int, ...]] = [()]
    for _ in range(max_depth):
        if len(prefixes) >= target:
            break
        deeper: list[tuple[int, ...]] = []
        for prefix in prefixes:
            found = children(prefix)
            deeper.extend([prefix] if found is None else found)
        prefixes = deeper
    return prefixes


def _forced(xc: ExactCover, prefix: tuple[int, ...]) -> ExactCover:
    """`xc` with the options of `prefix` chosen: they and the options compatible
    with them (the items they cover are covered by them alone)."""
    chosen = [dict(xc.option(k)) for k in prefix]
    taken: dict[Hashable, Hashable] = {}
    for entry in chosen:
        taken.update(entry)
    sub = ExactCover(xc.primary, xc.secondary, name=xc.name)
    for k in range(xc.n_options):
        option = xc.option(k)
        if k in prefix or all(item not in taken or (colour is not None and taken[item] == colour)
                              for item, colour in option):
            sub.add_option([item if colour is None else (item, colour) for item, colour in option])
    return sub


def _count_forced(xc: ExactCover, backend: Backend, prefix: tuple[int, ...],
                  deadline: float | None) -> Result:
    return dispatch.prepare(_forced(xc, prefix), backend).count(time_limit=_remaining(deadline))


def _remaining(deadline: float | None) -> float | None:
    # A wall-clock deadline, so that tasks queued behind others get what is left.
    return None if deadline is None else max(0.0, deadline - time.time())


def _count_prefix(plan: dispatch.Plan, prefix: Sequence[Hashable],
                  deadline: float | None) -> Result:
    return dispatch.count_below(plan, prefix, _remaining(deadline))


def _count_fixed(model: Model, backend: Backend, fixed: dict[Hashable, int],
                 deadline: float | None) -> Result:
    plan = dispatch.prepare(_restrict(model, fixed), backend)
    return plan.count(time_limit=_remaining(deadline))


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
    if not tasks:
        return []  # the split found the tree empty: no solution
    if executor is None and workers == 1:
        outcomes = []
        for fn, *args in tasks:
            outcomes.append(fn(*args, deadline))
            if outcomes[-1].status is Status.INTERRUPTED:
                break  # Ctrl-C: not the next subproblem
        return outcomes
    own = executor is None
    if own or isinstance(executor, ProcessPoolExecutor):
        _check_picklable(tasks[0])
    if own:
        methods = multiprocessing.get_all_start_methods()
        # fork shares the compiled kernels with the children; spawn elsewhere.
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                       initializer=_worker_started)
    futures = []
    try:
        futures = [executor.submit(fn, *args, deadline) for fn, *args in tasks]
        return [future.result() for future in futures]
    except KeyboardInterrupt:
        # Ctrl-C: keep what finished, stop the rest now, and say so.
        for future in futures:
            future.cancel()
        if own:
            _stop_workers(executor)
        done = [f.result() for f in futures if f.done() and not f.cancelled()
                and f.exception() is None]
        return done + [Result(0, Status.INTERRUPTED, Stats(), "")]
    finally:
        if own:
            assert isinstance(executor, Executor)
            executor.shutdown(wait=False, cancel_futures=True)


def _worker_started() -> None:
    """In each worker of the local pool: Ctrl-C, which a terminal sends to the
    whole process group, is the parent's to handle; and a worker dies with
    its parent, even one killed outright, rather than counting on orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # no prctl: the pool's own shutdown still ends the workers


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    # The pool has no public way to stop a running task: end its processes.
    for process in list(getattr(executor, "_processes", {}).values()):
        process.terminate()


def _check_picklable(task: tuple[Any, ...]) -> None:
    """Refuse before submitting what cannot reach another process: a failed
    pickle inside a process pool leaves its shutdown waiting for ever."""
    try:
        pickle.dumps(task)
    except Exception as err:  # noqa: BLE001 - any pickling failure means the same
        raise InputError(
            "the problem cannot be sent to other processes (a lambda or local function in a "
            f"Relation, say): {type(err).__name__}: {err}; declare it with a module-level "
            "function, or count it with workers=1"
        ) from None


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
