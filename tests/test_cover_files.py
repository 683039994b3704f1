"""Multiplicities (Knuth's DLX3) on every backend, and exact-cover files as other
programs write them (tests/data/xc, with their published counts)."""

from __future__ import annotations

import itertools
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from csp import ExactCover, count, solutions
from csp.cli import main
from csp.errors import InputError, InputWarning
from csp.io.covers import read_cover
from csp.testing import two_queens_cover

DATA = Path(__file__).parent / "data" / "xc"

PUBLISHED = {
    "knuth_dlx2_manual.dlx": 1,
    "knuth_dlx3_manual.dlx": 1,
    "rooks4_two_per_row.dlx": 90,
    "queens5_two_per_line.dlx": 92,
    "miniexact_dimacs-1.xc": 1,
    "miniexact_dimacs-2.xc": 1,
    "taocp_7221_eq6.matrix": 1,
}


def _read(name: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return read_cover(str(DATA / name), "matrix" if name.endswith(".matrix") else "auto")


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_counts_on_every_backend(name, csp_backend):
    assert count(_read(name), csp_backend).count == PUBLISHED[name]


def test_every_file_is_listed():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(PUBLISHED)


def test_knuths_solution_of_the_dlx3_example(csp_backend):
    xc = _read("knuth_dlx3_manual.dlx")
    found = [sorted(xc.option_text(k) for k in s) for s in solutions(xc, csp_backend)]
    assert found == [["A C X:1 Y:1", "B X:1", "C Y:1"]]


def test_dlx2_example_drops_the_option_without_primary_item_with_a_warning():
    with pytest.warns(InputWarning, match=r"line 5: option ignored .*: X:0 Y:1"):
        xc = ExactCover.read(DATA / "knuth_dlx2_manual.dlx")
    assert xc.n_options == 4


def test_the_queens_file_is_the_recipe_of_csp_testing():
    assert _read("queens5_two_per_line.dlx").to_text() == two_queens_cover(5).to_text()


def test_bounds_are_written_back_and_read_again():
    xc = _read("queens5_two_per_line.dlx")
    again = ExactCover.from_text(xc.to_text())
    assert again.bounds == xc.bounds and again.bounds["a0"] == (0, 2)
    assert again.bounds["r0"] == (2, 2)


def _random_cover(rng: random.Random) -> ExactCover:
    primary = [f"p{i}" for i in range(rng.randint(1, 4))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 2))]
    bounds = {}
    for item in primary:
        least = rng.randint(0, 2)
        bounds[item] = (least, rng.randint(max(least, 1), 3))
    xc = ExactCover(primary, secondary, bounds=bounds)
    for _ in range(rng.randint(1, 10)):
        items: list = rng.sample(primary, rng.randint(1, len(primary)))
        for s in secondary:
            roll = rng.random()
            if roll < 0.3:
                items.append(s)
            elif roll < 0.6:
                items.append((s, rng.choice("AB")))
        xc.add_option(items)
    return xc


@pytest.mark.parametrize("seed", range(4))
def test_algorithm_m_finds_every_subset_the_checker_accepts(seed):
    # Against brute force over all sets of options, with the pure-Python checker
    # as the oracle: each solution once, none missing, with colours and bounds.
    rng = random.Random(seed)
    for _ in range(40):
        xc = _random_cover(rng)
        brute = sorted(subset for size in range(xc.n_options + 1)
                       for subset in itertools.combinations(range(xc.n_options), size)
                       if xc.is_solution(subset))
        assert sorted(solutions(xc, "dlx")) == brute, xc.to_text()
        assert count(xc, "dlx").count == len(brute)
        assert count(xc, "bitmask").count == len(brute)


def test_the_checker_names_what_breaks_a_bound():
    xc = ExactCover(["a", "b"], bounds={"a": (2, 3)})
    for _ in range(4):
        xc.add_option(["a"])
    xc.add_option(["b"])
    assert xc.check((0, 4)) == ["primary item a is covered 1 times, fewer than its least 2"]
    assert xc.check((0, 1, 2, 3, 4)) == [
        "primary item a is covered 4 times, more than its most 3"]
    assert xc.check((0, 1, 4)) == []


@pytest.mark.parametrize(
    ("bounds", "words"),
    [
        ({"a": (3, 2)}, "item a: least 3 exceeds most 2"),
        ({"a": (-1, 2)}, "bound -1 of item a is negative"),
        ({"a": (0.5, 2)}, "bound 0.5 of item a is not a whole number"),
        ({"a": (0, 0)}, "item a: bounds 0:0"),
        ({"x": 2}, "bounds on secondary item x"),
        ({"z": 2}, "bounds on unknown item z"),
        ({"a": (1, 2, 3)}, "must be (least, most) or one number"),
    ],
)
def test_bad_bounds_in_python_name_the_item(bounds, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        ExactCover(["a"], ["x"], bounds=bounds)


def test_a_bounded_cover_is_counted_whole_by_parallel_counting():
    from csp import parallel

    xc = _read("rooks4_two_per_row.dlx")
    assert parallel.count(xc, "dlx", workers=2).count == 90


def test_dlx_refuses_to_split_a_bounded_cover():
    from csp.backends.dlx import DLXBackend

    with pytest.raises(InputError, match="cannot split a cover with multiplicities"):
        DLXBackend().split(_read("rooks4_two_per_row.dlx"), (), 1)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("p xc 2 0\n1 3 0\n", 2, "item 3 is beyond the 2 items"),
        ("p xc 2 1\n1 -2 0\n", 2, "colour -2 does not follow a secondary item"),
        ("p xc 2 0\n1 $3 0\n", 2, "option costs"),
        ("p xc 2 0\n1 2\n", 2, "the last option does not end with 0"),
        ("p xc 2 0\n1 b 0\n", 2, "'b' is not an item number"),
        ("// nothing\n", None, "no `p xc` or `p xcc` header"),
    ],
)
def test_bad_dimacs_input_names_the_line(tmp_path, text, line, words):
    path = tmp_path / "bad.xc"
    path.write_text(text)
    with pytest.raises(InputError, match=words.replace("$", r"\$")) as caught:
        read_cover(str(path), "dimacs")
    assert caught.value.line == line


