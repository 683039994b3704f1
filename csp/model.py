"""A constraint satisfaction problem: variables, finite domains, constraints.

A solution is an `Assignment`: a dict `{variable name: value}` that also
takes the `Variable` itself as a key (`solution[x]` and `solution["x"]`).

>>> from csp import Model, AllDifferent
>>> m = Model()
>>> a, b = m.var("a", [1, 2]), m.var("b", [1, 2])
>>> _ = m.add(AllDifferent([a, b]))
>>> _ = m.add(a != 1)
>>> m.check({"a": 2, "b": 1})
[]
>>> m.check({"a": 1, "b": 1})
[AllDifferent(a, b), (a != 1)]
"""

from __future__ import annotations

import builtins
import numbers
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from csp.constraints import (
    Compare,
    Constraint,
    Expression,
    Sum,
    Term,
    _integer,
    _is_function,
    _VarRef,
)
from csp.errors import InputError
from csp.expressions import compare


class Variable(Term):
    """A variable of a `Model`: a name and a sorted tuple of integer values.

    `x == y`, `x != y`, `x == 3` and `x != 3` build `Compare` constraints;
    `x < y`, `x <= 3`, `x > y`, `x >= 3` build `Linear` ones; `+`, `-` and a
    product with an int build an `Expression` (`x + 2*y - z == 5`). A
    variable hashes by identity, so it stays usable as a dict key or in a set.
    """

    __slots__ = ("name", "domain", "model")

    def __init__(self, name: Hashable, domain: tuple[int, ...], model: Model) -> None:
        self.name = name
        self.domain = domain
        self.model = model

    def __repr__(self) -> str:
        return f"Variable({self.name!r}, {len(self.domain)} values)"

    @property
    def is_boolean(self) -> bool:
        """Whether the variable can stand for a truth value: its domain is
        within {0, 1} (`Model.bool` declares one)."""
        return set(self.domain) <= {0, 1}

    def __eq__(self, other: object) -> Constraint:  # type: ignore[override]
        if isinstance(other, Constraint):
            return _boolean(self, "==", other) == other
        if isinstance(other, (Expression, Sum)) or _is_function(other):
            return compare(self, "==", other)
        return Compare(self, "==", other)

    def __ne__(self, other: object) -> Constraint:  # type: ignore[override]
        if isinstance(other, Constraint):
            return _boolean(self, "!=", other) != other
        if isinstance(other, (Expression, Sum)) or _is_function(other):
            return compare(self, "!=", other)
        return Compare(self, "!=", other)

    # Orderings and arithmetic go through Expression, which checks the other
    # side is a variable, an expression or an int (`x < "y"` is an InputError).
    def __lt__(self, other: object) -> Constraint:
        return compare(self, "<", other)

    def __le__(self, other: object) -> Constraint:
        return compare(self, "<=", other)

    def __gt__(self, other: object) -> Constraint:
        return compare(self, ">", other)

    def __ge__(self, other: object) -> Constraint:
        return compare(self, ">=", other)

    def __add__(self, other: object) -> Expression:
        return Expression.of(self) + other

    def __radd__(self, other: object) -> Expression:
        return Expression.of(self) + other

    def __sub__(self, other: object) -> Expression:
        return Expression.of(self) - other

    def __rsub__(self, other: object) -> Expression:
        return Expression.of(other) - self

    def __mul__(self, factor: object) -> Any:
        return Expression.of(self) * factor

    def __rmul__(self, factor: object) -> Any:
        return Expression.of(self).__rmul__(factor)

    def __floordiv__(self, other: object) -> Any:
        return Expression.of(self) // other

    def __rfloordiv__(self, other: object) -> Any:
        return Expression.of(self).__rfloordiv__(other)

    def __mod__(self, other: object) -> Any:
        return Expression.of(self) % other

    def __rmod__(self, other: object) -> Any:
        return Expression.of(self).__rmod__(other)

    def __abs__(self) -> Any:
        return abs(Expression.of(self))

    def __neg__(self) -> Expression:
        return -Expression.of(self)

    # A boolean variable is also a truth value: `a | b`, `a & (x < 3)`, `~a`.
    def __and__(self, other: object) -> Constraint:
        return _boolean(self, "&", other) & other

    def __rand__(self, other: object) -> Constraint:
        return other & _boolean(self, "&", other)

    def __or__(self, other: object) -> Constraint:
        return _boolean(self, "|", other) | other

    def __ror__(self, other: object) -> Constraint:
        return other | _boolean(self, "|", other)

    def __xor__(self, other: object) -> Constraint:
        return _boolean(self, "^", other) ^ other

    def __rxor__(self, other: object) -> Constraint:
        return other ^ _boolean(self, "^", other)

    def __invert__(self) -> Constraint:
        _boolean(self, "~", None)
        return Compare(self, "==", 0)

    __hash__ = object.__hash__


