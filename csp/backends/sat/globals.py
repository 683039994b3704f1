"""The global constraints and functions the `sat` backend takes as they are
(`NATIVE`), as clauses over the one-hot literals:

- `Count(items, value) op k`: a reified equality per item (a literal of the
  one-hot encoding when `value` is an int), counted by a layered diagram whose
  states are the counts so far (`csp.backends.sat.diagram`), `k` a term of
  the sum when it is a variable;
- `GlobalCardinality`: one such count per value (closed: no other value);
- `Element(array, index) op value`: per index i, "index == i implies
  `array[i] op value`" as clauses on the values (an index out of range is a
  value the index cannot take);
- `Regular`: the automaton's layered diagram, its states the sets of states
  the NFA can be in after each prefix (the subset construction, done layer
  by layer over the values that occur), pruned to those that can still
  accept (Bacchus, "GAC via unit propagation", CP 2007: unit propagation on
  this encoding is arc consistent);
- `AllEqual`: equalities of neighbours; `Increasing`/`Decreasing`: a clause
  per value of a variable on the next one's values; `AllDifferentExcept`: at
  most one variable per value not excepted; `Inverse`: `f[i] == j` and
  `g[j] == i` share a truth value (two binary clauses).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from csp.backends.sat import diagram
from csp.backends.sat.clauses import Group, Unsatisfiable, boolean
from csp.backends.sat.encoder import Encoder, TooLarge
from csp.constraints import Constraint
from csp.expressions import Comparison, Count, Element
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    GlobalCardinality,
    Increasing,
    Inverse,
    Regular,
)

NATIVE = frozenset({"Count", "Element", "GlobalCardinality", "Regular", "AllEqual",
                    "AllDifferentExcept", "Increasing", "Decreasing", "Inverse"})
"""The kinds this module encodes (capabilities of the `sat` backend)."""


def post(enc: Encoder, c: Constraint) -> bool:
    """Encode `c` if it is of a kind of `NATIVE`; whether it was."""
    if isinstance(c, Comparison) and isinstance(c.left, Count):
        count(enc, c.left.items, c.left.target, c.op, c.right)
    elif isinstance(c, Comparison) and isinstance(c.left, Element):
        element(enc, c.left.array, c.left.index, c.op, c.right)
    elif isinstance(c, GlobalCardinality):
        cardinality(enc, c)
    elif isinstance(c, Regular):
        regular(enc, c)
    elif isinstance(c, AllEqual):
        groups = [enc.value_literal[x] for x in c.scope]
        for x, y in zip(groups, groups[1:]):
            enc.compare(x, y, "==")
    elif isinstance(c, Increasing):  # a Decreasing too: its order() is reversed
        ordered = [enc.value_literal[x] for x in c.order()]
        for before, after in zip(ordered, ordered[1:]):
            enc.compare(before, after, "<" if c.strict else "<=")
    elif isinstance(c, AllDifferentExcept):
        by_value: dict[int, list[int]] = {}
        for name in c.scope:
            for v, lit in enc.value_literal[name].items():
                if v not in c.excepted:
                    by_value.setdefault(v, []).append(lit)
        for literals in by_value.values():
            enc.cnf.at_most_one(literals)
    elif isinstance(c, Inverse):
        inverse(enc, [enc.value_literal[x] for x in c.f], [enc.value_literal[x] for x in c.g])
    else:
        return False
    return True


def count(enc: Encoder, items: Sequence[Any], target: Any, op: str, right: Any) -> None:
    """`Count(items, target) op right`."""
    value = enc.operand(target)
    groups = [boolean(enc.equal(enc.operand(x), value)) for x in items]
    weights = [1] * len(groups)
    if isinstance(right, int):
        enc.linear(weights, op, right, groups)
    else:
        enc.linear([*weights, -1], op, 0, [*groups, enc.operand(right)])


def element(enc: Encoder, array: Sequence[Any], index: Any, op: str, right: Any) -> None:
    """`Element(array, index) op right`: false where the index is out of range."""
    value = enc.operand(right)
    for i, lit in enc.operand(index).items():
        if 0 <= i < len(array):
            enc.compare(enc.operand(array[i]), value, op, guard=[lit])
        else:
            enc.cnf.add([-lit])


def cardinality(enc: Encoder, c: GlobalCardinality) -> None:
    groups = [enc.value_literal[x] for x in c.variables]
    for value, k, fixed in zip(c.values, c.counts, c.fixed):
        having = [boolean(g[value]) for g in groups if value in g]
        ones = [1] * len(having)
        if fixed:
            enc.linear(ones, "==", k, having)
        else:
            enc.linear([*ones, -1], "==", 0, [*having, enc.value_literal[k]])
    if c.closed:
        allowed = set(c.values)
        for g in groups:
            for v, lit in g.items():
                if v not in allowed:
                    enc.cnf.add([-lit])


def regular(enc: Encoder, c: Regular) -> None:
    if not c.scope:
        if c.start not in c.accepting:
            raise Unsatisfiable
        return
    groups = [enc.value_literal[x] for x in c.scope]
    step = automaton(c)
    kept = diagram.layers([sorted(g) for g in groups], step, frozenset({c.start}),
                          accept=lambda s: bool(s & c.accepting),  # type: ignore[operator]
                          limit=enc.limit)
    if kept is None:  # refused before solving (`SATBackend.refuses`)
        raise TooLarge(f"{c.describe()}")
    diagram.post(enc.cnf, groups, kept, step)


def automaton(c: Regular) -> diagram.Step:
    """The step of `c`'s automaton over sets of its states (None: no state left)."""
    table = c.successors()

    def step(k: int, states: Hashable, value: int) -> Hashable | None:
        following = frozenset(r for q in states for r in table.get((q, value), ()))  # type: ignore[attr-defined]
        return following or None

    return step


def inverse(enc: Encoder, f: list[Group], g: list[Group]) -> None:
    for i, fi in enumerate(f):
        for j, lit in fi.items():
            if i in g[j]:
                enc.cnf.equivalent(lit, g[j][i])
            else:
                enc.cnf.add([-lit])
    for j, gj in enumerate(g):
        for i, lit in gj.items():
            if j not in f[i]:
                enc.cnf.add([-lit])


__all__ = ["NATIVE", "automaton", "cardinality", "count", "element", "inverse", "post",
           "regular"]
