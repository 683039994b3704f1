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

The kernel's modules, each one job, in the order they build on each other:

    layout        Problem and State (the arrays), the slots of `st`, the
                  constraint kinds, Options, `jit` (how all is compiled)
    bits          popcount, lowest, highest: LLVM intrinsics
    domains       narrow (trail, wake, count places), undo, value maps
    alldifferent  singles, then the strong reasoning: matching, locked
    matching      all-different by matching (Regin), over bit masks
    locked        intersections of all-differents, steps L1 to L8
    sums          linear bounds, != on sums, subset tables for all-different sums
    tables        allowed tuples (supports), forbidden tuples (nogoods)
    notequal      x != y
    clauses       logic over literals ("x takes a value of mask m"): clauses, parity
    reified       a literal equal to the truth of a sum, or of x == y
    element       y == a[i]
    count         how many of x equal t, compared with k (GlobalCardinality too)
    regular       a word of an automaton: the layered graph filtered both ways
    circuit       one circuit through every node: no sub-tour
    connected     the nodes set to 1 are connected: components, articulation points
    propagate     the queues to a fixpoint: one propagator per kind
    branch        the next choice (fewest alternatives, wdeg), last conflict
    explain       learning: why each narrowing on the trail happened (literals)
    learned       learning: the learned clauses' database, two watched literals
    minimise      learning: drop the learned literals the others imply
    analyze       learning: first-UIP analysis, backjumps, restarts
    search        the resumable loop: root, probing, branch, backtrack

To add a propagator (say `nvalue`):

1. `layout`: a new kind number, after the last (`NVALUE = 15`).
2. `compile` (or `compile_globals`): lower the constraint to its entries
   (`cstart`, `cvars`, with their value maps into the constraint's common
   space, `cshift`/`tmap`) and its parameters (`params[pstart[c]:pstart[c +
   1]]`), in a layout the new module's docstring states.
3. A module named for it (`nvalue.py`) with `@jit def nvalue(p, s, c)`:
   read masks from `s.dom`, narrow only through `domains.narrow`, run to its
   own fixpoint and return False on a wipe-out. It imports `csp._numba_cache`
   first, as every kernel module does: that import puts it in the kernel's
   cache stamp, so an edit to it recompiles every kernel that inlines it.
   Scratch arrays it needs go in `State.scratch` (`_Builder.need_scratch`).
4. `propagate`: one branch, `elif kind == NVALUE: ok = nvalue(p, s, c)`.
5. Learning explains its narrowings generically (the literals of its scope,
   `explain.generic`): that is sound as long as it reads and narrows only
   its own scope's variables. A precise explanation is one more branch in
   `explain.entry` and `explain.conflict`.
6. If it should wake on fewer events than every narrowing (as NOGOOD wakes
   only when a variable is fixed), say so in `layout.incidence` and
   `domains.narrow`.
7. Tests: the new kind on `bitmask` against brute force, one propagator at
   a time (tests/test_bitmask_propagators.py), and against another backend
   and a known count (tests/test_bitmask.py); its nodes in bench/.
8. The capability it serves in `BitmaskBackend.capabilities`, and the
   tables of docs/reference/model-language.md.
"""

from __future__ import annotations

from csp.backends.bitmask.layout import DEFAULT_OPTIONS, Options, Problem, State, new_state
from csp.backends.bitmask.search import search

__all__ = ["DEFAULT_OPTIONS", "Options", "Problem", "State", "new_state", "search"]
