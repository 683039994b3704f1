"""The names the dancing-cells kernels share: node fields, `state` slots, phases,
events; and the layout of the family loops' arrays (`batch`, `_cells.solve_batch`).

Kept apart from the kernels so that the drivers can read them without loading
numba when the compiled extension (`_cells`) runs the search.
"""

from __future__ import annotations

import numpy as np

from csp.backends.base import EXHAUSTED, FOUND, PAUSED

ITM, LOC, CLR, OPT = 0, 1, 2, 3

# The layout of `sets` (cells_kernel).
HEADS = 4
"""The items' sizes start at `sets[HEADS]` (`sets[0]`: the number of primary items)."""
COPY_RATIO = 4
"""A branching level saves every item's size (one copy) when n_items <= COPY_RATIO
times its active items, else the active items' (item, size) pairs."""


def pairs_at(n_items: int) -> int:
    """Where the items' (start, place) pairs begin in `sets`: after the sizes,
    at an even place (a pair never straddles two cache lines).

    >>> pairs_at(70), pairs_at(71)
    (74, 76)
    """
    return HEADS + n_items + (n_items & 1)

# Slots of the int64 `state` array. The first seven are those of `kernel`.
LEVEL = 0  # current level
PHASE = 1  # where to resume: one of the PHASE_* values
SOLUTIONS = 2  # solutions found so far
NODES = 3  # levels entered (Knuth's count)
UPDATES = 4  # options hidden from a set plus items made inactive (Knuth's count)
BASE = 5  # the search ends when it backtracks to this level (a subproblem's depth)
MAX_DEPTH = 6  # report a leaf at this level (for splitting the tree); -1 = none
ACTIVE_P = 7  # end of the active primary items in `item`
ACTIVE_S = 8  # end of the active secondary items in `item`
FORCED = 9  # entries on the `force` stack
STATE_SIZE = 10

PHASE_START = 0  # enter level `LEVEL`
PHASE_AFTER_LEAF = 1  # a solution was reported: leave its level
PHASE_DONE = 3  # the search space is exhausted (3 as in `kernel`)

GROW = 3
"""Event: the stack of saved sizes is full; grow it and call again."""


# Memoized counting (`memo_kernel.search_memo`, `_cells.search_memo`): slots of
# the int64 `ms` array ...
M_MODE = 0  # one of the MODE_* values
M_BRANCH = 1  # BRANCH_MRV or BRANCH_FIRST
M_ZDD = 2  # 1: build the diagram of the solutions
M_WORDS = 3  # 64-bit words of a count
M_KEY = 4  # 64-bit words of a key
M_BUCKETS = 5  # buckets of the table (a power of two), BUCKET entries each
M_COLOURS = 6  # 1: the key holds the colours of purified secondary items
M_STARTED = 7  # 1 once the search's first call set up its accumulators
M_LOOKUPS = 8
M_HITS = 9
M_ENTRIES = 10  # finished entries in the table
M_EVICTIONS = 11
M_SAVED = 12  # work the hits saved: the sum of their subtrees' work (NODE_WEIGHT)
M_CHECK_AT = 13  # `auto`: the lookups at which to judge next whether memo pays
M_AUTO_COST = 14  # `auto`: memo pays while saved >= M_AUTO_COST * lookups
M_AUTO_LAST = 15  # `auto`: past this many lookups, memo stays on
M_ZNODES = 16  # next node of the diagram (0 and 1 are its sinks)
M_ZNEED = 17  # room in the diagram that a node of the search may need
M_GROW_AT = 18  # finished entries at which the table asks to grow (TABLE_GROW)
M_AUTO_RATE = 19  # `auto`: memo also pays while hits * M_AUTO_RATE >= lookups
M_KEY_WORK = 20  # items and segment entries the keys looked at (weighed by `auto`)
M_CHECK_WORK = 21  # `auto`: or judge once the lookups cost this (M_AUTO_COST each + M_KEY_WORK)
MEMO_SIZE = 22

MODE_OFF, MODE_ON, MODE_AUTO = 0, 1, 2
BRANCH_MRV, BRANCH_FIRST = 0, 1

# ... the events of search_memo past those of search ...
MEMO_OFF = 4
"""Event: `auto` found that memo does not pay; the search goes on without it."""
OVERFLOW = 5
"""Event: a count does not fit in M_WORDS words: count again with wider ones."""
ZDD_GROW = 6
"""Event: the diagram's array is full; grow it and call again."""
TABLE_GROW = 7
"""Event: the table holds M_GROW_AT entries; move them to a larger one (`rehash`)."""

NODE_WEIGHT = 16
"""The work of a subtree (what a hit saves, what `auto` weighs, what eviction
keeps) is its updates plus NODE_WEIGHT per node: a node's own cost (the scan
for the item to branch on) in updates, fitted on queens-13 and Langford 12."""

# ... and the layout of the table: a bucket of BUCKET entries, each of
# 2 + M_KEY + M_WORDS words: meta (the state in bits 0-1, a tag of the hash in
# bits 2-31, the diagram's node in bits 32-63), work (what its subtree took),
# the key, the count (least significant word first).
BUCKET = 4
SLOT_EMPTY, SLOT_DONE = 0, 2

# Families: slots of the int64 `batch` array (where the loop is) ...
PUZZLE = 0  # the puzzle being solved
STARTED = 1  # 1 once its structure is reset and its givens forced
BATCH_SIZE = 2

# ... and, per puzzle, the columns of `out`.
OUT_SOLUTIONS, OUT_NODES, OUT_UPDATES, OUT_DONE = 0, 1, 2, 3
OUT_SIZE = 4


def new_state(n_primary: int, n_items: int) -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[MAX_DEPTH] = -1
    state[ACTIVE_P] = n_primary
    state[ACTIVE_S] = n_items
    return state


__all__ = ["ACTIVE_P", "ACTIVE_S", "BASE", "BATCH_SIZE", "BRANCH_FIRST", "BRANCH_MRV", "BUCKET",
           "CLR", "COPY_RATIO", "EXHAUSTED", "FORCED", "FOUND", "GROW", "HEADS", "ITM", "LEVEL",
           "LOC", "MAX_DEPTH", "MEMO_OFF", "MEMO_SIZE", "MODE_AUTO", "MODE_OFF", "MODE_ON",
           "M_AUTO_COST", "M_AUTO_LAST", "M_AUTO_RATE", "M_BRANCH", "M_BUCKETS", "M_CHECK_AT",
           "M_CHECK_WORK", "M_COLOURS", "M_ENTRIES", "M_EVICTIONS", "M_GROW_AT", "M_HITS", "M_KEY",
           "M_KEY_WORK", "M_LOOKUPS", "M_MODE", "M_SAVED", "M_STARTED", "M_WORDS", "M_ZDD",
           "M_ZNEED", "M_ZNODES", "NODES", "NODE_WEIGHT", "OPT", "OUT_DONE", "OUT_NODES",
           "OUT_SIZE", "OUT_SOLUTIONS", "OUT_UPDATES", "OVERFLOW", "PAUSED", "PHASE",
           "PHASE_AFTER_LEAF", "PHASE_DONE", "PHASE_START", "PUZZLE", "SLOT_DONE", "SLOT_EMPTY",
           "SOLUTIONS", "STARTED", "STATE_SIZE", "TABLE_GROW", "UPDATES", "ZDD_GROW", "new_state",
           "pairs_at"]
