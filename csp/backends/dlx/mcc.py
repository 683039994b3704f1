"""Knuth's Algorithm M (exact covering with multiplicities and colours, his
DLX3) as one resumable numba kernel, for covers whose primary items have bounds.

It shares Algorithm C's links (`links.build`) and its cover, hide and purify
steps (`kernel`); what it adds is per primary item a `bound` (how many more
options may still cover it) and a `slack` (its most minus its least), and two
moves besides choosing an option:

- *tweak*: at a level that branches on item i, the options of i are tried one
  after another as in Algorithm C, but each option tried is then removed from
  i's list ("tweaked") before the next is tried, so that a set of options
  covering i several times is met once, in one order only;
- the *null move*: when i has been covered often enough, choosing none of its
  remaining options (i leaves the active list).

Search state lives in arrays, as in `kernel`: `x[l]` is the node chosen at
level l (item i's header node for a null move), `best[l]` the item branched
on, `first[l]` the first option of a tweaked list, so that the search can
return to Python after any solution or node budget and resume.

The item to branch on minimises Knuth's score `len + s - bound + 1` (s =
min(slack, bound): the number of branches), ties to the smaller s, then to
the longer list, as DLX3 does: node counts are comparable with DLX3's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.dlx.links_kernel import (
    COLOR,
    DLINK,
    EXHAUSTED,
    FOUND,
    PAUSED,
    TOP,
    ULINK,
    _cover,
    _hide,
    _purify,
    _uncover,
    _unhide,
    _unpurify,
)

# Slots of the int64 `state` array (as in `kernel`, where they mean the same).
LEVEL = 0
PHASE = 1
SOLUTIONS = 2
NODES = 3
UPDATES = 4
STATE_SIZE = 8

PHASE_FORWARD = 0  # enter level `LEVEL`: choose an item
PHASE_BACKDOWN = 1  # a solution was reported: leave its level
PHASE_DONE = 3

_FORWARD, _ADVANCE, _BACKUP, _BACKDOWN = 0, 1, 2, 3
_NO_SCORE = 0x7FFFFFFF  # the score when no primary item is active: a solution

_u = np.uint64  # see `kernel`: unsigned indices spare numba's wraparound test


@njit(cache=True)
def _deactivate(llink, rlink, i):
    left = llink[_u(i)]
    right = rlink[_u(i)]
    rlink[_u(left)] = right
    llink[_u(right)] = left


@njit(cache=True)
def _reactivate(llink, rlink, i):
    rlink[_u(llink[_u(i)])] = i
    llink[_u(rlink[_u(i)])] = i


@njit(cache=True)
def _tweak(node, n, block, updates):
    # Take option node n out of its item's list; with `block`, hide the rest
    # of its option too (when the item was covered, its options already are).
    if block:
        updates = _hide(node, n, updates)
    u = node[_u(n * 4 + ULINK)]
    d = node[_u(n * 4 + DLINK)]
    node[_u(u * 4 + DLINK)] = d
    node[_u(d * 4 + ULINK)] = u
    node[_u(node[_u(n * 4 + TOP)] * 4 + TOP)] -= 1
    return updates + 1


@njit(cache=True)
def _untweak(node, c, first, unblock):
    # The tweaked nodes still point down to one another, from `first` to the
    # node now below the header: relink them, and unhide their options.
    z = node[_u(c * 4 + DLINK)]
    node[_u(c * 4 + DLINK)] = first
    r = first
    above = c
    k = 0
    while r != z:
        node[_u(r * 4 + ULINK)] = above
        k += 1
        if unblock:
            _unhide(node, r)
        above = r
        r = node[_u(r * 4 + DLINK)]
    node[_u(z * 4 + ULINK)] = above
    node[_u(c * 4 + TOP)] += k
    if not unblock:
        # The item was covered: unhide its options, leaving it inactive (the
        # null move's undoing reactivates it).
        p = node[_u(c * 4 + ULINK)]
        while p != c:
            _unhide(node, p)
            p = node[_u(p * 4 + ULINK)]


@njit(cache=True)
def _commit_rest(node, llink, rlink, bound, n_primary, xl, updates):
    # The other items of option xl: a primary one has one cover fewer left
    # (covered when none is left); a secondary one is covered or purified.
    # (Algorithm C's `links_kernel._commit_rest` does the secondary part alike; it is
    # not shared, so that C's hot loop stays as it is, tuned on its own.)
    p = xl + 1
    while p != xl:
        j = node[_u(p * 4 + TOP)]
        if j <= 0:
            p = node[_u(p * 4 + ULINK)]
            continue
        if j <= n_primary:
            bound[j] -= 1
            if bound[j] == 0:
                updates = _cover(node, llink, rlink, j, updates)
        else:
            c = node[_u(p * 4 + COLOR)]
            if c == 0:
                updates = _cover(node, llink, rlink, j, updates)
            elif c > 0:
                updates = _purify(node, p, updates)
        p += 1
    return updates


@njit(cache=True)
def _uncommit_rest(node, llink, rlink, bound, n_primary, xl):
    p = xl - 1
    while p != xl:
        j = node[_u(p * 4 + TOP)]
        if j <= 0:
            p = node[_u(p * 4 + DLINK)]
            continue
        if j <= n_primary:
            if bound[j] == 0:
                _uncover(node, llink, rlink, j)
            bound[j] += 1
        else:
            c = node[_u(p * 4 + COLOR)]
            if c == 0:
                _uncover(node, llink, rlink, j)
            elif c > 0:
                _unpurify(node, p)
        p -= 1


@njit(cache=True)
def _choose_item(node, rlink, bound, slack):
    # Knuth's rule (DLX3): the least score, then the least s, then the longest list.
    score = _NO_SCORE
    best = 0
    best_s = 0
    best_l = 0
    k = rlink[_u(0)]
    while k != 0:
        s = slack[k]
        if s > bound[k]:
            s = bound[k]
        length = node[_u(k * 4 + TOP)]
        t = length + s - bound[k] + 1
        if t <= score and (t < score or s < best_s or (s == best_s and length > best_l)):
            score = t
            best = k
            best_s = s
            best_l = length
            if t <= 0:
                break  # a dead end: no need to look further
        k = rlink[_u(k)]
    return best, score


@njit(cache=True)
def search(node, llink, rlink, bound, slack, n_primary, x, best_at, first_at, state,
           count_only, budget):
    """Run Algorithm M from the saved state until an event (as `links_kernel.search`).

    A solution is the option nodes among `x[:state[LEVEL]]` (header nodes,
    `<= n_items`, are null moves).
    """
    level = state[LEVEL]
    phase = state[PHASE]
    solutions = state[SOLUTIONS]
    nodes = state[NODES]
    updates = state[UPDATES]
    stop_at = nodes + budget
    event = EXHAUSTED
    n_items = llink.shape[0] - 2
    if phase == PHASE_FORWARD:
        step = _FORWARD
    elif phase == PHASE_BACKDOWN:
        step = _BACKDOWN
    else:
        return EXHAUSTED
    i = 0
    cur = 0
    while True:
        if step == _FORWARD:
            if nodes >= stop_at:
                phase = PHASE_FORWARD
                event = PAUSED
                break
            i, score = _choose_item(node, rlink, bound, slack)
            if score == _NO_SCORE:
                solutions += 1
                if not count_only:
                    phase = PHASE_BACKDOWN
                    event = FOUND
                    break
                step = _BACKDOWN
                continue
            if score <= 0:
                step = _BACKDOWN
                continue
            cur = node[_u(i * 4 + DLINK)]
            x[level] = cur
            best_at[level] = i
            first_at[level] = 0
            bound[i] -= 1
            if bound[i] == 0 and slack[i] == 0:
                updates = _cover(node, llink, rlink, i, updates)
            else:
                first_at[level] = cur
                if bound[i] == 0:
                    updates = _cover(node, llink, rlink, i, updates)
            step = _ADVANCE
        elif step == _ADVANCE:
            b = bound[i]
            s = slack[i]
            if b == 0 and s == 0:
                if cur == i:
                    step = _BACKUP
                    continue
            elif node[_u(i * 4 + TOP)] <= b - s:
                step = _BACKUP  # too few options left to reach the item's least
                continue
            elif cur != i:
                updates = _tweak(node, cur, b != 0, updates)
            elif b != 0:
                _deactivate(llink, rlink, i)  # the null move
            nodes += 1
            if cur > n_items:
                updates = _commit_rest(node, llink, rlink, bound, n_primary, cur, updates)
            level += 1
            step = _FORWARD
        elif step == _BACKUP:
            if bound[i] == 0 and slack[i] == 0:
                _uncover(node, llink, rlink, i)
            else:
                _untweak(node, i, first_at[level], bound[i] != 0)
            bound[i] += 1
            step = _BACKDOWN
        else:  # _BACKDOWN
            if level == 0:
                phase = PHASE_DONE
                event = EXHAUSTED
                break
            level -= 1
            cur = x[level]
            i = best_at[level]
            if cur <= n_items:
                _reactivate(llink, rlink, i)  # undo the null move
                step = _BACKUP
                continue
            _uncommit_rest(node, llink, rlink, bound, n_primary, cur)
            cur = node[_u(cur * 4 + DLINK)]
            x[level] = cur
            step = _ADVANCE

    state[LEVEL] = level
    state[PHASE] = phase
    state[SOLUTIONS] = solutions
    state[NODES] = nodes
    state[UPDATES] = updates
    return event


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


__all__ = ["FOUND", "PAUSED", "EXHAUSTED", "new_state", "search"]
