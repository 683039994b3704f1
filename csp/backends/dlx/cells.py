"""The sparse-set structure of `cells_kernel` for an `ExactCover`, and its search.

Layout (see `cells_kernel`): items are numbered from 0, primary ones first;
`sets[0]` is the number of primary items, `sets[HEADS + i]` the size of item
`i`, `sets[pairs + 2 * i]` and `sets[pairs + 2 * i + 1]` (`pairs =
pairs_at(n_items)`) where its segment starts and its place in `item`; the
segments follow, item after item, each holding a node of every option of the
item, in option order. Node 0 is a spacer; option `k` with `m` items takes
the next `m` nodes and then a spacer whose ITM is `-m`.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> search = CellsSearch(xc)
>>> list(search), search.status.value, search.sanity()
([(0, 3)], 'COMPLETE', [])
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from csp.backends.base import SlicedSearch
from csp.backends.dlx import cells_slots as slots
from csp.backends.dlx.cells_slots import HEADS, ITM, LOC, OPT, pairs_at
from csp.exactcover import ExactCover
from csp.result import Stats

native: ModuleType | None
try:  # the kernel in C, compiled by `pip install` (setup.py) where a C compiler is found
    native = importlib.import_module("csp.backends.dlx._cells")
except ImportError:  # none: the same kernel runs through numba
    native = None

NUMBA_VARIABLE = "CSP_DLX_NUMBA"
"""Set to 1 in the environment to run the numba kernel even where the C one is built."""


def kernel(numba: bool = False) -> Any:
    """The module whose `search` and `choose` run the dancing cells: the C
    extension when it is built (unless `numba` or CSP_DLX_NUMBA=1), else the
    numba kernel `cells_kernel` (imported only then: importing numba and
    loading its cache cost a few tenths of a second)."""
    if native is not None and not numba and os.environ.get(NUMBA_VARIABLE) != "1":
        return native
    from csp.backends.dlx import cells_kernel

    return cells_kernel


def kernel_name(numba: bool = False) -> str:
    """ "C" or "numba": which kernel `kernel(numba)` runs.

    >>> kernel_name(numba=True)
    'numba'
    """
    return "C" if kernel(numba) is native else "numba"


@dataclass
class Cells:
    """The arrays of one sparse-set structure, plus each option's first primary node."""

    nd: np.ndarray  # (4 * n_nodes,) int32: ITM, LOC, CLR, OPT of each node
    sets: np.ndarray  # int32: the number of primary items, the heads, the segments
    item: np.ndarray  # (n_items,) int32: the items, active ones first in each region
    first_primary: np.ndarray  # (n_options,) int32
    n_items: int
    n_primary: int

    @property
    def option_of(self) -> np.ndarray:
        """The option of each node (-1 for spacers), a view."""
        return self.nd[OPT::4]

    def copy(self) -> Cells:
        return Cells(self.nd.copy(), self.sets.copy(), self.item.copy(), self.first_primary,
                     self.n_items, self.n_primary)


def build(xc: ExactCover, numba: bool = False) -> Cells:
    arrays = xc.arrays()
    n_entries, n_options, n_items = len(arrays["items"]), xc.n_options, xc.n_items
    n_nodes = 1 + n_entries + n_options
    if 4 * n_nodes >= 2**31 or pairs_at(n_items) + 2 * n_items + n_entries >= 2**31:
        raise ValueError(f"{n_nodes:,} nodes: too large for 32-bit cells")
    run = kernel(numba)
    if run is native:
        nd = np.zeros(4 * n_nodes, dtype=np.int32)
        sets = np.zeros(pairs_at(n_items) + 2 * n_items + n_entries, dtype=np.int32)
        item = np.zeros(n_items, dtype=np.int32)
        first_primary = np.zeros(n_options, dtype=np.int32)
        native.build(arrays["start"], arrays["items"], arrays["colours"], xc.n_primary,
                     nd, sets, item, first_primary)
    else:
        nd, sets, item, first_primary = run.build(arrays["start"], arrays["items"],
                                                  arrays["colours"], n_items, xc.n_primary)
    return Cells(nd, sets, item, first_primary, n_items, xc.n_primary)


