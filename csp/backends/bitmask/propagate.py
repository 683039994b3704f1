"""Propagation: run the queued constraints to a fixpoint, each by its kind's
propagator.

Two queues, both circular, in `State`: `queue` (every constraint woken by a
narrowing, `inq` marks it) and `strong` (all-differents whose strong reasoning
waits for the first queue to empty, `instrong` marks it; see `OPT_DEFER`).
With learning, the learned clauses (`learned`) are propagated from the trail
once both queues are empty (`OPT_CLAUSES_LAST`; 0: first, whenever the trail
has grown), and their narrowings wake the constraints again.

A propagator is `f(p, s, c) -> bool`: it narrows the domains of constraint c's
variables only through `domains.narrow`, runs to its own fixpoint (c stays
marked queued while it runs, so its own narrowings do not wake it again), and
returns False when a domain is wiped out or c cannot hold. A propagator reads
and narrows only the variables of its own scope: then the generic explanation
of its narrowings (`explain`) is sound, and a new kind is explained without
more ado. `propagate` picks it
by `Problem.kind[c]`: a new kind is one more branch there (see
`csp.backends.bitmask.kernel` for the whole recipe).
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.alldifferent import all_different, all_different_strong
from csp.backends.bitmask.circuit import circuit
from csp.backends.bitmask.clauses import clause, parity
from csp.backends.bitmask.connected import connected
from csp.backends.bitmask.count import count
from csp.backends.bitmask.domains import push_strong
from csp.backends.bitmask.element import element
from csp.backends.bitmask.layout import (
    ALLDIFF,
    CIRCUIT,
    CLAUSE,
    CLHEAD,
    CONFLICT_VAR,
    COUNT,
    ELEMENT,
    LINEAR,
    N_CLAUSES,
    NOGOOD,
    NOTEQUAL,
    OPT_CLAUSES_LAST,
    OPT_DEFER,
    OPT_LOCKED,
    OPT_MATCHING,
    PARITY,
    PROPAGATIONS,
    QCOUNT,
    QHEAD,
    REASON,
    REGULAR,
    REIFIED_EQUAL,
    REIFIED_LINEAR,
    SCOUNT,
    SHEAD,
    STRONG,
    SUBSETSUM,
    TABLE,
    TRAIL,
    jit,
)
from csp.backends.bitmask.learned import propagate_clauses
from csp.backends.bitmask.notequal import not_equal
from csp.backends.bitmask.regular import regular
from csp.backends.bitmask.reified import reified_equal, reified_linear
from csp.backends.bitmask.sums import linear, subset_sum
from csp.backends.bitmask.tables import nogood, table


@jit(inline="always")
def _pop(queue, st, head_slot, count_slot):
    """Take the first constraint of a circular queue (its head and length in
    `st` at those slots)."""
    head = st[head_slot]
    st[head_slot] = head + 1 if head + 1 < queue.shape[0] else 0
    st[count_slot] -= 1
    return queue[head]


@jit
def propagate(p, s):
    """Run queued constraints until none is left (True) or one fails (False).

    With OPT_DEFER, the strong reasoning of an all-different (matching,
    intersections) that the singles have left changed waits in a second queue
    until no constraint is left in the first: one run then sees the settled
    domains, where running it at once after every change would run it again
    after each of the narrowings the singles go on making."""
    st = s.st
    defer = st[OPT_DEFER] != 0 and (st[OPT_MATCHING] != 0 or st[OPT_LOCKED] != 0)
    clauses = st[N_CLAUSES] > 0
    last = st[OPT_CLAUSES_LAST] != 0
    while True:
        if clauses and st[CLHEAD] < st[TRAIL] and (
                not last or (st[QCOUNT] == 0 and st[SCOUNT] == 0)):
            # The learned clauses last (unless OPT_CLAUSES_LAST is 0): most
            # conflicts are the constraints', and the clause watches visited
            # before one are work lost (`bitmask.CLAUSES_LAST`).
            c = -1
            ok = propagate_clauses(p, s)
        elif st[QCOUNT] > 0:
            c = _pop(s.queue, st, QHEAD, QCOUNT)
            st[PROPAGATIONS] += 1
            # Every narrowing is recorded with its reason (see `explain`).
            st[REASON] = c
            st[CONFLICT_VAR] = -1
            # inq[c] stays 1 while c runs: each propagator reaches its own fixpoint.
            kind = p.kind[c]
            if kind == ALLDIFF:
                ok = all_different(p, s, c)
                if ok:
                    if not defer:
                        st[STRONG] += 1
                        ok = all_different_strong(p, s, c)
                    else:
                        push_strong(s, c)
            elif kind == LINEAR:
                ok = linear(p, s, c)
            elif kind == SUBSETSUM:
                ok = subset_sum(p, s, c)
            elif kind == TABLE:
                ok = table(p, s, c)
            elif kind == NOGOOD:
                ok = nogood(p, s, c)
            elif kind == NOTEQUAL:
                ok = not_equal(p, s, c)
            elif kind == CLAUSE:
                ok = clause(p, s, c)
            elif kind == PARITY:
                ok = parity(p, s, c)
            elif kind == REIFIED_LINEAR:
                ok = reified_linear(p, s, c)
            elif kind == REIFIED_EQUAL:
                ok = reified_equal(p, s, c)
            elif kind == ELEMENT:
                ok = element(p, s, c)
            elif kind == COUNT:
                ok = count(p, s, c)
            elif kind == REGULAR:
                ok = regular(p, s, c)
            elif kind == CIRCUIT:
                ok = circuit(p, s, c)
            else:  # CONNECTED, the last kind (a new kind's branch goes above)
                ok = connected(p, s, c)
        elif st[SCOUNT] > 0:
            c = _pop(s.strong, st, SHEAD, SCOUNT)
            st[STRONG] += 1
            # c's own narrowings need no singles pass of c, nor another strong
            # run: matching leaves nothing to find.
            s.inq[c] = 1
            st[REASON] = c
            st[CONFLICT_VAR] = -1
            ok = all_different_strong(p, s, c)
            s.instrong[c] = 0
        else:
            if not clauses:
                st[CLHEAD] = st[TRAIL]
            return True
        if c >= 0:
            s.inq[c] = 0
        if not ok:
            if c >= 0:
                s.weight[c] += 1
                for e in range(p.cstart[c], p.cstart[c + 1]):
                    s.vweight[p.cvars[e]] += 1
            while st[QCOUNT] > 0:
                s.inq[_pop(s.queue, st, QHEAD, QCOUNT)] = 0
            while st[SCOUNT] > 0:
                s.instrong[_pop(s.strong, st, SHEAD, SCOUNT)] = 0
            return False
