"""The sparse-set structure of `cells_kernel` for an `ExactCover`, and its search.

Layout (see `cells_kernel`): `sets[0]` is the first secondary item (items are
indices into `sets`, primary ones first); item `i` takes `sets[x - 2 : x + n]`
for its place in `item`, its size and its `n` option nodes, in option order.
Node 0 is a spacer; option `k` with `m` items takes the next `m` nodes and
then a spacer whose ITM is `-m`.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> search = CellsSearch(xc)
>>> list(search), search.status.value, search.sanity()
([(0, 3)], 'COMPLETE', [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.base import SlicedSearch
from csp.backends.dlx import cells_kernel as kernel
from csp.backends.dlx.cells_kernel import CLR, ITM, LOC, OPT
from csp.exactcover import ExactCover
from csp.result import Stats


@dataclass
class Cells:
    """The arrays of one sparse-set structure, plus each option's first primary node."""

    nd: np.ndarray  # (4 * n_nodes,) int32: ITM, LOC, CLR, OPT of each node
    sets: np.ndarray  # int32: the first secondary item, then each item's segment
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


def build(xc: ExactCover) -> Cells:
    arrays = xc.arrays()
    n_nodes = 1 + len(arrays["items"]) + xc.n_options
    if 4 * n_nodes >= 2**31 or len(arrays["items"]) + 2 * xc.n_items + 3 >= 2**31:
        raise ValueError(f"{n_nodes:,} nodes: too large for 32-bit cells")
    nd, sets, item, first_primary = _build(arrays["start"], arrays["items"], arrays["colours"],
                                           xc.n_items, xc.n_primary)
    return Cells(nd, sets, item, first_primary, xc.n_items, xc.n_primary)


@njit(cache=True)
def _build(start, items, colours, n_items, n_primary):
    n_options = len(start) - 1
    count = np.zeros(n_items, dtype=np.int64)
    for j in range(len(items)):
        count[items[j]] += 1
    segment = np.empty(n_items, dtype=np.int32)
    end = 1
    for i in range(n_items):
        segment[i] = end + 2
        end += 2 + count[i]
    sets = np.zeros(end, dtype=np.int32)
    sets[0] = segment[n_primary] if n_primary < n_items else end + 2
    item = np.empty(n_items, dtype=np.int32)
    for i in range(n_items):
        item[i] = segment[i]
        sets[segment[i] - 2] = i
    nd = np.zeros(4 * (1 + len(items) + n_options), dtype=np.int32)
    nd[OPT] = -1
    first_primary = np.full(n_options, -1, dtype=np.int32)
    q = 1
    for k in range(n_options):
        first = q
        for j in range(start[k], start[k + 1]):
            x = segment[items[j]]
            size = sets[x - 1]
            sets[x + size] = q
            sets[x - 1] = size + 1
            nd[4 * q + ITM] = x
            nd[4 * q + LOC] = x + size
            nd[4 * q + CLR] = colours[j]
            nd[4 * q + OPT] = k
            if items[j] < n_primary and first_primary[k] < 0:
                first_primary[k] = q
            q += 1
        nd[4 * q + ITM] = first - q
        nd[4 * q + OPT] = -1
        q += 1
    return nd, sets, item, first_primary


def sanity(cells: Cells) -> list[str]:
    """Check the invariants of the structure; [] if sound.

    `item` and the places `sets[x - 2]` are inverse; every node's LOC holds it
    in its item's segment and every entry of a segment is a node of that item;
    every size is within its segment.
    """
    nd, sets, item = cells.nd.reshape(-1, 4), cells.sets, cells.item
    problems = []
    starts = sorted(int(x) for x in item)
    ends = [x - 2 for x in starts[1:]] + [len(sets)]
    for k, x in enumerate(item):
        if sets[x - 2] != k:
            problems.append(f"item {x}: place {sets[x - 2]}, found at {k}")
    for x, end in zip(starts, ends):
        if not 0 <= sets[x - 1] <= end - x:
            problems.append(f"item {x}: size {sets[x - 1]} outside 0..{end - x}")
        for place in range(x, end):
            y = sets[place]
            if nd[y, ITM] != x or nd[y, LOC] != place:
                problems.append(f"item {x}: node {y} at {place} has ITM {nd[y, ITM]}, "
                                f"LOC {nd[y, LOC]}")
    return problems


class CellsSearch(SlicedSearch):
    """One run of the dancing-cells kernel over its own copy of the structure."""

    backend = "dlx"

    def __init__(self, problem: ExactCover, cells: Cells | None = None, **limits) -> None:
        super().__init__(**limits)
        self.problem = problem
        self.cells = build(problem) if cells is None else cells
        n_primary, n_items = self.cells.n_primary, self.cells.n_items
        self.choice = np.zeros(n_primary + 1, dtype=np.int32)  # a level covers a primary item
        self.saved = np.zeros(n_primary + 2, dtype=np.int32)
        self.saved_ap = np.zeros(n_primary + 2, dtype=np.int32)
        self.force = np.zeros(n_primary + 1, dtype=np.int32)
        self.stack = np.zeros(2 * max(256, 4 * n_items), dtype=np.int32)  # grows on demand
        self.state = kernel.new_state(n_primary, n_items)

    def choose(self, prefix: Sequence[int]) -> bool:
        """Fix options `prefix` (indices) before searching: the search then
        explores only the solutions that contain them all. Returns False if
        they are not compatible (the search then finds nothing)."""
        cells = self.cells
        for k in prefix:
            if not kernel.choose(cells.nd, cells.sets, cells.item, self.choice, self.saved,
                                 self.force, self.state, int(cells.first_primary[k])):
                self.state[kernel.PHASE] = kernel.PHASE_DONE
                return False
        return True

    def split(self, depth: int) -> None:
        """Report the partial solutions at `depth` levels instead of solutions
        (solutions found above that depth are reported too)."""
        self.state[kernel.MAX_DEPTH] = depth

    def _advance(self, count_only: bool, budget: int) -> int:
        cells = self.cells
        while True:
            event = int(kernel.search(cells.nd, cells.sets, cells.item, self.choice, self.saved,
                                      self.saved_ap, self.stack, self.force, self.state,
                                      count_only, budget))
            if event != kernel.GROW:
                return event
            self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])

    def _solution(self) -> tuple[int, ...]:
        level = int(self.state[kernel.LEVEL])
        return tuple(sorted(int(k) for k in self.cells.option_of[self.choice[:level]]))

    def _measure(self, stats: Stats) -> None:
        stats.solutions = int(self.state[kernel.SOLUTIONS])
        stats.nodes = int(self.state[kernel.NODES])
        stats.updates = int(self.state[kernel.UPDATES])

    def sanity(self) -> list[str]:
        """The structure's invariants (see `sanity`); [] if sound."""
        return sanity(self.cells)
