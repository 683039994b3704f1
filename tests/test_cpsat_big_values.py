"""CP-SAT over values past 2**31: tables are given to it over ranks, so that
its int32 presolve arithmetic (wrong counts marked COMPLETE, or an abort) is
never reached; the counts match bitmask and brute force."""

from __future__ import annotations

import itertools

import pytest

import csp
from csp import AllDifferent, Model, Relation, Sum, Table

pytest.importorskip("ortools")

from csp.backends import cpsat  # noqa: E402

BIG = [2**31, 2**40, 2**61]


def _brute_force(m: Model) -> int:
    names = list(m.variables)
    return sum(m.is_solution(dict(zip(names, values)))
               for values in itertools.product(*(m.variables[x].domain for x in names)))


def _model(big: int) -> Model:
    m = Model()
    x = m.var("x", [0, 1, big, big + 1])
    y = m.var("y", [0, 1, 2, big])
    z = m.var("z", [1, 2, big, -big])
    m.add(Table([x, y], [(big, 1), (0, big), (1, 2), (big + 1, big), (7, 7)]))
    m.add(Table([y, z], [(big, big), (1, 1)], forbidden=True))
    m.add(AllDifferent([x, z]))
    m.add(Relation([x, z], lambda a, b: a != b + 1))
    m.add(z != big + 5)  # a constant no variable takes
    return m


@pytest.mark.parametrize("big", BIG)
def test_tables_with_big_values_count_right(big: int) -> None:
    m = _model(big)
    expected = _brute_force(m)
    assert expected > 0
    assert csp.count(m, backend="bitmask").count == expected
    result = csp.count(m, backend="cpsat")
    assert (result.count, result.status.value) == (expected, "COMPLETE")
    found = list(csp.solutions(m, backend="cpsat"))
    assert len(found) == expected and all(m.is_solution(s) for s in found)
    assert len({tuple(sorted(s.items())) for s in found}) == expected


@pytest.mark.parametrize("big", BIG[:2])
def test_linear_constraints_keep_their_values_in_rank_mode(big: int) -> None:
    m = _model(big)
    x, y = m.variables["x"], m.variables["y"]
    m.add(Sum([x, y]) >= big)
    m.add(x == big + 7)  # impossible: a constant no variable takes
    assert csp.count(m, backend="cpsat").count == _brute_force(m) == 0
    m = _model(big)
    m.add(Sum([m.variables["x"], m.variables["y"]]) >= big)
    assert csp.count(m, backend="cpsat").count == _brute_force(m) > 0


def test_cpsat_never_sees_a_table_value_past_int32() -> None:
    proto = cpsat.compile_problem(_model(2**40)).model.proto
    tables = [c.table for c in proto.constraints if c.has_table()]
    assert len(tables) == 3  # two Tables and the Relation
    assert all(abs(v) <= cpsat.RANK_ABOVE for table in tables for v in table.values)
