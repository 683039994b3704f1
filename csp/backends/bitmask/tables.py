"""Tables: the allowed tuples of a constraint (supports), and forbidden ones
(the nogoods that restarts record, `csp.backends.bitmask.learn`).

Both read their tuples from `params[pstart[c]:]`: the number of rows, then
each row's values as bits of its variables' masks."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit
def table(p, s, c):
    """Keep the values that appear in some tuple still valid (one pass is a fixpoint)."""
    a, b = p.cstart[c], p.cstart[c + 1]
    arity = b - a
    q = p.pstart[c]
    n_rows = p.params[q]
    support = s.scratch
    for i in range(arity):
        support[i] = 0
    for t in range(n_rows):
        row = q + 1 + t * arity
        valid = True
        for i in range(arity):
            if (s.dom[p.cvars[a + i]] >> p.params[row + i]) & 1 == 0:
                valid = False
                break
        if valid:
            for i in range(arity):
                support[i] |= 1 << p.params[row + i]
    for i in range(arity):
        v = p.cvars[a + i]
        if not narrow(p, s, v, s.dom[v] & support[i]):
            return False
    return True


@jit
def nogood(p, s, c):
    """Forbidden tuples: when all but one value of a tuple are placed, remove the last."""
    a, b = p.cstart[c], p.cstart[c + 1]
    arity = b - a
    q = p.pstart[c]
    n_rows = p.params[q]
    while True:
        changed = False
        for t in range(n_rows):
            row = q + 1 + t * arity
            open_at = -1
            n_open = 0
            for i in range(arity):
                d = s.dom[p.cvars[a + i]]
                bit = 1 << p.params[row + i]
                if d == bit:
                    continue
                if d & bit == 0:
                    n_open = 2  # this tuple can no longer occur
                    break
                n_open += 1
                open_at = i
                if n_open > 1:
                    break
            if n_open == 0:
                return False
            if n_open == 1:
                v = p.cvars[a + open_at]
                if not narrow(p, s, v, s.dom[v] & ~(1 << p.params[row + open_at])):
                    return False
                changed = True
        if not changed:
            return True
