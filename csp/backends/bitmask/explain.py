"""Explanations: why a narrowing on the trail (or a conflict) happened, as
literals that were true before it.

A *literal* is x = k or x != k (k: a bit of x's mask). A narrowing makes
true x != k for each value k it removes, and x = b if it leaves x one value.
Its *explanation* is a set of literals, true before it, that imply it under
its reason (the constraint that made it, `State.trail_reason`):

- all-different: a Hall set, found by matching. x != v holds because with
  x = v the cells H of c have only |H| - 1 values left for them (N(H)): the
  literals y != w, for y in H and w outside N(H) and v. Naked and hidden
  singles, every subset of `matching`, and the pigeonhole test all explain
  so; a conflict of c is a Hall set of the current domains. A cell fixed
  by a hidden single (where c has no more values than cells) is explained
  at once, by the other cells' y != v (`hidden_single`);
- the intersection of two all-differents (`locked`: A claims v in B): the
  cells of A outside B do not take v, and A has no more values than cells;
- a linear sum, by bounds: the values below each other variable's least
  and above its greatest;
- a clause: the negations of its other literals;
- any other constraint (tables, subset sums, nogoods, x != y, and every
  kind added later), *generically*: the literals of the variables of its
  scope at that time (y = b for a fixed y, y != w for each value it lost).
  That is sound for any propagator that reads only its scope's domains,
  which `propagate` requires of every kind.

The literals go into the conflict set of the analysis (`add_neg`,
`add_pos`): those of the current level are counted (they will be resolved),
those of earlier levels go to the learned clause, those of level 0 are
dropped (true for good).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import highest, lowest, popcount
from csp.backends.bitmask.domains import from_common, to_common
from csp.backends.bitmask.layout import (
    ACT_INC,
    ALLDIFF,
    AN_CHECK,
    AN_COUNTER,
    AN_FAIL,
    AN_LEVEL,
    AN_OUT,
    AN_TOUCHED,
    AN_WORK,
    CONFLICT_VAR,
    CONFLICTS,
    L_ACTIVITY,
    L_AVAR,
    L_CL_LEN,
    L_CL_LITS,
    L_CL_START,
    L_CL_USED,
    L_EWORK,
    L_LBUF,
    L_SEEN_NEG,
    L_SEEN_POS,
    L_TOUCHED,
    L_TRAIL_LEVEL,
    L_TRAIL_NEW,
    L_TRAIL_PREV,
    L_TRAIL_REASON,
    L_VLAST,
    LINEAR,
    REASON,
    TRAIL,
    jit,
    part,
)


@jit(inline="always")
def dom_at(s, y, t):
    """y's mask just before trail position t."""
    trail_prev = part(s, L_TRAIL_PREV)
    vlast = part(s, L_VLAST)
    d = s.dom[y]
    e = vlast[y]
    while e >= t:
        d = s.trail_mask[e]
        e = trail_prev[e]
    return d


@jit(inline="always")
def _touch(s, an, y):
    activity = part(s, L_ACTIVITY)
    seen_neg = part(s, L_SEEN_NEG)
    seen_pos = part(s, L_SEEN_POS)
    touched = part(s, L_TOUCHED)
    if seen_neg[y] == 0 and seen_pos[y] == 0:
        touched[an[AN_TOUCHED]] = y
        an[AN_TOUCHED] += 1
        activity[y] += s.st[ACT_INC]


@jit(inline="always")
def _push(p, s, an, lit, level):
    """Put literal `lit` (of the learned clause) with its level in lbuf."""
    lbuf = part(s, L_LBUF)
    half = lbuf.shape[0] >> 1
    i = an[AN_OUT]
    if i < half:
        lbuf[i] = lit
        lbuf[half + i] = level
        an[AN_OUT] = i + 1


