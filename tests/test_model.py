"""Declaring a `Model`: variables, constraints, the errors for bad declarations,
and the pure-Python checker every backend is judged by."""

from __future__ import annotations

import pytest

from csp import AllDifferent, Compare, InputError, Linear, Model, Relation, Sum, Table
from csp.constraints import MAX_RELATION_TUPLES


def test_variables_and_domains() -> None:
    m = Model("demo")
    x = m.var("x", [3, 1, 2, 3])
    assert x.domain == (1, 2, 3)
    assert m.var("e", []).domain == ()
    assert m.var(("cell", 0), range(-2, 1)).domain == (-2, -1, 0)
    assert list(m.variables) == ["x", "e", ("cell", 0)]
    assert m.domain("x") == (1, 2, 3)
    assert repr(m) == "<Model 'demo': 3 variables, 0 constraints>"
    ys = m.vars(["a", "b"], range(2))
    assert [y.domain for y in ys] == [(0, 1), (0, 1)]


@pytest.mark.parametrize("domain", [[1, 2.5], ["1"], [True], 7])
def test_non_integer_domain_is_refused(domain) -> None:
    m = Model()
    with pytest.raises(InputError, match="'x'"):
        m.var("x", domain)


def test_duplicate_and_unhashable_names() -> None:
    m = Model()
    m.var("x", [1])
    with pytest.raises(InputError, match="duplicate variable 'x'"):
        m.var("x", [2])
    with pytest.raises(InputError, match="not hashable"):
        m.var(["x"], [1])


def test_constraint_over_another_models_variable() -> None:
    m, other = Model(), Model()
    x = m.var("x", [1, 2])
    y = other.var("y", [1, 2])
    with pytest.raises(InputError, match="AllDifferent.*'y' belongs to another model"):
        m.add(AllDifferent([x, y]))
    # Same name, other model: still refused.
    z = other.var("x", [1, 2])
    with pytest.raises(InputError, match="another model"):
        m.add(x != z)


def test_unknown_variable_name() -> None:
    m = Model()
    m.var("x", [1, 2])
    with pytest.raises(InputError, match=r"Linear\(1\*x \+ 1\*nope == 3\): unknown var"):
        m.add(Sum(["x", "nope"]) == 3)
    with pytest.raises(InputError, match="unknown variable"):
        m.add(Table(["x", ["unhashable"]], [(1, 1)]))


def test_repeated_variable() -> None:
    m = Model()
    x, y = m.var("x", [1, 2]), m.var("y", [1, 2])
    with pytest.raises(InputError, match="'x' appears twice in AllDifferent"):
        m.add(AllDifferent([x, y, x]))
    with pytest.raises(InputError, match="'y' appears twice"):
        m.add(Sum([y, "y"]) == 2)
    with pytest.raises(InputError, match="appears twice"):
        m.add(Table([x, x], [(1, 1)]))
    with pytest.raises(InputError, match="with itself"):
        m.add(x == x)


def test_sum_errors() -> None:
    with pytest.raises(InputError, match="a sum over nothing"):
        Sum([]) == 0  # noqa: B015 - the comparison builds the constraint
    with pytest.raises(InputError, match="2 variables but 1 weights"):
        Sum(["a", "b"], weights=[1])
    with pytest.raises(InputError, match="weight"):
        Sum(["a"], weights=[1.5])
    with pytest.raises(InputError, match="right-hand side"):
        Sum(["a"]) == 1.5  # noqa: B015


def test_table_errors() -> None:
    with pytest.raises(InputError, match="has 1 values, the table has 2"):
        Table(["a", "b"], [(1,)])
    with pytest.raises(InputError, match="table value"):
        Table(["a"], [("z",)])


def test_relation_bound() -> None:
    m = Model()
    xs = [m.var(i, range(64)) for i in range(4)]  # 64**4 > the bound
    assert 64**4 > MAX_RELATION_TUPLES
    with pytest.raises(InputError, match="16,777,216 tuples"):
        m.add(Relation(xs, lambda *v: True))
    r = m.add(Relation(xs[:2], lambda a, b: a + b == 3))
    assert r.tuples == ((0, 3), (1, 2), (2, 1), (3, 0))


def test_not_a_constraint() -> None:
    with pytest.raises(InputError, match="not a constraint"):
        Model().add("x == 1")


def test_compare_forms() -> None:
    m = Model()
    x, y = m.var("x", range(3)), m.var("y", range(3))
    c = x == y
    assert isinstance(c, Compare) and c.op == "==" and c.constant is None
    k = x != 2
    assert k.constant == 2 and k.op == "!="
    m.add(c)
    m.add(k)
    assert c.scope == ("x", "y") and k.scope == ("x",)
    # Truth value is identity, so membership tests on variables keep working.
    assert x in [y, x] and x not in [y]
    assert c.describe() == "(x == y)" and k.describe() == "(x != 2)"


