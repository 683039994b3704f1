"""The learned clauses: a bounded database, propagated by two watched literals.

A clause is a disjunction of literals; literal `(voff[x] + k) << 1` is
x = k, and `| 1` makes it x != k. Each clause watches its first two
literals (`whead`/`wnext`: per literal, a linked list of watches, watch
2i + j being clause i's literal j). The clauses are propagated from the
trail, as a SAT solver does: each narrowing since `CLHEAD` makes false the
literals x = k of the values it removed, and x != b if it fixed x to b; the
clauses watching those look for another literal not false, else make their
other watch true (or fail).

The database has a fixed size (`Options.max_clauses`, `max_literals`): when
the clauses reach `REDUCE_AT`, or a new one would not fit, the half of them
with the largest literal block distance (ties: the longest unused) are
deleted, except those that are the reason of a narrowing on the trail and
the binary ones, and the rest are packed. A clause that still does not fit
is not kept (the search goes on as without it). Memory never grows.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import (
    ARENA,
    CLHEAD,
    CONFLICTS,
    DELETED,
    L_AVAR,
    L_CL_LBD,
    L_CL_LEN,
    L_CL_LITS,
    L_CL_START,
    L_CL_USED,
    L_EWORK,
    L_TRAIL_NEW,
    L_TRAIL_REASON,
    L_WHEAD,
    L_WNEXT,
    N_CLAUSES,
    REASON,
    REDUCE_AT,
    REDUCE_GROW,
    TRAIL,
    jit,
    part,
)


@jit(inline="always")
def _value(p, s, avar, lit):
    """1 if `lit` is true, -1 if false, 0 if open (`avar`: part L_AVAR)."""
    atom = lit >> 1
    x = avar[atom]
    bit = 1 << (atom - p.voff[x])
    d = s.dom[x]
    if lit & 1 == 0:
        if d == bit:
            return 1
        return -1 if d & bit == 0 else 0
    if d & bit == 0:
        return 1
    return -1 if d == bit else 0


@jit(inline="always")
def _watch(whead, wnext, lit, w):
    """Put watch w first in lit's list (`whead`, `wnext`: parts L_WHEAD, L_WNEXT)."""
    wnext[w] = whead[lit]
    whead[lit] = w


@jit(inline="always")
def _visit(p, s, lit, whead, wnext, cl_lits, avar, cl_len, cl_start):
    """The clauses watching `lit`, which just became false. False on a conflict
    (st[REASON] is then the clause). The arrays are learning's parts,
    taken once by the caller rather than per literal: each taking reads its
    bounds from `st`, which the stores here may have changed, as far as the
    compiler knows."""
    prev = -1
    w = whead[lit]
    while w >= 0:
        nxt = wnext[w]
        i = w >> 1
        j = w & 1
        start = cl_start[i]
        other = cl_lits[start + 1 - j]
        if _value(p, s, avar, other) == 1:
            prev = w
            w = nxt
            continue
        moved = False
        for q in range(start + 2, start + cl_len[i]):
            candidate = cl_lits[q]
            if _value(p, s, avar, candidate) != -1:
                cl_lits[q] = cl_lits[start + j]
                cl_lits[start + j] = candidate
                if prev < 0:
                    whead[lit] = nxt
                else:
                    wnext[prev] = nxt
                _watch(whead, wnext, candidate, w)
                moved = True
                break
        if not moved:
            s.st[REASON] = -2 - i
            if _value(p, s, avar, other) == -1:
                return False
            atom = other >> 1
            x = avar[atom]
            bit = 1 << (atom - p.voff[x])
            d = s.dom[x]
            narrow(p, s, x, bit if other & 1 == 0 else d & ~bit)
            prev = w
        w = nxt
    return True


@jit
def propagate_clauses(p, s):
    """Visit the clauses whose watches the trail made false since CLHEAD.
    False on a conflict."""
    trail_new = part(s, L_TRAIL_NEW)
    whead = part(s, L_WHEAD)
    wnext = part(s, L_WNEXT)
    cl_lits = part(s, L_CL_LITS)
    avar = part(s, L_AVAR)
    cl_len = part(s, L_CL_LEN)
    cl_start = part(s, L_CL_START)
    st = s.st
    while st[CLHEAD] < st[TRAIL]:
        t = st[CLHEAD]
        st[CLHEAD] = t + 1
        x = s.trail_var[t]
        new = trail_new[t]
        gone = s.trail_mask[t] & ~new
        base = p.voff[x]
        while gone != 0:
            bit = gone & -gone
            gone ^= bit
            if not _visit(p, s, (base + lowest(bit)) << 1,
                          whead, wnext, cl_lits, avar, cl_len, cl_start):
                return False
        if new & (new - 1) == 0 and not _visit(p, s, ((base + lowest(new)) << 1) | 1,
                                               whead, wnext, cl_lits, avar, cl_len, cl_start):
            return False
    return True


