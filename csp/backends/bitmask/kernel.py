"""Propagation search over bitmask domains, as one resumable numba kernel.

Every variable's domain is an int64 mask (see `compile`). A decision sets the
unassigned variable with the fewest candidates to its smallest remaining value;
the constraints touched are then propagated to a fixpoint through a queue of
constraints. Every narrowing pushes (variable, old mask) on a trail, so that
backtracking is popping the trail to the mark of the level.

The reasoning, from cheap to strong: naked and hidden singles, then full
all-different consistency by matching (every naked and hidden subset), the
intersections of overlapping all-differents (a sudoku row and box), subset
tables for sums, supports for tables; failed-value probing at the root; ties
of the fewest-candidates rule go to the variable whose constraints failed most
often so far (dom/wdeg). The strong reasoning of an all-different (matching,
intersections) waits in a second queue until the singles of every constraint
have settled, so that it runs once on settled domains (`defer`); the places
of each value in each all-different are kept (a mask of its cells) as domains
shrink, so that a narrowing wakes an all-different's singles only when it
fixes a cell or leaves a value one place there, and matching and
intersections read them rather than rebuild them (`counts`). Together
they count the 25x25 and 36x36 sudokus of the shared data in seconds, where
singles alone did not finish in minutes.

All search state lives in the arrays of `State` (scalars in `state.st`), so the
kernel can return after any solution (FOUND) or node budget (PAUSED) and be
called again to resume. One kernel serves every model: the arrays change, the
types do not, so numba's on-disk cache is always hit.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.bits import highest, lowest, popcount

_NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}
"""The kernels allocate nothing, so they are compiled without numba's reference
counting: with it, every call (and every inlined one) of a function that takes
the `Problem` and `State` tuples increfs and decrefs each of their 41 arrays
atomically, a third of the search time on the large sudokus."""
_jit: Any = functools.partial(njit, cache=True, **_NO_REFCOUNTS)

Problem = namedtuple(
    "Problem",
    [
        "vals",  # every variable's sorted values, concatenated
        "voff",  # vals[voff[v]:voff[v+1]] are variable v's values
        "full",  # the mask of all of v's values
        "dom0",  # the initial masks (unary constraints applied)
        "kind",  # per constraint: ALLDIFF, LINEAR, ...
        "cstart",  # the entries of constraint c: cstart[c]..cstart[c+1]
        "cvars",  # per entry: the variable
        "cshift",  # per entry: shift into the common value space, or -1: use tmap
        "ctoff",  # per entry: offset of its bit map in tmap
        "tmap",  # local bit -> common bit, for entries that need it
        "pstart",  # the parameters of c: params[pstart[c]:pstart[c+1]]
        "params",
        "vcstart",  # variable -> constraints (CSR)
        "vcons",
        "vcnog",  # vcons[vcnog[v]:vcstart[v + 1]]: v's NOGOOD constraints (listed last)
        "ventry",  # per vcons position: the entry of v in that constraint
        "sub_first",  # subset table t: its row pointers start at sub_rowptr[sub_first[t]]
        "sub_rowptr",  # rows of subsets of size r: sub_rowptr[first + r]..[first + r + 1]
        "sub_sum",  # per row: the sum of the subset's values (sorted within a size)
        "sub_mask",  # per row: the subset, in the common value space
        "max_arity",  # [the largest scope]
        "alldiffs",  # the ALLDIFF constraints with at most 64 variables
        "lc_start",  # per constraint: its overlaps with other all-differents (CSR)
        "lc_other",  # per overlap of A: the other all-different B (same value space)
        "lc_in_a",  # per overlap: A's positions shared with B, as a bit mask
        "lc_in_b",  # per overlap: B's positions shared with A, as a bit mask
    ],
)

State = namedtuple(
    "State",
    [
        "dom",  # the current masks
        "trail_var",  # (variable, old mask) per narrowing
        "trail_mask",
        "queue",  # constraints to propagate (circular)
        "inq",  # 1 if the constraint is queued or running
        "var_at",  # per level: the variable branched on, or -(c + 1) for a value of c
        "vbit",  # per level, for a value of c: that value, in c's common space
        "rem",  # per level: the values (or places of the value) not tried yet
        "mark",  # per level: the trail length before the decision
        "scratch",  # per scope position: supports of a table
        "weight",  # per constraint: 1 + the number of times it failed (dom/wdeg)
        "vweight",  # per variable: its degree + the failures of its constraints (wdeg)
        "first",  # per level: the alternatives it started with (rem before any was tried)
        "match",  # per entry of an all-different: its value in a maximum matching, or -1
        "work",  # all-different scratch: 6 blocks of 64 (see _matching)
        "strong",  # all-differents whose strong reasoning is due (circular; see OPT_DEFER)
        "instrong",  # 1 if the all-different is in `strong`
        "places",  # per (all-different c of at most 64 cells, common bit b), at c * 64 + b:
                   # the positions in c of the cells that can take b, as a bit mask
                   # (kept up to date by _narrow and _undo; see OPT_COUNTS)
        "values",  # per all-different c: the values with places in c at the root
                   # (set with `places`; a superset of them below it)
        "changed",  # per all-different c: the values whose places in c changed since
                    # its intersections last ran to the end (with OPT_COUNTS)
        "st",  # the scalars below
    ],
)

# Constraint kinds (as in compile).
ALLDIFF, LINEAR, SUBSETSUM, TABLE, NOGOOD, NOTEQUAL = 0, 1, 2, 3, 4, 5
OP_EQ, OP_LE, OP_GE = 0, 1, 2

# Slots of `st`.
DEPTH = 0
PHASE = 1
SOLUTIONS = 2
NODES = 3  # decisions
FAILURES = 4  # decisions (or the root) whose propagation failed
TRAIL = 5
QHEAD = 6
QCOUNT = 7
PROPAGATIONS = 8  # propagator runs
PROBES = 9  # values tried by failed-value probing
PROBE_AT = 10  # the next variable root probing tries
PROBE_CHANGED = 11  # 1 if this sweep of root probing removed a value
# The techniques, switchable (see `Options`): read from `st` so that every
# setting runs the same compiled kernel.
OPT_MATCHING = 12  # 1: all-different by matching (every naked and hidden subset)
OPT_LOCKED = 13  # 1: intersections of all-differents (locked candidates)
OPT_PROBE = 14  # 1: failed-value probing at the root
OPT_WDEG = 15  # 0: fewest values, first declared; 1: ties by wdeg; 2: least dom/wdeg
OPT_PLACES = 16  # 1: branch on the places of a value when they are fewer
RESTART_AT = 17  # the failure count at which to restart (0: never); see `learn`
RESTARTS = 18  # restarts so far
OPT_DEFER = 19  # 1: an all-different's matching and intersections wait for the singles' fixpoint
SHEAD = 20  # the queue `strong`
SCOUNT = 21
STRONG = 22  # runs of the strong reasoning (matching, intersections) of an all-different
OPT_COUNTS = 23  # COUNTS_OFF, or how a narrowing that leaves no single wakes an all-different
OPT_LAST = 24  # 1: last-conflict reasoning (branch again on the choice whose decision failed)
LAST_CHOICE = 25  # the last conflict: 0 (none), v + 1 (variable v) or -(c + 1) (a value of c)
LAST_BIT = 26  # for a value of c: that value, in c's common space
STATE_SIZE = 27

COUNTS_OFF = 0  # every narrowing queues the singles of the variable's all-differents
COUNTS_STRONG = 1  # a narrowing that fixes no cell and leaves every removed value in two
# places or more queues only the all-different's (deferred) strong reasoning
COUNTS_NONE = 2  # ... queues nothing (no strong reasoning is on)

WDEG_OFF, WDEG_TIES, WDEG_RATIO = 0, 1, 2

PHASE_START = 0  # propagate the root
PHASE_CHOOSE = 1  # the state is propagated: branch, or report a solution
PHASE_NEXT = 2  # try the next value at level DEPTH (after a failure or a solution)
PHASE_DONE = 3
PHASE_PROBE = 4  # failed-value probing at the root, resumable (a slice may end in it)

EXHAUSTED, FOUND, PAUSED = 0, 1, 2  # events, as in csp.backends.base
RESTART = 3  # the kernel asks for a restart (`learn.restart`), at PHASE_NEXT


Options = namedtuple("Options", ["matching", "locked", "probe", "wdeg", "places", "restarts",
                                 "defer", "counts", "last"],
                     defaults=[True, True, True, WDEG_TIES, True, 0, True, True, False])
"""The techniques of the kernel, each switchable (all on by default)."""
DEFAULT_OPTIONS = Options()


def new_state(p: Problem, options: Options = DEFAULT_OPTIONS) -> State:
    """Fresh search state for problem `p`, at the root."""
    n = len(p.dom0)
    n_cons = len(p.kind)
    trail = int(p.voff[-1]) + n + 1  # each narrowing removes a value along a branch
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[OPT_MATCHING] = int(options.matching)
    st[OPT_LOCKED] = int(options.locked)
    st[OPT_PROBE] = int(options.probe)
    st[OPT_WDEG] = int(options.wdeg)
    st[OPT_PLACES] = int(options.places)
    st[RESTART_AT] = int(options.restarts)
    st[OPT_DEFER] = int(options.defer)
    st[OPT_LAST] = int(options.last)
    strong = options.matching or options.locked
    # Without deferral the strong reasoning runs inside the singles' run: every
    # narrowing must wake that, and counting places would spare nothing.
    st[OPT_COUNTS] = (COUNTS_OFF if not options.counts or (strong and not options.defer)
                      else COUNTS_STRONG if strong else COUNTS_NONE)
    return State(
        dom=p.dom0.copy(),
        trail_var=np.zeros(trail, dtype=np.int64),
        trail_mask=np.zeros(trail, dtype=np.int64),
        queue=np.zeros(max(n_cons, 1), dtype=np.int64),
        inq=np.zeros(max(n_cons, 1), dtype=np.int64),
        var_at=np.zeros(n + 1, dtype=np.int64),
        vbit=np.zeros(n + 1, dtype=np.int64),
        rem=np.zeros(n + 1, dtype=np.int64),
        mark=np.zeros(n + 1, dtype=np.int64),
        scratch=np.zeros(int(p.max_arity[0]) + 1, dtype=np.int64),
        weight=np.ones(max(n_cons, 1), dtype=np.int64),
        vweight=np.diff(p.vcstart).astype(np.int64),
        first=np.zeros(n + 1, dtype=np.int64),
        match=np.full(max(len(p.cvars), 1), -1, dtype=np.int64),
        work=np.zeros(6 * 64, dtype=np.int64),
        strong=np.zeros(max(n_cons, 1), dtype=np.int64),
        instrong=np.zeros(max(n_cons, 1), dtype=np.int64),
        places=np.zeros(max(n_cons, 1) * 64, dtype=np.int64),
        values=np.zeros(max(n_cons, 1), dtype=np.int64),
        changed=np.zeros(max(n_cons, 1), dtype=np.int64),
        st=st,
    )


def incidence(kind: np.ndarray, cstart: np.ndarray, cvars: np.ndarray,
              n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Variable -> constraints as CSR (vcstart, vcons), each variable's NOGOOD
    constraints last, from vcnog[v] on: they need waking only when v is fixed;
    ventry: the variable's entry in each of those constraints."""
    owner = np.repeat(np.arange(len(kind), dtype=np.int64), np.diff(cstart))
    key = cvars * 2 + (kind[owner] == NOGOOD)
    order = np.argsort(key, kind="stable")
    vcstart = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(cvars, minlength=n), out=vcstart[1:])
    vcnog = np.searchsorted(key[order], np.arange(n, dtype=np.int64) * 2 + 1)
    return vcstart, owner[order], vcnog.astype(np.int64), order.astype(np.int64)


