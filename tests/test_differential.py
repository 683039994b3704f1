"""Differential tests: random small exact covers (with secondary items and
colours) and random small CSPs (every constraint kind); every available
backend must agree with the others, and every solution must pass the checker
of the declared form (`crosscheck` verifies both).

A few hundred examples in all by default; `--runslow` runs thousands.
"""

from __future__ import annotations

import pytest

pytest.importorskip("hypothesis")

from budget import examples, witnesses
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import csp  # noqa: E402
from csp import (  # noqa: E402
    AllDifferent,
    ExactCover,
    Model,
    Relation,
    Status,
    Sum,
    Table,
    crosscheck,
)
from csp.backends.base import OUTSIDE  # noqa: E402

EXAMPLES = 150
SLOW_EXAMPLES = 2_000


def _settings(runslow: bool) -> settings:
    # database=None: keep the checkout free of a .hypothesis directory.
    return settings(max_examples=SLOW_EXAMPLES if runslow else EXAMPLES, deadline=None,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@st.composite
def exact_covers(draw: st.DrawFn) -> ExactCover:
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    xc = ExactCover(primary, secondary)
    for _ in range(draw(st.integers(1, 9))):
        chosen_primary = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3,
                                       unique=True))
        entries: list = list(chosen_primary)
        if secondary:
            for item in draw(st.lists(st.sampled_from(secondary), max_size=3, unique=True)):
                colour = draw(st.sampled_from([None, None, "red", "blue", "green"]))
                entries.append(item if colour is None else (item, colour))
        xc.add_option(entries)
    return xc


@st.composite
def models(draw: st.DrawFn) -> Model:
    m = Model()
    n = draw(st.integers(1, 5))
    names = [("v", i) if i % 2 else i for i in range(n)]  # mixed hashable names
    for name in names:
        low = draw(st.integers(-2, 2))
        values = draw(st.lists(st.integers(low, low + 4), max_size=4, unique=True))
        if not values and draw(st.integers(0, 9)):
            values = [low]  # an empty domain now and then, not often
        m.var(name, values)

    def scope(min_size: int = 1, max_size: int = 3) -> list:
        return draw(st.lists(st.sampled_from(names), min_size=min_size,
                             max_size=min(max_size, n), unique=True))

    kinds = ["alldiff", "sum", "table", "forbidden", "relation", "compare", "unary"]
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(kinds))
        if kind == "alldiff":
            m.add(AllDifferent(scope(1, 4)))
        elif kind == "sum":
            xs = scope()
            weights = draw(st.lists(st.integers(-3, 3), min_size=len(xs), max_size=len(xs)))
            op = draw(st.sampled_from(["==", "<=", ">="]))
            rhs = draw(st.integers(-6, 8))
            s = Sum(xs, weights)
            m.add(s == rhs if op == "==" else s <= rhs if op == "<=" else s >= rhs)
        elif kind in ("table", "forbidden"):
            xs = scope()
            rows = draw(st.lists(st.tuples(*[st.integers(-2, 6)] * len(xs)), max_size=8))
            m.add(Table(xs, rows, forbidden=kind == "forbidden"))
        elif kind == "relation":
            xs = scope(2, 2) if n >= 2 else scope(1, 1)
            k = draw(st.integers(0, 3))
            m.add(Relation(xs, lambda *v, k=k: sum(v) % (k + 1) == 0))
        elif kind == "compare" and n >= 2:
            a, b = scope(2, 2)
            m.add(m.variables[a] == m.variables[b] if draw(st.booleans())
                  else m.variables[a] != m.variables[b])
        else:
            [a] = scope(1, 1)
            c = draw(st.integers(-2, 6))
            m.add(m.variables[a] == c if draw(st.booleans()) else m.variables[a] != c)
    return m


def _agree(problem) -> None:
    # Hypothesis draws a hundred models per test: the backends in this
    # process (the field's solvers, a process or a JVM per model, are
    # fuzzed by bench/bench_fuzz.py --backends, and ACE 2.6 stops on some
    # degenerate models: a SolverFailed, never a count).
    chosen = [name for name in witnesses(problem)
              if OUTSIDE not in csp.backends.get(name).capabilities]
    report = crosscheck(problem, backends=chosen)
    assert report.agree, str(report)
    assert all(run.status is Status.COMPLETE and not run.invalid for run in report.runs), \
        str(report)
    assert report.sets_compared


def test_random_exact_covers(runslow: bool) -> None:
    given(exact_covers())(_settings(runslow)(lambda xc: _agree(xc)))()


def test_random_models(runslow: bool) -> None:
    given(models())(_settings(runslow)(lambda m: _agree(m)))()


def test_random_exact_covers_with_colour_flags(runslow: bool, csp_backend: str) -> None:
    """The lowering of an item with many colours (0/1 flags instead of one
    colour variable; forced here on every coloured item) on every backend."""
    from csp import solutions
    from csp.reformulate import exact_cover_to_model

    def check(xc: ExactCover) -> None:
        expected = sorted(solutions(xc))  # on the cover's own backend
        assert all(not xc.check(s) for s in expected)
        m, decode = exact_cover_to_model(xc, max_colour_values=2)
        found = sorted(decode(s) for s in solutions(m, backend=csp_backend))
        assert found == expected, (csp_backend, xc.to_text())

    chosen = _settings(runslow)
    given(exact_covers())(settings(chosen, max_examples=examples(csp_backend, chosen.max_examples))
                          (check))()
