"""Restarts that keep what the search learned: nld-nogoods (Lecoutre, Sais,
Tabary, Vidal, "Recording and minimizing nogoods from restarts", JSAT 2007).

When the kernel has failed `RESTART_AT` times it stops (event `RESTART`) with
its branch intact: at each level i the decisions x = a tried so far. Every
alternative tried at level i, except the one in progress, has had its whole
subtree explored, so it yields the nogood "the decisions in progress at levels
1..i-1 and x_i = b are never all true". The search then starts again from the
root with those nogoods as constraints (the kernel's NOGOOD kind: forbidden
tuples) and the failure weights it has gathered, so dom/wdeg can rebuild the
top of the tree with what the failures taught.

Exactness: a nogood only cuts a subtree that was explored to the end, whose
solutions (if any) were already counted or reported. The search after the
restart covers exactly the rest, so counts and enumerations stay exact, and
the search still ends: each restart removes at least the explored subtrees,
and the cutoff grows geometrically.

Learning that waits for `learn_after` failures (`Options.learn_after`)
starts at a restart too: until then the search is the plain one, which
records no reasons and makes no clause database (`start_state`), and the
restart that reaches `learn_after` failures builds the learning state
(`restart`). The failures are counted since the last solution: a search
that finds solutions often stays plain (under a solution the floor stops
every backjump, `analyze`, and counting the solutions of 12 queens took
twice as long with clauses, bench/RESULTS.md). A solution found before
learning starts does not hold it back for good: its subtree is one of the
explored ones the restart cuts, and the floor starts again at the root. (So
a sudoku's proof of uniqueness after an early solution is learned from:
bench/RESULTS.md, stop 43.) Solutions are seen at restarts only: the
failures count from the first restart after the last solution
(`BitmaskSearch` passes that count as `quiet_from`), or from the start
once solutions are rare (`quiet_from`, `Options.learn_rare`: a count of
solutions spread through a long search, as a quasigroup's with a few
hundred, pays for learning as a proof does; bench/RESULTS.md, stop 58).
The nogoods so far stay, as constraints whose explanations are their
scope's literals (`explain.generic`); a clause learned from them is implied
by the model and the nogoods, which cut only explored subtrees, so it
removes no solution not yet counted.
"""

from __future__ import annotations

import numpy as np

from csp.backends.bitmask import layout
from csp.backends.bitmask.layout import NOGOOD, Options, Problem, State

GROWTH = 1.5
"""Each cutoff (in failures) is this much longer than the one before."""

Literal = tuple[int, int]
"""(variable, bit of the value in the variable's mask)."""


def _literal(p: Problem, s: State, level: int, bit: int) -> Literal:
    """The decision of `level` that took alternative `bit` (one bit of rem)."""
    v = int(s.var_at[level])
    if v >= 0:
        return v, bit.bit_length() - 1
    c = -v - 1
    e = int(p.cstart[c]) + bit.bit_length() - 1
    x = int(p.cvars[e])
    common = int(s.vbit[level]).bit_length() - 1
    shift = int(p.cshift[e])
    if shift >= 0:
        return x, common - shift
    base = int(p.ctoff[e])
    for k in range(int(p.voff[x + 1] - p.voff[x])):
        if int(p.tmap[base + k]) == common:
            return x, k
    raise AssertionError("a placed value outside the variable's domain")


def nogoods(p: Problem, s: State) -> list[tuple[list[Literal], list[Literal]]]:
    """The nld-nogoods of the current branch, as (decisions in progress above,
    refuted alternatives at this level): each refuted alternative together
    with all the decisions above is one nogood."""
    depth = int(s.st[layout.DEPTH])
    out: list[tuple[list[Literal], list[Literal]]] = []
    above: list[Literal] = []
    for level in range(1, depth + 1):
        tried = int(s.first[level]) & ~int(s.rem[level])
        # Alternatives are taken lowest bit first: the highest one tried is in
        # progress, except at the deepest level, where it is finished too.
        current = 1 << (tried.bit_length() - 1) if tried and level < depth else 0
        refuted = tried & ~current
        alternatives = []
        while refuted:
            bit = refuted & -refuted
            refuted ^= bit
            alternatives.append(_literal(p, s, level, bit))
        if alternatives:
            out.append((list(above), alternatives))
        if current:
            above.append(_literal(p, s, level, current))
    return out


