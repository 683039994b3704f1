"""Boolean logic over literals: clauses (at least one literal true) and
parity (an odd or even number of literals true: `Xor`, `Iff`).

A *literal* is "variable v takes a value of mask m": `x == 3`, `x != 3` and
`b == 1` are literals, and so is its negation (v, full & ~m). Given v's
domain d, the literal is true when d is within m (`d & ~m == 0`), false when
d misses m (`d & m == 0`), open otherwise; making it true narrows d to
`d & m`, false to `d & ~m`. Entry e of the constraint is the literal's
variable, its mask is a parameter:

    CLAUSE  params: m_0, m_1, ...           (one mask per entry)
    PARITY  params: odd, m_0, m_1, ...      (odd: 1 if an odd number must hold)

`csp.backends.bitmask.compile_logic` turns `And`, `Or`, `Not`, `Implies`,
`Xor` and `Iff` into these and the reified constraints of `reified`.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit
def clause(p, s, c):
    """Unit propagation: a true literal satisfies the clause; when every
    literal but one is false, that one is made true; none left is a failure."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c] - a
    last = -1
    n_open = 0
    for e in range(a, b):
        d = s.dom[p.cvars[e]]
        m = p.params[q + e]
        if d & ~m == 0:
            return True
        if d & m != 0:
            n_open += 1
            last = e
    if n_open == 0:
        return False
    if n_open == 1:
        v = p.cvars[last]
        return narrow(p, s, v, s.dom[v] & p.params[q + last])
    return True


@jit
def parity(p, s, c):
    """When every literal but one is decided, that one takes the truth that
    gives the parity; all decided, the parity is checked."""
    a, b = p.cstart[c], p.cstart[c + 1]
    odd = p.params[p.pstart[c]]
    q = p.pstart[c] + 1 - a
    true = 0
    last = -1
    n_open = 0
    for e in range(a, b):
        d = s.dom[p.cvars[e]]
        m = p.params[q + e]
        if d & ~m == 0:
            true += 1
        elif d & m != 0:
            n_open += 1
            last = e
            if n_open > 1:
                return True
    if n_open == 0:
        return true & 1 == odd
    v = p.cvars[last]
    m = p.params[q + last]
    return narrow(p, s, v, s.dom[v] & (m if (true & 1) != odd else ~m))
