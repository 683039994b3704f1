"""The `sat` backend on the model language: logic and the globals it takes
as they are, the invariant that every auxiliary literal is a function of the
declared ones (so counting every model of the CNF counts the solutions), and
projection (`over=`) against the generic blocking path and brute force."""

from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("pysat")

from pysat.solvers import Solver  # noqa: E402

import csp  # noqa: E402
from csp import (  # noqa: E402
    Count,
    Element,
    GlobalCardinality,
    Iff,
    Implies,
    InputError,
    Model,
    Not,
    Or,
    Regular,
    Sum,
    Xor,
    dispatch,
)
from csp.backends.sat import SATBackend, cnf  # noqa: E402
from csp.backends.sat.globals import NATIVE  # noqa: E402
from csp.fuzz.generate import instance  # noqa: E402
from csp.projection import ProjectedSearch  # noqa: E402
from csp.testing import brute_force, normal  # noqa: E402
from csp.testing.language import language_models  # noqa: E402

TAKEN = NATIVE | {"Logic", "AllDifferent", "Sum", "SumNotEqual", "Table", "Compare"}


def _every_model_of_the_cnf(m: Model) -> int:
    """The number of models of sat's CNF for `m` over all its literals
    (auxiliary ones included), or -1 past 5,000."""
    encoded = cnf.encode(dispatch.prepare(m, "sat").target)
    if encoded.unsatisfiable:
        return 0
    with Solver(bootstrap_with=encoded.clauses) as solver:
        return sum(1 for _ in itertools.islice(solver.enum_models(), 5_001))


@pytest.mark.parametrize("inside", ["alone", "logic", "reified"])
def test_the_kinds_it_declares_are_taken_as_they_are(inside: str) -> None:
    assert TAKEN <= SATBackend.capabilities
    for kind, m in language_models(inside).items():
        plan = dispatch.prepare(m, "sat")
        # No decomposition: the model as declared (inside logic, only the
        # literals: comparisons, sums and logic; dispatch reifies the others).
        if kind in (TAKEN if inside == "alone" else {"Logic", "Sum", "SumNotEqual", "Compare"}):
            assert plan.target is m, kind
        assert csp.count(m, "sat").count == len(brute_force(m)), (kind, inside)


@pytest.mark.parametrize("inside", ["alone", "logic", "reified"])
def test_every_auxiliary_literal_is_a_function_of_the_declared_ones(inside: str) -> None:
    # Were an auxiliary literal free, some solution would have two models.
    for kind, m in language_models(inside).items():
        assert _every_model_of_the_cnf(m) == len(brute_force(m)), (kind, inside)


def test_the_invariant_holds_on_random_models_of_the_fuzzer() -> None:
    checked = 0
    for index in range(150):
        _, spec = instance(2026, index, ("model",))
        m = spec.build()
        try:
            dispatch.prepare(m, "sat")
        except InputError:
            continue
        expected = brute_force(m) if _small(m) else None
        if expected is None or len(expected) > 2_000:
            continue
        assert _every_model_of_the_cnf(m) == len(expected), spec.source()
        checked += 1
    assert checked > 100


def _small(m: Model) -> bool:
    size = 1
    for v in m.variables.values():
        size *= len(v.domain)
    return size <= 20_000


def _logic_model(r: random.Random) -> Model:
    m = Model("logic")
    xs = [m.var(i if r.random() < 0.5 else f"x{i}", range(r.randint(-1, 0), r.randint(1, 3)))
          for i in range(4)]
    b = m.bool("b")
    m.add(Or([xs[0] == 1, Sum([xs[1], xs[2]], [2, -1]) >= 1, Not(xs[3] != xs[0])]))
    m.add(b == Implies(xs[1] + xs[3] <= 1, Xor([xs[2] == 0, b, xs[0] == xs[1]])))
    m.add(Iff(Sum([xs[0], xs[3]]) != 1, Or([])) | (xs[2] >= 1))
    m.add(Not(Xor([xs[0] == 0, xs[1] == 0, xs[2] == 0])))
    return m


def _globals_model(r: random.Random) -> Model:
    m = Model("globals")
    xs = [m.var(i, range(3)) for i in range(4)]
    k = m.var("k", range(-1, 4))
    m.add(Count(xs, xs[0]) > k)
    m.add(Element([xs[1], 2, xs[2], 0], xs[3]) <= xs[0])
    m.add(GlobalCardinality(xs[:3], [0, 2], [k, 1], closed=r.random() < 0.5))
    nfa = [(0, 0, 0), (0, 1, 1), (0, 1, 2), (1, 2, 2), (2, 0, 0), (2, 1, 2)]
    m.add(Regular(xs, nfa, 0, [r.choice((0, 1, 2))]))
    return m


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("make", [_logic_model, _globals_model])
def test_logic_and_globals_agree_with_brute_force(make, seed: int) -> None:
    m = make(random.Random(seed))
    assert dispatch.prepare(m, "sat").target is m  # taken as it is
    expected = brute_force(m)
    found = list(csp.solutions(m, "sat"))
    assert {normal(s) for s in found} == expected and len(found) == len(expected)
    assert _every_model_of_the_cnf(m) == len(expected)


@pytest.mark.parametrize("seed", range(40))
def test_projection_is_native_and_agrees_with_blocking_and_brute_force(seed: int) -> None:
    r = random.Random(seed)
    _, spec = instance(seed, 0, ("model",))
    m = spec.build()
    names = list(m.variables)
    over = r.sample(names, r.randint(1, len(names)))
    if not _small(m):
        pytest.skip("too large for brute force")
    expected = {tuple(dict(s)[x] for x in over) for s in brute_force(m)}
    search = csp.solutions(m, "sat", over=over)
    found = [tuple(s[x] for x in over) for s in search]
    assert "projection" not in search.stats.extra  # not the blocking path: sat's own
    assert sorted(found) == sorted(expected)
    blocking = ProjectedSearch(m, over, "sat")
    assert sorted(tuple(s[x] for x in over) for s in blocking) == sorted(expected)
    assert csp.count(m, "sat", over=over).count == len(expected)
    assert SATBackend().count(dispatch.prepare(m, "sat").target, over=over).count == \
        len(expected)


def test_auto_projects_with_a_backend_that_projects() -> None:
    m = Model()
    x, y = m.var("x", range(4)), m.var("y", range(4))
    m.add(x + y >= 3)
    search = csp.solutions(m, over=[x])
    assert sorted(s["x"] for s in search) == [0, 1, 2, 3]
    assert search.backend == "sat"


def test_projection_bad_input() -> None:
    m = Model()
    m.var("x", range(2))
    with pytest.raises(InputError, match="'z' is not a variable"):
        SATBackend().count(m, over=["z"])
    xc = csp.ExactCover.from_text("a\na\n")
    with pytest.raises(InputError, match="exact cover"):
        SATBackend().count(xc, over=["a"])


def test_a_reified_sum_too_large_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cnf, "MAX_TRANSITIONS", 1000)
    m = Model()
    xs = [m.var(i, range(10)) for i in range(4)]
    b = m.bool("b")
    m.add(b == (Sum(xs, [1, 10, 100, 1000]) <= 1234))  # a reified sum keeps every state
    assert "partial sum, value" in (SATBackend().refuses(m) or "")
    nfa = [(q, v, (q * 10 + v) % 997) for q in range(997) for v in range(10)]
    big = Model()
    ys = [big.var(i, range(10)) for i in range(5)]
    big.add(Regular(ys, nfa, 0, [1]))
    assert "sat's encoding of automata" in (SATBackend().refuses(big) or "")
