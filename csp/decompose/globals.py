"""The global constraints as sums, tables and logic (see `csp.decompose`)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table
from csp.decompose.arithmetic import compare_linear, equal
from csp.decompose.builder import (
    Decomposer,
    false,
)
from csp.expressions import (
    Comparison,
    Count,
    Minimum,
)
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Connected,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    Regular,
)
from csp.logic import And, Implies, Not, Or


def all_different(c: AllDifferent, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.scope]
    return [Compare(x, "!=", y) for x, y in itertools.combinations(xs, 2)]


def all_equal(c: AllEqual, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.scope]
    return [Compare(xs[0], "==", y) for y in xs[1:]]


def all_different_except(c: AllDifferentExcept, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    for x, y in itertools.combinations(c.scope, 2):
        common = set(b.domain(x)) & set(b.domain(y)) - c.excepted
        parts += [Or([Compare(x, "!=", v), Compare(y, "!=", v)]) for v in sorted(common)]
    return parts


def increasing(c: Increasing, b: Decomposer) -> list[Constraint]:
    order = c.order()
    gap = 1 if c.strict else 0
    return [Linear([x, y], [1, -1], "<=", -gap) for x, y in zip(order, order[1:])]


def lex(c: LexLess, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    equal_so_far: Any = None  # None: the empty prefix, always equal
    for x, y in zip(map(b.variable, c.a), map(b.variable, c.b)):
        at_most = compare_linear(x, y, "<=")
        parts.append(at_most if equal_so_far is None else
                     Implies(Compare(equal_so_far, "==", 1), at_most))
        same = equal(x, y)
        step = same if equal_so_far is None else And([Compare(equal_so_far, "==", 1), same])
        equal_so_far = b.truth(step)
    if c.strict:
        parts.append(Or([]) if equal_so_far is None else Compare(equal_so_far, "==", 0))
    return parts


def cardinality(c: GlobalCardinality, b: Decomposer) -> list[Constraint]:
    xs = [b.variable(x) for x in c.variables]
    parts: list[Constraint] = [
        Comparison(Count(xs, value), "==", count if fixed else b.variable(count))
        for value, count, fixed in zip(c.values, c.counts, c.fixed)]
    if c.closed:
        allowed = set(c.values)
        parts += [Table([x], [(v,) for v in b.domain(x) if v in allowed])
                  for x in c.variables]
    return parts


def regular(c: Regular, b: Decomposer) -> list[Constraint]:
    if not c.scope:
        return [] if c.start in c.accepting else [false(b)]
    table = c.successors()
    numbered: dict[frozenset[Hashable], int] = {}

    def number(subset: frozenset[Hashable]) -> int:
        return numbered.setdefault(subset, len(numbered))

    dead: frozenset[Hashable] = frozenset()
    layer = {frozenset({c.start})}
    state_of: Any = number(frozenset({c.start}))  # the state before position 0: a constant
    parts: list[Constraint] = []
    for position, x in enumerate(c.scope):
        rows, following = [], set()
        for subset in sorted(layer, key=number):
            for value in b.domain(x):
                nxt = frozenset(r for q in subset for r in table.get((q, value), ()))
                following.add(nxt)
                rows.append((number(subset), value, number(nxt)))
        after = b.aux(sorted(number(s) for s in following), f"state{position + 1}")
        if isinstance(state_of, int):
            parts.append(Table([x, after.name], [(v, r) for _, v, r in rows]))
        else:
            parts.append(Table([state_of, x, after.name], rows))
        state_of, layer = after.name, following
    final = [number(s) for s in layer if s != dead and s & c.accepting]
    parts.append(Table([state_of], [(q,) for q in final]))
    return parts


def deterministic(c: Regular, domains: Sequence[Sequence[int]]
                  ) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """`c`'s automaton made deterministic (the subset construction, over the
    symbols of `domains`): its start state, accepting states and transitions,
    states numbered from 0, only those reachable from the start and not dead
    (a missing transition rejects)."""
    table = c.successors()
    symbols = sorted(set().union(*map(set, domains))) if domains else []
    numbered: dict[frozenset[Hashable], int] = {}
    start = frozenset({c.start})
    numbered[start] = 0
    waiting = [start]
    transitions = []
    while waiting:
        subset = waiting.pop()
        for value in symbols:
            nxt = frozenset(r for q in subset for r in table.get((q, value), ()))
            if not nxt:
                continue
            if nxt not in numbered:
                numbered[nxt] = len(numbered)
                waiting.append(nxt)
            transitions.append((numbered[subset], value, numbered[nxt]))
    accepting = sorted(k for s, k in numbered.items() if s & c.accepting)
    return 0, accepting, transitions


def circuit(c: Circuit, b: Decomposer) -> list[Constraint]:
    succ = list(c.scope)
    n = len(succ)
    if n == 1:
        return [Compare(succ[0], "==", 0)]
    parts: list[Constraint] = [AllDifferent(succ)]
    parts += [Compare(x, "!=", i) for i, x in enumerate(succ)]
    order: list[Any] = [0] + [b.aux(range(1, n), f"order{i}").name for i in range(1, n)]
    for i, x in enumerate(succ):
        for j in b.domain(x):
            if j == 0 or j == i:
                continue
            step = (Compare(order[j], "==", 1) if i == 0 else
                    Linear([order[j], order[i]], [1, -1], "==", 1))
            parts.append(Implies(Compare(x, "==", j), step))
    return parts


def inverse(c: Inverse, b: Decomposer) -> list[Constraint]:
    parts: list[Constraint] = []
    for i, x in enumerate(c.f):
        for j, y in enumerate(c.g):
            parts.append(Table([x, y], [(u, w) for u in b.domain(x) for w in b.domain(y)
                                        if (u == j) == (w == i)]))
    return parts


def connected(c: Connected, b: Decomposer) -> list[Constraint]:
    nodes = list(c.scope)
    n = len(nodes)
    if n <= 1:
        return []
    far = n  # the distance of a node that is not selected, or not reached
    distance = [b.aux(range(n + 1), f"distance{k}").name for k in range(n)]
    adjacent = c.neighbours()
    parts: list[Constraint] = []
    before: Any = None  # the truth of "a node before k is selected"
    for k, x in enumerate(nodes):
        on = Compare(x, "==", 1)
        root = on if before is None else And([on, Compare(before, "==", 0)])
        parts.append(Implies(root, Compare(distance[k], "==", 0)))
        parts.append(Implies(Compare(x, "==", 0), Compare(distance[k], "==", far)))
        around = [distance[j] for j in adjacent[k]]
        nearest = b.var_for(Minimum([b.target.variables[d] for d in around]), []) \
            if around else far
        inner = And([on, Not(root)]) if before is not None else None
        if inner is not None:
            step = _step(distance[k], nearest, far)
            parts.append(Implies(inner, step))
        parts.append(Implies(on, Linear([distance[k]], [1], "<=", n - 1)))
        before = x if before is None else b.truth(Or([Compare(before, "==", 1), on])).name
    return parts


def _step(d: Hashable, nearest: Any, far: int) -> Constraint:
    """`d == min(far, nearest + 1)`."""
    if isinstance(nearest, int):
        return Compare(d, "==", min(far, nearest + 1))
    name = nearest.name
    return And([Implies(Linear([name], [1], "<=", far - 1),
                        Linear([d, name], [1, -1], "==", 1)),
                Implies(Linear([name], [1], ">=", far), Compare(d, "==", far))])


__all__ = ["all_different", "all_different_except", "all_equal", "cardinality",
           "circuit", "connected", "deterministic", "increasing", "inverse", "lex",
           "regular"]
