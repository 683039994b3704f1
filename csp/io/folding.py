"""Constraints built by the readers of the field's formats, with constants
folded: a comparison of two integers is a Python bool, and logic over bools
simplifies (`And` of something false is False, of nothing True), so that a
reader never posts a constraint over no variable.

`relation(left, op, right)` compares any two of: an int, a variable, an
expression, a function, a constraint (as 0 or 1). `LOGIC` holds the
connectives by their XCSP3 names (and, or, not, xor, iff, imp), over
constraints and bools. `add_folded(model, c)` adds what they give to a model, and
`fresh_names` gives the writers names for the variables a format cannot spell.

>>> from csp import Model
>>> m = Model()
>>> x = m.var("x", range(3))
>>> relation(2, "<", 3), relation(x, "<=", x), relation(x + 1, "==", 2)
(True, True, Linear(1*x == 1))
>>> LOGIC["or"]([False, relation(x, "!=", 1)])
(x != 1)
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Linear, Term
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


def linear(weights: Sequence[int], terms: Sequence[Any], op: str, rhs: Any) -> Truth:
    """`sum(weights[i] * terms[i]) op rhs`: a `Linear` where every term is a
    variable or an int and `rhs` an int (a variable twice adds its weights),
    built directly (a long sum through `Expression` would copy it once per
    term); else `relation` over the expression."""
    if not isinstance(rhs, int) or isinstance(rhs, bool) or op not in COMPARE or \
            not all(isinstance(t, (Term, int)) for t in terms):
        total: Any = Expression()
        for w, t in zip(weights, terms):
            total = total + Expression.of(t) * w
        return relation(total, op, rhs)
    combined: dict[int, list[Any]] = {}
    constant = 0
    for w, t in zip(weights, terms):
        if isinstance(t, int):
            constant += w * t
        elif id(t) in combined:
            combined[id(t)][1] += w
        else:
            combined[id(t)] = [t, w]
    kept = [(t, w) for t, w in combined.values() if w]
    bound = rhs - constant
    if not kept:
        return COMPARE[op](0, bound)
    if op in ("<", ">"):
        op, bound = ("<=", bound - 1) if op == "<" else (">=", bound + 1)
    if len(kept) == 1 and op in ("==", "!=") and kept[0][1] in (1, -1):
        (t, w), = kept
        return Compare(t, op, bound * w)
    return Linear([t for t, _ in kept], [w for _, w in kept], op, bound)



def add_folded(model: Any, c: Constraint | bool) -> None:
    """Add `c` to `model`: a conjunction as its parts, True as nothing, False
    as the constraint that never holds (an empty `Or`)."""
    if c is True:
        return
    if c is False:
        model.add(Or([]))
    elif isinstance(c, And):
        for part in c.args:
            add_folded(model, part)
    else:
        model.add(c)


def fresh_names(prefix: str, taken: Container[Any]) -> Iterator[str]:
    """`prefix1`, `prefix2`, ... but the names in `taken`.

    >>> names = fresh_names("v_", {"v_2"})
    >>> next(names), next(names)
    ('v_1', 'v_3')
    """
    n = 0
    while True:
        n += 1
        if f"{prefix}{n}" not in taken:
            yield f"{prefix}{n}"

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



__all__ = ["COMPARE", "LOGIC", "Truth", "conjunction", "disjunction", "linear", "negation",
           "relation"]

conjunction, disjunction, negation = _and, _or, _not