@jit(inline="always")
def add_neg(p, s, an, x, mask):
    """Add the literals x != k (bits of `mask`, each true now) to the conflict set."""
    seen_neg = part(s, L_SEEN_NEG)
    trail_level = part(s, L_TRAIL_LEVEL)
    seen_pos = part(s, L_SEEN_POS)
    trail_new = part(s, L_TRAIL_NEW)
    trail_prev = part(s, L_TRAIL_PREV)
    vlast = part(s, L_VLAST)
    # (A value out of x's initial mask is out from the start: a literal of
    # level 0, never in a clause. Those of the givens that compiling took
    # from their all-differents' other cells are such values.)
    mask &= p.dom0[x] & ~seen_neg[x]
    if mask == 0:
        return
    if an[AN_CHECK] != 0:
        _check_neg(p, s, an, x, mask)
        return
    e = vlast[x]
    level = an[AN_LEVEL]
    d = s.dom[x]
    if e >= 0 and d & (d - 1) == 0 and d & mask == 0 and 0 < trail_level[e] < level:
        # x was fixed (x = b) before this level: that one literal implies all
        # of these, and is one literal of the clause where they would be as
        # many as x lost values, each at its own level. (A Hall set's fixed
        # cells and naked singles otherwise make clauses as long as the
        # grid's side, with a level per literal.)
        if popcount(mask) > 1 or seen_pos[x] & d:
            add_pos(p, s, an, x, d)
            return
    base = p.voff[x]
    while mask != 0 and e >= 0:
        an[AN_WORK] += 1
        r = s.trail_mask[e] & ~trail_new[e] & mask
        if r != 0:
            mask &= ~r
            lev = trail_level[e]
            if lev > 0:
                _touch(s, an, x)  # (before it is marked: once per variable)
                seen_neg[x] |= r
                if lev == level:
                    an[AN_COUNTER] += popcount(r)
                else:
                    while r != 0:  # in the clause: x = k
                        _push(p, s, an, (base + lowest(r)) << 1, lev)
                        r &= r - 1
        e = trail_prev[e]


@jit(inline="always")
def add_pos(p, s, an, x, bit):
    """Add the literal x = k (`bit`, true now) to the conflict set."""
    seen_pos = part(s, L_SEEN_POS)
    trail_level = part(s, L_TRAIL_LEVEL)
    vlast = part(s, L_VLAST)
    if seen_pos[x] & bit:
        return
    e = vlast[x]
    if e < 0:
        return
    lev = trail_level[e]
    if lev == 0:
        return
    if an[AN_CHECK] != 0:  # implied if every other value of x is out (in the set)
        if (part(s, L_SEEN_NEG)[x] | bit) & p.dom0[x] != p.dom0[x]:
            an[AN_FAIL] = 1
        return
    _touch(s, an, x)
    seen_pos[x] |= bit
    if lev == an[AN_LEVEL]:
        an[AN_COUNTER] += 1
    else:  # in the clause: x != k
        _push(p, s, an, ((p.voff[x] + lowest(bit)) << 1) | 1, lev)


@jit
def _check_neg(p, s, an, x, mask):
    """Minimisation (`minimise`): are the literals x != k (bits of `mask`,
    not in the conflict set themselves) implied by it? Yes if removed at
    level 0, or if the set holds x = b, made true before the entry being
    checked (so that no literal is dropped on the word of a later one).
    AN_FAIL is set if not."""
    seen_pos = part(s, L_SEEN_POS)
    trail_level = part(s, L_TRAIL_LEVEL)
    trail_new = part(s, L_TRAIL_NEW)
    trail_prev = part(s, L_TRAIL_PREV)
    e = part(s, L_VLAST)[x]
    b = seen_pos[x]
    if b != 0 and b & mask == 0 and s.dom[x] == b and 0 <= e < an[AN_CHECK] - 1:
        return
    while mask != 0 and e >= 0:
        an[AN_WORK] += 1
        r = s.trail_mask[e] & ~trail_new[e] & mask
        if r != 0:
            if trail_level[e] > 0:
                an[AN_FAIL] = 1
                return
            mask &= ~r
        e = trail_prev[e]
    if mask != 0:
        an[AN_FAIL] = 1


@jit
def add_var(p, s, an, y, d):
    """Add the literals that say y's mask is (within) d: y = b if d is one value."""
    if d & (d - 1) == 0:
        add_pos(p, s, an, y, d)
    else:
        add_neg(p, s, an, y, p.full[y] & ~d)