def test_a_malformed_header_is_named_not_read_as_knuths_item_line(tmp_path):
    # Under the default format: `p xc x y` is a header gone wrong, not items p, xc, x, y.
    path = tmp_path / "bad.xc"
    path.write_text("c from a tool\np xc x y\n1 0\n")
    with pytest.raises(InputError, match="expected a header `p xc P S`") as caught:
        read_cover(str(path))
    assert caught.value.line == 2


def test_dimacs_comments_and_options_over_several_lines():
    text = "// by a tool\nc a comment\np xcc 2 1\n1 // the first\n3 -5 0 2 3\n-5 0\n"
    xc = read_cover("x.xc", text=text)
    assert [xc.option_text(k) for k in range(2)] == ["1 3:5", "2 3:5"]
    assert count(xc).count == 1


def test_a_matrix_as_npy_and_as_text(tmp_path):
    matrix = np.loadtxt(DATA / "taocp_7221_eq6.matrix", comments="|", dtype=np.int8)
    path = tmp_path / "m.npy"
    np.save(path, matrix)
    assert count(read_cover(str(path))).count == 1
    with pytest.raises(InputError, match="a row of 2 columns, but the first has 3"):
        read_cover("m.txt", "matrix", text="101\n11\n")
    with pytest.raises(InputError, match="'2' in a row of a 0/1 matrix"):
        read_cover("m.txt", "matrix", text="121\n")


def test_an_empty_or_cut_npy_file_is_bad_input(tmp_path, capsys):
    empty = tmp_path / "empty.npy"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="cannot read .*empty.npy as a NumPy array"):
        read_cover(str(empty))
    cut = tmp_path / "cut.npy"
    np.save(cut, np.eye(4, dtype=np.int8))
    cut.write_bytes(cut.read_bytes()[:60])
    assert main(["xc", str(cut), "--count"]) == 2
    assert "cut.npy as a NumPy array" in capsys.readouterr().err


def test_cli_reads_bounds_variants_and_bad_bounds(tmp_path, capsys):
    assert main(["xc", str(DATA / "rooks4_two_per_row.dlx"), "--count"]) == 0
    assert capsys.readouterr().out.startswith("90 solutions COMPLETE")
    assert main(["xc", str(DATA / "taocp_7221_eq6.matrix"), "--format", "matrix"]) == 0
    assert "1 4 6" in capsys.readouterr().out  # the option a d f
    bad = tmp_path / "bad.dlx"
    bad.write_text("| bad\nr 3:1|c\nr c\n")
    assert main(["xc", str(bad)]) == 2
    assert "bad.dlx: line 2: item c: least 3 exceeds most 1" in capsys.readouterr().err


def test_algorithm_m_resumes_and_honours_a_time_limit():
    from csp.backends.dlx import DLXBackend

    xc = _read("queens5_two_per_line.dlx")
    search = DLXBackend().solutions(xc)
    first = [next(search) for _ in range(10)]  # the kernel returns to Python at each one
    rest = list(search)
    assert sorted(first + rest) == sorted(solutions(xc, "bitmask")) and len(rest) == 82
    assert search.stats.nodes == 1758  # DLX3's 1759 nodes, less its root
    # Two queens per line on 10x10 runs for hours: stopped by the limit, not finished.
    result = count(two_queens_cover(10), "dlx", time_limit=0.2)
    assert result.status.value == "TIME_LIMIT" and result.count > 0


def test_crosscheck_reads_the_variants(capsys):
    assert main(["crosscheck", str(DATA / "miniexact_dimacs-2.xc")]) == 0
    assert "all backends agree: 1 solution" in capsys.readouterr().out
    assert main(["crosscheck", str(DATA / "rooks4_two_per_row.dlx"), "--backends",
                 "dlx,bitmask"]) == 0
    assert "all backends agree: 90 solutions" in capsys.readouterr().out


def test_a_text_matrix_read_as_knuths_format_says_to_read_it_as_a_matrix(tmp_path, capsys):
    folder = tmp_path / "covers"
    folder.mkdir()
    (folder / "m.txt").write_text("1 0 1\n0 1 0\n1 1 0\n")
    assert main(["crosscheck", str(folder)]) == 2
    assert "this looks like a 0/1 matrix; read it as one (`--format matrix`" in \
        capsys.readouterr().err
    assert main(["crosscheck", str(folder), "--format", "matrix"]) == 0
