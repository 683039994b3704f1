"""Memoized counting on the dancing cells, as one resumable numba kernel: the
twin of `_cells.search_memo` (node for node, bit for bit), run where no C
compiler built that one.

The search is `cells_kernel.search` counting (`count_only`), with a memo of
the counts of subproblems after Nishino, Yasuda, Minato and Nagata's
"Dancing with Decision Diagrams" (AAAI 2017) and Knuth's DLX6, which extends
it to colours:

- A node that branches first makes the *key* of its subproblem, DLX6's
  signature: one bit per active primary item and, per secondary item that a
  live option still holds, a field of `bit_length(colours + 1)` bits: 1 while
  it is untouched, 2 + the colour's number once purified to that colour
  (`kpos` places each item's field, `kcode` gives each node's colour code). A
  key determines the live options, hence the count: an option is live iff its
  primary items are active and each of its secondary items is untouched or
  purified to its colour.
- A hash of the key picks a bucket of BUCKET entries of `table`; the whole key
  is compared. A hit adds the count stored and goes back up. After a miss the
  node keeps its key (`key[level * K]`) and, once finished, stores its count
  in an empty entry of the bucket or in place of the one whose subtree took
  the least *work* (its updates plus NODE_WEIGHT per node): the table is
  bounded, and evicting stays exact. No entry waits for an unfinished node, so
  a table of one bucket still counts (a descendant never has its ancestor's
  key: it has fewer active primary items).
- Counts are `M_WORDS` words (least significant first), summed with carry:
  `acc[(l + 1) * W]` is the count so far of the node at level l, added to its
  parent's when it is finished. A carry out of the last word ends the search
  (OVERFLOW): the driver counts again with twice the words.
- `auto` (M_MODE = MODE_AUTO) judges at `M_CHECK_AT` lookups, or once the
  lookups have cost `M_CHECK_WORK` (both doubled each time, until
  `M_AUTO_LAST` lookups) whether the work the hits saved (the work their
  subtrees had taken) reaches `M_AUTO_COST` per lookup, or one lookup in
  `M_AUTO_RATE` hits (a tiling's gains compound later); if not, memo is
  switched off (event MEMO_OFF, at the start of a node: the driver goes on
  with `cells_kernel.search`, the counts so far summed into its SOLUTIONS).
- With M_ZDD the search also builds the diagram of the solutions (DLX6's
  ZDD): `zdd[3 * z : 3 * z + 3]` = (option, lo, hi) of node z; 0 and 1 are the
  sinks. `zchain[l + 1]` is the diagram of the node at level l so far: a
  chain of its options that have solutions, the last first.
- `M_BRANCH` = BRANCH_FIRST branches on the first active primary item in
  declared order (DLX6's noMRV change), without forced moves: on a tiling the
  subproblems are then the profiles of a sweep, and the cache far smaller.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.dlx.cells_kernel import (
    _commit,
    _fewest,
    _pop_forced,
    _restore_sizes,
    _save_sizes,
    _take,
    pairs_at,
)
from csp.backends.dlx.cells_slots import (
    ACTIVE_P,
    ACTIVE_S,
    BASE,
    BRANCH_FIRST,
    BUCKET,
    COPY_RATIO,
    EXHAUSTED,
    FORCED,
    GROW,
    HEADS,
    ITM,
    LEVEL,
    LOC,
    M_AUTO_COST,
    M_AUTO_LAST,
    M_AUTO_RATE,
    M_BRANCH,
    M_BUCKETS,
    M_CHECK_AT,
    M_CHECK_WORK,
    M_COLOURS,
    M_ENTRIES,
    M_EVICTIONS,
    M_GROW_AT,
    M_HITS,
    M_KEY,
    M_KEY_WORK,
    M_LOOKUPS,
    M_MODE,
    M_SAVED,
    M_STARTED,
    M_WORDS,
    M_ZDD,
    M_ZNEED,
    M_ZNODES,
    MEMO_OFF,
    MODE_AUTO,
    MODE_OFF,
    MODE_ON,
    NODE_WEIGHT,
    NODES,
    OPT,
    OVERFLOW,
    PAUSED,
    PHASE,
    PHASE_DONE,
    PHASE_START,
    SLOT_DONE,
    TABLE_GROW,
    UPDATES,
    ZDD_GROW,
)
from csp.backends.dlx.links_kernel import _u

_FORWARD, _ADVANCE, _BACKUP, _ABORT = 0, 1, 2, 3

# uint64 constants: numba must never mix them with int64 (that gives a float).
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TAG_MASK = np.uint64(0x3FFFFFFF)
_STATE_MASK = np.uint64(3)
_DONE = np.uint64(SLOT_DONE)
_SEED = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S2, _S29, _S31, _S32, _S34 = (np.uint64(s) for s in (2, 29, 31, 32, 34))
_MAX = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def key_hash(key, n):
    """The hash of key[:n] (the C kernel's, bit for bit)."""
    h = _SEED
    for i in range(n):
        h ^= key[i]
        h *= _MIX1
        h ^= h >> _S31
    h *= _MIX2
    h ^= h >> _S29
    return h


@njit(cache=True)
def _add_words(dst, d, src, s, w):
    # dst[d:d+w] += src[s:s+w]; True on a carry out of the last word.
    carry = _ZERO
    for i in range(w):
        a = dst[d + i]
        t = a + src[s + i]
        u = t + carry
        carry = _ONE if (t < a or u < t) else _ZERO
        dst[d + i] = u
    return carry != _ZERO


@njit(cache=True)
def _set_words(dst, d, value, w):
    dst[d] = np.uint64(value)
    for i in range(1, w):
        dst[d + i] = _ZERO


@njit(cache=True)
def _purified_live(nd, sets, pairs, kcode, first_primary, x, c, ap):
    # Whether a live option gives purified secondary item x the colour of code
    # c; and how many entries of its segment were looked at.
    first = sets[_u(pairs + 2 * x)]
    end = first + sets[_u(HEADS + x)]
    for r in range(first, end):
        node = sets[_u(r)]
        if kcode[_u(node)] != c:
            continue
        fp = first_primary[_u(nd[_u(4 * node + OPT)])]
        if fp < 0:
            continue
        p = nd[_u(4 * fp + ITM)]
        if (sets[_u(pairs + 2 * p + 1)] < ap
                and nd[_u(4 * fp + LOC)] < sets[_u(pairs + 2 * p)] + sets[_u(HEADS + p)]):
            return True, r - first + 1
    return False, end - first


@njit(cache=True)
def _make_key(nd, sets, pairs, item, kpos, kcode, purified, first_primary, key, n_key, ap, as_,
              n_primary, n_items, colours, level, entered):
    # The key; a purified item found without live options at a node of the
    # path (purified[3x + 1], the level, purified[3x + 2], the node's stamp
    # entered[2 l + 1]) has none below it. Returns the items and entries looked at.
    for i in range(n_key):
        key[i] = _ZERO
    for q in range(ap):
        p = kpos[_u(item[_u(q)])]
        key[p >> 6] |= _ONE << np.uint64(p & 63)
    for q in range(n_primary, as_):
        x = item[_u(q)]
        p = kpos[_u(x)]
        if p >= 0 and sets[_u(HEADS + x)] > 0:
            key[p >> 6] |= _ONE << np.uint64(p & 63)
    work = ap + as_ - n_primary
    if not colours:
        return work
    work += n_items - as_
    for q in range(as_, n_items):
        x = item[_u(q)]
        p = kpos[_u(x)]
        c = purified[_u(3 * x)]
        dead = purified[_u(3 * x + 1)]
        if p < 0 or c == 0 or (0 <= dead <= level
                               and entered[_u(2 * dead + 1)] == purified[_u(3 * x + 2)]):
            continue
        live, looked = _purified_live(nd, sets, pairs, kcode, first_primary, x, c, ap)
        work += looked
        if live:
            key[p >> 6] |= np.uint64(c) << np.uint64(p & 63)
        else:
            purified[_u(3 * x + 1)] = level
            purified[_u(3 * x + 2)] = entered[_u(2 * level + 1)]
    return work


@njit(cache=True)
def _probe(table, key, n_key, e_size, h, buckets):
    # A hit's entry (>= 0); else -1 minus the entry to take: an empty one, or
    # the one whose subtree took the least work.
    tag = (h >> _S34) & _TAG_MASK
    b = np.int64(h & np.uint64(buckets - 1)) * BUCKET
    victim = b
    empty = False
    least = _MAX
    for i in range(b, b + BUCKET):
        at = i * e_size
        meta = table[at]
        if meta & _STATE_MASK == _DONE:
            if (meta >> _S2) & _TAG_MASK == tag:
                same = True
                for j in range(n_key):
                    if table[at + 2 + j] != key[j]:
                        same = False
                        break
                if same:
                    return i
            if not empty and table[at + 1] < least:
                victim = i
                least = table[at + 1]
        elif not empty:
            victim = i
            empty = True
    return -1 - victim


@njit(cache=True)
def _store(table, key, h, znode, work, count, c, n_key, w, buckets):
    # Put a key that is not in the table into it (count[c:c+w]); True if it
    # pushed out another entry (the one of its bucket whose subtree took the least work).
    e_size = 2 + n_key + w
    at = (-1 - _probe(table, key, n_key, e_size, h, buckets)) * e_size
    evicted = table[at] & _STATE_MASK == _DONE
    table[at] = _DONE | (((h >> _S34) & _TAG_MASK) << _S2) | (np.uint64(znode) << _S32)
    table[at + 1] = np.uint64(work)
    for j in range(n_key):
        table[at + 2 + j] = key[j]
    for j in range(w):
        table[at + 2 + n_key + j] = count[c + j]
    return evicted


@njit(cache=True)
def _mark_purified(nd, kcode, purified, cur, second):
    # Note the colour code of each secondary item of the option of node `cur`.
    nn = cur + 1
    while nn != cur:
        c = nd[_u(4 * nn + ITM)]
        if c < 0:
            nn += c
            continue
        if c >= second:
            purified[_u(3 * c)] = kcode[_u(nn)]
        nn += 1


@njit(cache=True)
def _new_znode(zdd, ms, var, lo, hi):
    z = ms[M_ZNODES]
    ms[M_ZNODES] = z + 1
    zdd[3 * z] = var
    zdd[3 * z + 1] = lo
    zdd[3 * z + 2] = hi
    return z


@njit(cache=True)
def rehash(old, fresh, ms):
    """Move the entries of table `old` into the empty table `fresh`; returns
    how many were pushed out by others (a full bucket)."""
    n_key = ms[M_KEY]
    w = ms[M_WORDS]
    e_size = 2 + n_key + w
    buckets = len(fresh) // e_size // BUCKET
    dropped = 0
    for i in range(len(old) // e_size):
        at = i * e_size
        if old[at] & _STATE_MASK == _DONE:
            key = old[at + 2:at + 2 + n_key]
            if _store(fresh, key, key_hash(key, n_key), np.int64(old[at] >> _S32),
                      np.int64(old[at + 1]), old, at + 2 + n_key, n_key, w, buckets):
                dropped += 1
    return dropped


@njit(cache=True)
def search_memo(nd, sets, item, choice, saved, saved_ap, stack, force, state, first_primary,
                kpos, kcode, purified, zdd, table, acc, key, slot, entered, zchain, ms, budget):
    """Count from the saved state with memo until an event; return the event.

    EXHAUSTED: the count is acc[base * W : (base + 1) * W] (the diagram's root
    zchain[base + 1]); PAUSED: about `budget` more nodes were entered; GROW:
    `stack` is full; MEMO_OFF: `auto` switched memo off; OVERFLOW: a count
    needs more words; ZDD_GROW: `zdd` is full; TABLE_GROW: the table holds
    M_GROW_AT entries (move them to a larger one: `rehash`).
    """
    n_primary = len(saved_ap) - 2
    n_items = len(item)
    pairs = pairs_at(n_items)
    second = sets[0]
    w = ms[M_WORDS]
    n_key = ms[M_KEY]
    e_size = 2 + n_key + w
    buckets = ms[M_BUCKETS]
    first_item = ms[M_BRANCH] == BRANCH_FIRST
    with_zdd = ms[M_ZDD] != 0
    colours = ms[M_COLOURS] != 0
    mode = ms[M_MODE]
    lookups = ms[M_LOOKUPS]
    hits = ms[M_HITS]
    entries = ms[M_ENTRIES]
    evictions = ms[M_EVICTIONS]
    gain = ms[M_SAVED]
    key_work = ms[M_KEY_WORK]
    level = state[LEVEL]
    phase = state[PHASE]
    nodes = state[NODES]
    updates = state[UPDATES]
    base = state[BASE]
    ap = state[ACTIVE_P]
    as_ = state[ACTIVE_S]
    forced = state[FORCED]
    stop_at = nodes + budget
    event = EXHAUSTED
    best = 0
    cur_choice = 0
    if phase != PHASE_START:
        return EXHAUSTED
    if ms[M_STARTED] == 0:
        ms[M_STARTED] = 1
        _set_words(acc, base * w, 0, w)
        if colours:
            for lv in range(level):
                _mark_purified(nd, kcode, purified, choice[lv], second)
    step = _FORWARD

    while True:
        if step == _FORWARD:
            if nodes >= stop_at:
                event = PAUSED
                break
            if mode == MODE_AUTO and (lookups >= ms[M_CHECK_AT] or
                                      ms[M_AUTO_COST] * lookups + key_work >= ms[M_CHECK_WORK]):
                # Does it pay? The work the hits saved against the lookups' (a
                # cost each, and the items and entries their keys looked at), or,
                # while the subtrees are small, hits in 1 of M_AUTO_RATE lookups
                # (a tiling's: its gains compound as the subtrees grow).
                if (gain >= ms[M_AUTO_COST] * lookups + key_work
                        or hits * ms[M_AUTO_RATE] >= lookups):
                    ms[M_CHECK_AT] *= 2
                    ms[M_CHECK_WORK] *= 2
                    if ms[M_CHECK_AT] > ms[M_AUTO_LAST]:
                        mode = MODE_ON
                else:
                    mode = MODE_OFF
                    event = MEMO_OFF
                    break
            if with_zdd and ms[M_ZNODES] + ms[M_ZNEED] > len(zdd) // 3:
                event = ZDD_GROW
                break
            if entries >= ms[M_GROW_AT]:
                event = TABLE_GROW
                break
            # Room to save the sizes, checked before a lookup takes an entry.
            active = ap + as_ - n_primary
            need = n_items + 1 if n_items <= COPY_RATIO * active else 2 * active
            if saved[_u(level)] + need > len(stack):
                event = GROW
                break
            if level != base or base == 0:
                nodes += 1
            mine = (level + 1) * w
            slot[level] = -1
            entered[2 * level + 1] = nodes  # the node's stamp (see _make_key)
            if with_zdd:
                zchain[level + 1] = 0
            if ap == 0:
                _set_words(acc, mine, 1, w)
                if with_zdd:
                    zchain[level + 1] = 1
                forced = 0
                step = _BACKUP
                continue
            if ap == 1:
                # The last primary item: each option left completes a solution.
                x = item[0]
                s = sets[_u(HEADS + x)]
                _set_words(acc, mine, s, w)
                nodes += s
                forced = 0
                if with_zdd:
                    z = 0
                    begin = sets[_u(pairs + 2 * x)]
                    for r in range(begin, begin + s):
                        z = _new_znode(zdd, ms, nd[_u(4 * sets[_u(r)] + OPT)], z, 1)
                    zchain[level + 1] = z
                step = _BACKUP
                continue
            _set_words(acc, mine, 0, w)
            if first_item:
                forced = 0  # no forced moves: the item is the first one left
            best, forced = _pop_forced(sets, pairs, force, ap, forced)
            if best < 0:
                if mode != MODE_OFF:
                    mykey = key[level * n_key:(level + 1) * n_key]
                    key_work += _make_key(nd, sets, pairs, item, kpos, kcode, purified,
                                          first_primary, mykey, n_key, ap, as_, n_primary,
                                          n_items, colours, level, entered)
                    lookups += 1
                    h = key_hash(mykey, n_key)
                    found = _probe(table, mykey, n_key, e_size, h, buckets)
                    if found >= 0:
                        at = found * e_size
                        hits += 1
                        gain += np.int64(table[at + 1])
                        for i in range(w):
                            acc[mine + i] = table[at + 2 + n_key + i]
                        if with_zdd:
                            zchain[level + 1] = np.int64(table[at] >> _S32)
                        forced = 0
                        step = _BACKUP
                        continue
                    slot[level] = 1
                    entered[2 * level] = updates + NODE_WEIGHT * nodes
                dead = False
                if first_item:
                    # The first item left in declared order (DLX6's noMRV).
                    for q in range(ap):
                        x = item[_u(q)]
                        if sets[_u(HEADS + x)] == 0:
                            dead = True
                            break
                        if best < 0 or x < best:
                            best = x
                else:
                    ok, forced, best = _fewest(sets, item, force, ap, forced, best)
                    dead = not ok
                if dead:
                    forced = 0
                    step = _BACKUP
                    continue
                if forced > 0:
                    forced -= 1
                    best = force[_u(forced)]
                elif sets[_u(HEADS + best)] > 1:
                    active = ap + as_ - n_primary
                    copy = n_items <= COPY_RATIO * active
                    ap, updates = _take(nd, sets, pairs, item, force, best, ap, as_, second,
                                        updates)
                    saved[_u(level + 1)], saved_ap[_u(level + 1)] = _save_sizes(
                        stack, sets, item, saved[_u(level)], copy, n_items, n_primary, ap, as_)
                    cur_choice = sets[_u(pairs + 2 * best)]
                    step = _ADVANCE
                    continue
            # A forced move (or, branching on the first item, one with a single option).
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
                if colours:
                    _mark_purified(nd, kcode, purified, cur, second)
                level += 1
                step = _FORWARD
            else:
                step = _ABORT
        elif step == _BACKUP:
            # The node at `level` is finished: store its count, add it to its parent's.
            mine = (level + 1) * w
            if slot[level] >= 0:
                mykey = key[level * n_key:(level + 1) * n_key]
                if _store(table, mykey, key_hash(mykey, n_key),
                          zchain[level + 1] if with_zdd else 0,
                          updates + NODE_WEIGHT * nodes - entered[2 * level], acc, mine, n_key, w,
                          buckets):
                    evictions += 1
                else:
                    entries += 1
                slot[level] = -1
            if _add_words(acc, level * w, acc, mine, w):
                phase = PHASE_DONE
                event = OVERFLOW
                break
            if with_zdd and level > base and zchain[level + 1] != 0:
                zchain[level] = _new_znode(zdd, ms, nd[_u(4 * choice[_u(level - 1)] + OPT)],
                                           zchain[level], zchain[level + 1])
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
    state[NODES] = nodes
    state[UPDATES] = updates
    state[ACTIVE_P] = ap
    state[ACTIVE_S] = as_
    state[FORCED] = forced
    ms[M_MODE] = mode
    ms[M_LOOKUPS] = lookups
    ms[M_HITS] = hits
    ms[M_ENTRIES] = entries
    ms[M_EVICTIONS] = evictions
    ms[M_SAVED] = gain
    ms[M_KEY_WORK] = key_work
    return event


__all__ = ["MODE_AUTO", "MODE_OFF", "MODE_ON", "key_hash", "rehash", "search_memo"]
