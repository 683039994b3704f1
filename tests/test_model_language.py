"""The model language of issue 22: logic and reification, arithmetic, the
functions and the globals, on every backend, against brute force.

Each model is small enough to enumerate: `brute_force` (the constraints' own
checkers over every assignment) is the oracle. Every model runs on every
backend twice: as each backend takes it (natively, or decomposed with tables
where small), and with `csp.decompose.TABLE_FIRST` off, so that every
structural decomposition is exercised even on small domains (a backend that
decomposes nothing of the model runs it once).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable

import pytest

import csp
from csp import (
    AllDifferent,
    AllDifferentExcept,
    AllEqual,
    And,
    Circuit,
    Connected,
    Count,
    Decreasing,
    Element,
    GlobalCardinality,
    Implies,
    Increasing,
    InputError,
    Inverse,
    LexLess,
    LexLessEq,
    Maximum,
    Minimum,
    Mod,
    Model,
    Not,
    NValue,
    Or,
    Regular,
    Relation,
    Sum,
    Xor,
    decompose,
    dispatch,
)


def brute_force(m: Model, over: list | None = None) -> int:
    names = list(m.variables)
    seen = set()
    count = 0
    for values in itertools.product(*(m.variables[x].domain for x in names)):
        assignment = dict(zip(names, values))
        if m.is_solution(assignment):
            count += 1
            if over is not None:
                seen.add(tuple(assignment[x] for x in over))
    return count if over is None else len(seen)


def var(m: Model, r: random.Random, label: str, domain: Iterable[int]) -> csp.Variable:
    """A variable named `label`, or by a number when the test asks for int
    names (which the decompositions must never read as constants)."""
    return m.var(len(m.variables) if getattr(r, "int_names", False) else label, domain)


def _element(r: random.Random) -> Model:
    m = Model("element")
    n = r.randint(2, 4)
    xs = [var(m, r, f"x{i}", range(r.randint(-1, 0), r.randint(1, 3))) for i in range(n)]
    i = var(m, r, "i", range(-1, n + 1))  # out of range at both ends: those fail
    v = var(m, r, "v", range(0, 3))
    m.add(Element(xs, i) == v)
    j = var(m, r, "j", range(0, n + 1))
    m.add(Element([r.randint(0, 3) for _ in range(n)], j) >= xs[0])
    return m


def _count(r: random.Random) -> Model:
    m = Model("count")
    n = r.randint(2, 4)
    xs = [var(m, r, f"x{i}", range(0, 3)) for i in range(n)]
    k = var(m, r, "k", range(0, n + 1))
    m.add(Count(xs, r.randint(0, 2)) == k)
    m.add(Count(xs, xs[0]) >= 2)
    c0 = var(m, r, "c0", range(0, 3))
    m.add(GlobalCardinality(xs, [0, 1], [c0, 1], closed=r.random() < 0.5))
    return m


def _values(r: random.Random) -> Model:
    m = Model("values")
    n = r.randint(2, 4)
    xs = [var(m, r, f"x{i}", range(r.randint(-1, 0), r.randint(1, 3))) for i in range(n)]
    m.add(NValue(xs) <= r.randint(1, 3))
    m.add(AllEqual(xs[:2]) if r.random() < 0.5 else AllDifferentExcept(xs, [0]))
    return m


def _order(r: random.Random) -> Model:
    m = Model("order")
    n = r.randint(2, 4)
    xs = [var(m, r, f"x{i}", range(0, 3)) for i in range(n)]
    ys = [var(m, r, f"y{i}", range(0, 2)) for i in range(n)]
    ordered = Increasing if r.random() < 0.5 else Decreasing
    m.add(ordered(ys, strict=False))
    m.add(LexLess(xs, ys) if r.random() < 0.5 else LexLessEq(ys, xs))
    return m


def _regular(r: random.Random) -> Model:
    m = Model("regular")
    xs = [var(m, r, f"x{i}", range(0, 2)) for i in range(r.randint(2, 5))]
    nfa = [(0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 2), (2, 0, 2), (0, 1, 2)]  # 0 -1-> 1 or 2
    m.add(Regular(xs, nfa, 0, [1, 2]))
    return m


def _circuit(r: random.Random) -> Model:
    m = Model("circuit")
    n = r.randint(1, 5)
    succ = [var(m, r, f"s{i}", range(n)) for i in range(n)]
    m.add(Circuit(succ))
    if n > 2:
        m.add(succ[0] != 1)
    return m


def _inverse(r: random.Random) -> Model:
    m = Model("inverse")
    n = r.randint(1, 4)
    f = [var(m, r, f"f{i}", range(n)) for i in range(n)]
    g = [var(m, r, f"g{i}", range(n)) for i in range(n)]
    m.add(Inverse(f, g))
    m.add(f[0] != n - 1)
    return m


def _arithmetic(r: random.Random) -> Model:
    m = Model("arithmetic")
    xs = [var(m, r, f"x{i}", range(-2, 3)) for i in range(3)]
    y = var(m, r, "y", range(-1, 4))
    d = var(m, r, "d", [-2, -1, 1, 2])
    m.add(Minimum(xs) == y if r.random() < 0.5 else Maximum([xs[0] + 1, xs[1]]) == y)
    m.add(abs(xs[0]) + xs[1] >= 1)
    m.add(xs[0] * xs[1] + xs[2] != 2)
    m.add(xs[0] // d >= Mod(xs[1], d, rounding="zero"))
    m.add(xs[2] % d != 1)
    return m


def _logic(r: random.Random) -> Model:
    m = Model("logic")
    xs = [var(m, r, f"x{i}", range(0, 3)) for i in range(3)]
    a, b = var(m, r, "a", (0, 1)), var(m, r, "b", (0, 1))
    m.add(a == (xs[0] + xs[1] <= 2))
    m.add(Implies(b, xs[0] != xs[1]) | (xs[2] == 1))
    m.add(Xor([a, b, xs[0] == 0]))
    m.add(~(a & (xs[1] == 1)))
    m.add(Sum([xs[0] == 1, xs[1] == 2, b]) >= 1)
    m.add(Not(And([xs[0] == 2, xs[2] == 2])))
    return m


def _nested(r: random.Random) -> Model:
    m = Model("nested")
    xs = [var(m, r, f"x{i}", range(0, 3)) for i in range(3)]
    a, b = var(m, r, "a", (0, 1)), var(m, r, "b", (0, 1))
    m.add(Or([Count(xs, 1) == 2, AllDifferent(xs), Element(xs, a) == 2]))
    m.add(b == Increasing(xs[:2]))
    m.add(Or([Element(xs, var(m, r, "i", range(-1, 4))) == 0, b]))  # out of range: just false
    return m


def _connected(r: random.Random) -> Model:
    m = Model("connected")
    cells = [var(m, r, f"c{i}", (0, 1)) for i in range(r.randint(3, 6))]
    edges = [(i, i + 1) for i in range(len(cells) - 1)] + [(0, len(cells) - 1)]
    m.add(Connected(cells, edges[: r.randint(len(cells) - 2, len(edges))]))
    return m


MAKERS: dict[str, Callable[[random.Random], Model]] = {
    "element": _element, "count": _count, "values": _values, "order": _order,
    "regular": _regular, "circuit": _circuit, "inverse": _inverse,
    "arithmetic": _arithmetic, "logic": _logic, "nested": _nested, "connected": _connected,
}


@pytest.mark.parametrize("table_first", [True, False], ids=["tables", "decomposed"])
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_every_backend_agrees_with_brute_force(kind: str, seed: int, table_first: bool,
                                               csp_backend: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    r = random.Random(seed)
    r.int_names = seed % 2 == 1  # type: ignore[attr-defined]
    m = MAKERS[kind](r)
    if not table_first and _taken_as_declared(m, csp_backend):
        pytest.skip(f"{csp_backend} takes every constraint as declared: the run is the tables one")
    expected = brute_force(m)
    monkeypatch.setattr(decompose, "TABLE_FIRST", table_first)
    result = csp.count(m, backend=csp_backend, time_limit=60)
    assert result.status is csp.Status.COMPLETE, result
    assert result.count == expected
    solutions = list(csp.solutions(m, backend=csp_backend, time_limit=60))
    assert len(solutions) == expected
    assert all(m.is_solution(s) for s in solutions)  # in the declared terms, aux dropped
    assert len({tuple(sorted(s.items(), key=str)) for s in solutions}) == expected


def _taken_as_declared(m: Model, name: str) -> bool:
    """Whether `name` takes every constraint of `m` as it is (nothing
    decomposed, so `TABLE_FIRST` changes nothing), as `dispatch` decides."""
    takes = dispatch.taker(dispatch.model_capabilities(csp.backends.get(name)))
    return all(takes(c) for c in m.constraints)


def test_relation_checker_judges_the_table_taken_when_added() -> None:
    # A new user's skyscrapers model: `d` is the loop's, not bound by a default.
    m = Model()
    xs = [m.var(i, range(1, 5)) for i in range(4)]
    for d in range(1, 4):
        m.add(Relation([xs[0], xs[d]], lambda a, b: abs(a - b) != d))  # noqa: B023 (the trap)
    report = csp.crosscheck(m, backends=["dlx", "bitmask"])
    assert report.agree, str(report)
    expected = brute_force(m)
    assert csp.count(m, backend="dlx").count == expected
    # x0 and x1 differ by 3: allowed by the first table (d = 1), refused by the
    # predicate, which now reads d = 3 for every pair.
    assert m.check({0: 1, 1: 4, 2: 2, 3: 2}) == []


def test_projection_counts_distinct_assignments(csp_backend: str) -> None:
    m = Model()
    xs = [m.var(f"x{i}", range(3)) for i in range(3)]
    flow = [m.var(f"f{i}", range(3)) for i in range(2)]  # free: multiplies plain counts
    m.add(Sum(xs) >= 3)
    m.add(Sum(flow) <= xs[0] + 1)
    over = [x.name for x in xs]
    expected = brute_force(m, over)
    assert expected < brute_force(m)
    result = csp.count(m, backend=csp_backend, over=xs)
    assert (result.count, result.status) == (expected, csp.Status.COMPLETE)
    found = list(csp.solutions(m, backend=csp_backend, over=over))
    assert len(found) == expected and all(set(s) == set(over) for s in found)
    assert len({tuple(s.values()) for s in found}) == expected


def test_projection_limit_and_bad_input() -> None:
    m = Model()
    x, y = m.var("x", range(4)), m.var("y", range(4))
    m.add(x <= y)
    assert csp.count(m, over=[x], limit=2).status is csp.Status.SOLUTION_LIMIT
    with pytest.raises(InputError, match="'z' is not a variable of this model"):
        csp.count(m, over=["z"])
    with pytest.raises(InputError, match="named twice"):
        csp.count(m, over=[x, "x"])


def test_operators_a_new_user_tries_first() -> None:
    m = Model()
    a, b, c = m.var("a", range(3)), m.var("b", range(3)), m.var("c", range(-2, 3))
    m.add((a == 1) | (b == 2))
    m.add(~((a == 0) & (b == 0)))
    m.add(abs(c) <= 1)
    m.add(Minimum([a + 1, b]) >= 1)
    m.add(Sum([a == 1, b == 2]) == 1)
    m.add(Sum([a, b]) + c >= 1)
    assert csp.count(m, backend="cpsat").count == brute_force(m)
    with pytest.raises(InputError, match="Minimum"):
        min(a, b)  # Python's min() asks which is less: the error says what to write
    with pytest.raises(InputError, match="use &, |, ~"):
        m.add(Or([(a == 1) and (b == 2)]))  # `and` asks a constraint its truth value


def test_bad_input_names_the_constraint_and_the_variable() -> None:
    m = Model()
    x, y, i = m.var("x", range(3)), m.var("y", range(3)), m.var("i", range(5, 8))
    with pytest.raises(InputError, match="'x' is not a boolean"):
        m.add(x == (y <= 1))
    with pytest.raises(InputError, match="start state 'q' appears in no transition"):
        Regular([x], [(0, 1, 1)], "q", [1])
    with pytest.raises(InputError, match="accepting state 'z'"):
        Regular([x], [(0, 1, 1)], 0, ["z"])
    with pytest.raises(InputError, match="the domain of 'x' holds 2, outside the nodes 0..1"):
        m.add(Circuit([x, m.var("s", range(2))]))
    with pytest.raises(InputError, match="index i can never be in range 0..1"):
        m.add(Element([x, y], i) == 1)
    with pytest.raises(InputError, match="divisor 'y' of // may be 0"):
        m.add(x // y == 1)
    with pytest.raises(InputError, match="MiniZinc and XCSP3 leave x div 0 undefined"):
        m.add(Mod(x, y, rounding="zero") == 1)


def test_a_constraint_too_large_to_decompose_is_refused_before_solving() -> None:
    m = Model()
    xs = [m.var(i, range(2000)) for i in range(2)]
    m.add(xs[0] * xs[1] == 1_000_000)
    with pytest.raises(csp.errors.Refused, match="too large to decompose.*backends that "
                                                 "take it: .*cpsat"):
        csp.count(m, backend="sat")


def _cards() -> Model:
    m = Model("cards")
    xs = [m.var(i, range(1, 6)) for i in range(6)]
    m.add(Count(xs, 2) == 2)
    m.add(Or([xs[0] == 1, Element(xs, xs[1]) == 3]))
    m.add(AllDifferentExcept(xs, [2]))
    return m


def test_families_of_decomposed_models(csp_backend: str) -> None:
    # The decomposed model keeps the declared names: the givens still apply.
    m = _cards()
    givens = [{0: 1}, {1: 2}, {0: 3, 1: 4}]
    expected = []
    for fixed in givens:
        shaped = _cards()
        for name, value in fixed.items():
            shaped.add(shaped.variables[name] == value)
        expected.append(brute_force(shaped))
    counts = [r.count for r in csp.solve_family(m, givens, csp_backend, count=True)]
    assert counts == expected
    for fixed, result in zip(givens, csp.solve_family(m, givens, csp_backend)):
        assert (result.solution is None) == (expected[givens.index(fixed)] == 0)
        if result.solution is not None:
            assert m.is_solution(result.solution)
            assert all(result.solution[k] == v for k, v in fixed.items())


def test_parallel_counting_of_a_decomposed_model() -> None:
    from csp import parallel

    m = _cards()
    expected = brute_force(m)
    for backend in ("bitmask", "dlx"):
        result = parallel.count(m, backend=backend, workers=2)
        assert (result.count, result.status) == (expected, csp.Status.COMPLETE)
