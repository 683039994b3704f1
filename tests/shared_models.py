"""Models more than one test file declares, written once (the backend
contract's own reference models, `csp.testing`)."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from csp import AllDifferent, Model
from csp.testing import queens_model

__all__ = ["brute_force", "overlapping_all_differents", "queens_model"]


def brute_force(m: Model) -> set[tuple]:
    """Every solution of a small model, by trying every assignment."""
    names = list(m.variables)
    domains = [m.variables[v].domain for v in names]
    return {
        values for values in itertools.product(*domains)
        if not m.check(dict(zip(names, values)))
    }


@st.composite
def overlapping_all_differents(draw) -> Model:
    """Small models of all-differents that overlap, as a sudoku's units do: some
    are permutations (as many values as variables, so the row/box intersection
    reasoning applies), some have spare values (free values in the matching);
    domains have gaps and negative values, and some variables are given."""
    n = draw(st.integers(3, 7))
    values = draw(st.lists(st.integers(-3, 6), min_size=3, max_size=6, unique=True))
    m = Model()
    xs = []
    for i in range(n):
        domain = draw(st.sets(st.sampled_from(values), min_size=1, max_size=len(values)))
        xs.append(m.var(i, domain))
    for _ in range(draw(st.integers(1, 4))):
        scope = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=min(n, 5),
                              unique=True))
        m.add(AllDifferent([xs[i] for i in scope]))
    return m

