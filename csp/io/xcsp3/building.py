"""An XCSP3 instance's variables and constraints, as pycsp3's parser hands
them over (`Callbacks`), declared into a `Model`.

Each callback maps one XCSP3-core constraint onto the model language: its
own constraint where one says exactly the same (`allDifferent` an
`AllDifferent`, `sum` a `Linear`, `regular` a `Regular`, `cardinality` a
`GlobalCardinality`, ...), else an exact rewriting into the language's
constraints, with no auxiliary variable, so that a solution of the model is
a solution of the instance and counts are the instance's:

- `noOverlap`: one disjunction per pair of boxes (one before the other along
  some axis, or one of zero size where `zeroIgnored`);
- `cumulative` with `le`/`lt`: the load at each task's start, where a load
  is highest (the task decomposition);
- `binPacking` and `knapsack`: sums of sizes counted where a condition holds;
- `channel` between lists of unequal length, or of values outside the
  indices: the implications `x[i] = j -> y[j] = i` themselves;
- `lex` against a tuple of integers, `precedence`, `allDifferent` of lists:
  their disjunctive definitions.

Everything else is refused, naming the constraint (the reader adds the
line): `circuit` whose nodes may be their own successors (XCSP3's circuit
is a *sub*circuit: such a node is off the circuit), `flow`, `minimumArg`,
`maximumArg`, `cumulative` with other conditions, symbolic variables.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Expression, Table, Term
from csp.errors import InputError
from csp.expressions import Count, Element, Maximum, Minimum, NValue
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Decreasing,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    LexLessEq,
    Regular,
)
from csp.io.folding import LOGIC, add_folded, linear, relation
from csp.io.xcsp3.trees import Trees
from csp.model import Model

MAX_DOMAIN = 1 << 22
"""The most values a variable's domain may have: the model keeps every one."""

MAX_EXPANDED_TUPLES = 1_000_000
"""A table with `*` is expanded into plain tuples up to this many; past it,
each starred tuple is the conjunction of its fixed values."""

_and, _or = LOGIC["and"], LOGIC["or"]

OPERATORS = {"lt": "<", "le": "<=", "ge": ">=", "gt": ">", "eq": "==", "ne": "!="}


