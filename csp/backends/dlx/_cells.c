/* The dancing-cells kernel of `cells_kernel`, compiled ahead of time.
 *
 * The same functions with the same arguments, state slots, events and counts
 * as the numba kernel in cells_kernel.py (read its docstring for the data
 * structure); this file is a transliteration of it, so that a process that
 * only runs Algorithm C on sparse sets never imports numba. Arrays arrive
 * through the buffer protocol: int32 for the structure and the stacks, int64
 * for `state` and the family tables, all C-contiguous.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#define NOINLINE __declspec(noinline)
#else
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#endif

/* An index known to be non-negative, widened without sign extension. */
#define U(x) ((size_t)(uint32_t)(x))

/* Node fields. */
enum { ITM = 0, LOC = 1, CLR = 2, OPT = 3 };

/* Slots of `state` (cells_kernel). */
enum {
    LEVEL = 0, PHASE = 1, SOLUTIONS = 2, NODES = 3, UPDATES = 4, BASE = 5,
    MAX_DEPTH = 6, ACTIVE_P = 7, ACTIVE_S = 8, FORCED = 9, STATE_SIZE = 10
};
enum { PHASE_START = 0, PHASE_AFTER_LEAF = 1, PHASE_DONE = 3 };
/* Events (csp.backends.base, plus GROW). */
enum { EXHAUSTED = 0, FOUND = 1, PAUSED = 2, GROW = 3 };
enum { FORWARD, ADVANCE, BACKUP, ABORT };

/* Slots of a family's `batch` array and columns of `out` (batch.py). */
enum { PUZZLE = 0, STARTED = 1 };
enum { OUT_SOLUTIONS = 0, OUT_NODES = 1, OUT_UPDATES = 2, OUT_DONE = 3, OUT_SIZE = 4 };

/* A branching level copies every item's size (instead of the active items'
 * (item, size) pairs) when n_items <= COPY_RATIO * its active items
 * (cells_kernel.COPY_RATIO). */
#define COPY_RATIO 4

typedef struct {
    int32_t *nd, *sets, *item, *choice, *saved, *saved_ap, *stack, *force;
    int64_t *state;
    Py_ssize_t n_stack;    /* entries of `stack` */
    Py_ssize_t n_primary;  /* len(saved_ap) - 2 */
    Py_ssize_t n_items;    /* len(item) */
} Cells;

/* The heads of the items (cells_kernel): from sets[HEADS] on, each item's
 * size; from sets[pairs_at(n_items)] on, two entries per item: the place of
 * its first entry in `sets` (its segment), its place in `item`. */
enum { HEADS = 4 };

static inline int64_t pairs_at(int64_t n_items)
{
    return HEADS + n_items + (n_items & 1);
}

typedef struct {
    int32_t *size, *place, *start;
} Heads;

static inline Heads heads(int32_t *sets, int64_t n_items)
{
    int32_t *pairs = sets + pairs_at(n_items);
    Heads h = {sets + HEADS, pairs + 1, pairs};
    return h;
}

/* -- The kernel (cells_kernel._hide, _deactivate, _take, _commit, search, choose) -- */

/* Hide the options of item c (those without `colour` if it is nonzero) from
 * every other active set; with `check`, stop (return 0) at an active primary
 * item left without options and force one left with a single option. */
static inline int hide(int32_t *restrict nd, int32_t *restrict sets, Heads h,
                       int32_t *restrict force, int32_t c, int32_t colour, int check, int64_t ap,
                       int64_t oap, int64_t oas, int32_t second, int64_t *forced,
                       int64_t *updates)
{
    /* Counters and bounds in locals (the stores into the arrays cannot touch
     * them), indices widened unsigned (never negative here: no sign extension).
     * Measured: 6x10 pentominoes 13% faster than plain indexing. */
    int32_t *restrict size = h.size;
    const int32_t *restrict place = h.place, *restrict start = h.start;
    const int32_t first = start[2 * U(c)], end = first + size[U(c)], ap32 = (int32_t)ap;
    const int32_t limit_p = (int32_t)oap, limit_s = (int32_t)oas;
    int64_t done = 0, pushed = *forced;
    for (int32_t r = first; r < end; r++) {
        const int32_t tt = sets[r];
        if (colour != 0 && nd[tt * 4 + CLR] == colour)
            continue;
        int32_t nn = tt + 1;
        while (nn != tt) {
            int32_t *node = nd + 4 * U(nn);
            const int32_t uu = node[ITM];
            if (uu < 0) {
                nn += uu;  /* the spacer: back to the option's first node */
                continue;
            }
            const int32_t p = place[2 * U(uu)];
            if (p < (uu < second ? limit_p : limit_s)) {
                const int32_t ss = size[U(uu)] - 1;
                if (check && ss <= 1 && p < ap32 && uu < second) {
                    if (ss == 0) {
                        *updates += done;
                        *forced = pushed;
                        return 0;
                    }
                    force[pushed++] = uu;
                }
                const int32_t vv = node[LOC];
                const int32_t at = start[2 * U(uu)] + ss;
                const int32_t last = sets[U(at)];
                size[U(uu)] = ss;
                sets[U(at)] = nn;
                sets[U(vv)] = last;
                node[LOC] = at;
                nd[4 * U(last) + LOC] = vv;
                done++;
            }
            nn++;
        }
    }
    *updates += done;
    *forced = pushed;
    return 1;
}

/* `hide` for a coloured secondary item, compiled apart from the search loop
 * (`commit` is inlined there). Measured against the previous kernel (heads
 * inside the segments, `commit` a function of its own), in one process: with
 * `commit` a function of its own and the new heads, kakuro took 0.71x but
 * sudoku (Inkala's hardest minus 4 givens) 1.18x and queens-12 1.04x; with
 * everything inlined into `search`, 0.87x, 1.01x and 0.96x; so, with only
 * this one apart, 0.75x, 1.01x and 0.95x. */
static NOINLINE int purify(int32_t *nd, int32_t *sets, Heads h, int32_t *force, int32_t c,
                           int32_t colour, int64_t ap, int64_t oap, int64_t oas, int32_t second,
                           int64_t *forced, int64_t *updates)
{
    return hide(nd, sets, h, force, c, colour, 1, ap, oap, oas, second, forced, updates);
}

/* Swap item x to the last active place below `end`; return the new end. */
static inline int64_t deactivate(int32_t *place, int32_t *item, int32_t x, int64_t end)
{
    end--;
    int32_t p = place[2 * U(x)];
    int32_t other = item[end];
    item[end] = x;
    item[p] = other;
    place[2 * U(other)] = p;
    place[2 * U(x)] = (int32_t)end;
    return end;
}

/* Make primary item b the one to branch on: inactive, its options hidden. */
static inline int64_t take(int32_t *nd, int32_t *sets, Heads h, int32_t *item, int32_t *force,
                           int32_t b, int64_t ap, int64_t as_, int32_t second, int64_t *updates)
{
    int64_t unused = 0;
    ap = deactivate(h.place, item, b, ap);
    (*updates)++;
    hide(nd, sets, h, force, b, 0, 0, ap, ap, as_, second, &unused, updates);
    return ap;
}

/* Choose option node `cur` (its branching item already taken). Returns 0 as
 * soon as a primary item is left without options (then *forced is 0). */
