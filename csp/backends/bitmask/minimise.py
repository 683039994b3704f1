"""Learned-clause minimisation: drop the literals the others imply.

The analysis (`analyze`) ends with a conflict set: the first UIP, and
literals of earlier levels, each true. A literal of the set is redundant
when its own explanation (`explain.entry`: the literals, true before it,
that made it true under its reason) holds only literals that are in the set
or true at level 0: the others then imply it, and the clause without it is
still implied by the model (MiniSat's local minimisation, Sörensson and
Biere, "Minimizing learned clauses", SAT 2009).

Dropping several literals at once stays sound because an explanation's
literals were all true before the literal they explain: each dropped
literal is implied by literals earlier on the trail, so the implications
never go round in a circle. For the same reason a literal x != k is taken as
implied by x = b of the set only when x was fixed before it
(`explain._check_neg`).

A decision has no explanation: it is never dropped.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask import explain
from csp.backends.bitmask.domains import to_common
from csp.backends.bitmask.layout import (
    ALLDIFF,
    AN_CHECK,
    AN_FAIL,
    DECISION,
    L_ADMARK,
    L_AVAR,
    L_LBUF,
    L_SEEN_POS,
    L_TRAIL_NEW,
    L_TRAIL_PREV,
    L_TRAIL_REASON,
    L_VLAST,
    MINIMISED,
    jit,
    part,
)


@jit
def minimise(p, s, n):
    """Drop from the learned clause lbuf[1:n] (levels in lbuf's second half)
    the literals whose negation the conflict set's other literals imply;
    returns the clause's new length. Call it before the analysis clears its
    marks (`analyze`)."""
    lbuf = part(s, L_LBUF)
    avar = part(s, L_AVAR)
    half = lbuf.shape[0] >> 1
    st = s.st
    out = 1
    for i in range(1, n):
        lit = lbuf[i]
        atom = lit >> 1
        x = avar[atom]
        bit = 1 << (atom - p.voff[x])
        t = _entry_of(s, x, bit, lit & 1)
        keep = True
        if t >= 0 and part(s, L_TRAIL_REASON)[t] != DECISION and _shares_level(lbuf, n, i):
            st[AN_CHECK] = t + 1
            st[AN_FAIL] = 0
            if lit & 1 == 0:  # the clause's x = k: the set's x != k
                explain.entry(p, s, st, t, bit, 0)
            else:  # the clause's x != k: the set's x = k
                explain.entry(p, s, st, t, 0, bit)
            keep = st[AN_FAIL] != 0
            st[AN_CHECK] = 0
        if keep:
            lbuf[out] = lit
            lbuf[half + out] = lbuf[half + i]
            out += 1
    st[MINIMISED] += n - out
    return out


@jit
def drop_implied(p, s, n):
    """Drop from the learned clause lbuf[1:n] each x = k that another of
    its literals implies under the model: y != k, y beside x in an
    all-different (x = k forces y != k), or x != b (x = k forces it). In
    the conflict set's terms, x != k is implied by y = k or x = b, also in
    the set; those are never dropped here, so the clause left is implied by
    the model and the conflict set is still one (binary minimisation, as
    SAT solvers do over their binary clauses). Returns the clause's new
    length. Needs the analysis' marks cleared (`analyze`): it borrows
    L_SEEN_POS, and clears it and L_ADMARK again."""
    lbuf = part(s, L_LBUF)
    avar = part(s, L_AVAR)
    held = part(s, L_SEEN_POS)
    admark = part(s, L_ADMARK)
    half = lbuf.shape[0] >> 1
    for i in range(n):
        lit = lbuf[i]
        if lit & 1:
            atom = lit >> 1
            x = avar[atom]
            bit = 1 << (atom - p.voff[x])
            held[x] |= bit
            for j in range(p.vcstart[x], p.vcnog[x]):
                c = p.vcons[j]
                if p.kind[c] == ALLDIFF and c < admark.shape[0]:
                    admark[c] |= to_common(p, p.ventry[j], bit)
    out = 1
    for i in range(1, n):
        lit = lbuf[i]
        keep = True
        if lit & 1 == 0:
            atom = lit >> 1
            x = avar[atom]
            bit = 1 << (atom - p.voff[x])
            if held[x] & ~bit != 0:
                keep = False
            else:
                for j in range(p.vcstart[x], p.vcnog[x]):
                    c = p.vcons[j]
                    if p.kind[c] == ALLDIFF and c < admark.shape[0]:
                        if admark[c] & to_common(p, p.ventry[j], bit) != 0:
                            keep = False
                            break
        if keep:
            lbuf[out] = lit
            lbuf[half + out] = lbuf[half + i]
            out += 1
    for i in range(out):  # (no y != k was dropped: they are all still there)
        lit = lbuf[i]
        if lit & 1:
            x = avar[lit >> 1]
            held[x] = 0
            for j in range(p.vcstart[x], p.vcnog[x]):
                c = p.vcons[j]
                if c < admark.shape[0]:
                    admark[c] = 0
    s.st[MINIMISED] += n - out
    return out


@jit(inline="always")
def _shares_level(lbuf, n, i):
    """Whether another literal of lbuf[1:n] has the level of literal i. A
    literal made true at level L was made so by a literal of level L (had
    its reason held one level up, propagation would have run there): unless
    the clause has another literal of that level, the explanation cannot lie
    within the clause, and its (costly) check is skipped."""
    half = lbuf.shape[0] >> 1
    level = lbuf[half + i]
    for j in range(1, n):
        if j != i and lbuf[half + j] == level:
            return True
    return False


@jit(inline="always")
def _entry_of(s, x, bit, positive):
    """The trail entry that made true x != k (`bit`), or x = k if `positive`;
    -1 if none."""
    trail_new = part(s, L_TRAIL_NEW)
    trail_prev = part(s, L_TRAIL_PREV)
    e = part(s, L_VLAST)[x]
    while e >= 0:
        new = trail_new[e]
        if positive != 0:
            if new == bit:
                return e
        elif s.trail_mask[e] & ~new & bit:
            return e
        e = trail_prev[e]
    return -1