def test_checker_on_each_constraint() -> None:
    m = Model()
    a, b, c = m.var("a", range(5)), m.var("b", range(5)), m.var("c", range(-2, 3))
    alldiff = m.add(AllDifferent([a, b]))
    linear = m.add(Sum([a, b, c], weights=[2, -1, 1]) <= 3)
    assert isinstance(linear, Linear) and linear.weights == (2, -1, 1)
    table = m.add(Table([a, c], [(1, -1), (2, 0)]))
    forbid = m.add(Table([b, c], [(0, 0)], forbidden=True))
    rel = m.add(Relation([a, b], lambda x, y: x < y))
    eq = m.add(c != 0)
    good = {"a": 1, "b": 3, "c": -1}
    assert m.check(good) == [] and m.problems(good) == [] and m.is_solution(good)
    bad = {"a": 4, "b": 4, "c": 0}
    assert m.check(bad) == [alldiff, linear, table, rel, eq]
    assert forbid.holds(bad) and not forbid.holds({"b": 0, "c": 0})
    assert m.problems(bad)[0] == "violates AllDifferent(a, b)"
    assert m.problems({"a": 1, "b": 9}) == [
        "'b' = 9 is outside its domain", "variable 'c' has no value"]
    assert m.problems({"a": 1, "b": 3, "c": -1, "z": 0}) == ["unknown variable 'z'"]


def test_table_allowed_within_domains() -> None:
    t = Table(["a", "b"], [(0, 0), (1, 5)])
    assert t.allowed([(0, 1), (0, 1)]) == [(0, 0)]
    f = Table(["a", "b"], [(0, 0)], forbidden=True)
    assert f.allowed([(0, 1), (0,)]) == [(1, 0)]


def test_a_constraint_belongs_to_one_model() -> None:
    m, other = Model(), Model()
    x, y = m.var("x", [1, 2]), m.var("y", [1, 2])
    other.var("x", [1, 2])
    other.var("y", [1, 2])
    c = m.add(AllDifferent([x, y]))
    assert c.model is m
    # Its scope is names by now: the same names in another model must not pass.
    with pytest.raises(InputError, match=r"AllDifferent\(x, y\) already belongs to another"):
        other.add(c)
    with pytest.raises(InputError, match="already in this model"):
        m.add(c)
    assert other.constraints == [] and m.constraints == [c]
    # A constraint that failed to bind is still free to be fixed and added.
    d = Sum(["x", "z"]) == 2
    with pytest.raises(InputError, match="unknown variable 'z'"):
        m.add(d)
    assert d.model is None


@pytest.mark.parametrize("value", [2**70, 2**63, -(2**63) - 1])
def test_domain_values_must_fit_in_int64(value: int) -> None:
    m = Model()
    with pytest.raises(InputError, match=rf"'x'.*{value}.*signed 64-bit"):
        m.var("x", [0, value])
    assert m.var("y", [2**63 - 1, -(2**63)]).domain == (-(2**63), 2**63 - 1)
    with pytest.raises(InputError, match="64-bit"):
        Sum(["y"]) <= 2**64  # noqa: B015 - the comparison builds the constraint
    with pytest.raises(InputError, match="64-bit"):
        Table(["y"], [(2**64,)])


def test_sum_comparisons() -> None:
    m = Model()
    xs = m.vars("abc", range(3))
    # Once refused (a silent False before that): now FlatZinc's int_lin_ne.
    differs = m.add(Sum(xs) != 2)
    assert (differs.op, differs.rhs) == ("!=", 2)
    assert differs.holds({"a": 0, "b": 0, "c": 1}) and not differs.holds({"a": 1, "b": 1, "c": 0})
    assert (2 != Sum(xs)).op == "!="
    less, more = m.add(Sum(xs) < 2), m.add(Sum(xs, [1, 2, 3]) > 9)
    assert (less.op, less.rhs, more.op, more.rhs) == ("<=", 1, ">=", 10)
    flipped = 2 < Sum(xs)  # Python turns it into Sum(xs) > 2
    assert (flipped.op, flipped.rhs) == (">=", 3)


@pytest.mark.parametrize("constant", [1.5, True, False])
def test_compare_with_a_constant_that_is_not_an_integer(constant: object) -> None:
    m = Model()
    x = m.var("x", range(3))
    with pytest.raises(InputError, match=rf"the constant {constant!r} is not an integer"):
        m.add(x == constant)
    with pytest.raises(InputError, match="is not an integer"):
        m.add(x != constant)
    # A variable may still be named by a number that is not an int.
    m.var(2.5, range(3))
    assert m.add(x != 2.5).scope == ("x", 2.5)


def test_a_comparison_of_variables_is_no_truth_value():
    import csp

    m = csp.Model()
    x, y = m.var("x", range(3)), m.var("y", range(3))
    with pytest.raises(csp.InputError, match="not a truth value"):
        bool(x < y)
    with pytest.raises(csp.InputError, match="not a truth value"):
        sorted([x, y])
    assert x in [x, y]  # == keeps its identity meaning


def test_check_names_a_value_that_is_no_integer_and_an_unknown_variable():
    import csp

    m = csp.Model()
    a, b = m.var("a", range(3)), m.var("b", range(3))
    m.add(a + 2 * b == 3)
    with pytest.raises(csp.InputError, match="'b' the value 'q', not an integer"):
        m.check({"a": 1, "b": "q"})
    with pytest.raises(csp.InputError, match="names 'zz'"):
        m.check({"a": 1, "b": 1, "zz": 3})
