"""Reified constraints: a literal (see `clauses`) that holds exactly when a
sum compares with its right-hand side, or when two variables are equal.

While the literal is open, the constraint is judged by bounds: entailed (it
holds whatever the remaining values), the literal is made true; disentailed
(it cannot hold), false. Once the literal is decided, the constraint or its
negation is propagated. The literal's variable is entry a = cstart[c]:

    REIFIED_LINEAR  entries: literal, x_1 .. x_n
                    params:  op, rhs, m (the literal's mask), w_1 .. w_n
    REIFIED_EQUAL   entries: literal, x, y
                    params:  m, |x|, |y|, then for each bit of x the bit of
                             the same value in y (or -1), then y's into x
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import OP_EQ, OP_GE, OP_LE, OP_NE, jit
from csp.backends.bitmask.sums import compare_sum, sum_range


@jit(inline="always")
def negated(op, rhs):
    """The comparison that holds exactly when `sum op rhs` does not."""
    if op == OP_LE:
        return OP_GE, rhs + 1
    if op == OP_GE:
        return OP_LE, rhs - 1
    if op == OP_EQ:
        return OP_NE, rhs
    return OP_EQ, rhs


@jit
def reified_linear(p, s, c):
    """m <-> sum(w * x) op rhs."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    op = p.params[q]
    rhs = p.params[q + 1]
    m = p.params[q + 2]
    v = p.cvars[a]
    d = s.dom[v]
    if d & ~m == 0:
        return compare_sum(p, s, a + 1, b, q + 3, op, rhs)
    if d & m == 0:
        nop, nrhs = negated(op, rhs)
        return compare_sum(p, s, a + 1, b, q + 3, nop, nrhs)
    smin, smax = sum_range(p, s, a + 1, b, q + 3)
    if op == OP_LE:
        holds, fails = smax <= rhs, smin > rhs
    elif op == OP_GE:
        holds, fails = smin >= rhs, smax < rhs
    else:
        equal = smin == smax == rhs
        apart = rhs < smin or rhs > smax
        holds, fails = (equal, apart) if op == OP_EQ else (apart, equal)
    if holds or fails:
        return narrow(p, s, v, d & (m if holds else ~m))
    return True


@jit(inline="always")
def _common(p, q, dx, dy):
    """The bits of dx whose value y can take (map at params[q:], bit -> y's bit)."""
    out = 0
    m = dx
    while m != 0:
        k = lowest(m)
        m &= m - 1
        j = p.params[q + k]
        if j >= 0 and (dy >> j) & 1:
            out |= 1 << k
    return out


@jit
def reified_equal(p, s, c):
    """m <-> x == y, for two variables with their own values. The new masks
    are worked out first, then narrowed (one `narrow` inlined, not six)."""
    a = p.cstart[c]
    v, x, y = p.cvars[a], p.cvars[a + 1], p.cvars[a + 2]
    q = p.pstart[c]
    m = p.params[q]
    xy = q + 3  # x's bits -> y's
    yx = xy + p.params[q + 1]  # y's bits -> x's
    d, dx, dy = s.dom[v], s.dom[x], s.dom[y]
    if d & ~m == 0:  # equal: each keeps the values the other can take
        dx = _common(p, xy, dx, dy)
        dy = _common(p, yx, dy, dx)
    elif d & m == 0:  # different: a fixed one's value leaves the other
        for _ in range(2):
            if dx & (dx - 1) == 0 and dx != 0:
                j = p.params[xy + lowest(dx)]
                if j >= 0:
                    dy &= ~(1 << j)
            if dy & (dy - 1) == 0 and dy != 0:
                j = p.params[yx + lowest(dy)]
                if j >= 0:
                    dx &= ~(1 << j)
    elif _common(p, xy, dx, dy) == 0:
        d &= ~m
    elif dx & (dx - 1) == 0 and dy & (dy - 1) == 0:
        d &= m
    for i in range(3):
        u = v if i == 0 else x if i == 1 else y
        new = d if i == 0 else dx if i == 1 else dy
        if not narrow(p, s, u, s.dom[u] & new):  # (& the domain: v may be x or y)
            return False
    return True
