"""The search that counting up to symmetry runs: a walk over sub-searches
that yields the canonical solutions and keeps the statistics."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from csp.backends.base import Progress, Search
from csp.result import Result, Stats, Status


class Counted:
    """`n` canonical solutions counted inside a kernel, not materialised."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n


class UpToSymmetry(Search):
    """Runs a walk (a generator of events from the searches below it) and keeps
    the statistics: canonical solutions are yielded, the rest only counted."""

    def __init__(self, walk: Callable[[UpToSymmetry], Generator[Any, None, None]],
                 backend: str, *,
                 limit: int | None, time_limit: float | None,
                 progress: Progress | None) -> None:
        super().__init__()
        self.backend = backend
        self.limit = limit
        self.time_limit = time_limit
        self.progress = progress
        self.started = time.perf_counter()
        self.stats.nodes = 0
        self.stats.extra.update(raw_solutions=0, pruned=0)
        self._live: Search | None = None
        self._walk = walk(self)

    # -- used by walks -----------------------------------------------------------------

    def remaining(self) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - (time.perf_counter() - self.started))

    def sub(self, search: Search) -> Search:
        """Adopt a sub-search: its nodes count towards ours."""
        self._live = search
        return search

    def finish_sub(self, search: Search | Result) -> bool:
        """Book a finished sub-search (or count); False if it was cut short (the
        walk stops)."""
        self._fold(search.stats)
        self._live = None
        if search.status not in (Status.COMPLETE, Status.SOLUTION_LIMIT):
            self.status = search.status
            return False
        return True

    def _fold(self, stats: Stats) -> None:
        for attr in ("nodes", "failures", "updates"):
            value = getattr(stats, attr)
            if value is not None:
                setattr(self.stats, attr, (getattr(self.stats, attr) or 0) + value)

    # -- the iterator --------------------------------------------------------------------

    def __next__(self) -> Any:
        if self.status is not None:
            raise StopIteration
        if self.limit is not None and self.stats.solutions >= self.limit:
            self._end(Status.SOLUTION_LIMIT)
            raise StopIteration
        while True:
            try:
                solution = next(self._walk)
            except StopIteration:
                self._end(self.status or Status.COMPLETE)
                raise
            except KeyboardInterrupt:
                self.close()
                raise StopIteration from None
            if isinstance(solution, Counted):
                self.stats.solutions += solution.n
                continue
            break
        self.stats.solutions += 1
        self.stats.time = time.perf_counter() - self.started
        if self.progress is not None:
            self.progress(self.stats)
        if self.limit is not None and self.stats.solutions >= self.limit:
            self.close()
            self.status = Status.SOLUTION_LIMIT
        return solution

    def result(self) -> Result:
        for _ in self:
            pass
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)

    def close(self) -> None:
        if self.status is None:
            if self._live is not None:
                self._live.close()
                self._fold(self._live.stats)
                self._live = None
            self._walk.close()
            self._end(Status.INTERRUPTED)

    def _end(self, status: Status) -> None:
        self.status = status
        self.stats.time = time.perf_counter() - self.started
