"""The CP-SAT backend: exact enumeration (the 8-queens trap), laziness, limits."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("ortools")

from shared_models import queens_model  # noqa: E402

from csp import ExactCover, InputError, Model, Status, Sum, Table  # noqa: E402
from csp.backends.cpsat import CPSATBackend, CPSATSearch  # noqa: E402


def queens_xc(n: int) -> ExactCover:
    """Knuth's N queens: rows and columns primary, diagonals secondary."""
    xc = ExactCover([("r", i) for i in range(n)] + [("c", j) for j in range(n)],
                    [("a", d) for d in range(2 * n - 1)] + [("b", d) for d in range(2 * n - 1)])
    for i in range(n):
        for j in range(n):
            xc.add_option([("r", i), ("c", j), ("a", i + j), ("b", i - j + n - 1)])
    return xc


@pytest.fixture(scope="module")
def cpsat() -> CPSATBackend:
    return CPSATBackend()


def test_eight_queens_count_is_92(cpsat: CPSATBackend) -> None:
    # Two workers were seen to find 80 of 92 and call it complete.
    for problem in (queens_model(8), queens_xc(8)):
        result = cpsat.count(problem)
        assert (result.count, result.status) == (92, Status.COMPLETE)
        found = list(cpsat.solutions(problem))
        assert len(found) == len({str(sorted(map(str, s.items())) if isinstance(s, dict)
                                      else s) for s in found}) == 92


def test_enumeration_uses_one_worker_and_keeps_solutions(cpsat: CPSATBackend) -> None:
    search = cpsat.solutions(queens_model(4))
    parameters = search.parameters()
    assert parameters["num_workers"] == 1
    assert parameters["enumerate_all_solutions"] is True
    assert parameters["keep_all_feasible_solutions_in_presolve"] is True
    first = cpsat.solutions(queens_model(4), limit=1).parameters()
    assert "num_workers" not in first  # one solution: every core


def test_solutions_are_valid_and_lazy(cpsat: CPSATBackend) -> None:
    m = queens_model(10)
    search = cpsat.solutions(m)
    first = next(search)
    assert m.problems(first) == []
    assert search.status is None
    search.close()
    assert search.status is Status.INTERRUPTED
    assert search.stats.solutions == 1
    assert not [t for t in threading.enumerate() if t.name == "csp-cpsat"]


def test_dropped_search_stops_its_thread(cpsat: CPSATBackend) -> None:
    search = cpsat.solutions(queens_model(12))
    next(search)
    thread = search._thread
    del search
    assert thread is not None
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_edge_models(cpsat: CPSATBackend) -> None:
    assert list(cpsat.solutions(Model())) == [{}]
    m = Model()
    m.var("a", [])
    assert cpsat.count(m).count == 0
    m = Model()
    a, b = m.var("a", [1, 5, 9]), m.var(7, range(3))
    m.add(Table([a, b], [(5, 0), (9, 2), (9, 3)]))
    m.add(Table([a, b], [(9, 2)], forbidden=True))
    m.add(a != 1)
    assert list(cpsat.solutions(m)) == [{"a": 5, 7: 0}]
    m = Model()
    m.var("free", [2, 4, 6])
    assert cpsat.count(m).count == 3  # a variable in no constraint still counts


def test_search_class_rejects_bad_limits() -> None:
    with pytest.raises(ValueError):
        CPSATSearch(Model(), limit=-1)


def test_values_beyond_cpsat_bound_are_refused_by_name(cpsat: CPSATBackend) -> None:
    # Model.var takes any signed 64-bit value; CP-SAT takes +-(2**62 - 1).
    m = Model()
    m.var("x", [0, 2**62 - 1, -(2**62 - 1)])
    assert cpsat.count(m).count == 3
    for value in (2**62, -(2**62), 2**63 - 1):
        m = Model()
        m.var("big", [0, value])
        with pytest.raises(InputError, match=rf"variable 'big' has the value {value}.*CP-SAT"):
            cpsat.count(m)


def test_an_invalid_model_says_why(cpsat: CPSATBackend) -> None:
    m = Model()
    xs = [m.var(i, [0, 2**62 - 1]) for i in range(2)]
    m.add(Sum(xs) <= 5)
    with pytest.raises(InputError, match="invalid: .*overflow"):
        cpsat.count(m)
