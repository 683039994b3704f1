"""The all-different propagator: its singles, then its strong reasoning.

The singles (naked and hidden singles, the pigeonhole test) are cheap and run
to their fixpoint first; the strong reasoning (`matching`: every naked and
hidden subset; `locked`: the intersections with other all-differents) then
runs once on settled domains (see `csp.backends.bitmask.propagate`).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import popcount
from csp.backends.bitmask.domains import from_common, narrow, to_common
from csp.backends.bitmask.layout import OPT_LOCKED, OPT_MATCHING, jit
from csp.backends.bitmask.locked import locked
from csp.backends.bitmask.matching import matching


@jit(inline="always")
def all_different(p, s, c):
    """Naked singles, hidden singles (when the values must all be used), pigeonhole:
    cheap, so they run to their fixpoint before the strong reasoning does."""
    a, b = p.cstart[c], p.cstart[c + 1]
    k = b - a
    while True:
        fixed = 0
        once = 0
        twice = 0
        open_values = 0
        for e in range(a, b):
            m = to_common(p, e, s.dom[p.cvars[e]])
            if m & (m - 1) == 0:
                if fixed & m:
                    return False
                fixed |= m
            else:
                open_values |= m
            twice |= once & m
            once |= m
        n_values = popcount(once)
        if n_values < k:
            return False
        # With exactly k values left for k variables every value is used, so a
        # value that only one variable can take is that variable's.
        hidden = once & ~twice & ~fixed if n_values == k else 0
        if hidden == 0 and open_values & fixed == 0:
            return True  # nothing to narrow: spare the second pass
        again = False
        for e in range(a, b):
            v = p.cvars[e]
            m = to_common(p, e, s.dom[v])
            if m & (m - 1) == 0:
                continue
            nm = m & ~fixed
            h = nm & hidden
            if h != 0:
                if h & (h - 1):
                    return False
                nm = h
            if nm != m:
                if not narrow(p, s, v, from_common(p, e, v, nm)):
                    return False
                if nm & (nm - 1) == 0:
                    again = True
        if not again:
            return True


@jit(inline="always")
def all_different_strong(p, s, c):
    """The strong reasoning of an all-different: matching, then intersections."""
    if p.cstart[c + 1] - p.cstart[c] <= 64 and s.st[OPT_MATCHING] and not matching(p, s, c):
        return False
    return s.st[OPT_LOCKED] == 0 or locked(p, s, c)