@jit
def generic(p, s, an, c, t):
    """The literals of c's scope just before trail position t."""
    for e in range(p.cstart[c], p.cstart[c + 1]):
        y = p.cvars[e]
        add_var(p, s, an, y, dom_at(s, y, t))


@jit
def bounds(p, s, an, c, t, skip):
    """The bounds of c's variables (but `skip`) just before t: the values each
    lost below its least and above its greatest."""
    for e in range(p.cstart[c], p.cstart[c + 1]):
        y = p.cvars[e]
        if y == skip:
            continue
        d = dom_at(s, y, t)
        if d & (d - 1) == 0:
            add_pos(p, s, an, y, d)
            continue
        below = (1 << lowest(d)) - 1
        hi = highest(d)
        above = 0 if hi >= 63 else -(1 << (hi + 1))
        add_neg(p, s, an, y, p.full[y] & (below | above))


@jit
def hall(p, s, an, c, t, skip, valbit):
    """Explain by a Hall set of all-different c just before t: with the cell
    of variable `skip` taking common value `valbit` (or, for skip < 0, as
    they are), the other cells cannot all get distinct values. False if they
    can (then the caller explains otherwise)."""
    ework = part(s, L_EWORK)
    a, b = p.cstart[c], p.cstart[c + 1]
    k = b - a
    if k > 64:
        return False
    w = ework
    # w[0:64]: each cell's common mask; w[64:128]: the cell matched to each
    # value, or -1; w[128:192]: each cell's value, or -1; w[256]: the values
    # of the Hall set found (with valbit); w[384:448]: per value, a cell fixed
    # to it.
    fixed = 0  # the cells with one value just before t
    for i in range(k):
        e = a + i
        y = p.cvars[e]
        m = 0 if y == skip else to_common(p, e, dom_at(s, y, t))
        if m != 0 and m & (m - 1) == 0:
            fixed |= 1 << i
        w[i] = m & ~valbit
        w[128 + i] = -1
    for v in range(64):
        w[64 + v] = -1
    # The cells are matched fewest values first: the first one left unmatched
    # then closes a Hall set of the smallest cells, not whichever set the
    # order of declaration reaches first, and a smaller set is a shorter
    # explanation (a cell fixed to valbit, alone, is one literal).
    unmatched = -1
    size = 0
    while unmatched < 0 and size <= 64:
        larger = 65
        for i in range(k):
            if p.cvars[a + i] == skip:
                continue
            n = popcount(w[i])
            if n > size:
                larger = min(larger, n)
                continue
            if n < size:
                continue
            an[AN_WORK] += k  # (about what an augmenting path costs, for the slice's clock)
            if not _augment(w, i):
                unmatched = i
                break
        size = larger
    if unmatched < 0:
        return False
    # The cells reachable from the unmatched one by alternating paths, and
    # their values (all matched): a Hall set with one value too few.
    cells = 1 << unmatched
    values = 0
    frontier = cells
    while frontier != 0:
        i = lowest(frontier)
        frontier &= frontier - 1
        new = w[i] & ~values
        values |= new
        while new != 0:
            v = lowest(new)
            new &= new - 1
            j = w[64 + v]
            if j >= 0 and (cells >> j) & 1 == 0:
                cells |= 1 << j
                frontier |= 1 << j
    keep = values | valbit
    w[256] = keep  # (for the caller: the Hall set's values, which it explains all of)
    # A value that a cell z of c outside the set had alone (z = u) is out of
    # every cell of the set for that one reason: the literal z = u stands for
    # all their y != u, where the clause would otherwise get one literal per
    # cell, each of its own level (as a lazy clause generator's Boolean
    # encoding of all-different would say it). w[384 + u]: z.
    # Only a cell fixed at an earlier level: then z = u is one literal of the
    # clause. (One fixed at this level would be resolved, and its own
    # explanation made the clauses longer: measured, stop 34.)
    placed = 0
    others = fixed & ~cells
    trail_level = part(s, L_TRAIL_LEVEL)
    vlast = part(s, L_VLAST)
    while others != 0:
        i = lowest(others)
        others &= others - 1
        e = vlast[p.cvars[a + i]]  # (-1: fixed in the model, level 0)
        if w[i] != 0 and (e < 0 or trail_level[e] < an[AN_LEVEL]):
            placed |= w[i]  # (w[i] is 0 for a cell fixed to valbit: x's own value)
            w[384 + lowest(w[i])] = i
    while cells != 0:
        i = lowest(cells)
        cells &= cells - 1
        e = a + i
        y = p.cvars[e]
        lost = p.full[y] & ~from_common(p, e, y, keep)
        via = to_common(p, e, lost) & placed
        lost &= ~from_common(p, e, y, via)
        while via != 0:
            u = lowest(via)
            via &= via - 1
            ez = a + w[384 + u]
            z = p.cvars[ez]
            add_pos(p, s, an, z, from_common(p, ez, z, 1 << u))
        add_neg(p, s, an, y, lost)
    return True


