"""Reformulations between the two forms of problem, as pure functions.

- `exact_cover_to_model(xc)`: one 0/1 variable per option; the options of a
  primary item sum to 1 (or lie between its bounds, for multiplicities); the
  uncoloured options of a secondary item sum to at most 1; an item that takes
  colours gets one colour variable, forced by the chosen options (so that the
  lowering adds no solutions), or, past `MAX_COLOUR_VALUES` values, one 0/1
  variable per colour.
- `model_to_exact_cover(m)` (Knuth: a CSP is a special exact cover with
  colours): one primary item per variable and one option per (variable,
  value), which colours the variable's secondary item with the value; a table,
  sum or equality becomes a primary item with one option per allowed tuple,
  colouring the same secondary items; an all-different becomes items
  (constraint, value) covered by the options (variable, value).
- `lower(problem, target)`: whichever of the two is needed, or the identity.

Each returns the lowered problem and `decode`, which maps a solution of the
lowered problem back to the terms of the declared one. Both lowerings are
bijections on solutions, so counts agree.

>>> from csp.exactcover import ExactCover
>>> xc = ExactCover.from_text("a b c | x y\\na x:0\\nb x:0 y\\nc y:1\\na b x:1\\n")
>>> m, decode = exact_cover_to_model(xc)
>>> import itertools
>>> names = list(m.variables)
>>> found = [dict(zip(names, values)) for values in
...          itertools.product(*(m.variables[v].domain for v in names))]
>>> sorted(decode(s) for s in found if m.is_solution(s))
[(2, 3)]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from csp.constraints import AllDifferent, Compare, Constraint, Linear, Sum, Table
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Assignment, Model

Decode = Callable[[Any], Any]

MAX_TUPLES = 1_000_000
"""The most allowed tuples one constraint may expand to (in `model_to_exact_cover`
and wherever a constraint must be given as a table)."""


MAX_COLOUR_VALUES = 64
"""The most values of one colour variable (its colours and "none"): the
bitmask backend keeps a domain in one 64-bit mask (`MAX_VALUES` of
`csp.backends.bitmask.compile`), so an item with more colours is encoded with
one 0/1 variable per colour instead, which every backend takes."""


# -- ExactCover -> Model ---------------------------------------------------------------


def exact_cover_to_model(xc: ExactCover, *, max_colour_values: int = MAX_COLOUR_VALUES
                         ) -> tuple[Model, Decode]:
    """The CSP of an exact cover with colours, and the map of its solutions back.

    Variables: `("option", k)` in {0, 1} for every option k; `("colour", item)`
    for a secondary item that needs one (two colours, or a colour and an
    uncoloured option): 0 when no coloured option covers the item, else the
    (1-based) local code of its colour. An option that colours the item with
    c forces it to c, an uncoloured one forces it to 0, and a nonzero value
    needs some coloured option: the colour variable is a function of the
    options, so solutions are in bijection. An item with so many colours that
    this variable would have more than `max_colour_values` values gets
    instead `("colour", item, c)` in {0, 1} per colour c (see
    `_colour_flags`), again a function of the options. Either way the model
    has size linear in the exact cover's.

    >>> xc = ExactCover.from_text("a b\\na\\nb\\na b\\n")
    >>> m, decode = exact_cover_to_model(xc)
    >>> m
    <Model: 3 variables, 2 constraints>
    >>> decode({("option", 0): 1, ("option", 1): 1, ("option", 2): 0})
    (0, 1)
    """
    arrays = xc.arrays()
    start, items, colours = (arrays[k].tolist() for k in ("start", "items", "colours"))
    n_primary, n_options = xc.n_primary, xc.n_options
    # For every item: the options covering it, with their colour codes.
    covering: list[list[tuple[int, int]]] = [[] for _ in range(xc.n_items)]
    for k in range(n_options):
        for p in range(start[k], start[k + 1]):
            covering[items[p]].append((k, colours[p]))
    m = Model(name=xc.name)
    # The flags of the items with many colours come first: see `_colour_flags`.
    flags = {
        code: {c: m.var(("colour", xc.items_name(code), xc.colours[c - 1]), (0, 1))
               for c in _colours(covering[code])}
        for code in range(n_primary, xc.n_items)
        if len(_colours(covering[code])) + 1 > max_colour_values
    }
    option_names = [("option", k) for k in range(n_options)]
    for name in option_names:
        m.var(name, (0, 1))
    lower, upper = xc.multiplicities()
    for code in range(n_primary):
        options = [option_names[k] for k, _ in covering[code]]
        least, most = int(lower[code]), int(upper[code])
        if len(options) < least:
            # Too few options to cover the item often enough: no solution.
            m.var(("uncoverable", xc.items_name(code)), ())
            continue
        if least == most:
            m.add(Sum(options) == least)
            continue
        # Multiplicities: between least and most (a bound the item's options
        # cannot break is left out).
        if least > 0:
            m.add(Sum(options) >= least)
        if most < len(options):
            m.add(Sum(options) <= most)
    for code in range(n_primary, xc.n_items):
        if code in flags:
            _colour_flags(m, covering[code], option_names, flags[code])
        else:
            _secondary_item(m, xc.items_name(code), covering[code], option_names)

    def decode(solution: Mapping[Hashable, int]) -> tuple[int, ...]:
        return tuple(k for k, name in enumerate(option_names) if solution[name])

    return m, decode


def _colours(covering: list[tuple[int, int]]) -> list[int]:
    """The distinct colour codes the options of an item give it."""
    return sorted({c for _, c in covering if c})


def _secondary_item(
    m: Model, item: Hashable, covering: list[tuple[int, int]], option_names: Sequence[Hashable]
) -> None:
    uncoloured = [option_names[k] for k, c in covering if c == 0]
    distinct = _colours(covering)
    if len(uncoloured) > 1:
        m.add(Sum(uncoloured) <= 1)
    if not distinct or (len(distinct) == 1 and not uncoloured):
        return  # at most once, or one colour only: nothing more to say
    # One colour variable: 0 = no coloured option chosen, else a local code.
    local = {c: j + 1 for j, c in enumerate(distinct)}
    values = range(len(distinct) + 1)
    colour = m.var(("colour", item), values)
    for k, c in covering:
        forced = local.get(c, 0)
        m.add(Table([option_names[k], colour],
                    [(0, v) for v in values] + [(1, forced)]))
    # A nonzero colour needs a coloured option: colour <= top * (their sum).
    coloured = [option_names[k] for k, c in covering if c]
    top = len(distinct)
    m.add(Sum(coloured + [colour], [top] * len(coloured) + [-1]) >= 0)


def _colour_flags(
    m: Model, covering: list[tuple[int, int]], option_names: Sequence[Hashable],
    flags: dict[int, Any],
) -> None:
    """An item with many colours: its flag `("colour", item, c)` in {0, 1}
    says "the item has colour c". A chosen option coloured c sets the flag; a
    set flag needs a chosen option coloured c (so each flag is a function of
    the options); at most one flag, or one uncoloured option, may be set.
    Each covering option is in at most two of these constraints: linear size.

    The implications are tables, not sums with a negative weight, and the
    flags are declared before the options: python-constraint prunes by
    forward checking with tables, and orders variables by their number of
    constraints, then by declaration; a flag set first then rules out every
    option of another colour at once. (Otherwise it would try the subsets of
    the options before looking at the flags: 70 colours took minutes.)
    """
    by_colour: dict[int, list[Hashable]] = {c: [] for c in flags}
    for k, c in covering:
        if c:
            by_colour[c].append(option_names[k])
    for c, flag in flags.items():
        options = by_colour[c]
        if len(options) == 1:
            m.add(Table([options[0], flag], [(0, 0), (1, 1)]))  # flag == the option
            continue
        for option in options:
            m.add(Table([option, flag], [(0, 0), (0, 1), (1, 1)]))  # option => flag
        m.add(Sum(options + [flag], [1] * len(options) + [-1]) >= 0)  # flag => some option
    uncoloured = [option_names[k] for k, c in covering if c == 0]
    m.add(Sum(list(flags.values()) + uncoloured) <= 1)


# -- Model -> ExactCover ---------------------------------------------------------------


def model_to_exact_cover(m: Model, *, max_tuples: int = MAX_TUPLES) -> tuple[ExactCover, Decode]:
    """The exact cover with colours of a CSP, and the map of its solutions back.

    Items: `("var", x)` (primary) for every variable x; `("val", x)`
    (secondary, coloured with x's value) for a variable in some table, sum
    or equality; `("con", j)` (primary) for such a constraint j;
    `("diff", j, v)` for value v of all-different j (primary when the
    constraint is a permutation, i.e. has as many variables as values, else
    secondary). Unary constraints filter the domains. A tuple that gives the
    same value to two variables of one all-different (or `!=`) can never be
    chosen and is left out.

    A sum's tuples are enumerated with bounds, so the cost is the number of
    allowed tuples; more than `max_tuples` for one constraint is an
    `InputError`.

    >>> from csp.model import Model
    >>> m = Model()
    >>> a, b = m.var("a", [1, 2, 3]), m.var("b", [1, 2, 3])
    >>> _ = m.add(Sum([a, b]) == 4)
    >>> _ = m.add(a != b)
    >>> xc, decode = model_to_exact_cover(m)
    >>> xc
    <ExactCover: 3 primary + 5 secondary items, 8 options>
    >>> decode((0, 5, 6))
    {'a': 1, 'b': 3}
    """
    names = list(m.variables)
    domains: dict[Hashable, Sequence[int]] = {x: variable.domain
                                              for x, variable in m.variables.items()}
    expanded: list[tuple[int, Constraint]] = []
    differents: list[tuple[int, tuple[Hashable, ...]]] = []
    for j, c in enumerate(m.constraints):
        if len(c.scope) == 1:
            x = c.scope[0]
            domains[x] = [v for v in domains[x] if c.holds({x: v})]
        elif isinstance(c, AllDifferent):
            differents.append((j, c.scope))
        elif isinstance(c, Compare) and c.op == "!=":
            differents.append((j, c.scope))
        else:
            expanded.append((j, c))
    partners: dict[Hashable, set[Hashable]] = {}
    if expanded:  # only the tables need them
        partners = {x: set() for x in names}
        for _, scope in differents:
            for x in scope:
                partners[x].update(scope)
        for x in names:
            partners[x].discard(x)

    tuples: list[tuple[int, Constraint, list[tuple[int, ...]]]] = []
    coloured: set[Hashable] = set()
    for j, c in expanded:
        scope_domains = [domains[x] for x in c.scope]
        apart = [[i for i in range(p) if c.scope[i] in partners[c.scope[p]]]
                 for p in range(len(c.scope))]
        tuples.append((j, c, allowed_tuples(c, scope_domains, apart, max_tuples=max_tuples)))
        coloured.update(c.scope)

    return _declare_lowering(m, names, domains, differents, tuples, coloured)


def _declare_lowering(
    m: Model,
    names: list[Hashable],
    domains: dict[Hashable, Sequence[int]],
    differents: list[tuple[int, tuple[Hashable, ...]]],
    tuples: list[tuple[int, Constraint, list[tuple[int, ...]]]],
    coloured: set[Hashable],
) -> tuple[ExactCover, Decode]:
    """The exact cover of `model_to_exact_cover`, declared with arrays: the
    options (variable, value) are numbered and their items found by numpy, with
    Python work per variable and per all-different, never per option."""
    n = len(names)
    var_of = {x: i for i, x in enumerate(names)}
    # `domains` lists the variables in the order of `names`.
    sizes = np.fromiter(map(len, domains.values()), dtype=np.int64, count=n)
    opt_var = np.repeat(np.arange(n), sizes)
    opt_val = np.fromiter(itertools.chain.from_iterable(domains.values()),
                          dtype=np.int64, count=int(sizes.sum()))
    values, value_index = _value_index(opt_val)
    # holds[x, i]: whether value i is in x's domain
    holds = np.zeros((n, len(values)), dtype=np.int32)
    holds[opt_var, value_index] = 1

    # The all-different items (j, v): primary when j is a permutation, else
    # secondary and only for values two of its variables may take.
    pair_var = np.fromiter(map(var_of.__getitem__,
                               itertools.chain.from_iterable(scope for _, scope in differents)),
                           dtype=np.int64)
    scope_sizes = np.fromiter((len(scope) for _, scope in differents), dtype=np.int64,
                              count=len(differents))
    pair_diff = np.repeat(np.arange(len(differents)), scope_sizes)
    # holders[j, i]: how many variables of all-different j may take value i
    if len(differents) and scope_sizes.min() > 0:  # reduceat needs every scope nonempty
        holders = np.add.reduceat(holds[pair_var], np.cumsum(scope_sizes) - scope_sizes, axis=0)
    else:
        cells = (pair_diff[:, None] * len(values) + np.arange(len(values))).ravel()
        holders = np.bincount(cells, weights=holds[pair_var].ravel(),
                              minlength=len(differents) * len(values)
                              ).astype(np.int64).reshape(len(differents), len(values))
    present = holders > 0
    permutation = present.sum(axis=1) <= scope_sizes
    is_primary = present & permutation[:, None]
    is_secondary = (holders > 1) & ~permutation[:, None]
    primary_d, primary_i = np.nonzero(is_primary)
    secondary_d, secondary_i = np.nonzero(is_secondary)
    diff_code = np.full((len(differents), len(values)), -1, dtype=np.int32)  # item numbers, as kept
    diff_code[primary_d, primary_i] = n + len(tuples) + np.arange(len(primary_d))
    colour_vars = [x for x in names if x in coloured] if coloured else []
    n_primary = n + len(tuples) + len(primary_d)
    n_val = len(colour_vars)
    diff_code[secondary_d, secondary_i] = n_primary + n_val + np.arange(len(secondary_d))
    constraint = np.fromiter((j for j, _ in differents), dtype=np.int64,
                             count=len(differents))
    primary: list[Hashable] = list(zip(itertools.repeat("var"), names))
    primary += [("con", j) for j, _, _ in tuples]
    primary += zip(itertools.repeat("diff"), constraint[primary_d].tolist(),
                   values[primary_i].tolist())
    secondary: list[Hashable] = list(zip(itertools.repeat("val"), colour_vars))
    secondary += zip(itertools.repeat("diff"), constraint[secondary_d].tolist(),
                     values[secondary_i].tolist())
    value_list = values.tolist()
    if not primary:
        primary = [("empty",)]  # a model without variables has one solution: {}

    # Entries of option k (variable x, value v), in order: ("var", x); ("val", x)
    # coloured v, if x has one; ("diff", j, v) for each all-different j of x,
    # in the order of the constraints, where that item exists. Each is put
    # straight at its place in the entry arrays: no sort.
    n_assign = len(opt_var)
    colour_names: list[int] = []
    val_item = np.full(n, -1, dtype=np.int64)
    val_item[[var_of[x] for x in colour_vars]] = n_primary + np.arange(n_val)
    has_val = val_item[opt_var] >= 0
    if has_val.any():
        colour_names = value_list
    # The all-different entries, option by option: option k's t-th is its
    # variable's t-th (variable, all-different) pair.
    pair_d = pair_diff[np.argsort(pair_var, kind="stable")]  # grouped by variable
    n_pairs = np.bincount(pair_var, minlength=n)
    first_pair = np.cumsum(n_pairs) - n_pairs
    per = n_pairs[opt_var]
    # (int32 from here on: the entry arrays are the largest, and int32 is what is kept)
    diff_option = np.repeat(np.arange(n_assign, dtype=np.int32), per)
    # the pair of each entry: its variable's first pair, plus its rank in its option
    pair = np.arange(len(diff_option), dtype=np.int32) + np.repeat(
        (first_pair[opt_var] - (np.cumsum(per) - per)).astype(np.int32), per)
    # (flat indices: a gather from one row-major array is cheaper than a 2-D one)
    pair_row = (pair_d * len(values)).astype(np.int32)
    diff_item = diff_code.ravel()[pair_row[pair] + value_index[diff_option]]
    keep = diff_item >= 0
    if keep.all():  # every (all-different, value) item exists, as in a sudoku
        counts = 1 + has_val + per
    else:
        diff_option, diff_item = diff_option[keep], diff_item[keep]
        counts = 1 + has_val + np.bincount(diff_option, minlength=n_assign)
    first = np.cumsum(counts) - counts  # each option's first entry
    entry_items = np.empty(int(counts.sum()), dtype=np.int32)
    entry_colours = np.zeros(len(entry_items), dtype=np.int32)
    entry_items[first] = opt_var
    with_val = np.flatnonzero(has_val)
    entry_items[first[with_val] + 1] = val_item[opt_var[with_val]]
    entry_colours[first[with_val] + 1] = value_index[with_val] + 1
    # Before the j-th kept diff entry: j others, and of the options up to its
    # own, every "var" entry and every "val" entry.
    lead = (np.arange(1, n_assign + 1) + np.cumsum(has_val)).astype(np.int32)  # by option
    before = np.arange(len(diff_item), dtype=np.int32) + lead[diff_option]
    entry_items[before] = diff_item
    data: list[Any] = []  # the tables' payloads; the (variable, value) pairs' come first
    # The tables' options: one per allowed tuple, colouring the scope's values.
    colour_of = {v: i + 1 for i, v in enumerate(colour_names)}
    table_items: list[int] = []
    table_colours: list[int] = []
    table_counts: list[int] = []
    for t, (j, c, allowed) in enumerate(tuples):
        scope_items = [int(val_item[var_of[x]]) for x in c.scope]
        for row in allowed:
            table_items += [n + t] + scope_items
            for v in row:
                if v not in colour_of:
                    colour_of[v] = len(colour_names) + 1
                    colour_names.append(v)
            table_colours += [0] + [colour_of[v] for v in row]
            table_counts.append(1 + len(row))
            data.append((j, row))
    if primary == [("empty",)]:
        table_items, table_colours, table_counts = [0], [0], [1]
        data.append(None)  # not in the assignment: decode skips it
    indptr = np.concatenate([[0], np.cumsum(np.concatenate([counts, table_counts]))])
    if table_items:
        entry_items = np.concatenate([entry_items, np.asarray(table_items, dtype=np.int32)])
        entry_colours = np.concatenate([entry_colours,
                                        np.asarray(table_colours, dtype=np.int32)])
    xc = ExactCover.from_arrays(
        primary, secondary, indptr.astype(np.int64), entry_items, entry_colours,
        colour_names=colour_names, name=m.name, check=False,  # valid as built
        data=functools.partial(_payloads, names, opt_var, opt_val, data))
    chosen: list[list[int]] = []  # each option's variable and value, made at the first decode

    def decode(solution: Sequence[int]) -> Assignment:
        if not chosen:
            chosen.extend((opt_var.tolist(), opt_val.tolist()))
        chosen_var, chosen_val = chosen
        found: dict[Hashable, int] = {}
        for k in solution:
            if k < n_assign:
                found[names[chosen_var[k]]] = chosen_val[k]
        return Assignment((x, found[x]) for x in names)

    return xc, decode


def _value_index(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct `values`, sorted, and each value's index among them: a
    table over the range when it is small (the usual domains, 1..n), else
    `np.unique`'s sort.

    >>> [a.tolist() for a in _value_index(np.array([3, 1, 3, 7]))]
    [[1, 3, 7], [1, 0, 1, 2]]
    """
    if len(values) == 0:
        return values, values
    low = int(values.min())
    span = int(values.max()) - low + 1
    if span > 4 * len(values) + 64:
        distinct, index = np.unique(values, return_inverse=True)
        return distinct, index.reshape(-1)
    seen = np.zeros(span, dtype=np.int32)
    shifted = values - low
    seen[shifted] = 1
    distinct = np.flatnonzero(seen)
    return distinct + low, (np.cumsum(seen, dtype=np.int32) - 1)[shifted]


def _payloads(names: list[Hashable], opt_var: np.ndarray, opt_val: np.ndarray,
              tables: list[Any]) -> list[Any]:
    """The payloads of a lowering's options: `(variable, value)` for option
    k < len(opt_var), then the tables' `(constraint, tuple)`; made only when
    read (a search does not read them)."""
    return [*zip(map(names.__getitem__, opt_var.tolist()), opt_val.tolist()), *tables]


def allowed_tuples(
    c: Constraint,
    domains: Sequence[Sequence[int]],
    apart: Sequence[Sequence[int]] | None = None,
    *,
    max_tuples: int = MAX_TUPLES,
) -> list[tuple[int, ...]]:
    """The tuples of values (one per scope variable, within `domains`) that
    satisfy `c`, in lexicographic order.

    `apart[p]` lists earlier positions whose values must differ from position
    p's (from all-different constraints elsewhere): tuples breaking that are
    left out. More than `max_tuples` tuples is an `InputError`.

    >>> allowed_tuples(Linear(["x", "y"], [1, 2], "<=", 4), [[0, 1, 2], [0, 1, 2]])
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1)]
    """
    apart = apart or [[] for _ in domains]
    if isinstance(c, Linear):
        rows = _linear_tuples(c, domains, apart, max_tuples)
    elif isinstance(c, Table) and not c.forbidden:
        rows = [t for t in c.allowed(domains) if _apart_ok(t, apart)]
    elif isinstance(c, Compare) and c.constant is None and c.op == "==":
        right = set(domains[1])
        rows = [(v, v) for v in domains[0] if v in right]
    else:
        # A forbidden table or any other constraint: test the whole product.
        size = math.prod(len(d) for d in domains)
        if size > max_tuples:
            raise InputError(
                f"{c.describe()}: its {size:,} candidate tuples are over the bound of "
                f"{max_tuples:,} tuples per constraint of the exact-cover reformulation"
            )
        rows = [t for t in itertools.product(*domains)
                if _apart_ok(t, apart) and c.holds(dict(zip(c.scope, t)))]
    if len(rows) > max_tuples:
        raise InputError(f"{c.describe()} has {len(rows):,} allowed tuples, over the bound of "
                         f"{max_tuples:,} tuples per constraint")
    return rows


def _apart_ok(row: Sequence[int], apart: Sequence[Sequence[int]]) -> bool:
    return all(row[i] != row[p] for p in range(len(row)) for i in apart[p])


def _linear_tuples(
    c: Linear, domains: Sequence[Sequence[int]], apart: Sequence[Sequence[int]], max_tuples: int
) -> list[tuple[int, ...]]:
    """Depth-first enumeration of a sum's tuples, pruned by the bounds of what
    is left, so that the work is about the number of tuples produced."""
    n, weights, rhs, op = len(c.scope), c.weights, c.rhs, c.op
    if any(not d for d in domains):
        return []
    terms = [sorted(w * v for v in d) for w, d in zip(weights, domains)]
    low = [0] * (n + 1)  # low[p]: least sum of positions p..n-1
    high = [0] * (n + 1)
    for p in range(n - 1, -1, -1):
        low[p] = low[p + 1] + terms[p][0]
        high[p] = high[p + 1] + terms[p][-1]
    need_low = op in ("==", "<=")  # the sum must not exceed rhs
    need_high = op in ("==", ">=")  # the sum must reach rhs
    rows: list[tuple[int, ...]] = []
    row = [0] * n
    values = [list(d) for d in domains]
    index = [0] * (n + 1)
    partial = [0] * (n + 1)
    p = 0
    index[0] = 0
    while p >= 0:
        if index[p] == len(values[p]):
            p -= 1
            if p >= 0:
                index[p] += 1
            continue
        v = values[p][index[p]]
        total = partial[p] + weights[p] * v
        if (
            (need_low and total + low[p + 1] > rhs)
            or (need_high and total + high[p + 1] < rhs)
            or any(row[i] == v for i in apart[p])
        ):
            index[p] += 1
            continue
        row[p] = v
        if p == n - 1:
            if op == "!=" and total == rhs:
                index[p] += 1
                continue
            rows.append(tuple(row))
            if len(rows) > max_tuples:
                raise InputError(
                    f"{c.describe()} has over {max_tuples:,} allowed tuples, the bound per "
                    "constraint of the exact-cover reformulation: give it as smaller sums"
                )
            index[p] += 1
            continue
        partial[p + 1] = total
        p += 1
        index[p] = 0
    return rows


# -- dispatch ------------------------------------------------------------------------


def lower(problem: Any, target: type) -> tuple[Any, Decode]:
    """`problem` in the form `target` (`ExactCover` or `Model`), and `decode`.

    >>> xc = ExactCover.from_text("a\\na\\n")
    >>> lower(xc, ExactCover)[0] is xc
    True
    >>> type(lower(xc, Model)[0]).__name__
    'Model'
    """
    if isinstance(problem, target):
        return problem, _identity
    if isinstance(problem, ExactCover) and issubclass(Model, target):
        return exact_cover_to_model(problem)
    if isinstance(problem, Model) and issubclass(ExactCover, target):
        return model_to_exact_cover(problem)
    raise TypeError(f"cannot lower a {type(problem).__name__} to a {target.__name__}")


def _identity(solution: Any) -> Any:
    return solution
