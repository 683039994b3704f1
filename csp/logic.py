"""Boolean logic over constraints: `And`, `Or`, `Not`, `Implies`, `Xor`, `Iff`.

Wherever a truth value is expected, a constraint or a boolean variable (a
variable whose domain is within {0, 1}, `Model.bool`) may stand: a boolean
variable `b` means `b == 1`. The operators build the same constraints:
`c & d`, `c | d`, `~c`, `c ^ d`, and `c == d` (or `b == c`: reification).

All of them are one kind of constraint, `"Logic"`. A backend that declares
it takes them over *literals*: boolean variables, `Compare` (`x == 3`,
`x != y`), `Linear` (`x + y <= 3`) and other logic; any other constraint
inside is first reified into a boolean variable by the dispatch layer
(`csp.decompose`). The semantics are XCSP3's and MiniZinc's: `Xor` is true
when an odd number of its operands are, `Or([])` is false, `And([])` true.

>>> from csp import Model
>>> m = Model()
>>> x, y, b = m.var("x", range(4)), m.var("y", range(4)), m.bool("b")
>>> m.add((x == 1) | (y == 2))
Or((x == 1), (y == 2))
>>> m.add(b == (x + y <= 3))
Iff((b == 1), Linear(1*x + 1*y <= 3))
>>> m.check({"x": 1, "y": 0, "b": 1}), m.check({"x": 1, "y": 3, "b": 1})
([], [Iff((b == 1), Linear(1*x + 1*y <= 3))])
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any

from csp.constraints import BUILD, Compare, Constraint, Term
from csp.errors import InputError, refuse_string


class Logic(Constraint):
    """A boolean combination of constraints (`args`)."""

    kind = "Logic"
    name = "Logic"

    def __init__(self, items: Iterable[Any]) -> None:
        refuse_string(items, f"the operands of {self.name}")
        self.args: tuple[Constraint, ...] = tuple(as_constraint(i, self.name) for i in items)
        self.label = None
        self.scope = tuple(_union(a.scope for a in self.args))

    def _bind(self, model: Any) -> None:
        for arg in self.args:
            if arg.model is not None and arg.model is not model:
                raise InputError(f"{self.describe()}: {arg.describe()} belongs to another model")
            arg._bind(model)
        self.scope = tuple(_union(a.scope for a in self.args))

    def truths(self, assignment: Mapping[Hashable, int]) -> Iterator[bool]:
        return (arg.holds(assignment) for arg in self.args)

    def __bool__(self) -> bool:
        raise InputError(f"{self.describe()} is a constraint, not a truth value: add it to a "
                         "model (m.add(...)); Python's `and`, `or` and `not` cannot build it: "
                         "use &, |, ~ or And, Or, Not")

    def describe(self) -> str:
        return f"{self.name}({', '.join(a.describe() for a in self.args)})"


class And(Logic):
    """All of the operands hold."""

    name = "And"

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return all(self.truths(assignment))


class Or(Logic):
    """At least one operand holds (a clause, when they are literals)."""

    name = "Or"

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return any(self.truths(assignment))


class Xor(Logic):
    """An odd number of the operands hold."""

    name = "Xor"

    def __init__(self, items: Iterable[Any], *, _identity: bool | None = None) -> None:
        super().__init__(items)
        self._identity = _identity  # built by `c != d`: its truth value is `c is not d`

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return sum(self.truths(assignment)) % 2 == 1

    def __bool__(self) -> bool:
        if self._identity is None:
            return super().__bool__()
        return self.args[0] is not self.args[1] if len(self.args) == 2 else True


class Not(Logic):
    """The operand does not hold."""

    name = "Not"

    def __init__(self, item: Any) -> None:
        super().__init__([item])

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return not self.args[0].holds(assignment)


class Implies(Logic):
    """If the first operand holds, so does the second."""

    name = "Implies"

    def __init__(self, condition: Any, consequence: Any) -> None:
        super().__init__([condition, consequence])

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return not self.args[0].holds(assignment) or self.args[1].holds(assignment)


class Iff(Logic):
    """Both operands hold or neither does: `c == d`, and `b == c` with a
    boolean variable `b` (which reifies `c`). Its truth value, like that of
    `x == y`, is whether both sides are the same object, so lists of
    constraints keep comparing as before."""

    name = "Iff"

    def __init__(self, left: Any, right: Any) -> None:
        super().__init__([left, right])
        self._sides = (left, right)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return self.args[0].holds(assignment) == self.args[1].holds(assignment)

    def __bool__(self) -> bool:
        return self._sides[0] is self._sides[1]


def as_constraint(item: Any, where: str) -> Constraint:
    """`item` as a constraint: a boolean variable `b` is `b == 1`."""
    if isinstance(item, Constraint):
        return item
    if isinstance(item, Term):
        domain = getattr(item, "domain", None)
        if domain is not None and not set(domain) <= {0, 1}:
            raise InputError(f"{where}: variable {item.name!r} is not a boolean (its domain is "
                             "not within {0, 1}): compare it (x == 1) to make a constraint, or "
                             "declare it with m.bool(name)", token=item.name)
        return Compare(item, "==", 1)
    if isinstance(item, bool):
        raise InputError(f"{where}: the Python bool {item!r} is not a constraint (a test on "
                         "variables); Python's `and`/`or`/`not` or `==` between values may "
                         "have made it: use &, |, ~ between constraints", token=item)
    raise InputError(f"{where}: {item!r} is not a constraint or a boolean variable",
                     token=item)


def _union(scopes: Iterable[tuple[Hashable, ...]]) -> Iterator[Hashable]:
    seen: set[Any] = set()
    for scope in scopes:
        for name in scope:
            key = getattr(getattr(name, "variable", None), "name", name)
            if key not in seen:
                seen.add(key)
                yield name


__all__ = ["And", "Iff", "Implies", "Logic", "Not", "Or", "Xor", "as_constraint"]

BUILD.update(And=And, Or=Or, Not=Not, Xor=Xor, Iff=Iff)
