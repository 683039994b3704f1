"""Knuth's Algorithm C (exact covering with colours) as one resumable numba kernel.

The data structure is Knuth's (TAOCP 7.2.2.1): nodes `0..N` are the item
headers (LEN kept in TOP), then each option's nodes followed by a spacer whose
TOP is <= 0. Every node is a row of `node`: TOP, ULINK, DLINK, COLOR. Primary
items form a circular list through `llink/rlink` with header 0; secondary ones
a list with header N + 1, so that they are never chosen for branching.

All search state lives in arrays (`x`, the option node chosen at each level,
and the scalars in `state`), so the kernel can return to Python after any
solution or after a node budget and be called again to resume where it was.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)

TOP, ULINK, DLINK, COLOR = 0, 1, 2, 3

# Slots of the int64 `state` array.
LEVEL = 0  # current level l
PHASE = 1  # where to resume: one of the PHASE_* values
SOLUTIONS = 2  # solutions found so far
NODES = 3  # options tried (search-tree nodes)
UPDATES = 4  # link updates, Knuth's measure of work
BASE = 5  # the search ends when it backtracks to this level (a subproblem's depth)
MAX_DEPTH = 6  # report a leaf at this level (for splitting the tree); -1 = none
STATE_SIZE = 8

PHASE_START = 0  # enter level `LEVEL` (step C2)
PHASE_AFTER_LEAF = 1  # a solution was reported: leave its level (step C8)
PHASE_TRY = 2  # paused before trying x[LEVEL] (step C5)
PHASE_DONE = 3  # the search space is exhausted

EXHAUSTED, FOUND, PAUSED = 0, 1, 2  # events, as in csp.backends.base

_u = np.uint64
"""Every link is a non-negative index: indexing through an unsigned cast spares
numba's negative-index wraparound test on each access (measured: about a third
of the kernel's time on pentominoes)."""


@njit(cache=True)
def _hide(node, q0, updates):
    # Remove every other node of the option containing q0 from its item's list.
    q = q0 + 1
    while q != q0:
        x = node[_u(q * 4 + TOP)]
        if x <= 0:
            q = node[_u(q * 4 + ULINK)]  # a spacer: back to the option's first node
        elif node[_u(q * 4 + COLOR)] < 0:
            q += 1  # already known to agree with a purified colour
        else:
            u = node[_u(q * 4 + ULINK)]
            d = node[_u(q * 4 + DLINK)]
            node[_u(u * 4 + DLINK)] = d
            node[_u(d * 4 + ULINK)] = u
            node[_u(x * 4 + TOP)] -= 1
            updates += 1
            q += 1
    return updates


@njit(cache=True)
def _unhide(node, q0):
    q = q0 - 1
    while q != q0:
        x = node[_u(q * 4 + TOP)]
        if x <= 0:
            q = node[_u(q * 4 + DLINK)]  # a spacer: on to the option's last node
        elif node[_u(q * 4 + COLOR)] < 0:
            q -= 1
        else:
            u = node[_u(q * 4 + ULINK)]
            d = node[_u(q * 4 + DLINK)]
            node[_u(u * 4 + DLINK)] = q
            node[_u(d * 4 + ULINK)] = q
            node[_u(x * 4 + TOP)] += 1
            q -= 1


@njit(cache=True)
def _cover(node, llink, rlink, i, updates):
    p = node[_u(i * 4 + DLINK)]
    while p != i:
        updates = _hide(node, p, updates)
        p = node[_u(p * 4 + DLINK)]
    left = llink[_u(i)]
    right = rlink[_u(i)]
    rlink[_u(left)] = right
    llink[_u(right)] = left
    return updates


@njit(cache=True)
def _uncover(node, llink, rlink, i):
    left = llink[_u(i)]
    right = rlink[_u(i)]
    rlink[_u(left)] = i
    llink[_u(right)] = i
    p = node[_u(i * 4 + ULINK)]
    while p != i:
        _unhide(node, p)
        p = node[_u(p * 4 + ULINK)]


@njit(cache=True)
def _purify(node, p, updates):
    # Keep only the options that give item TOP(p) the colour of p; mark those.
    c = node[_u(p * 4 + COLOR)]
    i = node[_u(p * 4 + TOP)]
    q = node[_u(i * 4 + DLINK)]
    while q != i:
        if q != p:
            if node[_u(q * 4 + COLOR)] == c:
                node[_u(q * 4 + COLOR)] = -1
            else:
                updates = _hide(node, q, updates)
        q = node[_u(q * 4 + DLINK)]
    return updates


@njit(cache=True)
def _unpurify(node, p):
    c = node[_u(p * 4 + COLOR)]
    i = node[_u(p * 4 + TOP)]
    q = node[_u(i * 4 + ULINK)]
    while q != i:
        if q != p:
            if node[_u(q * 4 + COLOR)] < 0:
                node[_u(q * 4 + COLOR)] = c
            else:
                _unhide(node, q)
        q = node[_u(q * 4 + ULINK)]


