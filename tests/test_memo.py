"""Memoized counting (`csp.count(memo=...)`, dlx's `search_memo`): exact counts
against closed forms, colours in the key, the memo on against off on random
covers, a bounded table, counts past 2**128, auto, multiplicities, parallel
counting and checkpoints, Ctrl-C, bad input."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

import pytest

import csp
from csp import ExactCover, InputError, Status
from csp.backends.dlx import DLXBackend, cells
from csp.backends.dlx.cells import CellsSearch
from csp.backends.dlx.memo import MemoSearch, NumbaMemoSearch, layout
from csp.bench.tilings import (
    aztec_dominoes,
    aztec_tilings,
    domino_tilings,
    dominoes,
    side_coloured_dominoes,
    trominoes,
)
from csp.errors import Refused
from csp.fuzz.generate import instance
from csp.problems import langford, queens

native = pytest.mark.skipif(cells.native is None, reason="the C kernel is not built here")

XCOVER = "p q | x y\np x:A\np x:B\nq x:A\nq y\n"
"""xcover 0.2.6's memo counts 2 (it leaves the colours of purified items out
of its key); the solutions are {p x:A, q x:A}, {p x:A, q y}, {p x:B, q y}."""


def count(xc: ExactCover, **options) -> csp.Result:
    result = DLXBackend().count(xc, **options)
    assert result.status is Status.COMPLETE
    return result


# -- exact counts ----------------------------------------------------------------------


@pytest.mark.parametrize("branch", ["mrv", "first"])
@pytest.mark.parametrize("m, n", [(2, 2), (3, 4), (4, 7), (5, 6), (6, 6), (7, 8), (8, 8),
                                  (3, 20), (10, 10), (12, 12)])
def test_domino_tilings_are_kasteleyns_product(m, n, branch):
    result = count(dominoes(m, n), memo=True, branch=branch)
    assert result.count == domino_tilings(m, n)
    assert result.stats.extra["memo"] == "on"
    assert result.stats.extra["memo_hits"] > 0 or m * n < 16


def test_kasteleyns_product_of_a_few_boards():
    # A002187 / A004003 (n x n); the odd board has none.
    assert [domino_tilings(n, n) for n in (2, 4, 6, 8)] == [2, 36, 6728, 12988816]
    assert domino_tilings(12, 12) == 53060477521960000 and domino_tilings(5, 5) == 0


@pytest.mark.slow
def test_16x16_dominoes_past_2_to_the_64():
    result = count(dominoes(16, 16), memo="auto")
    assert result.count == domino_tilings(16, 16) == 2444888770250892795802079170816


@pytest.mark.parametrize("order", range(1, 9))
def test_aztec_diamonds_have_2_to_the_n_n_plus_1_over_2_tilings(order):
    for branch in ("mrv", "first"):
        assert count(aztec_dominoes(order), memo=True, branch=branch).count == \
            aztec_tilings(order)


def test_i_and_l_trominoes_on_a_6x6_board_agree_with_the_plain_count():
    xc = trominoes(6, 6)
    plain = count(xc, memo=False).count
    assert plain > 1000 and count(xc, memo=True, branch="first").count == plain
    assert count(xc, memo=True).count == plain


@pytest.mark.slow
def test_i_and_l_trominoes_on_a_9x9_board():
    assert count(trominoes(9, 9), branch="first").count == 928789262080


# -- colours ---------------------------------------------------------------------------


@pytest.mark.parametrize("branch", ["mrv", "first"])
def test_xcovers_colour_counterexample_has_three_solutions(branch):
    xc = ExactCover.from_text(XCOVER)
    assert count(xc, memo=True, branch=branch).count == 3 == len(list(csp.solutions(xc)))


def test_purified_colours_decide_a_subproblem():
    # After {p x:A} and after {p x:B} the items left are q and r: the same
    # primary items, but q has two options left after the first, one after the
    # second. A key without x's colour counts 4 + 4.
    xc = ExactCover.from_text("p q r | x y w\np x:A\np x:B\nq x:A\nq y\nr\nr w\n")
    assert count(xc, memo=True).count == 6 == count(xc, memo=False).count


def test_a_key_without_colours_miscounts_a_coloured_tiling():
    xc = side_coloured_dominoes(6, 6)
    plain = count(xc, memo=False).count
    blind = dataclasses.replace(layout(xc), colours=False)  # xcover's key
    for branch in ("mrv", "first"):
        assert MemoSearch(xc, memo="on", branch=branch).count().count == plain == 51126
    assert MemoSearch(xc, memo="on", branch="first", key=blind).count().count != plain


def test_a_coloured_tiling_as_knuths_dlx6_counts_it():
    # 114,746,692 is DLX6's count of this cover (Knuth's program, built from
    # ascherer/cwebtest, run on xc.to_text()); both branching rules agree.
    xc = side_coloured_dominoes(8, 8)
    assert {count(xc, memo=True, branch=branch).count for branch in ("mrv", "first")} == \
        {114746692}


# -- memo on against memo off ----------------------------------------------------------


def random_cover(rng: random.Random) -> ExactCover:
    """Larger than the fuzzer's: subproblems recur, so the memo is consulted."""
    n_primary, n_secondary = rng.randint(4, 14), rng.randint(0, 6)
    colours = rng.choice((1, 2, 3))
    xc = ExactCover([f"p{i}" for i in range(n_primary)], [f"s{i}" for i in range(n_secondary)])
    for _ in range(rng.randint(5, 50)):
        entries: list = [f"p{i}" for i in rng.sample(range(n_primary),
                                                      rng.randint(1, min(3, n_primary)))]
        for s in rng.sample(range(n_secondary), rng.randint(0, min(3, n_secondary))):
            colour = rng.randint(0, colours)
            entries.append(f"s{s}" if colour == 0 else (f"s{s}", f"c{colour}"))
        xc.add_option(entries)
    return xc


