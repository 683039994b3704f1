"""XCSP3's expression trees (`intension`, and the terms of globals) as csp
expressions and constraints.

A tree is pycsp3's `Node`: a leaf variable or integer, or an operator over
sons. Each node is read in one of two contexts: as an *integer* (`integer`:
an int, a variable, or a csp expression; a predicate counts 0 or 1) or as a
*truth* (`truth`: a constraint, or a Python bool where it is constant; an
integer is true when it is not 0, as XCSP3's evaluators read it).

The operators are XCSP3-core's, with its semantics (those of ACE's and
XCSP3-Java-Tools' evaluators): `div` and `mod` truncate towards zero (Java's
`/` and `%`), `ne` of more than two sons says they are all different and
`eq` all equal, `iff` of more than two all of one truth, `xor` an odd number
true, `if(c, a, b)` is `a` where `c` holds, else `b`. `in`/`notin` take a
`set(...)` of integers or variables. The set and real operators (`card`,
`union`, `sqrt`, ...) are outside the subset `csp` takes: refused, naming
them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Term
from csp.errors import InputError
from csp.expressions import FLIPPED, Abs, Div, Element, Maximum, Minimum, Mod, compare
from csp.logic import And, Iff, Implies, Not, Or, Xor

Resolve = Callable[[Any], Any]
"""pycsp3's variable -> the model's `Variable`."""

RELATIONS = {"lt": "<", "le": "<=", "ge": ">=", "gt": ">", "eq": "==", "ne": "!="}


class Trees:
    """Converts trees whose variables `resolve` maps to a model's."""

    def __init__(self, resolve: Resolve) -> None:
        self.resolve = resolve

    # -- integers ---------------------------------------------------------------------

    def integer(self, node: Any) -> Any:
        """The node as an int, a variable or an expression."""
        kind = str(node.type)
        if kind == "var":
            return self.resolve(node.cnt)
        if kind == "int":
            return int(node.cnt)
        if kind == "symbol" and node.cnt in ("true", "false"):
            return int(node.cnt == "true")
        if kind in RELATIONS or kind in LOGIC or kind in ("in", "notin"):
            truth = self.truth(node)
            return int(truth) if isinstance(truth, bool) else truth
        sons = [self.integer(son) for son in _sons(node, kind)]
        if kind in ARITHMETIC:
            return ARITHMETIC[kind](sons, kind)
        if kind == "if":
            condition = self.truth(node.cnt[0])
            if isinstance(condition, bool):
                return sons[1] if condition else sons[2]
            return Element([sons[2], sons[1]], condition)
        raise _unknown(kind)

    # -- truths ------------------------------------------------------------------------

    def truth(self, node: Any) -> Constraint | bool:
        """The node as a constraint, or a bool where it is constant."""
        kind = str(node.type)
        if kind in RELATIONS:
            return self._relation(kind, [self.integer(son) for son in _sons(node, kind)])
        if kind in LOGIC:
            return LOGIC[kind]([self.truth(son) for son in _sons(node, kind)])
        if kind in ("in", "notin"):
            return self._member(node, kind)
        if kind == "if":
            condition, then, otherwise = (self.truth(son) for son in _sons(node, kind))
            return _or([_and([condition, then]), _and([_not(condition), otherwise])])
        value = self.integer(node)
        if _is_int(value):
            return value != 0
        if isinstance(value, Constraint):
            return value
        if isinstance(value, Term) and set(value.domain) <= {0, 1}:  # type: ignore[attr-defined]
            return Compare(value, "==", 1)
        return relation(value, "!=", 0)

    def _relation(self, kind: str, sons: list[Any]) -> Constraint | bool:
        op = RELATIONS[kind]
        if len(sons) == 2:
            return relation(sons[0], op, sons[1])
        if kind == "eq":
            return _and([relation(a, "==", b) for a, b in zip(sons, sons[1:])])
        if kind == "ne":
            return _and([relation(a, "!=", b) for i, a in enumerate(sons) for b in sons[i + 1:]])
        raise InputError(f"{kind} takes two operands, not {len(sons)}")

    def _member(self, node: Any, kind: str) -> Constraint | bool:
        value, values = _sons(node, kind)
        if str(values.type) != "set":
            raise InputError(f"{kind}: its second operand is {values.type}, not a set(...)")
        x = self.integer(value)
        inside = _or([relation(x, "==", self.integer(son)) for son in values.cnt])
        return _not(inside) if kind == "notin" else inside


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
        return _COMPARE[op](left, right)
    if _linear(left) and _linear(right):
        difference = Expression.of(left) - right
        if not difference._nonzero():
            return _COMPARE[op](difference.constant, 0)
        if op in ("==", "!=") and isinstance(left, Term) and isinstance(right, Term):
            return Compare(left, op, right)
    return compare(left, op, right)