# -- domains ----------------------------------------------------------------------


@_jit(inline="always")
def _narrow(p, s, v, new):
    """Set v's mask to `new` (a subset of it); queue its constraints. False if empty.

    A nogood acts only when all but one of its variables are fixed to its
    values, so it is queued only when v becomes fixed."""
    old = s.dom[v]
    if new == old:
        return True
    if new == 0:
        return False
    t = s.st[TRAIL]
    s.trail_var[t] = v
    s.trail_mask[t] = old
    s.st[TRAIL] = t + 1
    s.dom[v] = new
    size = s.queue.shape[0]
    fixed = new & (new - 1) == 0
    counting = s.st[OPT_COUNTS]
    end = p.vcstart[v + 1] if fixed else p.vcnog[v]
    for i in range(p.vcstart[v], end):
        c = p.vcons[i]
        if counting != COUNTS_OFF and p.kind[c] == ALLDIFF and _small(p, c):
            # The singles of c can find something only if a cell is fixed or a
            # removed value is left with one place (or none) in c.
            e = p.ventry[i]
            gone = _to_common(p, e, old & ~new)
            s.changed[c] |= gone
            single = fixed
            base = c << 6
            keep = ~(1 << (e - p.cstart[c]))
            while gone != 0:
                k = base + lowest(gone)
                gone &= gone - 1
                where = s.places[k] & keep
                s.places[k] = where
                if where & (where - 1) == 0:
                    single = True
            if not single:
                if counting == COUNTS_STRONG and s.inq[c] == 0:
                    _push_strong(s, c)  # (if c's singles are queued, they will push it)
                continue
        if s.inq[c] == 0:
            s.inq[c] = 1
            tail = s.st[QHEAD] + s.st[QCOUNT]
            if tail >= size:
                tail -= size
            s.queue[tail] = c
            s.st[QCOUNT] += 1
    return True


