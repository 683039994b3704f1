"""Sums: bounds reasoning on a linear constraint, and subset tables for a sum
over all-different variables (a kakuro run, a killer cage)."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import highest, lowest
from csp.backends.bitmask.domains import from_common, narrow, to_common, trim
from csp.backends.bitmask.layout import OP_GE, OP_LE, jit


@jit
def linear(p, s, c):
    """Bounds reasoning on sum(w * x) op rhs."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    op = p.params[q]
    rhs = p.params[q + 1]
    while True:
        smin = 0
        smax = 0
        for e in range(a, b):
            v = p.cvars[e]
            w = p.params[q + 2 + e - a]
            d = s.dom[v]
            lo = p.vals[p.voff[v] + lowest(d)]
            hi = p.vals[p.voff[v] + highest(d)]
            if w > 0:
                smin += w * lo
                smax += w * hi
            else:
                smin += w * hi
                smax += w * lo
        if (op != OP_GE and smin > rhs) or (op != OP_LE and smax < rhs):
            return False
        changed = False
        for e in range(a, b):
            v = p.cvars[e]
            w = p.params[q + 2 + e - a]
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
