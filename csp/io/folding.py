"""Constraints built by the readers of the field's formats, with constants
folded: a comparison of two integers is a Python bool, and logic over bools
simplifies (`And` of something false is False, of nothing True), so that a
reader never posts a constraint over no variable.

`relation(left, op, right)` compares any two of: an int, a variable, an
expression, a function, a constraint (as 0 or 1). `LOGIC` holds the
connectives by their XCSP3 names (and, or, not, xor, iff, imp), over
constraints and bools.

>>> from csp import Model
>>> m = Model()
>>> x = m.var("x", range(3))
>>> relation(2, "<", 3), relation(x, "<=", x), relation(x + 1, "==", 2)
(True, True, Linear(1*x == 1))
>>> LOGIC["or"]([False, relation(x, "!=", 1)])
(x != 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Term
from csp.errors import InputError
from csp.expressions import FLIPPED, compare
from csp.logic import And, Iff, Implies, Not, Or, Xor

Truth = Constraint | bool
"""A constraint, or a bool where it is constant."""


def relation(left: Any, op: str, right: Any) -> Constraint | bool:
    """`left op right`, folded to a bool where no variable is left in it."""
    if isinstance(left, Constraint) and isinstance(right, Constraint) and op in ("==", "!="):
        same = Iff(left, right)
        return same if op == "==" else Not(same)
    if isinstance(left, Constraint) and _is_boolean(right) or \
            isinstance(right, Constraint) and _is_boolean(left):
        if op in ("==", "!="):
            c, b = (left, right) if isinstance(left, Constraint) else (right, left)
            same = Iff(c, Compare(b, "==", 1))
            return same if op == "==" else Not(same)
    if isinstance(right, Constraint) and _is_int(left):
        left, op, right = right, FLIPPED[op], left
    if isinstance(left, Constraint) and _is_int(right) and op in ("==", "!="):
        if right not in (0, 1):
            return op == "!="
        return left if (right == 1) == (op == "==") else Not(left)
    if _is_int(left) and _is_int(right):
        return COMPARE[op](left, right)
    if _linear(left) and _linear(right):
        difference = Expression.of(left) - right
        if not difference._nonzero():
            return COMPARE[op](difference.constant, 0)
        if op in ("==", "!=") and isinstance(left, Term) and isinstance(right, Term):
            return Compare(left, op, right)
    return compare(left, op, right)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_boolean(value: Any) -> bool:
    return isinstance(value, Term) and set(value.domain) <= {0, 1}  # type: ignore[attr-defined]


def _linear(value: Any) -> bool:
    if isinstance(value, Expression):
        return all(isinstance(atom, Term) for atom in value.terms)
    return isinstance(value, Term) or _is_int(value)


COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


# -- logic, with constants folded ------------------------------------------------------


def _and(items: Sequence[Constraint | bool]) -> Constraint | bool:
    if any(item is False for item in items):
        return False
    kept = [item for item in items if item is not True]
    if not kept:
        return True
    return kept[0] if len(kept) == 1 else And(kept)


def _or(items: Sequence[Constraint | bool]) -> Constraint | bool:
    if any(item is True for item in items):
        return True
    kept = [item for item in items if item is not False]
    if not kept:
        return False
    return kept[0] if len(kept) == 1 else Or(kept)


def _not(item: Constraint | bool) -> Constraint | bool:
    return (not item) if isinstance(item, bool) else Not(item)


def _xor(items: Sequence[Constraint | bool]) -> Constraint | bool:
    odd = sum(1 for item in items if item is True) % 2 == 1
    kept = [item for item in items if not isinstance(item, bool)]
    if not kept:
        return odd
    if len(kept) == 1:
        return _not(kept[0]) if odd else kept[0]
    parity = Xor(kept)
    return Not(parity) if odd else parity


def _iff(items: Sequence[Constraint | bool]) -> Constraint | bool:
    return _and([_same(a, b) for a, b in zip(items, items[1:])])


def _same(a: Constraint | bool, b: Constraint | bool) -> Constraint | bool:
    if isinstance(a, bool) and isinstance(b, bool):
        return a == b
    if isinstance(a, bool):
        return b if a else _not(b)
    if isinstance(b, bool):
        return a if b else _not(a)
    return Iff(a, b)


def _implies(items: Sequence[Constraint | bool]) -> Constraint | bool:
    if len(items) != 2:
        raise InputError(f"imp takes two operands, not {len(items)}")
    a, b = items
    if isinstance(a, bool) or isinstance(b, bool):
        return _or([_not(a), b])
    return Implies(a, b)


def _single(items: Sequence[Constraint | bool]) -> Constraint | bool:
    if len(items) != 1:
        raise InputError(f"not takes one operand, not {len(items)}")
    return _not(items[0])


LOGIC: dict[str, Callable[[Sequence[Constraint | bool]], Constraint | bool]] = {
    "and": _and, "or": _or, "not": _single, "xor": _xor, "iff": _iff, "imp": _implies}



__all__ = ["COMPARE", "LOGIC", "Truth", "conjunction", "disjunction", "negation", "relation"]

conjunction, disjunction, negation = _and, _or, _not
