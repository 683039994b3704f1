"""Learning from conflicts: analysis to the first unique implication point,
the learned clause, the backjump, restarts.

When a decision's propagation fails, the failure's explanation (`explain`)
is the conflict set: literals, all true, that cannot hold together. Walking
the trail back, each literal of the conflict's level is replaced by its own
explanation until one literal of that level is left (the first UIP). The
learned clause says that the conflict set's literals are never all true;
once the search is back at the deepest level of its other literals, it makes
the UIP's negation true there (with the clause as its reason) and goes on.

**Why counts stay exact.** The search is still a depth-first search whose
levels try their alternatives in turn (`search`); learning adds clauses and
moves the search back up its branch:

- every learned clause is implied by the model: it is resolved from
  explanations, each implied by one constraint (or a clause learned before),
  and solutions found add nothing to the database (no blocking clauses). So
  a clause never removes a solution: propagating it, keeping it or deleting
  it leaves the set of solutions below any node unchanged;
- a backjump (or a restart) abandons the levels below its target with the
  alternatives they have not tried, and the search will explore that part of
  the tree again under the target's branch. That is exact as long as none of
  the abandoned alternatives led to a solution (which would be found twice):
  `FLOOR` is the deepest level of the branch under which a solution was
  found, and no backjump or restart goes above it. Where a backjump stops at
  the floor, the conflict's level tries its next alternative, as without
  learning, and the clause's literal is made true one level up.

So the search visits every solution exactly once, with learning or without.
"""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask import explain
from csp.backends.bitmask.bits import lowest, popcount
from csp.backends.bitmask.domains import narrow, undo
from csp.backends.bitmask.layout import (
    ACT_INC,
    AN_COUNTER,
    AN_LEVEL,
    AN_OUT,
    AN_TOUCHED,
    AN_WORK,
    BACKJUMPS,
    CONFLICTS,
    DEPTH,
    FAILURES,
    FLOOR,
    L_AACT,
    L_ACTIVITY,
    L_AVAR,
    L_CL_LITS,
    L_CL_START,
    L_LBUF,
    L_SEEN_NEG,
    L_SEEN_POS,
    L_TOUCHED,
    L_TRAIL_LEVEL,
    L_TRAIL_NEW,
    LAST_CHOICE,
    LBD_FAST,
    LBD_SLOW,
    LEARNED,
    LUBY_I,
    OPT_IMPLIED,
    OPT_MARGIN,
    OPT_MINIMISE,
    OPT_PHASE,
    OPT_RESTART,
    PHASE,
    PHASE_CHOOSE,
    PHASE_CONFLICT,
    PHASE_DONE,
    PHASE_NEXT,
    REASON,
    RESTART_NEXT,
    RESTARTS,
    TRAIL,
    VALUE_ACTIVITY,
    WORK,
    WORK_STOP,
    jit,
    part,
)
from csp.backends.bitmask.learned import add_clause
from csp.backends.bitmask.minimise import drop_implied, minimise
from csp.backends.bitmask.propagate import propagate

MAX_WORK = 1 << 22
"""An analysis that takes more steps than this is given up (the search then
goes on as without learning): no conflict stalls the kernel's time checks."""
WORK_PER_NODE = 1 << 12
"""Steps of analysis (about a node's time) a call of the kernel may take per
node of its budget: past them it pauses (`search`), at the next decision or
between two analyses of a cascade (`PHASE_CONFLICT`), however few nodes it
made. Python then regains control, checks Ctrl-C and the time limit, and
sizes the next budget by the time this one took (`SlicedSearch._tune`), so a
slice stays a fraction of a second even when conflicts cost more than nodes.
The search goes on exactly as if it had not paused."""