@_jit(inline="always")
def _push_strong(s, c):
    """Queue the strong reasoning of all-different c, unless it is queued."""
    if s.instrong[c] == 0:
        s.instrong[c] = 1
        tail = s.st[SHEAD] + s.st[SCOUNT]
        size = s.strong.shape[0]
        s.strong[tail if tail < size else tail - size] = c
        s.st[SCOUNT] += 1


@_jit(inline="always")
def _small(p, c):
    """True if constraint c has at most 64 cells: its places fit in a mask."""
    return p.cstart[c + 1] - p.cstart[c] <= 64


@_jit
def _count_places(p, s):
    """Set `places` from the domains (at the root; narrowings keep it up to date).
    An all-different of more than 64 cells has none: its singles always wake."""
    for c in range(p.kind.shape[0]):
        if p.kind[c] != ALLDIFF:
            continue
        base = c << 6
        for k in range(64):
            s.places[base + k] = 0
        s.values[c] = 0
        s.changed[c] = 0
        if not _small(p, c):
            continue
        for e in range(p.cstart[c], p.cstart[c + 1]):
            m = _to_common(p, e, s.dom[p.cvars[e]])
            s.values[c] |= m
            s.changed[c] |= m
            pos = 1 << (e - p.cstart[c])
            while m != 0:
                s.places[base + lowest(m)] |= pos
                m &= m - 1


