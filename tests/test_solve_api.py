"""`csp.solve`, `csp.count`, `csp.solutions` do what they say: arguments of
the wrong type are refused, `count` takes a limit, progress callbacks get
snapshots, `auto` falls back when the default backend refuses a model, and a
time limit counts from the call."""

from __future__ import annotations

import pytest

import csp
from csp.problems import queens


def queens_xc(n: int) -> csp.ExactCover:
    return queens.declare(queens.Queens(n))


def wide_model() -> csp.Model:
    m = csp.Model("wide")
    x, y = m.var("x", range(100)), m.var("y", range(100))
    m.add(x != y)
    return m


@pytest.mark.parametrize("call", [csp.count, csp.solutions])
@pytest.mark.parametrize(("argument", "value", "error"), [
    ("limit", 2.5, TypeError), ("limit", True, TypeError), ("limit", "3", TypeError),
    ("limit", -1, ValueError), ("time_limit", "10", TypeError),
    ("time_limit", float("nan"), ValueError), ("progress", 3, TypeError),
])
def test_arguments_of_the_wrong_type_are_refused(call, argument, value, error):
    with pytest.raises(error, match=argument):
        call(queens_xc(5), **{argument: value})


def test_count_takes_a_limit():
    result = csp.count(queens_xc(8), limit=10)
    assert result.count == 10 and result.status is csp.Status.SOLUTION_LIMIT
    assert csp.count(queens_xc(8), limit=100).count == 92
    assert csp.count(queens_xc(8), "bitmask", limit=0).count == 0


def test_the_progress_callback_gets_a_snapshot():
    seen = []
    csp.count(queens_xc(15), progress=seen.append, time_limit=1.0)
    assert len(seen) >= 2, "a second of counting spans several progress periods"
    assert len({id(stats) for stats in seen}) == len(seen)
    nodes = [stats.nodes for stats in seen]
    assert nodes == sorted(nodes) and nodes[0] < nodes[-1]  # kept values do not move


def test_auto_falls_back_with_a_note_when_the_default_refuses():
    result = csp.count(wide_model())
    assert result.count == 100 * 99
    assert result.backend != "bitmask" and "bitmask" in result.stats.extra["note"]
    with pytest.raises(csp.InputError, match="'x' has 100 values.*backends that take it"):
        csp.count(wide_model(), "bitmask")  # named: refused, before solving


def test_a_time_limit_counts_from_the_call():
    # Lowering 20 queens for bitmask is part of the work the limit bounds.
    result = csp.count(queens_xc(20), "bitmask", time_limit=0.0)
    assert result.status is csp.Status.TIME_LIMIT and result.count == 0


def test_a_time_limit_holds_while_bitmask_probes_a_large_model():
    # 120 queens lowered for bitmask: 14,400 two-valued variables, whose root
    # probing once ran for 48 s under a 1 s limit; it now pauses between slices.
    import time

    started = time.perf_counter()
    result = csp.count(queens_xc(120), "bitmask", time_limit=1.0)
    assert result.status is csp.Status.TIME_LIMIT
    assert time.perf_counter() - started < 15  # lowering and building included
