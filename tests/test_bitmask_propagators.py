"""The native propagators of `bitmask` for the model language (issue 22), one
by one against brute force.

Each maker draws a small random instance of one constraint kind (with the
odd cases: ints among variables, a variable repeated, values out of range,
every comparison); the oracle is the constraints' own `holds` over every
assignment. `bitmask` must take the model as it is (no decomposition: the
kernel's propagator is what is tested), find every solution and none more,
each once, and count as many; with restarts after every few failures too,
so that the nogoods of `learn` meet the new kinds. Then the features that
must keep working with them: parallel counting (the tree cut on values),
families, limits and time limits.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

import csp
from csp import (
    And,
    Circuit,
    Connected,
    Count,
    Element,
    GlobalCardinality,
    Iff,
    Implies,
    Model,
    Not,
    Or,
    Regular,
    Status,
    Xor,
    dispatch,
)
from csp.backends.bitmask import BitmaskBackend
from csp.constraints import Linear

OPS = ("==", "!=", "<", "<=", ">", ">=")
BACKENDS = {"default": BitmaskBackend(), "restarts-1": BitmaskBackend(restarts=1, probe=False)}


def brute_force(m: Model) -> set[tuple[int, ...]]:
    names = list(m.variables)
    return {values for values in itertools.product(*(m.variables[x].domain for x in names))
            if m.is_solution(dict(zip(names, values)))}


def domain(r: random.Random, values: range) -> list[int]:
    """A random non-empty subset of `values`."""
    return sorted(r.sample(list(values), r.randint(1, len(values))))


def compare(left, op: str, right):
    """`left op right` with Python's operators (the way a user writes it)."""
    return {"==": lambda: left == right, "!=": lambda: left != right,
            "<": lambda: left < right, "<=": lambda: left <= right,
            ">": lambda: left > right, ">=": lambda: left >= right}[op]()


# -- the makers: one constraint kind each ---------------------------------------------------


def _literal(r: random.Random, xs: list, bs: list):
    """A literal or a comparison that the logic of bitmask takes."""
    choice = r.randrange(6)
    x, y = r.sample(xs, 2)
    if choice == 0:
        return r.choice(bs)
    if choice == 1:
        return x == r.randint(-1, 3)
    if choice == 2:
        return x != r.randint(0, 2)
    if choice == 3:
        return x == y if r.random() < 0.5 else x != y
    scope = r.sample(xs, r.randint(1, 3))
    weights = [r.choice([-2, -1, 1, 2]) for _ in scope]
    return Linear(scope, weights, r.choice(["==", "!=", "<=", ">="]), r.randint(-2, 4))


def _formula(r: random.Random, xs: list, bs: list, depth: int):
    if depth == 0 or r.random() < 0.25:
        return _literal(r, xs, bs)
    kind = r.choice([And, Or, Not, Implies, Xor, Iff])
    if kind is Not:
        return Not(_formula(r, xs, bs, depth - 1))
    if kind in (Implies, Iff):
        return kind(_formula(r, xs, bs, depth - 1), _formula(r, xs, bs, depth - 1))
    return kind([_formula(r, xs, bs, depth - 1) for _ in range(r.randint(0, 3))])


def logic(r: random.Random) -> Model:
    m = Model("logic")
    xs = [m.var(f"x{i}", domain(r, range(0, 3))) for i in range(3)]
    bs = [m.bool(f"b{i}") for i in range(2)]
    for _ in range(r.randint(1, 3)):
        f = _formula(r, xs, bs, 3)
        f = f if isinstance(f, csp.Constraint) else f == 1  # a bare boolean
        m.add(f if r.random() < 0.6 else r.choice(bs) == f)
    return m


def sum_not_equal(r: random.Random) -> Model:
    m = Model("sum-not-equal")
    xs = [m.var(f"x{i}", domain(r, range(-2, 3))) for i in range(r.randint(2, 4))]
    for _ in range(2):
        scope = r.sample(xs, r.randint(1, len(xs)))
        m.add(Linear(scope, [r.choice([-3, -1, 1, 2]) for _ in scope], "!=", r.randint(-3, 3)))
    return m


