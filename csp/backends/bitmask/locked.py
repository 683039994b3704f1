"""Intersections of all-differents ("locked candidates").

A = c must use every value; a value A can place only in cells it shares with
B is placed there, so B's other cells lose it (a sudoku row and box, generally
any overlapping pair). The overlaps of A are listed at compile time
(`Problem.lc_*`); `locked` is the one entry point, in eight steps, L1 to L8.

Two switches run through it: whether the places of each value are counted as
domains shrink (`OPT_COUNTS`; then they are read, not gathered, and only the
values whose places changed since the last run can claim anything new), and
whether A has more overlaps than a mask holds (`wide`; then each overlap tests
each value rather than intersecting masks). Each is decided once per run, in
its own helper, so the steps read the same either way.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import lowest, popcount
from csp.backends.bitmask.domains import from_common, narrow, to_common
from csp.backends.bitmask.layout import (
    COUNTS_OFF,
    OPT_COUNTS,
    REASON,
    W_OWNER,
    W_PREV,
    W_REACH,
    jit,
)


@jit(inline="always")
def locked(p, s, c):
    """Narrow the other all-differents that overlap c by the values c can place
    only in the overlap. False if a domain is wiped out.

    The places of each value in A are its kept place mask (with counted places)
    or gathered in one pass over A (the masks transposed); the overlaps that
    hold all of a value's places are then the intersection of the overlaps of
    each place, usually settled at the second. With counted places, B's
    cells that lose a claimed value are read from B's place masks: none when
    the claim was applied on an earlier run (claims last down the tree), where
    a scan of B's cells would find nothing."""
    a, b = p.cstart[c], p.cstart[c + 1]
    k0, k1 = p.lc_start[c], p.lc_start[c + 1]
    # L1. [Any overlap?]
    if k0 == k1:
        return True
    # L2. [Places.] W_OWNER: per value, its places in A; also the values of
    # A's fixed cells (B's singles take those out of B).
    counted = s.st[OPT_COUNTS] != COUNTS_OFF
    if counted:
        values, placed = _places_kept(p, s, c)
    else:
        values, placed = _places_gathered(p, s, c)
    # L3. [Every value bound to be placed?]
    if popcount(values) != b - a:
        return True  # a value may go unused: no value is bound to be placed in A
    # L4. [The values that may claim.]
    claimable = values & ~placed
    if counted:
        # A claim on a value whose places did not change since the last run
        # was found then and applied (every state undone to is a fixpoint),
        # and B's cells have only lost values since.
        claimable &= s.changed[c]
        s.changed[c] = 0
        if claimable == 0:
            return True
    # L5. [Claims per overlap.] W_PREV: per overlap, the values it claims
    # (unless there are too many overlaps for one mask: then L6 tests each).
    wide = k1 - k0 > 63
    if not wide:
        _claims(p, s, c, claimable)
    for k in range(k0, k1):
        # L6. [The claim of overlap k.]
        claim = _claim_of(p, s, k, claimable) if wide else s.work[W_PREV + k - k0]
        if claim == 0:
            continue
        # L7. [B's cells outside the overlap that may take a claimed value.]
        other = p.lc_other[k]
        s.st[REASON] = p.kind.shape[0] + k  # (the explanation needs both A and B)
        if counted:
            cells = _cells_kept(p, s, k, claim)
        else:
            cells = _cells_outside(p, k)
        # L8. [Take the claim out of them.]
        ob = p.cstart[other]
        while cells != 0:
            e = ob + lowest(cells)
            cells &= cells - 1
            v = p.cvars[e]
            m = to_common(p, e, s.dom[v])
            if m & claim:
                if not narrow(p, s, v, from_common(p, e, v, m & ~claim)):
                    return False
    s.st[REASON] = c
    return True


@jit(inline="always")
def _places_kept(p, s, c):
    """L2 with counted places: each value's place mask in c, read from
    `State.places` into W_OWNER. Returns (the values with a place, the values
    of c's fixed cells)."""
    a = p.cstart[c]
    w = s.work
    values = 0
    placed = 0
    base = c << 6
    bits = s.values[c]
    while bits != 0:
        val = lowest(bits)
        bits &= bits - 1
        where = s.places[base + val]
        w[W_OWNER + val] = where
        if where != 0:
            values |= 1 << val
            if where & (where - 1) == 0:
                d = s.dom[p.cvars[a + lowest(where)]]
                if d & (d - 1) == 0:
                    placed |= 1 << val
    return values, placed


@jit(inline="always")
def _places_gathered(p, s, c):
    """L2 without counted places: the masks of c's cells transposed, in one
    pass, into W_OWNER. Returns what `_places_kept` returns."""
    a, b = p.cstart[c], p.cstart[c + 1]
    w = s.work
    values = 0
    placed = 0
    for e in range(a, b):
        m = to_common(p, e, s.dom[p.cvars[e]])
        if m & (m - 1) == 0:
            placed |= m
        new = m & ~values
        while new != 0:
            w[W_OWNER + lowest(new)] = 0
            new &= new - 1
        values |= m
        pos = 1 << (e - a)
        while m != 0:
            w[W_OWNER + lowest(m)] |= pos
            m &= m - 1
    return values, placed


@jit(inline="always")
def _claims(p, s, c, claimable):
    """L5: per overlap of c (bit k - k0), in W_PREV, the claimable values whose
    places it holds all of: the intersection of the overlaps of each place
    (W_REACH: per place of c, the overlaps that hold it)."""
    a, b = p.cstart[c], p.cstart[c + 1]
    k0, k1 = p.lc_start[c], p.lc_start[c + 1]
    w = s.work
    for i in range(b - a):
        w[W_REACH + i] = 0
    for k in range(k0, k1):
        w[W_PREV + k - k0] = 0
        bit = 1 << (k - k0)
        in_a = p.lc_in_a[k]
        while in_a != 0:
            w[W_REACH + lowest(in_a)] |= bit
            in_a &= in_a - 1
    bits = claimable
    while bits != 0:
        val = lowest(bits)
        bits &= bits - 1
        where = w[W_OWNER + val]
        holds = w[W_REACH + lowest(where)]
        where &= where - 1
        while where != 0 and holds != 0:
            holds &= w[W_REACH + lowest(where)]
            where &= where - 1
        while holds != 0:
            w[W_PREV + lowest(holds)] |= 1 << val
            holds &= holds - 1


@jit(inline="always")
def _claim_of(p, s, k, claimable):
    """L6 for a wide all-different: the claimable values whose places all lie
    in overlap k, tested one by one."""
    in_a = p.lc_in_a[k]
    claim = 0
    bits = claimable
    while bits != 0:
        val = lowest(bits)
        bits &= bits - 1
        if s.work[W_OWNER + val] & ~in_a == 0:
            claim |= 1 << val
    return claim


@jit(inline="always")
def _cells_kept(p, s, k, claim):
    """L7 with counted places: B's cells outside overlap k that can take a
    claimed value, from B's place masks, in the order of a scan (none if the
    claim was applied before)."""
    cells = 0
    rest = claim
    base = p.lc_other[k] << 6
    while rest != 0:
        cells |= s.places[base + lowest(rest)]
        rest &= rest - 1
    return cells & ~p.lc_in_b[k]


@jit(inline="always")
def _cells_outside(p, k):
    """L7 without counted places: every cell of B outside overlap k."""
    other = p.lc_other[k]
    size = p.cstart[other + 1] - p.cstart[other]
    return ~p.lc_in_b[k] & ((1 << size) - 1 if size < 64 else -1)