def start_state(p: Problem, options: Options) -> State:
    """A fresh state at the root of `p` for `options`. Learning that waits
    for `learn_after` failures starts as the plain search, which restarts
    when they are reached at the latest (then `restart` turns learning on)."""
    if not _waiting(options):
        return layout.new_state(p, options)
    s = layout.new_state(p, options._replace(learn=False))
    s.st[layout.RESTART_AT] = _cap(options, int(options.restarts))
    return s


def _waiting(options: Options) -> bool:
    """Whether learning waits for `learn_after` failures."""
    return bool(options.learn) and options.learn_after > 0


def quiet_from(options: Options, failures: int, solutions: int, seen_at: int) -> int:
    """The failure from which learning's wait is counted, at a restart after
    `failures` with `solutions` found so far, the latest seen at the restart
    after `seen_at` failures: there while solutions are frequent, 0 (the
    start) once they are rare, `options.learn_rare` failures or more per
    solution (0: never rare).

    >>> from csp.backends.bitmask.layout import Options
    >>> waiting = Options(learn=True, learn_after=10_000, learn_rare=20)
    >>> quiet_from(waiting, 12_000, 3_000, 11_000)  # 4 failures a solution
    11000
    >>> quiet_from(waiting, 12_000, 60, 11_000)  # 200 failures a solution
    0
    >>> quiet_from(waiting._replace(learn_rare=0), 12_000, 60, 11_000)
    11000
    """
    rare = options.learn_rare > 0 and failures >= options.learn_rare * solutions
    return 0 if rare else seen_at


def _cap(options: Options, restart_at: int, quiet_from: int = 0) -> int:
    """The plain search's next restart (in failures; 0: never), no later than
    the failure at which learning starts (`learn_after` failures after
    `quiet_from`)."""
    start = quiet_from + options.learn_after
    return min(restart_at, start) if restart_at > 0 else start


LEARNING_SLOTS = [layout.OPT_LEARN, layout.RESTART_AT, layout.OPT_RESTART,
                  layout.RESTART_NEXT, layout.OPT_PHASE, layout.ACT_INC, layout.REDUCE_AT,
                  layout.REDUCE_GROW, layout.CONFLICT_VAR, layout.OPT_MARGIN,
                  *range(layout.LEARN_AT, layout.LEARN_AT + layout.N_LEARN_PARTS + 1)]
"""The slots of `st` that a learning state sets up for itself (`layout.new_state`):
the rest (counters, the other techniques' switches) carry over from the plain search."""


