"""Integer expressions beyond linear sums, and `Comparison`, the constraint
that compares one of them.

Glossary:

- an *atom* is what a linear `Expression` (`csp.constraints`) sums with
  integer weights: a variable, a *function* of this module, or a constraint
  standing for 0 or 1 (`Sum([a == 1, b == 2]) == 1`);
- a *function* (`Function`) is an integer-valued node over operands that are
  themselves ints, variables or expressions: `x * y`, `x // y`, `x % y`,
  `abs(x)`, `Minimum`, `Maximum`, `Element`, `Count`, `NValue`;
- comparing a function, or an expression that holds one, with `==`, `!=`,
  `<`, `<=`, `>` or `>=` makes a `Comparison`. Its kind is the function's
  (`"Element"`, `"Count"`, ...) when it compares one function of plain
  operands (variables and ints) with a variable or an int, which is how the
  globals of the field read (`Element(array, index) == value`); otherwise it
  is `"Intension"` (XCSP3's name for a constraint given by an expression).

Semantics are the relational ones of MiniZinc and XCSP3: a comparison whose
function is undefined on an assignment (an `Element` index out of range) is
false there. `//` and `%` are Python's (rounding towards minus infinity);
`Div(x, y, rounding="zero")` and `Mod(x, y, rounding="zero")` are the field's
(MiniZinc's `div`/`mod`, XCSP3's `div`/`mod`: towards zero). A divisor whose
domain holds 0 is an `InputError` when the constraint is added.

>>> from csp import Model
>>> m = Model()
>>> x, y, i = m.var("x", range(4)), m.var("y", range(4)), m.var("i", range(3))
>>> m.add(Element([x, y, 2], i) == 2)
Element([x, y, 2], i) == 2
>>> m.add(x * y >= abs(x - 3))
(x * y) - abs(x - 3) >= 0
>>> m.check({"x": 2, "y": 1, "i": 0}), m.check({"x": 0, "y": 1, "i": 1})
([], [Element([x, y, 2], i) == 2, (x * y) - abs(x - 3) >= 0])
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from csp.constraints import (
    BUILD,
    Constraint,
    Expression,
    Named,
    Term,
    _integer,
    _is_int,
    _VarRef,
)
from csp.errors import InputError, refuse_string

OPERATORS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
"""`a op b` is `b FLIPPED[op] a`."""


class Function:
    """An integer-valued function of its operands (see the module's glossary).

    Arithmetic with it builds an `Expression` that holds it as an atom;
    comparing it builds a `Comparison`. Like a variable it hashes by identity,
    and it has no truth value.
    """

    kind: ClassVar[str] = "Intension"
    symbol: ClassVar[str] = "?"

    def __init__(self, *operands: Any) -> None:
        self.args: tuple[Any, ...] = tuple(_operand(a, self.symbol) for a in operands)

    # -- what it computes ------------------------------------------------------------

    def apply(self, values: Sequence[int]) -> int | None:
        """The value for the operands' values, None where it is undefined."""
        raise NotImplementedError

    def value(self, assignment: Mapping[Hashable, int]) -> int | None:
        values = []
        for arg in self.args:
            v = evaluate(arg, assignment)
            if v is None:
                return None
            values.append(v)
        return self.apply(values)

    def plain(self) -> bool:
        """Whether every operand is a variable or an int (no nested expression)."""
        return all(_is_plain(a) for a in self.args)

    def rebuilt(self, args: Sequence[Any]) -> Function:
        """The same function over other operands (binding, flattening)."""
        new = copy.copy(self)
        new.args = tuple(args)
        return new

    def _check(self, model: Any, owner: Constraint) -> None:
        """Raise an `InputError` for operands the function cannot take (bound)."""

    def describe(self) -> str:
        return f"{type(self).__name__}({', '.join(map(_show, self.args))})"

    def __repr__(self) -> str:
        return self.describe()

    # -- arithmetic and comparisons ------------------------------------------------------

    def __add__(self, other: object) -> Expression:
        return Expression.of(self) + other

    __radd__ = __add__

    def __sub__(self, other: object) -> Expression:
        return Expression.of(self) - other

    def __rsub__(self, other: object) -> Expression:
        return Expression.of(other) - self

    def __mul__(self, other: object) -> Any:
        return Expression.of(self) * other

    __rmul__ = __mul__

    def __neg__(self) -> Expression:
        return -Expression.of(self)

    def __floordiv__(self, other: object) -> Div:
        return Div(self, other)

    def __rfloordiv__(self, other: object) -> Div:
        return Div(other, self)

    def __mod__(self, other: object) -> Mod:
        return Mod(self, other)

    def __rmod__(self, other: object) -> Mod:
        return Mod(other, self)

    def __abs__(self) -> Abs:
        return Abs(self)

    def __eq__(self, other: object) -> Constraint:  # type: ignore[override]
        return compare(self, "==", other)

    def __ne__(self, other: object) -> Constraint:  # type: ignore[override]
        return compare(self, "!=", other)

    def __lt__(self, other: object) -> Constraint:
        return compare(self, "<", other)

    def __le__(self, other: object) -> Constraint:
        return compare(self, "<=", other)

    def __gt__(self, other: object) -> Constraint:
        return compare(self, ">", other)

    def __ge__(self, other: object) -> Constraint:
        return compare(self, ">=", other)

    def __bool__(self) -> bool:
        raise InputError(f"{self.describe()} has no truth value: compare it (==, <=, ...) and "
                         "add the constraint to a model")

    __hash__ = object.__hash__


class Times(Function):
    """`x * y`: the product of two expressions (made by `*`)."""

    kind = "Times"
    symbol = "*"

    def apply(self, values: Sequence[int]) -> int:
        return values[0] * values[1]

    def describe(self) -> str:
        return f"({_show(self.args[0])} * {_show(self.args[1])})"


class Div(Function):
    """`x // y` (Python's floor division), or `Div(x, y, rounding="zero")`,
    the field's division (MiniZinc's `div`, XCSP3's `div`) which rounds
    towards zero. The divisor's domain must not hold 0.

    Args:
        dividend: a variable, name, expression or int.
        divisor: likewise.
        rounding: `"floor"` (Python's) or `"zero"` (the field's).

    Raises:
        InputError: another rounding.
    """

    kind = "Div"
    symbol = "//"

    def __init__(self, dividend: Any, divisor: Any, rounding: str = "floor") -> None:
        if rounding not in ("floor", "zero"):
            raise InputError(f"rounding {rounding!r}: use 'floor' (Python's //) or 'zero' "
                             "(MiniZinc's and XCSP3's div)")
        self.rounding = rounding
        super().__init__(dividend, divisor)

    def apply(self, values: Sequence[int]) -> int | None:
        x, y = values
        if y == 0:
            return None
        if self.rounding == "floor":
            return x // y
        q = abs(x) // abs(y)
        return q if (x >= 0) == (y > 0) else -q

    def _check(self, model: Any, owner: Constraint) -> None:
        _no_zero(self.args[1], model, owner, "//" if self.rounding == "floor" else "div")

    def describe(self) -> str:
        op = "//" if self.rounding == "floor" else "div"
        return f"({_show(self.args[0])} {op} {_show(self.args[1])})"


class Mod(Function):
    """`x % y` (Python's: the sign of the divisor), or `Mod(x, y,
    rounding="zero")`, the field's remainder (the sign of the dividend, as
    MiniZinc's `mod` and XCSP3's `mod`). The divisor's domain must not hold 0.

    Args:
        dividend: the number divided, as `Div` takes it.
        divisor: the number it is divided by.
        rounding: `"floor"` (the remainder has the divisor's sign) or
            `"zero"` (the dividend's); anything else is an `InputError`.

    >>> Mod("x", 3, rounding="zero")
    (x mod 3)
    """

    kind = "Mod"
    symbol = "%"

    def __init__(self, dividend: Any, divisor: Any, rounding: str = "floor") -> None:
        if rounding not in ("floor", "zero"):
            raise InputError(f"rounding {rounding!r}: use 'floor' (Python's %) or 'zero' "
                             "(MiniZinc's and XCSP3's mod)")
        self.rounding = rounding
        super().__init__(dividend, divisor)

    def apply(self, values: Sequence[int]) -> int | None:
        x, y = values
        if y == 0:
            return None
        if self.rounding == "floor":
            return x % y
        r = abs(x) % abs(y)
        return r if x >= 0 else -r

    def _check(self, model: Any, owner: Constraint) -> None:
        _no_zero(self.args[1], model, owner, "%" if self.rounding == "floor" else "mod")

    def describe(self) -> str:
        op = "%" if self.rounding == "floor" else "mod"
        return f"({_show(self.args[0])} {op} {_show(self.args[1])})"


class Abs(Function):
    """`Abs(x)` or `abs(x)`: the absolute value of an expression.

    Args:
        x: a variable, name or expression.
    """

    kind = "Abs"
    symbol = "abs"

    def __init__(self, x: Any) -> None:
        super().__init__(x)

    def apply(self, values: Sequence[int]) -> int:
        return abs(values[0])

    def describe(self) -> str:
        return f"abs({_show(self.args[0])})"


class _OfList(Function):
    """A function of a list of expressions."""

    def __init__(self, items: Iterable[Any]) -> None:
        refuse_string(items, f"the operands of {type(self).__name__}")
        super().__init__(*items)
        if not self.args:
            raise InputError(f"{type(self).__name__} of nothing: give it at least one operand")

    def describe(self) -> str:
        return f"{type(self).__name__}([{', '.join(map(_show, self.args))}])"


class Minimum(_OfList):
    """`Minimum([x, y, ...])`: the least of the expressions (Python's `min()`
    cannot build it: it asks which one is less, which only a solution knows).

    >>> Minimum(["a", 3]) <= 2
    Minimum([a, 3]) <= 2
    """

    kind = "Minimum"
    symbol = "min"

    def apply(self, values: Sequence[int]) -> int:
        return min(values)


class Maximum(_OfList):
    """`Maximum([x, y, ...])`: the greatest of the expressions."""

    kind = "Maximum"
    symbol = "max"

    def apply(self, values: Sequence[int]) -> int:
        return max(values)


class NValue(_OfList):
    """`NValue(vars)`: how many distinct values the expressions take
    (XCSP3's `nValues`, MiniZinc's `nvalue`)."""

    kind = "NValue"
    symbol = "nvalue"

    def apply(self, values: Sequence[int]) -> int:
        return len(set(values))


class Element(Function):
    """`Element(array, index)`: `array[index]`, 0-based. `array` holds ints or
    variables (or expressions); an assignment whose index is out of range
    satisfies no comparison of it (the field's relational semantics). An index
    that can never be in range is an `InputError`.

    Args:
        array: ints, variables (or names) or expressions.
        index: a variable, name or expression: the 0-based position.

    >>> Element([10, 20, 30], "i") == "v"
    Element([10, 20, 30], i) == v
    """

    kind = "Element"
    symbol = "element"

    def __init__(self, array: Iterable[Any], index: Any) -> None:
        refuse_string(array, "the array of Element")
        items = list(array)
        if not items:
            raise InputError("Element over an empty array: no index can be in range")
        super().__init__(*items, index)

    @property
    def array(self) -> tuple[Any, ...]:
        return self.args[:-1]

    @property
    def index(self) -> Any:
        return self.args[-1]

    def value(self, assignment: Mapping[Hashable, int]) -> int | None:
        i = evaluate(self.index, assignment)  # only the chosen entry needs a value
        if i is None or not 0 <= i < len(self.args) - 1:
            return None
        return evaluate(self.args[i], assignment)

    def apply(self, values: Sequence[int]) -> int | None:
        i = values[-1]
        return values[i] if 0 <= i < len(values) - 1 else None

    def _check(self, model: Any, owner: Constraint) -> None:
        n = len(self.args) - 1
        index = self.index
        if _is_int(index):
            possible: Iterable[int] = [index]
        elif isinstance(index, Term):
            possible = index.domain  # type: ignore[attr-defined]
        else:
            return  # an expression: its values are known once flattened
        if not any(0 <= v < n for v in possible):
            raise InputError(f"{owner.describe()}: the index {_show(index)} can never be in "
                             f"range 0..{n - 1} (Element is 0-based)", token=_show(index))

    def describe(self) -> str:
        return f"Element([{', '.join(map(_show, self.array))}], {_show(self.index)})"


class Count(Function):
    """`Count(vars, value)`: how many of the expressions equal `value` (an
    int or a variable).

    Args:
        items: variables, names or expressions.
        value: the value counted: an int, a variable or a name.

    >>> Count(["a", "b", "c"], 2) >= 1
    Count([a, b, c], 2) >= 1
    """

    kind = "Count"
    symbol = "count"

    def __init__(self, items: Iterable[Any], value: Any) -> None:
        refuse_string(items, "the variables of Count")
        super().__init__(*items, value)

    @property
    def items(self) -> tuple[Any, ...]:
        return self.args[:-1]

    @property
    def target(self) -> Any:
        return self.args[-1]

    def apply(self, values: Sequence[int]) -> int:
        target = values[-1]
        return sum(1 for v in values[:-1] if v == target)

    def describe(self) -> str:
        return f"Count([{', '.join(map(_show, self.items))}], {_show(self.target)})"


FUNCTIONS: tuple[type[Function], ...] = (Times, Div, Mod, Abs, Minimum, Maximum, NValue,
                                         Element, Count)
"""Every function; each kind is a capability a model backend may declare."""


class Comparison(Constraint):
    """`left op right`: `left` is a `Function` or an `Expression` holding
    one (or constraints as 0/1), `right` a variable or an int (see the
    module's glossary for its kind)."""

    kind = "Intension"

    def __init__(self, left: Function | Expression, op: str, right: Any) -> None:
        if op not in OPERATORS:
            raise InputError(f"unknown comparison {op!r} (use ==, !=, <, <=, > or >=)")
        self.left: Any = left
        self.op = op
        self.right: Any = right
        self.label = None
        self.scope = ()  # describe() may run before binding
        self.scope = tuple(_unique(_VarRef(v) if isinstance(v, Term) else v
                                   for v in leaves((left, right))))

    def kinds(self) -> frozenset[str]:
        if isinstance(self.left, Function) and self.left.plain() and _is_plain(self.right):
            return frozenset({self.left.kind})
        return frozenset({"Intension"})

    def _bind(self, model: Any) -> None:
        self.left = bind(self.left, model, self)
        self.right = bind(self.right, model, self)
        self.scope = tuple(_unique(leaves((self.left, self.right))))
        for node in functions(self.left):
            node._check(model, self)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        left = evaluate(self.left, assignment)
        right = evaluate(self.right, assignment)
        if left is None or right is None:
            return False
        return OPERATORS[self.op](left, right)

    def __bool__(self) -> bool:
        raise InputError(f"{self.describe()} is a constraint, not a truth value: add it to a "
                         "model (m.add(...))")

    def describe(self) -> str:
        return f"{_show(self.left)} {self.op} {_show(self.right)}"


def compare(left: Any, op: str, right: Any) -> Constraint:
    """`left op right` as the simplest constraint that says it: a `Linear`
    or a `Compare` when both sides are linear over variables, else a
    `Comparison` (with a function alone on the left where it can be)."""
    if isinstance(right, Constraint) and op in ("==", "!=") and isinstance(left, Constraint):
        return left == right if op == "==" else left != right
    if isinstance(left, Function) and _is_plain(right):
        return Comparison(left, op, _as_operand(right, "comparison"))
    if isinstance(right, Function) and _is_plain(left):
        return Comparison(right, FLIPPED[op], _as_operand(left, "comparison"))
    return Expression.of(left)._compare_any(op, right)


def normalised(left: Expression, op: str) -> Constraint:
    """`left op 0`, where `left` holds a non-variable atom, as a `Comparison`:
    `f - y op 0` and `f + k op 0` put the function `f` alone on the left."""
    terms = left._nonzero()
    functions_ = [(a, w) for a, w in terms.items() if not _is_variable(a)]
    if len(functions_) == 1 and isinstance(functions_[0][0], Function) and \
            abs(functions_[0][1]) == 1:
        (f, w), = functions_
        rest = [(a, v) for a, v in terms.items() if a is not f]
        sign_op = op if w == 1 else FLIPPED[op]
        if not rest:
            return Comparison(f, sign_op, -left.constant * w)
        if len(rest) == 1 and rest[0][1] == -w and left.constant == 0:
            return Comparison(f, sign_op, rest[0][0])
    # Everything but the constant on the left, as it reads best.
    return Comparison(Expression(terms), op, -left.constant)


# -- walking expressions ----------------------------------------------------------------


def evaluate(e: Any, assignment: Mapping[Hashable, int]) -> int | None:
    """The value of expression `e` (bound or not), None where undefined."""
    if isinstance(e, int) and not isinstance(e, bool):
        return e
    if isinstance(e, Term):
        return assignment[e.name]
    if isinstance(e, Expression):
        total = e.constant
        for atom, weight in e.terms.items():
            v = evaluate(atom, assignment)
            if v is None:
                return None
            total += weight * v
        return total
    if isinstance(e, Function):
        return e.value(assignment)
    if isinstance(e, Constraint):
        return int(e.holds(assignment))
    if isinstance(e, _VarRef):
        return assignment[e.variable.name]
    return assignment[e]  # a variable's name


def leaves(e: Any) -> Iterator[Any]:
    """The variables (objects or names) in `e`, in order, with repeats."""
    if isinstance(e, (tuple, list)):
        for part in e:
            yield from leaves(part)
    elif isinstance(e, int) and not isinstance(e, bool):
        return
    elif isinstance(e, Expression):
        for atom in e.terms:
            yield from leaves(atom)
    elif isinstance(e, Function):
        for arg in e.args:
            yield from leaves(arg)
    elif isinstance(e, Constraint):
        yield from e.scope
    elif isinstance(e, _VarRef):
        yield e.variable
    else:
        yield e  # a Variable or a name


def functions(e: Any) -> Iterator[Function]:
    """The functions in `e`, outermost first."""
    if isinstance(e, Expression):
        for atom in e.terms:
            yield from functions(atom)
    elif isinstance(e, Function):
        yield e
        for arg in e.args:
            yield from functions(arg)


def bind(e: Any, model: Any, owner: Constraint) -> Any:
    """`e` with every variable resolved to `model`'s `Variable` (names
    included), and its constraints bound: what `Model.add` checks."""
    if isinstance(e, int) and not isinstance(e, bool):
        return e
    if isinstance(e, Expression):
        terms: dict[Any, int] = {}
        for atom, weight in e.terms.items():
            bound = bind(atom, model, owner)
            terms[bound] = terms.get(bound, 0) + weight
        return Expression(terms, e.constant)
    if isinstance(e, Function):
        return e.rebuilt([bind(a, model, owner) for a in e.args])
    if isinstance(e, Constraint):
        e._bind(model)
        return e
    if isinstance(e, Named):
        return model.variables[model._resolve(e.name, owner)]
    ref = _VarRef(e) if isinstance(e, Term) else e
    return model.variables[model._resolve(ref, owner)]


def _operand(value: Any, where: str) -> Any:
    return _as_operand(value, f"an operand of {where}")


def _as_operand(value: Any, where: str) -> Any:
    if isinstance(value, bool):
        raise InputError(f"{where}: {value!r} is a bool, not an integer or a variable",
                         token=value)
    if _is_int(value):
        return _integer(value, f"{where}:")
    if isinstance(value, (Term, Expression, Function, Constraint)):
        return value
    if isinstance(value, float):
        raise InputError(f"{where}: {value!r} is not an integer", token=value)
    try:
        hash(value)
    except TypeError:
        raise InputError(f"{where}: {value!r} is not an integer, a variable or an "
                         "expression", token=value) from None
    return value  # a variable's name, checked when the constraint is added


def _is_plain(value: Any) -> bool:
    return not isinstance(value, (Expression, Function, Constraint, float, bool))


def _is_variable(value: Any) -> bool:
    return not isinstance(value, (Expression, Function, Constraint)) and not _is_int(value)


def _no_zero(divisor: Any, model: Any, owner: Constraint, symbol: str) -> None:
    if _is_int(divisor):
        if divisor == 0:
            raise InputError(f"{owner.describe()}: a division by 0")
        return
    if isinstance(divisor, Term) and 0 in divisor.domain:  # type: ignore[attr-defined]
        raise InputError(
            f"{owner.describe()}: the divisor {divisor.name!r} of {symbol} may be 0 (its "
            "domain holds 0); MiniZinc and XCSP3 leave x div 0 undefined: remove 0 from its "
            "domain", token=divisor.name)


def _unique(items: Iterable[Any]) -> Iterator[Any]:
    seen: set[Any] = set()
    for item in items:
        key = item.variable.name if isinstance(item, _VarRef) else (
            item.name if isinstance(item, Term) else item)
        if key not in seen:
            seen.add(key)
            yield item.name if isinstance(item, Term) else item


def _show(e: Any) -> str:
    if isinstance(e, Term):
        return str(e.name)
    if isinstance(e, Expression):
        parts = []
        for atom, weight in e.terms.items():
            if weight == 0:
                continue
            text = _show(atom)
            sign = "-" if weight < 0 else "+"
            size = abs(weight)
            parts.append(f"{sign} {text if size == 1 else f'{size}*{text}'}")
        if e.constant or not parts:
            parts.append(f"{'-' if e.constant < 0 else '+'} {abs(e.constant)}")
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]
    if isinstance(e, (Function, Constraint)):
        return e.describe()
    return str(e)


__all__ = ["Abs", "Comparison", "Count", "Div", "Element", "Function", "Maximum", "Minimum",
           "Mod", "NValue", "Times", "compare", "evaluate"]

BUILD.update(Function=Function, Times=Times, Div=Div, Mod=Mod, Abs=Abs, normalised=normalised)
