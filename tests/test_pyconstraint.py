"""The python-constraint backend: every constraint kind, any variable names,
limits."""

from __future__ import annotations

import itertools
import signal
import time

import pytest

pytest.importorskip("constraint")

from csp import AllDifferent, Model, Relation, Status, Sum, Table  # noqa: E402
from csp.backends.pyconstraint import PythonConstraintBackend  # noqa: E402


@pytest.fixture(scope="module")
def pyc() -> PythonConstraintBackend:
    return PythonConstraintBackend()


def brute_force(m: Model) -> list[frozenset]:
    names = list(m.variables)
    out = []
    for values in itertools.product(*(m.variables[x].domain for x in names)):
        assignment = dict(zip(names, values))
        if m.is_solution(assignment):
            out.append(frozenset(assignment.items()))
    return sorted(out, key=repr)


def solved(backend: PythonConstraintBackend, m: Model) -> list[frozenset]:
    found = []
    for s in backend.solutions(m):
        assert m.problems(s) == []
        found.append(frozenset(s.items()))
    return sorted(found, key=repr)


def test_every_constraint_kind_with_odd_names(pyc: PythonConstraintBackend) -> None:
    m = Model()
    a = m.var(("a", 1), range(-2, 3))
    b = m.var(frozenset({1}), range(0, 4))
    c = m.var(3, [1, 2, 5])
    d = m.var(None, range(3))
    m.add(AllDifferent([a, b, c]))
    m.add(Sum([a, b, c], [2, -1, 3]) >= 4)
    m.add(Sum([b, d]) <= 4)
    m.add(Sum([a, d], [1, 1]) == 2)
    m.add(Table([c, d], [(1, 0), (2, 2), (5, 1), (5, 2)]))
    m.add(Table([a, b], [(0, 0), (1, 3)], forbidden=True))
    m.add(Relation([b, d], lambda x, y: x != y + 1))
    m.add(c != 2)
    m.add(a != b)
    m.add(Table([d], [(0,)], forbidden=True))
    expected = brute_force(m)
    assert expected  # not vacuous
    assert solved(pyc, m) == expected


def test_sums_with_negative_values_and_weights(pyc: PythonConstraintBackend) -> None:
    for op in ("==", "<=", ">="):
        m = Model()
        xs = [m.var(i, range(-3, 3)) for i in range(3)]
        s = Sum(xs, [3, -2, 1])
        m.add(s == 1 if op == "==" else s <= -4 if op == "<=" else s >= 5)
        assert solved(pyc, m) == brute_force(m)


def test_equal_variables_and_unary_equals(pyc: PythonConstraintBackend) -> None:
    m = Model()
    a, b, c = m.var("a", range(4)), m.var("b", range(1, 6)), m.var("c", range(4))
    m.add(a == b)
    m.add(c == 2)
    assert solved(pyc, m) == brute_force(m)


def test_an_emptied_domain_means_no_solution(pyc: PythonConstraintBackend) -> None:
    m = Model()
    a, b = m.var("a", [1, 2]), m.var("b", [1, 2])
    m.add(a == 7)  # empties a's domain before the sum's pre-processing
    m.add(Sum([a, b]) == 3)
    assert pyc.count(m).count == 0
    m = Model()
    m.var("a", [])
    result = pyc.count(m)
    assert (result.count, result.status) == (0, Status.COMPLETE)


def test_empty_model_has_one_solution(pyc: PythonConstraintBackend) -> None:
    assert list(pyc.solutions(Model())) == [{}]


def test_limits_and_statistics(pyc: PythonConstraintBackend) -> None:
    m = Model()
    xs = [m.var(i, range(5)) for i in range(4)]
    m.add(AllDifferent(xs))
    search = pyc.solutions(m, limit=7)
    assert len(list(search)) == 7 and search.status is Status.SOLUTION_LIMIT
    result = pyc.count(m)
    assert (result.count, result.status) == (120, Status.COMPLETE)
    assert result.stats.nodes is None and result.stats.time >= 0
    timed = pyc.count(m, time_limit=0)
    assert timed.status is Status.TIME_LIMIT
    search = pyc.solutions(m)
    next(search)
    search.close()
    assert search.status is Status.INTERRUPTED and list(search) == []


def pigeons(n: int) -> Model:
    """n pigeons in n - 1 holes: no solution, and a long search to find that."""
    m = Model()
    m.add(AllDifferent([m.var(i, range(n - 1)) for i in range(n)]))
    return m


def test_time_limit_stops_a_search_that_finds_nothing(pyc: PythonConstraintBackend) -> None:
    # 11 pigeons take python-constraint about 30 s; the limit must cut in
    # during the search, not at the next solution.
    started = time.perf_counter()
    result = pyc.count(pigeons(11), time_limit=0.3)
    assert (result.count, result.status) == (0, Status.TIME_LIMIT)
    assert time.perf_counter() - started < 3
    search = pyc.solutions(pigeons(11), time_limit=0.3)
    started = time.perf_counter()
    assert list(search) == [] and search.status is Status.TIME_LIMIT
    assert time.perf_counter() - started < 3


def test_progress_is_reported_during_a_search_without_solutions(
        pyc: PythonConstraintBackend) -> None:
    seen: list[float] = []
    result = pyc.count(pigeons(11), time_limit=0.7, progress=lambda s: seen.append(s.time))
    assert result.status is Status.TIME_LIMIT and seen


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX interval timers")
def test_ctrl_c_interrupts_a_search_that_finds_nothing(pyc: PythonConstraintBackend) -> None:
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        started = time.perf_counter()
        result = pyc.count(pigeons(11))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert (result.count, result.status) == (0, Status.INTERRUPTED)
    assert time.perf_counter() - started < 3


def test_the_clock_constraint_changes_no_answer(pyc: PythonConstraintBackend) -> None:
    # A single variable (which python-constraint would pre-process away)
    # and a model whose every node calls the clock many times over.
    m = Model()
    m.add(m.var("x", range(3)) != 1)
    assert solved(pyc, m) == brute_force(m)
    assert pyc.count(pigeons(7)).count == 0
    m = Model()
    m.add(AllDifferent([m.var(i, range(6)) for i in range(5)]))
    assert pyc.count(m).count == 720