static ALWAYS_INLINE int commit(int32_t *nd, int32_t *sets, Heads h, int32_t *item,
                                int32_t *force, int32_t cur, int64_t *ap, int64_t *as_,
                                int32_t second, int64_t *forced, int64_t *updates)
{
    int64_t oap = *ap, oas = *as_;
    int32_t nn = cur + 1;
    while (nn != cur) {
        int32_t c = nd[nn * 4 + ITM];
        if (c < 0) {
            nn += c;
            continue;
        }
        int32_t p = h.place[2 * U(c)];
        if (c < second) {
            if (p < *ap) {
                *ap = deactivate(h.place, item, c, *ap);
                (*updates)++;
            }
        } else if (p < *as_) {  /* a secondary item purified at a lower level is left alone */
            *as_ = deactivate(h.place, item, c, *as_);
            (*updates)++;
        }
        nn++;
    }
    nn = cur + 1;
    while (nn != cur) {
        int32_t c = nd[nn * 4 + ITM];
        if (c < 0) {
            nn += c;
            continue;
        }
        int ok = 1;
        if (c < second)
            ok = hide(nd, sets, h, force, c, 0, 1, *ap, oap, oas, second, forced, updates);
        else if (h.place[2 * U(c)] < oas) {
            const int32_t colour = nd[nn * 4 + CLR];
            if (colour == 0)
                ok = hide(nd, sets, h, force, c, 0, 1, *ap, oap, oas, second, forced, updates);
            else
                ok = purify(nd, sets, h, force, c, colour, *ap, oap, oas, second, forced,
                            updates);
        }
        if (!ok) {
            *forced = 0;
            return 0;
        }
        nn++;
    }
    return 1;
}

/* A forced move: the last item pushed on `force` that is still active (-1: none). */
static ALWAYS_INLINE int32_t pop_forced(const int32_t *force, Heads h, int64_t ap,
                                        int64_t *forced)
{
    while (*forced > 0) {
        int32_t b = force[--*forced];
        if (h.place[2 * U(b)] < ap)
            return b;
    }
    return -1;
}

/* Minimum remaining values, ties to the first item: the item to branch on
 * (-1 if every one has a single option); items with one option left go on
 * the force stack. Returns 0 if an item has none. */
static ALWAYS_INLINE int fewest(const int32_t *size, const int32_t *item, int32_t *force,
                                int64_t ap, int64_t *forced, int32_t *best)
{
    int32_t t = 0x7FFFFFFF;
    for (int64_t q = 0; q < ap; q++) {
        int32_t x = item[q];
        int32_t s = size[U(x)];
        if (s <= 1) {
            if (s == 0)
                return 0;
            force[(*forced)++] = x;
        } else if (s < t || (s == t && x < *best)) {
            t = s;
            *best = x;
        }
    }
    return 1;
}

/* Save the sizes from stack[q], to be restored before each further option of
 * the item branched on: every item's when they are few against the active
 * ones (`copy`), else the active items' (item, size) pairs. Returns the end;
 * *mark (saved_ap) is the active primary items, or -1 minus them after a copy. */
static ALWAYS_INLINE int64_t save_sizes(int32_t *stack, const int32_t *size, const int32_t *item,
                                        int64_t q, int copy, int64_t n_items, int64_t n_primary,
                                        int64_t ap, int64_t as_, int32_t *mark)
{
    if (copy) {
        for (int64_t i = 0; i < n_items; i++)
            stack[q + i] = size[i];
        q += n_items;
        stack[q++] = (int32_t)as_;
        *mark = (int32_t)(-1 - ap);
    } else {
        for (int64_t i = 0; i < ap; i++) {
            int32_t x = item[i];
            stack[q] = x;
            stack[q + 1] = size[U(x)];
            q += 2;
        }
        for (int64_t i = n_primary; i < as_; i++) {
            int32_t x = item[i];
            stack[q] = x;
            stack[q + 1] = size[U(x)];
            q += 2;
        }
        *mark = (int32_t)ap;
    }
    return q;
}

/* Restore the sizes that save_sizes wrote in stack[start:end], and the ends
 * of the active items (*ap, *as_). */
static ALWAYS_INLINE void restore_sizes(int32_t *size, const int32_t *stack, int64_t start,
                                        int64_t end, int32_t mark, int64_t n_items,
                                        int64_t n_primary, int64_t *ap, int64_t *as_)
{
    if (mark < 0) {  /* every size copied */
        *ap = -1 - mark;
        *as_ = stack[end - 1];
        for (int64_t i = 0; i < n_items; i++)
            size[i] = stack[start + i];
    } else {
        *ap = mark;
        *as_ = n_primary + ((end - start) / 2 - mark);
        for (int64_t q = start; q < end; q += 2)
            size[U(stack[q])] = stack[q + 1];
    }
}

static int search(Cells *k, int count_only, int64_t budget)
{
    int32_t *restrict nd = k->nd, *restrict sets = k->sets, *restrict item = k->item;
    int32_t *restrict choice = k->choice, *restrict saved = k->saved;
    int32_t *restrict saved_ap = k->saved_ap, *restrict stack = k->stack;
    int32_t *restrict force = k->force;
    int64_t *state = k->state;
    const int64_t n_primary = k->n_primary, n_items = k->n_items;
    const Heads h = heads(sets, n_items);
    int32_t *size = h.size;  /* based on `sets`, so no restrict of its own (same code) */
    const int32_t second = sets[0];
    int64_t level = state[LEVEL], phase = state[PHASE], solutions = state[SOLUTIONS];
    int64_t nodes = state[NODES], updates = state[UPDATES], base = state[BASE];
    int64_t max_depth = state[MAX_DEPTH], ap = state[ACTIVE_P], as_ = state[ACTIVE_S];
    int64_t forced = state[FORCED];
    int64_t stop_at = nodes + budget;
    int event = EXHAUSTED;
    int32_t best = 0, cur_choice = 0;
    int step;
    if (phase == PHASE_START)
        step = FORWARD;
    else if (phase == PHASE_AFTER_LEAF)
        step = BACKUP;
    else
        return EXHAUSTED;

    for (;;) {
        if (step == FORWARD) {
            if (nodes >= stop_at) {
                phase = PHASE_START;
                event = PAUSED;
                break;
            }
            if (level != base || base == 0)
                nodes++;  /* (a subproblem's root is a node of the search that split it) */
            if (ap == 0 || level == max_depth) {
                solutions++;
                forced = 0;
                if (!count_only) {
                    phase = PHASE_AFTER_LEAF;
                    event = FOUND;
                    break;
                }
                step = BACKUP;
                continue;
            }
            if (count_only && ap == 1 && level + 1 != max_depth) {
                /* The last primary item: each option left completes a solution. */
                int32_t s = size[U(item[0])];
                solutions += s;
                nodes += s;
                forced = 0;
                step = BACKUP;
                continue;
            }
            best = pop_forced(force, h, ap, &forced);
            if (best < 0) {
                if (!fewest(size, item, force, ap, &forced, &best)) {
                    forced = 0;
                    step = BACKUP;
                    continue;
                }
                if (forced > 0) {
                    best = force[--forced];
                } else {
                    int64_t start = saved[level], active = ap + as_ - n_primary;
                    int copy = n_items <= COPY_RATIO * active;
                    if (start + (copy ? n_items + 1 : 2 * active) > k->n_stack) {
                        if (level != base || base == 0)
                            nodes--;  /* this level is entered again after growing */
                        phase = PHASE_START;
                        event = GROW;
                        break;
                    }
                    ap = take(nd, sets, h, item, force, best, ap, as_, second, &updates);
                    saved[level + 1] = (int32_t)save_sizes(stack, size, item, start, copy, n_items,
                                                           n_primary, ap, as_,
                                                           &saved_ap[level + 1]);
                    cur_choice = h.start[2 * U(best)];
                    step = ADVANCE;
                    continue;
                }
            }
            /* A forced move: nothing to save, nothing is tried after it. */
            ap = take(nd, sets, h, item, force, best, ap, as_, second, &updates);
            saved[level + 1] = saved[level];
            cur_choice = h.start[2 * U(best)];
            step = ADVANCE;
        } else if (step == ADVANCE) {
            int32_t cur = sets[cur_choice];
            choice[level] = cur;
            if (commit(nd, sets, h, item, force, cur, &ap, &as_, second, &forced, &updates)) {
                level++;
                step = FORWARD;
            } else {
                step = ABORT;
            }
        } else if (step == BACKUP) {
            if (level <= base) {
                phase = PHASE_DONE;
                event = EXHAUSTED;
                break;
            }
            level--;
            int32_t cur = choice[level];
            best = nd[cur * 4 + ITM];
            cur_choice = nd[cur * 4 + LOC];
            step = ABORT;
        } else {  /* ABORT: on to the next option of `best`, if any */
            if (cur_choice + 1 >= h.start[2 * U(best)] + size[U(best)]) {
                step = BACKUP;
                continue;
            }
            restore_sizes(size, stack, saved[level], saved[level + 1], saved_ap[level + 1], n_items,
                          n_primary, &ap, &as_);
            cur_choice++;
            step = ADVANCE;
        }
    }
    state[LEVEL] = level;
    state[PHASE] = phase;
    state[SOLUTIONS] = solutions;
    state[NODES] = nodes;
    state[UPDATES] = updates;
    state[ACTIVE_P] = ap;
    state[ACTIVE_S] = as_;
    state[FORCED] = forced;
    return event;
}

