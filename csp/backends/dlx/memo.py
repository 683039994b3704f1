"""Memoized counting on the dancing cells: the driver of `memo_kernel.search_memo`
(or its C twin `_cells.search_memo`), and the settings a user gives it.

`MemoSearch` counts as `CellsSearch` does, in slices (time limit, progress,
Ctrl-C), with a bounded table of subproblem counts (see `memo_kernel` for the
key, the table and `auto`). Here: the key's layout for a cover (`Layout`),
the table sized by `memo_bytes` (`MemoTable`), and what the kernel hands back:
a stack or diagram to grow, a count too wide (count again with twice the
words: counts are exact at any size), `auto` switching memo off (the plain
kernel goes on from the same state).

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\na b c\\n")
>>> result = MemoSearch(xc, memo="on").count()
>>> result.count, result.stats.extra["memo"]
(2, 'on')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from csp.backends.dlx import cells_slots as slots
from csp.backends.dlx.cells import Cells, CellsSearch, native
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.memo import branch_rule, memo_mode, memo_size
from csp.result import Stats, Status

MODES = {"auto": slots.MODE_AUTO, "on": slots.MODE_ON, "off": slots.MODE_OFF}
BRANCHES = {"mrv": slots.BRANCH_MRV, "first": slots.BRANCH_FIRST}

AUTO_FIRST = 1 << 12
"""`auto` first judges whether memo pays after this many lookups, or once
they have cost as much as this many lookups of AUTO_COST (keys that look at
many items cost more) ..."""
AUTO_LAST = 1 << 22
"""... and again at twice as many each time, until this many: then memo stays on."""
AUTO_COST = 64
"""`auto` keeps memo while the hits have saved at least this much work
(updates, plus `NODE_WEIGHT` per node) per lookup, plus the items and entries
that making the keys looked at: a lookup of queens, Langford pairs or
pentominoes (some 70 items), with its miss into a large table, costs about
0.4 us, as 60 to 120 updates do."""
AUTO_RATE = 8
"""... or while one lookup in AUTO_RATE hits: on a tiling the first hits save
little (small subtrees), but they compound as the search goes up. Langford
pairs and queens hit 1 in 20 to 1 in 700 and save little: memo goes off."""

WORDS = 2
"""64-bit words of a count at first (128 bits); twice as many after an overflow."""


@dataclass
class Layout:
    """Where each item's field lies in a key, and each node's colour code."""

    kpos: np.ndarray  # (n_items,) int32: the field's first bit (-1: no field)
    kcode: np.ndarray  # (n_nodes,) int32: 2 + the colour's number for a coloured secondary node
    n_key: int  # 64-bit words of a key
    colours: bool  # whether purified items enter the key (some secondary node has a colour)
    need: int  # diagram nodes a search node may add: levels + 1 + the largest item


def layout(xc: ExactCover) -> Layout:
    """The key of `xc`: a bit per primary item; per secondary item that some
    option holds, `bit_length(colours + 1)` bits (codes 0: no live option, 1:
    untouched, 2 + c: purified to its colour number c); no field across words."""
    arrays = xc.arrays()
    start, items, colours = arrays["start"], arrays["items"], arrays["colours"]
    n_primary, n_items = xc.n_primary, xc.n_items
    option = np.repeat(np.arange(xc.n_options), np.diff(start))
    node = np.arange(len(items)) + 1 + option  # the cells' node of each entry
    kcode = np.zeros(1 + len(items) + xc.n_options, dtype=np.int32)
    coloured = (items >= n_primary) & (colours != 0)
    # Each (item, colour) pair as one int64, sorted: the colours of an item
    # are a run, numbered from 0 along it.
    pair = items[coloured].astype(np.int64) << 32 | colours[coloured].astype(np.int64)
    distinct, where = np.unique(pair, return_inverse=True)
    owner = distinct >> 32
    first = np.searchsorted(owner, owner)  # where each item's run starts
    kcode[node[coloured]] = 2 + (np.arange(len(distinct)) - first)[where]
    n_colours = np.bincount(owner, minlength=n_items)
    used = np.bincount(items, minlength=n_items) > 0
    kpos = np.full(n_items, -1, dtype=np.int32)
    bit = 0
    for x in range(n_items):
        width = 1 if x < n_primary else (int(n_colours[x]) + 1).bit_length() * bool(used[x])
        if width == 0:
            continue
        if bit // 64 != (bit + width - 1) // 64:
            bit = (bit // 64 + 1) * 64  # a field never straddles two words
        kpos[x] = bit
        bit += width
    sizes = np.bincount(items, minlength=n_items)
    need = n_primary + 2 + int(sizes.max(initial=0))
    return Layout(kpos, kcode, max(1, -(-bit // 64)), bool(coloured.any()), need)


class MemoTable:
    """The table of counts: buckets of `BUCKET` entries of 2 + n_key + words
    64-bit words. It starts small and doubles (`grow`) when LOAD of it is
    full, up to the most buckets (a power of two) that `memo_bytes` holds;
    full at that size, it evicts."""

    FIRST_BUCKETS = 1 << 10
    LOAD = 0.75

    def __init__(self, n_key: int, words: int, memo_bytes: int) -> None:
        self.n_key, self.words = n_key, words
        self.entry = 2 + n_key + words
        least = slots.BUCKET * 8 * self.entry
        if memo_bytes < least:
            raise InputError(f"memo_bytes={memo_bytes:,} holds no bucket of the table: keys of "
                             f"this cover take {8 * self.entry} bytes an entry, {slots.BUCKET} "
                             f"entries a bucket; give at least {least:,}")
        self.most = 1 << ((memo_bytes // least).bit_length() - 1)
        self.buckets = min(self.FIRST_BUCKETS, self.most)
        self.array = np.zeros(self.buckets * slots.BUCKET * self.entry, dtype=np.uint64)
        self.entries = 0
        self.evictions = 0

    @property
    def nbytes(self) -> int:
        return int(self.array.nbytes)

    @property
    def grow_at(self) -> int:
        """The finished entries at which to grow (never, at the largest size)."""
        if self.buckets >= self.most:
            return 2**62
        return int(self.LOAD * self.buckets * slots.BUCKET)

    def grow(self, rehash: Any, ms: np.ndarray) -> int:
        """Move the entries to a table twice as large; returns how many were
        pushed out (a full bucket)."""
        fresh = np.zeros(2 * len(self.array), dtype=np.uint64)
        dropped = int(rehash(self.array, fresh, ms))
        self.array = fresh
        self.buckets *= 2
        return dropped


class DiagramTooLarge(InputError):
    """The diagram of the solutions does not fit in the memory bound."""


class MemoSearch(CellsSearch):
    """A count with memo (`memo`: "on", "auto" or "off"), branching by `branch`
    ("mrv" or "first"); with `diagram`, also the diagram of the solutions
    (`zdd_nodes`, `zdd_root` once the count is complete).

    `table` is a `MemoTable` to fill (a worker counting several subproblems
    of one cover keeps its own); `memo_bytes` bounds the table (and, with
    `diagram`, the diagram: half each).
    """

    def __init__(self, problem: ExactCover, cells: Cells | None = None, *, memo: str = "on",
                 memo_bytes: int | None = None, branch: str = "mrv", diagram: bool = False,
                 table: MemoTable | None = None, key: Layout | None = None, **limits: Any
                 ) -> None:
        super().__init__(problem, cells, **limits)
        self.mode, self.branch, self.diagram = memo_mode(memo), branch_rule(branch), diagram
        self.memo_bytes = memo_size(memo_bytes)
        self.key = layout(problem) if key is None else key
        self.table = table
        self.words = WORDS if table is None else table.words
        self.plain = False  # True once `auto` handed the search to the plain kernel
        self.switched: str | None = None  # why `auto` switched memo off
        self.restarts = 0
        self._spent = (0, 0)  # nodes and updates of the counts that overflowed
        self._origin: tuple[np.ndarray, ...] | None = None
        if self.kernel is native:
            self._memo, self._rehash = native.search_memo, native.rehash
        else:
            from csp.backends.dlx import memo_kernel

            self._memo, self._rehash = memo_kernel.search_memo, memo_kernel.rehash

    # -- the kernel's arrays ----------------------------------------------------------

    def _ready(self) -> None:
        if self._origin is not None:
            return
        cells = self.cells
        self._origin = (cells.nd.copy(), cells.sets.copy(), cells.item.copy(), self.state.copy(),
                        self.choice.copy(), self.saved.copy(), self.force.copy())
        self._arrays()

    def _arrays(self) -> None:
        n_primary, n_items, words = self.cells.n_primary, self.cells.n_items, self.words
        table_bytes = self.memo_bytes // 2 if self.diagram else self.memo_bytes
        if self.table is None or self.table.words != words:
            self.table = MemoTable(self.key.n_key, words, table_bytes if self.mode != "off"
                                   else 8 * slots.BUCKET * (2 + self.key.n_key + words))
        self.acc = np.zeros((n_primary + 3) * words, dtype=np.uint64)
        self.slot = np.full(n_primary + 2, -1, dtype=np.int64)
        self.entered = np.zeros(2 * (n_primary + 2), dtype=np.int64)  # work, stamp per level
        self.zchain = np.zeros(n_primary + 3, dtype=np.int64)
        self.purified = np.full(3 * n_items, -1, dtype=np.int64)  # code, dead at (level, stamp)
        self.purified[::3] = 0
        self.keybuf = np.zeros((n_primary + 2) * self.key.n_key, dtype=np.uint64)  # the path's
        self.zdd = np.zeros(3 * (max(1024, 4 * self.key.need) if self.diagram else 1),
                            dtype=np.int32)
        ms = self.ms = np.zeros(slots.MEMO_SIZE, dtype=np.int64)
        ms[slots.M_MODE] = MODES[self.mode]
        ms[slots.M_BRANCH] = BRANCHES[self.branch]
        ms[slots.M_ZDD] = int(self.diagram)
        ms[slots.M_WORDS] = words
        ms[slots.M_KEY] = self.key.n_key
        ms[slots.M_BUCKETS] = self.table.buckets
        ms[slots.M_COLOURS] = int(self.key.colours)
        ms[slots.M_ENTRIES] = self.table.entries
        ms[slots.M_EVICTIONS] = self.table.evictions
        ms[slots.M_CHECK_AT] = AUTO_FIRST
        ms[slots.M_CHECK_WORK] = AUTO_FIRST * AUTO_COST
        ms[slots.M_AUTO_COST] = AUTO_COST
        ms[slots.M_AUTO_LAST] = AUTO_LAST
        ms[slots.M_AUTO_RATE] = AUTO_RATE
        ms[slots.M_ZNODES] = 2
        ms[slots.M_ZNEED] = self.key.need
        ms[slots.M_GROW_AT] = self.table.grow_at

    # -- the driver ----------------------------------------------------------------

    def __next__(self) -> Any:
        raise TypeError("a memoized search counts: call count(), not next()")

    def _advance(self, count_only: bool, budget: int) -> int:
        if self.plain:
            return super()._advance(count_only, budget)
        self._ready()
        while True:
            event = self._call(budget)
            if event == slots.GROW:
                self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])
            elif event == slots.TABLE_GROW:
                self._grow_table()
            elif event == slots.ZDD_GROW:
                self._grow_diagram()
            elif event == slots.OVERFLOW:
                self._widen()
            elif event == slots.MEMO_OFF:
                self._note_switch()
                if self._to_plain():
                    return super()._advance(count_only, budget)
            else:
                return event

    def _call(self, budget: int) -> int:
        cells, table = self.cells, self.table
        assert table is not None
        return int(self._memo(cells.nd, cells.sets, cells.item, self.choice, self.saved,
                              self.saved_ap, self.stack, self.force, self.state,
                              cells.first_primary, self.key.kpos, self.key.kcode, self.purified,
                              self.zdd, table.array, self.acc, self.keybuf, self.slot,
                              self.entered, self.zchain, self.ms, budget))

    def _grow_table(self) -> None:
        assert self.table is not None
        ms = self.ms
        dropped = self.table.grow(self._rehash, ms)
        ms[slots.M_ENTRIES] -= dropped
        ms[slots.M_EVICTIONS] += dropped
        ms[slots.M_BUCKETS] = self.table.buckets
        ms[slots.M_GROW_AT] = self.table.grow_at

    def _grow_diagram(self) -> None:
        nodes = int(self.ms[slots.M_ZNODES])
        if 2 * self.zdd.nbytes > self.memo_bytes // 2 or 2 * len(self.zdd) // 3 >= 2**31:
            raise DiagramTooLarge(
                f"the diagram does not fit in memo_bytes={self.memo_bytes:,} (half of it for "
                f"the diagram): {nodes:,} nodes ({self.zdd.nbytes:,} bytes) reached after "
                f"{int(self.state[slots.NODES]):,} search nodes; give a larger memo_bytes")
        self.zdd = np.concatenate([self.zdd, np.zeros_like(self.zdd)])

    def _widen(self) -> None:
        """A count overflowed its words: count again from the start with twice as many."""
        assert self._origin is not None
        nodes, updates = self._spent
        self._spent = (nodes + int(self.state[slots.NODES]),
                       updates + int(self.state[slots.UPDATES]))
        for array, origin in zip((self.cells.nd, self.cells.sets, self.cells.item, self.state,
                                  self.choice, self.saved, self.force), self._origin):
            np.copyto(array, origin)
        self.words *= 2
        self.restarts += 1
        self.table = None
        self._arrays()

    def _note_switch(self) -> None:
        ms = self.ms
        lookups, saved = int(ms[slots.M_LOOKUPS]), int(ms[slots.M_SAVED])
        cost = (AUTO_COST * lookups + int(ms[slots.M_KEY_WORK])) // max(lookups, 1)
        self.switched = (f"auto: off after {lookups:,} lookups (the {int(ms[slots.M_HITS]):,} "
                         f"hits saved {saved // max(lookups, 1):,} updates a lookup, under the "
                         f"{cost:,} a lookup cost, and they are under 1 in {AUTO_RATE})")

    def _to_plain(self) -> bool:
        """Hand the search to the plain kernel (MRV, no diagram, a count that
        fits its int64); False if it must stay in the memo kernel, memo off."""
        total = self._so_far()
        if self.branch != "mrv" or self.diagram or total >= 2**62:
            return False
        self.state[slots.SOLUTIONS] = total
        self.plain = True
        return True

    def _so_far(self) -> int:
        """Solutions counted so far: the accumulators of the nodes on the path."""
        w, base, level = self.words, int(self.state[slots.BASE]), int(self.state[slots.LEVEL])
        words = self.acc[base * w:(level + 1) * w].reshape(-1, w)
        return sum(number(row) for row in words)

    def _finish(self, status: Status) -> None:
        super()._finish(status)
        if self._origin is not None and self.table is not None:
            self.table.entries = int(self.ms[slots.M_ENTRIES])
            self.table.evictions = int(self.ms[slots.M_EVICTIONS])

    def _measure(self, stats: Stats) -> None:
        super()._measure(stats)
        nodes, updates = self._spent
        stats.nodes = (stats.nodes or 0) + nodes
        stats.updates = (stats.updates or 0) + updates
        if self._origin is None:
            return
        if not self.plain:
            stats.solutions = self._so_far()
        ms = self.ms
        extra = stats.extra
        extra["memo"] = self.switched or ("auto: on" if self.mode == "auto" else self.mode)
        extra["memo_entries"] = int(ms[slots.M_ENTRIES])
        extra["memo_hits"] = int(ms[slots.M_HITS])
        extra["memo_lookups"] = int(ms[slots.M_LOOKUPS])
        extra["memo_evictions"] = int(ms[slots.M_EVICTIONS])
        table = self.table.nbytes if self.table is not None else 0
        extra["memo_bytes"] = table + (self.zdd.nbytes if self.diagram else 0)
        if self.branch != "mrv":
            extra["branch"] = self.branch
        if self.restarts:
            extra["count_bits"] = 64 * self.words
        if self.status not in (None, Status.COMPLETE):
            extra["lower_bound"] = True  # the solutions counted before it stopped

    # -- the diagram -------------------------------------------------------------------

    def diagram_nodes(self) -> tuple[np.ndarray, int]:
        """The diagram's nodes ((n, 3) int32: option, lo, hi; rows 0 and 1 the
        sinks) and its root, once the count is complete."""
        if not self.diagram or self.status is not Status.COMPLETE:
            raise ValueError("no complete diagram: count with diagram=True first")
        nodes = int(self.ms[slots.M_ZNODES])
        base = int(self.state[slots.BASE])
        return self.zdd[:3 * nodes].reshape(-1, 3).copy(), int(self.zchain[base + 1])


class NumbaMemoSearch(MemoSearch):
    """`MemoSearch` on the numba kernel, wherever the C one is built."""

    numba = True


def number(words: np.ndarray) -> int:
    """The int that 64-bit words (least significant first) hold.

    >>> number(np.array([5, 1], dtype=np.uint64)) == 2**64 + 5
    True
    """
    return sum(int(word) << (64 * i) for i, word in enumerate(words.tolist()))


__all__ = ["AUTO_COST", "DiagramTooLarge", "Layout", "MemoSearch", "MemoTable",
           "NumbaMemoSearch", "layout", "number"]
