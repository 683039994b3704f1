"""The dlx backend (Algorithm C): counts on real data, colours, laziness, limits."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp
from csp import ExactCover, Status
from csp.backends.dlx import DLXBackend, DLXSearch
from csp.problems import queens


def queens_text(n: int) -> str:
    """N queens in Knuth's format (so that the text reader is exercised too)."""
    return queens.declare(queens.Queens(n)).to_text()


def test_queens_counts_match_oeis(shared_data):
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    for row in rows:
        result = csp.count(ExactCover.from_text(queens_text(row["n"])), "dlx")
        assert (row["n"], result.count) == (row["n"], row["solutions"])
        assert result.status is Status.COMPLETE
        assert result.stats.solutions == row["solutions"]


def test_colours_change_the_count():
    # The example of docs/PROBLEMS.md section 1 has one solution.
    tiny = ExactCover.from_text((csp_examples() / "tiny.xc").read_text())
    assert list(csp.solutions(tiny)) == [(2, 3)]
    # Options that agree on the colour of x may share it; without colours they clash.
    text = "a b c | x y\na x:red\nb x:red y:0\nc y:1\nb c\nc y:0\na b x:blue\n"
    coloured = ExactCover.from_text(text)
    plain = ExactCover.from_text(text.replace(":red", "").replace(":blue", "")
                                 .replace(":0", "").replace(":1", ""))
    assert sorted(csp.solutions(coloured)) == [(0, 1, 4), (0, 3), (2, 5), (4, 5)] \
        == sorted(brute_force(coloured))
    assert sorted(csp.solutions(plain)) == [(0, 3), (2, 5), (4, 5)] == sorted(brute_force(plain))


def brute_force(xc: ExactCover) -> set[tuple[int, ...]]:
    return {
        chosen
        for size in range(xc.n_options + 1)
        for chosen in itertools.combinations(range(xc.n_options), size)
        if not xc.check(chosen)
    }


@st.composite
def exact_covers(draw) -> ExactCover:
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 3))
    xc = ExactCover([f"p{i}" for i in range(n_primary)], [f"s{i}" for i in range(n_secondary)])
    for _ in range(draw(st.integers(0, 10))):
        primary = draw(st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=n_primary))
        secondary = draw(st.sets(st.integers(0, n_secondary - 1), max_size=n_secondary)) \
            if n_secondary else set()
        items: list = [f"p{i}" for i in sorted(primary)]
        for i in sorted(secondary):
            colour = draw(st.sampled_from([None, "red", "blue"]))
            items.append(f"s{i}" if colour is None else (f"s{i}", colour))
        xc.add_option(items)
    return xc


@settings(max_examples=150, deadline=None)
@given(exact_covers())
def test_random_coloured_problems_match_brute_force(xc):
    search = DLXSearch(xc)
    found = list(search)
    assert len(found) == len(set(found))
    assert set(found) == brute_force(xc)
    assert search.status is Status.COMPLETE
    assert search.sanity() == []
    assert csp.count(xc, "dlx").count == len(found)


def test_links_are_restored_after_a_complete_search():
    xc = ExactCover.from_text(queens_text(7))
    search = DLXSearch(xc)
    pristine = search.links.copy()
    assert search.count().count == 40
    assert np.array_equal(search.links.node, pristine.node)
    assert np.array_equal(search.links.rlink, pristine.rlink)
    assert np.array_equal(search.links.llink, pristine.llink)


def test_sanity_holds_in_the_middle_of_a_search():
    search = DLXSearch(ExactCover.from_text(queens_text(9)))
    for _ in itertools.islice(search, 10):
        assert search.sanity() == []


def test_limit_and_resume():
    xc = ExactCover.from_text(queens_text(8))
    search = csp.solutions(xc, limit=5)
    first_five = list(search)
    assert len(first_five) == 5
    assert search.status is Status.SOLUTION_LIMIT
    everything = list(csp.solutions(xc))
    assert everything[:5] == first_five
    # a search resumes where it stopped: iterate part, then count the rest
    partial = DLXSearch(xc)
    taken = list(itertools.islice(partial, 30))
    assert taken == everything[:30]
    assert partial.count().count == 92
    assert csp.solve(xc).solution == everything[0]
    assert csp.solutions(xc, limit=0).result().count == 0


def test_interrupt_keeps_what_was_found(monkeypatch):
    xc = ExactCover.from_text(queens_text(12))
    search = DLXSearch(xc)
    calls = 0
    real = search._advance

    def interrupted(count_only, budget):
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(count_only, min(budget, 2000))

    monkeypatch.setattr(search, "_advance", interrupted)
    result = search.count()
    assert result.status is Status.INTERRUPTED
    assert result.count > 0


def test_subproblems_partition_the_count():
    xc = ExactCover.from_text(queens_text(8))
    splitter = DLXSearch(xc)
    splitter.split(2)
    prefixes = list(splitter)
    assert splitter.status is Status.COMPLETE
    total = 0
    for prefix in prefixes:
        sub = DLXSearch(xc)
        assert sub.choose(prefix)
        total += sub.count().count
    assert total == 92
    incompatible = DLXSearch(xc)
    assert not incompatible.choose([0, 1])  # two queens on row 0
    assert incompatible.count().count == 0


def test_backend_protocol_and_registry():
    backend = csp.backends.get("dlx")
    assert isinstance(backend, csp.backends.base.Backend)
    assert isinstance(backend, DLXBackend)
    assert csp.backends.default_for(ExactCover(["a"])) == "dlx"
    with pytest.raises(csp.BackendUnavailable, match="unknown backend 'nope'"):
        csp.count(ExactCover(["a"]), "nope")


def csp_examples():
    from pathlib import Path

    return Path(__file__).resolve().parents[1] / "examples"
