"""Constraints of a `Model`, each able to check a complete assignment.

A constraint is built from variables (or their names) and is bound to a model
by `Model.add`, which resolves every variable to its name. `holds(assignment)`
is the pure-Python oracle that every test and every crosscheck trusts.

>>> from csp.model import Model
>>> m = Model()
>>> x, y, z = m.var("x", range(1, 4)), m.var("y", range(1, 4)), m.var("z", range(1, 4))
>>> c = m.add(Sum([x, y, z]) == 6)
>>> c.holds({"x": 1, "y": 2, "z": 3}), c.holds({"x": 3, "y": 3, "z": 1})
(True, False)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from csp.errors import InputError, refuse_string

VarLike = Any  # a `Variable` or a variable's name


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
"""The range of every integer of a model (values, constants, weights, sums'
right-hand sides): the backends keep them in signed 64-bit ints."""


class Term:
    """What a constraint is built from besides a name: the base of a `Model`'s
    `Variable` (in `csp.model`, which builds on this module, not the reverse)."""

    __slots__ = ()
    name: Hashable


class Constraint:
    """Base class: a scope of variables and a test on complete assignments.

    A constraint belongs to the one model it was added to: binding resolves
    its scope against that model (a `Relation` expands its table over that
    model's domains), so adding it to a second model is an `InputError`.
    """

    kind: str = "constraint"
    model: Any = None
    """The model the constraint was added to (None until `Model.add`)."""

    def __init__(self, scope: Iterable[VarLike]) -> None:
        refuse_string(scope, f"the variables of {self.kind}")
        self.scope: tuple[Hashable, ...] = tuple(_name(v) for v in scope)
        self.label: str | None = None

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        raise NotImplementedError

    def _bind(self, model: Any) -> None:
        """Called by `Model.add`: resolve names and validate against the model."""
        self.scope = tuple(model._resolve(v, self) for v in self.scope)

    def __repr__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        names = ", ".join(map(str, self.scope[:6])) + (", ..." if len(self.scope) > 6 else "")
        return f"{self.kind}({names})"


class AllDifferent(Constraint):
    """The variables take pairwise different values."""

    kind = "AllDifferent"

    def __init__(self, variables: Iterable[VarLike]) -> None:
        super().__init__(variables)

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        seen: set[Hashable] = set()
        for name in self.scope:
            if name in seen:
                raise InputError(f"variable {name!r} appears twice in {self.describe()}",
                                 token=name)
            seen.add(name)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        values = [assignment[v] for v in self.scope]
        return len(set(values)) == len(values)


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "<=": operator.le,
    ">=": operator.ge,
}


class Sum:
    """A weighted sum of variables, to be compared with an int: `Sum(xs) == 10`.

    >>> Sum(["a", "b"], weights=[2, -1]) <= 3
    Linear(2*a - 1*b <= 3)
    """

    def __init__(self, variables: Iterable[VarLike], weights: Iterable[int] | None = None):
        refuse_string(variables, "the variables of Sum")
        self.variables = list(variables)
        if weights is None:
            self.weights = [1] * len(self.variables)
        else:
            self.weights = [_integer(w, "weight") for w in weights]
            if len(self.weights) != len(self.variables):
                raise InputError(
                    f"Sum has {len(self.variables)} variables but {len(self.weights)} weights"
                )

    def _compare(self, op: str, rhs: object, shift: int = 0) -> Linear:
        bound = _integer(rhs, "right-hand side") + shift
        return Linear(self.variables, self.weights, op, _integer(bound, "right-hand side"))

    def __eq__(self, rhs: object) -> Linear:  # type: ignore[override]
        return self._compare("==", rhs)

    def __le__(self, rhs: object) -> Linear:
        return self._compare("<=", rhs)

    def __ge__(self, rhs: object) -> Linear:
        return self._compare(">=", rhs)

    def __lt__(self, rhs: object) -> Linear:
        """Over integers `< k` is `<= k - 1`.

        >>> Sum(["a", "b"]) < 3
        Linear(1*a + 1*b <= 2)
        """
        return self._compare("<=", rhs, -1)

    def __gt__(self, rhs: object) -> Linear:
        return self._compare(">=", rhs, 1)

    def __ne__(self, rhs: object) -> Linear:  # type: ignore[override]
        # Without this, Python answers `not (sum == rhs)`: a silent False.
        names = ", ".join(map(str, (_name(v) for v in self.variables[:6])))
        raise InputError(
            f"Sum({names}{', ...' if len(self.variables) > 6 else ''}) != {rhs!r}: a sum "
            "compares only with ==, <=, >=, < or >; for 'differs from' use a Relation "
            "or a forbidden Table over its variables"
        )

    __hash__ = None  # type: ignore[assignment]


class Expression:
    """A linear expression over variables: `2*x + y - z + 3`, built by the
    arithmetic of `Variable`; comparing it with an int, a variable or another
    expression makes a `Linear` constraint (everything moved to the left).

    >>> from csp.model import Model
    >>> m = Model()
    >>> x, y, z = m.vars("xyz", range(5))
    >>> x + 2 * y - z == 5
    Linear(1*x + 2*y - 1*z == 5)
    >>> x + 1 < y
    Linear(1*x - 1*y <= -2)
    """

    __slots__ = ("terms", "constant")

    def __init__(self, terms: Mapping[Any, int] | None = None, constant: int = 0) -> None:
        # Keyed by the Variable object (hashed by identity), in first-use order,
        # so that `x + x` is one term of weight 2.
        self.terms: dict[Any, int] = dict(terms or {})
        self.constant = _integer(constant, "constant")

    @staticmethod
    def of(value: object) -> Expression:
        """`value` (a Variable, an Expression or an int) as an Expression."""
        if isinstance(value, Expression):
            return value
        if isinstance(value, Term):
            return Expression({value: 1})
        if _is_int(value):
            return Expression(constant=value)  # type: ignore[arg-type]
        raise InputError(f"{value!r} is not a variable, an expression or an integer: a linear "
                         "expression adds and subtracts only those", token=value)

    def _combine(self, other: object, sign: int) -> Expression:
        other = Expression.of(other)
        terms = dict(self.terms)
        for var, weight in other.terms.items():
            terms[var] = _integer(terms.get(var, 0) + sign * weight, "weight")
        return Expression(terms, self.constant + sign * other.constant)

    def __add__(self, other: object) -> Expression:
        return self._combine(other, 1)

    def __radd__(self, other: object) -> Expression:
        return self._combine(other, 1)

    def __sub__(self, other: object) -> Expression:
        return self._combine(other, -1)

    def __rsub__(self, other: object) -> Expression:
        return Expression.of(other)._combine(self, -1)

    def __neg__(self) -> Expression:
        return self * -1

    def __pos__(self) -> Expression:
        return self

    def __mul__(self, factor: object) -> Expression:
        if not _is_int(factor):
            raise InputError(f"{self!r} * {factor!r}: an expression is multiplied only by an "
                             "integer (a product of variables is not linear: use a Relation)",
                             token=factor)
        k = int(factor)  # type: ignore[call-overload]
        return Expression({v: _integer(w * k, "weight") for v, w in self.terms.items()},
                          self.constant * k)

    __rmul__ = __mul__

    def _compare(self, op: str, other: object, shift: int = 0) -> Linear:
        left = self - other  # `left op 0`, over integers `< k` being `<= k - 1`
        terms = left._nonzero()
        if not terms:
            raise InputError(f"{self!r} {op} {other!r} compares no variable (their weights "
                             "cancel out)")
        return Linear(list(terms), list(terms.values()), op,
                      _integer(-left.constant + shift, "right-hand side"))

    def _nonzero(self) -> dict[Any, int]:
        return {v: w for v, w in self.terms.items() if w != 0}

    def __eq__(self, other: object) -> Linear:  # type: ignore[override]
        return self._compare("==", other)

    def __le__(self, other: object) -> Linear:
        return self._compare("<=", other)

    def __ge__(self, other: object) -> Linear:
        return self._compare(">=", other)

    def __lt__(self, other: object) -> Linear:
        return self._compare("<=", other, -1)

    def __gt__(self, other: object) -> Linear:
        return self._compare(">=", other, 1)

    def __ne__(self, other: object) -> Constraint:  # type: ignore[override]
        # Linear has no `!=`; a difference of one variable and a constant is a
        # Compare, anything else would otherwise be Python's silent `not ==`.
        left = self - other
        terms = left._nonzero()
        if len(terms) == 1:
            (var, weight), = terms.items()
            if weight in (1, -1):
                return Compare(var, "!=", -left.constant * weight)
        raise InputError(f"{self!r} != {other!r}: an expression compares only with ==, <=, "
                         ">=, < or >; for 'differs from' use a Relation or x != y")

    def __bool__(self) -> bool:
        raise InputError(f"{self!r} has no truth value: compare it (==, <=, ...) and add the "
                         "constraint to a model")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        terms = " + ".join(f"{w}*{getattr(v, 'name', v)}" for v, w in self.terms.items())
        text = terms + (f" + {self.constant}" if self.constant else "")
        return text.replace("+ -", "- ") or str(self.constant)


class Linear(Constraint):
    """`sum(weights[i] * scope[i]) op rhs`, with op one of `==`, `<=`, `>=`."""

    kind = "Sum"

    def __init__(self, variables: Iterable[VarLike], weights: Sequence[int], op: str, rhs: int):
        super().__init__(variables)
        if op not in _COMPARE:
            raise InputError(f"unknown comparison {op!r} (use ==, <= or >=)")
        self.weights = tuple(weights)
        self.op = op
        self.rhs = rhs
        if not self.scope:
            raise InputError(f"a sum over nothing: {self.describe()}")

    def __bool__(self) -> bool:
        # `if x < y:` or `sorted([x, y])` would otherwise be silently true.
        raise InputError(f"{self.describe()} is a constraint, not a truth value: add it to a "
                         "model (m.add(...)); to compare values, compare a solution's")

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        seen: set[Hashable] = set()
        for name in self.scope:
            if name in seen:
                raise InputError(f"variable {name!r} appears twice in {self.describe()}; "
                                 "add its weights instead", token=name)
            seen.add(name)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        total = sum(w * assignment[v] for w, v in zip(self.weights, self.scope))
        return _COMPARE[self.op](total, self.rhs)

    def describe(self) -> str:
        terms = " + ".join(f"{w}*{v}" for w, v in zip(self.weights, self.scope))
        return f"Linear({terms.replace('+ -', '- ')} {self.op} {self.rhs})"


class Table(Constraint):
    """The tuple of values of `variables` is one of `tuples` (or, with
    `forbidden=True`, none of them)."""

    kind = "Table"

    def __init__(
        self,
        variables: Iterable[VarLike],
        tuples: Iterable[Sequence[int]],
        *,
        forbidden: bool = False,
    ) -> None:
        super().__init__(variables)
        self.forbidden = forbidden
        self.tuples: tuple[tuple[int, ...], ...] = ()  # describe() may run before they are read
        arity = len(self.scope)
        rows: set[tuple[int, ...]] = set()
        for row in tuples:
            row = tuple(_integer(v, "table value") for v in row)
            if len(row) != arity:
                raise InputError(f"tuple {row} has {len(row)} values, the table has {arity} "
                                 f"variables: {self.describe()}")
            rows.add(row)
        self.tuples = tuple(sorted(rows))
        self._set = frozenset(self.tuples)

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        if len(set(self.scope)) != len(self.scope):
            raise InputError(f"a variable appears twice in {self.describe()}")

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        row = tuple(assignment[v] for v in self.scope)
        return (row in self._set) != self.forbidden

    def allowed(self, domains: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
        """The allowed tuples within `domains` (one per scope variable)."""
        if not self.forbidden:
            sets = [set(d) for d in domains]
            return [t for t in self.tuples if all(v in s for v, s in zip(t, sets))]
        import itertools

        return [t for t in itertools.product(*domains) if t not in self._set]

    def describe(self) -> str:
        what = "forbidden" if self.forbidden else "allowed"
        return f"Table({', '.join(map(str, self.scope))}; {len(self.tuples)} {what})"


MAX_RELATION_TUPLES = 1_000_000
"""A `Relation` is expanded into a table once; a larger domain product is refused."""


class Relation(Table):
    """Any Python predicate over a small scope, expanded into a `Table` when added.

    >>> from csp.model import Model
    >>> m = Model()
    >>> _ = m.var("a", range(4)), m.var("b", range(4))
    >>> r = m.add(Relation(["a", "b"], lambda a, b: a + 1 == b))
    >>> r.tuples
    ((0, 1), (1, 2), (2, 3))
    """

    kind = "Relation"

    def __init__(self, variables: Iterable[VarLike], predicate: Callable[..., bool]) -> None:
        super().__init__(variables, ())
        self.predicate = predicate

    def _bind(self, model: Any) -> None:
        import itertools
        import math

        super()._bind(model)
        domains = [model.variables[v].domain for v in self.scope]
        size = math.prod(len(d) for d in domains)
        if size > MAX_RELATION_TUPLES:
            raise InputError(
                f"{self.describe()} would expand to {size:,} tuples, over the bound of "
                f"{MAX_RELATION_TUPLES:,}: split it or give a Table"
            )
        self.tuples = tuple(t for t in itertools.product(*domains) if self.predicate(*t))
        self._set = frozenset(self.tuples)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        if self.predicate is None:  # sent to another process: the expanded table says it
            return super().holds(assignment)
        return bool(self.predicate(*(assignment[v] for v in self.scope)))

    def __getstate__(self) -> dict[str, Any]:
        # Once expanded, the table is the constraint: a lambda predicate need
        # not (and cannot) be pickled for another process.
        state = dict(self.__dict__)
        if "_set" in state:
            state["predicate"] = None
        return state

    def describe(self) -> str:
        return f"Relation({', '.join(map(str, self.scope))})"


class Compare(Constraint):
    """`x == y`, `x != y` between two variables, or a variable and a constant.

    Made by the comparison operators of `Variable`. Its truth value is whether
    both sides are the same object, so that `x in [x, y]` keeps working.
    """

    kind = "Compare"

    def __init__(self, left: VarLike, op: str, right: VarLike | int) -> None:
        if op not in ("==", "!="):
            raise InputError(f"unknown comparison {op!r}")
        self.op = op
        self._left, self._right = left, right
        self.constant: int | None = None
        if _is_constant(right):
            self.constant = _integer(right, "constant")
            super().__init__([left])
        else:
            super().__init__([left, right])

    def __bool__(self) -> bool:
        same = self._left is self._right
        return same if self.op == "==" else not same

    def _bind(self, model: Any) -> None:
        right = self._right
        if (self.constant is None and _is_number(right)
                and not isinstance(right, (_VarRef, str)) and right not in model.variables):
            # `x == 1.5` or `x == True`: a constant, but not an integer one
            # (not the name of a variable, which would say "unknown variable").
            raise InputError(f"{self.describe()}: the constant {right!r} is not an integer",
                             token=right)
        super()._bind(model)
        if len(self.scope) == 2 and self.scope[0] == self.scope[1]:
            raise InputError(f"{self.describe()} compares a variable with itself")

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        left = assignment[self.scope[0]]
        right = self.constant if self.constant is not None else assignment[self.scope[1]]
        return (left == right) if self.op == "==" else (left != right)

    def describe(self) -> str:
        right = self.constant if self.constant is not None else self.scope[1]
        return f"({self.scope[0]} {self.op} {right})"


def _is_constant(value: object) -> bool:
    return not isinstance(value, (Term, str)) and _is_int(value)


def _is_int(value: object) -> bool:
    import numbers

    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    import numbers

    return isinstance(value, numbers.Number)


def _integer(value: object, what: str) -> int:
    """`value` as an int, or an `InputError` naming `what` if it is not an
    integer or does not fit in a signed 64-bit int.

    >>> _integer(2**70, "domain value of 'x':")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    csp.errors.InputError: domain value of 'x': 1180591620717411303424 does not fit in a ...
    """
    if not _is_int(value):
        raise InputError(f"{what} {value!r} is not an integer", token=value)
    number = int(value)  # type: ignore[call-overload]
    if not INT64_MIN <= number <= INT64_MAX:
        raise InputError(f"{what} {number} does not fit in a signed 64-bit integer "
                         "(the backends keep values as int64)", token=value)
    return number


def _name(v: VarLike) -> Hashable:
    return v if not isinstance(v, Term) else _VarRef(v)


class _VarRef:
    """A variable object, remembered until `Model.add` checks its model."""

    __slots__ = ("variable",)

    def __init__(self, variable: Term) -> None:
        self.variable = variable

    def __repr__(self) -> str:
        return str(self.variable.name)

    def __str__(self) -> str:
        return str(self.variable.name)
