"""The python-constraint backend: every constraint kind, any variable names,
limits."""

from __future__ import annotations

import itertools
import signal
import time

import pytest

pytest.importorskip("constraint")

from csp import AllDifferent, Model, Status, Sum  # noqa: E402
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


def pigeons(n: int) -> Model:
    """n pigeons in n - 1 holes: no solution, and a long search to find that."""
    m = Model()
    m.add(AllDifferent([m.var(i, range(n - 1)) for i in range(n)]))
    return m


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