@jit
def hidden_single(p, s, an, c, t, skip, valbit):
    """Explain at once every value the cell of `skip` lost when it was fixed
    to common value `valbit`, if that was a hidden single: just before t, no
    other cell of c had the value, and c's cells have (from the start) no
    more values than cells, so each value is used. The explanation is then
    the other cells' y != value, where a Hall set per lost value would take
    a matching each. False if it was not one (the caller explains
    otherwise)."""
    a, b = p.cstart[c], p.cstart[c + 1]
    union = 0
    for e in range(a, b):
        y = p.cvars[e]
        union |= to_common(p, e, p.dom0[y])
        if y != skip and to_common(p, e, dom_at(s, y, t)) & valbit:
            return False
    an[AN_WORK] += b - a
    if popcount(union) != b - a:
        return False
    for e in range(a, b):
        y = p.cvars[e]
        if y != skip:
            add_neg(p, s, an, y, from_common(p, e, y, valbit))
    return True


@jit
def _augment(w, start):
    """Match cell `start` by an augmenting path (breadth first over values)."""
    # w[192:256]: per value, the cell it was reached from.
    reached = 0
    queue = 320  # w[320:384]: the cells to expand
    w[queue] = start
    head, tail = 0, 1
    while head < tail:
        i = w[queue + head]
        head += 1
        new = w[i] & ~reached
        reached |= new
        while new != 0:
            v = lowest(new)
            new &= new - 1
            w[192 + v] = i
            j = w[64 + v]
            if j < 0:  # free value: flip the path back to start
                while True:
                    i = w[192 + v]
                    prev = w[128 + i]
                    w[64 + v] = i
                    w[128 + i] = v
                    if i == start:
                        return True
                    v = prev
            if tail < 64:
                w[queue + tail] = j
                tail += 1
    return False


@jit
def owner_of_overlap(p, k):
    """The all-different A whose overlaps (lc_start) hold overlap k."""
    lo, hi = 0, p.lc_start.shape[0] - 1
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if p.lc_start[mid] <= k:
            lo = mid
        else:
            hi = mid
    return lo


@jit
def locked_reason(p, s, an, k, t, claimed):
    """Why the common values `claimed` left B's cells (overlap k of A): in A,
    their places are all in B, and A has no more values than cells."""
    c = owner_of_overlap(p, k)
    a, b = p.cstart[c], p.cstart[c + 1]
    union = 0
    for e in range(a, b):
        union |= to_common(p, e, dom_at(s, p.cvars[e], t))
    inside = p.lc_in_a[k]
    for e in range(a, b):
        y = p.cvars[e]
        out = p.full[y] & ~from_common(p, e, y, union)
        if (inside >> (e - a)) & 1 == 0:
            out |= from_common(p, e, y, claimed)
        add_neg(p, s, an, y, out)


