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
            best = -1;
            while (forced > 0) {  /* a forced move, if an item on the stack is still active */
                int32_t b = force[--forced];
                if (h.place[2 * U(b)] < ap) {
                    best = b;
                    break;
                }
            }
            if (best < 0) {
                /* Minimum remaining values, ties to the first item; items with
                 * one option left go on the force stack. */
                int32_t t = 0x7FFFFFFF;
                int dead = 0;
                for (int64_t q = 0; q < ap; q++) {
                    int32_t x = item[q];
                    int32_t s = size[U(x)];
                    if (s <= 1) {
                        if (s == 0) {
                            dead = 1;
                            break;
                        }
                        force[forced++] = x;
                    } else if (s < t || (s == t && x < best)) {
                        t = s;
                        best = x;
                    }
                }
                if (dead) {
                    forced = 0;
                    step = BACKUP;
                    continue;
                }
                if (forced > 0) {
                    best = force[--forced];
                } else {
                    /* Save the sizes, restored before each further option of
                     * `best`: every item's when they are few against the
                     * active ones (one copy), else the active items'. */
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
                    int64_t q = start;
                    if (copy) {
                        for (int64_t i = 0; i < n_items; i++)
                            stack[q + i] = size[i];
                        q += n_items;
                        stack[q++] = (int32_t)as_;
                        saved_ap[level + 1] = (int32_t)(-1 - ap);
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
                        saved_ap[level + 1] = (int32_t)ap;
                    }
                    saved[level + 1] = (int32_t)q;
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
            int64_t start = saved[level], end = saved[level + 1];
            int32_t mark = saved_ap[level + 1];
            if (mark < 0) {  /* every size copied */
                ap = -1 - mark;
                as_ = stack[end - 1];
                for (int64_t i = 0; i < n_items; i++)
                    size[i] = stack[start + i];
            } else {
                ap = mark;
                as_ = n_primary + ((end - start) / 2 - ap);
                for (int64_t q = start; q < end; q += 2)
                    size[U(stack[q])] = stack[q + 1];
            }
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