def test_random_covers_with_colours_memo_on_against_off():
    rng = random.Random(25)
    hits = 0
    for _ in range(300):
        xc = random_cover(rng)
        want = CellsSearch(xc).count().count
        for branch in ("mrv", "first"):
            for memo_bytes in (None, 1000):  # 1000 bytes: a bucket or two, evicting
                result = count(xc, memo=True, branch=branch, memo_bytes=memo_bytes)
                assert result.count == want, xc.to_text()
                hits += result.stats.extra["memo_hits"]
    assert hits > 1000


def test_the_fuzzers_covers_memo_on_against_off():
    # csp fuzz's random covers, with colours and bounds: under bounds memo
    # stays off and says why; elsewhere it counts what the plain search counts.
    bounded = 0
    for index in range(400):
        _, spec = instance(25, index, forms=("exact-cover",))
        xc = spec.build()
        on, off = csp.count(xc, memo=True), csp.count(xc, memo=False)
        assert on.count == off.count, spec.text()
        if xc.bounds:
            bounded += 1
            assert on.stats.extra["memo"].startswith("off: multiplicities")
        else:
            assert on.stats.extra["memo"] == "on"
    assert bounded > 50


def test_knuths_dlx3_manual_instance_counts_with_memo_off_under_bounds(shared_data):
    xc = ExactCover.read(shared_data / "xc" / "knuth_dlx3_manual.dlx", warn=lambda _: None)
    assert xc.bounds
    result = csp.count(xc, memo=True)
    assert result.count == csp.count(xc, memo=False).count
    assert "multiplicities" in result.stats.extra["memo"]
    with pytest.raises(InputError, match="multiplicities"):
        csp.count(xc, branch="first")


# -- the table, the counts, auto ---------------------------------------------------------


def test_a_full_table_evicts_and_stays_exact():
    result = count(dominoes(8, 8), memo=True, memo_bytes=4096)
    extra = result.stats.extra
    assert result.count == 12988816
    assert extra["memo_evictions"] > 0 and extra["memo_bytes"] <= 4096