/* Force option node `first` at the current level and raise the base level. */
static int choose(Cells *k, int32_t first)
{
    int32_t *nd = k->nd, *sets = k->sets, *item = k->item;
    int64_t *state = k->state;
    const Heads h = heads(sets, k->n_items);
    int32_t second = sets[0];
    int32_t b = nd[first * 4 + ITM];
    if (b < 0 || b >= second)
        return 0;
    int64_t ap = state[ACTIVE_P], as_ = state[ACTIVE_S];
    if (h.place[2 * U(b)] >= ap || nd[first * 4 + LOC] >= h.start[2 * U(b)] + h.size[U(b)])
        return 0;
    int64_t level = state[LEVEL], updates = state[UPDATES], forced = state[FORCED];
    ap = take(nd, sets, h, item, k->force, b, ap, as_, second, &updates);
    k->saved[level + 1] = k->saved[level];
    k->choice[level] = first;
    int ok = commit(nd, sets, h, item, k->force, first, &ap, &as_, second, &forced, &updates);
    state[LEVEL] = level + 1;
    state[BASE] = level + 1;
    state[UPDATES] = updates;
    state[ACTIVE_P] = ap;
    state[ACTIVE_S] = as_;
    state[FORCED] = forced;
    return ok;
}

/* -- Memoized counting (memo_kernel: search_memo) -------------------------------- */

/* Slots of the int64 `ms` array (cells_slots, M_*). */
enum {
    M_MODE = 0, M_BRANCH = 1, M_ZDD = 2, M_WORDS = 3, M_KEY = 4, M_BUCKETS = 5,
    M_COLOURS = 6, M_STARTED = 7, M_LOOKUPS = 8, M_HITS = 9, M_ENTRIES = 10,
    M_EVICTIONS = 11, M_SAVED = 12, M_CHECK_AT = 13, M_AUTO_COST = 14, M_AUTO_LAST = 15,
    M_ZNODES = 16, M_ZNEED = 17, M_GROW_AT = 18, M_AUTO_RATE = 19, M_KEY_WORK = 20,
    M_CHECK_WORK = 21, MEMO_SIZE = 22
};
enum { MODE_OFF = 0, MODE_ON = 1, MODE_AUTO = 2 };
/* Events of search_memo, past those of search. */
enum { MEMO_OFF = 4, OVERFLOW = 5, ZDD_GROW = 6, TABLE_GROW = 7 };
/* A table entry: meta (state in bits 0-1, a tag of the hash in bits 2-31, the
 * ZDD node in bits 32-63), work (what its subtree took: see NODE_WEIGHT), the
 * key (K words), the count (W words, least significant first). BUCKET entries
 * share a bucket: a hash picks the bucket, the whole key is compared. */
enum { BUCKET = 4, SLOT_EMPTY = 0, SLOT_DONE = 2 };
/* The work of a subtree (what a hit saves, what `auto` weighs, what eviction
 * keeps): its updates plus NODE_WEIGHT per node (a node's own cost, the scan
 * for the item to branch on, in updates: fitted on queens-13 and Langford 12). */
enum { NODE_WEIGHT = 16 };
#define TAG_MASK 0x3FFFFFFFu

typedef struct {
    int32_t *first_primary, *kpos, *kcode, *zdd;
    uint64_t *table, *acc, *key;
    int64_t *purified, *slot, *entered, *zchain, *ms;
    Py_ssize_t n_table, n_acc, n_key, n_levels, n_zdd, n_fp, n_kcode;
} Memo;

