"""All-different by matching (Regin): a value stays only if some maximum
matching of the constraint's cells to distinct values uses it.

`matching` keeps a maximum matching between calls (in `State.match`) and
prunes from it, by strongly connected components over bit masks: from the
kept places of each value (`_prune_by_places`) when they are counted, else
from the one-step reach of every open cell (`_components`).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest
from csp.backends.bitmask.domains import from_common, image, narrow, to_common
from csp.backends.bitmask.layout import (
    COUNTS_OFF,
    OPT_COUNTS,
    W_DOM,
    W_OPEN,
    W_OWNER,
    W_PREV,
    W_QUEUE,
    W_REACH,
    jit,
)

SIGN_BIT = -(1 << 63)
"""Bit 63 of an int64 mask."""


@jit(inline="always")
def matching(p, s, c):
    """Generalised arc consistency of an all-different (Regin): a value stays
    only if some maximum matching of variables to distinct values uses it.

    Only the entries not yet fixed take part (the singles pass has already
    removed the fixed values from them); they are numbered by their position
    in c, values by their bit in c's common space. With a maximum matching
    (kept between calls as a hint), entry x may take value a owned by y iff y
    can hand a on: y reaches x along "z can take the value matched to w" steps
    (a cycle), or reaches a free value (a path). This finds every naked and
    hidden subset (pairs, triples, ...) at once.
    """
    a0, b0 = p.cstart[c], p.cstart[c + 1]
    w = s.work
    n = 0  # the open entries, listed in w[W_OPEN:]
    values = 0
    for x in range(b0 - a0):
        m = to_common(p, a0 + x, s.dom[p.cvars[a0 + x]])
        if m & (m - 1) != 0:
            w[W_OPEN + n] = x
            w[W_DOM + n] = m
            n += 1
            values |= m
    if n < 3:
        return True  # two open entries: singles and hidden singles say it all
    bits = values
    while bits != 0:
        w[W_OWNER + lowest(bits)] = -1
        bits &= bits - 1
    # Keep the previous matching where it still holds.
    for i in range(n):
        x = w[W_OPEN + i]
        val = s.match[a0 + x]
        if val >= 0 and (w[W_DOM + i] >> val) & 1 and w[W_OWNER + val] < 0:
            w[W_OWNER + val] = i
        else:
            s.match[a0 + x] = -1
    # Augment every unmatched entry by a breadth-first search for a free value.
    for i in range(n):
        if s.match[a0 + w[W_OPEN + i]] >= 0:
            continue
        seen = 0
        head = 0
        tail = 1
        w[W_QUEUE] = i
        done = False
        while head < tail and not done:
            u = w[W_QUEUE + head]
            head += 1
            avail = w[W_DOM + u] & ~seen
            while avail != 0:
                bit = avail & -avail
                avail ^= bit
                seen |= bit
                val = lowest(bit)
                y = w[W_OWNER + val]
                if y < 0:  # a free value: shift the matching along the path
                    cur = u
                    while True:
                        old = s.match[a0 + w[W_OPEN + cur]]
                        s.match[a0 + w[W_OPEN + cur]] = val
                        w[W_OWNER + val] = cur
                        if cur == i:
                            break
                        val = old
                        cur = w[W_PREV + cur]
                    done = True
                    break
                w[W_PREV + y] = u
                w[W_QUEUE + tail] = y
                tail += 1
        if not done:
            return False  # fewer values than entries (Hall's condition fails)
    free_values = values
    for i in range(n):
        free_values &= ~(1 << s.match[a0 + w[W_OPEN + i]])
    if s.st[OPT_COUNTS] != COUNTS_OFF:
        return _prune_by_places(p, s, c, n, values, free_values)
    # reach[i]: the open entries i reaches in one step; the sign bit: a free value.
    for i in range(n):
        m = w[W_DOM + i]
        r = SIGN_BIT if m & free_values else 0
        m &= ~free_values & ~(1 << s.match[a0 + w[W_OPEN + i]])
        w[W_REACH + i] = r | image(w, W_OWNER, m)
    if n < 63:
        closure = W_QUEUE
        _components(w, n)
    else:  # the sign bit would be an entry's: close the graph in place (Warshall)
        closure = W_REACH
        for z in range(n):
            rz = w[W_REACH + z]
            if rz == 0:
                continue
            for i in range(n):
                if (w[W_REACH + i] >> z) & 1:
                    w[W_REACH + i] |= rz
    for i in range(n):
        x = w[W_OPEN + i]
        m = w[W_DOM + i]
        keep = (m & free_values) | (1 << s.match[a0 + x])
        rest = m & ~keep
        while rest != 0:
            bit = rest & -rest
            rest ^= bit
            ry = w[closure + w[W_OWNER + lowest(bit)]]
            if (ry >> i) & 1 or ry < 0:  # a cycle back to i, or a free value
                keep |= bit
        if keep != m:
            e = a0 + x
            v = p.cvars[e]
            if not narrow(p, s, v, from_common(p, e, v, keep)):
                return False
    return True


@jit(inline="always")
def _prune_by_places(p, s, c, n, values, free_values):
    """The pruning of `matching` from its maximum matching, with the steps of
    its graph read from masks rather than built edge by edge: entry x steps to
    the owners of the values it can take (forward, over values: value a steps
    to the values its owner can take), and is stepped to from the cells that
    can take its value (backward, over positions: the kept place mask of that
    value). Each strongly connected component is one forward and one backward
    search; an entry keeps the values owned in its component, those owned by
    an entry that reaches a free value, and the free values. The same pruning
    (it is unique), in about O(n) steps where the edges are O(n * values)."""
    a0 = p.cstart[c]
    w = s.work
    base = c << 6
    # W_REACH, per position: its index among the open entries.
    open_pos = 0
    for i in range(n):
        x = w[W_OPEN + i]
        open_pos |= 1 << x
        w[W_REACH + x] = i
    # The entries that reach a free value: those that can take one, and back.
    reach_free = 0
    bits = free_values
    while bits != 0:
        reach_free |= s.places[base + lowest(bits)]
        bits &= bits - 1
    reach_free = _stepped_back(s, a0, base, reach_free & open_pos, open_pos)
    allowed = free_values | _matched(s, a0, reach_free)
    remaining = values & ~free_values  # the matched values not yet in a component
    while remaining != 0:
        r = remaining & -remaining
        forward = r
        todo = r
        while todo != 0:
            val = lowest(todo)
            todo &= todo - 1
            new = w[W_DOM + w[W_OWNER + val]] & remaining & ~forward
            forward |= new
            todo |= new
        within = 0  # the forward set, as positions
        while forward != 0:
            within |= 1 << w[W_OPEN + w[W_OWNER + lowest(forward)]]
            forward &= forward - 1
        backward = _stepped_back(s, a0, base, 1 << w[W_OPEN + w[W_OWNER + lowest(r)]], within)
        component = _matched(s, a0, backward)  # its values
        remaining &= ~component
        bits = backward
        while bits != 0:
            w[W_QUEUE + w[W_REACH + lowest(bits)]] = component
            bits &= bits - 1
    for i in range(n):
        m = w[W_DOM + i]
        keep = m & (allowed | w[W_QUEUE + i])
        if keep != m:
            e = a0 + w[W_OPEN + i]
            v = p.cvars[e]
            if not narrow(p, s, v, from_common(p, e, v, keep)):
                return False
    return True


@jit(inline="always")
def _stepped_back(s, a0, base, start, within):
    """The positions (of all-different c: its entries from a0, its places from
    base) that reach the set `start` of positions, staying `within` a set: a
    cell steps to x if it can take x's matched value."""
    seen = start
    todo = start
    while todo != 0:
        x = lowest(todo)
        todo &= todo - 1
        new = s.places[base + s.match[a0 + x]] & within & ~seen
        seen |= new
        todo |= new
    return seen


