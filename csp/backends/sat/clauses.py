"""Clauses over numbered literals: the `Cnf` every encoding of the `sat`
backend writes into, with its constants and cardinality helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pysat.formula import IDPool

PAIRWISE = 6
"""Up to this many literals, at-most-one is every pair (no auxiliary
literals, the strongest propagation); above, a sequential counter."""

Group = dict[int, int]
"""The literals of a variable's values (exactly one of them true); a constant
`c` is the group `{c: TRUE}`, a boolean literal `e` the group `{0: -e, 1: e}`."""


class Unsatisfiable(Exception):
    """Raised while encoding a problem shown to have no solution (an empty
    domain, a primary item no option covers, a table with no tuple left)."""


class Cnf:
    """Clauses, and how to read and block a solution from a model's literals."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.unsatisfiable = False
        self._true: int | None = None
        self._any: dict[tuple[int, ...], int] = {}
        self.read: Callable[[set[int]], Any] = lambda _: None
        """A solver's model (the set of its true literals) as a solution."""
        self.block: Callable[[set[int]], list[int]] = lambda _: []
        """The clause that excludes that solution (on the declared literals only)."""
        self.declared: list[int] = []
        """The declared literals (options; variables' values): every other
        literal is a function of them, so a model counter projected on
        them counts the problem's solutions (`csp.backends.ganak`)."""

    def new(self) -> int:
        return self.pool.id(("aux", self.pool.top + 1))

    @property
    def true(self) -> int:
        """A literal that is always true (its negation: always false)."""
        if self._true is None:
            self._true = self.new()
            self.clauses.append([self._true])
        return self._true

    def constant(self, value: bool) -> int:
        return self.true if value else -self.true

    def add(self, clause: Iterable[int]) -> None:
        """Add a clause, simplified on the constants: one holding `true` is
        dropped, `false` is left out of it; an empty one is `Unsatisfiable`."""
        true = self._true
        kept = []
        for literal in clause:
            if true is not None and literal == true:
                return
            if true is None or literal != -true:
                kept.append(literal)
        if not kept:
            raise Unsatisfiable
        self.clauses.append(kept)

    def any_of(self, literals: Sequence[int]) -> int:
        """A literal equal to the disjunction of `literals` (defined by them:
        a Tseitin variable, shared between equal disjunctions)."""
        unique = tuple(sorted(set(literals)))
        if self._true is not None:
            if self._true in unique:
                return self._true
            unique = tuple(x for x in unique if x != -self._true)
        if not unique:
            return -self.true
        if len(unique) == 1:
            return unique[0]
        known = self._any.get(unique)
        if known is None:
            known = self._any[unique] = self.new()
            self.clauses.extend([-x, known] for x in unique)
            self.clauses.append([-known, *unique])
        return known

    def all_of(self, literals: Sequence[int]) -> int:
        """A literal equal to the conjunction of `literals`."""
        return -self.any_of([-x for x in literals])

    def equivalent(self, a: int, b: int) -> None:
        self.add([-a, b])
        self.add([a, -b])

    def at_most_one(self, literals: Sequence[int]) -> None:
        if len(literals) <= 1:
            return
        if len(literals) <= PAIRWISE:
            self.clauses.extend([-a, -b] for i, a in enumerate(literals)
                                for b in literals[i + 1:])
            return
        # A ladder (the sequential counter of Sinz, CP 2005, with its converse
        # clauses): seen[i] is exactly "one of the first i + 1 literals is
        # true", a function of them, and a literal true after one was is refused.
        seen = literals[0]
        for literal in literals[1:-1]:
            after = self.new()
            self.clauses.extend(([-seen, after], [-literal, after], [-after, seen, literal],
                                 [-literal, -seen]))
            seen = after
        self.clauses.append([-literals[-1], -seen])

    def exactly_one(self, literals: Sequence[int]) -> None:
        if not literals:
            raise Unsatisfiable
        self.clauses.append(list(literals))
        self.at_most_one(literals)


def boolean(literal: int) -> Group:
    """A literal as the group of a 0/1 value."""
    return {0: -literal, 1: literal}


__all__ = ["PAIRWISE", "Cnf", "Group", "Unsatisfiable", "boolean"]