def restart(p: Problem, s: State, cutoff: int, options: Options,
            quiet_from: int = 0) -> tuple[Problem, State]:
    """The problem with the branch's nogoods added, and a state at its root
    that keeps the counters and weights of `s` and restarts after `cutoff`
    more failures (`options`: the search's, whose `restarts` 0 means no
    more); a learning state if `options` learn and their `learn_after`
    failures are reached since `quiet_from` (the failures at the first
    restart after the last solution, or 0)."""
    learned = nogoods(p, s)
    root = _root(s)
    kind = [p.kind]
    cvars = [p.cvars]
    cstart_tail: list[int] = []
    params = [p.params]
    pstart_tail: list[int] = []
    n_entries = len(p.cvars)
    n_params = len(p.params)
    for above, alternatives in learned:
        if not above:  # a value refuted at the root: gone for good
            for x, k in alternatives:
                root[x] &= ~(1 << k)
            continue
        # One constraint per scope: alternatives of a variable share it.
        groups: dict[int, list[int]] = {}
        for x, k in alternatives:
            groups.setdefault(x, []).append(k)
        # The deepest decisions first: the propagator stops at the second
        # literal not yet true, and deep decisions are the ones that change.
        prefix_vars = [x for x, _ in reversed(above)]
        prefix_vals = [k for _, k in reversed(above)]
        for x, ks in groups.items():
            scope = [x, *prefix_vars]
            rows = [v for k in ks for v in (k, *prefix_vals)]
            kind.append(np.array([NOGOOD], dtype=np.int64))
            cvars.append(np.array(scope, dtype=np.int64))
            n_entries += len(scope)
            cstart_tail.append(n_entries)
            params.append(np.array([len(ks), *rows], dtype=np.int64))
            n_params += 1 + len(rows)
            pstart_tail.append(n_params)
    n_old = len(p.kind)
    all_kind = np.concatenate(kind)
    all_cvars = np.concatenate(cvars)
    cstart = np.concatenate([p.cstart, np.array(cstart_tail, dtype=np.int64)])
    vcstart, vcons, vcnog, ventry = layout.incidence(all_kind, cstart, all_cvars, len(p.dom0))
    added = len(all_cvars) - len(p.cvars)
    new_p = p._replace(
        dom0=root,
        kind=all_kind,
        cstart=cstart,
        cvars=all_cvars,
        cshift=np.concatenate([p.cshift, np.zeros(added, dtype=np.int64)]),
        ctoff=np.concatenate([p.ctoff, np.zeros(added, dtype=np.int64)]),
        pstart=np.concatenate([p.pstart, np.array(pstart_tail, dtype=np.int64)]),
        params=np.concatenate(params),
        vcstart=vcstart,
        vcons=vcons,
        vcnog=vcnog,
        ventry=ventry,
        scratch_size=np.array([max(int(p.scratch_size[0]), int(np.diff(cstart).max()))],
                              dtype=np.int64),
        lc_start=np.concatenate([p.lc_start, np.full(len(all_kind) - n_old, p.lc_start[-1],
                                                     dtype=np.int64)]),
    )
    # Not while the search finds solutions often: the floor stops backjumps
    # under each, and clauses did not pay there (bench/RESULTS.md).
    failures = int(s.st[layout.FAILURES])
    waiting = _waiting(options) and not s.st[layout.OPT_LEARN]
    learning = waiting and failures - quiet_from >= options.learn_after
    fresh = layout.new_state(new_p, options._replace(learn_after=0) if learning else
                             layout.DEFAULT_OPTIONS)
    own = fresh.st[LEARNING_SLOTS]
    fresh.st[:] = s.st
    if learning:
        fresh.st[LEARNING_SLOTS] = own
    fresh.st[layout.PHASE] = layout.PHASE_START
    fresh.st[layout.DEPTH] = 0
    fresh.st[layout.FLOOR] = 0  # (no solution under the new root's branch yet)
    fresh.st[layout.TRAIL] = 0
    fresh.st[layout.QHEAD] = 0
    fresh.st[layout.QCOUNT] = 0
    fresh.st[layout.SHEAD] = 0
    fresh.st[layout.SCOUNT] = 0
    fresh.st[layout.OPT_PROBE] = 0  # the root was probed before the first restart
    fresh.st[layout.RESTARTS] += 1
    fresh.st[layout.LAST_CHOICE] = 0  # a new tree: no conflict yet
    if not learning:
        restart_at = failures + cutoff if options.restarts > 0 else 0
        # (`waiting` and not `learning`: fewer than `learn_after` failures
        # since `quiet_from`.) Without plain restarts, one restart (at
        # `learn_after`) at most, unless the search has found no solution yet.
        capped = waiting and (options.restarts > 0 or int(s.st[layout.SOLUTIONS]) == 0)
        fresh.st[layout.RESTART_AT] = _cap(options, restart_at, quiet_from) if capped \
            else restart_at
    fresh.weight[:n_old] = s.weight[:n_old]
    fresh.vweight[:] = s.vweight
    fresh.match[: len(p.cvars)] = s.match
    return new_p, fresh


def _root(s: State) -> np.ndarray:
    """The domains at the root: s.dom with the trail undone down to level 1's mark."""
    dom = s.dom.copy()
    mark = int(s.mark[1])
    changed = s.trail_var[mark:int(s.st[layout.TRAIL])]
    # The oldest narrowing of a variable holds its mask at the root.
    variables, oldest = np.unique(changed, return_index=True)
    dom[variables] = s.trail_mask[mark + oldest]
    return dom
