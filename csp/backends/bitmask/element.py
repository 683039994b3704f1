"""Element: y == a[i], over an array of variables (an int of the model is a
variable with one value), 0-based.

    entries: i, y, a_0 .. a_{n-1}    (the index's values are within 0..n-1:
                                      compile removes the others)
    params:  n, off_0 .. off_{n-1}, then at params[off_j] a_j's map: for each
             bit of a_j, the bit of the same value in y (or -1)

An index value j is kept while a_j and y share a value; y keeps the values
some a_j of a kept index can take; once the index is fixed to j, a_j keeps
the values y can take. That is arc consistency on i and y, and on the chosen
a_j, run to its fixpoint.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit(inline="always")
def _image(p, base, d, dy):
    """The values of mask d (of a_j, its map at params[base:]) that y can take,
    as y's bits."""
    out = 0
    while d != 0:
        t = p.params[base + lowest(d)]
        d &= d - 1
        if t >= 0:
            out |= 1 << t
    return out & dy


@jit
def element(p, s, c):
    a = p.cstart[c]
    i, y = p.cvars[a], p.cvars[a + 1]
    q = p.pstart[c]
    while True:
        di, dy = s.dom[i], s.dom[y]
        keep = 0
        support = 0
        m = di
        while m != 0:
            k = lowest(m)
            m &= m - 1
            j = p.vals[p.voff[i] + k]
            image = _image(p, p.params[q + 1 + j], s.dom[p.cvars[a + 2 + j]], dy)
            if image != 0:
                keep |= 1 << k
                support |= image
        if keep == 0:
            return False
        changed = keep != di or support != dy
        for k in range(2):
            u = i if k == 0 else y
            if not narrow(p, s, u, s.dom[u] & (keep if k == 0 else support)):
                return False
        di, dy = s.dom[i], s.dom[y]
        if di & (di - 1) == 0:
            j = p.vals[p.voff[i] + lowest(di)]
            x = p.cvars[a + 2 + j]
            base = p.params[q + 1 + j]
            dx = s.dom[x]
            allowed = 0
            m = dx
            while m != 0:
                k = lowest(m)
                m &= m - 1
                t = p.params[base + k]
                if t >= 0 and (dy >> t) & 1:
                    allowed |= 1 << k
            if allowed != dx:
                if not narrow(p, s, x, allowed):
                    return False
                changed = True
        if not changed:
            return True
