"""Count: how many of x_0 .. x_{n-1} equal t, compared with k (an int of the
model is a variable with one value): `(count + shift) op k`, op one of
==, <=, >=, != (`<` is `<=` with shift 1, `>` is `>=` with shift -1).

    entries: t, k, x_0 .. x_{n-1}
    params:  n, op, shift, off_0 .. off_{n-1}, then at params[off_j] x_j's
             map: for each bit of t, the bit of the same value in x_j (or -1)

Counting bounds: for a value of t, the count is at least the x fixed to it
(*must*) and at most the x that can take it (*may*). A value of t is kept
while [must, may] can compare with some k; k keeps the values that some
kept value of t allows. Once t is fixed, the bounds that k leaves the count
decide the open x: none more may take the value (all open lose it) when the
count may not exceed must, all must take it when it may not stay below may.
`GlobalCardinality` is one count per value (`compile_globals`).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import bit_of_value, greatest, least, narrow, trim
from csp.backends.bitmask.layout import OP_EQ, OP_GE, OP_LE, OP_NE, jit

BIG = 1 << 62


@jit(inline="always")
def _tally(p, s, a, q, n, tb):
    """(must, may) for the value of t's bit tb."""
    must = 0
    may = 0
    for j in range(n):
        xb = p.params[p.params[q + 3 + j] + tb]
        if xb < 0:
            continue
        d = s.dom[p.cvars[a + 2 + j]]
        if (d >> xb) & 1:
            may += 1
            if d == 1 << xb:
                must += 1
    return must, may


@jit(inline="always")
def _allowed_k(p, k, dk, op, lo, hi):
    """The values of k (mask dk) that some count in lo..hi compares with."""
    if op == OP_EQ:
        return trim(p, k, dk, lo, hi)
    if op == OP_LE:
        return trim(p, k, dk, lo, BIG)
    if op == OP_GE:
        return trim(p, k, dk, -BIG, hi)
    if lo == hi:  # OP_NE
        bit = bit_of_value(p, k, lo)
        if bit >= 0:
            return dk & ~(1 << bit)
    return dk


@jit(inline="always")
def _settle(p, s, a, q, n, tb, take):
    """Every x still open on t's value (bit tb) takes it (`take`) or loses it."""
    for j in range(n):
        xb = p.params[p.params[q + 3 + j] + tb]
        if xb < 0:
            continue
        x = p.cvars[a + 2 + j]
        d = s.dom[x]
        bit = 1 << xb
        if d & bit != 0 and d != bit:
            if not narrow(p, s, x, bit if take else d & ~bit):
                return False
    return True


@jit
def count(p, s, c):
    a = p.cstart[c]
    t, k = p.cvars[a], p.cvars[a + 1]
    q = p.pstart[c]
    n, op, shift = p.params[q], p.params[q + 1], p.params[q + 2]
    while True:
        dt, dk = s.dom[t], s.dom[k]
        if dt & (dt - 1) != 0:  # t open: keep its values that k allows
            keep = 0
            allowed = 0
            m = dt
            while m != 0:
                tb = lowest(m)
                m &= m - 1
                must, may = _tally(p, s, a, q, n, tb)
                some = _allowed_k(p, k, dk, op, must + shift, may + shift)
                if some != 0:
                    keep |= 1 << tb
                    allowed |= some
            for i in range(2):
                u = t if i == 0 else k
                if not narrow(p, s, u, s.dom[u] & (keep if i == 0 else allowed)):
                    return False
            dt = s.dom[t]
            if dt & (dt - 1) != 0:
                return True  # k's narrowing leaves each kept value of t allowed
            continue
        tb = lowest(dt)
        must, may = _tally(p, s, a, q, n, tb)
        lo, hi = must + shift, may + shift
        if not narrow(p, s, k, _allowed_k(p, k, dk, op, lo, hi)):
            return False
        dk = s.dom[k]
        kmin, kmax = least(p, k, dk), greatest(p, k, dk)
        least_count, most = lo, hi  # what k leaves the (shifted) count
        if op == OP_EQ:
            least_count, most = max(lo, kmin), min(hi, kmax)
        elif op == OP_LE:
            most = min(hi, kmax)
        elif op == OP_GE:
            least_count = max(lo, kmin)
        elif op == OP_NE and kmin == kmax:
            if least_count == kmin:
                least_count += 1
            if most == kmin:
                most -= 1
        if least_count > most:
            return False
        if lo == hi or (most > lo and least_count < hi):
            return True  # the x open on t's value may go either way
        if not _settle(p, s, a, q, n, tb, most != lo):  # most == lo: none; else: all
            return False
