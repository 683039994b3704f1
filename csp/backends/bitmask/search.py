"""The search loop: propagate the root, probe it, then branch, propagate and
backtrack, as a resumable state machine (`PHASE_*`), until a solution, the end
or a node budget."""

from __future__ import annotations

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.bitmask.analyze import WORK_PER_NODE, maybe_restart, on_conflict
from csp.backends.bitmask.bits import lowest, popcount
from csp.backends.bitmask.branch import choose, is_last
from csp.backends.bitmask.domains import count_places, from_common, narrow, undo
from csp.backends.bitmask.layout import (
    COUNTS_OFF,
    DECISION,
    DEPTH,
    EXHAUSTED,
    FAILURES,
    FLOOR,
    FOUND,
    L_AACT,
    L_PHASE,
    LAST_BIT,
    LAST_CHOICE,
    NODES,
    OPT_COUNTS,
    OPT_LAST,
    OPT_LEARN,
    OPT_PHASE,
    OPT_PROBE,
    PAUSED,
    PHASE,
    PHASE_CHOOSE,
    PHASE_CONFLICT,
    PHASE_DONE,
    PHASE_NEXT,
    PHASE_PROBE,
    PHASE_SAVING,
    PHASE_START,
    PROBE_AT,
    PROBE_CHANGED,
    PROBES,
    QCOUNT,
    QHEAD,
    REASON,
    RESTART,
    RESTART_AT,
    SOLUTIONS,
    TRAIL,
    VALUE_ACTIVITY,
    WORK,
    WORK_STOP,
    jit,
    part,
)
from csp.backends.bitmask.propagate import propagate


@jit
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
            st[REASON] = DECISION
            ok = narrow(p, s, v, bit) and propagate(p, s)
            undo(p, s, mark)
            if not ok:
                if not (narrow(p, s, v, s.dom[v] & ~bit) and propagate(p, s)):
                    return EXHAUSTED
                st[PROBE_CHANGED] = 1
                break


@jit
def search(p, s, count_only, budget):
    """Run until a solution (FOUND, unless count_only), the end (EXHAUSTED) or
    `budget` more decisions (PAUSED). The solution is `s.dom`: one bit per variable."""
    st = s.st
    stop_at = st[NODES] + budget
    probe_stop = st[PROBES] + budget
    # Learning's analyses count their steps: past the budget's worth, the call
    # pauses, however few nodes it made (Ctrl-C and time limits stay prompt).
    st[WORK_STOP] = st[WORK] + min(budget, 1 << 40) * WORK_PER_NODE
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
                    count_places(p, s)
                for c in range(p.kind.shape[0]):
                    s.inq[c] = 1
                    s.queue[c] = c
                st[QHEAD] = 0
                st[QCOUNT] = p.kind.shape[0]
                ok = propagate(p, s)
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
            if not choose(p, s, depth):
                st[SOLUTIONS] += 1
                st[FLOOR] = depth - 1  # (see `analyze`: no backjump above a solution)
                st[PHASE] = PHASE_NEXT
                if not count_only:
                    return FOUND
                continue
            st[DEPTH] = depth
            s.mark[depth] = st[TRAIL]
            st[PHASE] = PHASE_NEXT
        elif phase == PHASE_CONFLICT:
            if st[WORK] >= st[WORK_STOP]:
                return PAUSED
            _learn(p, s)
        else:  # PHASE_NEXT
            depth = st[DEPTH]
            if depth == 0:
                st[PHASE] = PHASE_DONE
                return EXHAUSTED
            undo(p, s, s.mark[depth])
            rem = s.rem[depth]
            if rem == 0:
                st[DEPTH] = depth - 1
                if st[FLOOR] > depth - 1:
                    st[FLOOR] = depth - 1
                continue
            if st[NODES] >= stop_at or st[WORK] >= st[WORK_STOP]:
                return PAUSED
            if 0 < st[RESTART_AT] <= st[FAILURES]:
                return RESTART
            bit = rem & -rem
            if st[OPT_PHASE] == PHASE_SAVING:
                bit = _phase(p, s, depth, rem, bit)
            elif st[OPT_PHASE] == VALUE_ACTIVITY and s.var_at[depth] >= 0:
                bit = _calmest(p, s, depth, rem, bit)
            s.rem[depth] = rem ^ bit
            st[NODES] += 1
            v = s.var_at[depth]
            if v < 0:  # the next place of a value
                c = -v - 1
                e = p.cstart[c] + lowest(bit)
                v = p.cvars[e]
                bit = from_common(p, e, v, s.vbit[depth])
            if bit & s.dom[v] == 0:
                continue  # ruled out by a learned clause (see `analyze`)
            st[REASON] = DECISION
            if narrow(p, s, v, bit) and propagate(p, s):
                st[PHASE] = PHASE_CHOOSE
                if st[LAST_CHOICE] != 0 and is_last(s, depth):
                    st[LAST_CHOICE] = 0  # the conflict is passed: back to the usual choice
            else:
                st[FAILURES] += 1
                if st[OPT_LAST] != 0 and st[LAST_CHOICE] == 0:
                    w = s.var_at[depth]
                    st[LAST_CHOICE] = w + 1 if w >= 0 else w
                    st[LAST_BIT] = s.vbit[depth]
                if st[OPT_LEARN] != 0:
                    _learn(p, s)


@jit
def _phase(p, s, depth, rem, bit):
    """The alternative of level `depth` to try next, with phase saving: the
    value its variable had when last fixed, if still open (for a value's
    places, the place whose cell last had that value); else `bit`, the
    lowest. After a restart or backjump, the search goes back to where it was."""
    phase = part(s, L_PHASE)
    v = s.var_at[depth]
    if v >= 0:
        saved = phase[v] & rem
        return saved if saved != 0 else bit
    c = -v - 1
    a = p.cstart[c]
    m = rem
    while m != 0:
        b = m & -m
        m ^= b
        e = a + lowest(b)
        x = p.cvars[e]
        if phase[x] != 0 and phase[x] == from_common(p, e, x, s.vbit[depth]):
            return b
    return bit


@jit
def _calmest(p, s, depth, rem, bit):
    """The value of level `depth`'s variable (of `rem`) least active in
    conflicts: whose x = k the fewest recent learned clauses deny (`L_AACT`);
    on ties the lowest. The value most likely to lead to a solution is tried
    first: on the blanked sudokus, 18 % fewer conflicts to count them
    (bench/RESULTS.md, stop 55)."""
    aact = part(s, L_AACT)
    base = p.voff[s.var_at[depth]]
    best = aact[base + lowest(bit)]
    m = rem & (rem - 1)
    while m != 0:
        b = m & -m
        m ^= b
        a = aact[base + lowest(b)]
        if a < best:
            best = a
            bit = b
    return bit


@jit(inline="always")
def _learn(p, s):
    """Learn from the failure at level DEPTH (`analyze`), and restart when due."""
    on_conflict(p, s)
    if s.st[PHASE] == PHASE_CHOOSE:
        maybe_restart(p, s)
