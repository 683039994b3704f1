"""Parallel counting: the subproblems partition the solutions."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import csp
from csp import parallel
from csp.exactcover import ExactCover


def queens(n: int) -> ExactCover:
    from csp.problems import queens as module

    return module.declare(module.parse(str(n))[0])


def test_exact_cover_on_a_process_pool_counts_like_one_process():
    xc = queens(9)
    result = parallel.count(xc, workers=2)
    assert result.count == 352 == csp.count(xc).count
    assert result.status is csp.Status.COMPLETE
    assert result.stats.extra["subproblems"] >= 2


def test_any_executor_with_submit():
    xc = queens(8)
    with ThreadPoolExecutor(2) as pool:
        assert parallel.count(xc, executor=pool).count == 92


def test_model_split_on_values(monkeypatch):
    m = csp.Model()
    xs = [m.var(f"q{i}", range(7)) for i in range(7)]
    m.add(csp.AllDifferent(xs))
    m.add(csp.Sum(xs) == 21)  # redundant with all-different: it must not change the count
    for i in range(7):
        for j in range(i + 1, 7):
            m.add(csp.Relation([xs[i], xs[j]], lambda a, b, d=j - i: abs(a - b) != d))
    backend = "bitmask" if "bitmask" in csp.backends.available() else "cpsat"
    if backend not in csp.backends.available():
        pytest.skip("no Model backend installed")
    expected = csp.count(m, backend).count
    assert expected == 40  # 7 queens
    assert parallel.count(m, backend, workers=1).count == expected
    with ThreadPoolExecutor(2) as pool:
        assert parallel.count(m, backend, executor=pool).count == expected


def test_time_limit_reaches_every_subproblem():
    result = parallel.count(queens(16), workers=1, time_limit=0.5)
    assert result.status is csp.Status.TIME_LIMIT
    assert result.count < 14_772_512


def test_a_backend_that_does_not_split_gets_the_lowered_model_split():
    # cpsat declares no `split`: the exact cover is counted as a model split on values
    # (this used to be refused).
    if "cpsat" not in csp.backends.available():
        pytest.skip("cpsat not installed")
    result = parallel.count(queens(6), "cpsat", workers=1)
    assert result.count == 4 and result.stats.extra["subproblems"] > 1
