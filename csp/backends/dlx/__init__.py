"""The `dlx` backend: Knuth's Algorithm C (exact covering with colours), compiled;
Algorithm M (`mcc`, Knuth's DLX3) for a cover whose primary items have bounds.

Two engines run Algorithm C: "cells" (the default: sparse sets, as in
Knuth's SSXCC, see `cells_kernel`) and "links" (dancing links, as in DLX2, see
`links_kernel`), chosen by `DLXBackend(engine=...)`. Algorithm M and families
(`solve_family`) run on the links.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> search = DLXBackend().solutions(xc)
>>> list(search), search.status.value
([(0, 3)], 'COMPLETE')
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from csp.backends.base import (
    COLOURS,
    FAMILY,
    MEMO,
    MULTIPLICITIES,
    PAUSED,
    SLICED,
    SPLIT,
    Progress,
    SlicedSearch,
)
from csp.backends.dlx import cells, cells_slots
from csp.backends.dlx import memo as memoized
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.memo import branch_rule, memo_mode, memo_size
from csp.result import Result, Stats, Status

if TYPE_CHECKING:
    from csp.diagram import ZDD

if TYPE_CHECKING:
    from csp.backends.dlx.links import Links

# The dancing links (`links`, `links_kernel`, `family_links`) are numba kernels, imported on
# first use: importing numba and loading its cache cost a few tenths of a
# second that a run on the cells engine need not pay.


def build(problem: ExactCover) -> Links:
    """The dancing links of `problem` (`links.build`)."""
    from csp.backends.dlx.links import build

    return build(problem)


def sanity(links: Links) -> list[str]:
    """The links' invariants (`links.sanity`); [] if sound."""
    from csp.backends.dlx.links import sanity

    return sanity(links)


class DLXSearch(SlicedSearch):
    """One run of Algorithm C over its own copy of the links."""

    backend = "dlx"

    def __init__(self, problem: ExactCover, links: Links | None = None, **limits) -> None:
        from csp.backends.dlx import links_kernel

        self.kernel = links_kernel  # the links kernel (numba), loaded with the first search
        super().__init__(**limits)
        self.problem = problem
        self.links = build(problem) if links is None else links
        self.x = np.zeros(self.links.n_primary + 1, dtype=np.int32)
        self.state = self.kernel.new_state()

    def choose(self, prefix: Sequence[int]) -> bool:
        """Fix options `prefix` (indices) before searching: the search then
        explores only the solutions that contain them all. Returns False if
        they are not compatible (the search then finds nothing)."""
        for k in prefix:
            first = int(self.links.first_primary[k])
            if not self.kernel.choose(self.links.flat, self.links.llink, self.links.rlink,
                                      self.x, self.state, first):
                self.state[self.kernel.PHASE] = self.kernel.PHASE_DONE
                return False
        return True

    def split(self, depth: int) -> None:
        """Report the partial solutions at `depth` levels instead of solutions
        (solutions found above that depth are reported too)."""
        self.state[self.kernel.MAX_DEPTH] = depth

    def _advance(self, count_only: bool, budget: int) -> int:
        links = self.links
        return int(self.kernel.search(links.flat, links.llink, links.rlink, self.x,
                                      self.state, count_only, budget))

    def _solution(self) -> tuple[int, ...]:
        level = int(self.state[self.kernel.LEVEL])
        return tuple(sorted(int(k) for k in self.links.option_of[self.x[:level]]))

    def _measure(self, stats: Stats) -> None:
        stats.solutions = int(self.state[self.kernel.SOLUTIONS])
        stats.nodes = int(self.state[self.kernel.NODES])
        stats.updates = int(self.state[self.kernel.UPDATES])
        stats.extra["kernel"] = "numba"  # the links have no C kernel

    def sanity(self) -> list[str]:
        """The structure's invariants (see `links.sanity`); [] if sound."""
        return sanity(self.links)


class MCCSearch(SlicedSearch):
    """One run of Algorithm M (multiplicities) over its own copy of the links."""

    backend = "dlx"

    def __init__(self, problem: ExactCover, **limits) -> None:
        # Imported here: a process that never meets bounds never loads this kernel.
        from csp.backends.dlx import mcc

        self.mcc = mcc
        super().__init__(**limits)
        self.problem = problem
        self.links = build(problem)
        lower, upper = problem.multiplicities()
        n = self.links.n_items + 1  # indexed by item number, 1-based
        self.bound = np.zeros(n, dtype=np.int32)
        self.slack = np.zeros(n, dtype=np.int32)
        self.bound[1 : problem.n_primary + 1] = upper
        self.slack[1 : problem.n_primary + 1] = upper - lower
        # A level either takes an option or drops an item (the null move).
        levels = problem.n_options + problem.n_primary + 1
        self.x = np.zeros(levels, dtype=np.int32)
        self.best = np.zeros(levels, dtype=np.int32)
        self.first = np.zeros(levels, dtype=np.int32)
        self.state = self.mcc.new_state()

    def _advance(self, count_only: bool, budget: int) -> int:
        links = self.links
        return int(self.mcc.search(links.flat, links.llink, links.rlink, self.bound, self.slack,
                              links.n_primary, self.x, self.best, self.first, self.state,
                              count_only, budget))

    def _solution(self) -> tuple[int, ...]:
        level = int(self.state[self.mcc.LEVEL])
        options = self.links.option_of[self.x[:level]]
        return tuple(sorted(int(k) for k in options if k >= 0))  # < 0: a null move

    def _measure(self, stats: Stats) -> None:
        mcc = self.mcc
        stats.solutions = int(self.state[mcc.SOLUTIONS])
        stats.nodes = int(self.state[mcc.NODES])
        stats.updates = int(self.state[mcc.UPDATES])

    def sanity(self) -> list[str]:
        return sanity(self.links)