@_jit
def _undo(p, s, mark):
    t = s.st[TRAIL]
    counting = s.st[OPT_COUNTS] != COUNTS_OFF
    while t > mark:
        t -= 1
        v = s.trail_var[t]
        old = s.trail_mask[t]
        if counting:
            back = old & ~s.dom[v]
            for i in range(p.vcstart[v], p.vcnog[v]):
                c = p.vcons[i]
                if p.kind[c] == ALLDIFF and _small(p, c):
                    base = c << 6
                    e = p.ventry[i]
                    pos = 1 << (e - p.cstart[c])
                    m = _to_common(p, e, back)
                    while m != 0:
                        s.places[base + lowest(m)] |= pos
                        m &= m - 1
        s.dom[v] = old
    s.st[TRAIL] = t


@_jit(inline="always")
def _image(table, base, m):
    """The set {table[base + i] : bit i of m}: a mask mapped bit by bit."""
    out = 0
    while m != 0:
        out |= 1 << table[base + lowest(m)]
        m &= m - 1
    return out


@_jit(inline="always")
def _to_common(p, e, m):
    shift = p.cshift[e]
    if shift >= 0:
        return m << shift
    return _image(p.tmap, p.ctoff[e], m)


@_jit(inline="always")
def _from_common(p, e, v, cm):
    shift = p.cshift[e]
    if shift >= 0:
        return (cm >> shift) & p.full[v]
    out = 0
    base = p.ctoff[e]
    m = p.full[v]
    while m != 0:
        k = lowest(m)
        if (cm >> p.tmap[base + k]) & 1:
            out |= 1 << k
        m &= m - 1
    return out


@_jit
def _trim(p, v, d, lo, hi):
    """Mask d without the values of v below lo or above hi."""
    base = p.voff[v]
    while d != 0 and p.vals[base + lowest(d)] < lo:
        d &= d - 1
    while d != 0:
        k = highest(d)
        if p.vals[base + k] <= hi:
            break
        d &= ~(1 << k)
    return d


# -- propagators --------------------------------------------------------------------


@_jit(inline="always")
def _all_different(p, s, c):
    """Naked singles, hidden singles (when the values must all be used), pigeonhole:
    cheap, so they run to their fixpoint before the strong reasoning does."""
    a, b = p.cstart[c], p.cstart[c + 1]
    k = b - a
    while True:
        fixed = 0
        once = 0
        twice = 0
        open_values = 0
        for e in range(a, b):
            m = _to_common(p, e, s.dom[p.cvars[e]])
            if m & (m - 1) == 0:
                if fixed & m:
                    return False
                fixed |= m
            else:
                open_values |= m
            twice |= once & m
            once |= m
        n_values = popcount(once)
        if n_values < k:
            return False
        # With exactly k values left for k variables every value is used, so a
        # value that only one variable can take is that variable's.
        hidden = once & ~twice & ~fixed if n_values == k else 0
        if hidden == 0 and open_values & fixed == 0:
            return True  # nothing to narrow: spare the second pass
        again = False
        for e in range(a, b):
            v = p.cvars[e]
            m = _to_common(p, e, s.dom[v])
            if m & (m - 1) == 0:
                continue
            nm = m & ~fixed
            h = nm & hidden
            if h != 0:
                if h & (h - 1):
                    return False
                nm = h
            if nm != m:
                if not _narrow(p, s, v, _from_common(p, e, v, nm)):
                    return False
                if nm & (nm - 1) == 0:
                    again = True
        if not again:
            return True


@_jit(inline="always")
def _all_different_strong(p, s, c):
    """The strong reasoning of an all-different: matching, then intersections."""
    if p.cstart[c + 1] - p.cstart[c] <= 64 and s.st[OPT_MATCHING] and not _matching(p, s, c):
        return False
    return s.st[OPT_LOCKED] == 0 or _locked(p, s, c)


SIGN_BIT = -(1 << 63)
"""Bit 63 of an int64 mask."""

# Blocks of State.work used by _matching (64 slots each).
W_OWNER, W_REACH, W_PREV, W_QUEUE, W_OPEN, W_DOM = 0, 64, 128, 192, 256, 320


@_jit(inline="always")
def _matching(p, s, c):
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
        m = _to_common(p, a0 + x, s.dom[p.cvars[a0 + x]])
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
        w[W_REACH + i] = r | _image(w, W_OWNER, m)
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
            if not _narrow(p, s, v, _from_common(p, e, v, keep)):
                return False
    return True


