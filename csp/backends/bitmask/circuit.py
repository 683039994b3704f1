"""Circuit: the successors s_0 .. s_{n-1} (s_i is the node after node i, 0-based)
form one circuit through every node. `compile_globals` also posts their
all-different (with its matching) and removes each node from its own domain;
this propagator adds the no-subtour rule.

    entries: s_0 .. s_{n-1}     params: none

The fixed successors form chains. A chain from node `first` to node `last`
(s_last still open) that holds fewer than n nodes must not close: `first` is
removed from s_last's domain; one that holds all n must close: s_last is
`first`. A cycle of fixed successors shorter than n fails. Run to a
fixpoint, as each narrowing may fix a successor and lengthen a chain
(Caseau and Laburthe's nocycle rule, as in most CP solvers).

Scratch: per node, 1 if some fixed successor points to it, then 1 if a
chain has passed it.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import bit_of_value, narrow
from csp.backends.bitmask.layout import jit


@jit(inline="always")
def _next(p, s, a, node):
    """The fixed successor of `node`, or -1 while it is open."""
    v = p.cvars[a + node]
    d = s.dom[v]
    if d & (d - 1) != 0:
        return -1
    return p.vals[p.voff[v] + lowest(d)]


@jit
def circuit(p, s, c):
    a, b = p.cstart[c], p.cstart[c + 1]
    n = b - a
    entered = s.scratch  # [0, n): entered by a fixed successor
    seen = s.scratch[n:]  # [n, 2n): on a chain already followed
    while True:
        for node in range(n):
            entered[node] = 0
            seen[node] = 0
        for node in range(n):
            nxt = _next(p, s, a, node)
            if nxt >= 0:
                entered[nxt] = 1
        changed = False
        for first in range(n):
            if entered[first] != 0:
                continue
            last = first
            length = 1
            seen[first] = 1
            nxt = _next(p, s, a, last)
            while nxt >= 0 and length <= n:
                last = nxt
                seen[last] = 1
                length += 1
                nxt = _next(p, s, a, last)
            if length > n:
                return False  # a node entered twice: not a circuit
            v = p.cvars[a + last]
            d = s.dom[v]
            bit = bit_of_value(p, v, first)
            if length < n:
                keep = d & ~(1 << bit) if bit >= 0 else d
            else:
                keep = d & (1 << bit) if bit >= 0 else 0
            if keep != d:
                if not narrow(p, s, v, keep):
                    return False
                changed = True
        for node in range(n):  # every node entered, off the chains: on fixed cycles
            if seen[node] == 0:
                length = 1
                nxt = _next(p, s, a, node)
                while nxt != node and nxt >= 0 and length <= n:
                    length += 1
                    nxt = _next(p, s, a, nxt)
                if nxt == node and length < n:
                    return False
                break  # one cycle of n nodes is the circuit itself
        if not changed:
            return True
