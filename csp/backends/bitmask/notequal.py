"""x != y between two variables (with their own values): a fixed value of one
leaves the other. `params` maps each bit of x to the bit of the same value in
y (or -1), then each bit of y to x's."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit
def not_equal(p, s, c):
    a = p.cstart[c]
    x, y = p.cvars[a], p.cvars[a + 1]
    q = p.pstart[c]
    nx = p.params[q]
    for _ in range(2):
        dx = s.dom[x]
        if dx & (dx - 1) == 0:
            j = p.params[q + 2 + lowest(dx)]
            if j >= 0 and not narrow(p, s, y, s.dom[y] & ~(1 << j)):
                return False
        dy = s.dom[y]
        if dy & (dy - 1) == 0:
            j = p.params[q + 2 + nx + lowest(dy)]
            if j >= 0 and not narrow(p, s, x, s.dom[x] & ~(1 << j)):
                return False
    return True
