"""Sums: bounds reasoning on a linear constraint (==, <=, >=), the last free
term of one that must differ (!=), and subset tables for a sum over
all-different variables (a kakuro run, a killer cage)."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import highest, lowest
from csp.backends.bitmask.domains import bit_of_value, from_common, narrow, to_common, trim
from csp.backends.bitmask.layout import OP_GE, OP_LE, OP_NE, jit


@jit
def linear(p, s, c):
    """sum(w * x) op rhs: `params` hold op, rhs, then the weights."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    return compare_sum(p, s, a, b, q + 2, p.params[q], p.params[q + 1])


@jit
def compare_sum(p, s, a, b, wq, op, rhs):
    """sum(w * x) op rhs over the entries a..b, their weights at params[wq:]:
    bounds reasoning for ==, <= and >=; for != the last free term."""
    if op == OP_NE:
        return sum_not_equal(p, s, a, b, wq, rhs)
    return bounds(p, s, a, b, wq, op, rhs)


@jit(inline="always")
def sum_range(p, s, a, b, wq):
    """The least and greatest values of sum(w * x) over the entries a..b."""
    smin = 0
    smax = 0
    for e in range(a, b):
        v = p.cvars[e]
        w = p.params[wq + e - a]
        d = s.dom[v]
        lo = p.vals[p.voff[v] + lowest(d)]
        hi = p.vals[p.voff[v] + highest(d)]
        if w > 0:
            smin += w * lo
            smax += w * hi
        else:
            smin += w * hi
            smax += w * lo
    return smin, smax


@jit
def bounds(p, s, a, b, wq, op, rhs):
    """Bounds reasoning on sum(w * x) op rhs (op ==, <= or >=), to a fixpoint."""
    while True:
        smin, smax = sum_range(p, s, a, b, wq)
        if (op != OP_GE and smin > rhs) or (op != OP_LE and smax < rhs):
            return False
        changed = False
        for e in range(a, b):
            v = p.cvars[e]
            w = p.params[wq + e - a]
            d = s.dom[v]
            lo = p.vals[p.voff[v] + lowest(d)]
            hi = p.vals[p.voff[v] + highest(d)]
            if w > 0:
                tmin, tmax = w * lo, w * hi
            else:
                tmin, tmax = w * hi, w * lo
            xlo, xhi = lo, hi
            if op != OP_GE:  # w * x <= upper
                upper = rhs - (smin - tmin)
                if w > 0:
                    xhi = min(xhi, upper // w)
                else:
                    xlo = max(xlo, -(-upper // w))
            if op != OP_LE:  # w * x >= lower
                lower = rhs - (smax - tmax)
                if w > 0:
                    xlo = max(xlo, -(-lower // w))
                else:
                    xhi = min(xhi, lower // w)
            if xlo > lo or xhi < hi:
                if not narrow(p, s, v, trim(p, v, d, xlo, xhi)):
                    return False
                changed = True
        if not changed:
            return True


@jit
def sum_not_equal(p, s, a, b, wq, rhs):
    """sum(w * x) != rhs (FlatZinc's int_lin_ne): once every term but one is
    fixed, that one loses the value that would make the sum equal rhs (one
    pass is a fixpoint: the narrowing fixes nothing else)."""
    free = -1
    rest = 0
    for e in range(a, b):
        v = p.cvars[e]
        d = s.dom[v]
        if d & (d - 1) != 0:
            if free >= 0 and p.cvars[free] != v:
                return True  # two terms free: nothing to say yet
            free = e
        else:
            rest += p.params[wq + e - a] * p.vals[p.voff[v] + lowest(d)]
    if free < 0:
        return rest != rhs
    v = p.cvars[free]
    w = 0
    for e in range(a, b):  # the free variable's weight (summed, if it appears twice)
        if p.cvars[e] == v:
            w += p.params[wq + e - a]
    gap = rhs - rest
    if w == 0:
        return gap != 0
    if gap % w != 0:
        return True
    k = bit_of_value(p, v, gap // w)
    if k < 0:
        return True
    return narrow(p, s, v, s.dom[v] & ~(1 << k))


@jit
def subset_sum(p, s, c):
    """sum(x) == target over all-different variables: the values still free must
    form a subset of the right size and sum; keep the values of such subsets, and
    place a value every such subset needs if only one variable can take it."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    target = p.params[q]
    first = p.sub_first[p.params[q + 2]]
    union_at = q + 3
    while True:
        used = 0
        rest = target
        free = 0
        avail = 0
        for e in range(a, b):
            m = to_common(p, e, s.dom[p.cvars[e]])
            if m & (m - 1) == 0:
                if used & m:
                    return False
                used |= m
                rest -= p.params[union_at + lowest(m)]
            else:
                free += 1
                avail |= m
        if free == 0:
            return rest == 0
        if free > p.params[q + 1]:  # more variables than values: pigeonhole
            return False
        avail &= ~used
        lo = p.sub_rowptr[first + free]
        hi = p.sub_rowptr[first + free + 1]
        while lo < hi:  # the first row of this size whose sum is >= rest
            mid = (lo + hi) >> 1
            if p.sub_sum[mid] < rest:
                lo = mid + 1
            else:
                hi = mid
        end = p.sub_rowptr[first + free + 1]
        union = 0
        need = -1
        r = lo
        while r < end and p.sub_sum[r] == rest:
            sub = p.sub_mask[r]
            if sub & ~avail == 0:
                union |= sub
                need &= sub
            r += 1
        if union == 0:
            return False
        changed = False
        for e in range(a, b):
            v = p.cvars[e]
            m = to_common(p, e, s.dom[v])
            if m & (m - 1) != 0 and m & ~union != 0:
                if not narrow(p, s, v, from_common(p, e, v, m & union)):
                    return False
                changed = True
        while need != 0:
            bit = need & -need
            need ^= bit
            holder = -1
            holders = 0
            for e in range(a, b):
                m = to_common(p, e, s.dom[p.cvars[e]])
                if m & bit:
                    holders += 1
                    holder = e
                    if m == bit:  # already placed
                        holders = -1
                        break
            if holders == 0:
                return False
            if holders == 1:
                v = p.cvars[holder]
                if not narrow(p, s, v, from_common(p, holder, v, bit)):
                    return False
                changed = True
        if not changed:
            return True
