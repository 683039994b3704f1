"""Reference models of the model language: one small model per kind of
constraint (`csp.backends.base.ALL_CONSTRAINT_KINDS`), alone, inside logic
and reified, that the contract holds every backend to (by brute force over
the constraints' own checkers).

>>> sorted(language_models()) == sorted(ALL_CONSTRAINT_KINDS)
True
>>> m = language_models()["Count"]
>>> len(brute_force(m)) > 0
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from csp.backends.base import ALL_CONSTRAINT_KINDS
from csp.constraints import AllDifferent, Constraint, Sum, Table
from csp.expressions import Count, Div, Element, Maximum, Minimum, Mod, NValue
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Connected,
    Decreasing,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    Regular,
)
from csp.logic import Implies, Or, Xor
from csp.model import Model, Variable
from csp.testing import brute_force

Maker = Callable[[Model, list[Variable]], Constraint]

OWN = frozenset({"Circuit", "Inverse", "Connected"})
"""The kinds whose reference constraint has variables of its own."""


def _kinds() -> dict[str, Maker]:
    """Per kind, a constraint of it over four variables x0..x3 in -1..2 (or
    over variables of its own)."""
    def nodes(m: Model, n: int, tag: str) -> list[Variable]:
        return [m.var((tag, i), range(n)) for i in range(n)]

    def circuit(m: Model, xs: list[Variable]) -> Constraint:
        return Circuit(nodes(m, 3, "s"))

    def inverse(m: Model, xs: list[Variable]) -> Constraint:
        return Inverse(nodes(m, 3, "f"), nodes(m, 3, "g"))

    def connected(m: Model, xs: list[Variable]) -> Constraint:
        cells = [m.bool(("c", i)) for i in range(4)]
        return Connected(cells, [(0, 1), (1, 2), (2, 3)])

    return {
        "AllDifferent": lambda m, xs: AllDifferent(xs[:3]),
        "Sum": lambda m, xs: Sum(xs, [1, 2, -1, 1]) <= 2,
        "SumNotEqual": lambda m, xs: Sum(xs[:3]) != 1,
        "Table": lambda m, xs: Table(xs[:2], [(0, 1), (2, 2), (-1, 0)]),
        "Compare": lambda m, xs: xs[0] != xs[1],
        "Element": lambda m, xs: Element([xs[0], 2, xs[1]], xs[2]) == xs[3],
        "Count": lambda m, xs: Count(xs[:3], 1) >= xs[3],
        "NValue": lambda m, xs: NValue(xs) == 2,
        "Minimum": lambda m, xs: Minimum(xs[:3]) == xs[3],
        "Maximum": lambda m, xs: Maximum(xs[:3]) < 2,
        "Abs": lambda m, xs: abs(xs[0]) == xs[1],
        "Times": lambda m, xs: xs[0] * xs[1] == xs[2],
        "Div": lambda m, xs: Div(xs[0], 2) == xs[1],
        "Mod": lambda m, xs: Mod(xs[0], -2, rounding="zero") != xs[1],
        "Intension": lambda m, xs: abs(xs[0] - xs[1]) + Sum([xs[2] == 1, xs[3] != 0]) >= 2,
        "AllEqual": lambda m, xs: AllEqual(xs[:2]),
        "AllDifferentExcept": lambda m, xs: AllDifferentExcept(xs, [0]),
        "Increasing": lambda m, xs: Increasing(xs[:3], strict=True),
        "Decreasing": lambda m, xs: Decreasing(xs[1:], strict=False),
        "Lex": lambda m, xs: LexLess(xs[:2], xs[2:]),
        "GlobalCardinality": lambda m, xs: GlobalCardinality(xs, [0, 1], [xs[0], 1]),
        "Regular": lambda m, xs: Regular(xs, [(0, 0, 0), (0, 1, 1), (1, 2, 1), (1, -1, 0),
                                              (1, 2, 2)], 0, [1, 2]),
        "Circuit": circuit,
        "Inverse": inverse,
        "Connected": connected,
        "Logic": lambda m, xs: Or([Implies(xs[0] == 1, xs[1] + xs[2] >= 2),
                                   Xor([xs[3] == 0, xs[0] != xs[1]])]),
    }


def language_models(inside: str = "alone") -> dict[str, Model]:
    """A model per kind of `ALL_CONSTRAINT_KINDS`: its constraint `alone`, or
    `inside="logic"` as an operand of `Or` (with `x0 == 2`), or
    `inside="reified"` equal to a boolean variable."""
    models = {}
    for kind in _kinds():
        m = Model(f"{kind} {inside}")
        _declare(m, kind, inside)
        models[kind] = m
    assert set(models) == ALL_CONSTRAINT_KINDS, set(models) ^ ALL_CONSTRAINT_KINDS
    return models


def reified_together(kinds: Iterable[str]) -> Model:
    """Every constraint of `kinds` (none of `OWN`) reified over the same
    x0..x3, each equal to a boolean of its own, `("b", K)`: a solution per
    assignment of x0..x3, in which each boolean says whether its constraint
    holds there (`joined` gives them from the kinds' reified models).

    >>> m = reified_together(["Compare", "AllEqual"])
    >>> len(m.variables), len(brute_force(m))
    (6, 256)
    """
    m = Model("kinds reified together")
    xs = [m.var(f"x{i}", range(-1, 3)) for i in range(4)]
    makers = _kinds()
    for kind in kinds:
        if kind in OWN:
            raise ValueError(f"{kind} has variables of its own: it cannot share x0..x3")
        m.add(m.bool(("b", kind)) == makers[kind](m, xs))
    return m


def joined(solutions: dict[str, set[Hashable]]) -> set[Hashable]:
    """The solutions of `reified_together(solutions)`, given those of each
    kind's reified model (`normal` assignments of x0..x3 and `b`; one kind
    at least)."""
    if not solutions:
        raise ValueError("no kinds to join")
    per_x: dict[frozenset[Any], list[list[tuple[Hashable, Any]]]] = {}
    for number, (kind, found) in enumerate(solutions.items()):
        seen: dict[frozenset[Any], list[tuple[Hashable, Any]]] = {}
        for solution in found:
            assert isinstance(solution, frozenset)
            b = dict(solution)["b"]
            seen.setdefault(frozenset(p for p in solution if p[0] != "b"), []).append(
                (("b", kind), b))
        if number == 0:
            per_x = {x: [bs] for x, bs in seen.items()}
        else:  # an x that some kind has no solution with has none together
            per_x = {x: [*lists, seen[x]] for x, lists in per_x.items() if x in seen}
    return {frozenset(x | set(choice)) for x, lists in per_x.items()
            for choice in itertools.product(*lists)}


def _declare(m: Model, kind: str, inside: str) -> None:
    """Add `kind`'s reference constraint to `m`, `inside` as `language_models` says."""
    # Kinds over variables of their own get only x0 (for `inside`).
    xs = [m.var(f"x{i}", range(-1, 3)) for i in range(1 if kind in OWN else 4)]
    c = _kinds()[kind](m, xs)
    assert kind in c.kinds(), (kind, c.kinds())
    if inside == "logic":
        c = Or([c, xs[0] == 2])
    elif inside == "reified":
        c = m.bool("b") == c
    m.add(c)


__all__ = ["brute_force", "joined", "language_models", "reified_together"]