/* The hash of a key (the numba kernel computes the same, bit for bit). */
static inline uint64_t key_hash(const uint64_t *key, int64_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (int64_t i = 0; i < n; i++) {
        h ^= key[i];
        h *= 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBu;
    h ^= h >> 29;
    return h;
}

/* dst += src, W words; returns the carry out of the last word (an overflow). */
static inline int add_words(uint64_t *dst, const uint64_t *src, int64_t w)
{
    uint64_t carry = 0;
    for (int64_t i = 0; i < w; i++) {
        uint64_t a = dst[i], s = a + src[i], t = s + carry;
        carry = (uint64_t)(s < a) | (uint64_t)(t < s);
        dst[i] = t;
    }
    return carry != 0;
}

static inline void set_words(uint64_t *dst, uint64_t value, int64_t w)
{
    dst[0] = value;
    for (int64_t i = 1; i < w; i++)
        dst[i] = 0;
}

/* Whether a live option gives secondary item x (purified, so inactive and its
 * segment frozen since) the colour of code c: its first primary item is active
 * and holds it among its live options. Adds the entries it looked at to *work. */
static int purified_live(const int32_t *nd, const int32_t *sets, Heads h, const int32_t *kcode,
                         const int32_t *first_primary, int32_t x, int64_t c, int64_t ap,
                         int64_t *work)
{
    const int32_t first = h.start[2 * U(x)], end = first + h.size[U(x)];
    for (int32_t r = first; r < end; r++) {
        const int32_t node = sets[r];
        if (kcode[node] != c)
            continue;
        const int32_t fp = first_primary[nd[4 * U(node) + OPT]];
        if (fp < 0)
            continue;
        const int32_t p = nd[4 * U(fp) + ITM];
        if (h.place[2 * U(p)] < ap && nd[4 * U(fp) + LOC] < h.start[2 * U(p)] + h.size[U(p)]) {
            *work += r - first + 1;
            return 1;
        }
    }
    *work += end - first;
    return 0;
}

/* The key of the current subproblem (DLX6's signature): a bit per active
 * primary item; per secondary item with live options, 1 if untouched, its
 * colour's code (2, 3, ...) if purified; 0 for the others. A purified item
 * found without live options at a node of the path (purified[3x + 1], the
 * level, and purified[3x + 2], the node's stamp, entered[2 l + 1]) is known
 * to have none below it. Returns the items and entries it looked at. */
static int64_t make_key(uint64_t *key, const int32_t *nd, const int32_t *sets, Heads h,
                        const int32_t *item, const Memo *m, int64_t n_key, int64_t ap,
                        int64_t as_, int64_t n_primary, int64_t n_items, int colours,
                        int64_t level)
{
    const int32_t *kpos = m->kpos;
    memset(key, 0, sizeof(uint64_t) * U(n_key));
    for (int64_t q = 0; q < ap; q++) {
        const int32_t p = kpos[item[q]];
        key[p >> 6] |= (uint64_t)1 << (p & 63);
    }
    for (int64_t q = n_primary; q < as_; q++) {
        const int32_t x = item[q], p = kpos[x];
        if (p >= 0 && h.size[U(x)] > 0)
            key[p >> 6] |= (uint64_t)1 << (p & 63);
    }
    int64_t work = ap + as_ - n_primary;
    if (!colours)
        return work;
    int64_t *purified = m->purified;
    const int64_t *stamp = m->entered + 1;
    work += n_items - as_;
    for (int64_t q = as_; q < n_items; q++) {
        const int32_t x = item[q], p = kpos[x];
        const int64_t c = purified[3 * U(x)], dead = purified[3 * U(x) + 1];
        if (p < 0 || c == 0 || (dead >= 0 && dead <= level
                                && stamp[2 * dead] == purified[3 * U(x) + 2]))
            continue;
        if (purified_live(nd, sets, h, m->kcode, m->first_primary, x, c, ap, &work)) {
            key[p >> 6] |= (uint64_t)c << (p & 63);
        } else {
            purified[3 * U(x) + 1] = level;
            purified[3 * U(x) + 2] = stamp[2 * level];
        }
    }
    return work;
}

/* The entry of the key in the table: its index if it is there (a hit, >= 0);
 * else -1 minus the entry to take for it: an empty one, or the one whose
 * subtree took the least work. */
static int64_t probe(const uint64_t *table, const uint64_t *key, int64_t n_key, int64_t e_size,
                     uint64_t hash, int64_t buckets)
{
    const uint64_t tag = (hash >> 34) & TAG_MASK;
    const int64_t b = (int64_t)(hash & (uint64_t)(buckets - 1)) * BUCKET;
    int64_t victim = b;
    int empty = 0;
    uint64_t least = UINT64_MAX;
    for (int64_t i = b; i < b + BUCKET; i++) {
        const uint64_t *e = table + i * e_size;
        if ((e[0] & 3) == SLOT_DONE) {
            if (((e[0] >> 2) & TAG_MASK) == tag
                && memcmp(e + 2, key, sizeof(uint64_t) * U(n_key)) == 0)
                return i;
            if (!empty && e[1] < least) {
                victim = i;
                least = e[1];
            }
        } else if (!empty) {
            victim = i;
            empty = 1;
        }
    }
    return -1 - victim;
}

/* Note the colour code of each secondary item of the option of node `cur`. */
static inline void mark_purified(const int32_t *nd, const int32_t *kcode, int64_t *purified,
                                 int32_t cur, int32_t second)
{
    int32_t nn = cur + 1;
    while (nn != cur) {
        const int32_t c = nd[4 * U(nn) + ITM];
        if (c < 0) {
            nn += c;
            continue;
        }
        if (c >= second)
            purified[3 * U(c)] = kcode[nn];
        nn++;
    }
}

/* A new node of the diagram: option `var` taken leads to `hi`, not taken to `lo`. */
static inline int64_t new_znode(int32_t *zdd, int64_t *ms, int32_t var, int64_t lo, int64_t hi)
{
    const int64_t id = ms[M_ZNODES]++;
    zdd[3 * id] = var;
    zdd[3 * id + 1] = (int32_t)lo;
    zdd[3 * id + 2] = (int32_t)hi;
    return id;
}

/* Put a key that is not in the table (its hash, its diagram node, the work of
 * its subtree, its count) into the table; returns 1 if it pushed out another
 * entry (the one of its bucket whose subtree took the least work). */
static inline int store(uint64_t *table, const uint64_t *key, uint64_t hash, uint64_t znode,
                        uint64_t work, const uint64_t *count, int64_t n_key, int64_t w,
                        int64_t buckets)
{
    const int64_t e_size = 2 + n_key + w;
    uint64_t *e = table + (-1 - probe(table, key, n_key, e_size, hash, buckets)) * e_size;
    const int evicted = (e[0] & 3) == SLOT_DONE;
    e[0] = SLOT_DONE | (((hash >> 34) & TAG_MASK) << 2) | (znode << 32);
    e[1] = work;
    memcpy(e + 2, key, sizeof(uint64_t) * U(n_key));
    memcpy(e + 2 + n_key, count, sizeof(uint64_t) * U(w));
    return evicted;
}

/* Move the entries of table `old` into the empty table `fresh` (`buckets` of
 * them); returns how many were pushed out by others (a full bucket). */
static int64_t rehash(const uint64_t *old, int64_t old_entries, uint64_t *fresh, int64_t buckets,
                      int64_t n_key, int64_t w)
{
    const int64_t e_size = 2 + n_key + w;
    int64_t dropped = 0;
    for (int64_t i = 0; i < old_entries; i++) {
        const uint64_t *e = old + i * e_size;
        if ((e[0] & 3) == SLOT_DONE)
            dropped += store(fresh, e + 2, key_hash(e + 2, n_key), e[0] >> 32, e[1],
                             e + 2 + n_key, n_key, w, buckets);
    }
    return dropped;
}

/* Count (count_only) with memo: the search of `search`, where each node that
 * branches first makes its key (kept at key[level * K]) and looks it up; a hit
 * adds the count stored and goes back; a node that missed stores its count
 * when it is finished (slot[level] = 1). acc[(l + 1) * W] is the count of the
 * node at level l so far; a finished node's is added to its parent's, the
 * root's to acc[base * W]. Events: EXHAUSTED, PAUSED, GROW, MEMO_OFF (`auto`
 * found that the memo does not pay: go on with `search`), OVERFLOW (a count
 * past W words: start again wider), ZDD_GROW (`zdd` is full), TABLE_GROW
 * (M_GROW_AT entries are in the table: move them to a larger one, `rehash`). */
static int search_memo(Cells *k, Memo *m, int64_t budget)
{
    int32_t *restrict nd = k->nd, *restrict sets = k->sets, *restrict item = k->item;
    int32_t *restrict choice = k->choice, *restrict saved = k->saved;
    int32_t *restrict saved_ap = k->saved_ap, *restrict stack = k->stack;
    int32_t *restrict force = k->force;
    int64_t *state = k->state, *ms = m->ms;
    const int64_t n_primary = k->n_primary, n_items = k->n_items;
    const Heads h = heads(sets, n_items);
    int32_t *size = h.size;
    const int32_t second = sets[0];
    const int64_t w = ms[M_WORDS], n_key = ms[M_KEY], e_size = 2 + n_key + w;
    const int64_t buckets = ms[M_BUCKETS];
    const int first_item = ms[M_BRANCH] == 1, zdd = ms[M_ZDD] != 0, colours = ms[M_COLOURS] != 0;
    uint64_t *acc = m->acc, *table = m->table;
    int64_t *slot = m->slot, *entered = m->entered, *zchain = m->zchain;
    int64_t mode = ms[M_MODE], lookups = ms[M_LOOKUPS], hits = ms[M_HITS];
    int64_t entries = ms[M_ENTRIES], evictions = ms[M_EVICTIONS], gain = ms[M_SAVED];
    int64_t key_work = ms[M_KEY_WORK];
    int64_t level = state[LEVEL], phase = state[PHASE];
    int64_t nodes = state[NODES], updates = state[UPDATES], base = state[BASE];
    int64_t ap = state[ACTIVE_P], as_ = state[ACTIVE_S], forced = state[FORCED];
    int64_t stop_at = nodes + budget;
    int event = EXHAUSTED;
    int32_t best = 0, cur_choice = 0;
    int step = FORWARD;
    if (phase != PHASE_START)
        return EXHAUSTED;
    if (!ms[M_STARTED]) {
        ms[M_STARTED] = 1;
        set_words(acc + base * w, 0, w);
        if (colours)
            for (int64_t l = 0; l < level; l++)
                mark_purified(nd, m->kcode, m->purified, choice[l], second);
    }

    for (;;) {
        if (step == FORWARD) {
            if (nodes >= stop_at) {
                event = PAUSED;
                break;
            }
            if (mode == MODE_AUTO && (lookups >= ms[M_CHECK_AT]
                                      || ms[M_AUTO_COST] * lookups + key_work
                                             >= ms[M_CHECK_WORK])) {
                /* Does it pay? The work the hits saved against the lookups' (a
                 * cost each, and the items and entries their keys looked at),
                 * or, while the subtrees are small, hits in 1 of M_AUTO_RATE
                 * lookups (a tiling's: its gains compound as the subtrees grow). */
                if (gain >= ms[M_AUTO_COST] * lookups + key_work
                    || hits * ms[M_AUTO_RATE] >= lookups) {
                    ms[M_CHECK_AT] *= 2;
                    ms[M_CHECK_WORK] *= 2;
                    if (ms[M_CHECK_AT] > ms[M_AUTO_LAST])
                        mode = MODE_ON;
                } else {
                    mode = MODE_OFF;
                    event = MEMO_OFF;
                    break;
                }
            }
            if (zdd && ms[M_ZNODES] + ms[M_ZNEED] > m->n_zdd / 3) {
                event = ZDD_GROW;
                break;
            }
            if (entries >= ms[M_GROW_AT]) {
                event = TABLE_GROW;
                break;
            }
            {   /* room to save the sizes, checked before a lookup takes an entry */
                int64_t active = ap + as_ - n_primary;
                int64_t need = n_items <= COPY_RATIO * active ? n_items + 1 : 2 * active;
                if (saved[level] + need > k->n_stack) {
                    event = GROW;
                    break;
                }
            }
            if (level != base || base == 0)
                nodes++;
            uint64_t *mine = acc + (level + 1) * w;
            slot[level] = -1;
            entered[2 * level + 1] = nodes;  /* the node's stamp (see make_key) */
            if (zdd)
                zchain[level + 1] = 0;
            if (ap == 0) {
                set_words(mine, 1, w);
                if (zdd)
                    zchain[level + 1] = 1;
                forced = 0;
                step = BACKUP;
                continue;
            }
            if (ap == 1) {
                /* The last primary item: each option left completes a solution. */
                const int32_t x = item[0], s = size[U(x)];
                set_words(mine, (uint64_t)s, w);
                nodes += s;
                forced = 0;
                if (zdd) {
                    int64_t z = 0;
                    for (int32_t r = h.start[2 * U(x)]; r < h.start[2 * U(x)] + s; r++)
                        z = new_znode(m->zdd, ms, nd[4 * U(sets[r]) + OPT], z, 1);
                    zchain[level + 1] = z;
                }
                step = BACKUP;
                continue;
            }
            set_words(mine, 0, w);
            if (first_item)
                forced = 0;  /* no forced moves: the item is the first one left */
            best = pop_forced(force, h, ap, &forced);
            if (best < 0) {
                if (mode != MODE_OFF) {
                    uint64_t *key = m->key + level * n_key;
                    key_work += make_key(key, nd, sets, h, item, m, n_key, ap, as_, n_primary,
                                         n_items, colours, level);
                    lookups++;
                    const uint64_t hash = key_hash(key, n_key);
                    const int64_t found = probe(table, key, n_key, e_size, hash, buckets);
                    if (found >= 0) {
                        const uint64_t *e = table + found * e_size;
                        hits++;
                        gain += (int64_t)e[1];
                        memcpy(mine, e + 2 + n_key, sizeof(uint64_t) * U(w));
                        if (zdd)
                            zchain[level + 1] = (int64_t)(e[0] >> 32);
                        forced = 0;
                        step = BACKUP;
                        continue;
                    }
                    slot[level] = 1;
                    entered[2 * level] = updates + NODE_WEIGHT * nodes;
                }
                int dead = 0;
                if (first_item) {
                    /* The first item left in declared order (DLX6's noMRV). */
                    for (int64_t q = 0; q < ap; q++) {
                        int32_t x = item[q];
                        if (size[U(x)] == 0) {
                            dead = 1;
                            break;
                        }
                        if (best < 0 || x < best)
                            best = x;
                    }
                } else {
                    dead = !fewest(size, item, force, ap, &forced, &best);
                }
                if (dead) {
                    forced = 0;
                    step = BACKUP;
                    continue;
                }
                if (forced > 0) {
                    best = force[--forced];
                } else if (size[U(best)] > 1) {
                    int64_t active = ap + as_ - n_primary;
                    int copy = n_items <= COPY_RATIO * active;
                    ap = take(nd, sets, h, item, force, best, ap, as_, second, &updates);
                    saved[level + 1] = (int32_t)save_sizes(stack, size, item, saved[level], copy,
                                                           n_items, n_primary, ap, as_,
                                                           &saved_ap[level + 1]);
                    cur_choice = h.start[2 * U(best)];
                    step = ADVANCE;
                    continue;
                }
            }
            /* A forced move (or, branching on the first item, one with a single option). */
            ap = take(nd, sets, h, item, force, best, ap, as_, second, &updates);
            saved[level + 1] = saved[level];
            cur_choice = h.start[2 * U(best)];
            step = ADVANCE;
        } else if (step == ADVANCE) {
            int32_t cur = sets[cur_choice];
            choice[level] = cur;
            if (commit(nd, sets, h, item, force, cur, &ap, &as_, second, &forced, &updates)) {
                if (colours)
                    mark_purified(nd, m->kcode, m->purified, cur, second);
                level++;
                step = FORWARD;
            } else {
                step = ABORT;
            }
        } else if (step == BACKUP) {
            /* The node at `level` is finished: store its count, add it to its parent's. */
            uint64_t *mine = acc + (level + 1) * w;
            if (slot[level] >= 0) {
                const uint64_t *key = m->key + level * n_key;
                const int64_t work = updates + NODE_WEIGHT * nodes - entered[2 * level];
                if (store(table, key, key_hash(key, n_key), zdd ? (uint64_t)zchain[level + 1] : 0,
                          (uint64_t)work, mine, n_key, w, buckets))
                    evictions++;
                else
                    entries++;
                slot[level] = -1;
            }
            if (add_words(acc + level * w, mine, w)) {
                phase = PHASE_DONE;
                event = OVERFLOW;
                break;
            }
            if (zdd && level > base && zchain[level + 1] != 0)
                zchain[level] = new_znode(m->zdd, ms, nd[4 * U(choice[level - 1]) + OPT],
                                          zchain[level], zchain[level + 1]);
            if (level <= base) {
                phase = PHASE_DONE;
                event = EXHAUSTED;
                break;
            }
            level--;
            int32_t cur = choice[level];
            best = nd[cur * 4 + ITM];
            cur_choice = nd[cur * 4 + LOC];
            step = ABORT;
        } else {  /* ABORT: on to the next option of `best`, if any */
            if (cur_choice + 1 >= h.start[2 * U(best)] + size[U(best)]) {
                step = BACKUP;
                continue;
            }
            restore_sizes(size, stack, saved[level], saved[level + 1], saved_ap[level + 1], n_items,
                          n_primary, &ap, &as_);
            cur_choice++;
            step = ADVANCE;
        }
    }
    state[LEVEL] = level;
    state[PHASE] = phase;
    state[NODES] = nodes;
    state[UPDATES] = updates;
    state[ACTIVE_P] = ap;
    state[ACTIVE_S] = as_;
    state[FORCED] = forced;
    ms[M_MODE] = mode;
    ms[M_LOOKUPS] = lookups;
    ms[M_HITS] = hits;
    ms[M_ENTRIES] = entries;
    ms[M_EVICTIONS] = evictions;
    ms[M_SAVED] = gain;
    ms[M_KEY_WORK] = key_work;
    return event;
}

/* -- Arguments: buffers of a given item size ------------------------------------ */

typedef struct {
    Py_buffer view[24];
    int n;
} Views;

static void release(Views *v)
{
    for (int i = 0; i < v->n; i++)
        PyBuffer_Release(&v->view[i]);
    v->n = 0;
}

/* The contiguous, writable buffer of `obj` with items of `size` bytes, or NULL
 * (an exception set) if it is not one. */
static void *get(Views *v, PyObject *obj, Py_ssize_t size, const char *name, Py_ssize_t *len)
{
    Py_buffer *b = &v->view[v->n];
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    v->n++;
    const char *f = b->format ? b->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    if (b->itemsize != size || strchr("bhilqBHILQ", *f) == NULL || f[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "%s: an array of %zd-byte integers expected, got format %s",
                     name, size, b->format ? b->format : "B");
        return NULL;
    }
    if (len)
        *len = b->len / size;
    return b->buf;
}

/* Fill `k` from the kernel's arrays (the order of cells_kernel.search). */
static int get_cells(Views *v, Cells *k, PyObject *const *a, int with_saved_ap, int with_stack)
{
    Py_ssize_t n;
    int i = 0;
    if (!(k->nd = get(v, a[i++], 4, "nd", NULL))) return -1;
    if (!(k->sets = get(v, a[i++], 4, "sets", NULL))) return -1;
    if (!(k->item = get(v, a[i++], 4, "item", &k->n_items))) return -1;
    if (!(k->choice = get(v, a[i++], 4, "choice", NULL))) return -1;
    if (!(k->saved = get(v, a[i++], 4, "saved", NULL))) return -1;
    k->saved_ap = NULL;
    k->n_primary = 0;
    if (with_saved_ap) {
        if (!(k->saved_ap = get(v, a[i++], 4, "saved_ap", &n))) return -1;
        k->n_primary = n - 2;
    }
    k->stack = NULL;
    k->n_stack = 0;
    if (with_stack) {
        if (!(k->stack = get(v, a[i++], 4, "stack", &k->n_stack))) return -1;
    }
    if (!(k->force = get(v, a[i++], 4, "force", NULL))) return -1;
    if (!(k->state = get(v, a[i++], 8, "state", &n))) return -1;
    if (n < STATE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "state: too short");
        return -1;
    }
    return i;
}