@_jit(inline="always")
def _prune_by_places(p, s, c, n, values, free_values):
    """The pruning of `_matching` from its maximum matching, with the steps of
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
            if not _narrow(p, s, v, _from_common(p, e, v, keep)):
                return False
    return True


@_jit(inline="always")
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


@_jit(inline="always")
def _matched(s, a0, positions):
    """The values matched to a set of positions (from entry a0 on)."""
    return _image(s.match, a0, positions)


@_jit(inline="always")
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


@_jit
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


@_jit(inline="always")
def _locked(p, s, c):
    """Intersections of all-differents ("locked candidates"): A = c must use every
    value; a value A can place only in cells it shares with B is placed there, so
    B's other cells lose it (a sudoku row and box, generally any overlapping pair).

    The places of each value in A are its kept place mask (with counted places)
    or gathered in one pass over A (the masks transposed); the overlaps that
    hold all of a value's places are then the intersection of the overlaps of
    each place, usually settled at the second. With counted places, B's
    cells that lose a claimed value are read from B's place masks: none when
    the claim was applied on an earlier run (claims last down the tree), where
    a scan of B's cells would find nothing."""
    a, b = p.cstart[c], p.cstart[c + 1]
    k0, k1 = p.lc_start[c], p.lc_start[c + 1]
    if k0 == k1:
        return True
    w = s.work
    # W_OWNER: per value, its places in A; W_REACH: per place, its overlaps
    # (bit k - k0); W_PREV: per overlap, the values it claims.
    values = 0
    placed = 0  # the values of A's fixed cells: B's singles take those out of B
    counted = s.st[OPT_COUNTS] != COUNTS_OFF
    if counted:
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
    else:
        for e in range(a, b):
            m = _to_common(p, e, s.dom[p.cvars[e]])
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
    if popcount(values) != b - a:
        return True  # a value may go unused: no value is bound to be placed in A
    claimable = values & ~placed
    if counted:
        # A claim on a value whose places did not change since the last run
        # was found then and applied (every state undone to is a fixpoint),
        # and B's cells have only lost values since.
        claimable &= s.changed[c]
        s.changed[c] = 0
        if claimable == 0:
            return True
    wide = k1 - k0 > 63  # too many overlaps for one mask: test each
    if not wide:
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
    for k in range(k0, k1):
        claim = 0
        if wide:
            in_a = p.lc_in_a[k]
            bits = claimable
            while bits != 0:
                val = lowest(bits)
                bits &= bits - 1
                if w[W_OWNER + val] & ~in_a == 0:
                    claim |= 1 << val
        else:
            claim = w[W_PREV + k - k0]
        if claim == 0:
            continue
        other = p.lc_other[k]
        in_b = p.lc_in_b[k]
        ob = p.cstart[other]
        if counted:
            # B's cells outside the overlap that can take a claimed value, in
            # the order of a scan (none if the claim was applied before).
            cells = 0
            rest = claim
            base = other << 6
            while rest != 0:
                cells |= s.places[base + lowest(rest)]
                rest &= rest - 1
            cells &= ~in_b
        else:
            cells = ~in_b & ((1 << (p.cstart[other + 1] - ob)) - 1 if p.cstart[other + 1] - ob < 64
                             else -1)
        while cells != 0:
            e = ob + lowest(cells)
            cells &= cells - 1
            v = p.cvars[e]
            m = _to_common(p, e, s.dom[v])
            if m & claim:
                if not _narrow(p, s, v, _from_common(p, e, v, m & ~claim)):
                    return False
    return True


