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


__all__ = ["ACTIVE_P", "ACTIVE_S", "BASE", "BATCH_SIZE", "CLR", "COPY_RATIO", "EXHAUSTED",
           "FORCED", "FOUND", "GROW", "HEADS", "ITM", "LEVEL", "LOC", "MAX_DEPTH", "NODES", "OPT",
           "OUT_DONE", "OUT_NODES", "OUT_SIZE", "OUT_SOLUTIONS", "OUT_UPDATES", "PAUSED", "PHASE",
           "PHASE_AFTER_LEAF", "PHASE_DONE", "PHASE_START", "PUZZLE", "SOLUTIONS", "STARTED",
           "STATE_SIZE", "UPDATES", "new_state", "pairs_at"]