/* Check the argument count, then get_cells; on failure release and return -1. */
static int open_cells(Views *v, Cells *k, PyObject *const *args, Py_ssize_t nargs,
                      Py_ssize_t expected, const char *name, int with_saved_ap, int with_stack)
{
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", name, expected);
        return -1;
    }
    if (get_cells(v, k, args, with_saved_ap, with_stack) < 0) {
        release(v);
        return -1;
    }
    return 0;
}

static PyObject *py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* search(nd, sets, item, choice, saved, saved_ap, stack, force, state, count_only, budget) */
    Views v = {.n = 0};
    Cells k;
    if (open_cells(&v, &k, args, nargs, 11, "search", 1, 1) < 0)
        return NULL;
    int count_only = PyObject_IsTrue(args[9]);
    int64_t budget = PyLong_AsLongLong(args[10]);
    if (count_only < 0 || (budget == -1 && PyErr_Occurred())) {
        release(&v);
        return NULL;
    }
    int event;
    Py_BEGIN_ALLOW_THREADS
    event = search(&k, count_only, budget);
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLong(event);
}

static PyObject *py_choose(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* choose(nd, sets, item, choice, saved, force, state, first) */
    Views v = {.n = 0};
    Cells k;
    if (open_cells(&v, &k, args, nargs, 8, "choose", 0, 0) < 0)
        return NULL;
    long first = PyLong_AsLong(args[7]);
    if (first == -1 && PyErr_Occurred()) {
        release(&v);
        return NULL;
    }
    int ok = choose(&k, (int32_t)first);
    release(&v);
    return PyBool_FromLong(ok);
}

