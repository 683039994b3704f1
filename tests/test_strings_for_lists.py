"""A string where a list is expected is refused, not iterated character by character."""

from __future__ import annotations

import pytest

import csp
from csp import AllDifferent, ExactCover, InputError, Model, Relation, Sum, Table


def _model() -> Model:
    m = Model()
    m.vars(["x", "y"], range(3))
    return m


@pytest.mark.parametrize("build", [
    lambda: ExactCover(primary="abc"),
    lambda: ExactCover(primary=["a"], secondary="xy"),
    lambda: ExactCover(primary=["a", "b", "ab"]).add_option("ab"),
    lambda: AllDifferent("xy"),
    lambda: Table("xy", [(0, 1)]),
    lambda: Relation("xy", lambda a, b: a < b),
    lambda: Sum("xy") == 1,
], ids=["primary", "secondary", "option", "alldifferent", "table", "relation", "sum"])
def test_a_string_for_a_list_is_refused(build) -> None:
    with pytest.raises(InputError, match="pass a list"):
        build()


def test_lists_still_work() -> None:
    xc = ExactCover(primary=["ab", "a", "b"])
    assert xc.add_option(["ab"]) == 0
    m = _model()
    m.add(AllDifferent(["x", "y"]))
    assert csp.count(m).count == 6
