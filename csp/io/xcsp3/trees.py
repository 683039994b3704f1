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

from collections.abc import Callable
from typing import Any

from csp.constraints import Compare, Constraint, Expression, Term
from csp.errors import InputError
from csp.expressions import Abs, Div, Element, Maximum, Minimum, Mod
from csp.io.folding import LOGIC, conjunction, disjunction, negation, relation

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
        if kind == "symbol":
            if node.cnt in ("true", "false"):
                return int(node.cnt == "true")
            raise InputError(f"{node.cnt!r} is not a variable of the instance, nor an integer "
                             "(symbolic values are outside what csp takes)", token=node.cnt)
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
            return disjunction([conjunction([condition, then]),
                                conjunction([negation(condition), otherwise])])
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
            return conjunction([relation(a, "==", b) for a, b in zip(sons, sons[1:])])
        if kind == "ne":
            return conjunction([relation(a, "!=", b)
                                for i, a in enumerate(sons) for b in sons[i + 1:]])
        raise InputError(f"{kind} takes two operands, not {len(sons)}")

    def _member(self, node: Any, kind: str) -> Constraint | bool:
        value, values = _sons(node, kind)
        if str(values.type) != "set":
            raise InputError(f"{kind}: its second operand is {values.type}, not a set(...)")
        x = self.integer(value)
        inside = disjunction([relation(x, "==", self.integer(son)) for son in values.cnt])
        return negation(inside) if kind == "notin" else inside


def _sons(node: Any, kind: str) -> list[Any]:
    if not isinstance(node.cnt, list):
        raise InputError(f"{kind} without operands")
    return node.cnt


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


def _division(function: type[Div] | type[Mod]) -> Callable[[list[Any], str], Any]:
    """XCSP3's div or mod (truncating), folded over two ints."""
    def build(sons: list[Any], kind: str) -> Any:
        a, b = _arity(sons, 2, kind)
        if _is_int(a) and _is_int(b):
            if b == 0:
                raise InputError(f"{kind} by 0")
            return function(a, b, rounding="zero").apply([a, b])
        return function(a, b, rounding="zero")
    return build


_div, _mod = _division(Div), _division(Mod)


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


__all__ = ["Trees"]
