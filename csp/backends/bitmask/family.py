"""Many puzzles of one model shape in one compiled loop: the model compiled once.

Each puzzle starts from a fresh copy of the search state, narrows the domains
its givens fix (a mask per given variable), and searches, all inside the
kernel; a call handles puzzles until a node budget is spent, keeping the
current puzzle's search in its arrays (see `csp.backends.dlx.batch`).
"""

from __future__ import annotations

from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask import kernel
from csp.backends.bitmask.bits import highest
from csp.backends.bitmask.layout import (
    FAILURES,
    FOUND,
    NODES,
    PAUSED,
    PHASE,
    PHASE_DONE,
    SOLUTIONS,
)

PUZZLE, STARTED, BATCH_SIZE = 0, 1, 2
"""Slots of the `batch` array: the puzzle being solved, 1 once it is set up."""

OUT_SOLUTIONS, OUT_NODES, OUT_FAILURES, OUT_DONE = 0, 1, 2, 3
OUT_SIZE = 4
"""Per puzzle, the columns of `out`."""


@njit(cache=True)
def _reset(s, fresh):
    # Every field of the state is an int64 array: copy each from the fresh one.
    for f in range(len(s)):
        s[f][:] = fresh[f]


@njit(cache=True)
def solve_batch(p, s, fresh, fixed_start, fixed_var, fixed_mask, count_only, batch, out,
                found, budget):
    """Solve puzzles `batch[PUZZLE]`, ... until all are done or about `budget`
    decisions were made. Puzzle j narrows variable `fixed_var[i]` to
    `fixed_mask[i]` for i in `fixed_start[j]:fixed_start[j + 1]`; its first
    solution (unless `count_only`) goes to `found[j]` (per variable, the bit
    of its value); its figures to `out[j]`. Returns the puzzles done so far."""
    n_puzzles = len(fixed_start) - 1
    spent = 0
    while batch[PUZZLE] < n_puzzles:
        j = batch[PUZZLE]
        if batch[STARTED] == 0:
            _reset(s, fresh)
            for i in range(fixed_start[j], fixed_start[j + 1]):
                s.dom[fixed_var[i]] &= fixed_mask[i]
            batch[STARTED] = 1
        before = s.st[NODES]
        event = kernel.search(p, s, count_only, budget - spent)
        spent += s.st[NODES] - before + 1  # a puzzle solved by propagation alone costs too
        if event == PAUSED:
            return batch[PUZZLE]
        if event == FOUND:
            for v in range(len(s.dom)):
                found[j, v] = highest(s.dom[v])
        out[j, OUT_SOLUTIONS] = s.st[SOLUTIONS]
        out[j, OUT_NODES] = s.st[NODES]
        out[j, OUT_FAILURES] = s.st[FAILURES]
        out[j, OUT_DONE] = 1 if s.st[PHASE] == PHASE_DONE else 2
        batch[PUZZLE] = j + 1
        batch[STARTED] = 0
        if spent >= budget:
            break
    return batch[PUZZLE]