class Assignment(dict):
    """A solution of a `Model`: a dict `{variable name: value}` that also
    accepts a `Variable` wherever it accepts a name.

    It equals the plain dict of the same pairs, and its keys are the names,
    so it prints, pickles and serialises like one.

    >>> m = Model()
    >>> x = m.var("x", [1, 2])
    >>> solution = Assignment({"x": 2})
    >>> solution[x], solution["x"], solution.get(x), x in solution, solution == {"x": 2}
    (2, 2, 2, True, True)
    """

    __slots__ = ()

    def __getitem__(self, key: Hashable) -> int:
        return super().__getitem__(_key(key))

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value of variable `key` (a name or a `Variable`), else `default`."""
        return super().get(_key(key), default)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(_key(key))


def _boolean(variable: Variable, op: str, other: object) -> Constraint:
    """`variable == 1`, its truth, where it is boolean; else an `InputError`."""
    if not variable.is_boolean:
        shown = other.describe() if isinstance(other, Constraint) else repr(other)
        raise InputError(
            f"{variable.name!r} {op} {shown}: {variable.name!r} is not a boolean (its domain "
            f"is {_domain_text(variable.domain)}, not within {{0, 1}}); declare it with "
            "m.bool(name), or compare it (x == 1) to make a constraint", token=variable.name)
    return Compare(variable, "==", 1)


def _domain_text(domain: tuple[int, ...]) -> str:
    if len(domain) > 6:
        return f"{domain[0]}..{domain[-1]} ({len(domain)} values)"
    return "{" + ", ".join(map(str, domain)) + "}"


def _key(key: Any) -> Hashable:
    # A Variable hashes by identity and compares into a constraint, so a
    # plain dict cannot find it: look up its name instead.
    return key.name if isinstance(key, Variable) else key


class Model:
    """Variables with finite integer domains, and constraints over them.

    Args:
        name: a name shown in reports.

    >>> m = Model("pair")
    >>> x, y = m.vars("xy", range(3))
    >>> _ = m.add(x + y == 3)
    >>> _ = m.add(x < y)
    >>> m.is_solution({"x": 1, "y": 2}), m.is_solution({"x": 2, "y": 1})
    (True, False)
    """

    symmetry: Any = None
    """The problem's symmetry group (a `csp.symmetry.Group`), once declared:
    what `up_to_symmetry=True` counts up to."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        self.variables: dict[Hashable, Variable] = {}
        self.constraints: list[Constraint] = []

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (f"<Model{label}: {len(self.variables)} variables, "
                f"{len(self.constraints)} constraints>")

    def var(self, name: Hashable, domain: Iterable[int]) -> Variable:
        """Declare a variable; `domain` is any finite iterable of ints, each
        fitting in a signed 64-bit int. An empty one is allowed on purpose
        (every backend then reports 0 solutions, COMPLETE): a puzzle whose
        clues leave a cell no value is unsolvable, not malformed.

        Args:
            name: any hashable name, not already a variable of this model.
            domain: the values it may take.

        Returns:
            The variable, to build constraints with (`x + y == 3`).

        Raises:
            InputError: a name unhashable or declared twice, or a value
                that is not a whole number.

        >>> Model().var("x", [3, 1, 2, 1]).domain
        (1, 2, 3)
        """
        try:
            hash(name)
        except TypeError:
            raise InputError(f"variable name {name!r} is not hashable", token=name) from None
        if isinstance(name, (Variable, _VarRef)):
            raise InputError("a variable name must not be a Variable", token=name)
        if name in self.variables:
            raise InputError(f"duplicate variable {name!r}", token=name)
        try:
            if type(domain) is range:  # checked at its ends: a domain may hold millions
                values = list(domain) if domain.step > 0 else sorted(domain)
                for end in values[:1] + values[-1:]:
                    _integer(end, f"domain value of {name!r}:")
            else:
                values = sorted({_integer(v, f"domain value of {name!r}:") for v in domain})
        except TypeError:
            raise InputError(f"the domain of {name!r} is not an iterable of ints",
                             token=name) from None
        variable = Variable(name, tuple(values), self)
        self.variables[name] = variable
        return variable

    def bool(self, name: Hashable) -> Variable:
        """Declare a boolean variable: domain {0, 1}. It stands for a truth
        value wherever a constraint does (`Or([b, x < 3])`, `~b`, `a | b`),
        and `m.add(b == (x + y <= 3))` makes it true exactly when the
        constraint holds (reification).

        Args:
            name: as in `var`.

        Returns:
            The variable, of domain (0, 1).

        >>> m = Model()
        >>> b, x = m.bool("b"), m.var("x", range(4))
        >>> _ = m.add(b == (x >= 2))
        >>> m.check({"b": 1, "x": 3}), m.check({"b": 1, "x": 1})
        ([], [Iff((b == 1), Linear(1*x >= 2))])
        """
        return self.var(name, (0, 1))

    def vars(self, names: Iterable[Hashable], domain: Iterable[int]) -> list[Variable]:
        """Declare several variables sharing one domain (`m.vars("abc", ...)`
        names them a, b and c: here a string is a deliberate shorthand).

        Args:
            names: the variables' names.
            domain: the values each may take.

        Returns:
            The variables, in the order of `names`.

        Raises:
            InputError: as `var` does.
        """
        values = list(domain)
        return [self.var(name, values) for name in names]

    def add(self, constraint: Constraint) -> Constraint:
        """Add a constraint, checking that its variables belong to this model.

        A constraint object is added to one model, once: its scope is
        resolved against this model, so sharing it would tie two models.

        Args:
            constraint: a `Constraint` (`x != y`, `AllDifferent([...])`, ...).

        Returns:
            The same constraint, now this model's.

        Raises:
            InputError: not a constraint, one already in a model, or one
                over a variable of another model or none at all.
        """
        if not isinstance(constraint, Constraint):
            raise InputError(f"{constraint!r} is not a constraint")
        if constraint.model is self:
            raise InputError(f"{constraint.describe()} is already in this model")
        if constraint.model is not None:
            raise InputError(f"{constraint.describe()} already belongs to another model: "
                             "build a new constraint for this one")
        constraint._bind(self)
        constraint.model = self
        self.constraints.append(constraint)
        return constraint

    def _resolve(self, ref: Any, constraint: Constraint) -> Hashable:
        if isinstance(ref, _VarRef):
            variable: Any = ref.variable  # a Variable: the only Term there is
            if variable.model is not self or self.variables.get(variable.name) is not variable:
                raise InputError(
                    f"{constraint.describe()}: variable {variable.name!r} belongs to another model",
                    token=variable.name,
                )
            return variable.name
        try:
            known = ref in self.variables
        except TypeError:
            known = False
        if not known:
            raise InputError(f"{constraint.describe()}: unknown variable {ref!r}", token=ref)
        return ref

    def domain(self, name: Hashable) -> tuple[int, ...]:
        """The domain of variable `name`: its values, sorted."""
        return self.variables[name].domain

    def check(self, assignment: Mapping[Hashable, int]) -> list[Constraint]:
        """The constraints that `assignment` violates. It must give every
        variable a value: a partial one is an `InputError` naming the missing
        variables (`problems` says everything wrong, domains included).

        Args:
            assignment: a value for every variable, by name.

        Returns:
            The constraints that do not hold; empty if none.

        Raises:
            InputError: a variable without a value, an unknown name, or a
                value that is not an integer.

        >>> m = Model()
        >>> _ = m.add(m.var("a", [1, 2]) != m.var("b", [1, 2]))
        >>> m.check({"a": 1})
        Traceback (most recent call last):
            ...
        csp.errors.InputError: the assignment gives no value to 1 variable: 'b'
        """
        missing = [name for name in self.variables if name not in assignment]
        if missing:
            shown = ", ".join(map(repr, missing[:10])) + (", ..." if len(missing) > 10 else "")
            raise InputError(f"the assignment gives no value to {len(missing)} variable"
                             f"{'s' if len(missing) > 1 else ''}: {shown}", token=missing[0])
        for name, value in assignment.items():
            if name not in self.variables:
                raise InputError(f"the assignment names {name!r}, not a variable of this model",
                                 token=name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise InputError(f"the assignment gives {name!r} the value {value!r}, not an "
                                 "integer", token=value)
        return [c for c in self.constraints if not c.holds(assignment)]

    def problems(self, assignment: Mapping[Hashable, int]) -> list[str]:
        """Everything wrong with `assignment`, as sentences; [] if it is a solution.

        Args:
            assignment: values by variable name (missing ones are reported).

        Returns:
            A sentence per missing, unknown or out-of-domain variable; else
            one per violated constraint.

        >>> m = Model()
        >>> _ = m.add(m.var("a", [1, 2]) != m.var("b", [1, 2]))
        >>> m.problems({"a": 1, "b": 1}), m.problems({"a": 3, "b": 1})
        (['violates (a != b)'], ["'a' = 3 is outside its domain"])
        """
        found = []
        for name, variable in self.variables.items():
            if name not in assignment:
                found.append(f"variable {name!r} has no value")
            elif assignment[name] not in variable.domain:
                found.append(f"{name!r} = {assignment[name]!r} is outside its domain")
        extra = [name for name in assignment if name not in self.variables]
        found.extend(f"unknown variable {name!r}" for name in extra)
        if found:
            return found
        return [f"violates {c.describe()}" for c in self.check(assignment)]

    def is_solution(self, assignment: Mapping[Hashable, int]) -> builtins.bool:
        """Whether `assignment` is a solution: `problems` finds nothing."""
        return not self.problems(assignment)
