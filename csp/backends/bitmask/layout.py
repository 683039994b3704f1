"""The data of the bitmask kernel: what every one of its modules reads.

`Problem` holds the arrays of a compiled model (`csp.backends.bitmask.compile`
fills them), `State` the arrays of one search over it (`new_state`), with its
scalars in `State.st` at the slots named here. Also here: the constraint kinds
(one propagator each, see `csp.backends.bitmask.propagate`), the phases and
events of the resumable search, the switchable techniques (`Options`), and
`jit`, the one way every kernel function is compiled.

All fields of both tuples are int64 arrays, whatever the model: so the kernel
is compiled once, for those types, and numba's on-disk cache is always hit.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)

_NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}
"""The kernels allocate nothing, so they are compiled without numba's reference
counting: with it, every call (and every inlined one) of a function that takes
the `Problem` and `State` tuples increfs and decrefs each of their 41 arrays
atomically, a third of the search time on the large sudokus."""
jit: Any = functools.partial(njit, cache=True, **_NO_REFCOUNTS)
"""How every kernel function is compiled: `@jit`, or `@jit(inline="always")` for
the small ones that the search calls per value, or learning per literal (numba
inlines them where they are called, whichever module holds them). A call that
is not inlined passes each array of `Problem` and `State` as seven words, some
330 in all: inlining the four that learning calls per literal (`_visit`,
`add_neg`, `add_pos`, `_push`) made a conflict a fifth cheaper (bench/RESULTS.md,
stop 39). Inlining the explanations too gained 8% more for four times the
compile time: not done."""

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
        "scratch_size",  # [the scratch a propagator needs: the largest scope, or more]
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
        "scratch",  # a propagator's own: supports of a table, layers of an automaton, ...
        "weight",  # per constraint: 1 + the number of times it failed (dom/wdeg)
        "vweight",  # per variable: its degree + the failures of its constraints (wdeg)
        "first",  # per level: the alternatives it started with (rem before any was tried)
        "match",  # per entry of an all-different: its value in a maximum matching, or -1
        "work",  # all-different scratch: 6 blocks of 64 (W_OWNER ... W_DOM below)
        "strong",  # all-differents whose strong reasoning is due (circular; see OPT_DEFER)
        "instrong",  # 1 if the all-different is in `strong`
        "places",  # per (all-different c of at most 64 cells, common bit b), at c * 64 + b:
                   # the positions in c of the cells that can take b, as a bit mask
                   # (kept up to date by _narrow and _undo; see OPT_COUNTS)
        "values",  # per all-different c: the values with places in c at the root
                   # (set with `places`; a superset of them below it)
        "changed",  # per all-different c: the values whose places in c changed since
                    # its intersections last ran to the end (with OPT_COUNTS)
        "learn",  # learning's arrays, one after the other (`part`; one element without it)
        "st",  # the scalars below
    ],
)

# Constraint kinds (as in compile): one propagator each (`propagate`).
ALLDIFF, LINEAR, SUBSETSUM, TABLE, NOGOOD, NOTEQUAL = 0, 1, 2, 3, 4, 5
CLAUSE, PARITY, REIFIED_LINEAR, REIFIED_EQUAL = 6, 7, 8, 9  # logic over literals (`clauses`,
# `reified`): a literal is "variable v takes a value of mask m"
ELEMENT, COUNT, REGULAR, CIRCUIT, CONNECTED = 10, 11, 12, 13, 14
OP_EQ, OP_LE, OP_GE, OP_NE = 0, 1, 2, 3  # comparisons of sums and counts

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
# Learning (see `csp.backends.bitmask.analyze`).
REASON = 27  # the reason recorded with each narrowing: a constraint c >= 0, an
# overlap k of two all-differents as n_constraints + k, DECISION, or -2 - i (clause i)
CONFLICT_VAR = 28  # the variable whose narrowing wiped it out (in the failing run), or -1
OPT_LEARN = 29  # 1: learn from conflicts, from the first (`learn.start_state` waits)
CLHEAD = 30  # the trail position up to which the clauses were propagated
N_CLAUSES = 31  # clauses in the database
ARENA = 32  # literals used in cl_lits
FLOOR = 33  # no backjump goes above this level: the deepest one with solutions under it
CONFLICTS = 34  # conflicts analysed
LEARNED = 35  # clauses learned
BACKJUMPS = 36  # backjumps over one level or more
ACT_INC = 37  # the activity bump (grows, for decay)
RESTART_NEXT = 38  # the conflict count at the next restart (with OPT_MARGIN: the
# first at which one may come; 0: none)
LUBY_I = 39  # restarts made by learning so far (the index into Luby's sequence)
OPT_RESTART = 40  # conflicts between restarts at least (Luby: per unit of its sequence;
# 0: no restarts)
REDUCE_AT = 41  # the number of clauses at which the database is reduced
OPT_ACTIVITY = 42  # 1: branch on activity once learning is on
DELETED = 43  # clauses deleted by reductions
AN_LEVEL = 44  # an analysis: the conflict's level
AN_COUNTER = 45  # ... the literals of that level in the conflict set, not yet resolved
AN_OUT = 46  # ... the literals of the learned clause so far (in lbuf)
AN_TOUCHED = 47  # ... the variables marked (in touched)
AN_WORK = 48  # ... the steps it took (an analysis past MAX_WORK is given up)
WORK = 49  # the steps of every analysis so far (explanations, the trail walked)
WORK_STOP = 50  # this call of the kernel pauses once WORK reaches it (`search`)
OPT_MINIMISE = 51  # 1: learned clauses are minimised (`minimise`)
AN_CHECK = 52  # minimisation: 1 + the trail entry whose explanation is being checked, or 0
AN_FAIL = 53  # ... 1 once a literal of that explanation is not implied by the clause
MINIMISED = 54  # literals minimisation (and `implied`) removed from learned clauses
OPT_PHASE = 55  # a variable's decision tries first: 1 its saved value (phase saving), 2 its
# value least active in conflicts (VALUE_ACTIVITY), 0 its lowest value
REDUCE_GROW = 56  # clauses added to REDUCE_AT after each reduction (0: half as many again)
OPT_MARGIN = 57  # restarts when LBD_FAST is over this % of LBD_SLOW (0: Luby's sequence)
LBD_FAST = 58  # the learned clauses' literal block distance: moving average of the last ~32,
LBD_SLOW = 59  # ... and of the last ~4,096 (both x 65,536; `analyze.average_lbd`)
OPT_CLAUSES_LAST = 60  # 1: the learned clauses run once the constraints' queues are empty
# (0: first, whenever the trail has grown; `propagate`)
OPT_IMPLIED = 61  # 1: a learned clause's x = k is dropped where another of its literals
# implies it (`minimise.drop_implied`)
LEARN_AT = 62  # st[LEARN_AT + k]: where learning's array k (L_*) starts in State.learn
STATE_SIZE = LEARN_AT + 22 + 1  # (N_LEARN_PARTS, below, + 1)

# Learning's arrays, packed into the one field State.learn: the kernel's calls
# pass every array of State (seven words each), and 19 more fields cost the
# searches without learning up to a fifth of their time (N queens,
# bench/bench_learning_cost.py). `part(s, L_...)` is the array, as a view.
L_TRAIL_NEW = 0  # per narrowing: the new mask
L_TRAIL_REASON = 1  # per narrowing: its reason (see REASON below)
L_TRAIL_LEVEL = 2  # per narrowing: the decision level it was made at
L_TRAIL_PREV = 3  # per narrowing: the previous narrowing of the same variable, or -1
L_VLAST = 4  # per variable: its last narrowing on the trail, or -1
L_AVAR = 5  # per atom (voff[x] + k: "x takes its k-th value"): x
L_SEEN_NEG = 6  # per variable, in an analysis: its literals x != k in the conflict set
L_SEEN_POS = 7  # ... and x = k
L_TOUCHED = 8  # the variables an analysis marked (to clear them)
L_LBUF = 9  # an analysis: the learned clause's literals, then their levels
L_ACTIVITY = 10  # per variable: its activity (bumped per conflict it takes part in)
L_CL_LITS = 11  # the clause database: every clause's literals, one after the other
L_CL_START = 12  # per clause: its first literal
L_CL_LEN = 13  # per clause: its length (0: deleted)
L_CL_LBD = 14  # per clause: its literal block distance when learned
L_CL_USED = 15  # per clause: the conflict count when it last took part in an analysis
L_WHEAD = 16  # per literal: its first watch (2 * clause + which of the two), or -1
L_WNEXT = 17  # per watch: the next watch of the same literal, or -1
L_EWORK = 18  # scratch of the explanations (matchings)
L_PHASE = 19  # per variable: its value (one bit) when it was last fixed and undone, or 0
L_AACT = 20  # per atom x = k: its activity in conflicts (bumped when a learned clause has x != k)
L_ADMARK = 21  # per constraint, in `minimise.drop_implied`: the (common) values k of its y != k
N_LEARN_PARTS = 22
assert STATE_SIZE == LEARN_AT + N_LEARN_PARTS + 1

DECISION = -1  # the reason of a decision

COUNTS_OFF = 0  # every narrowing queues the singles of the variable's all-differents
COUNTS_STRONG = 1  # a narrowing that fixes no cell and leaves every removed value in two
# places or more queues only the all-different's (deferred) strong reasoning
COUNTS_NONE = 2  # ... queues nothing (no strong reasoning is on)

WDEG_OFF, WDEG_TIES, WDEG_RATIO = 0, 1, 2

PHASE_SAVING, VALUE_ACTIVITY = 1, 2  # values of st[OPT_PHASE]

PHASE_START = 0  # propagate the root
PHASE_CHOOSE = 1  # the state is propagated: branch, or report a solution
PHASE_NEXT = 2  # try the next value at level DEPTH (after a failure or a solution)
PHASE_DONE = 3
PHASE_PROBE = 4  # failed-value probing at the root, resumable (a slice may end in it)
PHASE_CONFLICT = 5  # learning: the propagation at level DEPTH failed, to be analysed (a
# slice may end between the analyses of a cascade of conflicts, `analyze.on_conflict`)

EXHAUSTED, FOUND, PAUSED = 0, 1, 2  # events, as in csp.backends.base
RESTART = 3  # the kernel asks for a restart (`learn.restart`), at PHASE_NEXT


Options = namedtuple("Options", ["matching", "locked", "probe", "wdeg", "places", "restarts",
                                 "defer", "counts", "last", "learn", "learn_after",
                                 "learn_restart", "max_clauses", "max_literals", "activity",
                                 "minimise", "phase", "reduce_first", "reduce_grow",
                                 "restart_margin", "value_activity", "learn_rare",
                                 "clauses_last", "implied"],
                     defaults=[True, True, True, WDEG_TIES, True, 0, True, True, False,
                               False, 0, 100, 0, 0, True, False, True, 0, 0, 0, True, 0, True,
                               False])
"""The techniques of the kernel, each switchable (all on by default)."""
DEFAULT_OPTIONS = Options()


def new_state(p: Problem, options: Options = DEFAULT_OPTIONS) -> State:
    """Fresh search state for problem `p`, at the root. A learning state
    learns from its first failure: learning that waits for `learn_after`
    failures starts as the plain search (`learn.start_state`)."""
    if options.learn and options.learn_after > 0:
        raise ValueError("a learning state learns from its first failure: "
                         "learning that waits starts with learn.start_state")
    n = len(p.dom0)
    n_cons = len(p.kind)
    trail = int(p.voff[-1]) + n + 1  # each narrowing removes a value along a branch
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[OPT_MATCHING] = int(options.matching)
    st[OPT_LOCKED] = int(options.locked)
    st[OPT_PROBE] = int(options.probe)
    st[OPT_WDEG] = int(options.wdeg)
    st[OPT_PLACES] = int(options.places)
    # Learning restarts by itself (`analyze.maybe_restart`), keeping its clauses.
    st[RESTART_AT] = 0 if options.learn else int(options.restarts)
    st[OPT_DEFER] = int(options.defer)
    st[OPT_LAST] = int(options.last)
    st[OPT_LEARN] = int(options.learn)
    st[OPT_RESTART] = int(options.learn_restart)
    # (None, the job's choice, is made by `BitmaskSearch`: a state made for
    # no job restarts at Luby's sequence.)
    st[OPT_MARGIN] = int(options.restart_margin or 0)
    st[RESTART_NEXT] = int(options.learn_restart)
    st[OPT_ACTIVITY] = int(options.activity)
    st[OPT_MINIMISE] = int(options.minimise)
    st[OPT_CLAUSES_LAST] = int(options.clauses_last)
    st[OPT_IMPLIED] = int(options.implied)
    st[OPT_PHASE] = (0 if not options.learn
                     else PHASE_SAVING if options.phase is not False  # (None: as on)
                     else VALUE_ACTIVITY if options.value_activity else 0)
    st[ACT_INC] = 1 << 20
    st[CONFLICT_VAR] = -1
    n_atoms = int(p.voff[-1])
    # The database is bounded (clauses and literals): when it is full it is
    # reduced (`clauses.reduce`), and a clause that still does not fit is not kept.
    # Unless the options bound it (0: no bound given), a small problem gets a
    # database to its size (4 clauses of 64 literals per atom at most): its
    # arrays are made and copied per search, and the largest database costs a
    # 9x9 sudoku ten times its search.
    n_clauses = int(options.max_clauses) or min(1 << 16, max(1024, 4 * n_atoms))
    n_lits = int(options.max_literals) or min(1 << 22, 64 * n_clauses)
    if not options.learn:
        n_clauses = n_lits = 1
    # The first reduction: at `reduce_first` clauses, or a quarter of the database if fewer.
    st[REDUCE_AT] = max(min(int(options.reduce_first) or n_clauses, n_clauses // 4), 1)
    st[REDUCE_GROW] = int(options.reduce_grow)
    big = n + 1 if options.learn else 1
    learning_trail = trail if options.learn else 1
    atoms = n_atoms + 1 if options.learn else 1
    parts = [
        np.zeros(learning_trail, dtype=np.int64),  # trail_new
        np.zeros(learning_trail, dtype=np.int64),  # trail_reason
        np.zeros(learning_trail, dtype=np.int64),  # trail_level
        np.zeros(learning_trail, dtype=np.int64),  # trail_prev
        np.full(big, -1, dtype=np.int64),  # vlast
        (np.repeat(np.arange(n, dtype=np.int64), np.diff(p.voff)) if options.learn
         else np.zeros(1, dtype=np.int64)),  # avar
        np.zeros(big, dtype=np.int64),  # seen_neg
        np.zeros(big, dtype=np.int64),  # seen_pos
        np.zeros(big, dtype=np.int64),  # touched
        np.zeros(2 * (atoms + 1), dtype=np.int64),  # lbuf
        np.zeros(big, dtype=np.int64),  # activity
        np.zeros(n_lits, dtype=np.int64),  # cl_lits
        np.zeros(n_clauses, dtype=np.int64),  # cl_start
        np.zeros(n_clauses, dtype=np.int64),  # cl_len
        np.zeros(n_clauses, dtype=np.int64),  # cl_lbd
        np.zeros(n_clauses, dtype=np.int64),  # cl_used
        np.full(2 * atoms, -1, dtype=np.int64),  # whead
        np.full(2 * n_clauses, -1, dtype=np.int64),  # wnext
        np.zeros(7 * 64 if options.learn else 1, dtype=np.int64),  # ework
        np.zeros(big, dtype=np.int64),  # phase
        np.zeros(atoms, dtype=np.int64),  # aact
        np.zeros(max(n_cons, 1) if options.learn else 1, dtype=np.int64),  # admark
    ]
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
        scratch=np.zeros(int(p.scratch_size[0]) + 1, dtype=np.int64),
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
        learn=_pack_learning(st, parts),
        st=st,
    )


def _pack_learning(st: np.ndarray, parts: list[np.ndarray]) -> np.ndarray:
    """Learning's arrays (in the order of the L_* numbers) one after the
    other, their starts in st[LEARN_AT:]. Without learning, nothing reads or
    writes them: one element, and every part empty."""
    assert len(parts) == N_LEARN_PARTS
    if not st[OPT_LEARN]:
        return np.zeros(1, dtype=np.int64)
    st[LEARN_AT] = 0
    st[LEARN_AT + 1:LEARN_AT + 1 + N_LEARN_PARTS] = np.cumsum([len(a) for a in parts])
    return np.concatenate(parts)


def learning_array(s: State, k: int) -> np.ndarray:
    """Learning's array k (an L_* number) of state `s`, from Python."""
    return s.learn[s.st[LEARN_AT + k]:s.st[LEARN_AT + k + 1]]