def element(r: random.Random) -> Model:
    m = Model("element")
    n = r.randint(1, 4)
    array: list = []
    for i in range(n):
        pick = r.random()
        if pick < 0.3:
            array.append(r.randint(-1, 3))
        elif pick < 0.45 and any(not isinstance(a, int) for a in array):
            array.append(r.choice([a for a in array if not isinstance(a, int)]))  # repeated
        else:
            array.append(m.var(f"a{i}", domain(r, range(-1, 3))))
    index = m.var("i", domain(r, range(-1, n + 1))) if r.random() < 0.85 else r.randrange(n)
    if not isinstance(index, int) and not any(0 <= v < n for v in index.domain):
        index = m.var("j", range(n))
    value = m.var("v", domain(r, range(-1, 4))) if r.random() < 0.7 else r.randint(-1, 3)
    m.add(compare(Element(array, index), r.choice(OPS), value))
    return m


def count(r: random.Random) -> Model:
    m = Model("count")
    xs = [m.var(f"x{i}", domain(r, range(0, 4))) for i in range(r.randint(1, 4))]
    pick = r.random()
    target = (r.randint(0, 3) if pick < 0.4 else r.choice(xs) if pick < 0.6
              else m.var("t", domain(r, range(0, 4))))
    k = m.var("k", domain(r, range(-1, len(xs) + 2))) if r.random() < 0.6 else r.randint(0, 3)
    m.add(compare(Count(xs, target), r.choice(OPS), k))
    return m


def cardinality(r: random.Random) -> Model:
    m = Model("cardinality")
    xs = [m.var(f"x{i}", domain(r, range(0, 4))) for i in range(r.randint(1, 4))]
    values = r.sample(range(0, 4), r.randint(1, 3))
    shared = m.var("c", domain(r, range(0, 4)))
    counts = [r.randint(0, 2) if r.random() < 0.4 else
              shared if r.random() < 0.3 else m.var(f"c{v}", domain(r, range(0, 4)))
              for v in values]
    m.add(GlobalCardinality(xs, values, counts, closed=r.random() < 0.4))
    return m


def regular(r: random.Random) -> Model:
    m = Model("regular")
    xs = [m.var(f"x{i}", domain(r, range(0, 3))) for i in range(r.randint(1, 6))]
    states = r.randint(1, 4)
    transitions = [(q, s, t) for q in range(states) for s in range(3) for t in range(states)
                   if r.random() < 0.3]
    transitions.append((0, r.randrange(3), r.randrange(states)))  # the start state appears
    named = sorted({q for q, _, _ in transitions} | {t for _, _, t in transitions})
    m.add(Regular(xs, transitions, 0, r.sample(named, r.randint(1, len(named)))))
    return m


def circuit(r: random.Random) -> Model:
    m = Model("circuit")
    n = r.randint(1, 6)
    succ = [m.var(f"s{i}", domain(r, range(n)) if r.random() < 0.4 else range(n))
            for i in range(n)]
    m.add(Circuit(succ))
    return m


def connected(r: random.Random) -> Model:
    m = Model("connected")
    n = r.randint(2, 8)
    nodes = [m.var(f"n{i}", r.choice([(0, 1)] * 4 + [(0,), (1,)])) for i in range(n)]
    edges = [(i, j) for i, j in itertools.combinations(range(n), 2) if r.random() < 0.35]
    m.add(Connected(nodes, edges))
    return m


MAKERS: dict[str, Callable[[random.Random], Model]] = {
    "logic": logic, "sum-not-equal": sum_not_equal, "element": element, "count": count,
    "cardinality": cardinality, "regular": regular, "circuit": circuit, "connected": connected,
}


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("kind", list(MAKERS))
def test_each_propagator_against_brute_force(kind: str, backend: str) -> None:
    engine = BACKENDS[backend]
    for seed in range(40):
        m = MAKERS[kind](random.Random(seed))
        assert dispatch.prepare(m, engine).target is m, "taken natively, not decomposed"
        expected = brute_force(m)
        where = f"{kind} seed {seed}: {m.constraints}"
        result = csp.count(m, backend=engine)
        assert (result.count, result.status) == (len(expected), Status.COMPLETE), where
        names = list(m.variables)
        found = [tuple(s[x] for x in names) for s in csp.solutions(m, backend=engine)]
        assert len(found) == len(set(found)), f"{where}: a solution twice"
        assert set(found) == expected, where


def test_regular_filtering_is_complete() -> None:
    """Forward-backward filtering leaves only values of accepted words (arc
    consistency): alone in a model, Regular is solved without a failure."""
    for seed in range(40):
        m = regular(random.Random(seed))
        result = BitmaskBackend(restarts=0).count(m)
        assert result.count == len(brute_force(m))
        assert result.stats.failures == (1 if result.count == 0 else 0), seed


