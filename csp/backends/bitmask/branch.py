"""Branching: which choice the search makes next (fewest alternatives, ties
by failures), and last-conflict reasoning."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import popcount
from csp.backends.bitmask.domains import to_common
from csp.backends.bitmask.layout import (
    CONFLICTS,
    L_ACTIVITY,
    LAST_BIT,
    LAST_CHOICE,
    OPT_ACTIVITY,
    OPT_LEARN,
    OPT_PLACES,
    OPT_WDEG,
    WDEG_OFF,
    WDEG_TIES,
    jit,
    part,
)


@jit
def choose(p, s, depth):
    """Set up the branching of level `depth`; False if every variable is assigned.

    The choice with the fewest alternatives wins: the unassigned variable with
    the fewest values (on ties, the one whose constraints failed most often, then
    the first declared), or, when it is strictly
    smaller, the places left for a value in an all-different whose values must
    all be used (as Algorithm X's MRV over "row r has digit d" items).
    """
    dom = s.dom
    if s.st[LAST_CHOICE] != 0 and _choose_last(p, s, depth):
        return True
    best = -1
    best_size = 65
    best_w = 0
    wdeg = s.st[OPT_WDEG]
    # Once conflicts are learned from, their activity replaces the failure weights.
    active = s.st[OPT_LEARN] != 0 and s.st[OPT_ACTIVITY] != 0 and s.st[CONFLICTS] > 0
    weights = part(s, L_ACTIVITY) if active else s.vweight
    for v in range(dom.shape[0]):
        d = dom[v]
        if d & (d - 1) != 0:
            size = popcount(d)
            if wdeg == WDEG_OFF:
                if size < best_size:
                    best_size = size
                    best = v
                continue
            if wdeg == WDEG_TIES and size > best_size:
                continue
            wd = weights[v]
            if wdeg == WDEG_TIES:
                # Ties go to the variable whose constraints failed most (wdeg).
                better = size < best_size or wd > best_w
            else:  # the least size / wdeg, compared without division
                better = best < 0 or size * best_w < best_size * wd
            if better:
                best_size = size
                best = v
                best_w = wd
    if best < 0:
        return False
    s.var_at[depth] = best
    s.rem[depth] = dom[best]
    s.first[depth] = dom[best]
    if best_size <= 2 or s.st[OPT_PLACES] == 0:
        return True
    best_c = -1
    best_bit = 0
    for i in range(p.alldiffs.shape[0]):
        c = p.alldiffs[i]
        a, b = p.cstart[c], p.cstart[c + 1]
        # at_least_j: the values that at least j variables can take
        at_least1 = 0
        at_least2 = 0
        at_least3 = 0
        at_least4 = 0
        for e in range(a, b):
            m = to_common(p, e, dom[p.cvars[e]])
            at_least4 |= at_least3 & m
            at_least3 |= at_least2 & m
            at_least2 |= at_least1 & m
            at_least1 |= m
        if popcount(at_least1) != b - a:
            continue  # a value may go unused: its places are no partition
        two = at_least2 & ~at_least3
        if two != 0:
            best_c, best_bit, best_size = c, two & -two, 2
            break
        three = at_least3 & ~at_least4
        if three != 0 and best_size > 3:
            best_c, best_bit, best_size = c, three & -three, 3
    if best_c >= 0:
        a, b = p.cstart[best_c], p.cstart[best_c + 1]
        places = 0
        for e in range(a, b):
            if to_common(p, e, dom[p.cvars[e]]) & best_bit:
                places |= 1 << (e - a)
        s.var_at[depth] = -(best_c + 1)
        s.vbit[depth] = best_bit
        s.rem[depth] = places
        s.first[depth] = places
    return True


@jit(inline="always")
def _choose_last(p, s, depth):
    """Branch again on the last conflict (the choice whose decision failed last),
    if it is still open: a variable with two values or more, or a value of an
    all-different not yet placed, with two places or more (Lecoutre et al.,
    "Reasoning from last conflict(s) in constraint programming", 2009). False
    if it is settled, or if the all-different may now leave the value unused
    (the conflict arose where its values were as many as its cells, on another
    branch): its places are then no partition. The usual choice then."""
    choice = s.st[LAST_CHOICE]
    if choice > 0:
        v = choice - 1
        d = s.dom[v]
        if d & (d - 1) == 0:
            return False
        s.var_at[depth] = v
        s.rem[depth] = d
        s.first[depth] = d
        return True
    c = -choice - 1
    bit = s.st[LAST_BIT]
    a, b = p.cstart[c], p.cstart[c + 1]
    places = 0
    used = 0
    for e in range(a, b):
        m = to_common(p, e, s.dom[p.cvars[e]])
        used |= m
        if m & bit:
            if m == bit:
                return False  # placed
            places |= 1 << (e - a)
    if popcount(used) != b - a or places & (places - 1) == 0:
        return False
    s.var_at[depth] = choice
    s.vbit[depth] = bit
    s.rem[depth] = places
    s.first[depth] = places
    return True


@jit(inline="always")
def is_last(s, depth):
    """True if the choice of level `depth` is the last conflict."""
    w = s.var_at[depth]
    if w >= 0:
        return s.st[LAST_CHOICE] == w + 1
    return s.st[LAST_CHOICE] == w and s.st[LAST_BIT] == s.vbit[depth]
