"""Domains: narrowing a variable's mask, undoing it, and its value maps.

Every narrowing goes through `narrow`, which trails the old mask, wakes the
constraints of the variable and keeps the places of each value in each
all-different up to date; `undo` pops the trail back to a mark. A constraint
reads its variables' masks in its own *common* value space (`to_common`,
`from_common`): bit b there is the same value for every variable of it.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import highest, lowest
from csp.backends.bitmask.layout import (
    ALLDIFF,
    CLHEAD,
    CONFLICT_VAR,
    COUNTS_OFF,
    COUNTS_STRONG,
    DEPTH,
    L_PHASE,
    L_TRAIL_LEVEL,
    L_TRAIL_NEW,
    L_TRAIL_PREV,
    L_TRAIL_REASON,
    L_VLAST,
    OPT_COUNTS,
    OPT_LEARN,
    QCOUNT,
    QHEAD,
    REASON,
    SCOUNT,
    SHEAD,
    TRAIL,
    jit,
    part,
)


@jit(inline="always")
def narrow(p, s, v, new):
    """Set v's mask to `new` (a subset of it); queue its constraints. False if empty.

    A nogood acts only when all but one of its variables are fixed to its
    values, so it is queued only when v becomes fixed."""
    old = s.dom[v]
    if new == old:
        return True
    if new == 0:
        s.st[CONFLICT_VAR] = v
        return False
    t = s.st[TRAIL]
    s.trail_var[t] = v
    s.trail_mask[t] = old
    if s.st[OPT_LEARN] != 0:
        # What conflict analysis reads (`explain`): the narrowing's reason and
        # level, and a chain through the narrowings of each variable. Without
        # learning they are empty (`layout.part`), and nothing is written.
        part(s, L_TRAIL_NEW)[t] = new
        part(s, L_TRAIL_REASON)[t] = s.st[REASON]
        part(s, L_TRAIL_LEVEL)[t] = s.st[DEPTH]
        part(s, L_TRAIL_PREV)[t] = part(s, L_VLAST)[v]
        part(s, L_VLAST)[v] = t
    s.st[TRAIL] = t + 1
    s.dom[v] = new
    size = s.queue.shape[0]
    fixed = new & (new - 1) == 0
    counting = s.st[OPT_COUNTS]
    end = p.vcstart[v + 1] if fixed else p.vcnog[v]
    for i in range(p.vcstart[v], end):
        c = p.vcons[i]
        if counting != COUNTS_OFF and p.kind[c] == ALLDIFF and small(p, c):
            # The singles of c can find something only if a cell is fixed or a
            # removed value is left with one place (or none) in c.
            e = p.ventry[i]
            gone = to_common(p, e, old & ~new)
            s.changed[c] |= gone
            single = fixed
            base = c << 6
            keep = ~(1 << (e - p.cstart[c]))
            while gone != 0:
                k = base + lowest(gone)
                gone &= gone - 1
                where = s.places[k] & keep
                s.places[k] = where
                if where & (where - 1) == 0:
                    single = True
            if not single:
                if counting == COUNTS_STRONG and s.inq[c] == 0:
                    push_strong(s, c)  # (if c's singles are queued, they will push it)
                continue
        if s.inq[c] == 0:
            s.inq[c] = 1
            tail = s.st[QHEAD] + s.st[QCOUNT]
            if tail >= size:
                tail -= size
            s.queue[tail] = c
            s.st[QCOUNT] += 1
    return True


@jit(inline="always")
def push_strong(s, c):
    """Queue the strong reasoning of all-different c, unless it is queued."""
    if s.instrong[c] == 0:
        s.instrong[c] = 1
        tail = s.st[SHEAD] + s.st[SCOUNT]
        size = s.strong.shape[0]
        s.strong[tail if tail < size else tail - size] = c
        s.st[SCOUNT] += 1


@jit(inline="always")
def small(p, c):
    """True if constraint c has at most 64 cells: its places fit in a mask."""
    return p.cstart[c + 1] - p.cstart[c] <= 64


@jit
def count_places(p, s):
    """Set `places` from the domains (at the root; narrowings keep it up to date).
    An all-different of more than 64 cells has none: its singles always wake."""
    for c in range(p.kind.shape[0]):
        if p.kind[c] != ALLDIFF:
            continue
        base = c << 6
        for k in range(64):
            s.places[base + k] = 0
        s.values[c] = 0
        s.changed[c] = 0
        if not small(p, c):
            continue
        for e in range(p.cstart[c], p.cstart[c + 1]):
            m = to_common(p, e, s.dom[p.cvars[e]])
            s.values[c] |= m
            s.changed[c] |= m
            pos = 1 << (e - p.cstart[c])
            while m != 0:
                s.places[base + lowest(m)] |= pos
                m &= m - 1


@jit
def undo(p, s, mark):
    t = s.st[TRAIL]
    counting = s.st[OPT_COUNTS] != COUNTS_OFF
    learning = s.st[OPT_LEARN] != 0
    while t > mark:
        t -= 1
        v = s.trail_var[t]
        old = s.trail_mask[t]
        if counting:
            back = old & ~s.dom[v]
            for i in range(p.vcstart[v], p.vcnog[v]):
                c = p.vcons[i]
                if p.kind[c] == ALLDIFF and small(p, c):
                    base = c << 6
                    e = p.ventry[i]
                    pos = 1 << (e - p.cstart[c])
                    m = to_common(p, e, back)
                    while m != 0:
                        s.places[base + lowest(m)] |= pos
                        m &= m - 1
        now = s.dom[v]
        s.dom[v] = old
        if learning:
            if now & (now - 1) == 0:  # v was fixed: its value is the phase it keeps
                part(s, L_PHASE)[v] = now
            part(s, L_VLAST)[v] = part(s, L_TRAIL_PREV)[t]
    s.st[TRAIL] = t
    if s.st[CLHEAD] > t:
        s.st[CLHEAD] = t


@jit(inline="always")
def image(table, base, m):
    """The set {table[base + i] : bit i of m}: a mask mapped bit by bit."""
    out = 0
    while m != 0:
        out |= 1 << table[base + lowest(m)]
        m &= m - 1
    return out


@jit(inline="always")
def to_common(p, e, m):
    shift = p.cshift[e]
    if shift >= 0:
        return m << shift
    return image(p.tmap, p.ctoff[e], m)


@jit(inline="always")
def from_common(p, e, v, cm):
    shift = p.cshift[e]
    if shift >= 0:
        return (cm >> shift) & p.full[v]
    out = 0
    base = p.ctoff[e]
    m = p.full[v]
    while m != 0:
        k = lowest(m)
        if (cm >> p.tmap[base + k]) & 1:
            out |= 1 << k
        m &= m - 1
    return out


@jit
def trim(p, v, d, lo, hi):
    """Mask d without the values of v below lo or above hi."""
    base = p.voff[v]
    while d != 0 and p.vals[base + lowest(d)] < lo:
        d &= d - 1
    while d != 0:
        k = highest(d)
        if p.vals[base + k] <= hi:
            break
        d &= ~(1 << k)
    return d


@jit(inline="always")
def bit_of_value(p, v, value):
    """The bit of `value` in v's mask, or -1 if v has no such value (a binary
    search of v's sorted values)."""
    lo = p.voff[v]
    hi = p.voff[v + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if p.vals[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    if lo < p.voff[v + 1] and p.vals[lo] == value:
        return lo - p.voff[v]
    return -1


@jit(inline="always")
def least(p, v, d):
    """The smallest value of mask d (not empty) of variable v."""
    return p.vals[p.voff[v] + lowest(d)]


@jit(inline="always")
def greatest(p, v, d):
    """The largest value of mask d (not empty) of variable v."""
    return p.vals[p.voff[v] + highest(d)]
