"""The builder of a decomposed model: auxiliary variables, what each
expression's value is, and the worklist that rewrites until every constraint
is one the backend takes (see `csp.decompose`)."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Linear, Table, Term
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
)
from csp.logic import Logic
from csp.model import Model, Variable

DECOMPOSE_TUPLES = 100_000
"""The most tuples a constraint may expand to when a backend needs it as a `Table`."""

FUNCTION_TUPLES = 1_000_000
"""The most candidate tuples a product, quotient or remainder may have when a
backend without it needs it as a `Table` of its operands and value."""

MAX_AUX_VALUES = 1_000_000
"""The most values an auxiliary variable may have (a sum's range, a product's)."""


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

    def __init__(self, source: Model, takes: Callable[[Constraint], bool], tables: bool,
                 rules: Callable[[Constraint, Decomposer], list[Constraint]],
                 reifier: Callable[[Constraint, Variable, Decomposer], list[Constraint]],
                 table_first: bool = True) -> None:
        self.source = source
        self.takes = takes
        self.tables = tables and table_first  # small constraints become Tables first
        self.rules = rules  # the decompositions, by kind (`csp.decompose.decompose`)
        self.reifier = reifier  # the reifications (`csp.decompose.logic.reification`)
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
            return sum_values([(w, self.values(a)) for a, w in e.terms.items() if w],
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
            if isinstance(f, Mod):  # a floor remainder may exceed |x| (-1 % 6 == 5)
                most = max(abs(y[0]), abs(y[-1])) - 1
                big = min(big, most) if f.rounding == "zero" else most
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
            assert not isinstance(v, int), "an atom is a variable, a function or a constraint"
            flat[v] = flat.get(v, 0) + weight
        return flat

    def _in_range(self, index: Any, n: int, guards: list[Constraint]) -> Any:
        """An index made total: itself where its domain is within 0..n-1, else a
        defined copy (0 where out of range) and the guard that it is in range."""
        if isinstance(index, int):
            if not 0 <= index < n:
                guards.append(false(self))
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
        literal = boolean_literal(c, self)
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
            for part in self.rules(c, self):
                self.emit(part)
        finally:
            self._depth -= 1

    def _tabled(self, c: Constraint) -> bool:
        if not self.tables or isinstance(c, Table):
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
        for part in self.reifier(c, b, self):
            self.emit(part)


def copied(c: Constraint, model: Model) -> Constraint:
    """A declared constraint, free to bind to `model` (which has the same
    variable names): its scope is names by now, but the expressions of a
    `Comparison` hold the declared model's variables."""
    fresh = copy.copy(c)
    fresh.model = None
    if isinstance(fresh, Comparison):
        fresh.left = _rehomed(fresh.left, model)
        fresh.right = _rehomed(fresh.right, model)
    elif isinstance(fresh, Logic):
        fresh.args = tuple(copied(a, model) for a in fresh.args)
    return fresh


def _rehomed(e: Any, model: Model) -> Any:
    if isinstance(e, Term):
        return model.variables[e.name]
    if isinstance(e, Expression):
        return Expression({_rehomed(a, model): w for a, w in e.terms.items()}, e.constant)
    if isinstance(e, Function):
        return e.rebuilt([_rehomed(a, model) for a in e.args])
    if isinstance(e, Constraint):
        return copied(e, model)
    return e


def _bound(c: Constraint, model: Model) -> Constraint:
    c._bind(model)
    return c


def false(builder: Decomposer) -> Constraint:
    """A constraint that never holds: a variable with no value."""
    empty = builder.aux((), "false")
    return Table([empty.name], [])


def boolean_literal(c: Constraint, builder: Decomposer) -> tuple[Variable, int] | None:
    """(b, k) when `c` is `b == k` for a boolean variable b and k in {0, 1}."""
    if isinstance(c, Compare) and c.constant in (0, 1):
        variable = builder.target.variables[c.scope[0]]
        if set(variable.domain) <= {0, 1}:
            return variable, c.constant if c.op == "==" else 1 - c.constant
    return None


def sum_values(terms: list[tuple[int, list[int]]], constant: int) -> list[int]:
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


__all__ = ["DECOMPOSE_TUPLES", "FUNCTION_TUPLES", "MAX_AUX_VALUES", "Auxiliary", "Decomposer",
           "boolean_literal", "copied", "false", "sum_values"]
