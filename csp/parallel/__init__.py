"""Counting in parallel: the search tree cut into subproblems, counted on
several processes, on a Dask cluster, or resumed from a checkpoint.

How the tree is cut follows what the backend declares (`csp.parallel.split`):
a backend with the `split` capability (`dlx`) cuts its own search into
prefixes; a problem that reaches its backend as a `Model` is cut on the
values of its variables with the fewest values; an exact cover on a backend
that does not split is cut on the options of its items with the fewest
options. The subproblems partition the solutions, so their counts add up to
the count of one process. Subproblems that turn out large are cut further
while the others run (`csp.parallel.schedule`).

They run on a local process pool by default, on any executor with
`submit(fn, *args)` returning futures (a `concurrent.futures` executor, or a
Dask `distributed.Client`), or on the Dask scheduler at `scheduler=ADDRESS`.
With `checkpoint=PATH` every finished subproblem is journaled as it
finishes, and the same call after a crash, a kill or Ctrl-C counts only what
is missing (`csp.parallel.checkpoint`).

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c\\na\\nb\\nc\\na b\\nb c\\na b c\\n")
>>> count(xc, workers=1).count
4
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from csp import dispatch
from csp.backends.base import Backend, check_time_limit
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.parallel import schedule
from csp.parallel.checkpoint import Journal
from csp.parallel.split import splitter_for
from csp.result import Result, Stats

TASKS_PER_WORKER = 32
"""Subproblems per worker in the first cut; large ones are cut further as they run."""

OUTSIDE_TASKS_PER_WORKER = 4
"""The same for a backend whose solver runs outside the process: each
subproblem pays the solver's start, and none is cut further."""

CONNECT_SECONDS = 5
"""How long to try to reach a Dask scheduler before saying it cannot be reached."""