def test_the_table_grows_as_it_fills():
    small = count(dominoes(4, 4), memo=True).stats.extra["memo_bytes"]
    large = count(dominoes(12, 12), memo=True).stats.extra["memo_bytes"]
    assert small < large <= csp.memo.DEFAULT_MEMO_BYTES


def powers(base: int, items: int) -> ExactCover:
    """`items` items, each with `base` options of its own: base ** items solutions."""
    xc = ExactCover([f"i{k}" for k in range(items)])
    for k in range(items):
        for _ in range(base):
            xc.add_option([f"i{k}"])
    return xc


@pytest.mark.parametrize("base, items", [(2, 63), (2, 64), (2, 65), (3, 80), (3, 81), (2, 128),
                                         (3, 90), (7, 100)])
def test_counts_are_exact_past_64_and_128_bits(base, items):
    result = count(powers(base, items), memo=True)
    assert result.count == base ** items
    if base ** items >= 2**128:
        assert result.stats.extra["count_bits"] >= 256


def test_auto_switches_memo_off_where_it_does_not_pay():
    for xc in (queens.declare(queens.Queens(11)), langford.declare(langford.Langford(11))):
        auto, off = count(xc, memo="auto"), count(xc, memo=False)
        assert auto.count == off.count
        assert auto.stats.extra["memo"].startswith("auto: off after ")
        # The plain kernel takes over where memo stopped: nodes almost the same.
        assert abs(auto.stats.nodes - off.stats.nodes) < 0.01 * off.stats.nodes


def test_auto_keeps_memo_on_a_tiling():
    result = count(dominoes(12, 12), memo="auto", branch="first")
    assert result.stats.extra["memo"] == "auto: on" and result.stats.extra["memo_lookups"] > 4096


def test_csp_count_memoizes_by_default():
    result = csp.count(dominoes(10, 10))
    assert result.count == 258584046368 and result.stats.extra["memo"] == "auto: on"


@native
def test_c_and_numba_memo_kernels_agree_node_for_node():
    rng = random.Random(7)
    covers = [dominoes(6, 6), aztec_dominoes(4), ExactCover.from_text(XCOVER),
              side_coloured_dominoes(4, 5, "rgb"), powers(3, 90), queens.declare(queens.Queens(9))]
    covers += [random_cover(rng) for _ in range(20)]
    for xc in covers:
        for branch in ("mrv", "first"):
            for options in ({"memo": "on"}, {"memo": "auto"}, {"memo": "on", "memo_bytes": 2000}):
                figures = []
                for search_class in (MemoSearch, NumbaMemoSearch):
                    result = search_class(xc, branch=branch, **options).count()
                    extra = {k: v for k, v in result.stats.extra.items() if k != "kernel"}
                    figures.append((result.count, result.stats.nodes, result.stats.updates, extra))
                assert figures[0] == figures[1], (xc.name, branch, options)


# -- with the rest of csp ----------------------------------------------------------------


def test_memo_true_on_a_backend_without_memo_is_refused_naming_those_with_it():
    xc = dominoes(4, 4)
    with pytest.raises(Refused, match="has no memoized count; backends with one: dlx"):
        csp.count(xc, "bitmask", memo=True)
    with pytest.raises(Refused, match="branch='first'"):
        csp.count(xc, "bitmask", branch="first")
    assert csp.count(xc, "bitmask", memo="auto").count == 36  # auto: simply without


@pytest.mark.parametrize("value", ["lots", -1, 0, 1.5, True, "12 parsecs", None.__class__])
def test_a_bad_memory_bound_is_a_clear_error(value):
    with pytest.raises(InputError, match="memo_bytes"):
        csp.count(dominoes(4, 4), memo_bytes=value)


def test_a_bound_too_small_for_one_bucket_says_how_much_is_needed():
    with pytest.raises(InputError, match="give at least"):
        csp.count(dominoes(4, 4), memo=True, memo_bytes=64)