static PyObject *py_search_memo(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* search_memo(nd, sets, item, choice, saved, saved_ap, stack, force, state,
     *             first_primary, kpos, kcode, purified, zdd, table, acc, key, slot,
     *             entered, zchain, ms, budget) */
    Views v = {.n = 0};
    Cells k;
    Memo m;
    Py_ssize_t n_nd, n_kpos, n_purified, n_entered, n_zchain, n_ms;
    if (open_cells(&v, &k, args, nargs, 22, "search_memo", 1, 1) < 0)
        return NULL;
    n_nd = v.view[0].len / 4;
    if (!(m.first_primary = get(&v, args[9], 4, "first_primary", &m.n_fp))) goto fail;
    if (!(m.kpos = get(&v, args[10], 4, "kpos", &n_kpos))) goto fail;
    if (!(m.kcode = get(&v, args[11], 4, "kcode", &m.n_kcode))) goto fail;
    if (!(m.purified = get(&v, args[12], 8, "purified", &n_purified))) goto fail;
    if (!(m.zdd = get(&v, args[13], 4, "zdd", &m.n_zdd))) goto fail;
    if (!(m.table = get(&v, args[14], 8, "table", &m.n_table))) goto fail;
    if (!(m.acc = get(&v, args[15], 8, "acc", &m.n_acc))) goto fail;
    if (!(m.key = get(&v, args[16], 8, "key", &m.n_key))) goto fail;
    if (!(m.slot = get(&v, args[17], 8, "slot", &m.n_levels))) goto fail;
    if (!(m.entered = get(&v, args[18], 8, "entered", &n_entered))) goto fail;
    if (!(m.zchain = get(&v, args[19], 8, "zchain", &n_zchain))) goto fail;
    if (!(m.ms = get(&v, args[20], 8, "ms", &n_ms))) goto fail;
    int64_t budget = PyLong_AsLongLong(args[21]);
    if (budget == -1 && PyErr_Occurred()) goto fail;
    {
        const int64_t w = n_ms >= MEMO_SIZE ? m.ms[M_WORDS] : 0;
        const int64_t n_key = n_ms >= MEMO_SIZE ? m.ms[M_KEY] : 0;
        const int64_t buckets = n_ms >= MEMO_SIZE ? m.ms[M_BUCKETS] : 0;
        const Py_ssize_t levels = k.n_primary + 2;
        int bad = n_ms < MEMO_SIZE || w < 1 || n_key < 1 || levels * n_key > m.n_key || buckets < 1
                  || (buckets & (buckets - 1)) != 0
                  || m.n_table / BUCKET / (2 + n_key + w) < buckets
                  || m.n_acc < (levels + 1) * w || m.n_levels < levels
                  || n_entered < 2 * levels || n_zchain < levels + 1 || n_kpos < k.n_items
                  || n_purified < 3 * k.n_items
                  || m.n_kcode < n_nd / 4 || k.state[BASE] < 0 || k.state[LEVEL] > k.n_primary
                  || (m.ms[M_ZDD] && m.ms[M_ZNODES] < 2);
        for (Py_ssize_t x = 0; !bad && x < k.n_items; x++)
            bad = m.kpos[x] >= 64 * n_key || (x < k.sets[0] && m.kpos[x] < 0);
        if (bad) {
            PyErr_SetString(PyExc_ValueError, "search_memo: the arrays' sizes do not agree");
            goto fail;
        }
    }
    int event;
    Py_BEGIN_ALLOW_THREADS
    event = search_memo(&k, &m, budget);
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLong(event);
fail:
    release(&v);
    return NULL;
}

