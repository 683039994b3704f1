"""`algx`: Knuth's Algorithm X over a dict of sets, in plain Python.

Glossary (Knuth's): an *item* must be covered; a *primary* item exactly once,
a *secondary* item at most once; an *option* is a set of items; a solution is
a set of options covering every primary item once and no item twice.

The data structure is Ali Assaf's: `cover[item]` is the set of the options
still possible that contain `item`, `items[option]` the option's items.
Choosing an option removes its items from `cover` and every option that
clashes with it from the other items' sets; undoing puts them back in the
reverse order. Secondary items are in `cover` too, so choosing an option
removes the options that would cover them again; they are just never the item
branched on. Colours are not supported: the backend does not declare
`COLOURS`, and csp refuses coloured covers for it before solving.

The search keeps its stack explicitly (a list of frames, one per level), so
it can stop after any solution or any node and resume: that is what lets it
honour `limit`, `time_limit`, `progress` and Ctrl-C, and be iterated lazily.
It also declares `SPLIT`: a search can start below a *prefix* (options
chosen first) and report the partial solutions `depth` levels down, so
`csp.parallel.count` and counting up to symmetry cut its tree into pieces.

>>> import csp
>>> xc = csp.ExactCover.from_text("a b c | x\\na x\\nb x\\nc\\na b\\nb c\\n")
>>> sorted(AlgorithmX().solutions(xc))
[(0, 4), (2, 3)]
>>> AlgorithmX().count(xc).count
2
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from typing import ClassVar

from csp import ExactCover, Result, Status
from csp.backends.base import SPLIT, Progress, Search, check_time_limit

Option = int
"""An option, by its index in the exact cover (its order of declaration)."""


class XSearch(Search):
    """One run of Algorithm X: a lazy iterator of solutions (sorted option
    indices), or of partial solutions `depth` levels down when splitting."""

    backend = "algx"
    CHECK_NODES = 256
    """Nodes between two looks at the clock: the time limit and progress."""
    PROGRESS_SECONDS = 0.2

    def __init__(self, problem: ExactCover, prefix: Sequence[Option] = (), *,
                 depth: int | None = None, limit: int | None = None,
                 time_limit: float | None = None, progress: Progress | None = None) -> None:
        super().__init__()
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        self.limit = limit
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self.primary = problem.primary
        self.items: list[list[Hashable]] = [[item for item, _colour in problem.option(k)]
                                            for k in range(problem.n_options)]
        self.cover: dict[Hashable, set[Option]] = {item: set() for item in problem.items}
        for option, items in enumerate(self.items):
            for item in items:
                self.cover[item].add(option)
        self.chosen: list[Option] = []
        # One frame per level: [the options to try, the next to try, what the
        # option being tried removed (None: nothing chosen at this level)].
        self.frames: list[list] = []
        self.prefix = len(prefix)
        self.depth = None if depth is None else self.prefix + depth
        self.open = True  # False: the prefix clashes, so nothing lies below it
        for option in prefix:
            if not self._choosable(option):
                self.open = False
                break
            self.chosen.append(option)
            self._select(option)
        self.nodes = 0
        self._started: float | None = None
        self._last_progress = 0.0

    def _choosable(self, option: Option) -> bool:
        """Whether no option chosen so far clashes with `option`."""
        return all(item in self.cover and option in self.cover[item]
                   for item in self.items[option])

    # -- Algorithm X: choose an option, and undo it ------------------------------

    def _select(self, option: Option) -> list[set[Option]]:
        removed = []
        for item in self.items[option]:
            for clash in self.cover[item]:
                for other in self.items[clash]:
                    if other != item:
                        self.cover[other].remove(clash)
            removed.append(self.cover.pop(item))
        return removed

    def _deselect(self, option: Option, removed: list[set[Option]]) -> None:
        for item in reversed(self.items[option]):
            self.cover[item] = removed.pop()
            for clash in self.cover[item]:
                for other in self.items[clash]:
                    if other != item:
                        self.cover[other].add(clash)

    def _item_to_branch_on(self) -> Hashable | None:
        """The primary item with the fewest options left (None: all covered)."""
        left = [item for item in self.primary if item in self.cover]
        return min(left, key=lambda item: len(self.cover[item])) if left else None

    # -- the search, one step at a time ------------------------------------------------

    def _next_leaf(self) -> bool:
        """Search on to the next solution (or partial solution at `depth`):
        True with it in `self.chosen`, False once the tree is exhausted."""
        if not self.open:
            return False
        descend = not self.frames and not self.nodes  # the root is yet to open
        while True:
            if descend:
                self.nodes += 1
                if self.nodes % self.CHECK_NODES == 0:
                    self._look_at_the_clock()
                item = self._item_to_branch_on()
                if item is None or len(self.chosen) == self.depth:
                    return True
                self.frames.append([sorted(self.cover[item]), 0, None])
            if not self.frames:
                return False
            frame = self.frames[-1]
            if frame[2] is not None:
                self._deselect(self.chosen.pop(), frame[2])
                frame[2] = None
            if frame[1] == len(frame[0]):
                self.frames.pop()
                descend = False
                continue
            option = frame[0][frame[1]]
            frame[1] += 1
            frame[2] = self._select(option)
            self.chosen.append(option)
            descend = True

    def _look_at_the_clock(self) -> None:
        now = time.perf_counter()
        assert self._started is not None
        if self.time_limit is not None and now - self._started >= self.time_limit:
            raise _OutOfTime
        if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
            self._last_progress = now
            self._measure(now)
            self.progress(self.stats)

    def _step(self) -> bool:
        """`_next_leaf`, with the statuses: False once the search has ended."""
        if self.status is not None:
            return False
        if self._started is None:
            self._started = self._last_progress = time.perf_counter()
        if self.limit is not None and self.stats.solutions >= self.limit:
            return self._finish(Status.SOLUTION_LIMIT)
        if self.time_limit is not None and time.perf_counter() - self._started >= self.time_limit:
            return self._finish(Status.TIME_LIMIT)
        try:
            found = self._next_leaf()
        except _OutOfTime:
            return self._finish(Status.TIME_LIMIT)
        except KeyboardInterrupt:
            # Ctrl-C may land in the middle of `_select`: the sets are then
            # inconsistent, but the search is over and what was found is kept.
            return self._finish(Status.INTERRUPTED)
        if not found:
            return self._finish(Status.COMPLETE)
        self.stats.solutions += 1
        if self.limit is not None and self.stats.solutions >= self.limit:
            self._finish(Status.SOLUTION_LIMIT)
        return True

    def __next__(self) -> tuple[Option, ...]:
        if not self._step():
            raise StopIteration
        return tuple(sorted(self.chosen))

    def count(self) -> Result:
        """Run to the end without building the solutions."""
        while self._step():
            pass
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)

    def close(self) -> None:
        if self.status is None:
            self._finish(Status.INTERRUPTED)

    def _measure(self, now: float) -> None:
        self.stats.nodes = self.nodes
        self.stats.time = now - self._started if self._started is not None else 0.0

    def _finish(self, status: Status) -> bool:
        if self._started is None:
            self._started = time.perf_counter()
        self.status = status
        self._measure(time.perf_counter())
        return False


class _OutOfTime(Exception):
    """Raised from inside the search when the time limit has passed."""


class AlgorithmX:
    """Algorithm X in pure Python: an exact-cover backend that splits, without colours."""

    name: ClassVar[str] = "algx"
    native: ClassVar[type] = ExactCover
    accepts: ClassVar[tuple[type, ...]] = (ExactCover,)
    capabilities: ClassVar[frozenset[str]] = frozenset({SPLIT})

    def solutions(self, problem: ExactCover, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> XSearch:
        return XSearch(problem, limit=limit, time_limit=time_limit, progress=progress)

    def count(self, problem: ExactCover, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return XSearch(problem, time_limit=time_limit, progress=progress).count()

    # -- Splitting: a prefix is a tuple of option indices ---------------------------

    def split(self, problem: ExactCover, prefix: Sequence[Option], depth: int, *,
              time_limit: float | None = None) -> XSearch:
        return XSearch(problem, prefix, depth=depth, time_limit=time_limit)

    def choose(self, problem: ExactCover, prefix: Sequence[Option], *,
               limit: int | None = None, time_limit: float | None = None,
               progress: Progress | None = None) -> XSearch:
        return XSearch(problem, prefix, limit=limit, time_limit=time_limit, progress=progress)

    def count_chosen(self, problem: ExactCover, prefix: Sequence[Option], *,
                     time_limit: float | None = None, progress: Progress | None = None
                     ) -> Result:
        return self.choose(problem, prefix, time_limit=time_limit, progress=progress).count()