@jit
def entry(p, s, an, t, sn, sp):
    """Explain the literals of trail entry t in the conflict set: x != k for
    the bits of sn, and x = b if sp."""
    trail_new = part(s, L_TRAIL_NEW)
    trail_reason = part(s, L_TRAIL_REASON)
    x = s.trail_var[t]
    r = trail_reason[t]
    old = s.trail_mask[t]
    new = trail_new[t]
    n_cons = p.kind.shape[0]
    if sp != 0:  # x = b: every value removed here, and x's earlier losses
        sn = old & ~new
        add_neg(p, s, an, x, p.full[x] & ~old)
    if r <= -2:
        clause_reason(p, s, an, -2 - r, x, old, new)
    elif r >= n_cons:
        k = r - n_cons
        other = p.lc_other[k]
        claimed = 0
        for e in range(p.cstart[other], p.cstart[other + 1]):
            if p.cvars[e] == x:
                claimed = to_common(p, e, sn)
        locked_reason(p, s, an, k, t, claimed)
    elif r >= 0 and p.kind[r] == ALLDIFF:
        for e in range(p.cstart[r], p.cstart[r + 1]):
            if p.cvars[e] != x:
                continue
            if (sn & (sn - 1) != 0 and new != 0 and new & (new - 1) == 0
                    and hidden_single(p, s, an, r, t, x, to_common(p, e, new))):
                return
            m = sn
            while m != 0:
                bit = m & -m
                if not hall(p, s, an, r, t, x, to_common(p, e, bit)):
                    generic(p, s, an, r, t)
                    return
                # The Hall set takes all its values, not only this one: the
                # same literals explain every other value of it that x lost
                # (a matching removes many at once; one Hall set each, not
                # one per value).
                m &= ~(bit | from_common(p, e, x, part(s, L_EWORK)[256]))
    elif r >= 0 and p.kind[r] == LINEAR:
        bounds(p, s, an, r, t, x)
    elif r >= 0:
        generic(p, s, an, r, t)


@jit
def clause_reason(p, s, an, i, x, old, new):
    """A clause's other literals, negated (the one it made true here is skipped)."""
    cl_len = part(s, L_CL_LEN)
    cl_start = part(s, L_CL_START)
    avar = part(s, L_AVAR)
    cl_lits = part(s, L_CL_LITS)
    cl_used = part(s, L_CL_USED)
    cl_used[i] = s.st[CONFLICTS]
    an[AN_WORK] += cl_len[i]
    removed = old & ~new
    fixed = new if new & (new - 1) == 0 else 0
    for q in range(cl_start[i], cl_start[i] + cl_len[i]):
        lit = cl_lits[q]
        atom = lit >> 1
        y = avar[atom]
        bit = 1 << (atom - p.voff[y])
        if lit & 1 == 0:  # y = k, false: y != k
            if y == x and bit == fixed:
                continue
            add_neg(p, s, an, y, bit)
        else:  # y != k, false: y = k
            if y == x and bit & removed:
                continue
            add_pos(p, s, an, y, bit)


@jit
def conflict(p, s, an):
    """Explain the failure of the last propagator run (st[REASON]; the
    variable it wiped out, if any, st[CONFLICT_VAR])."""
    r = s.st[REASON]
    t = s.st[TRAIL]  # (the current domains)
    x = s.st[CONFLICT_VAR]
    n_cons = p.kind.shape[0]
    if r <= -2:
        clause_reason(p, s, an, -2 - r, -1, 0, 0)
    elif r >= n_cons and x < 0:  # (not expected: locked fails only by a wipe-out)
        k = r - n_cons
        generic(p, s, an, owner_of_overlap(p, k), t)
        generic(p, s, an, p.lc_other[k], t)
    elif r >= n_cons:
        k = r - n_cons
        other = p.lc_other[k]
        d = s.dom[x]
        claimed = 0
        for e in range(p.cstart[other], p.cstart[other + 1]):
            if p.cvars[e] == x:
                claimed = to_common(p, e, d)
        add_neg(p, s, an, x, p.full[x] & ~d)
        locked_reason(p, s, an, k, t, claimed)
    elif r >= 0 and p.kind[r] == ALLDIFF:
        if not hall(p, s, an, r, t, -1, 0):
            generic(p, s, an, r, t)
    elif r >= 0 and p.kind[r] == LINEAR:
        bounds(p, s, an, r, t, -1)
        if x >= 0:
            add_var(p, s, an, x, s.dom[x])
    elif r >= 0:
        generic(p, s, an, r, t)