class Builder:
    """The callbacks of pycsp3's parser (mixed into its `Callbacks` class by
    the reader), declaring into `self.model`."""

    def __init__(self, name: str | None, ignore_objective: bool) -> None:
        self.model = Model(name)
        self.variables: dict[str, Any] = {}
        self.trees = Trees(self.var)
        self.ignore_objective = ignore_objective
        self.line: int | None = None
        self.group_lines: list[int | None] | None = None
        self.tables: dict[tuple[int, bool, int], tuple[list[Any], Table]] = {}
        # pycsp3's Callbacks settings: no recognising (the trees are read as written)
        self.print_general_methods = self.print_specific_methods = False
        self.force_exit = False
        for flag in ("unary_primitives", "binary_primitives", "ternary_primitives",
                     "logic_intension", "sum_intension", "extremum_intension",
                     "specific_count_cases", "specific_nvalues_cases"):
            setattr(self, f"recognize_{flag}", False)
        # As ACE and Choco: a variable in no constraint is not part of the
        # problem (it would multiply every count by its domain's size).
        self.discard_variables_of_degree_0 = True
        self.unconstrained: list[str] = []

    # -- the general methods (pycsp3 calls them at each step) -----------------------------

    def load_instance(self, *args: Any) -> None: ...

    def begin_instance(self, *args: Any) -> None: ...

    def end_instance(self) -> None: ...

    def load_variables(self, *args: Any) -> None: ...

    def load_var_array(self, *args: Any) -> None: ...

    def load_constraints(self, *args: Any) -> None: ...

    def load_block(self, *args: Any) -> None: ...

    def load_slide(self, *args: Any) -> None: ...

    def load_templated_constraints(self, *args: Any) -> None: ...

    def load_objectives(self, *args: Any) -> None: ...

    def load_objective(self, *args: Any) -> None: ...

    def load_annotations(self, *args: Any) -> None: ...

    def load_annotation(self, *args: Any) -> None: ...

    # -- variables -------------------------------------------------------------------------

    def var(self, x: Any) -> Any:
        """The model's variable for pycsp3's `x`."""
        try:
            return self.variables[x.id]
        except KeyError:
            raise InputError(f"unknown variable {x.id}", token=x.id) from None
        except AttributeError:
            raise InputError(f"{x!r} is not a variable") from None

    def load_var(self, x: Any) -> None:
        if x.degree is None:
            self.unconstrained.append(x.id)

    def var_integer_range(self, x: Any, low: int, high: int) -> None:
        self._declare(x, range(low, high + 1))

    def var_integer(self, x: Any, values: list[int]) -> None:
        self._declare(x, values)

    def _declare(self, x: Any, values: Sequence[int]) -> None:
        if len(values) > MAX_DOMAIN:
            raise InputError(f"the domain of {x.id} has {len(values):,} values, over the "
                             f"{MAX_DOMAIN:,} csp keeps", token=x.id)
        self.variables[x.id] = self.model.var(x.id, values)

    def var_undefined(self) -> None: ...

    def var_symbolic(self, x: Any, values: list[str]) -> None:
        raise InputError(f"the symbolic variable {x.id}: csp takes integer variables only",
                         token=x.id)

    # -- helpers ---------------------------------------------------------------------------

    def post(self, constraint: Constraint | bool) -> None:
        """Add a constraint (a conjunction as its parts; True is nothing, False
        the constraint that never holds)."""
        add_folded(self.model, constraint)

    def term(self, item: Any) -> Any:
        """A list item (pycsp3's variable, tree or int) as a csp value."""
        if isinstance(item, int):
            return item
        if hasattr(item, "cnt") and hasattr(item, "type"):
            return self.trees.integer(item)
        return self.var(item)

    def terms(self, items: Sequence[Any]) -> list[Any]:
        return [self.term(item) for item in items]

    def plain(self, items: Sequence[Any]) -> list[Any] | None:
        """The model's variables for `items`, if they are distinct variables."""
        found = self.terms(items)
        if all(isinstance(v, Term) for v in found) and len({id(v) for v in found}) == len(found):
            return found
        return None

    def holds(self, value: Any, condition: Any) -> Constraint | bool:
        """`value` meets an XCSP3 condition: (op, k), (op, x), (in, a..b), (in, {..})."""
        op = str(condition.operator)
        right = condition.right_operand()
        if op in OPERATORS:
            return relation(value, OPERATORS[op], self.term(right))
        if hasattr(condition, "min"):  # an interval
            inside = _and([relation(value, ">=", condition.min),
                           relation(value, "<=", condition.max)])
        else:
            inside = _or([relation(value, "==", self.term(v)) for v in sorted(condition.t)])
        if op == "in":
            return inside
        return LOGIC["not"]([inside])

    def domain(self, value: Any) -> list[int]:
        return [value] if isinstance(value, int) else list(value.domain)

    # -- generic constraints ---------------------------------------------------------------

    def ctr_true(self, scope: list[Any]) -> None: ...

    def ctr_false(self, scope: list[Any]) -> None:
        self.post(False)

    def ctr_intension(self, scope: Any, tree: Any) -> None:
        self.post(self.trees.truth(tree))

    def ctr_extension_unary(self, x: Any, values: list[Any], positive: bool,
                            flags: Any) -> None:
        chosen: list[int] = []
        for v in values:
            chosen.extend(v if isinstance(v, range) else [v])
        self.table([x], [(v,) for v in chosen], positive, set())

    def ctr_extension(self, scope: list[Any], tuples: list[Any], positive: bool,
                      flags: Any) -> None:
        if tuples and not isinstance(tuples[0], (tuple, list)):  # a unary table, read here
            self.ctr_extension_unary(scope[0], tuples, positive, flags)
            return
        self.table(scope, tuples, positive, flags)

    def table(self, scope: list[Any], rows: list[Any], positive: bool, flags: Any) -> None:
        variables = [self.var(x) for x in scope]
        if "starred" in flags:
            star = _star()
            rows = [tuple(None if v is star else v for v in row) for row in rows]
        if len({id(v) for v in variables}) < len(variables):
            variables, rows = _one_copy(variables, rows)
        if "starred" not in flags:
            self.post(self._shared(variables, rows, positive))
            return
        starred = [row for row in rows if None in row]
        plain = [row for row in rows if None not in row]
        domains = [v.domain for v in variables]
        size = sum(math.prod(len(domains[i]) for i, x in enumerate(row) if x is None)
                   for row in starred)
        if size <= MAX_EXPANDED_TUPLES:
            for row in starred:
                plain.extend(itertools.product(*[domains[i] if x is None else (x,)
                                                 for i, x in enumerate(row)]))
            self.post(Table(variables, plain, forbidden=not positive))
            return
        matches = [_and([Compare(v, "==", x) for v, x in zip(variables, row) if x is not None])
                   for row in starred]
        if plain:
            matches.append(Table(variables, plain))
        self.post(_or(matches) if positive else _and([LOGIC["not"]([m]) for m in matches]))

    def _shared(self, variables: list[Any], rows: list[Any], positive: bool) -> Table:
        """The table of `rows` over `variables`, its tuples checked once for
        all the constraints of a group (which share one list of rows)."""
        key = (id(rows), positive, len(variables))
        known = self.tables.get(key)
        if known is not None and known[0] is rows:
            return known[1].over(variables)
        table = Table(variables, rows, forbidden=not positive)
        self.tables[key] = (rows, table)
        return table

    def ctr_instantiation(self, lst: list[Any], values: list[int]) -> None:
        for x, v in zip(lst, values):
            if v is not _star():
                self.post(relation(self.term(x), "==", v))

    def ctr_clause(self, pos: list[Any], neg: list[Any]) -> None:
        self.post(_or([Compare(self.var(x), "==", 1) for x in pos]
                      + [Compare(self.var(x), "==", 0) for x in neg]))

    # -- languages -------------------------------------------------------------------------

    def ctr_regular(self, scope: list[Any], transitions: list[Any], start: str,
                    final: list[str]) -> None:
        self.post(Regular([self.var(x) for x in scope], transitions, start, final))

    def ctr_mdd(self, scope: list[Any], transitions: list[Any]) -> None:
        sources = {q for q, _, _ in transitions}
        targets = {r for _, _, r in transitions}
        roots, ends = sources - targets, targets - sources
        if len(roots) != 1 or len(ends) != 1:
            raise InputError(f"mdd: {len(roots)} root node(s) and {len(ends)} terminal "
                             "node(s); an MDD has one of each")
        self.post(Regular([self.var(x) for x in scope], transitions, roots.pop(), ends))

    # -- comparison ------------------------------------------------------------------------

    def ctr_all_different(self, scope: list[Any], excepting: list[int] | None) -> None:
        plain = self.plain(scope)
        if plain is not None and len(plain) > 1:
            self.post(AllDifferentExcept(plain, excepting) if excepting else
                      AllDifferent(plain))
            return
        values = self.terms(scope)
        self.post(_and([self._different(a, b, excepting)
                        for i, a in enumerate(values) for b in values[i + 1:]]))

    def _different(self, a: Any, b: Any, excepting: list[int] | None) -> Constraint | bool:
        parts = [relation(a, "!=", b)]
        parts += [relation(a, "==", v) for v in excepting or ()]
        return _or(parts)

    def ctr_all_different_lists(self, lists: list[list[Any]], excepting: Any) -> None:
        if excepting:
            raise InputError("allDifferent of lists with except is outside what csp takes")
        rows = [self.terms(row) for row in lists]
        self.post(_and([_or([relation(a, "!=", b) for a, b in zip(r, s)])
                        for i, r in enumerate(rows) for s in rows[i + 1:]]))

    def ctr_all_different_matrix(self, matrix: list[list[Any]], excepting: Any) -> None:
        for row in matrix:
            self.ctr_all_different(row, excepting)
        for column in zip(*matrix):
            self.ctr_all_different(list(column), excepting)

    def ctr_all_equal(self, scope: list[Any], excepting: Any) -> None:
        if excepting:
            raise InputError("allEqual with except is outside what csp takes")
        plain = self.plain(scope)
        if plain is not None and len(plain) > 1:
            self.post(AllEqual(plain))
            return
        values = self.terms(scope)
        self.post(_and([relation(a, "==", b) for a, b in zip(values, values[1:])]))

    def ctr_ordered(self, lst: list[Any], operator: Any, lengths: Any) -> None:
        name = str(operator.name).lower()
        increasing, strict = name.endswith("increasing"), name.startswith("strictly")
        plain = self.plain(lst)
        if plain is not None and lengths is None and len(plain) > 1:
            kind = Increasing if increasing else Decreasing
            self.post(kind(plain, strict=strict))
            return
        values = self.terms(lst)
        gaps = self.terms(lengths) if lengths is not None else [0] * len(values)
        op = ("<" if strict else "<=") if increasing else (">" if strict else ">=")
        self.post(_and([relation(Expression.of(a) + gap if increasing else a, op,
                                 b if increasing else Expression.of(b) + gap)
                        for a, b, gap in zip(values, values[1:], gaps)]))

    def ctr_lex(self, lists: list[list[Any]], operator: Any) -> None:
        rows = [self.terms(row) for row in lists]
        name = str(operator.name).lower()
        strict = name.startswith("strictly")
        if "decreasing" in name:
            rows = rows[::-1]
        for a, b in zip(rows, rows[1:]):
            if all(isinstance(v, Term) for v in a + b):
                self.post((LexLess if strict else LexLessEq)(a, b))
            else:
                self.post(lex(a, b, strict))

    def ctr_lex_limit(self, lst: list[Any], limit: list[int], operator: Any) -> None:
        self.ctr_lex([lst, limit], operator)

    def ctr_lex_matrix(self, matrix: list[list[Any]], operator: Any) -> None:
        self.ctr_lex(matrix, operator)
        self.ctr_lex([list(column) for column in zip(*matrix)], operator)

    def ctr_precedence(self, lst: list[Any], values: list[int] | None, covered: bool) -> None:
        xs = self.terms(lst)
        if values is None:
            values = sorted({v for x in xs for v in self.domain(x)})
        for s, t in zip(values, values[1:]):
            for k, x in enumerate(xs):
                self.post(_or([relation(x, "!=", t)] + [relation(y, "==", s) for y in xs[:k]]))
        if covered:
            for v in values:
                self.post(_or([relation(x, "==", v) for x in xs]))

    # -- counting ---------------------------------------------------------------------------

    def ctr_sum(self, lst: list[Any], coefficients: Any, condition: Any) -> None:
        values = self.terms(lst)
        weights = self.terms(coefficients) if coefficients is not None else [1] * len(values)
        op, right = str(condition.operator), condition.right_operand()
        if op in OPERATORS and isinstance(right, int) and \
                all(isinstance(w, int) for w in weights):
            self.post(linear(weights, values, OPERATORS[op], right))
            return
        total = Expression()
        for v, w in zip(values, weights):
            total = total + Expression.of(v) * w
        self.post(self.holds(total, condition))

    def ctr_count(self, lst: list[Any], values: list[Any], condition: Any) -> None:
        xs, targets = self.terms(lst), self.terms(values)
        if len(targets) == 1:
            counted: Any = Count(xs, targets[0])
        else:
            counted = Expression()
            for x in xs:
                counted = counted + _as_number(_or([relation(x, "==", v) for v in targets]))
        self.post(self.holds(counted, condition))

    def ctr_nvalues(self, lst: list[Any], excepting: list[int] | None, condition: Any) -> None:
        xs = self.terms(lst)
        if not excepting:
            self.post(self.holds(NValue(xs), condition))
            return
        values = sorted({v for x in xs for v in self.domain(x)} - set(excepting))
        taken = Expression()
        for v in values:
            taken = taken + _as_number(_or([relation(x, "==", v) for x in xs]))
        self.post(self.holds(taken, condition))

    def ctr_cardinality(self, lst: list[Any], values: list[Any], occurs: list[Any],
                        closed: bool) -> None:
        plain = self.plain(lst)
        fixed_values = all(isinstance(v, int) for v in values)
        if plain is not None and fixed_values and not any(isinstance(k, range)
                                                          for k in occurs):
            self.post(GlobalCardinality(plain, values, self.terms(occurs), closed=closed))
            return
        xs, targets = self.terms(lst), self.terms(values)
        for v, k in zip(targets, occurs):
            number = Count(xs, v)
            if isinstance(k, range):
                self.post(_and([relation(number, ">=", k.start),
                                relation(number, "<=", k.stop - 1)]))
            else:
                self.post(relation(number, "==", self.term(k)))
        if closed:
            for x in xs:
                self.post(_or([relation(x, "==", v) for v in targets]))

    def ctr_minimum(self, lst: list[Any], condition: Any) -> None:
        self.post(self.holds(Minimum(self.terms(lst)), condition))

    def ctr_maximum(self, lst: list[Any], condition: Any) -> None:
        self.post(self.holds(Maximum(self.terms(lst)), condition))

    # -- connection -------------------------------------------------------------------------

    def ctr_element(self, lst: list[Any], i: Any, condition: Any) -> None:
        self.post(self.holds(Element(self.terms(lst), self.term(i)), condition))

    def ctr_element_matrix(self, matrix: list[list[Any]], i: Any, j: Any,
                           condition: Any) -> None:
        widths = {len(row) for row in matrix}
        if len(widths) != 1:
            raise InputError("element over a matrix whose rows differ in length")
        width = widths.pop()
        row, column = self.term(i), self.term(j)
        self.post(_and([relation(row, ">=", 0), relation(row, "<", len(matrix)),
                        relation(column, ">=", 0), relation(column, "<", width)]))
        flat = [self.term(v) for r in matrix for v in r]
        index = Expression.of(row) * width + column if not isinstance(row, int) or \
            not isinstance(column, int) else row * width + column
        self.post(self.holds(Element(flat, index), condition))

    def ctr_channel(self, lst1: list[Any], lst2: list[Any] | None) -> None:
        xs = [self.var(x) for x in lst1]
        ys = xs if lst2 is None else [self.var(y) for y in lst2]
        if len(xs) > len(ys):
            raise InputError(f"channel: the first list has {len(xs)} variables, the second "
                             f"{len(ys)}; the first must not be the longer")
        n = len(ys)
        fits = all(0 <= v < n for x in xs + ys for v in x.domain)
        if lst2 is not None and len(xs) == n and fits and \
                len({id(v) for v in xs + ys}) == 2 * n:
            self.post(Inverse(xs, ys))
            return
        both = len(xs) == n
        for i, x in enumerate(xs):
            self.post(_and([relation(x, ">=", 0), relation(x, "<", n)]))
            for j, y in enumerate(ys):
                link = (Compare(x, "==", j), Compare(y, "==", i))
                self.post(LOGIC["iff"](list(link)) if both else LOGIC["imp"](list(link)))

    def ctr_channel_value(self, lst: list[Any], value: Any) -> None:
        xs, v = [self.var(x) for x in lst], self.term(value)
        self.post(relation(Expression.of(xs[0]) + sum(xs[1:], Expression()), "==", 1))
        for i, x in enumerate(xs):
            self.post(LOGIC["iff"]([Compare(x, "==", 1), relation(v, "==", i)]))

    # -- packing and scheduling -------------------------------------------------------------

    def ctr_nooverlap(self, origins: list[Any], lengths: list[Any], zero_ignored: bool) -> None:
        self.ctr_nooverlap_multi([[x] for x in origins], [[w] for w in lengths], zero_ignored)

    def ctr_nooverlap_mixed(self, xs: list[Any], ys: list[Any], lx: list[Any], ly: list[Any],
                            zero_ignored: bool) -> None:
        self.ctr_nooverlap_multi([list(p) for p in zip(xs, ys)],
                                 [list(w) for w in zip(lx, ly)], zero_ignored)

    def ctr_nooverlap_multi(self, origins: list[Any], lengths: list[Any],
                            zero_ignored: bool) -> None:
        boxes = [(self.terms(o), self.terms(w)) for o, w in zip(origins, lengths)]
        for k, (a, wa) in enumerate(boxes):
            for b, wb in boxes[k + 1:]:
                apart: list[Constraint | bool] = []
                for pa, la, pb, lb in zip(a, wa, b, wb):
                    apart.append(relation(Expression.of(pa) + la, "<=", pb))
                    apart.append(relation(Expression.of(pb) + lb, "<=", pa))
                if zero_ignored:
                    apart += [relation(w, "==", 0) for w in wa + wb]
                self.post(_or(apart))

    def ctr_cumulative(self, origins: list[Any], lengths: list[Any], heights: list[Any],
                       condition: Any) -> None:
        op = str(condition.operator)
        if op not in ("le", "lt"):
            raise InputError(f"cumulative with the condition {op}: csp takes le and lt only")
        starts, durations, loads = self.terms(origins), self.terms(lengths), self.terms(heights)
        if any(v < 0 for h in loads for v in self.domain(h)):
            raise InputError("cumulative with a negative height is outside what csp takes")
        for at in starts:
            load = Expression()
            for s, d, h in zip(starts, durations, loads):
                running = _and([relation(s, "<=", at),
                                relation(at, "<", Expression.of(s) + d)])
                load = load + Expression.of(_as_number(running)) * h
            self.post(self.holds(load, condition))

    def _loads(self, lst: list[Any], sizes: list[Any], bins: Sequence[int]) -> list[Any]:
        xs, weights = self.terms(lst), self.terms(sizes)
        loads = []
        for b in bins:
            load = Expression()
            for x, w in zip(xs, weights):
                load = load + Expression.of(_as_number(relation(x, "==", b))) * w
            loads.append(load)
        return loads

    def ctr_binpacking(self, lst: list[Any], sizes: list[Any], condition: Any) -> None:
        bins = sorted({v for x in self.terms(lst) for v in self.domain(x)})
        for load in self._loads(lst, sizes, bins):
            self.post(self.holds(load, condition))

    def ctr_binpacking_limits(self, lst: list[Any], sizes: list[Any], limits: list[Any]) -> None:
        for load, limit in zip(self._loads(lst, sizes, range(len(limits))), limits):
            self.post(relation(load, "<=", self.term(limit)))

    def ctr_binpacking_loads(self, lst: list[Any], sizes: list[Any], loads: list[Any]) -> None:
        for load, target in zip(self._loads(lst, sizes, range(len(loads))), loads):
            self.post(relation(load, "==", self.term(target)))

    def ctr_knapsack(self, lst: list[Any], weights: list[int], wcondition: Any,
                     profits: list[int], pcondition: Any) -> None:
        self.ctr_sum(lst, weights, wcondition)
        self.ctr_sum(lst, profits, pcondition)

    # -- graphs -----------------------------------------------------------------------------

    def ctr_circuit(self, lst: list[Any], size: Any) -> None:
        if size is not None:
            raise InputError("circuit with a size is outside what csp takes")
        xs = [self.var(x) for x in lst]
        loops = [x.name for i, x in enumerate(xs) if i in x.domain]
        if loops:
            raise InputError(
                f"circuit: {loops[0]} may be its own successor, which in XCSP3 leaves its "
                "node off the circuit (a subcircuit); csp's Circuit goes through every "
                "node: remove each variable's own index from its domain to say so")
        self.post(Circuit(xs))

    # -- objectives and annotations ---------------------------------------------------------

    def _objective(self, *args: Any) -> None:
        if not self.ignore_objective:
            raise InputError("the instance has an objective: csp solves and counts "
                             "satisfaction problems (--ignore-objective: its constraints only)")

    obj_minimize = obj_maximize = obj_minimize_special = obj_maximize_special = _objective

    def ann_decision(self, *args: Any) -> None: ...

    def ann_val_heuristic_static(self, *args: Any) -> None: ...


