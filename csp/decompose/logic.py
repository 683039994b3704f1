"""Logic and reification as constraints a backend without `Logic` takes:
sums of literals, equalities, the big-M inequalities (see `csp.decompose`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from csp.constraints import Compare, Constraint, Linear, Table
from csp.decompose.builder import (
    DECOMPOSE_TUPLES,
    Decomposer,
    boolean_literal,
    false,
)
from csp.errors import InputError
from csp.global_constraints import (
    Circuit,
    Connected,
)
from csp.logic import And, Iff, Implies, Logic, Not, Or, Xor
from csp.model import Variable

NOT_REIFIABLE: tuple[type, ...] = (Circuit, Connected)
"""Kinds whose decomposition defines its auxiliaries only where it holds."""


def logic(c: Logic, b: Decomposer) -> list[Constraint]:
    if isinstance(c, And):
        return list(c.args)
    if isinstance(c, Or):
        literals = [b.truth(a) for a in c.args]
        if not literals:
            return [false(b)]
        return [_at_least_one(literals)]
    if isinstance(c, Not):
        return [negation(c.args[0], b)]
    if isinstance(c, Implies):
        return [Or([negation(c.args[0], b), c.args[1]])]
    if isinstance(c, Xor):
        literals = [b.truth(a) for a in c.args]
        if not literals:
            return [false(b)]
        k = b.aux(range(len(literals) // 2 + 1), "half")
        return [Linear([v.name for v in literals] + [k.name], [1] * len(literals) + [-2],
                       "==", 1)]
    if isinstance(c, Iff):
        left, right = c.args
        literal = boolean_literal(left, b) or boolean_literal(right, b)
        if literal is not None:
            other = right if boolean_literal(left, b) else left
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
        return _reifiedlogic(c, v, b)
    if isinstance(c, NOT_REIFIABLE):
        raise InputError(f"{c.describe()} cannot be reified by decomposition (its auxiliary "
                         "variables are defined only where it holds); use a backend that "
                         "takes it inside logic")
    return _reifiedlogic(And(b.rules(c, b)), v, b)


def _reifiedlogic(c: Logic, v: Variable, b: Decomposer) -> list[Constraint]:
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
        return _reifiedlogic(Or([negation(c.args[0], b), c.args[1]]), v, b)
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
                *_reifiedlogic(And([below == 1, above == 1]), v, b)]
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


__all__ = ["logic", "negation", "reification"]
