"""Comparisons of expressions and functions, and sums that must differ, as
sums, tables and logic over defined auxiliaries (see `csp.decompose`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Linear, Table
from csp.decompose.builder import (
    FUNCTION_TUPLES,
    Decomposer,
    false,
    sum_values,
)
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
from csp.logic import And, Implies, Or


def comparison(c: Comparison, b: Decomposer) -> list[Constraint]:
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
        return [*guards] if holds else [false(b)]
    return [*guards, Linear([x.name for x in flat], list(flat.values()), op, rhs)]


def _function_equals(f: Function, value: Any, b: Decomposer) -> list[Constraint]:
    """`f == value` for a function of variables and ints, `value` one too."""
    target, args = value, list(f.args)  # variables and ints
    if isinstance(f, Element):
        array, index = args[:-1], args[-1]
        n = len(array)
        if isinstance(index, int):
            if not 0 <= index < n:
                return [false(b)]
            return [equal(array[index], target)]
        inside = [i for i in index.domain if 0 <= i < n]
        parts: list[Constraint] = [Table([index], [(i,) for i in inside])]
        parts += [Implies(Compare(index, "==", i), equal(array[i], target)) for i in inside]
        return parts
    if isinstance(f, Count):
        items, counted = args[:-1], args[-1]
        truths = [b.truth(equal(x, counted)) for x in items]
        return [sum_equals(truths, target)]
    if isinstance(f, NValue):
        possible = [set(b.values(a)) for a in f.args]
        union = sorted(set().union(*possible))
        used = [b.truth(Or([equal(x, u) for x, values in zip(args, possible) if u in values]))
                for u in union]
        return [sum_equals(used, target)]
    if isinstance(f, (Minimum, Maximum)):
        sign = 1 if isinstance(f, Minimum) else -1
        y = target
        bounds = [compare_linear(y, x, "<=" if sign == 1 else ">=") for x in args]
        return [*bounds, Or([equal(x, y) for x in args])]
    if isinstance(f, Abs):
        x = args[0]
        return [compare_linear(target, x, ">="),
                compare_linear_neg(target, x),
                Or([equal(target, x), equal_negated(target, x)])]
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


def equal(a: Any, b: Any) -> Constraint:
    if isinstance(a, int) and isinstance(b, int):
        return And([]) if a == b else Or([])
    if isinstance(a, int):
        return Compare(b, "==", a)
    if isinstance(b, int) or a is not b:
        return Compare(a, "==", b)
    return And([])  # a variable equals itself


def equal_negated(a: Any, x: Any) -> Constraint:
    """`a == -x`."""
    if isinstance(x, int):
        return equal(a, -x)
    if isinstance(a, int):
        return Compare(x, "==", -a)
    return Linear([a, x], [1, 1], "==", 0)


def compare_linear(a: Any, x: Any, op: str) -> Constraint:
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


def compare_linear_neg(a: Any, x: Any) -> Constraint:
    """`a >= -x`."""
    if isinstance(x, int):
        return compare_linear(a, -x, ">=")
    if isinstance(a, int):
        return Linear([x], [1], ">=", -a)
    return Linear([a, x], [1, 1], ">=", 0)


def sum_equals(names: Sequence[Any], target: Any) -> Constraint:
    if isinstance(target, int):
        if not names:
            return And([]) if target == 0 else Or([])
        return Linear(names, [1] * len(names), "==", target)
    return Linear([*names, target], [1] * len(names) + [-1], "==", 0)


def not_equal(c: Linear, b: Decomposer) -> list[Constraint]:
    """A sum that must differ from its right-hand side (`SumNotEqual`): its
    value as a defined auxiliary, and that one differs."""
    if c.op != "!=":
        raise InputError(f"{c.describe()}: no decomposition of a sum is known")
    if len(c.scope) == 1:
        w = c.weights[0]
        return [] if c.rhs % w else [Compare(c.scope[0], "!=", c.rhs // w)]
    total = b.aux(sum_values([(w, list(b.domain(x))) for w, x in zip(c.weights, c.scope)], 0),
                  "sum")
    return [Linear([*c.scope, total.name], [*c.weights, -1], "==", 0),
            Compare(total.name, "!=", c.rhs)]


__all__ = ["compare_linear", "compare_linear_neg", "comparison", "equal",
           "equal_negated", "not_equal", "sum_equals"]