def _sons(node: Any, kind: str) -> list[Any]:
    if not isinstance(node.cnt, list):
        raise InputError(f"{kind} without operands")
    return node.cnt


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_boolean(value: Any) -> bool:
    return isinstance(value, Term) and set(value.domain) <= {0, 1}  # type: ignore[attr-defined]


def _linear(value: Any) -> bool:
    if isinstance(value, Expression):
        return all(isinstance(atom, Term) for atom in value.terms)
    return isinstance(value, Term) or _is_int(value)


_COMPARE: dict[str, Callable[[int, int], bool]] = {
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


# -- arithmetic, with constants folded --------------------------------------------------


def _arity(sons: list[Any], n: int, kind: str) -> list[Any]:
    if len(sons) != n:
        raise InputError(f"{kind} takes {n} operand{'s' if n > 1 else ''}, not {len(sons)}")
    return sons


def _add(sons: list[Any], kind: str) -> Any:
    if all(_is_int(s) for s in sons):
        return sum(sons)
    total = Expression()
    for son in sons:
        total = total + son
    return total


def _sub(sons: list[Any], kind: str) -> Any:
    a, b = _arity(sons, 2, kind)
    return a - b if _is_int(a) and _is_int(b) else Expression.of(a) - b


def _neg(sons: list[Any], kind: str) -> Any:
    (a,) = _arity(sons, 1, kind)
    return -a if _is_int(a) else -Expression.of(a)


def _mul(sons: list[Any], kind: str) -> Any:
    product: Any = 1
    for son in sons:
        if _is_int(product) and _is_int(son):
            product = product * son
        elif _is_int(son):
            product = Expression.of(product) * son
        elif _is_int(product):
            product = Expression.of(son) * product if product != 1 else son
        else:
            product = Expression.of(product) * son
    return product


def _div(sons: list[Any], kind: str) -> Any:
    a, b = _arity(sons, 2, kind)
    if _is_int(a) and _is_int(b):
        if b == 0:
            raise InputError("div by 0")
        return Div(a, b, rounding="zero").apply([a, b])
    return Div(a, b, rounding="zero")


def _mod(sons: list[Any], kind: str) -> Any:
    a, b = _arity(sons, 2, kind)
    if _is_int(a) and _is_int(b):
        if b == 0:
            raise InputError("mod by 0")
        return Mod(a, b, rounding="zero").apply([a, b])
    return Mod(a, b, rounding="zero")


def _abs(sons: list[Any], kind: str) -> Any:
    (a,) = _arity(sons, 1, kind)
    return abs(a) if _is_int(a) else Abs(a)


def _sqr(sons: list[Any], kind: str) -> Any:
    (a,) = _arity(sons, 1, kind)
    return _mul([a, a], kind)


def _pow(sons: list[Any], kind: str) -> Any:
    a, b = _arity(sons, 2, kind)
    if not _is_int(b):
        raise InputError("pow with a variable exponent is outside what csp takes")
    if b < 0:
        raise InputError(f"pow with the negative exponent {b}")
    return _mul([a] * b, kind) if b else 1


def _dist(sons: list[Any], kind: str) -> Any:
    return _abs([_sub(sons, kind)], kind)


def _min(sons: list[Any], kind: str) -> Any:
    return min(sons) if all(_is_int(s) for s in sons) else Minimum(sons)


def _max(sons: list[Any], kind: str) -> Any:
    return max(sons) if all(_is_int(s) for s in sons) else Maximum(sons)


ARITHMETIC: dict[str, Callable[[list[Any], str], Any]] = {
    "add": _add, "sub": _sub, "neg": _neg, "mul": _mul, "div": _div, "mod": _mod,
    "abs": _abs, "sqr": _sqr, "pow": _pow, "dist": _dist, "min": _min, "max": _max}


def _unknown(kind: str) -> InputError:
    return InputError(f"the operator {kind} is outside the XCSP3 subset csp takes (integer "
                      "arithmetic, comparisons, logic, if, in/notin)", token=kind)


__all__ = ["Trees", "relation"]