static PyObject *py_rehash(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* rehash(old, fresh, ms) -> entries pushed out: see rehash; the key and
     * count sizes from ms, the bucket counts from the arrays' sizes. */
    Views v = {.n = 0};
    Py_ssize_t n_old, n_fresh, n_ms;
    uint64_t *old = NULL, *fresh = NULL;
    int64_t *ms = NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "rehash takes 3 arguments");
        return NULL;
    }
    if (!(old = get(&v, args[0], 8, "old", &n_old))) goto fail;
    if (!(fresh = get(&v, args[1], 8, "fresh", &n_fresh))) goto fail;
    if (!(ms = get(&v, args[2], 8, "ms", &n_ms))) goto fail;
    if (n_ms < MEMO_SIZE || ms[M_KEY] < 1 || ms[M_WORDS] < 1) {
        PyErr_SetString(PyExc_ValueError, "rehash: ms is not a memo state");
        goto fail;
    }
    const int64_t e_size = 2 + ms[M_KEY] + ms[M_WORDS];
    const int64_t buckets = n_fresh / e_size / BUCKET;
    if (n_old % (e_size * BUCKET) || n_fresh % (e_size * BUCKET) || buckets < 1
        || (buckets & (buckets - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "rehash: the tables' sizes do not agree");
        goto fail;
    }
    int64_t dropped;
    Py_BEGIN_ALLOW_THREADS
    dropped = rehash(old, n_old / e_size, fresh, buckets, ms[M_KEY], ms[M_WORDS]);
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLongLong(dropped);
fail:
    release(&v);
    return NULL;
}

/* -- The structure (cells._build) ----------------------------------------------- */

static PyObject *py_build(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* build(start, items, colours, n_primary, nd, sets, item, first_primary): fill
     * the zeroed arrays `nd`, `sets`, `item`, `first_primary`, sized by the caller
     * (4 * (1 + len(items) + n_options), pairs_at(n_items) + 2 * n_items + len(items), n_items,
     * n_options), as cells._build does. */
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "build takes 8 arguments");
        return NULL;
    }
    Views v = {.n = 0};
    Py_ssize_t n_start, n_entries, n_colours, n_nd, n_sets, n_items, n_fp;
    int32_t *start = get(&v, args[0], 4, "start", &n_start);
    int32_t *items = start ? get(&v, args[1], 4, "items", &n_entries) : NULL;
    int32_t *colours = items ? get(&v, args[2], 4, "colours", &n_colours) : NULL;
    long n_primary = colours ? PyLong_AsLong(args[3]) : -1;
    int32_t *nd = NULL, *sets = NULL, *item = NULL, *first_primary = NULL;
    if (!PyErr_Occurred()) nd = get(&v, args[4], 4, "nd", &n_nd);
    if (nd) sets = get(&v, args[5], 4, "sets", &n_sets);
    if (sets) item = get(&v, args[6], 4, "item", &n_items);
    if (item) first_primary = get(&v, args[7], 4, "first_primary", &n_fp);
    if (!first_primary) {
        release(&v);
        return NULL;
    }
    Py_ssize_t n_options = n_start - 1;
    if (n_options < 0 || n_colours != n_entries || n_fp != n_options
        || n_nd != 4 * (1 + n_entries + n_options)
        || n_sets != pairs_at(n_items) + 2 * n_items + n_entries
        || n_primary < 0 || n_primary > n_items || start[n_options] != n_entries) {
        release(&v);
        PyErr_SetString(PyExc_ValueError, "build: the arrays' sizes do not agree");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < n_entries; j++) {
        if (items[j] < 0 || items[j] >= n_items) {
            release(&v);
            PyErr_Format(PyExc_ValueError, "build: item %d out of range", (int)items[j]);
            return NULL;
        }
    }
    /* The heads (sizes, places, starts of the segments), then each item's
     * segment: one entry per option. */
    Heads h = heads(sets, n_items);
    memset(h.size, 0, sizeof(int32_t) * U(n_items));
    for (Py_ssize_t j = 0; j < n_entries; j++)
        h.size[U(items[j])]++;  /* counts first */
    int32_t end = (int32_t)(pairs_at(n_items) + 2 * n_items);
    for (Py_ssize_t i = 0; i < n_items; i++) {
        h.start[2 * U(i)] = end;
        end += h.size[U(i)];
        h.size[U(i)] = 0;
        h.place[2 * U(i)] = (int32_t)i;
        item[i] = (int32_t)i;
    }
    sets[0] = (int32_t)n_primary;
    nd[OPT] = -1;
    int32_t q = 1;
    for (Py_ssize_t k = 0; k < n_options; k++) {
        int32_t first = q;
        first_primary[k] = -1;
        for (int32_t j = start[k]; j < start[k + 1]; j++) {
            int32_t x = items[j];
            int32_t at = h.start[2 * U(x)] + h.size[U(x)]++;
            sets[at] = q;
            nd[4 * q + ITM] = x;
            nd[4 * q + LOC] = at;
            nd[4 * q + CLR] = colours[j];
            nd[4 * q + OPT] = (int32_t)k;
            if (items[j] < n_primary && first_primary[k] < 0)
                first_primary[k] = q;
            q++;
        }
        nd[4 * q + ITM] = first - q;
        nd[4 * q + OPT] = -1;
        q++;
    }
    release(&v);
    Py_RETURN_NONE;
}

