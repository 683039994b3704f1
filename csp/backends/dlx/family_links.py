"""Many puzzles of one shape in one compiled loop: Algorithm C on a shared structure.

The links of the shape are built once; each puzzle starts from a copy of
them, forces its givens (options chosen before the search, as `links_kernel.choose`
replays a prefix) and searches, all inside the kernel. A call handles puzzles
until a node budget is spent, keeping the current puzzle's search in its
arrays, so that Python regains control now and then (Ctrl-C, progress)
without any work per puzzle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.dlx import links_kernel
from csp.backends.dlx.cells_slots import (  # the layout of the family loops' arrays
    OUT_DONE,
    OUT_NODES,
    OUT_SIZE,
    OUT_SOLUTIONS,
    OUT_UPDATES,
    PUZZLE,
    STARTED,
)
from csp.backends.dlx.links_kernel import BASE, LEVEL, NODES, PHASE, PHASE_DONE, SOLUTIONS, UPDATES


@njit(cache=True)
def _reset(flat, llink, rlink, flat0, llink0, rlink0, state):
    flat[:] = flat0
    llink[:] = llink0
    rlink[:] = rlink0
    state[:] = 0
    state[links_kernel.MAX_DEPTH] = -1


@njit(cache=True)
def solve_batch(flat, llink, rlink, flat0, llink0, rlink0, first_primary, option_of,
                forced_start, forced, count_only, x, state, batch, out, found, budget):
    """Solve puzzles `batch[PUZZLE]`, ... until all are done or about `budget`
    options were tried.

    Puzzle j forces the options `forced[forced_start[j]:forced_start[j + 1]]`.
    Its first solution (unless `count_only`) goes to `found[j]` as sorted option
    indices padded with -1; its figures to `out[j]`. Returns the number of
    puzzles done so far.
    """
    n_puzzles = len(forced_start) - 1
    spent = 0
    while batch[PUZZLE] < n_puzzles:
        j = batch[PUZZLE]
        if batch[STARTED] == 0:
            _reset(flat, llink, rlink, flat0, llink0, rlink0, state)
            for f in range(forced_start[j], forced_start[j + 1]):
                if not links_kernel.choose(flat, llink, rlink, x, state, first_primary[forced[f]]):
                    state[PHASE] = PHASE_DONE  # givens that clash: no solution
                    break
            batch[STARTED] = 1
        before = state[NODES]
        event = links_kernel.search(flat, llink, rlink, x, state, count_only, budget - spent)
        spent += state[NODES] - before
        if event == links_kernel.PAUSED:
            return batch[PUZZLE]
        if event == links_kernel.FOUND:
            level = state[LEVEL]
            chosen = np.sort(option_of[x[:level]])
            found[j, :level] = chosen
        out[j, OUT_SOLUTIONS] = state[SOLUTIONS]
        out[j, OUT_NODES] = state[NODES]
        out[j, OUT_UPDATES] = state[UPDATES]
        out[j, OUT_DONE] = 1 if event == links_kernel.EXHAUSTED else 2
        batch[PUZZLE] = j + 1
        batch[STARTED] = 0
        if spent >= budget:
            break
    return batch[PUZZLE]


__all__ = ["BASE", "OUT_DONE", "OUT_NODES", "OUT_SOLUTIONS", "OUT_UPDATES", "OUT_SIZE",
           "solve_batch"]
