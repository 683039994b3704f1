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

import copy
import itertools
import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from csp.errors import InputError, refuse_string

VarLike = Any  # a `Variable` or a variable's name


BUILD: dict[str, Any] = {}
"""The classes that the operators of constraints and expressions build
(`c & d` an `And`, `x * y` a `Times`, ...), registered by the modules that
define them, `csp.logic` and `csp.expressions`: those build on this module,
which must not import them back (the layers read top-down)."""

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
"""The range of every integer of a model (values, constants, weights, sums'
right-hand sides): the backends keep them in signed 64-bit ints."""


class Term:
    """What a constraint is built from besides a name: the base of a `Model`'s
    `Variable` (in `csp.model`, which builds on this module, not the reverse)."""

    __slots__ = ()
    name: Hashable


class Named(Term):
    """A variable known by its name only, until a model resolves it (the
    terms of a `Sum` of names that also holds an expression)."""

    __slots__ = ("name",)

    def __init__(self, name: Hashable) -> None:
        self.name = name

    def __repr__(self) -> str:
        return str(self.name)


class Constraint:
    """Base class: a scope of variables and a test on complete assignments.

    A constraint belongs to the one model it was added to: binding resolves
    its scope against that model (a `Relation` expands its table over that
    model's domains), so adding it to a second model is an `InputError`.

    A constraint is also a boolean: `&`, `|`, `~` and `^` combine constraints
    (and boolean variables) into `csp.logic`'s `And`, `Or`, `Not` and `Xor`;
    `c == d` (or `b == c` with a boolean variable `b`) is their equivalence,
    `Iff`, which reifies `c`; in arithmetic a constraint counts as 0 or 1
    (`Sum([a == 1, b == 2]) == 1`). Its truth value stays identity, so lists
    of constraints compare and search as before.

    Args:
        scope: the constraint's variables (`Variable`s or their names).

    Raises:
        InputError: a string given as the scope (a list of names is meant).
    """

    kind: str = "constraint"
    model: Any = None
    """The model the constraint was added to (None until `Model.add`)."""

    def __init__(self, scope: Iterable[VarLike]) -> None:
        refuse_string(scope, f"the variables of {self.kind}")
        self.scope: tuple[Hashable, ...] = tuple(_name(v) for v in scope)
        self.label: str | None = None

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        """Whether the constraint holds: the test every subclass defines.

        Args:
            assignment: a value for (at least) every variable of the scope,
                by name.

        Returns:
            True where the values satisfy the constraint.
        """
        raise NotImplementedError

    def kinds(self) -> frozenset[str]:
        """The capabilities (constraint kinds) a backend needs to take this
        constraint as it is: its class's `kind` and its bases' (a `Relation`
        is a `Table`)."""
        return frozenset(cls.__dict__["kind"] for cls in type(self).__mro__
                         if "kind" in cls.__dict__)

    def _bind(self, model: Any) -> None:
        """Called by `Model.add`: resolve names and validate against the model."""
        self.scope = tuple(model._resolve(v, self) for v in self.scope)

    def __repr__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """The constraint as it reads in messages and reports (also its `repr`)."""
        names = ", ".join(map(str, self.scope[:6])) + (", ..." if len(self.scope) > 6 else "")
        return f"{self.kind}({names})"

    # -- as a boolean ------------------------------------------------------------------

    def __and__(self, other: object) -> Constraint:
        return BUILD["And"]([self, other])

    def __rand__(self, other: object) -> Constraint:
        return BUILD["And"]([other, self])

    def __or__(self, other: object) -> Constraint:
        return BUILD["Or"]([self, other])

    def __ror__(self, other: object) -> Constraint:
        return BUILD["Or"]([other, self])

    def __xor__(self, other: object) -> Constraint:
        return BUILD["Xor"]([self, other])

    def __rxor__(self, other: object) -> Constraint:
        return BUILD["Xor"]([other, self])

    def __invert__(self) -> Constraint:
        return BUILD["Not"](self)

    def __eq__(self, other: object) -> Any:
        if isinstance(other, (Constraint, Term)):
            return BUILD["Iff"](self, other)
        return NotImplemented

    def __ne__(self, other: object) -> Any:
        if isinstance(other, (Constraint, Term)):
            return BUILD["Xor"]([self, other], _identity=False)
        return NotImplemented

    __hash__ = object.__hash__

    # -- as 0 or 1 in arithmetic -----------------------------------------------------------

    def __add__(self, other: object) -> Expression:
        return Expression.of(self) + other

    def __radd__(self, other: object) -> Expression:
        return Expression.of(self) + other

    def __sub__(self, other: object) -> Expression:
        return Expression.of(self) - other

    def __rsub__(self, other: object) -> Expression:
        return Expression.of(other) - self

    def __mul__(self, other: object) -> Any:
        return Expression.of(self) * other

    def __rmul__(self, other: object) -> Any:
        return Expression.of(self) * other