@_jit
def _linear(p, s, c):
    """Bounds reasoning on sum(w * x) op rhs."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    op = p.params[q]
    rhs = p.params[q + 1]
    while True:
        smin = 0
        smax = 0
        for e in range(a, b):
            v = p.cvars[e]
            w = p.params[q + 2 + e - a]
            d = s.dom[v]
            lo = p.vals[p.voff[v] + lowest(d)]
            hi = p.vals[p.voff[v] + highest(d)]
            if w > 0:
                smin += w * lo
                smax += w * hi
            else:
                smin += w * hi
                smax += w * lo
        if (op != OP_GE and smin > rhs) or (op != OP_LE and smax < rhs):
            return False
        changed = False
        for e in range(a, b):
            v = p.cvars[e]
            w = p.params[q + 2 + e - a]
            d = s.dom[v]
            lo = p.vals[p.voff[v] + lowest(d)]
            hi = p.vals[p.voff[v] + highest(d)]
            if w > 0:
                tmin, tmax = w * lo, w * hi
            else:
                tmin, tmax = w * hi, w * lo
            xlo, xhi = lo, hi
            if op != OP_GE:  # w * x <= upper
                upper = rhs - (smin - tmin)
                if w > 0:
                    xhi = min(xhi, upper // w)
                else:
                    xlo = max(xlo, -(-upper // w))
            if op != OP_LE:  # w * x >= lower
                lower = rhs - (smax - tmax)
                if w > 0:
                    xlo = max(xlo, -(-lower // w))
                else:
                    xhi = min(xhi, lower // w)
            if xlo > lo or xhi < hi:
                if not _narrow(p, s, v, _trim(p, v, d, xlo, xhi)):
                    return False
                changed = True
        if not changed:
            return True


@_jit
def _subset_sum(p, s, c):
    """sum(x) == target over all-different variables: the values still free must
    form a subset of the right size and sum; keep the values of such subsets, and
    place a value every such subset needs if only one variable can take it."""
    a, b = p.cstart[c], p.cstart[c + 1]
    q = p.pstart[c]
    target = p.params[q]
    first = p.sub_first[p.params[q + 2]]
    union_at = q + 3
    while True:
        used = 0
        rest = target
        free = 0
        avail = 0
        for e in range(a, b):
            m = _to_common(p, e, s.dom[p.cvars[e]])
            if m & (m - 1) == 0:
                if used & m:
                    return False
                used |= m
                rest -= p.params[union_at + lowest(m)]
            else:
                free += 1
                avail |= m
        if free == 0:
            return rest == 0
        if free > p.params[q + 1]:  # more variables than values: pigeonhole
            return False
        avail &= ~used
        lo = p.sub_rowptr[first + free]
        hi = p.sub_rowptr[first + free + 1]
        while lo < hi:  # the first row of this size whose sum is >= rest
            mid = (lo + hi) >> 1
            if p.sub_sum[mid] < rest:
                lo = mid + 1
            else:
                hi = mid
        end = p.sub_rowptr[first + free + 1]
        union = 0
        need = -1
        r = lo
        while r < end and p.sub_sum[r] == rest:
            sub = p.sub_mask[r]
            if sub & ~avail == 0:
                union |= sub
                need &= sub
            r += 1
        if union == 0:
            return False
        changed = False
        for e in range(a, b):
            v = p.cvars[e]
            m = _to_common(p, e, s.dom[v])
            if m & (m - 1) != 0 and m & ~union != 0:
                if not _narrow(p, s, v, _from_common(p, e, v, m & union)):
                    return False
                changed = True
        while need != 0:
            bit = need & -need
            need ^= bit
            holder = -1
            holders = 0
            for e in range(a, b):
                m = _to_common(p, e, s.dom[p.cvars[e]])
                if m & bit:
                    holders += 1
                    holder = e
                    if m == bit:  # already placed
                        holders = -1
                        break
            if holders == 0:
                return False
            if holders == 1:
                v = p.cvars[holder]
                if not _narrow(p, s, v, _from_common(p, holder, v, bit)):
                    return False
                changed = True
        if not changed:
            return True


@_jit
def _table(p, s, c):
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
        if not _narrow(p, s, v, s.dom[v] & support[i]):
            return False
    return True


@_jit
def _nogood(p, s, c):
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
                if not _narrow(p, s, v, s.dom[v] & ~(1 << p.params[row + open_at])):
                    return False
                changed = True
        if not changed:
            return True


@_jit
def _not_equal(p, s, c):
    a = p.cstart[c]
    x, y = p.cvars[a], p.cvars[a + 1]
    q = p.pstart[c]
    nx = p.params[q]
    for _ in range(2):
        dx = s.dom[x]
        if dx & (dx - 1) == 0:
            j = p.params[q + 2 + lowest(dx)]
            if j >= 0 and not _narrow(p, s, y, s.dom[y] & ~(1 << j)):
                return False
        dy = s.dom[y]
        if dy & (dy - 1) == 0:
            j = p.params[q + 2 + nx + lowest(dy)]
            if j >= 0 and not _narrow(p, s, x, s.dom[x] & ~(1 << j)):
                return False
    return True


@_jit(inline="always")
def _pop(queue, st, head_slot, count_slot):
    """Take the first constraint of a circular queue (its head and length in
    `st` at those slots)."""
    head = st[head_slot]
    st[head_slot] = head + 1 if head + 1 < queue.shape[0] else 0
    st[count_slot] -= 1
    return queue[head]


@_jit
def _propagate(p, s):
    """Run queued constraints until none is left (True) or one fails (False).

    With OPT_DEFER, the strong reasoning of an all-different (matching,
    intersections) that the singles have left changed waits in a second queue
    until no constraint is left in the first: one run then sees the settled
    domains, where running it at once after every change would run it again
    after each of the narrowings the singles go on making."""
    st = s.st
    defer = st[OPT_DEFER] != 0 and (st[OPT_MATCHING] != 0 or st[OPT_LOCKED] != 0)
    while True:
        if st[QCOUNT] > 0:
            c = _pop(s.queue, st, QHEAD, QCOUNT)
            st[PROPAGATIONS] += 1
            # inq[c] stays 1 while c runs: each propagator reaches its own fixpoint.
            kind = p.kind[c]
            if kind == ALLDIFF:
                ok = _all_different(p, s, c)
                if ok:
                    if not defer:
                        st[STRONG] += 1
                        ok = _all_different_strong(p, s, c)
                    else:
                        _push_strong(s, c)
            elif kind == LINEAR:
                ok = _linear(p, s, c)
            elif kind == SUBSETSUM:
                ok = _subset_sum(p, s, c)
            elif kind == TABLE:
                ok = _table(p, s, c)
            elif kind == NOGOOD:
                ok = _nogood(p, s, c)
            else:
                ok = _not_equal(p, s, c)
        elif st[SCOUNT] > 0:
            c = _pop(s.strong, st, SHEAD, SCOUNT)
            st[STRONG] += 1
            # c's own narrowings need no singles pass of c, nor another strong
            # run: matching leaves nothing to find.
            s.inq[c] = 1
            ok = _all_different_strong(p, s, c)
            s.instrong[c] = 0
        else:
            return True
        s.inq[c] = 0
        if not ok:
            s.weight[c] += 1
            for e in range(p.cstart[c], p.cstart[c + 1]):
                s.vweight[p.cvars[e]] += 1
            while st[QCOUNT] > 0:
                s.inq[_pop(s.queue, st, QHEAD, QCOUNT)] = 0
            while st[SCOUNT] > 0:
                s.instrong[_pop(s.strong, st, SHEAD, SCOUNT)] = 0
            return False


@_jit
def _probe(p, s, stop):
    """Failed-value probing ("shaving"): a value of a two-valued variable whose
    propagation fails is removed, to a fixpoint. It settles some 25x25 sudokus
    without a single decision. Resumable: it stops (PAUSED) once `stop` probes
    are made, between two variables, and goes on from there when called again,
    so that a model with many variables keeps its time limit. Returns FOUND
    when done, EXHAUSTED if the state itself fails."""
    n = s.dom.shape[0]
    st = s.st
    while True:
        v = st[PROBE_AT]
        if v >= n:
            if st[PROBE_CHANGED] == 0:
                return FOUND
            st[PROBE_CHANGED] = 0
            st[PROBE_AT] = 0
            continue
        if st[PROBES] >= stop:
            return PAUSED
        st[PROBE_AT] = v + 1
        d = s.dom[v]
        if d == 0 or d & (d - 1) == 0 or popcount(d) > 2:
            continue
        m = d
        while m != 0:
            bit = m & -m
            m ^= bit
            mark = st[TRAIL]
            st[PROBES] += 1
            ok = _narrow(p, s, v, bit) and _propagate(p, s)
            _undo(p, s, mark)
            if not ok:
                if not (_narrow(p, s, v, s.dom[v] & ~bit) and _propagate(p, s)):
                    return EXHAUSTED
                st[PROBE_CHANGED] = 1
                break


@_jit
def _choose(p, s, depth):
    """Set up the branching of level `depth`; False if every variable is assigned.

    The choice with the fewest alternatives wins: the unassigned variable with
    the fewest values (on ties, the one whose constraints failed most often, then
    the first declared), or, when it is strictly
    smaller, the places left for a value in an all-different whose values must
    all be used (as Algorithm X's MRV over "row r has digit d" items).
    """
    dom = s.dom
    if s.st[LAST_CHOICE] != 0 and _choose_last(p, s, depth):
        return True
    best = -1
    best_size = 65
    best_w = 0
    wdeg = s.st[OPT_WDEG]
    for v in range(dom.shape[0]):
        d = dom[v]
        if d & (d - 1) != 0:
            size = popcount(d)
            if wdeg == WDEG_OFF:
                if size < best_size:
                    best_size = size
                    best = v
                continue
            if wdeg == WDEG_TIES and size > best_size:
                continue
            wd = s.vweight[v]
            if wdeg == WDEG_TIES:
                # Ties go to the variable whose constraints failed most (wdeg).
                better = size < best_size or wd > best_w
            else:  # the least size / wdeg, compared without division
                better = best < 0 or size * best_w < best_size * wd
            if better:
                best_size = size
                best = v
                best_w = wd
    if best < 0:
        return False
    s.var_at[depth] = best
    s.rem[depth] = dom[best]
    s.first[depth] = dom[best]
    if best_size <= 2 or s.st[OPT_PLACES] == 0:
        return True
    best_c = -1
    best_bit = 0
    for i in range(p.alldiffs.shape[0]):
        c = p.alldiffs[i]
        a, b = p.cstart[c], p.cstart[c + 1]
        # at_least_j: the values that at least j variables can take
        at_least1 = 0
        at_least2 = 0
        at_least3 = 0
        at_least4 = 0
        for e in range(a, b):
            m = _to_common(p, e, dom[p.cvars[e]])
            at_least4 |= at_least3 & m
            at_least3 |= at_least2 & m
            at_least2 |= at_least1 & m
            at_least1 |= m
        if popcount(at_least1) != b - a:
            continue  # a value may go unused: its places are no partition
        two = at_least2 & ~at_least3
        if two != 0:
            best_c, best_bit, best_size = c, two & -two, 2
            break
        three = at_least3 & ~at_least4
        if three != 0 and best_size > 3:
            best_c, best_bit, best_size = c, three & -three, 3
    if best_c >= 0:
        a, b = p.cstart[best_c], p.cstart[best_c + 1]
        places = 0
        for e in range(a, b):
            if _to_common(p, e, dom[p.cvars[e]]) & best_bit:
                places |= 1 << (e - a)
        s.var_at[depth] = -(best_c + 1)
        s.vbit[depth] = best_bit
        s.rem[depth] = places
        s.first[depth] = places
    return True


@_jit(inline="always")
def _choose_last(p, s, depth):
    """Branch again on the last conflict (the choice whose decision failed last),
    if it is still open: a variable with two values or more, or a value of an
    all-different not yet placed, with two places or more (Lecoutre et al.,
    "Reasoning from last conflict(s) in constraint programming", 2009). False
    if it is settled, or if the all-different may now leave the value unused
    (the conflict arose where its values were as many as its cells, on another
    branch): its places are then no partition. The usual choice then."""
    choice = s.st[LAST_CHOICE]
    if choice > 0:
        v = choice - 1
        d = s.dom[v]
        if d & (d - 1) == 0:
            return False
        s.var_at[depth] = v
        s.rem[depth] = d
        s.first[depth] = d
        return True
    c = -choice - 1
    bit = s.st[LAST_BIT]
    a, b = p.cstart[c], p.cstart[c + 1]
    places = 0
    used = 0
    for e in range(a, b):
        m = _to_common(p, e, s.dom[p.cvars[e]])
        used |= m
        if m & bit:
            if m == bit:
                return False  # placed
            places |= 1 << (e - a)
    if popcount(used) != b - a or places & (places - 1) == 0:
        return False
    s.var_at[depth] = choice
    s.vbit[depth] = bit
    s.rem[depth] = places
    s.first[depth] = places
    return True


@_jit(inline="always")
def _is_last(s, depth):
    """True if the choice of level `depth` is the last conflict."""
    w = s.var_at[depth]
    if w >= 0:
        return s.st[LAST_CHOICE] == w + 1
    return s.st[LAST_CHOICE] == w and s.st[LAST_BIT] == s.vbit[depth]


# -- search ---------------------------------------------------------------------------


@_jit
def search(p, s, count_only, budget):
    """Run until a solution (FOUND, unless count_only), the end (EXHAUSTED) or
    `budget` more decisions (PAUSED). The solution is `s.dom`: one bit per variable."""
    st = s.st
    stop_at = st[NODES] + budget
    probe_stop = st[PROBES] + budget
    while True:
        phase = st[PHASE]
        if phase == PHASE_DONE:
            return EXHAUSTED
        if phase == PHASE_START:
            ok = True
            for v in range(s.dom.shape[0]):
                if s.dom[v] == 0:
                    ok = False
            if ok:
                if st[OPT_COUNTS] != COUNTS_OFF:
                    _count_places(p, s)
                for c in range(p.kind.shape[0]):
                    s.inq[c] = 1
                    s.queue[c] = c
                st[QHEAD] = 0
                st[QCOUNT] = p.kind.shape[0]
                ok = _propagate(p, s)
            if not ok:
                st[FAILURES] += 1
                st[PHASE] = PHASE_DONE
                return EXHAUSTED
            # Probing pays at the root only: below it, the cost of trying
            # every two-valued variable outweighs the nodes it saves.
            st[PROBE_AT] = 0 if st[OPT_PROBE] else s.dom.shape[0]
            st[PROBE_CHANGED] = 0
            st[PHASE] = PHASE_PROBE
        elif phase == PHASE_PROBE:
            event = _probe(p, s, probe_stop)
            if event == PAUSED:
                return PAUSED
            if event == EXHAUSTED:
                st[FAILURES] += 1
                st[PHASE] = PHASE_DONE
                return EXHAUSTED
            st[DEPTH] = 0
            st[PHASE] = PHASE_CHOOSE
        elif phase == PHASE_CHOOSE:
            depth = st[DEPTH] + 1
            if not _choose(p, s, depth):
                st[SOLUTIONS] += 1
                st[PHASE] = PHASE_NEXT
                if not count_only:
                    return FOUND
                continue
            st[DEPTH] = depth
            s.mark[depth] = st[TRAIL]
            st[PHASE] = PHASE_NEXT
        else:  # PHASE_NEXT
            depth = st[DEPTH]
            if depth == 0:
                st[PHASE] = PHASE_DONE
                return EXHAUSTED
            _undo(p, s, s.mark[depth])
            rem = s.rem[depth]
            if rem == 0:
                st[DEPTH] = depth - 1
                continue
            if st[NODES] >= stop_at:
                return PAUSED
            if 0 < st[RESTART_AT] <= st[FAILURES]:
                return RESTART
            bit = rem & -rem
            s.rem[depth] = rem ^ bit
            st[NODES] += 1
            v = s.var_at[depth]
            if v < 0:  # the next place of a value
                c = -v - 1
                e = p.cstart[c] + lowest(bit)
                v = p.cvars[e]
                bit = _from_common(p, e, v, s.vbit[depth])
            if _narrow(p, s, v, bit) and _propagate(p, s):
                st[PHASE] = PHASE_CHOOSE
                if st[LAST_CHOICE] != 0 and _is_last(s, depth):
                    st[LAST_CHOICE] = 0  # the conflict is passed: back to the usual choice
            else:
                st[FAILURES] += 1
                if st[OPT_LAST] != 0 and st[LAST_CHOICE] == 0:
                    w = s.var_at[depth]
                    st[LAST_CHOICE] = w + 1 if w >= 0 else w
                    st[LAST_BIT] = s.vbit[depth]
