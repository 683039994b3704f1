"""`<`, `<=`, `>`, `>=` between variables and ints, and linear expressions
(`x + 2*y - z == 5`), on every backend."""

from __future__ import annotations

import itertools

import pytest
from budget import witnesses

import csp
from csp import AllDifferent, InputError, Linear, Model
from csp.constraints import Expression


def _brute_force(m: Model) -> int:
    names = list(m.variables)
    return sum(m.is_solution(dict(zip(names, values)))
               for values in itertools.product(*(m.variables[x].domain for x in names)))


def futoshiki() -> Model:
    """A 4x4 Latin square with inequalities between neighbours and a sum."""
    m = Model("futoshiki")
    cell = {(r, c): m.var((r, c), range(1, 5)) for r in range(4) for c in range(4)}
    for k in range(4):
        m.add(AllDifferent([cell[k, c] for c in range(4)]))
        m.add(AllDifferent([cell[r, k] for r in range(4)]))
    m.add(cell[0, 0] < cell[0, 1])
    m.add(cell[1, 1] > cell[2, 1])
    m.add(cell[2, 2] <= 2)
    m.add(3 <= cell[3, 3])
    m.add(cell[0, 3] >= cell[1, 3])
    m.add(cell[3, 0] + 2 * cell[3, 1] - cell[3, 2] == 7)
    return m


def test_comparisons_build_linear_constraints() -> None:
    m = Model()
    x, y, z = m.vars("xyz", range(5))
    assert repr(x < y) == "Linear(1*x - 1*y <= -1)"
    assert repr(x >= 3) == "Linear(1*x >= 3)"
    assert repr(2 < x) == "Linear(1*x >= 3)"  # Python reflects it into x > 2
    assert repr(x + 2 * y - z == 5) == "Linear(1*x + 2*y - 1*z == 5)"
    assert repr(5 == x + y) == "Linear(1*x + 1*y == 5)"
    assert repr(3 - x >= y) == "Linear(-1*x - 1*y >= -3)"
    assert repr(x + x <= 4) == "Linear(2*x <= 4)"
    assert repr(x == y + 1) == "Linear(1*x - 1*y == 1)"
    assert repr(x + 1 != 3) == "(x != 2)"  # one variable: a Compare
    assert isinstance(m.add(x < y), Linear)


def test_variables_keep_python_semantics() -> None:
    m = Model()
    x, y = m.vars("xy", range(3))
    assert {x: 1, y: 2}[x] == 1 and x in [x, y] and y not in [x] and x in {x}
    assert isinstance(x + 0, Expression)


def test_products_and_not_equal_build_constraints() -> None:
    # Refused before the model language grew (issue 22): now a Comparison
    # and FlatZinc's int_lin_ne.
    m = Model()
    x, y = m.vars("xy", range(3))
    assert repr(x * y == 2) == "(x * y) == 2"
    assert repr(x + y != 3) == "Linear(1*x + 1*y != 3)"


@pytest.mark.parametrize("bad", [
    lambda x, y: x < "y",
    lambda x, y: x * 1.5,
    lambda x, y: x + 1.5,
    lambda x, y: x - x == 0,
    lambda x, y: bool(x + y),
    lambda x, y: {x + y},
])
def test_nonlinear_or_odd_expressions_are_input_errors(bad) -> None:
    m = Model()
    x, y = m.vars("xy", range(3))
    with pytest.raises((InputError, TypeError)):
        bad(x, y)


def test_every_backend_agrees_on_a_futoshiki() -> None:
    m = futoshiki()
    report = csp.crosscheck(m, backends=witnesses(m))
    assert report.agree, str(report)


def test_a_futoshiki_counts_alike_on_every_backend(csp_backend: str) -> None:
    m = futoshiki()
    expected = csp.count(m).count  # on the model's own backend
    assert expected > 0
    assert csp.count(m, backend=csp_backend).count == expected


def test_expressions_against_brute_force(csp_backend: str) -> None:
    m = Model()
    x, y, z = m.vars("xyz", range(-2, 4))
    m.add(x < y)
    m.add(y + z > 1)
    m.add(2 * x - 3 * z + 1 <= y)
    m.add(x != z)
    assert csp.count(m, backend=csp_backend).count == _brute_force(m)
    for solution in csp.solutions(m, backend=csp_backend):
        assert solution[x] < solution[y]
