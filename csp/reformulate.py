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

import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

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
    domains = {x: list(m.variables[x].domain) for x in names}
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
    partners: dict[Hashable, set[Hashable]] = {x: set() for x in names}
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

    diff_items: list[tuple[int, Hashable, bool]] = []  # (j, value, primary?)
    for j, scope in differents:
        values = sorted({v for x in scope for v in domains[x]})
        permutation = len(values) <= len(scope)
        for v in values:
            holders = sum(v in domains[x] for x in scope)
            if permutation or holders > 1:
                diff_items.append((j, v, permutation))

    primary: list[Hashable] = [("var", x) for x in names]
    primary += [("con", j) for j, _, _ in tuples]
    primary += [("diff", j, v) for j, v, p in diff_items if p]
    secondary: list[Hashable] = [("val", x) for x in names if x in coloured]
    secondary += [("diff", j, v) for j, v, p in diff_items if not p]
    if not primary:
        primary = [("empty",)]  # a model without variables has one solution: {}
    xc = ExactCover(primary, secondary, name=m.name)
    if primary == [("empty",)]:
        xc.add_option([("empty",)])  # not in `assignment`: decode skips it

    # Which all-different items each variable's values touch.
    diff_of: dict[Hashable, list[int]] = {x: [] for x in names}
    for j, scope in differents:
        for x in scope:
            diff_of[x].append(j)
    diff_item_set = {(j, v) for j, v, _ in diff_items}

    assignment: list[tuple[Hashable, int] | None] = []
    for x in names:
        for v in domains[x]:
            entries: list[Any] = [("var", x)]
            if x in coloured:
                entries.append((("val", x), v))
            entries += [("diff", j, v) for j in diff_of[x] if (j, v) in diff_item_set]
            xc.add_option(entries, data=(x, v))
            assignment.append((x, v))
    for j, c, allowed in tuples:
        for row in allowed:
            xc.add_option([("con", j)] + [(("val", x), v) for x, v in zip(c.scope, row)],
                          data=(j, row))
            assignment.append(None)

    def decode(solution: Sequence[int]) -> Assignment:
        found: dict[Hashable, int] = {}
        for k in solution:
            pair = assignment[k] if k < len(assignment) else None
            if pair is not None:
                found[pair[0]] = pair[1]
        return Assignment((x, found[x]) for x in names)

    return xc, decode


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