class AllDifferent(Constraint):
    """The variables take pairwise different values.

    Args:
        variables: the variables (or their names), each once.

    Raises:
        InputError: a variable twice, when the constraint is added.

    >>> AllDifferent(["a", "b"]).holds({"a": 1, "b": 2})
    True
    """

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
    "!=": operator.ne,
    "<=": operator.le,
    ">=": operator.ge,
}


class Sum:
    """A weighted sum, to be compared: `Sum(xs) == 10`, `Sum(xs, weights) <= 3`.

    Over variables (or their names) it compares into a `Linear` constraint.
    Its terms may also be expressions, functions or constraints (each true
    one counting 1: `Sum([a == 1, b == 2]) == 1`); and a `Sum` is an
    expression itself (`Sum(xs) + 1`, `2 * Sum(xs) - y`).

    Args:
        variables: the terms: variables, names, expressions or constraints.
        weights: an integer per term (default: all 1).

    Raises:
        InputError: as many weights as terms, not; a weight not an integer.

    >>> Sum(["a", "b"], weights=[2, -1]) <= 3
    Linear(2*a - 1*b <= 3)
    """

    def __init__(self, variables: Iterable[Any], weights: Iterable[int] | None = None):
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

    def _linear(self) -> bool:
        """Whether every term is a variable (or a name): a `Linear` constraint."""
        return all(not isinstance(v, (Expression, Constraint, Sum, bool))
                   and not _is_function(v) for v in self.variables)

    def expression(self) -> Expression:
        """The sum as an `Expression` (names become atoms as they are)."""
        total = Expression()
        for v, w in zip(self.variables, self.weights):
            if isinstance(v, Sum):
                v = v.expression()
            elif isinstance(v, bool):
                raise InputError(f"Sum: {v!r} is a bool, not a variable or an integer",
                                 token=v)
            elif not isinstance(v, (Expression, Term, Constraint)) and not _is_function(v):
                v = Named(v)  # a name (an int too: in a Sum, every plain term is a variable)
            total = total + Expression.of(v) * w
        return total

    def _compare(self, op: str, rhs: object, shift: int = 0) -> Constraint:
        if not _is_expression_like(rhs) and not isinstance(rhs, Sum):
            _integer(rhs, "right-hand side")  # an InputError unless an int
        if not self._linear() or not _is_int(rhs):
            if not self.variables:
                raise InputError("a sum over nothing: Sum([]) compares no variable")
            return self.expression()._compare_any(op if not shift else ("<" if shift < 0
                                                                        else ">"), rhs)
        bound = _integer(rhs, "right-hand side") + shift
        return Linear(self.variables, self.weights, op, _integer(bound, "right-hand side"))

    def __eq__(self, rhs: object) -> Constraint:  # type: ignore[override]
        return self._compare("==", rhs)

    def __ne__(self, rhs: object) -> Constraint:  # type: ignore[override]
        return self._compare("!=", rhs)

    def __le__(self, rhs: object) -> Constraint:
        return self._compare("<=", rhs)

    def __ge__(self, rhs: object) -> Constraint:
        return self._compare(">=", rhs)

    def __lt__(self, rhs: object) -> Constraint:
        """Over integers `< k` is `<= k - 1`.

        >>> Sum(["a", "b"]) < 3
        Linear(1*a + 1*b <= 2)
        """
        return self._compare("<=", rhs, -1)

    def __gt__(self, rhs: object) -> Constraint:
        return self._compare(">=", rhs, 1)

    def __add__(self, other: object) -> Expression:
        return self.expression() + other

    __radd__ = __add__

    def __sub__(self, other: object) -> Expression:
        return self.expression() - other

    def __rsub__(self, other: object) -> Expression:
        return Expression.of(other) - self.expression()

    def __mul__(self, other: object) -> Any:
        return self.expression() * other

    __rmul__ = __mul__

    def __neg__(self) -> Expression:
        return -self.expression()

    def __bool__(self) -> bool:
        raise InputError("a Sum has no truth value: compare it (==, <=, ...) and add the "
                         "constraint to a model")

    __hash__ = None  # type: ignore[assignment]


