"""Decompositions: a model whose constraints a backend does not all take,
rewritten into constraints it does, with the same solutions.

`adapt(model, takes)` keeps every constraint the backend takes (`takes(c)`)
and rewrites the others, recursively, until every piece is taken:

1. a constraint over a small domain product (at most `DECOMPOSE_TUPLES`
   tuples) becomes the `Table` of its allowed tuples, where the backend takes
   tables: the strongest form (a table propagator is arc consistent);
2. otherwise the standard decomposition of its kind (below), which may
   declare *auxiliary variables*;
3. otherwise it is refused before solving with an `InputError` naming it.

Every auxiliary variable is *defined*: a total function of the variables
before it (a partial sum, the truth of a constraint, the state of an
automaton after a prefix, a distance in a graph). So each solution of the
rewritten model extends exactly one solution of the declared model: counts
are unchanged, and decoding a solution only drops the auxiliaries. Where a
decomposition's auxiliaries are not functions of the declared variables alone
(`Circuit`'s order, `Connected`'s distances are, but only once the
constraint holds) it cannot be reified, and a reification of it is refused.

The decompositions, by kind:

- logic (`And`, `Or`, `Not`, `Implies`, `Xor`, `Iff`): each operand that is
  not a literal becomes a boolean variable equal to its truth (its
  *reification*); a clause is then a sum of literals at least 1, `Xor` a sum
  equal to an odd number (`sum(l) - 2k == 1`, `k` a defined auxiliary), an
  equivalence an equality. Reifying a linear constraint uses the big-M
  inequalities with M taken from the domains' bounds (the textbook
  formulation, e.g. Williams, *Model Building in Mathematical Programming*);
- a function compared with something (`Element`, `Count`, `NValue`,
  `Minimum`, `Maximum`, `Abs`, `x * y`, `//`, `%`): its value becomes a
  defined auxiliary where the comparison is not `==`; `Element` over
  variables becomes one implication per index (`index == i -> array[i] ==
  value`, the decomposition MiniZinc's std library uses); `Count` a sum of
  reified equalities; `NValue` a sum over the values of "some variable takes
  it"; `Minimum` a lower bound on every operand and a clause "some operand
  equals it"; `Abs` the same over `x` and `-x`; products and divisions a
  table of their operands;
- `GlobalCardinality`: one `Count` per value (closed: every variable in the
  values); `AllEqual`: equalities; `AllDifferentExcept`: pairwise tables or
  clauses; `Increasing`/`Decreasing`: inequalities between neighbours;
  `LexLess`/`LexLessEq`: the decomposition with prefix-equality booleans
  (Frisch et al., "Global constraints for lexicographic orderings", 2002);
- `Regular`: the automaton made deterministic (subset construction) and
  complete (a dead state), and one state variable per position, each a table
  of the transitions (Pesant, "A regular language membership constraint",
  2004, as MiniZinc decomposes it);
- `Circuit`: all-different successors, no node its own successor, and an
  order variable per node that grows by one along the circuit from node 0
  (which rules out sub-tours: the classic MTZ-style decomposition);
- `Inverse`: one table per pair (i, j) for `f[i] == j <-> g[j] == i`;
- `Connected`: each node's distance from the first selected node within the
  selected nodes (a shortest-path fixpoint, unique), every selected node at a
  finite distance.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Expression, Linear, Table, Term
from csp.errors import InputError
from csp.expressions import (
    Abs,
    Comparison,
    Count,
    Div,
    Element,
    Function,
    Maximum,
    Minimum,
    Mod,
    NValue,
    Times,
    _is_plain,
)
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Connected,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    Regular,
)
from csp.logic import And, Iff, Implies, Logic, Not, Or, Xor
from csp.model import Model, Variable

DECOMPOSE_TUPLES = 100_000
"""The most tuples a constraint may expand to when a backend needs it as a `Table`."""

FUNCTION_TUPLES = 1_000_000
"""The most candidate tuples a product, quotient or remainder may have when a
backend without it needs it as a `Table` of its operands and value."""

TABLE_FIRST = True
"""Whether a constraint over a small domain product becomes a `Table` before
its decomposition is tried (tests switch it off to exercise every
decomposition on small models)."""

MAX_AUX_VALUES = 1_000_000
"""The most values an auxiliary variable may have (a sum's range, a product's)."""

LITERALS = (Compare, Linear)
"""The constraints that a backend taking `Logic` takes inside it (with logic)."""


class Auxiliary:
    """The name of an auxiliary variable: never equal to a declared name.

    >>> Auxiliary(3, "sum")
    aux3:sum
    """

    __slots__ = ("number", "note")

    def __init__(self, number: int, note: str) -> None:
        self.number = number
        self.note = note

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Auxiliary) and other.number == self.number

    def __hash__(self) -> int:
        return hash(("csp.aux", self.number))

    def __repr__(self) -> str:
        return f"aux{self.number}:{self.note}"

    def __lt__(self, other: object) -> bool:  # sorted() of names in messages
        return isinstance(other, Auxiliary) and self.number < other.number


class Decomposer:
    """Builds the model a backend gets (`target`): the declared variables and
    constraints it takes, and the rest rewritten (see the module)."""

    def __init__(self, source: Model, takes: Callable[[Constraint], bool],
                 tables: bool) -> None:
        self.source = source
        self.takes = takes
        self.tables = tables  # the backend takes Table: small constraints become one
        self.target = Model(source.name)
        for name, variable in source.variables.items():
            self.target.var(name, variable.domain)
        self.numbered = 0
        self._truths: dict[int, Variable] = {}  # id(constraint) -> its reification
        self._keep: list[Constraint] = []  # keeps those ids alive
        self._depth = 0

    # -- variables ------------------------------------------------------------------------

    def domain(self, name: Hashable) -> tuple[int, ...]:
        return self.target.variables[name].domain

    def variable(self, name: Hashable) -> Variable:
        """The variable named `name`: constraints built here take variables,
        never names, since a name may be an int, which they would read as a
        constant."""
        return self.target.variables[name]

    def aux(self, values: Iterable[int], note: str) -> Variable:
        """A new auxiliary variable over `values` (its definition is the caller's)."""
        values = sorted(set(values))
        if len(values) > MAX_AUX_VALUES:
            raise InputError(f"decomposing needs a variable for {note} with {len(values):,} "
                             f"values, over the bound of {MAX_AUX_VALUES:,}")
        self.numbered += 1
        return self.target.var(Auxiliary(self.numbered, note), values)

    def values(self, e: Any) -> list[int]:
        """The values expression `e` may take (a superset where exact would cost)."""
        if isinstance(e, int):
            return [e]
        if isinstance(e, Term):
            return list(self.domain(e.name))
        if isinstance(e, Constraint):
            return [0, 1]
        if isinstance(e, Expression):
            return _sum_values([(w, self.values(a)) for a, w in e.terms.items() if w],
                               e.constant)
        if isinstance(e, Function):
            return self._image(e)
        return list(self.domain(e))

    def _image(self, f: Function) -> list[int]:
        sets = [self.values(a) for a in f.args]
        if isinstance(f, Element):
            n = len(f.args) - 1
            index = [i for i in sets[-1] if 0 <= i < n]
            return sorted(set().union(*(sets[i] for i in index)))
        if isinstance(f, Count):
            return list(range(len(f.args)))
        if isinstance(f, NValue):
            return list(range(1, len(f.args) + 1))
        if isinstance(f, (Minimum, Maximum)):
            pick = min if isinstance(f, Minimum) else max
            low, high = pick(s[0] for s in sets), pick(s[-1] for s in sets)
            return sorted(v for v in set().union(*sets) if low <= v <= high)
        if math.prod(len(s) for s in sets) <= DECOMPOSE_TUPLES:
            out = {f.apply(t) for t in itertools.product(*sets)}
            return sorted(v for v in out if v is not None)
        corners = [f.apply(t) for t in itertools.product(*[(s[0], s[-1]) for s in sets])]
        known = [v for v in corners if v is not None]
        if isinstance(f, Abs):
            low = 0 if sets[0][0] <= 0 <= sets[0][-1] else min(known)
            return list(range(low, max(known) + 1))
        if isinstance(f, (Div, Mod)):
            x, y = sets
            big = max(abs(x[0]), abs(x[-1]))
            if isinstance(f, Mod):
                big = min(big, max(abs(y[0]), abs(y[-1])) - 1)
            return list(range(-big, big + 1))
        return list(range(min(known), max(known) + 1))  # a product: monotone in each corner

    def var_for(self, e: Any, guards: list[Constraint]) -> Any:
        """A variable (or an int) equal to expression `e`, defining auxiliaries
        as needed; conditions under which `e` is defined go to `guards`."""
        if isinstance(e, int):
            return e
        if isinstance(e, Term):
            return self.target.variables[e.name]
        if isinstance(e, Constraint):
            return self.truth(e)
        if isinstance(e, Expression):
            terms = {a: w for a, w in e.terms.items() if w}
            if not terms:
                return e.constant
            if len(terms) == 1 and e.constant == 0:
                (atom, weight), = terms.items()
                if weight == 1:
                    return self.var_for(atom, guards)
            flat = self._linear_terms(e, guards)
            y = self.aux(self.values(e), "sum")
            names = [v.name for v in flat] + [y.name]
            self.emit(Linear(names, [*flat.values(), -1], "==", -e.constant))
            return y
        if isinstance(e, Function):
            args = [self.var_for(a, guards) for a in e.args]
            if isinstance(e, Element):
                args[-1] = self._in_range(args[-1], len(args) - 1, guards)
            node = e.rebuilt(args)
            y = self.aux(self._image(node), e.kind.lower())
            self.emit(Comparison(node, "==", y))
            return y
        return self.target.variables[e]

    def _linear_terms(self, e: Expression, guards: list[Constraint]) -> dict[Any, int]:
        flat: dict[Any, int] = {}
        for atom, weight in e.terms.items():
            if not weight:
                continue
            v = self.var_for(atom, guards)
            if isinstance(v, int):
                raise InputError("internal: a constant atom")  # atoms are never ints
            flat[v] = flat.get(v, 0) + weight
        return flat

    def _in_range(self, index: Any, n: int, guards: list[Constraint]) -> Any:
        """An index made total: itself where its domain is within 0..n-1, else a
        defined copy (0 where out of range) and the guard that it is in range."""
        if isinstance(index, int):
            if not 0 <= index < n:
                guards.append(_false(self))
            return index
        domain = self.domain(index.name)
        if all(0 <= v < n for v in domain):
            return index
        inside = [v for v in domain if 0 <= v < n]
        guards.append(Table([index.name], [(v,) for v in inside]))
        clamped = self.aux(inside or [0], "index")
        self.emit(Table([index.name, clamped.name],
                        [(v, v if 0 <= v < n else (inside or [0])[0]) for v in domain]))
        return clamped

    def truth(self, c: Constraint) -> Variable:
        """A boolean variable equal to the truth of `c` (its reification)."""
        if c.model is None:
            c._bind(self.target)
        literal = _boolean_literal(c, self)
        if literal is not None and literal[1] == 1:
            return literal[0]
        known = self._truths.get(id(c))
        if known is not None:
            return known
        b = self.aux((0, 1), "truth")
        self.reify(c, b)
        self._truths[id(c)] = b
        self._keep.append(c)
        return b

    # -- constraints ----------------------------------------------------------------------

    def emit(self, c: Constraint) -> None:
        """Add `c` (bound to the target) as it is if the backend takes it, else
        its decomposition."""
        if c.model is None:
            c._bind(self.target)
        if self.takes(c):
            self.target.constraints.append(c)
            return
        if self._tabled(c):
            return
        self._depth += 1
        try:
            if self._depth > 200:
                raise InputError(f"{c.describe()}: its decomposition does not end")
            for part in decompose(c, self):
                self.emit(part)
        finally:
            self._depth -= 1

    def _tabled(self, c: Constraint) -> bool:
        if not self.tables or not TABLE_FIRST or isinstance(c, Table):
            return False
        domains = [self.domain(x) for x in c.scope]
        if math.prod(len(d) for d in domains) > DECOMPOSE_TUPLES:
            return False
        scope = c.scope
        rows = [row for row in itertools.product(*domains) if c.holds(dict(zip(scope, row)))]
        self.target.constraints.append(_bound(Table(scope, rows), self.target))
        return True

    def reify(self, c: Constraint, b: Variable) -> None:
        """Constrain the boolean `b` to equal the truth of `c`."""
        if c.model is None:
            c._bind(self.target)
        for part in reification(c, b, self):
            self.emit(part)


def adapt(model: Model, takes: Callable[[Constraint], bool], *, tables: bool
          ) -> tuple[Model, bool]:
    """`model` rewritten so that `takes` accepts every constraint (see the
    module), and whether it declares auxiliary variables. `tables`: whether
    small constraints may become `Table`s. An `InputError` (naming the
    constraint) if one cannot be rewritten."""
    builder = Decomposer(model, takes, tables)
    for number, c in enumerate(model.constraints, start=1):
        if takes(c):
            builder.target.constraints.append(c)  # its scope is names: it binds as it is
            continue
        try:
            builder.emit(_copy(c, builder.target))
        except InputError as err:
            raise InputError(f"constraint {number} ({c.describe()}): {err.message}",
                             token=err.token) from None
    return builder.target, builder.numbered > 0


def _copy(c: Constraint, model: Model) -> Constraint:
    """A declared constraint, free to bind to `model` (which has the same
    variable names): its scope is names by now, but the expressions of a
    `Comparison` hold the declared model's variables."""
    fresh = copy.copy(c)
    fresh.model = None
    if isinstance(fresh, Comparison):
        fresh.left = _rehomed(fresh.left, model)
        fresh.right = _rehomed(fresh.right, model)
    elif isinstance(fresh, Logic):
        fresh.args = tuple(_copy(a, model) for a in fresh.args)
    return fresh


def _rehomed(e: Any, model: Model) -> Any:
    if isinstance(e, Term):
        return model.variables[e.name]
    if isinstance(e, Expression):
        return Expression({_rehomed(a, model): w for a, w in e.terms.items()}, e.constant)
    if isinstance(e, Function):
        return e.rebuilt([_rehomed(a, model) for a in e.args])
    if isinstance(e, Constraint):
        return _copy(e, model)
    return e


def _bound(c: Constraint, model: Model) -> Constraint:
    c._bind(model)
    return c


def _false(builder: Decomposer) -> Constraint:
    """A constraint that never holds: a variable with no value."""
    empty = builder.aux((), "false")
    return Table([empty.name], [])


def _boolean_literal(c: Constraint, builder: Decomposer) -> tuple[Variable, int] | None:
    """(b, k) when `c` is `b == k` for a boolean variable b and k in {0, 1}."""
    if isinstance(c, Compare) and c.constant in (0, 1):
        variable = builder.target.variables[c.scope[0]]
        if set(variable.domain) <= {0, 1}:
            return variable, c.constant if c.op == "==" else 1 - c.constant
    return None


# -- decompositions ------------------------------------------------------------------------


def decompose(c: Constraint, b: Decomposer) -> list[Constraint]:
    """Constraints that hold exactly when `c` does (their auxiliaries defined
    through `b`)."""
    for kind, rule in RULES:
        if isinstance(c, kind):
            return rule(c, b)
    raise InputError(f"{c.describe()}: no decomposition of a {type(c).__name__} is known; "
                     "use a backend that takes it")


def _logic(c: Logic, b: Decomposer) -> list[Constraint]:
    if isinstance(c, And):
        return list(c.args)
    if isinstance(c, Or):
        literals = [b.truth(a) for a in c.args]
        if not literals:
            return [_false(b)]
        return [_at_least_one(literals)]
    if isinstance(c, Not):
        return [negation(c.args[0], b)]
    if isinstance(c, Implies):
        return [Or([negation(c.args[0], b), c.args[1]])]
    if isinstance(c, Xor):
        literals = [b.truth(a) for a in c.args]
        if not literals:
            return [_false(b)]
        k = b.aux(range(len(literals) // 2 + 1), "half")
        return [Linear([v.name for v in literals] + [k.name], [1] * len(literals) + [-2],
                       "==", 1)]
    if isinstance(c, Iff):
        left, right = c.args
        literal = _boolean_literal(left, b) or _boolean_literal(right, b)
        if literal is not None:
            other = right if _boolean_literal(left, b) else left
            boolean, value = literal
            if value == 1:
                b.reify(other, boolean)
                return []
        return [Compare(b.truth(left), "==", b.truth(right))]
    raise InputError(f"{c.describe()}: unknown logic")


def _at_least_one(literals: Sequence[Variable]) -> Constraint:
    names = [v.name for v in literals]
    if len(names) == 1:
        return Compare(names[0], "==", 1)
    return Linear(names, [1] * len(names), ">=", 1)


def negation(c: Constraint, b: Decomposer) -> Constraint:
    """A constraint that holds exactly when `c` does not."""
    if isinstance(c, Compare):
        other = c.constant if c.constant is not None else b.variable(c.scope[1])
        return Compare(c.scope[0], "!=" if c.op == "==" else "==", other)
    if isinstance(c, Linear):
        op, rhs = {"==": ("!=", c.rhs), "!=": ("==", c.rhs), "<=": (">=", c.rhs + 1),
                   ">=": ("<=", c.rhs - 1)}[c.op]
        return Linear(c.scope, c.weights, op, rhs)
    if isinstance(c, Not):
        return c.args[0]
    if isinstance(c, And):
        return Or([negation(a, b) for a in c.args])
    if isinstance(c, Or):
        return And([negation(a, b) for a in c.args])
    if isinstance(c, Implies):
        return And([c.args[0], negation(c.args[1], b)])
    if isinstance(c, Iff):
        return Xor(list(c.args))
    return Compare(b.truth(c).name, "==", 0)


def reification(c: Constraint, v: Variable, b: Decomposer) -> list[Constraint]:
    """Constraints that make the boolean `v` equal the truth of `c`."""
    scope = [v.name, *[x for x in c.scope if x != v.name]]
    domains = [b.domain(x) for x in scope]
    if v.name not in c.scope and math.prod(len(d) for d in domains) <= DECOMPOSE_TUPLES:
        rows = [row for row in itertools.product(*domains)
                if row[0] == int(c.holds(dict(zip(scope[1:], row[1:]))))]
        return [Table(scope, rows)]
    if isinstance(c, Compare):
        if c.constant is not None:
            return [Table([v.name, c.scope[0]],
                          [(int((x == c.constant) == (c.op == "==")), x)
                           for x in b.domain(c.scope[0])])]
        return reification(Linear(c.scope, (1, -1), c.op, 0), v, b)
    if isinstance(c, Linear):
        return _reified_linear(c, v, b)
    if isinstance(c, Logic):
        return _reified_logic(c, v, b)
    if isinstance(c, NOT_REIFIABLE):
        raise InputError(f"{c.describe()} cannot be reified by decomposition (its auxiliary "
                         "variables are defined only where it holds); use a backend that "
                         "takes it inside logic")
    return _reified_logic(And(decompose(c, b)), v, b)


def _reified_logic(c: Logic, v: Variable, b: Decomposer) -> list[Constraint]:
    if isinstance(c, (And, Or)):
        literals = [b.truth(a).name for a in c.args]
        n = len(literals)
        if not literals:
            return [Compare(v.name, "==", 1 if isinstance(c, And) else 0)]
        parts: list[Constraint]
        if isinstance(c, And):  # v <= each; v >= sum - (n - 1)
            parts = [Linear([x, v.name], [1, -1], ">=", 0) for x in literals]
            parts.append(Linear([v.name, *literals], [1] + [-1] * n, ">=", 1 - n))
            return parts
        parts = [Linear([v.name, x], [1, -1], ">=", 0) for x in literals]  # v >= each
        parts.append(Linear([v.name, *literals], [1] + [-1] * n, "<=", 0))
        return parts
    if isinstance(c, Not):
        return [Linear([v.name, b.truth(c.args[0]).name], [1, 1], "==", 1)]
    if isinstance(c, Implies):
        return _reified_logic(Or([negation(c.args[0], b), c.args[1]]), v, b)
    if isinstance(c, Xor):
        literals = [b.truth(a).name for a in c.args]
        k = b.aux(range(len(literals) // 2 + 1), "half")
        return [Linear([*literals, k.name, v.name], [1] * len(literals) + [-2, -1], "==", 0)]
    if isinstance(c, Iff):
        left, right = (b.truth(a).name for a in c.args)
        return [Table([v.name, left, right],
                      [(int(x == y), x, y) for x in (0, 1) for y in (0, 1)])]
    raise InputError(f"{c.describe()}: unknown logic")


def _reified_linear(c: Linear, v: Variable, b: Decomposer) -> list[Constraint]:
    """Big-M: `v -> sum <= rhs` and `not v -> sum >= rhs + 1` (and so on)."""
    if c.op == "==":
        below, above = b.aux((0, 1), "truth"), b.aux((0, 1), "truth")
        return [*_reified_linear(Linear(c.scope, c.weights, "<=", c.rhs), below, b),
                *_reified_linear(Linear(c.scope, c.weights, ">=", c.rhs), above, b),
                *_reified_logic(And([below == 1, above == 1]), v, b)]
    if c.op == "!=":
        equal = b.aux((0, 1), "truth")
        return [*_reified_linear(Linear(c.scope, c.weights, "==", c.rhs), equal, b),
                Linear([v.name, equal.name], [1, 1], "==", 1)]
    weights, rhs = list(c.weights), c.rhs
    if c.op == ">=":
        weights, rhs = [-w for w in weights], -rhs
    low = sum(min(w * d[0], w * d[-1]) for w, d in zip(weights, map(b.domain, c.scope)))
    high = sum(max(w * d[0], w * d[-1]) for w, d in zip(weights, map(b.domain, c.scope)))
    if high <= rhs:
        return [Compare(v.name, "==", 1)]
    if low > rhs:
        return [Compare(v.name, "==", 0)]
    scope = [*c.scope, v.name]
    big_up = high - rhs  # v = 1: sum + big_up * v <= rhs + big_up
    big_down = rhs + 1 - low  # v = 0: sum + big_down * v >= rhs + 1
    return [Linear(scope, [*weights, big_up], "<=", rhs + big_up),
            Linear(scope, [*weights, big_down], ">=", rhs + 1)]


def _comparison(c: Comparison, b: Decomposer) -> list[Constraint]:
    guards: list[Constraint] = []
    left, op, right = c.left, c.op, c.right
    if isinstance(left, Function) and op == "==" and left.plain() and _is_plain(right):
        return _function_equals(left, right, b)
    if isinstance(left, Function):
        left = Expression({left: 1})
    flat = b._linear_terms(left, guards)
    rhs = right - left.constant if isinstance(right, int) else -left.constant
    if not isinstance(right, int):
        r = b.var_for(right, guards)
        flat[r] = flat.get(r, 0) - 1
    flat = {x: w for x, w in flat.items() if w}
    if op == "<":
        op, rhs = "<=", rhs - 1
    elif op == ">":
        op, rhs = ">=", rhs + 1
    if not flat:
        holds = {"==": 0 == rhs, "!=": 0 != rhs, "<=": 0 <= rhs, ">=": 0 >= rhs}[op]
        return [*guards] if holds else [_false(b)]
    return [*guards, Linear([x.name for x in flat], list(flat.values()), op, rhs)]


def _function_equals(f: Function, value: Any, b: Decomposer) -> list[Constraint]:
    """`f == value` for a function of variables and ints, `value` one too."""
    target, args = value, list(f.args)  # variables and ints
    if isinstance(f, Element):
        array, index = args[:-1], args[-1]
        n = len(array)
        if isinstance(index, int):
            if not 0 <= index < n:
                return [_false(b)]
            return [_equal(array[index], target)]
        inside = [i for i in index.domain if 0 <= i < n]
        parts: list[Constraint] = [Table([index], [(i,) for i in inside])]
        parts += [Implies(Compare(index, "==", i), _equal(array[i], target)) for i in inside]
        return parts
    if isinstance(f, Count):
        items, counted = args[:-1], args[-1]
        truths = [b.truth(_equal(x, counted)) for x in items]
        return [_sum_equals(truths, target)]
    if isinstance(f, NValue):
        possible = [set(b.values(a)) for a in f.args]
        union = sorted(set().union(*possible))
        used = [b.truth(Or([_equal(x, u) for x, values in zip(args, possible) if u in values]))
                for u in union]
        return [_sum_equals(used, target)]
    if isinstance(f, (Minimum, Maximum)):
        sign = 1 if isinstance(f, Minimum) else -1
        y = target
        bounds = [_compare_linear(y, x, "<=" if sign == 1 else ">=") for x in args]
        return [*bounds, Or([_equal(x, y) for x in args])]
    if isinstance(f, Abs):
        x = args[0]
        return [_compare_linear(target, x, ">="),
                _compare_linear_neg(target, x),
                Or([_equal(target, x), _equal_negated(target, x)])]
    if isinstance(f, (Times, Div, Mod)):
        scope = [a for a in [*args, target] if not isinstance(a, int)]
        domains = [x.domain for x in scope]
        size = math.prod(len(d) for d in domains)
        if size > FUNCTION_TUPLES:
            raise InputError(f"{f.describe()} == {value}: a table of its {size:,} candidate "
                             "tuples is too large to decompose")
        comparison = Comparison(f, "==", value)
        names = [x.name for x in scope]
        rows = [row for row in itertools.product(*domains)
                if comparison.holds(dict(zip(names, row)))]
        return [Table(scope, rows)]
    raise InputError(f"{f.describe()}: no decomposition is known")


# The helpers below take variables (objects, never names) and ints.


def _equal(a: Any, b: Any) -> Constraint:
    if isinstance(a, int) and isinstance(b, int):
        return And([]) if a == b else Or([])
    if isinstance(a, int):
        return Compare(b, "==", a)
    if isinstance(b, int) or a is not b:
        return Compare(a, "==", b)
    return And([])  # a variable equals itself


def _equal_negated(a: Any, x: Any) -> Constraint:
    """`a == -x`."""
    if isinstance(x, int):
        return _equal(a, -x)
    if isinstance(a, int):
        return Compare(x, "==", -a)
    return Linear([a, x], [1, 1], "==", 0)


def _compare_linear(a: Any, x: Any, op: str) -> Constraint:
    """`a op x` for a variable or int each."""
    if isinstance(a, int) and isinstance(x, int):
        return And([]) if {"<=": a <= x, ">=": a >= x}[op] else Or([])
    if isinstance(a, int):
        return Linear([x], [1], ">=" if op == "<=" else "<=", a)
    if isinstance(x, int):
        return Linear([a], [1], op, x)
    if a is x:
        return And([])
    return Linear([a, x], [1, -1], op, 0)


def _compare_linear_neg(a: Any, x: Any) -> Constraint:
    """`a >= -x`."""
    if isinstance(x, int):
        return _compare_linear(a, -x, ">=")
    if isinstance(a, int):
        return Linear([x], [1], ">=", -a)
    return Linear([a, x], [1, 1], ">=", 0)


def _sum_equals(names: Sequence[Any], target: Any) -> Constraint:
    if isinstance(target, int):
        if not names:
            return And([]) if target == 0 else Or([])
        return Linear(names, [1] * len(names), "==", target)
    return Linear([*names, target], [1] * len(names) + [-1], "==", 0)


def _linear(c: Linear, b: Decomposer) -> list[Constraint]:
    """A sum that must differ from its right-hand side (`SumNotEqual`): its
    value as a defined auxiliary, and that one differs."""
    if c.op != "!=":
        raise InputError(f"{c.describe()}: no decomposition of a sum is known")
    if len(c.scope) == 1:
        w = c.weights[0]
        return [] if c.rhs % w else [Compare(c.scope[0], "!=", c.rhs // w)]
    total = b.aux(_sum_values([(w, list(b.domain(x))) for w, x in zip(c.weights, c.scope)], 0),
                  "sum")
    return [Linear([*c.scope, total.name], [*c.weights, -1], "==", 0),
            Compare(total.name, "!=", c.rhs)]


def _all_different(c: AllDifferent, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.scope]
    return [Compare(x, "!=", y) for x, y in itertools.combinations(xs, 2)]


def _all_equal(c: AllEqual, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.scope]
    return [Compare(xs[0], "==", y) for y in xs[1:]]


def _all_different_except(c: AllDifferentExcept, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    for x, y in itertools.combinations(c.scope, 2):
        common = set(b.domain(x)) & set(b.domain(y)) - c.excepted
        parts += [Or([Compare(x, "!=", v), Compare(y, "!=", v)]) for v in sorted(common)]
    return parts


def _increasing(c: Increasing, b: Decomposer) -> list[Constraint]:
    order = c.order()
    gap = 1 if c.strict else 0
    return [Linear([x, y], [1, -1], "<=", -gap) for x, y in zip(order, order[1:])]


def _lex(c: LexLess, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    equal_so_far: Any = None  # None: the empty prefix, always equal
    for x, y in zip(map(b.variable, c.a), map(b.variable, c.b)):
        at_most = _compare_linear(x, y, "<=")
        parts.append(at_most if equal_so_far is None else
                     Implies(Compare(equal_so_far, "==", 1), at_most))
        same = _equal(x, y)
        step = same if equal_so_far is None else And([Compare(equal_so_far, "==", 1), same])
        equal_so_far = b.truth(step)
    if c.strict:
        parts.append(Or([]) if equal_so_far is None else Compare(equal_so_far, "==", 0))
    return parts


def _cardinality(c: GlobalCardinality, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.variables]
    parts: list[Constraint] = [
        Comparison(Count(xs, value), "==", count if fixed else b.variable(count))
        for value, count, fixed in zip(c.values, c.counts, c.fixed)]
    if c.closed:
        allowed = set(c.values)
        parts += [Table([x], [(v,) for v in b.domain(x) if v in allowed])
                  for x in c.variables]
    return parts


def _regular(c: Regular, b: Decomposer) -> list[Constraint]:
    if not c.scope:
        return [] if c.start in c.accepting else [_false(b)]
    table = c.successors()
    numbered: dict[frozenset[Hashable], int] = {}

    def number(subset: frozenset[Hashable]) -> int:
        return numbered.setdefault(subset, len(numbered))

    dead: frozenset[Hashable] = frozenset()
    layer = {frozenset({c.start})}
    state_of: Any = number(frozenset({c.start}))  # the state before position 0: a constant
    parts: list[Constraint] = []
    for position, x in enumerate(c.scope):
        rows, following = [], set()
        for subset in sorted(layer, key=number):
            for value in b.domain(x):
                nxt = frozenset(r for q in subset for r in table.get((q, value), ()))
                following.add(nxt)
                rows.append((number(subset), value, number(nxt)))
        after = b.aux(sorted(number(s) for s in following), f"state{position + 1}")
        if isinstance(state_of, int):
            parts.append(Table([x, after.name], [(v, r) for _, v, r in rows]))
        else:
            parts.append(Table([state_of, x, after.name], rows))
        state_of, layer = after.name, following
    final = [number(s) for s in layer if s != dead and s & c.accepting]
    parts.append(Table([state_of], [(q,) for q in final]))
    return parts


def deterministic(c: Regular, domains: Sequence[Sequence[int]]
                  ) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """`c`'s automaton made deterministic (the subset construction, over the
    symbols of `domains`): its start state, accepting states and transitions,
    states numbered from 0, only those reachable from the start and not dead
    (a missing transition rejects)."""
    table = c.successors()
    symbols = sorted(set().union(*map(set, domains))) if domains else []
    numbered: dict[frozenset[Hashable], int] = {}
    start = frozenset({c.start})
    numbered[start] = 0
    waiting = [start]
    transitions = []
    while waiting:
        subset = waiting.pop()
        for value in symbols:
            nxt = frozenset(r for q in subset for r in table.get((q, value), ()))
            if not nxt:
                continue
            if nxt not in numbered:
                numbered[nxt] = len(numbered)
                waiting.append(nxt)
            transitions.append((numbered[subset], value, numbered[nxt]))
    accepting = sorted(k for s, k in numbered.items() if s & c.accepting)
    return 0, accepting, transitions


def _circuit(c: Circuit, b: Decomposer) -> list[Constraint]:
    succ = list(c.scope)
    n = len(succ)
    if n == 1:
        return [Compare(succ[0], "==", 0)]
    parts: list[Constraint] = [AllDifferent(succ)]
    parts += [Compare(x, "!=", i) for i, x in enumerate(succ)]
    order: list[Any] = [0] + [b.aux(range(1, n), f"order{i}").name for i in range(1, n)]
    for i, x in enumerate(succ):
        for j in b.domain(x):
            if j == 0 or j == i:
                continue
            step = (Compare(order[j], "==", 1) if i == 0 else
                    Linear([order[j], order[i]], [1, -1], "==", 1))
            parts.append(Implies(Compare(x, "==", j), step))
    return parts


def _inverse(c: Inverse, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    for i, x in enumerate(c.f):
        for j, y in enumerate(c.g):
            parts.append(Table([x, y], [(u, w) for u in b.domain(x) for w in b.domain(y)
                                        if (u == j) == (w == i)]))
    return parts


def _connected(c: Connected, b: Decomposer) -> list[Constraint]:
    nodes = list(c.scope)
    n = len(nodes)
    if n <= 1:
        return []
    far = n  # the distance of a node that is not selected, or not reached
    distance = [b.aux(range(n + 1), f"distance{k}").name for k in range(n)]
    adjacent = c.neighbours()
    parts: list[Constraint] = []
    before: Any = None  # the truth of "a node before k is selected"
    for k, x in enumerate(nodes):
        on = Compare(x, "==", 1)
        root = on if before is None else And([on, Compare(before, "==", 0)])
        parts.append(Implies(root, Compare(distance[k], "==", 0)))
        parts.append(Implies(Compare(x, "==", 0), Compare(distance[k], "==", far)))
        around = [distance[j] for j in adjacent[k]]
        nearest = b.var_for(Minimum([b.target.variables[d] for d in around]), []) \
            if around else far
        inner = And([on, Not(root)]) if before is not None else None
        if inner is not None:
            step = _step(distance[k], nearest, far)
            parts.append(Implies(inner, step))
        parts.append(Implies(on, Linear([distance[k]], [1], "<=", n - 1)))
        before = x if before is None else b.truth(Or([Compare(before, "==", 1), on])).name
    return parts


def _step(d: Hashable, nearest: Any, far: int) -> Constraint:
    """`d == min(far, nearest + 1)`."""
    if isinstance(nearest, int):
        return Compare(d, "==", min(far, nearest + 1))
    name = nearest.name
    return And([Implies(Linear([name], [1], "<=", far - 1),
                        Linear([d, name], [1, -1], "==", 1)),
                Implies(Linear([name], [1], ">=", far), Compare(d, "==", far))])


NOT_REIFIABLE: tuple[type, ...] = (Circuit, Connected)

RULES: tuple[tuple[type, Callable[..., list[Constraint]]], ...] = (
    (Logic, _logic),
    (Comparison, _comparison),
    (Linear, _linear),
    (AllDifferent, _all_different),
    (AllEqual, _all_equal),
    (AllDifferentExcept, _all_different_except),
    (Increasing, _increasing),
    (LexLess, _lex),
    (GlobalCardinality, _cardinality),
    (Regular, _regular),
    (Circuit, _circuit),
    (Inverse, _inverse),
    (Connected, _connected),
)


def _sum_values(terms: list[tuple[int, list[int]]], constant: int) -> list[int]:
    """The values of `constant + sum(w * x)`: exact while the partial sums
    stay few, else their range."""
    reachable = {constant}
    for w, values in terms:
        if len(reachable) * len(values) > DECOMPOSE_TUPLES:
            low = constant + sum(min(w * v for v in vs) for w, vs in terms)
            high = constant + sum(max(w * v for v in vs) for w, vs in terms)
            if high - low + 1 > MAX_AUX_VALUES:
                raise InputError(f"a sum ranges over {high - low + 1:,} values, over the bound "
                                 f"of {MAX_AUX_VALUES:,} for a variable of a decomposition")
            return list(range(low, high + 1))
        reachable = {s + w * v for s in reachable for v in values}
    return sorted(reachable)


__all__ = ["DECOMPOSE_TUPLES", "Auxiliary", "Decomposer", "adapt", "decompose", "deterministic",
           "negation", "reification"]