@njit(cache=True)
def _commit_rest(node, llink, rlink, xl, updates):
    # Cover or purify the items of option xl other than the one it was chosen for.
    p = xl + 1
    while p != xl:
        j = node[_u(p * 4 + TOP)]
        if j <= 0:
            p = node[_u(p * 4 + ULINK)]
        else:
            c = node[_u(p * 4 + COLOR)]
            if c == 0:
                updates = _cover(node, llink, rlink, j, updates)
            elif c > 0:
                updates = _purify(node, p, updates)
            p += 1
    return updates


@njit(cache=True)
def _uncommit_rest(node, llink, rlink, xl):
    p = xl - 1
    while p != xl:
        j = node[_u(p * 4 + TOP)]
        if j <= 0:
            p = node[_u(p * 4 + DLINK)]
        else:
            c = node[_u(p * 4 + COLOR)]
            if c == 0:
                _uncover(node, llink, rlink, j)
            elif c > 0:
                _unpurify(node, p)
            p -= 1


@njit(cache=True)
def search(node, llink, rlink, x, state, count_only, budget):
    """Run Algorithm C from the saved state until an event; return the event.

    FOUND: a solution (or, at MAX_DEPTH, a partial one) is `x[:state[LEVEL]]`;
    PAUSED: about `budget` more options were tried; EXHAUSTED: done. With
    `count_only` solutions are counted without returning to Python.
    """
    level = state[LEVEL]
    phase = state[PHASE]
    solutions = state[SOLUTIONS]
    nodes = state[NODES]
    updates = state[UPDATES]
    base = state[BASE]
    max_depth = state[MAX_DEPTH]
    stop_at = nodes + budget
    event = EXHAUSTED
    i = 0
    xl = 0

    # Steps of Algorithm C: 2 enter level, 5 try x[l], 6 try again, 8 leave level.
    if phase == PHASE_START:
        step = 2
    elif phase == PHASE_AFTER_LEAF:
        step = 8
    elif phase == PHASE_TRY:
        step = 5
        xl = x[level]
        i = node[_u(xl * 4 + TOP)]
    else:
        return EXHAUSTED

    while True:
        if step == 2:
            if rlink[_u(0)] == 0 or level == max_depth:
                solutions += 1
                if not count_only:
                    phase = PHASE_AFTER_LEAF
                    event = FOUND
                    break
                step = 8
                continue
            # C3: the minimum remaining values rule; ties go to the first item.
            best = 0x7FFFFFFF
            p = rlink[_u(0)]
            while p != 0:
                length = node[_u(p * 4 + TOP)]
                if length < best:
                    best = length
                    i = p
                    if length == 0:
                        break
                p = rlink[_u(p)]
            if best == 0:
                step = 8  # a dead end: no option covers item i
                continue
            if count_only and rlink[_u(i)] == 0 and llink[_u(i)] == 0 and level + 1 != max_depth:
                # The last primary item: every option still in its list is
                # compatible with the choices so far, so each one completes a
                # solution. Count them without trying them one by one.
                solutions += best
                nodes += best
                step = 8
                continue
            # C4
            updates = _cover(node, llink, rlink, i, updates)
            xl = node[_u(i * 4 + DLINK)]
            x[level] = xl
            step = 5
        elif step == 5:
            if xl == i:
                # C7: every option of item i has been tried.
                _uncover(node, llink, rlink, i)
                step = 8
                continue
            if nodes >= stop_at:
                phase = PHASE_TRY
                event = PAUSED
                break
            nodes += 1
            updates = _commit_rest(node, llink, rlink, xl, updates)
            level += 1
            step = 2
        elif step == 6:
            _uncommit_rest(node, llink, rlink, xl)
            i = node[_u(xl * 4 + TOP)]
            xl = node[_u(xl * 4 + DLINK)]
            x[level] = xl
            step = 5
        else:  # step 8
            if level <= base:
                phase = PHASE_DONE
                event = EXHAUSTED
                break
            level -= 1
            xl = x[level]
            step = 6

    state[LEVEL] = level
    state[PHASE] = phase
    state[SOLUTIONS] = solutions
    state[NODES] = nodes
    state[UPDATES] = updates
    return event


@njit(cache=True)
def choose(node, llink, rlink, x, state, first):
    """Force option node `first` at the current level, as if search chose it.

    Used to replay a prefix of choices (a subproblem): it covers the item of
    `first` and commits the rest of its option, then raises the base level so
    that the search never backtracks above it. Returns False (and changes
    nothing) when `first` is no longer available.
    """
    i = node[_u(first * 4 + TOP)]
    if i <= 0:
        return False
    # The item must still be active, and the option still in its list.
    p = rlink[_u(0)]
    while p != 0 and p != i:
        p = rlink[_u(p)]
    if p != i:
        return False
    q = node[_u(i * 4 + DLINK)]
    while q != i and q != first:
        q = node[_u(q * 4 + DLINK)]
    if q != first:
        return False
    updates = state[UPDATES]
    updates = _cover(node, llink, rlink, i, updates)
    updates = _commit_rest(node, llink, rlink, first, updates)
    level = state[LEVEL]
    x[level] = first
    state[LEVEL] = level + 1
    state[BASE] = level + 1
    state[UPDATES] = updates
    return True


def new_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[MAX_DEPTH] = -1
    return state