class Expression:
    """A linear expression: `2*x + y - z + 3`, built by the arithmetic of
    `Variable`. Its *atoms* are variables, and also the functions of
    `csp.expressions` (`x * y`, `abs(x)`, `Element(...)`) and constraints
    counting 0 or 1. Comparing an expression over variables with an int, a
    variable or another expression makes a `Linear` constraint (everything
    moved to the left); one that holds another atom makes a
    `csp.expressions.Comparison`.

    >>> from csp.model import Model
    >>> m = Model()
    >>> x, y, z = m.vars("xyz", range(5))
    >>> x + 2 * y - z == 5
    Linear(1*x + 2*y - 1*z == 5)
    >>> x + 1 < y
    Linear(1*x - 1*y <= -2)
    >>> x + y != 3
    Linear(1*x + 1*y != 3)
    >>> x * y + z == 5
    (x * y) + z == 5
    """

    __slots__ = ("terms", "constant")

    def __init__(self, terms: Mapping[Any, int] | None = None, constant: int = 0) -> None:
        # Keyed by the atom (a Variable, function or constraint: hashed by
        # identity), in first-use order, so that `x + x` is one term of weight 2.
        self.terms: dict[Any, int] = dict(terms or {})
        self.constant = _integer(constant, "constant")

    @staticmethod
    def of(value: object) -> Expression:
        """`value` (a variable, an expression, a function, a constraint as 0/1,
        a `Sum` or an int) as an Expression."""
        if isinstance(value, Expression):
            return value
        if isinstance(value, (Term, Constraint)) or _is_function(value):
            return Expression({value: 1})
        if isinstance(value, Sum):
            return value.expression()
        if _is_int(value):
            return Expression(constant=value)  # type: ignore[arg-type]
        raise InputError(f"{value!r} is not a variable, an expression or an integer: an "
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

    def __mul__(self, factor: object) -> Any:
        if not _is_int(factor):
            if isinstance(factor, bool) or not _is_expression_like(factor):
                raise InputError(f"{self!r} * {factor!r}: an expression is multiplied by an "
                                 "integer, a variable or another expression", token=factor)
            return BUILD["Times"](self._simple(), _simplest(factor))
        k = int(factor)  # type: ignore[call-overload]
        return Expression({v: _integer(w * k, "weight") for v, w in self.terms.items()},
                          self.constant * k)

    def __rmul__(self, factor: object) -> Any:
        if _is_int(factor):
            return self * factor
        return BUILD["Times"](_simplest(factor), self._simple())

    def __floordiv__(self, other: object) -> Any:
        return BUILD["Div"](self._simple(), _simplest(other))

    def __rfloordiv__(self, other: object) -> Any:
        return BUILD["Div"](_simplest(other), self._simple())

    def __mod__(self, other: object) -> Any:
        return BUILD["Mod"](self._simple(), _simplest(other))

    def __rmod__(self, other: object) -> Any:
        return BUILD["Mod"](_simplest(other), self._simple())

    def __abs__(self) -> Any:
        return BUILD["Abs"](self._simple())

    def _simple(self) -> Any:
        """A variable or an int where the expression is just that, else itself."""
        terms = self._nonzero()
        if not terms:
            return self.constant
        if len(terms) == 1 and self.constant == 0:
            (atom, weight), = terms.items()
            if weight == 1:
                return atom
        return self

    def _compare(self, op: str, other: object, shift: int = 0) -> Constraint:
        left = self - other  # `left op 0`, over integers `< k` being `<= k - 1`
        terms = left._nonzero()
        if not terms:
            raise InputError(f"{self!r} {op} {other!r} compares no variable (their weights "
                             "cancel out)")
        if not all(_is_variable_atom(atom) for atom in terms):
            strict = {("<=", -1): "<", (">=", 1): ">"}.get((op, shift), op)
            return BUILD["normalised"](left, strict)
        if op == "!=" and len(terms) == 1:
            (var, weight), = terms.items()
            if weight in (1, -1):
                return Compare(var, "!=", -left.constant * weight)
        return Linear(list(terms), list(terms.values()), op,
                      _integer(-left.constant + shift, "right-hand side"))

    def _compare_any(self, op: str, other: object) -> Constraint:
        """`self op other` for any of ==, !=, <, <=, >, >=."""
        if op == "<":
            return self._compare("<=", other, -1)
        if op == ">":
            return self._compare(">=", other, 1)
        return self._compare(op, other)

    def _nonzero(self) -> dict[Any, int]:
        return {v: w for v, w in self.terms.items() if w != 0}

    def __eq__(self, other: object) -> Constraint:  # type: ignore[override]
        return self._compare("==", other)

    def __le__(self, other: object) -> Constraint:
        return self._compare("<=", other)

    def __ge__(self, other: object) -> Constraint:
        return self._compare(">=", other)

    def __lt__(self, other: object) -> Constraint:
        return self._compare("<=", other, -1)

    def __gt__(self, other: object) -> Constraint:
        return self._compare(">=", other, 1)

    def __ne__(self, other: object) -> Constraint:  # type: ignore[override]
        return self._compare("!=", other)

    def __bool__(self) -> bool:
        raise InputError(f"{self!r} has no truth value: compare it (==, <=, ...) and add the "
                         "constraint to a model")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        def atom(v: Any) -> str:
            if isinstance(v, Term):
                return str(v.name)
            if isinstance(v, Constraint) or _is_function(v):
                return v.describe()
            return str(v)

        terms = " + ".join(
            atom(v) if w == 1 and not isinstance(v, Term) and not _is_name(v) else
            f"{w}*{atom(v)}" for v, w in self.terms.items())
        text = terms + (f" + {self.constant}" if self.constant else "")
        return text.replace("+ -", "- ") or str(self.constant)


def _is_function(value: object) -> bool:
    return isinstance(value, BUILD["Function"])


def _is_name(value: object) -> bool:
    return not isinstance(value, (Term, Constraint, Expression)) and not _is_function(value)


def _is_variable_atom(atom: object) -> bool:
    """Whether an expression's atom is a variable (or a variable's name)."""
    return not isinstance(atom, Constraint) and not _is_function(atom)


def _is_expression_like(value: object) -> bool:
    return isinstance(value, (Term, Expression, Constraint, Sum)) or _is_function(value)


def _simplest(value: object) -> Any:
    if isinstance(value, Sum):
        value = value.expression()
    if isinstance(value, Expression):
        return value._simple()
    return value


class Linear(Constraint):
    """`sum(weights[i] * scope[i]) op rhs`, with op one of `==`, `!=`, `<=`,
    `>=` (FlatZinc's `int_lin_eq`, `int_lin_ne`, `int_lin_le`).

    Args:
        variables: the variables (or their names) summed.
        weights: an integer per variable.
        op: `"=="`, `"!="`, `"<="` or `">="`.
        rhs: the integer the sum is compared with.

    Raises:
        InputError: another comparison, or an empty sum.

    >>> Linear(["a", "b"], [1, 1], "<=", 3).holds({"a": 1, "b": 2})
    True
    """

    kind = "Sum"

    def __init__(self, variables: Iterable[VarLike], weights: Sequence[int], op: str, rhs: int):
        super().__init__(variables)
        if op not in _COMPARE:
            raise InputError(f"unknown comparison {op!r} (use ==, !=, <= or >=)")
        self.weights = tuple(weights)
        self.op = op
        self.rhs = rhs
        if not self.scope:
            raise InputError(f"a sum over nothing: {self.describe()}")

    def kinds(self) -> frozenset[str]:
        """`Sum`; a sum that must differ from its right-hand side (FlatZinc's
        `int_lin_ne`) is `SumNotEqual`, which bounds reasoning cannot take."""
        return frozenset({"SumNotEqual" if self.op == "!=" else "Sum"})

    def __bool__(self) -> bool:
        # `if x < y:` or `sorted([x, y])` would otherwise be silently true.
        raise InputError(f"{self.describe()} is a constraint, not a truth value: add it to a "
                         "model (m.add(...)); to compare values, compare a solution's. (Python's "
                         "min() and max() ask that question: over variables use "
                         "csp.Minimum([...]) and csp.Maximum([...]))")

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
    `forbidden=True`, none of them).

    Args:
        variables: the variables (or their names), each once.
        tuples: the allowed rows of values, one per variable each.
        forbidden: the rows are the forbidden ones instead.

    Raises:
        InputError: a row of the wrong length or with a value that is not
            an integer; a variable twice, when the constraint is added.

    >>> Table(["a", "b"], [(0, 1), (1, 0)]).holds({"a": 1, "b": 0})
    True
    """

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
        self.tuples = tuple(sorted(_rows(tuples, len(self.scope), self.describe)))
        self._set = frozenset(self.tuples)

    def over(self, variables: Iterable[VarLike]) -> Table:
        """The same table over other variables (as many), sharing its tuples
        rather than checking them again: a group of an XCSP3 instance posts
        one table over many scopes.

        >>> Table(["a", "b"], [(1, 2), (2, 1)]).over(["c", "d"])
        Table(c, d; 2 allowed)
        """
        table = copy.copy(self)
        Constraint.__init__(table, variables)
        table.model = None
        if len(table.scope) != len(self.scope):
            raise InputError(f"{table.describe()}: {len(table.scope)} variables for a table "
                             f"of {len(self.scope)}")
        return table

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

        return [t for t in itertools.product(*domains) if t not in self._set]

    def describe(self) -> str:
        what = "forbidden" if self.forbidden else "allowed"
        return f"Table({', '.join(map(str, self.scope))}; {len(self.tuples)} {what})"


def _rows(tuples: Iterable[Sequence[int]], arity: int, describe: Callable[[], str]
          ) -> set[tuple[int, ...]]:
    """The distinct rows of a table, each checked: `arity` integers that fit
    in 64 bits. The values are checked once each, not once per row: a
    competition instance's table has hundreds of thousands of rows over a
    few values."""
    rows = {tuple(row) for row in tuples}
    values = set(itertools.chain.from_iterable(rows))
    if not all(type(v) is int and INT64_MIN <= v <= INT64_MAX for v in values):
        rows = {tuple(_integer(v, "table value") for v in row) for row in rows}
    for row in rows:
        if len(row) != arity:
            raise InputError(f"tuple {row} has {len(row)} values, the table has {arity} "
                             f"variables: {describe()}")
    return rows


MAX_RELATION_TUPLES = 1_000_000
"""A `Relation` is expanded into a table once; a larger domain product is refused."""


class Relation(Table):
    """Any Python predicate over a small scope, expanded into a `Table` when added.

    Args:
        variables: the variables (or their names) the predicate is given,
            in order.
        predicate: a function of one value per variable, true for the
            allowed combinations; called on every combination of the
            variables' domains when the constraint is added.

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
        self.expanded = False

    def _bind(self, model: Any) -> None:
        import math

        super()._bind(model)
        if self.expanded:
            # A copy of a bound relation (a decomposition rebinds what it
            # rewrites): its table is the constraint, and a copy's predicate
            # is gone (`__getstate__`).
            return
        domains = [model.variables[v].domain for v in self.scope]
        size = math.prod(len(d) for d in domains)
        if size > MAX_RELATION_TUPLES:
            raise InputError(
                f"{self.describe()} would expand to {size:,} tuples, over the bound of "
                f"{MAX_RELATION_TUPLES:,}: split it or give a Table"
            )
        self.tuples = tuple(t for t in itertools.product(*domains) if self.predicate(*t))
        self._set = frozenset(self.tuples)
        self.expanded = True

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        # Once added, the table taken then is the constraint the backends solve:
        # a predicate that reads a variable of a loop (`lambda a, b: a - b != d`
        # without `d=d`) may say otherwise by the time the checker calls it.
        if self.expanded or self.predicate is None:
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

    Made by the comparison operators of `Variable`. Between two variables its
    truth value is whether both sides are the same object, so that
    `x in [x, y]` keeps working; with a constant it has none (an
    `InputError`: `x == 1 and y == 2` would silently be `x == 1`).

    Args:
        left: a variable (or its name).
        op: `"=="` or `"!="`.
        right: a variable (or its name) or an integer.

    Raises:
        InputError: another comparison.
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
        if self.constant is not None or _is_constant(self._right):
            # `x == 1 and y == 2` would silently be `x == 1`: say what to write.
            raise InputError(f"{self.describe()} is a constraint, not a truth value: combine "
                             "constraints with &, |, ~ (or And, Or, Not); Python's `and`, `or`, "
                             "`not` and `in` ask for a truth value")
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
    if type(value) is int and INT64_MIN <= value <= INT64_MAX:
        return value  # the common case, without the cost of an ABC check
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