def lex(a: list[Any], b: list[Any], strict: bool) -> Constraint | bool:
    """`a` before `b` in lexicographic order (or equal unless `strict`):
    some prefix equal, then a smaller value."""
    options: list[Constraint | bool] = []
    for k in range(len(a)):
        options.append(_and([relation(x, "==", y) for x, y in zip(a[:k], b[:k])]
                            + [relation(a[k], "<", b[k])]))
    if not strict:
        options.append(_and([relation(x, "==", y) for x, y in zip(a, b)]))
    return _or(options)


def _as_number(truth: Constraint | bool) -> Any:
    return int(truth) if isinstance(truth, bool) else truth


def _one_copy(variables: list[Any], rows: list[Any]) -> tuple[list[Any], list[Any]]:
    """A table whose scope names a variable twice, over one copy of each:
    the tuples whose copies agree (a `*` agrees with anything)."""
    first: dict[int, int] = {}
    for i, v in enumerate(variables):
        first.setdefault(id(v), i)
    keep = [i for i, v in enumerate(variables) if first[id(v)] == i]
    copies = [[i for i, v in enumerate(variables) if first[id(v)] == k] for k in keep]
    rows = [row for row in rows
            if all(_agree(row[i], row[first[id(v)]]) for i, v in enumerate(variables))]
    rows = [tuple(_merged(row, same) for same in copies) for row in rows]
    return [variables[i] for i in keep], rows


def _agree(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _merged(row: tuple[Any, ...], copies: list[int]) -> Any:
    fixed = [row[i] for i in copies if row[i] is not None]
    return fixed[0] if fixed else None


def _star() -> Any:
    from csp.io.xcsp3.loading import pycsp3_parts

    return pycsp3_parts()["ANY"]


def refusing(name: str) -> Any:
    """A callback for a constraint outside the subset."""

    def refuse(self: Builder, *args: Any) -> None:
        raise InputError(f"the constraint {name} is outside the XCSP3 subset csp takes",
                         token=name)

    return refuse


def callbacks_class(base: type) -> type:
    """`Builder` mixed into pycsp3's `Callbacks` (`base`): every method of
    `base` that `Builder` lacks refuses its constraint, so that nothing is
    dropped silently."""
    refusals: dict[str, Any] = {}
    for name in dir(base):
        if name.startswith(("ctr_", "obj_", "var_")) and not hasattr(Builder, name):
            refusals[name] = refusing(name.removeprefix("ctr_"))
    return type("Callbacks", (Builder, base), refusals)