/* -- Families (the cells twin of batch.solve_batch) ------------------------------ */

static PyObject *py_solve_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* solve_batch(nd, sets, item, choice, saved, saved_ap, stack, force, state,
     *             nd0, sets0, item0, first_primary, forced_start, forced, count_only,
     *             batch, out, found, budget)
     * Puzzle j: the structure (nd0, sets0, item0) with the options
     * forced[forced_start[j]:forced_start[j + 1]] chosen, searched for its first
     * solution (or counted). Its first solution goes to found[j] (sorted option
     * indices, -1 after); solutions, nodes, updates and 1 (exhausted) or 2 (stopped
     * at a solution) to out[j]. Puzzles from batch[PUZZLE] on until about `budget`
     * nodes are entered; returns the puzzles done, or -1 when `stack` must grow
     * (grow it and call again: the puzzle resumes). */
    Views v = {.n = 0};
    Cells k;
    Py_ssize_t n_nd, n_sets, n_item, n_nd0, n_sets0, n_item0, n_fp, n_fs, n_forced, n_batch;
    Py_ssize_t n_out, n_found;
    int32_t *nd0 = NULL, *sets0 = NULL, *item0 = NULL, *first_primary = NULL;
    int64_t *forced_start = NULL, *forced = NULL, *batch = NULL, *out = NULL, *found = NULL;
    if (open_cells(&v, &k, args, nargs, 20, "solve_batch", 1, 1) < 0)
        return NULL;
    n_nd = v.view[0].len / 4;
    n_sets = v.view[1].len / 4;
    n_item = v.view[2].len / 4;
    if (!(nd0 = get(&v, args[9], 4, "nd0", &n_nd0))) goto fail;
    if (!(sets0 = get(&v, args[10], 4, "sets0", &n_sets0))) goto fail;
    if (!(item0 = get(&v, args[11], 4, "item0", &n_item0))) goto fail;
    if (!(first_primary = get(&v, args[12], 4, "first_primary", &n_fp))) goto fail;
    if (!(forced_start = get(&v, args[13], 8, "forced_start", &n_fs))) goto fail;
    if (!(forced = get(&v, args[14], 8, "forced", &n_forced))) goto fail;
    int count_only = PyObject_IsTrue(args[15]);
    if (count_only < 0) goto fail;
    if (!(batch = get(&v, args[16], 8, "batch", &n_batch))) goto fail;
    if (!(out = get(&v, args[17], 8, "out", &n_out))) goto fail;
    if (!(found = get(&v, args[18], 8, "found", &n_found))) goto fail;
    int64_t budget = PyLong_AsLongLong(args[19]);
    if (budget == -1 && PyErr_Occurred()) goto fail;
    Py_ssize_t n_puzzles = n_fs - 1;
    if (n_nd != n_nd0 || n_sets != n_sets0 || n_item != n_item0 || n_batch < 2 || n_puzzles < 0
        || n_out != OUT_SIZE * n_puzzles || (n_puzzles > 0 && n_found % n_puzzles != 0)) {
        PyErr_SetString(PyExc_ValueError, "solve_batch: the arrays' sizes do not agree");
        goto fail;
    }
    for (Py_ssize_t f = 0; f < n_forced; f++) {
        if (forced[f] < 0 || forced[f] >= n_fp) {
            PyErr_Format(PyExc_ValueError, "solve_batch: no option %lld", (long long)forced[f]);
            goto fail;
        }
    }
    Py_ssize_t width = n_puzzles > 0 ? n_found / n_puzzles : 0;
    int64_t spent = 0;
    int64_t result;
    int64_t *state = k.state;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        int64_t j = batch[PUZZLE];
        if (j >= n_puzzles) {
            result = j;
            break;
        }
        if (batch[STARTED] == 0) {
            memcpy(k.nd, nd0, sizeof(int32_t) * n_nd);
            memcpy(k.sets, sets0, sizeof(int32_t) * n_sets);
            memcpy(k.item, item0, sizeof(int32_t) * n_item);
            memset(state, 0, sizeof(int64_t) * STATE_SIZE);
            state[MAX_DEPTH] = -1;
            state[ACTIVE_P] = k.n_primary;
            state[ACTIVE_S] = n_item;
            for (int64_t f = forced_start[j]; f < forced_start[j + 1]; f++) {
                if (!choose(&k, first_primary[forced[f]])) {
                    state[PHASE] = PHASE_DONE;  /* givens that clash: no solution */
                    break;
                }
            }
            batch[STARTED] = 1;
        }
        int64_t before = state[NODES];
        int event = search(&k, count_only, budget - spent);
        spent += state[NODES] - before;
        if (event == GROW) {
            result = -1;
            break;
        }
        if (event == PAUSED) {
            result = j;
            break;
        }
        if (event == FOUND) {
            /* The options of the chosen nodes, sorted (insertion: a few dozen). */
            int64_t *row = found + j * width;
            int64_t level = state[LEVEL];
            for (int64_t i = 0; i < level && i < width; i++) {
                int64_t o = k.nd[k.choice[i] * 4 + OPT], p = i;
                while (p > 0 && row[p - 1] > o) {
                    row[p] = row[p - 1];
                    p--;
                }
                row[p] = o;
            }
        }
        out[j * OUT_SIZE + OUT_SOLUTIONS] = state[SOLUTIONS];
        out[j * OUT_SIZE + OUT_NODES] = state[NODES];
        out[j * OUT_SIZE + OUT_UPDATES] = state[UPDATES];
        out[j * OUT_SIZE + OUT_DONE] = event == EXHAUSTED ? 1 : 2;
        batch[PUZZLE] = j + 1;
        batch[STARTED] = 0;
        if (spent >= budget) {
            result = j + 1;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLongLong(result);
fail:
    release(&v);
    return NULL;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL,
     "search(nd, sets, item, choice, saved, saved_ap, stack, force, state, count_only, budget)"
     " -> event: cells_kernel.search, compiled."},
    {"search_memo", (PyCFunction)(void (*)(void))py_search_memo, METH_FASTCALL,
     "search_memo(nd, sets, item, choice, saved, saved_ap, stack, force, state, first_primary,"
     " kpos, kcode, purified, zdd, table, acc, key, slot, entered, zchain, ms, budget) -> event:"
     " memo_kernel.search_memo, compiled."},
    {"rehash", (PyCFunction)(void (*)(void))py_rehash, METH_FASTCALL,
     "rehash(old, fresh, ms) -> entries pushed out: a memo table moved to a larger one."},
    {"choose", (PyCFunction)(void (*)(void))py_choose, METH_FASTCALL,
     "choose(nd, sets, item, choice, saved, force, state, first) -> bool: "
     "cells_kernel.choose, compiled."},
    {"build", (PyCFunction)(void (*)(void))py_build, METH_FASTCALL,
     "build(start, items, colours, n_primary, nd, sets, item, first_primary): "
     "fill the structure's arrays (cells._build, compiled)."},
    {"solve_batch", (PyCFunction)(void (*)(void))py_solve_batch, METH_FASTCALL,
     "solve_batch(...) -> puzzles done, or -1 to grow the stack: a family's puzzles."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cells",
    "Algorithm C on sparse sets (dancing cells), compiled ahead of time: see cells_kernel.",
    -1, methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__cells(void)
{
    return PyModule_Create(&module);
}
