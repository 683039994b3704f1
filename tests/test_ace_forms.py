"""Models ACE 2.6 stopped on, or counted wrong, as the XCSP3 writer said
them, before the writer's `fold` (issue 24; `csp fuzz` with ace, seeds 501
502, 503 and 2424): each now runs on ACE and agrees with brute force and with `sat`.

Each is the instance the fuzz shrank to, or the one it generated; the
comment says what ACE did with the old form. Each test skips, with the
reason, where ACE (pycsp3's jar and a Java runtime) is absent.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import csp
from csp import (
    AllEqual,
    Count,
    Div,
    GlobalCardinality,
    Inverse,
    LexLess,
    LexLessEq,
    Maximum,
    Minimum,
    Model,
    NValue,
    Sum,
    Table,
    backends,
)
from csp.io import xcsp3
from csp.testing import brute_force, normal


def _lex_of_itself() -> Model:  # "ClassCastException" (strict), "ERROR" (not)
    m = Model()
    x, y = m.var("x", [0, 1, 2]), m.var("y", [0, 1])
    m.add(LexLess([x], [x]) | LexLessEq([y, x], [y, x]))
    m.add(LexLessEq([x], [x]))
    return m


def _lex_with_a_common_place() -> Model:  # "! ERROR"
    m = Model()
    v0, v1 = m.var("x0", [-1, 0]), m.var("x1", [2, 3, 4])
    v2, v3 = m.var("v2", [-2, -1, 1, 3]), m.var("x3", [0, 1, 2, 4])
    m.add(LexLess([v3, v1, v0], [v3, v1, v2]))
    return m


def _tables_with_no_support() -> Model:  # "Constraint with only conflicts"
    m = Model()
    x, y = m.var("x", [0, 1, 2]), m.var("y", [1, 2])
    m.add(Table([x], []) | Table([x, y], [(0, 1), (0, 2)], forbidden=True))
    m.add(Table([y], [(1,), (2,)], forbidden=True) | (x != 1))
    return m


def _decided_by_domains() -> Model:  # "only conflicts", "ERROR", "NullPointerException"
    m = Model()
    x, y, z = m.var("x", [6, 7]), m.var("y", [1, 2, 5]), m.var("z", [-1, 4])
    m.add(AllEqual([x]))
    m.add((abs(x) == -1) | (y != 2))
    m.add(GlobalCardinality([y, z], [5, 4, 1], [z, 0, 0]) | (y != 5))
    return m


def _count_of_no_reachable_variable() -> Model:  # "Count is posted with an empty scope"
    m = Model()
    x, y = m.var("x", [0, 1, 2]), m.var("y", [1, 2, 3, 5])
    m.add(Count([y], 0) != x)
    return m


def _channel_over_different_domains() -> Model:  # "pb with c-1(...)"
    m = Model()
    f = [m.var("f0", [0, 1]), m.var("f1", [0])]
    g = [m.var("g0", [1]), m.var("g1", [0, 1])]
    m.add(Inverse(f, g))
    n = Model()
    f = [n.var("a", [0, 1, 2]), n.var("b", [0, 2]), n.var("c", [1, 2])]
    g = [n.var("d", [0, 2]), n.var("e", [0, 1, 2]), n.var("h", [0, 1, 2])]
    n.add(Inverse(f, g))
    return n


def _products_with_negative_factors() -> Model:  # 4 solutions, not 1; "ERROR" with z
    m = Model()
    a, b = m.var("a", [3, 4]), m.var("b", [-2, -1])
    z = m.var("z", [-4, -3, 1])
    m.add(a * b >= -3)
    m.add(a * b != z)
    return m


def _minimum_out_of_reach() -> Model:  # "unsound sentinels"
    m = Model()
    a, b = m.var("a", [2, 3, 4, 5, 6]), m.var("b", [-3, -2, -1, 0])
    m.add(Minimum([b, a]) <= -2)
    return m


def _minimum_equal_to_one_of_its_own() -> Model:  # "Problem" (Problem.java:1436)
    m = Model()
    x, y = m.var("x", [3, 4]), m.var("y", [2, 3, 4, 5])
    m.add(Minimum([y, x]) == x)
    return m


def _floor_division_of_itself() -> Model:  # "! ERROR: 2 vs 3"
    m = Model()
    x, y = m.var("x", [2, 4]), m.var("y", [-1, 2])
    m.add(Div(y, x) == y)
    return m


def _counts_ace_stops_on() -> Model:  # "Problem" (a count of one, with (ne, 0)), "ERROR"
    m = Model()
    a, b = m.var("a", [1, 2]), m.var("b", [3, 4])
    m.add(Count([a, b], 1) != 0)
    x, y = m.var("x", [2, 4]), m.var("y", [-2, 1, 2])
    m.add(Count([x, y], x) != y)
    return m


def _cardinalities_of_values_out_of_reach() -> Model:  # "Problem", NullPointerException
    m = Model()
    a, b = m.var("a", [1, 3]), m.var("b", [0, 2, 5])
    m.add(GlobalCardinality([b, a], [2], [0]))
    x, y = m.var("x", [-2, 0, 1, 3]), m.var("y", [0, 4, 5])
    m.add(GlobalCardinality([x, y], [5, -2], [y, 0]))
    return m


def _cardinality_counted_by_its_own_variable() -> Model:  # "! ERROR: 3 vs 4"
    m = Model()
    x, y, z = m.var("x", [-3, -2, -1, 0, 2]), m.var("y", [0, 1, 2]), m.var("z", [-2, 0, 1])
    m.add(GlobalCardinality([y, z, x], [0], [x]))
    return m


def _maximum_of_one() -> Model:  # 3 solutions, not 1 (once the writer's own slip)
    m = Model()
    x, y = m.var("x", [0, 2]), m.var("y", [-3, 0, 2])
    m.add(Maximum([y]) > x)
    return m


def _table_allowing_nothing() -> Model:  # "Constraint with only conflicts"
    m = Model()
    k = m.var("k", [-2])
    f = [m.var(f"f{i}", [0, 1, 2]) for i in range(3)]
    g = [m.var("g0", [0, 1]), m.var("g1", [0, 1, 2]), m.var("g2", [0, 1, 2])]
    m.add(Sum([Inverse(f, g), k], [-2, 1]) == 0)
    return m


def _tree_repeating_a_variable() -> Model:  # "! ERROR: 2 vs 3"
    m = Model()
    x, y = m.var("x", [2, 4]), m.var("y", [-1, 0, 1])
    m.add(NValue([y, x]) == x)
    return m


CASES: dict[str, Callable[[], Model]] = {
    f.__name__.lstrip("_"): f for f in (
        _lex_of_itself, _lex_with_a_common_place, _tables_with_no_support,
        _decided_by_domains, _count_of_no_reachable_variable,
        _channel_over_different_domains, _products_with_negative_factors,
        _minimum_out_of_reach, _minimum_equal_to_one_of_its_own, _floor_division_of_itself,
        _counts_ace_stops_on, _cardinalities_of_values_out_of_reach,
        _cardinality_counted_by_its_own_variable, _maximum_of_one,
        _table_allowing_nothing, _tree_repeating_a_variable)}


@pytest.mark.parametrize("case", CASES)
def test_ace_takes_it_and_agrees(case: str) -> None:
    if "ace" not in backends.available():
        pytest.skip(backends.missing().get("ace", "backend 'ace' is not available"))
    m = CASES[case]()
    expected = brute_force(m)
    found = list(csp.solutions(m, "ace", time_limit=60))
    assert {normal(s) for s in found} == expected and len(found) == len(expected)
    assert csp.count(m, "sat").count == len(expected)


def test_fold_keeps_the_solutions_and_says_degenerate_forms_simply() -> None:
    m = _lex_of_itself()
    text = xcsp3.format(m, fold=True)
    assert "<lex>" not in text and "<allEqual>" not in text
    assert xcsp3.format(m).count("<lex>") == 1  # without fold, as declared