@jit
def add_clause(p, s, lits, n, lbd):
    """Store clause lits[0:n] (lits[0] the asserting literal, lits[1] one of
    the deepest others), watched by its first two. Its index, or -1 if the
    database has no room even after a reduction."""
    cl_lits = part(s, L_CL_LITS)
    cl_start = part(s, L_CL_START)
    cl_lbd = part(s, L_CL_LBD)
    cl_len = part(s, L_CL_LEN)
    cl_used = part(s, L_CL_USED)
    st = s.st
    if n < 1:
        return -1
    if st[N_CLAUSES] >= st[REDUCE_AT] or st[ARENA] + n > cl_lits.shape[0]:
        reduce(p, s)
    if st[N_CLAUSES] >= cl_start.shape[0] or st[ARENA] + n > cl_lits.shape[0]:
        return -1
    i = st[N_CLAUSES]
    st[N_CLAUSES] = i + 1
    start = st[ARENA]
    st[ARENA] = start + n
    for q in range(n):
        cl_lits[start + q] = lits[q]
    if n == 1:  # a unit watches its literal twice: a conflict when it is false
        if start + 1 >= cl_lits.shape[0]:
            st[ARENA] -= 1
            st[N_CLAUSES] -= 1
            return -1
        cl_lits[start + 1] = lits[0]
        st[ARENA] = start + 2
        n = 2
    cl_start[i] = start
    cl_len[i] = n
    cl_lbd[i] = lbd
    cl_used[i] = st[CONFLICTS]
    whead = part(s, L_WHEAD)
    wnext = part(s, L_WNEXT)
    _watch(whead, wnext, cl_lits[start], 2 * i)
    _watch(whead, wnext, cl_lits[start + 1], 2 * i + 1)
    return i


@jit
def reduce(p, s):
    """Delete about half of the deletable clauses, those of the largest block
    distance first (the oldest first among equals), pack the rest, rebuild
    the watches and renumber the reasons on the trail. The next reduction
    waits for more clauses (up to the database's size). Allocates nothing:
    the watch links are scratch until they are rebuilt."""
    trail_reason = part(s, L_TRAIL_REASON)
    cl_len = part(s, L_CL_LEN)
    wnext = part(s, L_WNEXT)
    cl_start = part(s, L_CL_START)
    cl_lits = part(s, L_CL_LITS)
    cl_used = part(s, L_CL_USED)
    cl_lbd = part(s, L_CL_LBD)
    ework = part(s, L_EWORK)
    whead = part(s, L_WHEAD)
    st = s.st
    n = st[N_CLAUSES]
    lbd = cl_lbd
    for t in range(st[TRAIL]):  # reasons are kept: marked by a negative lbd
        r = trail_reason[t]
        if r <= -2 and lbd[-2 - r] >= 0:
            lbd[-2 - r] = -1 - lbd[-2 - r]
    hist = ework
    for b in range(64):
        hist[b] = 0
    deletable = 0
    for i in range(n):
        if lbd[i] > 2 and cl_len[i] > 2:
            hist[min(lbd[i], 63)] += 1
            deletable += 1
    goal = (deletable + 1) // 2
    threshold = 63
    above = 0
    while threshold > 2 and above + hist[threshold] < goal:
        above += hist[threshold]
        threshold -= 1
    at_threshold = goal - above  # how many of block distance `threshold` go too
    kept = 0
    arena = 0
    for i in range(n):
        b = min(lbd[i], 63)
        drop = b > 2 and cl_len[i] > 2 and (
            b > threshold or (b == threshold and at_threshold > 0))
        if drop and b == threshold:
            at_threshold -= 1
        if drop:
            wnext[i] = -1
            continue
        start, length = cl_start[i], cl_len[i]
        for q in range(length):
            cl_lits[arena + q] = cl_lits[start + q]
        cl_start[kept] = arena
        cl_len[kept] = length
        lbd[kept] = lbd[i] if lbd[i] >= 0 else -1 - lbd[i]
        cl_used[kept] = cl_used[i]
        wnext[i] = kept  # (i >= kept: read below, for the trail, before any rebuild)
        arena += length
        kept += 1
    st[DELETED] += n - kept
    st[N_CLAUSES] = kept
    st[ARENA] = arena
    for t in range(st[TRAIL]):
        r = trail_reason[t]
        if r <= -2:
            trail_reason[t] = -2 - wnext[-2 - r]
    whead[:] = -1
    for i in range(kept):
        start = cl_start[i]
        _watch(whead, wnext, cl_lits[start], 2 * i)
        _watch(whead, wnext, cl_lits[start + 1], 2 * i + 1)
    grown = st[REDUCE_AT] + (st[REDUCE_GROW] if st[REDUCE_GROW] > 0 else st[REDUCE_AT] // 2)
    st[REDUCE_AT] = min(max(grown, kept + 1), cl_start.shape[0])