@jit(inline="always")
def _matched(s, a0, positions):
    """The values matched to a set of positions (from entry a0 on)."""
    return image(s.match, a0, positions)


@jit(inline="always")
def _reached(w, block, start, within):
    """The entries reached from the set `start` along the steps w[block + u]
    (u -> the set of its successors), staying `within` a set."""
    seen = start
    todo = start
    while todo != 0:
        u = lowest(todo)
        todo &= todo - 1
        new = w[block + u] & within & ~seen
        seen |= new
        todo |= new
    return seen


@jit
def _components(w, n):
    """From the one-step reach of the n < 63 open entries (W_REACH; sign bit:
    a free value), per entry in W_QUEUE: its strongly connected component (the
    entries it reaches and that reach it), with the sign bit if it reaches a
    free value. One forward and one backward search per component, over bit
    masks: for an edge i -> y, y reaches i iff i is in y's component, so this
    answers what the transitive closure did, in about O(n) steps, not n * n."""
    for i in range(n):
        w[W_PREV + i] = 0
    reach_free = 0
    for i in range(n):  # predecessors
        r = w[W_REACH + i]
        if r < 0:
            reach_free |= 1 << i
        r &= ~SIGN_BIT
        while r != 0:
            w[W_PREV + lowest(r)] |= 1 << i
            r &= r - 1
    reach_free = _reached(w, W_PREV, reach_free, -1)  # all that reach a free value
    remaining = (1 << n) - 1
    while remaining != 0:
        r = remaining & -remaining
        forward = _reached(w, W_REACH, r, remaining)
        backward = _reached(w, W_PREV, r, forward)
        remaining &= ~backward
        members = backward
        while members != 0:
            u = lowest(members)
            w[W_QUEUE + u] = backward | (SIGN_BIT if (reach_free >> u) & 1 else 0)
            members &= members - 1
