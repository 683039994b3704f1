"""Bugs `csp fuzz` found in the model language, each as the instance it
shrank to (or one a little larger), on every backend against brute force."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import csp
from csp import AllDifferent, Circuit, Div, Mod, Model, Or, Relation, Sum, backends
from csp.backends.base import Search
from csp.backends.dlx import DLXBackend
from csp.testing import brute_force, normal


def _agrees(m: Model, backend: str) -> None:
    expected = brute_force(m)
    found = list(csp.solutions(m, backend, time_limit=60))
    assert {normal(s) for s in found} == expected and len(found) == len(expected), backend
    assert csp.count(m, backend, time_limit=60).count == len(expected), backend


def test_a_floor_remainder_may_exceed_the_dividend(csp_backend: str) -> None:
    # seed 5, instance 61: cpsat bounded x % d by |x| (and x // d's remainder
    # too), as only a truncated remainder is: -1 // 6 == -1, -1 % 6 == 5.
    m = Model()
    x, d = m.var("x", [-1]), m.var("d", [6])
    m.add(Div(x, d) != -2)
    _agrees(m, csp_backend)
    m = Model()
    x, d, r = m.var("x", range(-3, 2)), m.var("d", [4, 6, -5]), m.var("r", range(-4, 6))
    m.add(Mod(x, d) == r)
    m.add(Mod(x, d, rounding="zero") != Div(x, 2, rounding="zero"))
    _agrees(m, csp_backend)


def test_empty_connectives(csp_backend: str) -> None:
    # seed 24, instance 534: choco crashed on Or([]) (Choco refuses an empty
    # or_, and_ and sum); an empty And holds, an empty Or or Xor does not.
    from csp.logic import And, Iff, Not, Xor

    for make in (lambda x: Or([]), lambda x: And([]), lambda x: Not(Xor([])),
                 lambda x: Or([And([]), Or([])]), lambda x: Iff(Or([]), x == 1),
                 lambda x: Xor([And([]), Xor([]), x == 1])):
        m = Model()
        m.add(make(m.var("x", [0, 1])))
        _agrees(m, csp_backend)


def test_a_floor_remainder_past_the_decomposition_tables() -> None:
    # The same bound in the decomposition's value sets, which only large
    # domain products reach: a remainder inside an expression gets a defined
    # variable over them, which lacked 4998 (-1 % 4999). sat counted 0; it now
    # refuses the table the true values need, and cpsat counts.
    m = Model()
    x, y, z = m.var("x", range(-3, 4)), m.var("y", range(1, 20_000)), m.var("z", [0, 1])
    m.add(Mod(x, y) + z == 4999)
    expected = sum(1 for a in range(-3, 4) for b in range(1, 20_000) for c in (0, 1)
                   if a % b + c == 4999)
    assert expected == 6
    assert csp.count(m, "cpsat", time_limit=120).count == expected
    with pytest.raises(csp.errors.Refused, match="too large to decompose"):
        csp.count(m, "sat")


def test_a_relation_inside_logic(csp_backend: str) -> None:
    # seed 5, instance 5: decomposing logic copies its operands, and a copy
    # of a bound Relation rebound its table from a predicate it no longer has.
    m = Model()
    x, y = m.var(0, range(3)), m.var(1, range(3))
    m.add(Or([Relation([x, y], lambda a, b: a < b), x == 2]))
    m.add(Sum([Relation([y], lambda b: b != 1), x == 0]) >= 1)
    _agrees(m, csp_backend)


def test_a_sum_of_constraints_that_are_not_literals(csp_backend: str) -> None:
    # seed 5, instance 2: cpsat took `Sum([AllDifferent, ...])` as it was and
    # found no literal for the all-different: dispatch now takes a
    # comparison only if what it counts 0/1 are literals the backend takes.
    m = Model()
    xs = [m.var(("v", i), range(2)) for i in range(3)]
    m.add(Sum([AllDifferent(xs[:2]), xs[2] == 1, abs(xs[0] - 1) == 0]) >= 2)
    _agrees(m, csp_backend)


def test_a_circuit_whose_nodes_can_only_loop(csp_backend: str) -> None:
    # seed 5, instance 297: cpsat gave add_circuit no arc.
    m = Model()
    m.add(Circuit([m.var(0, [0]), m.var(1, [1])]))
    _agrees(m, csp_backend)


class CountsOneTwice(DLXBackend):
    """Dancing links that returns its first solution twice."""

    name: ClassVar[str] = "counts-one-twice"

    def solutions(self, problem: Any, **limits: Any) -> Search:
        inner = super().solutions(problem, **limits)
        return _Twice(inner)


class _Twice(Search):
    def __init__(self, inner: Search) -> None:
        super().__init__()
        self.inner, self.stats, self.first = inner, inner.stats, None

    def __next__(self) -> Any:
        if self.first is not None and self.first is not False:
            solution, self.first = self.first, False
            return solution
        try:
            solution = next(self.inner)
        except StopIteration:
            self.status = self.inner.status
            raise
        if self.first is None:
            self.first = solution
        return solution


@pytest.mark.parametrize("bug", ["invalid", "twice"])
def test_a_run_with_bad_solutions_does_not_set_the_count(bug: str) -> None:
    # Fuzzing a backend that read Xor as Or against python-constraint blamed
    # both: the wrong run's count (an invalid solution included) was taken
    # as the count the right one missed.
    from buggy_backends import XorAsOr

    m = Model()
    a, b = m.bool(2), m.bool(3)
    m.add(a ^ b)
    wrong = XorAsOr if bug == "invalid" else CountsOneTwice
    backends.register(wrong)
    try:
        report = csp.crosscheck(m, backends=[wrong.name, "python-constraint"])
    finally:
        backends.unregister(wrong.name)
    verdicts = {run.backend: run.verdict for run in report.runs}
    assert verdicts == {wrong.name: "disagree", "python-constraint": "agree"}, str(report)


def test_a_variable_only_a_zero_coefficient_mentions(csp_backend: str) -> None:
    # The XCSP3 writer leaves out 0*x (ACE stops on it), and ACE leaves out a
    # variable no written constraint names: ace counted 2 here, not 6, until
    # it multiplied in the variables the written file does not mention.
    from csp.constraints import Linear

    for op in ("==", "<="):
        m = Model()
        m.var("x", [0, 1, 2])
        y, z = m.var("y", [1, 2]), m.var("z", [1, 2])
        m.add(Linear(["x"], [0], op, 0))
        m.add(y != z)
        _agrees(m, csp_backend)
        lone = Model()
        lone.var("a", [0, 1, 2])
        lone.add(Linear(["a"], [0], op, 0))
        _agrees(lone, csp_backend)


def test_a_constraint_over_no_variable_is_a_constant(csp_backend: str) -> None:
    # seed 2425, instance 783: `Element([3, 3], 1) <= 2` reaches a backend as a
    # table over no variable, allowing nothing. Gecode took the FlatZinc table
    # over no variable as true (1 solution, not 0); CP-SAT and Choco crashed
    # on such tables, and python-constraint failed the one that holds.
    from csp import Element, Table

    for constant in (lambda: Element([3, 3], 1) <= 2, lambda: Element([3, 3], 1) <= 3,
                     lambda: Table([], []), lambda: Table([], [()]),
                     lambda: Table([], [], forbidden=True),
                     lambda: Table([], [()], forbidden=True)):
        m = Model()
        m.var("x", [1, 2])
        m.add(constant())
        _agrees(m, csp_backend)