@jit(inline="always")
def part(s, k):
    """Learning's array k (an L_* number), as a view into State.learn."""
    return _view(s.learn, s.st[LEARN_AT + k], s.st[LEARN_AT + k + 1])


@intrinsic
def _view(typingctx, array, start, stop):
    """array[start:stop] for 0 <= start <= stop <= len(array), as a slice
    would be without clamping its bounds: a slice's clamping is some twenty
    instructions and four branches, and learning takes its parts thousands
    of times a conflict (bench/RESULTS.md, stop 41). `new_state` sets the
    bounds of every part, so that nothing needs clamping."""
    sig = array(array, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        whole = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(signature.return_type)(context, builder)
        populate_array(view,
                       data=builder.gep(whole.data, [args[1]]),
                       shape=cgutils.pack_array(builder, [builder.sub(args[2], args[1])]),
                       strides=whole.strides,
                       itemsize=whole.itemsize,
                       meminfo=whole.meminfo,
                       parent=whole.parent)
        return view._getvalue()

    return sig, codegen


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


# Blocks of State.work, 64 slots each: the matching of an all-different
# (`matching`) and its intersections (`locked`) use them as scratch.
W_OWNER, W_REACH, W_PREV, W_QUEUE, W_OPEN, W_DOM = 0, 64, 128, 192, 256, 320
