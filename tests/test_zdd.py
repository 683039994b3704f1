"""The diagram of the solutions (`csp.zdd`, `csp.diagram.ZDD`): its count, its
solutions, exact uniform sampling, Knuth's text format, and its refusals."""

from __future__ import annotations

import collections
import re

import pytest

import csp
from csp import ExactCover, InputError
from csp.bench.tilings import (
    aztec_dominoes,
    aztec_tilings,
    domino_tilings,
    dominoes,
    side_coloured_dominoes,
)
from csp.diagram import ZDD
from csp.errors import Refused
from csp.problems import queens


@pytest.mark.parametrize("branch", ["mrv", "first"])
def test_the_diagram_holds_every_solution_once(branch):
    for xc in (dominoes(4, 5), queens.declare(queens.Queens(6)), side_coloured_dominoes(3, 4),
               ExactCover.from_text("p q | x y\np x:A\np x:B\nq x:A\nq y\n")):
        diagram = csp.zdd(xc, branch=branch)
        listed = list(diagram)
        assert len(listed) == len(set(listed)) == diagram.count()
        assert set(listed) == set(csp.solutions(xc))
        assert all(xc.check(solution) == [] for solution in listed)


def test_the_diagram_counts_past_64_bits():
    diagram = csp.zdd(dominoes(12, 12), branch="first")
    assert diagram.count() == domino_tilings(12, 12)
    assert csp.zdd(aztec_dominoes(7)).count() == aztec_tilings(7)
    assert diagram.stats.extra["memo"] == "on" and len(diagram) > 1000


def test_ranks_walk_to_every_solution_in_order():
    diagram = csp.zdd(dominoes(4, 4))
    ranked = [diagram.solution(r) for r in range(diagram.count())]
    assert sorted(ranked) == sorted(diagram)
    with pytest.raises(IndexError):
        diagram.solution(36)


def test_samples_are_distinct_valid_and_repeatable():
    xc = dominoes(10, 10)
    diagram = csp.zdd(xc)
    drawn = diagram.sample(20, seed=5)
    assert len(set(drawn)) == 20 and drawn == diagram.sample(20, seed=5)
    assert all(xc.check(solution) == [] for solution in drawn)
    assert diagram.sample(20, seed=6) != drawn
    assert sorted(csp.zdd(dominoes(2, 4)).sample(5)) == sorted(csp.solutions(dominoes(2, 4)))


def test_samples_are_uniform():
    # 36 tilings of the 4x4 board, 7,200 draws of one: each tiling about 200
    # times. A chi-square of 35 degrees of freedom exceeds 80 with odds
    # under 1 in 100,000.
    diagram = csp.zdd(dominoes(4, 4))
    seen = collections.Counter(diagram.sample(1, seed=seed)[0] for seed in range(7200))
    assert len(seen) == 36
    chi2 = sum((n - 200) ** 2 / 200 for n in seen.values())
    assert chi2 < 80


def test_bad_sample_sizes_are_clear_errors():
    diagram = csp.zdd(dominoes(2, 3))
    with pytest.raises(InputError, match="4 distinct solutions asked, the diagram has 3"):
        diagram.sample(4)
    with pytest.raises(InputError, match="whole number"):
        diagram.sample(-1)


def test_knuths_text_format_round_trips():
    diagram = csp.zdd(dominoes(6, 6))
    text = diagram.text()
    lines = text.splitlines()
    assert all(re.fullmatch(r"[0-9a-f]+: \(~\d+\?[0-9a-f]+:[0-9a-f]+\)", line) for line in lines)
    assert lines[-1] == f"{len(diagram) + 2:x}: (~0?0:{diagram.root:x})"
    assert ZDD.from_text(text).count() == 6728


def test_dlx6s_output_reads_back():
    # What Knuth's DLX6 (`dlx6 m1`, built from ascherer/cwebtest) writes for
    # this cover of the 2 x 3 board: its options numbered from 1 in input
    # order, a dummy root `~0?0:root` last.
    cover = "0_0 0_1 0_2 1_0 1_1 1_2\n0_0 0_1\n0_0 1_0\n0_1 0_2\n0_1 1_1\n0_2 1_2\n" \
            "1_0 1_1\n1_1 1_2\n"
    text = "2: (~6?0:1)\n3: (~5?0:2)\n4: (~1?0:3)\n5: (~7?0:1)\n6: (~3?0:5)\n" \
           "7: (~5?0:1)\n8: (~4?6:7)\n9: (~2?4:8)\na: (~0?0:9)\n"
    theirs = ZDD.from_text(text)
    xc = ExactCover.from_text(cover)
    assert theirs.count() == 3 and set(theirs) == set(csp.solutions(xc))
    assert set(csp.zdd(xc)) == set(theirs)


def test_a_malformed_diagram_is_refused_with_its_line(tmp_path):
    with pytest.raises(InputError, match="line 2"):
        ZDD.from_text("2: (~1?0:1)\n3: (~2?0:7)\n4: (~0?0:3)\n")
    with pytest.raises(InputError, match="no root"):
        ZDD.from_text("2: (~1?0:1)\n")
    with pytest.raises(InputError, match="line 1"):
        ZDD.from_text("two: nodes\n")
    path = tmp_path / "d.zdd"
    csp.zdd(dominoes(2, 2)).write(path)
    assert ZDD.from_text(path.read_text()).count() == 2


def test_a_diagram_too_large_for_its_bound_is_refused_with_the_size_reached():
    with pytest.raises(InputError, match=r"does not fit in memo_bytes=65,536.*nodes \("):
        csp.zdd(dominoes(10, 10), memo_bytes=65536)


def test_what_has_no_diagram_is_refused():
    with pytest.raises(Refused, match="backends that do: dlx"):
        csp.zdd(dominoes(2, 2), "bitmask")
    bounded = ExactCover(["a"], bounds={"a": (1, 2)})
    bounded.add_option(["a"])
    with pytest.raises(InputError, match="multiplicities"):
        csp.zdd(bounded)
    model = csp.Model("m")
    model.var("x", [0, 1])
    with pytest.raises(InputError, match="ExactCover"):
        csp.zdd(model)


def test_a_diagram_stopped_by_its_time_limit_is_not_returned():
    with pytest.raises(TimeoutError, match="not finished"):
        csp.zdd(aztec_dominoes(12), time_limit=0.1)