def test_element_and_count_reach_the_bounds_cpsat_finds() -> None:
    # A hidden variable carries Element's value where it is compared otherwise
    # than by ==; Count's op is its own: neither adds a solution.
    m = Model()
    xs = [m.var(f"x{i}", range(5)) for i in range(5)]
    i = m.var("i", range(-2, 7))
    m.add(Element(xs, i) > xs[0])
    m.add(Count(xs, 2) != 1)
    m.add(Count(xs, xs[1]) < 3)
    assert csp.count(m, backend="bitmask").count == csp.count(m, backend="cpsat").count == \
        len(brute_force(m))


# -- the features that must keep working with the new kinds ---------------------------------


def tour_model() -> Model:
    """A model that uses every new kind, with many solutions (140): a circuit
    over 7 nodes, an Element, a Count, reified clauses, a Regular over the
    successors' parity (no three odd in a row), a clause, and a Connected
    over the nodes whose successor is odd (on the graph i ~ i + 3 mod 7)."""
    m = Model("tour")
    n = 7
    succ = [m.var(f"s{i}", range(n)) for i in range(n)]
    m.add(Circuit(succ))
    first = m.var("first", range(n))
    m.add(Element(succ, 0) == first)
    m.add(Count(succ, first) <= 1)
    odd = [m.bool(f"odd{i}") for i in range(n)]
    for s, b in zip(succ, odd):
        m.add(b == Or([s == v for v in range(1, n, 2)]))
    ones = [(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 2), (2, 0, 0)]  # the odd ones in a row
    m.add(Regular(odd, ones, 0, [0, 1, 2]))
    m.add(Or([succ[1] != 2, succ[2] != 3]))
    m.add(Connected(odd, [(i, (i + 3) % n) for i in range(n)]))
    return m


def test_parallel_counting_and_families_with_the_new_kinds() -> None:
    from csp import parallel

    m = tour_model()
    serial = csp.count(m, backend="bitmask")
    assert (serial.count, serial.status) == (140, Status.COMPLETE)
    assert serial.count == csp.count(m, backend="cpsat").count
    split = parallel.count(m, "bitmask", workers=2)
    assert (split.count, split.status) == (serial.count, Status.COMPLETE)
    assert split.stats.extra["subproblems"] > 1
    givens = [{"first": v} for v in range(7)] + [{"s0": 0}]
    results = list(csp.solve_family(m, givens, "bitmask", count=True))
    every = list(csp.solutions(m, backend="cpsat"))  # the witness: another solver
    assert [r.count for r in results] == [
        sum(1 for s in every if all(s[k] == v for k, v in g.items())) for g in givens]
    assert sum(r.count for r in results[:7]) == serial.count and results[7].count == 0
    firsts = list(csp.solve_family(m, givens, "bitmask"))
    for g, r in zip(givens, firsts):
        assert (r.solution is not None) == (r.count == 1)
        if r.solution is not None:
            assert m.is_solution(r.solution) and all(r.solution[k] == v for k, v in g.items())


def test_limits_time_limits_and_restarts_with_the_new_kinds() -> None:
    m = Model("big")
    n = 12
    succ = [m.var(f"s{i}", range(n)) for i in range(n)]
    m.add(Circuit(succ))  # 11! circuits: no count finishes quickly
    flags = [m.bool(f"f{i}") for i in range(n)]
    for s, f in zip(succ, flags):
        m.add(f == (s == 0) | (s == n - 1))
    result = csp.count(m, backend="bitmask", time_limit=0.5)
    assert result.status is Status.TIME_LIMIT
    search = csp.solutions(m, backend="bitmask", limit=25)
    found = list(search)
    assert len(found) == 25 and search.status is Status.SOLUTION_LIMIT
    assert all(m.is_solution(s) for s in found) and len({tuple(s.values()) for s in found}) == 25
    small = tour_model()
    counts = {csp.count(small, backend=BitmaskBackend(restarts=k)).count for k in (0, 1, 3)}
    assert len(counts) == 1


def test_an_element_value_too_wide_for_a_mask_is_refused_before_solving() -> None:
    m = Model()
    array = [m.var(f"a{j}", (2 * j, 2 * j + 1)) for j in range(33)]  # 66 values in all
    i, v = m.var("i", range(33)), m.var("v", range(3))
    m.add(Element(array, i) < v)
    with pytest.raises(csp.errors.Refused, match="its value may take 66 values.*64-bit mask"):
        csp.count(m, backend="bitmask")
    result = csp.solve(m)  # auto: bitmask gives way
    assert m.is_solution(result.solution) and "bitmask" in result.stats.extra["note"]
