"""Algorithm C with sparse sets ("dancing cells") as one resumable numba kernel.

The same search as `kernel` (exact covering with colours, the minimum
remaining values rule, ties to the first item), on another data structure,
after the idea of Knuth's SSXCC and Christine Solnon's XCC with dancing cells:

- Items are numbered 0, 1, ..., primary ones first; `sets[0]` is the number
  of primary items. From `sets[HEADS]` on, `sets` holds the size of each item
  (one table, so that a level can save every size with one copy); from
  `sets[pairs_at(n_items)]` on, two entries per item: `start`, where its
  segment begins, and its place in `item`. Item `x`'s segment
  `sets[start : start + size]` holds the options that contain it (a node of
  each); the options past `size` are hidden. Hiding an option swaps its node
  to the end of each active item's segment and shrinks the size; undoing
  restores the sizes saved on a stack, O(items) per level instead of one link
  update per hidden node.
- `item` lists the items: primary ones in `item[0 : n_primary]`, secondary
  ones after. An item is active while its place is below the end of its
  region (`ap` for primary, `as_` for secondary items); covering an item (or
  purifying a coloured secondary item) swaps it past that end.
- `nd` has four int32 fields per node: ITM (the item, or `-t` in the spacer
  after an option of `t` items), LOC (the node's place in `sets`), CLR and OPT
  (the option's index).
- A branching level saves the sizes once, before its first option: all of
  them in item order (a copy) when the items are at most COPY_RATIO times the
  active ones, else the active items' (item, size) pairs; `saved_ap` records
  which (the active primary items, or -1 minus them after a copy). Measured
  with the C kernel (bench/RESULTS.md, 19): on kakuro (1,448 items) the head
  tables and the copy take 0.75x of the time of the earlier layout (each
  item's place and size just before its segment, all active sizes saved as
  pairs), 0.7x on pentominoes; copying at every level (a ratio of 16) made
  queens-12 (70 items, few of them active deep in the tree) 7% slower.
- Choosing an option checks while it hides: an active primary item left
  without options aborts the choice at once (no level is entered), and one
  left with a single option is pushed on `force`, to be chosen at the next
  level without a scan and without saving sizes.

Nodes are counted as Knuth's programs count them: one per level entered
(the root, every choice that does not empty an item, every solution); the
root of a subproblem (`choose`) is left to the search that split it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.dlx import cells_slots as slots
from csp.backends.dlx.cells_slots import (  # noqa: F401  (the names of the kernel's API)
    ACTIVE_P,
    ACTIVE_S,
    BASE,
    CLR,
    COPY_RATIO,
    EXHAUSTED,
    FORCED,
    FOUND,
    GROW,
    HEADS,
    ITM,
    LEVEL,
    LOC,
    MAX_DEPTH,
    NODES,
    OPT,
    PAUSED,
    PHASE,
    PHASE_AFTER_LEAF,
    PHASE_DONE,
    PHASE_START,
    SOLUTIONS,
    STATE_SIZE,
    UPDATES,
    new_state,
)
from csp.backends.dlx.links_kernel import _u

_FORWARD, _ADVANCE, _BACKUP, _ABORT = 0, 1, 2, 3
pairs_at = njit(cache=True)(slots.pairs_at)


@njit(cache=True)
def _hide(nd, sets, pairs, force, c, colour, check, ap, oap, oas, second, forced, updates):
    # Hide each option of item c (those without `colour` if it is > 0) from
    # every other set it is in that is still active (below oap/oas). With
    # `check`, an active primary item (below ap) left with no option stops the
    # hiding (returns False) and one left with a single option is forced.
    # `pairs`: pairs_at(n_items).
    first = sets[_u(pairs + 2 * c)]
    end = first + sets[_u(HEADS + c)]
    for r in range(first, end):
        tt = sets[_u(r)]
        if colour != 0 and nd[_u(tt * 4 + CLR)] == colour:
            continue
        nn = tt + 1
        while nn != tt:
            uu = nd[_u(nn * 4 + ITM)]
            if uu < 0:
                nn += uu  # the spacer: back to the option's first node
                continue
            p = sets[_u(pairs + 2 * uu + 1)]
            if p < (oap if uu < second else oas):
                ss = sets[_u(HEADS + uu)] - 1
                if ss <= 1 and check and p < ap and uu < second:
                    if ss == 0:
                        return False, forced, updates
                    force[_u(forced)] = uu
                    forced += 1
                vv = nd[_u(nn * 4 + LOC)]
                at = sets[_u(pairs + 2 * uu)] + ss
                last = sets[_u(at)]
                sets[_u(HEADS + uu)] = ss
                sets[_u(at)] = nn
                sets[_u(vv)] = last
                nd[_u(nn * 4 + LOC)] = at
                nd[_u(last * 4 + LOC)] = vv
                updates += 1
            nn += 1
    return True, forced, updates


@njit(cache=True)
def _deactivate(sets, pairs, item, x, end):
    # Swap item x to place end - 1 of `item` (the last active place); return
    # the new end.
    end -= 1
    p = sets[_u(pairs + 2 * x + 1)]
    other = item[_u(end)]
    item[_u(end)] = x
    item[_u(p)] = other
    sets[_u(pairs + 2 * other + 1)] = p
    sets[_u(pairs + 2 * x + 1)] = end
    return end


@njit(cache=True)
def _take(nd, sets, pairs, item, force, b, ap, as_, second, updates):
    # Make item b (primary, active) the one to branch on: inactive, and its
    # options hidden from every other set (without checks: each of them covers b).
    ap = _deactivate(sets, pairs, item, b, ap)
    updates += 1
    ok, forced, updates = _hide(nd, sets, pairs, force, b, 0, False, ap, ap, as_, second, 0,
                                updates)
    return ap, updates


@njit(cache=True)
def _commit(nd, sets, pairs, item, force, cur, ap, as_, second, forced, updates):
    # Choose option node `cur` (its branching item already taken): make its
    # other items inactive, then hide their options (keeping those of the same
    # colour for a coloured secondary item). Returns ok = False as soon as a
    # primary item is left without options.
    oap = ap
    oas = as_
    nn = cur + 1
    while nn != cur:
        c = nd[_u(nn * 4 + ITM)]
        if c < 0:
            nn += c
            continue
        p = sets[_u(pairs + 2 * c + 1)]
        if c < second:
            if p < ap:
                ap = _deactivate(sets, pairs, item, c, ap)
                updates += 1
        elif p < as_:  # a secondary item purified at a lower level is left alone
            as_ = _deactivate(sets, pairs, item, c, as_)
            updates += 1
        nn += 1
    nn = cur + 1
    while nn != cur:
        c = nd[_u(nn * 4 + ITM)]
        if c < 0:
            nn += c
            continue
        ok = True
        if c < second:
            ok, forced, updates = _hide(nd, sets, pairs, force, c, 0, True, ap, oap, oas, second,
                                        forced, updates)
        elif sets[_u(pairs + 2 * c + 1)] < oas:
            ok, forced, updates = _hide(nd, sets, pairs, force, c, nd[_u(nn * 4 + CLR)], True,
                                        ap, oap, oas, second, forced, updates)
        if not ok:
            return False, ap, as_, 0, updates
        nn += 1
    return True, ap, as_, forced, updates


@njit(cache=True)
def _pop_forced(sets, pairs, force, ap, forced):
    # A forced move: the last item pushed on `force` that is still active (-1: none).
    while forced > 0:
        forced -= 1
        b = force[_u(forced)]
        if sets[_u(pairs + 2 * b + 1)] < ap:
            return b, forced
    return -1, forced


@njit(cache=True)
def _fewest(sets, item, force, ap, forced, best):
    # The minimum remaining values rule, ties to the first item: the item to
    # branch on; items with one option left go on the force stack. ok is
    # False if an item has none (only at the root: the checks catch it elsewhere).
    t = 0x7FFFFFFF
    for k in range(ap):
        x = item[_u(k)]
        s = sets[_u(HEADS + x)]
        if s <= 1:
            if s == 0:
                return False, forced, best
            force[_u(forced)] = x
            forced += 1
        elif s < t or (s == t and x < best):
            t = s
            best = x
    return True, forced, best


@njit(cache=True)
def _save_sizes(stack, sets, item, q, copy, n_items, n_primary, ap, as_):
    # Save the sizes from stack[q], to restore before each further option of
    # the item branched on: every item's when they are few against the active
    # ones (one copy), else the active items' (item, size) pairs. Returns the
    # end and the mark for saved_ap: the active primary items, or -1 minus
    # them after a copy.
    if copy:
        for k in range(n_items):
            stack[_u(q + k)] = sets[_u(HEADS + k)]
        q += n_items
        stack[_u(q)] = as_
        return q + 1, -1 - ap
    for k in range(ap):
        x = item[_u(k)]
        stack[_u(q)] = x
        stack[_u(q + 1)] = sets[_u(HEADS + x)]
        q += 2
    for k in range(n_primary, as_):
        x = item[_u(k)]
        stack[_u(q)] = x
        stack[_u(q + 1)] = sets[_u(HEADS + x)]
        q += 2
    return q, ap


@njit(cache=True)
def _restore_sizes(sets, stack, start, end, mark, n_items, n_primary):
    # Restore the sizes that _save_sizes wrote in stack[start:end]; returns
    # the ends of the active items (ap, as_).
    if mark < 0:  # every size copied
        for k in range(n_items):
            sets[_u(HEADS + k)] = stack[_u(start + k)]
        return -1 - mark, stack[_u(end - 1)]
    for q in range(start, end, 2):
        sets[_u(HEADS + stack[_u(q)])] = stack[_u(q + 1)]
    return mark, n_primary + ((end - start) // 2 - mark)


@njit(cache=True)
def search(nd, sets, item, choice, saved, saved_ap, stack, force, state, count_only, budget):
    """Run the search from the saved state until an event; return the event.

    FOUND: a solution (or, at MAX_DEPTH, a partial one) is the options of the
    nodes `choice[:state[LEVEL]]`; PAUSED: about `budget` more nodes were
    entered; GROW: `stack` is full (grow it, call again); EXHAUSTED: done.
    With `count_only` solutions are counted without returning to Python.
    """
    n_primary = len(saved_ap) - 2
    n_items = len(item)
    pairs = pairs_at(n_items)
    second = sets[0]  # the first secondary item
    level = state[LEVEL]
    phase = state[PHASE]
    solutions = state[SOLUTIONS]
    nodes = state[NODES]
    updates = state[UPDATES]
    base = state[BASE]
    max_depth = state[MAX_DEPTH]
    ap = state[ACTIVE_P]
    as_ = state[ACTIVE_S]
    forced = state[FORCED]
    stop_at = nodes + budget
    event = EXHAUSTED
    best = 0
    cur_choice = 0
    if phase == PHASE_START:
        step = _FORWARD
    elif phase == PHASE_AFTER_LEAF:
        step = _BACKUP
    else:
        return EXHAUSTED

    while True:
        if step == _FORWARD:
            if nodes >= stop_at:
                phase = PHASE_START
                event = PAUSED
                break
            if level != base or base == 0:
                nodes += 1  # (a subproblem's root is a node of the search that split it)
            if ap == 0 or level == max_depth:
                solutions += 1
                forced = 0
                if not count_only:
                    phase = PHASE_AFTER_LEAF
                    event = FOUND
                    break
                step = _BACKUP
                continue
            if count_only and ap == 1 and level + 1 != max_depth:
                # The last primary item: every option left in its set agrees
                # with the choices so far and completes a solution. Count them
                # (as the nodes Knuth's programs would enter) without trying each.
                s = sets[_u(HEADS + item[0])]
                solutions += s
                nodes += s
                forced = 0
                step = _BACKUP
                continue
            best, forced = _pop_forced(sets, pairs, force, ap, forced)
            if best < 0:
                ok, forced, best = _fewest(sets, item, force, ap, forced, best)
                if not ok:
                    forced = 0
                    step = _BACKUP
                    continue
                if forced > 0:
                    forced -= 1
                    best = force[_u(forced)]
                else:
                    start = saved[_u(level)]
                    active = ap + as_ - n_primary
                    copy = n_items <= COPY_RATIO * active
                    if start + (n_items + 1 if copy else 2 * active) > len(stack):
                        if level != base or base == 0:
                            nodes -= 1  # this level is entered again after growing
                        phase = PHASE_START
                        event = GROW
                        break
                    ap, updates = _take(nd, sets, pairs, item, force, best, ap, as_, second,
                                        updates)
                    saved[_u(level + 1)], saved_ap[_u(level + 1)] = _save_sizes(
                        stack, sets, item, start, copy, n_items, n_primary, ap, as_)
                    cur_choice = sets[_u(pairs + 2 * best)]
                    step = _ADVANCE
                    continue
            # A forced move: `best` has one option; nothing to save, since
            # nothing is tried after it.
            ap, updates = _take(nd, sets, pairs, item, force, best, ap, as_, second, updates)
            saved[_u(level + 1)] = saved[_u(level)]
            cur_choice = sets[_u(pairs + 2 * best)]
            step = _ADVANCE
        elif step == _ADVANCE:
            cur = sets[_u(cur_choice)]
            choice[_u(level)] = cur
            ok, ap, as_, forced, updates = _commit(nd, sets, pairs, item, force, cur, ap, as_,
                                                   second, forced, updates)
            if ok:
                level += 1
                step = _FORWARD
            else:
                step = _ABORT
        elif step == _BACKUP:
            if level <= base:
                phase = PHASE_DONE
                event = EXHAUSTED
                break
            level -= 1
            cur = choice[_u(level)]
            best = nd[_u(cur * 4 + ITM)]
            cur_choice = nd[_u(cur * 4 + LOC)]
            step = _ABORT
        else:  # _ABORT: on to the next option of `best`, if any
            if cur_choice + 1 >= sets[_u(pairs + 2 * best)] + sets[_u(HEADS + best)]:
                step = _BACKUP
                continue
            ap, as_ = _restore_sizes(sets, stack, saved[_u(level)], saved[_u(level + 1)],
                                     saved_ap[_u(level + 1)], n_items, n_primary)
            cur_choice += 1
            step = _ADVANCE

    state[LEVEL] = level
    state[PHASE] = phase
    state[SOLUTIONS] = solutions
    state[NODES] = nodes
    state[UPDATES] = updates
    state[ACTIVE_P] = ap
    state[ACTIVE_S] = as_
    state[FORCED] = forced
    return event


@njit(cache=True)
def choose(nd, sets, item, choice, saved, force, state, first):
    """Force option node `first` (a node of a primary item) at the current level.

    Used to replay a prefix of choices (a subproblem): it takes the item of
    `first` and commits its option, then raises the base level so that the
    search never backtracks above it. Returns False when `first` is no longer
    available (nothing changed) or leaves a primary item without options.
    """
    second = sets[0]
    pairs = pairs_at(len(item))
    b = nd[_u(first * 4 + ITM)]
    if b < 0 or b >= second:
        return False
    ap = state[ACTIVE_P]
    as_ = state[ACTIVE_S]
    if (sets[_u(pairs + 2 * b + 1)] >= ap
            or nd[_u(first * 4 + LOC)] >= sets[_u(pairs + 2 * b)] + sets[_u(HEADS + b)]):
        return False
    level = state[LEVEL]
    updates = state[UPDATES]
    ap, updates = _take(nd, sets, pairs, item, force, b, ap, as_, second, updates)
    saved[_u(level + 1)] = saved[_u(level)]
    choice[_u(level)] = first
    ok, ap, as_, forced, updates = _commit(nd, sets, pairs, item, force, first, ap, as_, second,
                                           state[FORCED], updates)
    state[LEVEL] = level + 1
    state[BASE] = level + 1
    state[UPDATES] = updates
    state[ACTIVE_P] = ap
    state[ACTIVE_S] = as_
    state[FORCED] = forced
    return ok


@njit(cache=True)
def build(start, items, colours, n_items, n_primary):
    """The arrays nd, sets, item, first_primary of the structure (see `cells`)."""
    n_options = len(start) - 1
    pairs = pairs_at(n_items)
    sets = np.zeros(pairs + 2 * n_items + len(items), dtype=np.int32)
    sets[0] = n_primary
    for j in range(len(items)):
        sets[HEADS + items[j]] += 1  # counts first
    end = pairs + 2 * n_items
    item = np.empty(n_items, dtype=np.int32)
    for i in range(n_items):
        sets[pairs + 2 * i] = end
        end += sets[HEADS + i]
        sets[HEADS + i] = 0
        sets[pairs + 2 * i + 1] = i
        item[i] = i
    nd = np.zeros(4 * (1 + len(items) + n_options), dtype=np.int32)
    nd[OPT] = -1
    first_primary = np.full(n_options, -1, dtype=np.int32)
    q = 1
    for k in range(n_options):
        first = q
        for j in range(start[k], start[k + 1]):
            x = items[j]
            at = sets[pairs + 2 * x] + sets[HEADS + x]
            sets[at] = q
            sets[HEADS + x] += 1
            nd[4 * q + ITM] = x
            nd[4 * q + LOC] = at
            nd[4 * q + CLR] = colours[j]
            nd[4 * q + OPT] = k
            if items[j] < n_primary and first_primary[k] < 0:
                first_primary[k] = q
            q += 1
        nd[4 * q + ITM] = first - q
        nd[4 * q + OPT] = -1
        q += 1
    return nd, sets, item, first_primary
