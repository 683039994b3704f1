"""Connected: the nodes whose boolean takes 1 form a connected subgraph.

    entries: b_0 .. b_{n-1}
    params:  n, m_0 .. m_{n-1} (the bit of value 1 in b_i's mask, or 0),
             start_0 .. start_n, then the neighbours of node i at
             params[start_i:start_{i+1}] (each edge listed at both ends)

A node is *in* when its boolean is fixed to 1, *out* when it cannot be 1,
*open* otherwise. From an in node, a depth-first search over the nodes that
are not out finds its component:

- an in node outside it fails the constraint;
- an open node outside it can never join the in nodes: it is out;
- an open node whose removal would cut an in node from the search's root
  (an articulation point of the component, found by Tarjan's low links,
  whose child's subtree holds an in node) is in.

None of these changes which nodes are out or the component: one pass is a
fixpoint. Scratch, n each: discovery order, low link, parent, next
neighbour to try, in nodes below, the search's stack, and the nodes found
to be in (narrowed after the search, at one `narrow`).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.domains import narrow
from csp.backends.bitmask.layout import jit


@jit
def connected(p, s, c):
    a = p.cstart[c]
    q = p.pstart[c]
    n = p.params[q]
    one = q + 1  # the masks of value 1
    start = one + n  # the neighbour lists (CSR)
    w = s.scratch
    disc, low, parent, at, below, stack, cut = 0, n, 2 * n, 3 * n, 4 * n, 5 * n, 6 * n
    root = -1
    for i in range(n):
        d = s.dom[p.cvars[a + i]]
        m = p.params[one + i]
        w[disc + i] = -1
        w[cut + i] = 0
        if root < 0 and d & ~m == 0:
            root = i
    if root < 0:
        return True  # no node is in yet: any may stay out
    time = 0
    w[disc + root] = 0
    w[low + root] = 0
    w[parent + root] = -1
    w[at + root] = p.params[start + root]
    w[below + root] = 1
    w[stack] = root
    depth = 1
    while depth > 0:
        u = w[stack + depth - 1]
        if w[at + u] < p.params[start + u + 1]:
            x = p.params[w[at + u]]
            w[at + u] += 1
            if s.dom[p.cvars[a + x]] & p.params[one + x] == 0:
                continue  # out
            if w[disc + x] < 0:
                time += 1
                w[disc + x] = time
                w[low + x] = time
                w[parent + x] = u
                w[at + x] = p.params[start + x]
                dx = s.dom[p.cvars[a + x]]
                w[below + x] = 1 if dx & ~p.params[one + x] == 0 else 0
                w[stack + depth] = x
                depth += 1
            elif x != w[parent + u]:
                w[low + u] = min(w[low + u], w[disc + x])
            continue
        depth -= 1
        up = w[parent + u]
        if up < 0:
            continue
        w[low + up] = min(w[low + up], w[low + u])
        w[below + up] += w[below + u]
        if up != root and w[low + u] >= w[disc + up] and w[below + u] > 0:
            w[cut + up] = 1
    for i in range(n):
        v = p.cvars[a + i]
        d = s.dom[v]
        m = p.params[one + i]
        if w[disc + i] < 0:
            if d & ~m == 0:
                return False  # an in node the root cannot reach
            d &= ~m
        elif w[cut + i] != 0:
            d &= m
        if not narrow(p, s, v, d):
            return False
    return True