def test_bad_memo_and_branch_values_are_clear_errors():
    with pytest.raises(InputError, match="memo must be"):
        csp.count(dominoes(2, 2), memo="sometimes")
    with pytest.raises(InputError, match="branch must be"):
        csp.count(dominoes(2, 2), branch="last")


def test_memo_cannot_stop_after_a_limit_nor_test_symmetry():
    xc = dominoes(4, 4)
    with pytest.raises(InputError, match="limit"):
        csp.count(xc, memo=True, limit=3)
    assert csp.count(xc, limit=3).count == 3  # auto: the limit counts one by one
    group = csp.symmetry.Group(xc, [csp.symmetry.induced(
        xc, lambda name: ",".join(name.split(",")[::-1]))])
    with pytest.raises(InputError, match="symmetry"):
        csp.count(xc, up_to_symmetry=group, memo=True)
    # auto: left off. No tiling of the 4x4 board is its own transpose: 36 / 2.
    assert csp.count(xc, up_to_symmetry=group).count == 18


def test_the_links_engine_has_no_memo():
    xc = dominoes(4, 4)
    assert DLXBackend("links").count(xc, memo="auto").stats.extra["memo"] == \
        "off: engine 'links' has none"
    with pytest.raises(InputError, match="engines with one: cells"):
        DLXBackend("links").count(xc, memo=True)


def test_parallel_counting_keeps_a_memo_per_worker():
    xc = dominoes(10, 10)
    for options in ({"memo": True}, {"memo": "auto", "branch": "first"}):
        result = csp.parallel.count(xc, workers=2, **options)
        assert result.count == 258584046368
        assert "in" in result.stats.extra["memo"] and result.stats.extra["memo_hits"] > 0
    here = csp.parallel.count(xc, workers=1, memo=True)
    assert here.count == 258584046368


def test_a_worker_keeps_its_memo_across_subproblems():
    xc, backend = dominoes(8, 8), DLXBackend()
    prefixes = [tuple(p) for p in backend.split(xc, (), 2)]
    results = [backend.count_chosen(xc, p, memo=True) for p in prefixes]
    assert sum(r.count for r in results) == 12988816
    assert results[-1].stats.extra["memo_entries"] > results[-1].stats.extra["memo_lookups"]


def test_a_checkpointed_count_resumes_with_memo(tmp_path):
    xc, journal = trominoes(7, 7), tmp_path / "count.json"
    first = csp.parallel.count(xc, workers=1, checkpoint=journal, time_limit=0.05, memo=True)
    assert first.status is Status.TIME_LIMIT or first.count == 0 or first.complete
    second = csp.parallel.count(xc, workers=2, checkpoint=journal, branch="first")
    assert second.complete and second.count == count(xc, memo=False).count


def test_a_stopped_count_is_a_lower_bound_so_labelled():
    xc = trominoes(9, 9)

    def interrupt(stats):
        raise KeyboardInterrupt

    stopped = csp.count(xc, progress=interrupt)
    assert stopped.status is Status.INTERRUPTED
    assert stopped.stats.extra["lower_bound"] is True
    assert 0 < stopped.count < 928789262080
    timed = csp.count(xc, time_limit=0.2)
    assert timed.status is Status.TIME_LIMIT and timed.stats.extra["lower_bound"] is True


def test_csp_xc_counts_with_memo(tmp_path):
    path = tmp_path / "d.xc"
    path.write_text(dominoes(10, 10).to_text())

    def run(*args):
        return subprocess.run([sys.executable, "-m", "csp", "xc", str(path), *args],
                              capture_output=True, text=True, timeout=120)

    done = run("--count", "--memo", "on", "--branch", "first", "--memo-bytes", "64M")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("258584046368 solutions COMPLETE")
    assert "memo=on" in done.stdout and "branch=first" in done.stdout
    bad = run("--count", "--memo-bytes", "huge")
    assert bad.returncode == 2 and "memo_bytes must be a size" in bad.stderr
    alone = run("--memo", "on")
    assert alone.returncode == 2 and "go with --count" in alone.stderr