def sanity(cells: Cells) -> list[str]:
    """Check the invariants of the structure; [] if sound.

    `item` and the places of the items are inverse; the segments follow one
    another from the end of the heads to the end of `sets`; every node's LOC
    holds it in its item's segment and every entry of a segment is a node of
    that item; every size is within its segment.
    """
    nd, sets, item, n = cells.nd.reshape(-1, 4), cells.sets, cells.item, cells.n_items
    pairs = pairs_at(n)
    size, start, place = sets[HEADS:HEADS + n], sets[pairs:pairs + 2 * n:2], \
        sets[pairs + 1:pairs + 2 * n:2]
    ends = [int(x) for x in start[1:]] + [len(sets)] if n else []  # (no items: no segment)
    problems = []
    if n and start[0] != pairs + 2 * n:
        problems.append(f"the first segment starts at {start[0]}, not {pairs + 2 * n}")
    for k, x in enumerate(item):
        if place[x] != k:
            problems.append(f"item {x}: place {place[x]}, found at {k}")
    for x, end in enumerate(ends):
        if not 0 <= size[x] <= end - start[x]:
            problems.append(f"item {x}: size {size[x]} outside 0..{end - start[x]}")
        for at in range(start[x], end):
            y = sets[at]
            if nd[y, ITM] != x or nd[y, LOC] != at:
                problems.append(f"item {x}: node {y} at {at} has ITM {nd[y, ITM]}, "
                                f"LOC {nd[y, LOC]}")
    return problems


class CellsSearch(SlicedSearch):
    """One run of the dancing-cells kernel over its own copy of the structure:
    the C kernel where it is built, else numba's (see `kernel`)."""

    backend = "dlx"
    numba: ClassVar[bool] = False
    """Run the numba kernel even where the C one is built."""

    def __init__(self, problem: ExactCover, cells: Cells | None = None, **limits) -> None:
        super().__init__(**limits)
        self.problem = problem
        self.kernel = kernel(self.numba)
        self.cells = build(problem, self.numba) if cells is None else cells
        n_primary, n_items = self.cells.n_primary, self.cells.n_items
        self.choice = np.zeros(n_primary + 1, dtype=np.int32)  # a level covers a primary item
        self.saved = np.zeros(n_primary + 2, dtype=np.int32)
        self.saved_ap = np.zeros(n_primary + 2, dtype=np.int32)
        self.force = np.zeros(n_primary + 1, dtype=np.int32)
        self.stack = np.zeros(2 * max(256, 4 * n_items), dtype=np.int32)  # grows on demand
        self.state = slots.new_state(n_primary, n_items)

    def choose(self, prefix: Sequence[int]) -> bool:
        """Fix options `prefix` (indices) before searching: the search then
        explores only the solutions that contain them all. Returns False if
        they are not compatible (the search then finds nothing)."""
        cells = self.cells
        for k in prefix:
            if not self.kernel.choose(cells.nd, cells.sets, cells.item, self.choice, self.saved,
                                      self.force, self.state, int(cells.first_primary[k])):
                self.state[slots.PHASE] = slots.PHASE_DONE
                return False
        return True

    def split(self, depth: int) -> None:
        """Report the partial solutions at `depth` levels instead of solutions
        (solutions found above that depth are reported too)."""
        self.state[slots.MAX_DEPTH] = depth

    def _advance(self, count_only: bool, budget: int) -> int:
        cells = self.cells
        while True:
            event = int(self.kernel.search(cells.nd, cells.sets, cells.item, self.choice,
                                           self.saved, self.saved_ap, self.stack, self.force,
                                           self.state, count_only, budget))
            if event != slots.GROW:
                return event
            self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])

    def _solution(self) -> tuple[int, ...]:
        level = int(self.state[slots.LEVEL])
        return tuple(sorted(int(k) for k in self.cells.option_of[self.choice[:level]]))

    def _measure(self, stats: Stats) -> None:
        stats.solutions = int(self.state[slots.SOLUTIONS])
        stats.nodes = int(self.state[slots.NODES])
        stats.updates = int(self.state[slots.UPDATES])
        stats.extra["kernel"] = "C" if self.kernel is native else "numba"

    def sanity(self) -> list[str]:
        """The structure's invariants (see `sanity`); [] if sound."""
        return sanity(self.cells)


class NumbaCellsSearch(CellsSearch):
    """The dancing cells on the numba kernel, wherever the C one is built
    (engine "cells-numba": to compare the two, or to rule the C one out)."""

    numba = True
