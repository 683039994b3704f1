"""A Model's solution is keyed by variable name and also takes the Variable itself,
on every backend, native or lowered."""

from __future__ import annotations

import pickle

import csp
from csp import AllDifferent, Model
from csp.model import Assignment


def _model() -> tuple[Model, list]:
    m = Model()
    xs = [m.var(name, range(1, 4)) for name in ("a", "b", "c")]
    m.add(AllDifferent(xs))
    m.add(xs[0] == 2)
    return m, xs


def test_a_solution_takes_the_variable_as_a_key(csp_backend: str) -> None:
    m, (a, b, c) = _model()
    found = list(csp.solutions(m, backend=csp_backend))
    assert sorted(s["b"] for s in found) == [1, 3]
    for solution in found:
        assert solution[a] == solution["a"] == 2
        assert solution.get(b) == solution["b"] and b in solution
        assert {solution[b], solution[c]} == {1, 3}
        assert solution == dict(solution) and isinstance(solution, dict)
    assert csp.solve(m, backend=csp_backend).solution[a] == 2


def test_an_assignment_is_a_plain_dict_otherwise() -> None:
    m, (a, _, _) = _model()
    solution = Assignment({"a": 2, "b": 1, "c": 3})
    assert solution == {"a": 2, "b": 1, "c": 3} and {"a": 2, "b": 1, "c": 3} == solution
    assert list(solution) == ["a", "b", "c"]
    assert pickle.loads(pickle.dumps(solution)) == solution
    assert solution.get("z") is None and "z" not in solution
    other = Model().var("a", [2])  # another model's variable named a: looked up by name
    assert solution[other] == 2
    assert m.is_solution(solution)
