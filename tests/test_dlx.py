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
from csp.backends.dlx.cells import CellsSearch
from csp.problems import queens

SEARCHES = [pytest.param(CellsSearch, id="cells"), pytest.param(DLXSearch, id="links")]
"""The two engines of `dlx`: each test run with the search class it names."""


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
    # The example of docs/developing/problems.md section 1 has one solution.
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


@pytest.mark.parametrize("engine", SEARCHES)
@settings(max_examples=150, deadline=None)
@given(xc=exact_covers())
def test_random_coloured_problems_match_brute_force(engine, xc):
    search = engine(xc)
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


@pytest.mark.parametrize("engine", SEARCHES)
def test_sanity_holds_without_items(engine):
    # No item: one solution (the empty cover), and a structure with no segment.
    search = engine(ExactCover([]))
    assert search.count().count == 1
    assert search.sanity() == []


@pytest.mark.parametrize("engine", SEARCHES)
def test_sanity_holds_in_the_middle_of_a_search(engine):
    search = engine(ExactCover.from_text(queens_text(9)))
    for _ in itertools.islice(search, 10):
        assert search.sanity() == []


@pytest.mark.parametrize("engine", SEARCHES)
def test_limit_and_resume(engine):
    xc = ExactCover.from_text(queens_text(8))
    backend = DLXBackend("cells" if engine is CellsSearch else "links")
    search = backend.solutions(xc, limit=5)
    first_five = list(search)
    assert len(first_five) == 5
    assert search.status is Status.SOLUTION_LIMIT
    everything = list(backend.solutions(xc))
    assert everything[:5] == first_five
    # a search resumes where it stopped: iterate part, then count the rest
    partial = engine(xc)
    taken = list(itertools.islice(partial, 30))
    assert taken == everything[:30]
    assert partial.count().count == 92
    assert backend.solutions(xc, limit=1).result().solution == everything[0]
    assert csp.solutions(xc, limit=0).result().count == 0


@pytest.mark.parametrize("engine", SEARCHES)
def test_interrupt_keeps_what_was_found(monkeypatch, engine):
    xc = ExactCover.from_text(queens_text(12))
    search = engine(xc)
    calls = 0
    real = search._advance

    def interrupted(count_only, budget):
        nonlocal calls
        calls += 1
        if calls == 6:  # after a few thousand nodes: solutions were found
            raise KeyboardInterrupt
        return real(count_only, min(budget, 2000))

    monkeypatch.setattr(search, "_advance", interrupted)
    result = search.count()
    assert result.status is Status.INTERRUPTED
    assert result.count > 0


@pytest.mark.parametrize("engine", SEARCHES)
def test_subproblems_partition_the_count(engine):
    xc = ExactCover.from_text(queens_text(8))
    splitter = engine(xc)
    splitter.split(2)
    prefixes = list(splitter)
    assert splitter.status is Status.COMPLETE
    total = 0
    for prefix in prefixes:
        sub = engine(xc)
        assert sub.choose(prefix)
        total += sub.count().count
    assert total == 92
    incompatible = engine(xc)
    assert not incompatible.choose([0, 1])  # two queens on row 0
    assert incompatible.count().count == 0


def test_the_engines_find_the_same_solutions():
    xc = ExactCover.from_text(queens_text(8))
    cells, links = (list(DLXBackend(engine).solutions(xc)) for engine in ("cells", "links"))
    assert len(cells) == 92 and sorted(cells) == sorted(links)
    with pytest.raises(ValueError, match="unknown dlx engine 'nope'; the engines are "
                                         "cells, cells-numba, links"):
        DLXBackend("nope")


def test_nodes_are_counted_as_knuth_counts_them():
    # Knuth's SSXCC counts the levels it enters: the root, then every choice
    # that leaves each primary item an option. Here both options of `a` empty
    # an item at once, so the root is the only node; dancing links (as kernel,
    # counting the options it tries) counts two.
    dead = ExactCover.from_text("a b c\na b\na c\nb c\n")
    assert (CellsSearch(dead).count().stats.nodes, DLXSearch(dead).count().stats.nodes) == (1, 2)
    # root; a forced (x:0 then leaves c one option); c forced; the solution at level 2
    tiny = ExactCover.from_text("a b c | x\na x:0\nb x:0\nc x:1\nb c\n")
    result = CellsSearch(tiny).count()
    assert (result.count, result.stats.nodes) == (1, 3)


def test_the_stack_of_saved_sizes_grows_on_demand():
    xc = ExactCover.from_text(queens_text(8))
    search = CellsSearch(xc)
    search.stack = np.zeros(2, dtype=np.int32)
    result = search.count()
    assert result.count == 92 and len(search.stack) > 2
    assert result.stats.nodes == CellsSearch(xc).count().stats.nodes


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