@jit
def analyze(p, s, level):
    """The learned clause of the conflict just found at `level`, in lbuf[0:n]
    (lbuf[0] the negated UIP, lbuf[1] a literal of the deepest other level):
    returns n, or 0 if the analysis was given up."""
    lbuf = part(s, L_LBUF)
    seen_neg = part(s, L_SEEN_NEG)
    seen_pos = part(s, L_SEEN_POS)
    touched = part(s, L_TOUCHED)
    trail_level = part(s, L_TRAIL_LEVEL)
    trail_new = part(s, L_TRAIL_NEW)
    st = s.st
    st[AN_LEVEL] = level
    st[AN_COUNTER] = 0
    st[AN_OUT] = 1
    st[AN_TOUCHED] = 0
    st[AN_WORK] = 0
    explain.conflict(p, s, st)
    n = 0
    t = st[TRAIL] - 1
    while st[AN_COUNTER] > 0 and st[AN_WORK] < MAX_WORK:
        while t >= 0:
            st[AN_WORK] += 1
            if trail_level[t] == level:
                x = s.trail_var[t]
                new = trail_new[t]
                sn = seen_neg[x] & s.trail_mask[t] & ~new
                single = new & (new - 1) == 0
                sp = seen_pos[x] & new if single else 0
                if sn != 0 or sp != 0:
                    break
            t -= 1
        if t < 0:
            break  # (not expected: every literal of the level has its entry)
        here = popcount(sn) + (1 if sp != 0 else 0)
        if here == st[AN_COUNTER] and (here == 1 or single):
            if sp == 0 and here == 1:
                lbuf[0] = (p.voff[x] + lowest(sn)) << 1  # x = k
            else:
                lbuf[0] = ((p.voff[x] + lowest(new)) << 1) | 1  # x != b
            n = st[AN_OUT]
            if st[OPT_MINIMISE] != 0:
                n = minimise(p, s, n)
            break
        st[AN_COUNTER] -= here
        explain.entry(p, s, st, t, sn, sp)
        t -= 1
    for i in range(st[AN_TOUCHED]):
        y = touched[i]
        seen_neg[y] = 0
        seen_pos[y] = 0
    st[WORK] += st[AN_WORK] + st[AN_TOUCHED]
    if n > 2 and st[OPT_IMPLIED] != 0:
        n = drop_implied(p, s, n)
    if st[OPT_PHASE] == VALUE_ACTIVITY:
        aact = part(s, L_AACT)
        inc = st[ACT_INC]
        for i in range(n):
            lit = lbuf[i]
            if lit & 1:  # x != k in the clause: x = k took part in the conflict
                aact[lit >> 1] += inc
    _decay(s)
    return n


@jit(inline="always")
def _decay(s):
    """Later conflicts bump more: the activities of older ones fade (VSIDS)."""
    activity = part(s, L_ACTIVITY)
    inc = s.st[ACT_INC]
    inc += inc >> 4
    if inc > 1 << 50:
        for v in range(activity.shape[0]):
            activity[v] >>= 30
        aact = part(s, L_AACT)
        for a in range(aact.shape[0]):
            aact[a] >>= 30
        inc >>= 30
    s.st[ACT_INC] = inc


@jit
def _levels(s, n):
    """Put a literal of the deepest level (of lbuf[1:n]) at lbuf[1]; returns
    (that level, the number of distinct levels of the clause)."""
    lbuf = part(s, L_LBUF)
    half = lbuf.shape[0] >> 1
    deepest = 0
    at = -1
    for i in range(1, n):
        if lbuf[half + i] > deepest:
            deepest = lbuf[half + i]
            at = i
    if at > 1:
        lbuf[1], lbuf[at] = lbuf[at], lbuf[1]
        lbuf[half + 1], lbuf[half + at] = lbuf[half + at], lbuf[half + 1]
    # The distinct levels, marked in seen_neg (clear between analyses; levels
    # are at most the number of variables): linear, however long the clause.
    mark = part(s, L_SEEN_NEG)
    distinct = 1
    for i in range(1, n):
        level = lbuf[half + i]
        if mark[level] == 0:
            mark[level] = 1
            distinct += 1
    for i in range(1, n):
        mark[lbuf[half + i]] = 0
    return deepest, distinct


@jit(inline="always")
def _assert(p, s, i):
    """Make clause i's first literal true (its reason: the clause)."""
    avar = part(s, L_AVAR)
    cl_lits = part(s, L_CL_LITS)
    cl_start = part(s, L_CL_START)
    lit = cl_lits[cl_start[i]]
    atom = lit >> 1
    x = avar[atom]
    bit = 1 << (atom - p.voff[x])
    s.st[REASON] = -2 - i
    return narrow(p, s, x, bit if lit & 1 == 0 else s.dom[x] & ~bit)


