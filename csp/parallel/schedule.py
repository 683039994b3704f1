"""Running subproblems on workers: a local process pool, any executor with
`submit` (a Dask `distributed.Client`), or this process.

The parent keeps a queue of keys and as many subproblems in flight as there
are workers. A worker counts its subproblem one level deeper, child by
child, and after `budget` seconds hands the children it has not started back
to the queue: a subtree that turns out large is shared out while the others
run, so that no worker sits idle at the end. Every finished piece is written
to the checkpoint (if any) as it comes back.
A backend whose solver runs outside the process (`OUTSIDE`) is
not cut deeper than the first cut: each call pays the solver's start.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import socket
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from csp.children import die_with_parent
from csp.errors import InputError
from csp.parallel.checkpoint import Journal
from csp.parallel.split import Key, Splitter
from csp.result import Result, Stats, Status

BUDGET = 1.0
"""Seconds a worker counts before it hands back the children it has not started."""

POLL = 0.2
"""The longest wait for a subproblem to finish before the parent looks up
(progress, Ctrl-C)."""


@dataclass
class Piece:
    """What a worker sends back for one subproblem."""

    key: Key
    children: list[Key] | None  # the cut it made (None: counted whole)
    finished: list[tuple[Key, Result]]
    rest: list[Key]  # not started: back to the queue
    worker: str
    partial: Result | None = None  # a piece stopped by the time limit or Ctrl-C


_SPLITTER: Splitter | None = None
"""In a worker of the local pool: the splitter, sent once when it started."""


def work_here(key: Key, budget: float | None, deadline: float | None) -> Piece:
    """`work` on the splitter this worker was started with."""
    assert _SPLITTER is not None
    return work(_SPLITTER, key, budget, deadline)


def work(splitter: Splitter, key: Key, budget: float | None, deadline: float | None) -> Piece:
    """Count below `key`; with a `budget`, one level deeper, handing back what
    is not started when the budget is spent."""
    started = time.perf_counter()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    children = splitter.children(key) if budget is not None else None
    units = [key] if children is None else children
    finished: list[tuple[Key, Result]] = []
    for i, unit in enumerate(units):
        left = None if deadline is None else max(0.0, deadline - time.time())
        result = splitter.count(unit, left)
        if result.status is not Status.COMPLETE:
            return Piece(key, children, finished, units[i + 1:], worker, result)
        finished.append((unit, result))
        if budget is not None and time.perf_counter() - started > budget:
            return Piece(key, children, finished, units[i + 1:], worker)
    return Piece(key, children, finished, [], worker)


@dataclass
class Tally:
    """The sum of what came back, and how the run ended."""

    count: int = 0
    nodes: int | None = 0
    done: int = 0
    status: Status = Status.COMPLETE
    workers: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    memo: dict[str, int] = field(default_factory=dict)
    """Subproblems per memo state (`stats.extra["memo"]`), and the hits and lookups."""

    def add(self, result: Result, worker: str) -> None:
        self.count += result.count
        extra = result.stats.extra
        if "memo" in extra:
            state = str(extra["memo"]).split(" after ")[0]  # "auto: off", without its figures
            self.memo[state] = self.memo.get(state, 0) + 1
            for key in ("memo_hits", "memo_lookups"):
                self.memo[key] = self.memo.get(key, 0) + int(extra.get(key, 0))
        nodes = result.stats.nodes
        self.nodes = None if nodes is None or self.nodes is None else self.nodes + nodes
        figures = self.workers.setdefault(worker, {"subproblems": 0, "solutions": 0,
                                                   "time": 0.0})
        figures["subproblems"] += 1
        figures["solutions"] += result.count
        figures["time"] = round(figures["time"] + result.stats.time, 6)

    def stop(self, status: Status) -> None:
        order = [Status.COMPLETE, Status.SOLUTION_LIMIT, Status.TIME_LIMIT, Status.INTERRUPTED]
        self.status = max(self.status, status, key=order.index)


def run(splitter: Splitter, keys: list[Key], tally: Tally, *, workers: int, executor: Any,
        deadline: float | None, journal: Journal | None,
        progress: Callable[[Tally, int], None] | None) -> None:
    """Count below every key into `tally`, on `executor` (None: a local pool
    of `workers` processes, or this process for one worker)."""
    queue = deque(keys)
    if executor is None and workers == 1:
        while queue and tally.status is Status.COMPLETE:
            _book(work(splitter, queue.popleft(), None, deadline), tally, queue, journal)
            if progress is not None:
                progress(tally, len(queue))
        return
    own = executor is None
    if own or isinstance(executor, ProcessPoolExecutor):
        check_picklable(splitter)
    budget = sharing_budget(splitter)
    # The problem travels once per worker, not once per subproblem: the local
    # pool gets it when a worker starts, a Dask cluster as a scattered object.
    if own:
        executor = local_pool(workers, splitter)
        submit = lambda key: executor.submit(work_here, key, budget, deadline)  # noqa: E731
    else:
        shared = _scattered(executor, splitter)
        submit = lambda key: executor.submit(work, shared, key, budget, deadline)  # noqa: E731
    flying: dict[Any, Key] = {}
    try:
        while (queue or flying) and tally.status is Status.COMPLETE:
            while queue and len(flying) < 2 * workers:  # one waiting behind each running
                key = queue.popleft()
                flying[submit(key)] = key
            for future in _finished(list(flying)):
                flying.pop(future)
                try:
                    piece = future.result()
                except Exception as err:  # noqa: BLE001 - a worker that died is reported
                    tally.notes.append(f"a worker failed: {type(err).__name__}: {err}")
                    tally.stop(Status.INTERRUPTED)
                    continue
                _book(piece, tally, queue, journal)
            if progress is not None:
                progress(tally, len(queue) + len(flying))
    except KeyboardInterrupt:
        tally.stop(Status.INTERRUPTED)
    finally:
        for future in flying:
            future.cancel()
        if own:
            stop_workers(executor)
            executor.shutdown(wait=False, cancel_futures=True)


def sharing_budget(splitter: Splitter) -> float | None:
    """`BUDGET`, or None (each subproblem counted whole) for a backend whose
    solver runs outside the process: a call there often costs more than
    `BUDGET` in start-up alone, so a worker would count one child per
    subproblem and hand the rest back, and the tree would be cut down to
    leaves that each cost only a start (8-queens on ACE: minutes, not
    seconds)."""
    return None if splitter.outside else BUDGET


def _finished(futures: list[Any]) -> list[Any]:
    """The futures done within `POLL` seconds (at least one, unless none is)."""
    if all(isinstance(f, Future) for f in futures):
        done, _ = wait(futures, timeout=POLL, return_when=FIRST_COMPLETED)
        return list(done)
    try:  # Dask futures: its own wait
        from distributed import wait as dask_wait

        done = dask_wait(futures, timeout=POLL, return_when="FIRST_COMPLETED").done
        return list(done)
    except TimeoutError:
        return []  # none done yet: look again
    except Exception:  # noqa: BLE001 - not Dask futures: look at each
        time.sleep(POLL)
        return [f for f in futures if f.done()]


def _book(piece: Piece, tally: Tally, queue: deque[Key], journal: Journal | None) -> None:
    """Add a piece to the tally and the checkpoint; queue what it handed back."""
    if journal is not None and piece.children is not None:
        journal.split(piece.key, piece.children)
    for key, result in piece.finished:
        tally.add(result, piece.worker)
        tally.done += 1
        if journal is not None:
            journal.done(key, result.count, nodes=result.stats.nodes, time=result.stats.time)
    if piece.partial is not None:
        # Stopped by the time limit or Ctrl-C: a lower bound, not written down.
        tally.add(piece.partial, piece.worker)
        tally.stop(piece.partial.status)
    queue.extendleft(reversed(piece.rest))  # depth first: the pieces get smaller


def _scattered(executor: Any, splitter: Splitter) -> Any:
    """The splitter as a Dask client shares it with every worker, or as it is."""
    scatter = getattr(executor, "scatter", None)  # a Dask client; other executors have none
    if scatter is None:
        return splitter
    return scatter(splitter, broadcast=True, hash=False)


def local_pool(workers: int, splitter: Splitter) -> ProcessPoolExecutor:
    methods = multiprocessing.get_all_start_methods()
    # fork shares the compiled kernels with the children; spawn elsewhere.
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=worker_started, initargs=(splitter,))


def worker_started(splitter: Splitter) -> None:
    """In each worker of the local pool: keep the splitter; Ctrl-C, which a
    terminal sends to the whole process group, is the parent's to handle; and
    a worker dies with its parent, even one killed outright, rather than
    counting on orphaned."""
    global _SPLITTER
    _SPLITTER = splitter
    die_with_parent()


def stop_workers(executor: ProcessPoolExecutor) -> None:
    # The pool has no public way to stop a running task: end its processes.
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        process.terminate()


def check_picklable(splitter: Splitter) -> None:
    """Refuse before submitting what cannot reach another process: a failed
    pickle inside a process pool leaves its shutdown waiting for ever."""
    try:
        pickle.dumps(splitter)
    except Exception as err:  # noqa: BLE001 - any pickling failure means the same
        raise InputError(
            "the problem cannot be sent to other processes (a lambda or local function in a "
            f"Relation, say): {type(err).__name__}: {err}; declare it with a module-level "
            "function, or count it with workers=1"
        ) from None


def summary(tally: Tally, backend: str, elapsed: float, extra: dict[str, Any]) -> Result:
    """The tally as a `Result`, as one process's count would report it."""
    stats = Stats(solutions=tally.count, nodes=tally.nodes, time=elapsed)
    stats.extra.update(extra)
    stats.extra["workers"] = tally.workers
    if tally.memo:
        memo = dict(tally.memo)
        figures: dict[str, int] = {key: memo.pop(key) for key in ("memo_hits", "memo_lookups")
                                   if key in memo}
        # The memo's state in each subproblem (each worker keeps its own memo).
        stats.extra["memo"] = ", ".join(f"{state} in {n:,} subproblems"
                                        for state, n in sorted(memo.items()))
        stats.extra.update(figures)
    if tally.notes:
        stats.extra["notes"] = tally.notes
    return Result(tally.count, tally.status, stats, backend)


__all__ = ["BUDGET", "Piece", "Tally", "run", "summary", "work"]