def count(
    problem: ExactCover | Model,
    backend: str | Backend = "auto",
    *,
    workers: int | None = None,
    executor: Any = None,
    scheduler: str | None = None,
    time_limit: float | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[Stats], None] | None = None,
    up_to_symmetry: Any = False,
    memo: bool | str = "auto",
    memo_bytes: int | str | None = None,
    branch: str | None = None,
) -> Result:
    """Count the solutions of `problem` on several processes.

    `workers` defaults to the number of cores (of the cluster, with a Dask
    `executor` or `scheduler`); `executor` (anything with `submit`) replaces
    the local pool. The result is the same as `csp.count`'s;
    `stats.extra["subproblems"]` says how many pieces were counted and
    `stats.extra["workers"]` what each worker did. `progress` gets the
    statistics so far about five times a second, with `extra` saying the
    subproblems done and left.

    Args:
        problem: an `ExactCover` or a `Model`.
        backend: a name, `"auto"` or a backend object; how the tree is cut
            follows its capabilities (its own tree if it has `split`).
        workers: processes (or the cluster's threads); default: all cores.
        executor: anything with `submit` (a Dask `distributed.Client`).
        scheduler: the address of a Dask scheduler to connect to.
        time_limit: seconds, from the call.
        checkpoint: a file journalling each finished subproblem: the same
            call after a crash counts only what is missing.
        progress: called with the statistics so far.
        up_to_symmetry: not taken here (it runs on one process).
        memo: as for `csp.count` ("auto", True or False): each worker keeps
            its own memo across the subproblems it counts.
        memo_bytes: the bound of each worker's memo.
        branch: "mrv" or "first", as for `csp.count`.

    Returns:
        A `Result`, the same count as `csp.count`'s.

    Raises:
        InputError: a bad argument, both `executor` and `scheduler`, a
            checkpoint of another problem, or `up_to_symmetry`.

    >>> from csp.testing import queens_cover
    >>> count(queens_cover(6), workers=2).count
    4
    """
    started = time.perf_counter()
    time_limit = check_time_limit(time_limit)
    if up_to_symmetry:
        raise InputError("counting up to symmetry runs on one process: its pruning walks "
                         "the tree in order; count without workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise InputError(f"workers must be a whole number >= 1, not {workers!r}")
    if scheduler is not None and executor is not None:
        raise InputError("give a Dask scheduler address or an executor, not both")
    client = connect(scheduler) if scheduler is not None else None
    try:
        executor = client if client is not None else executor
        workers = workers or _cores(executor)
        if isinstance(executor, ThreadPoolExecutor):
            # Threads share one process, and so the memo's tables: each
            # worker keeps its own memo only in a process of its own.
            if memo is True:
                raise InputError("memo=True needs workers in processes of their own "
                                 "(threads would share one memo); use a process pool")
            memo = False
        return _count(problem, backend, workers, executor, time_limit, checkpoint, progress,
                      started, (memo, memo_bytes, branch))
    finally:
        if client is not None:
            client.close()


def _count(problem: Any, backend: str | Backend, workers: int, executor: Any,
           time_limit: float | None, checkpoint: str | os.PathLike[str] | None,
           progress: Callable[[Stats], None] | None, started: float,
           memo: tuple[Any, Any, Any]) -> Result:
    plan = dispatch.prepare(problem, backend)
    plan.memo = dispatch.memo_keywords(plan, *memo)
    splitter = splitter_for(plan)
    deadline = None if time_limit is None else time.time() + time_limit
    tally = schedule.Tally()
    journal = None
    resumed = 0
    if checkpoint is not None and Path(checkpoint).exists():
        path = Path(checkpoint)
        state = Journal.read(path, splitter.fingerprint(), plan.name, splitter.kind)
        keys = state.left
        tally.count, tally.nodes, tally.done, resumed = state.count, state.nodes, state.done, \
            state.done
        journal = Journal.resume(path)
    else:
        keys = splitter.first(workers * (OUTSIDE_TASKS_PER_WORKER if splitter.outside
                                           else TASKS_PER_WORKER))
        if checkpoint is not None:
            journal = Journal.start(Path(checkpoint), splitter.fingerprint(), plan.name,
                                    splitter.kind, keys)
    report = None if progress is None else _reporter(progress, started)
    try:
        schedule.run(splitter, keys, tally, workers=workers, executor=executor,
                     deadline=deadline, journal=journal, progress=report)
    finally:
        if journal is not None:
            journal.close()
    extra: dict[str, Any] = {"subproblems": tally.done, "splitting": splitter.kind}
    if resumed:
        extra["resumed"] = resumed  # subproblems read from the checkpoint
    return schedule.summary(tally, plan.name, time.perf_counter() - started, extra)


def _reporter(progress: Callable[[Stats], None], started: float
              ) -> Callable[[schedule.Tally, int], None]:
    last = [0.0]

    def report(tally: schedule.Tally, left: int) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.2:
            return
        last[0] = now
        elapsed = now - started
        done = tally.done
        extra: dict[str, Any] = {"subproblems_done": done, "subproblems_left": left,
                                 "rate": round(tally.count / elapsed, 1) if elapsed else 0.0}
        if done and left:
            extra["eta"] = round(elapsed * left / done, 1)  # rough: pieces differ in size
        progress(Stats(solutions=tally.count, nodes=tally.nodes, time=elapsed, extra=extra))

    return report


def connect(address: str) -> Any:
    """A Dask client of the scheduler at `address`; a clear error if Dask is
    not installed or the scheduler does not answer within a few seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("counting on a Dask cluster needs Dask: "
                         "pip install 'csp-workbench[distributed]'") from None
    # Dask's own timeout does not bound the handshake: a port that accepts and
    # never answers (a web server, say) would hang, and one that answers
    # junk can fail in any way. So the whole attempt runs against a deadline.
    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            outcome["client"] = Client(address, timeout=CONNECT_SECONDS)
        except BaseException as err:  # noqa: BLE001 - any failure means "not a scheduler"
            outcome["error"] = err

    thread = threading.Thread(target=attempt, name="csp-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 2)
    if "client" in outcome:
        return outcome["client"]
    why = ("no Dask scheduler answered" if thread.is_alive() else
           f"{type(outcome['error']).__name__}: {outcome['error']}"[:300])
    raise InputError(f"cannot reach the Dask scheduler at {address!r} within "
                     f"{CONNECT_SECONDS} s: {why}")


def _cores(executor: Any) -> int:
    """How many subproblems to keep in flight: the cluster's threads for Dask."""
    threads = getattr(executor, "nthreads", None)
    if callable(threads):
        try:
            return max(1, sum(threads().values()))
        except Exception:  # noqa: BLE001 - not a Dask client after all
            pass
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1


__all__ = ["count", "connect"]