@jit
def on_conflict(p, s):
    """The decision of level DEPTH failed: learn, backjump and propagate until
    the search can choose again (PHASE_CHOOSE), try the level's next
    alternative (PHASE_NEXT), or is done (PHASE_DONE); or, when the slice's
    work is spent between two analyses, leave the failure at DEPTH to analyse
    when the kernel is called again (PHASE_CONFLICT)."""
    lbuf = part(s, L_LBUF)
    st = s.st
    d = st[DEPTH]
    while True:
        if d == 0:
            st[PHASE] = PHASE_DONE
            return
        st[CONFLICTS] += 1
        n = analyze(p, s, d)
        if n == 0:
            st[PHASE] = PHASE_NEXT  # as without learning
            return
        deepest, lbd = _levels(s, n)
        average_lbd(st, lbd)
        target = max(deepest, st[FLOOR])
        if target >= d:
            # A solution was found under this level: it keeps its branch and
            # tries its next alternative; the clause's literal holds one level up.
            undo(p, s, s.mark[d])
            i = add_clause(p, s, lbuf, n, lbd)
            st[PHASE] = PHASE_NEXT
            if i < 0:
                return
            st[LEARNED] += 1
            st[DEPTH] = d - 1
            ok = _assert(p, s, i) and propagate(p, s)
            st[DEPTH] = d
            s.mark[d] = st[TRAIL]
            if not ok:  # (not expected below a solution) the level above is done
                st[DEPTH] = d - 1
                st[FLOOR] = min(st[FLOOR], d - 1)
            return
        i = add_clause(p, s, lbuf, n, lbd)
        if i < 0:
            # No room: no backjump either (without the clause, the levels
            # undone would be searched again the same way): the level tries
            # its next alternative, as without learning.
            st[PHASE] = PHASE_NEXT
            return
        undo(p, s, s.mark[target + 1])
        st[DEPTH] = target
        st[LAST_CHOICE] = 0
        if target < d - 1:
            st[BACKJUMPS] += 1
        st[LEARNED] += 1
        if _assert(p, s, i) and propagate(p, s):
            st[PHASE] = PHASE_CHOOSE
            return
        st[FAILURES] += 1
        d = target
        if st[WORK] >= st[WORK_STOP]:
            st[PHASE] = PHASE_CONFLICT  # (the slice ends: `search` resumes here)
            return


@jit
def luby(i):
    """The i-th term (from 0) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    size, seq = 1, 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


FAST = 5
"""The fast moving average of the learned clauses' LBD weighs each new one
1/2**FAST (about the last 32 conflicts), ..."""
SLOW = 12
"""... the slow one 1/2**SLOW (about the last 4,096)."""


@jit(inline="always")
def average_lbd(st, lbd):
    """Fold a learned clause's literal block distance into the two moving
    averages (x 65,536, in whole numbers) that Glucose's restarts compare;
    the first clause starts both."""
    x = lbd << 16
    if st[LBD_SLOW] == 0:
        st[LBD_SLOW] = x
        st[LBD_FAST] = x
    st[LBD_FAST] += (x - st[LBD_FAST]) >> FAST
    st[LBD_SLOW] += (x - st[LBD_SLOW]) >> SLOW


@jit
def maybe_restart(p, s):
    """Back to the floor (the root, unless a solution was found) when a
    restart is due: the clauses and activities are kept. True if it
    restarted.

    With OPT_MARGIN (Glucose's restarts, Audemard and Simon, "Refining
    restarts strategies for SAT and UNSAT", CP 2012, with CaDiCaL's two
    moving averages): when the recent clauses' LBD is over OPT_MARGIN % of
    the long-run one (the search has strayed where its clauses are poor),
    at least OPT_RESTART conflicts after the last; while the clauses stay
    as good, the search goes on, as a sudoku's long dive to its first
    solution needs. Else at Luby's sequence times OPT_RESTART conflicts."""
    st = s.st
    if st[OPT_RESTART] == 0 or st[CONFLICTS] < st[RESTART_NEXT]:
        return False
    if st[OPT_MARGIN] != 0:
        if st[LBD_FAST] * 100 <= st[LBD_SLOW] * st[OPT_MARGIN]:
            return False
        st[RESTART_NEXT] = st[CONFLICTS] + st[OPT_RESTART]
    else:
        st[LUBY_I] += 1
        st[RESTART_NEXT] = st[CONFLICTS] + luby(st[LUBY_I]) * st[OPT_RESTART]
    floor = st[FLOOR]
    if st[DEPTH] <= floor:
        return False
    undo(p, s, s.mark[floor + 1])
    st[DEPTH] = floor
    st[LAST_CHOICE] = 0
    st[RESTARTS] += 1
    st[PHASE] = PHASE_CHOOSE
    return True