def _refuse_split(problem: ExactCover) -> None:
    if problem.bounds:
        raise InputError("dlx cannot split a cover with multiplicities into subproblems "
                         "(Algorithm M's branches are not sets of options); count it whole")


class DLXBackend:
    """Algorithm C, the native backend for `ExactCover`: `engine` "cells" (sparse
    sets, the default) or "links" (dancing links)."""

    name: ClassVar[str] = "dlx"
    native: ClassVar[type] = ExactCover
    accepts: ClassVar[tuple[type, ...]] = (ExactCover,)
    capabilities: ClassVar[frozenset[str]] = frozenset({COLOURS, SPLIT, MULTIPLICITIES, FAMILY,
                                                        SLICED, MEMO})

    ENGINES: ClassVar[dict[str, tuple[Any, Any]]] = {
        "cells": (cells.CellsSearch, cells.build),
        "cells-numba": (cells.NumbaCellsSearch, cells.build),
        "links": (DLXSearch, build),
    }
    """Engine name -> (search class, structure builder)."""
    MEMO_ENGINES: ClassVar[dict[str, type[memoized.MemoSearch]]] = {
        "cells": memoized.MemoSearch,
        "cells-numba": memoized.NumbaMemoSearch,
    }
    """Engine name -> its memoized count (the links have none)."""

    def __init__(self, engine: str = "cells") -> None:
        if engine not in self.ENGINES:
            raise ValueError(f"unknown dlx engine {engine!r}; the engines are "
                             f"{', '.join(self.ENGINES)}")
        self.engine = engine
        self._search, self._build = self.ENGINES[engine]
        # The structure of the last problem split: a split search builds it
        # once and every subproblem starts from a copy.
        self._last: tuple[weakref.ref[ExactCover], int, Any] | None = None
        # The memo of the last problem whose subproblems were counted with it:
        # a worker of a parallel count keeps its own across its subproblems.
        self._memo: tuple[weakref.ref[ExactCover], int, int, Any] | None = None

    def solutions(self, problem: ExactCover, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> SlicedSearch:
        if problem.bounds:
            return MCCSearch(problem, limit=limit, time_limit=time_limit, progress=progress)
        return self._search(problem, limit=limit, time_limit=time_limit, progress=progress)

    def count(self, problem: ExactCover, *, time_limit: float | None = None,
              progress: Progress | None = None, memo: bool | str | None = None,
              memo_bytes: int | str | None = None, branch: str | None = None) -> Result:
        """The number of solutions. `memo` ("auto", True or False; None, the
        default, is False) counts with a memo of subproblem counts (see
        `memo`), bounded by `memo_bytes`, branching by `branch` ("mrv" or
        "first"); `stats.extra["memo"]` says how it went."""
        search, why = self._memo_search(problem, memo, memo_bytes, branch, None, (),
                                        time_limit=time_limit, progress=progress)
        if search is None:
            result = self.solutions(problem, time_limit=time_limit, progress=progress).count()
            if why is not None:
                result.stats.extra["memo"] = why
            return result
        return search.count()

    def zdd(self, problem: ExactCover, *, memo_bytes: int | str | None = None,
            branch: str | None = None, time_limit: float | None = None,
            progress: Progress | None = None) -> ZDD:
        """The diagram of the solutions that a memoized count builds (see
        `csp.diagram`); an `InputError` if it does not fit in `memo_bytes`."""
        from csp.diagram import ZDD

        search, why = self._memo_search(problem, True, memo_bytes, branch, None, (),
                                        diagram=True, time_limit=time_limit, progress=progress)
        if search is None:
            raise InputError(f"dlx builds no diagram here: memo {why}")
        result = search.count()
        if result.status is Status.INTERRUPTED:
            raise KeyboardInterrupt
        if result.status is not Status.COMPLETE:
            raise TimeoutError(f"the diagram was not finished within the time limit "
                               f"({result.stats.nodes:,} search nodes)")
        nodes, root = search.diagram_nodes()
        return ZDD(nodes, root, stats=result.stats)

    def _memo_search(self, problem: ExactCover, memo: bool | str | None,
                     memo_bytes: int | str | None, branch: str | None, cells: Any,
                     prefix: Sequence[int], *, diagram: bool = False, **limits: Any
                     ) -> tuple[memoized.MemoSearch | None, str | None]:
        """The memoized search that counts `problem` (from `cells` after
        `prefix`, with the memo kept for its subproblems when `cells` is
        given), or None and why memo is off (None: not asked about)."""
        if memo is None and memo_bytes is None and branch is None:
            return None, None
        mode = memo_mode(False if memo is None else memo)
        rule = branch_rule(branch)
        size = memo_size(memo_bytes)
        if problem.bounds:
            if rule != "mrv" or diagram:
                raise InputError(f"{'the diagram' if diagram else 'branch=' + repr(rule)} needs "
                                 "a memoized count, and a cover with multiplicities has none")
            return None, "off: multiplicities (their bounds are not in the memo's key)"
        search_class = self.MEMO_ENGINES.get(self.engine)
        if search_class is None:
            if mode == "on" or rule != "mrv":
                raise InputError(f"dlx's engine {self.engine!r} has no memoized count; the "
                                 f"engines with one: {', '.join(self.MEMO_ENGINES)}")
            return None, f"off: engine {self.engine!r} has none"
        if mode == "off" and rule == "mrv":
            return None, "off"
        table, key = None, None
        if cells is not None:
            table, key = self._kept_memo(problem, size)
        search = search_class(problem, cells, memo=mode, memo_bytes=size, branch=rule,
                              diagram=diagram, table=table, key=key, **limits)
        if cells is not None:
            if not search.choose(prefix):
                search.state[cells_slots.PHASE] = cells_slots.PHASE_DONE
            self._memo = (weakref.ref(problem), problem.n_options, size, search)
        return search, None

    def _kept_memo(self, problem: ExactCover, size: int) -> tuple[Any, Any]:
        """The table and key layout the last subproblem of `problem` used, if any."""
        kept = self._memo
        if kept is None or kept[0]() is not problem or kept[1:3] != (problem.n_options, size):
            return None, None
        return kept[3].table, kept[3].key

    # -- Splitting: prefixes are option indices ---------------------------------------

    def split(self, problem: ExactCover, prefix: Sequence[int], depth: int, *,
              time_limit: float | None = None) -> DLXSearch | cells.CellsSearch:
        search = self.choose(problem, prefix, time_limit=time_limit)
        search.split(depth)
        return search

    def choose(self, problem: ExactCover, prefix: Sequence[int], *, limit: int | None = None,
               time_limit: float | None = None, progress: Progress | None = None
               ) -> DLXSearch | cells.CellsSearch:
        _refuse_split(problem)
        search = self._search(problem, self._structure(problem), limit=limit,
                              time_limit=time_limit, progress=progress)
        search.choose(prefix)
        return search

    def count_chosen(self, problem: ExactCover, prefix: Sequence[int], *,
                     time_limit: float | None = None, progress: Progress | None = None,
                     memo: bool | str | None = None, memo_bytes: int | str | None = None,
                     branch: str | None = None) -> Result:
        """The solutions that extend `prefix`; `memo`, `memo_bytes`, `branch`
        as for `count`: the memo is kept for the next subproblem of `problem`."""
        _refuse_split(problem)
        search, why = self._memo_search(problem, memo, memo_bytes, branch,
                                        self._structure(problem), prefix,
                                        time_limit=time_limit, progress=progress)
        if search is None:
            result = self.choose(problem, prefix, time_limit=time_limit,
                                 progress=progress).count()
            if why is not None:
                result.stats.extra["memo"] = why
            return result
        return search.count()

    # -- Families: one structure, many puzzles given by forced options ----------------

    def solve_family(self, problem: ExactCover, givens: Sequence[Sequence[int]], *,
                   count: bool = False, progress: Progress | None = None) -> Iterator[Result]:
        """Each puzzle `problem` + `givens[j]` (option indices forced), solved
        in one compiled loop over the structure built once (see `family`): its
        first solution (`count`: its number of solutions), in order."""
        from csp.backends.dlx import family

        return family.solve_family(problem, givens, count=count, progress=progress,
                               on_cells=self.engine == "cells")

    def __getstate__(self) -> dict[str, object]:
        # A weak reference does not travel to another process.
        return {**self.__dict__, "_last": None, "_memo": None}

    def _structure(self, problem: ExactCover) -> Any:
        last = self._last
        if last is None or last[0]() is not problem or last[1] != problem.n_options:
            # Options are only ever added: the same object with as many is unchanged.
            last = (weakref.ref(problem), problem.n_options, self._build(problem))
            self._last = last
        return last[2].copy()


__all__ = ["DLXBackend", "DLXSearch", "MCCSearch", "PAUSED"]
