"""Regular: the word x_0 .. x_{n-1} is accepted by a deterministic automaton
(`compile_globals` determinizes an NFA first, `csp.decompose.deterministic`).

    entries: x_0 .. x_{n-1}
    params:  Q (states), S (symbols), start, off_0 .. off_{n-1},
             accepting (Q flags), delta (Q * S: the next state, or -1),
             then at params[off_i] x_i's map: for each bit of x_i, its
             symbol (or -1: a value no transition reads)

The forward-backward filtering of the layered automaton (Pesant, "A regular
language membership constraint for finite sequences of variables", CP
2004): layer i holds the states reachable from the start through the
domains of x_0 .. x_{i-1}; going back from the accepting states of layer n,
a state is kept if some value of x_i leads from it to a kept state of layer
i + 1, and x_i keeps exactly the values of such transitions. One pass makes
every value of every x_i part of an accepted word (arc consistency).

The layers are flags in `State.scratch`, (n + 1) * Q of them: 1 reachable,
2 reachable and co-reachable.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit
def regular(p, s, c):
    a, b = p.cstart[c], p.cstart[c + 1]
    n = b - a
    q = p.pstart[c]
    states, symbols, start = p.params[q], p.params[q + 1], p.params[q + 2]
    accepting = q + 3 + n
    delta = accepting + states
    layer = s.scratch
    for i in range((n + 1) * states):
        layer[i] = 0
    layer[start] = 1
    for i in range(n):  # forward: reachable
        d = s.dom[p.cvars[a + i]]
        to_symbol = p.params[q + 3 + i]
        here = i * states
        reached = False
        for state in range(states):
            if layer[here + state] == 0:
                continue
            m = d
            while m != 0:
                symbol = p.params[to_symbol + lowest(m)]
                m &= m - 1
                if symbol >= 0:
                    nxt = p.params[delta + state * symbols + symbol]
                    if nxt >= 0:
                        layer[here + states + nxt] = 1
                        reached = True
        if not reached:
            return False
    last = n * states
    accepted = False
    for state in range(states):
        if layer[last + state] != 0 and p.params[accepting + state] != 0:
            layer[last + state] = 2
            accepted = True
    if not accepted:
        return False
    for i in range(n - 1, -1, -1):  # backward: co-reachable, and the supported values
        v = p.cvars[a + i]
        d = s.dom[v]
        to_symbol = p.params[q + 3 + i]
        here = i * states
        support = 0
        for state in range(states):
            if layer[here + state] == 0:
                continue
            m = d
            while m != 0:
                k = lowest(m)
                m &= m - 1
                symbol = p.params[to_symbol + k]
                if symbol >= 0:
                    nxt = p.params[delta + state * symbols + symbol]
                    if nxt >= 0 and layer[here + states + nxt] == 2:
                        layer[here + state] = 2
                        support |= 1 << k
        if not narrow(p, s, v, d & support):
            return False
    return True
