"""Edge cases of declaring and checking: partial assignments, empty domains,
tuple names in Knuth's format, empty problems."""

from __future__ import annotations

import pytest

import csp
from csp import ExactCover, InputError, Model


def test_check_of_a_partial_assignment_names_the_missing_variables() -> None:
    m = Model()
    x, y, z = m.vars(["x", "y", "z"], range(3))
    m.add(x != y)
    with pytest.raises(InputError, match=r"no value to 2 variables: 'y', 'z'"):
        m.check({"x": 1})
    assert m.check({"x": 1, "y": 1, "z": 0}) == [m.constraints[0]]
    assert m.problems({"x": 1}) == ["variable 'y' has no value", "variable 'z' has no value"]


def test_an_empty_domain_means_no_solution(csp_backend: str) -> None:
    # Kept on purpose (tests of every backend rely on it): unsolvable, not malformed.
    m = Model()
    m.var("x", range(3))
    m.var("empty", [])
    result = csp.count(m, backend=csp_backend)
    assert (result.count, result.status.value) == (0, "COMPLETE")


def test_tuple_names_are_written_so_that_they_read_back() -> None:
    xc = ExactCover([("r", 1), ("r", 2), ("c", 1)], [("cell", 1, 2)])
    xc.add_option([("r", 1), ("c", 1), (("cell", 1, 2), ("v", 3))])
    xc.add_option([("r", 2)])
    xc.add_option([("r", 1), (("cell", 1, 2), ("v", 3))])
    xc.add_option([("c", 1)])
    text = xc.to_text()
    back = ExactCover.from_text(text)
    assert back.to_text() == text
    assert back.primary == ["r,1", "r,2", "c,1"] and back.secondary == ["cell,1,2"]
    assert sorted(csp.solutions(back)) == sorted(csp.solutions(xc)) == [(0, 1), (1, 2, 3)]


@pytest.mark.parametrize("items, match", [
    ((["a,1", ("a", 1)]), "would both be written 'a,1'"),
    ((["1", 1]), "would both be written '1'"),
    (([("a b", 1)]), "cannot be written"),
])
def test_names_that_cannot_read_back_are_refused(items, match) -> None:
    with pytest.raises(InputError, match=match):
        ExactCover(items).to_text()


def test_colours_written_alike_are_refused() -> None:
    xc = ExactCover(["a", "b"], ["x"])
    xc.add_option(["a", ("x", 1)])
    xc.add_option(["b", ("x", "1")])
    with pytest.raises(InputError, match="colours 1 and '1'"):
        xc.to_text()


def test_a_problem_without_primary_items_is_refused_by_the_writer() -> None:
    with pytest.raises(InputError, match="at least one primary item"):
        ExactCover([], ["x"]).to_text()


def test_empty_model_and_empty_exact_cover_have_one_empty_solution(csp_backend: str) -> None:
    for problem, empty in ((Model(), {}), (ExactCover(), ())):
        result = csp.count(problem, backend=csp_backend)
        assert (result.count, result.status.value) == (1, "COMPLETE"), problem
        assert list(csp.solutions(problem, backend=csp_backend)) == [empty]
    assert ExactCover().check(()) == [] and Model().check({}) == []
