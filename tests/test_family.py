"""Families (`csp.solve_family`, `csp.family`): many puzzles of one shape, the
structure built once; `ExactCover.from_arrays`; the compile notice.

A family must give each puzzle exactly what solving it alone gives: the tests
compare both on real collections with known solutions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import csp
from csp import ExactCover, InputError, Model
from csp.backends.base import FAMILY
from csp.problems import sudoku

ROOT = Path(__file__).resolve().parent.parent


def _collection(shared_data: Path, name: str, n: int) -> tuple[list[sudoku.Sudoku], list[str]]:
    lines = (shared_data / "sudoku" / name).read_text().splitlines()[:n]
    return sudoku.parse("\n".join(lines)), [line.split()[1] for line in lines]


@pytest.mark.parametrize("form", ["exact-cover", "model"])
def test_a_family_solves_each_puzzle_as_solving_it_alone(shared_data, form, csp_backend):
    # (a form lowered for the backend: the givens become forced options or fixed values)
    backend = csp_backend
    if FAMILY not in csp.backends.get(backend).capabilities:
        pytest.skip(f"{backend} has no family loop: solve_family solves each puzzle alone")
    native = csp.backends.native_form(backend) == form
    puzzles, known = _collection(shared_data, "norvig_top95.txt", 20 if native else 5)
    shape, givens = csp.family(sudoku.KIND, puzzles, form)
    results = list(csp.solve_family(shape, givens, backend))
    assert len(results) == len(puzzles)
    for puzzle, result, answer in zip(puzzles, results, known):
        alone = sudoku.declare(puzzle, form)
        expected = csp.solve(alone, backend).solution
        assert sudoku.format(puzzle, sudoku.decode(puzzle, result.solution, shape)) == answer
        assert sudoku.decode(puzzle, expected, alone) == sudoku.decode(puzzle, result.solution,
                                                                       shape)
        assert result.count == 1 and result.backend == backend


def test_a_family_counts_as_counting_alone(shared_data):
    _, known = _collection(shared_data, "norvig_top95.txt", 12)
    # Known grids with their first 24 cells blank: a few solutions each.
    opened = sudoku.parse("\n".join("." * 24 + grid[24:] for grid in known))
    shape, givens = csp.family(sudoku.KIND, opened)
    results = list(csp.solve_family(shape, givens, count=True))
    assert [r.count for r in results] == [csp.count(sudoku.declare(p)).count for p in opened]
    assert all(r.status is csp.Status.COMPLETE for r in results)
    assert any(r.count > 1 for r in results)


def test_the_cli_solves_a_collection_as_a_family_with_the_same_answers(shared_data, tmp_path,
                                                                       capsys):
    from csp.cli import main

    puzzles, known = _collection(shared_data, "magictour_top1465.txt", 40)
    path = tmp_path / "forty.txt"
    path.write_text("\n".join(sudoku.format_puzzle(p) for p in puzzles) + "\n")
    for backend in ("auto", "bitmask"):
        assert main(["solve", "sudoku", str(path), "--backend", backend]) == 0
        assert capsys.readouterr().out.split() == known


def test_latin_squares_of_one_order_are_a_family():
    from csp.problems import latin

    text = "\n\n".join(["1 . . .\n3 . . 2\n. . 4 .\n. 3 . .", "1 . . .\n. . . .\n. . . .\n. . . 1",
                          "4", "1 2 . .\n2 1 . .\n. . . .\n. . . ."])
    puzzles = latin.parse(text)
    for form in latin.FORMS:
        shape, givens = csp.family(latin.KIND, puzzles, form)
        counted = [r.count for r in csp.solve_family(shape, givens, count=True)]
        assert counted == [csp.count(latin.declare(p, form)).count for p in puzzles]
        assert counted[2] == 576  # every Latin square of order 4


def test_puzzles_of_another_shape_are_an_error_naming_the_first():
    puzzles = sudoku.parse("12.4..1.2...4..1\n" + "." * 81 + "\n...4..1.2...4..1\n")
    with pytest.raises(InputError, match=r"puzzle 2 \(line 2\) has the shape 9x9 with 3x3 "
                                         r"boxes, not the family's 4x4 with 2x2 boxes"):
        csp.family(sudoku.KIND, puzzles)


def test_bad_givens_name_the_puzzle():
    shape = ExactCover.from_text("a b\na\nb\n")
    with pytest.raises(InputError, match="puzzle 2: no option 5 in the shape"):
        list(csp.solve_family(shape, [[0], [5]]))
    m = Model()
    m.var("x", [1, 2])
    with pytest.raises(InputError, match="puzzle 1: value 3 is not in the domain of 'x'"):
        list(csp.solve_family(m, [{"x": 3}]))
    with pytest.raises(InputError, match="puzzle 1: variable 'y' is not in the shape"):
        list(csp.solve_family(m, [{"y": 1}]))


def test_an_option_given_twice_is_forced_once(csp_backend):
    shape = ExactCover.from_text("a b\na\nb\na b\n")
    found = [(r.solution, r.count)
             for r in csp.solve_family(shape, [[0, 0], [2, 2, 2]], csp_backend)]
    assert found == [((0, 1), 1), ((2,), 1)]
    counts = [r.count for r in csp.solve_family(shape, [[0, 0], [0, 2]], csp_backend, count=True)]
    assert counts == [1, 0]


@pytest.mark.parametrize("givens, message", [
    ("0", "not the text '0'"), ([1.5], "option 1.5 is not an option index"),
    ([True], "option True is not an option index")])
def test_givens_that_are_not_option_indices_are_refused(givens, message):
    shape = ExactCover.from_text("a b\na\nb\n")
    with pytest.raises(InputError, match=f"puzzle 1: .*{message}"):
        list(csp.solve_family(shape, [givens]))


def test_a_given_that_a_unary_constraint_rules_out_has_no_solution(csp_backend):
    m = Model()
    x, y = m.var("x", [1, 2]), m.var("y", [1, 2])
    m.add(x != y)
    m.add(x != 2)
    # (on an exact-cover backend: lowered, the value 2 of x gone)
    results = list(csp.solve_family(m, [{"x": 2}, {"x": 1}], csp_backend, count=True))
    assert [r.count for r in results] == [0, 1]


def test_a_backend_without_families_gets_each_puzzle_alone():
    plain = [name for name in csp.backends.engines()
             if FAMILY not in csp.backends.get(name).capabilities]
    if not plain:
        pytest.skip("every installed backend has a family loop")
    backend = plain[0]
    m = Model()
    xs = [m.var(f"x{i}", range(1, 4)) for i in range(3)]
    m.add(csp.AllDifferent(xs))
    results = list(csp.solve_family(m, [{"x0": 3}, {"x0": 1, "x1": 3}, {"x0": (1, 2)}],
                                    backend, count=True))
    assert [r.count for r in results] == [2, 1, 4]
    xc = ExactCover.from_text("a b\na\nb\na b\n")
    found = [r.solution for r in csp.solve_family(xc, [[0], [2]], backend)]
    assert found == [(0, 1), (2,)]


# -- ExactCover.from_arrays ------------------------------------------------------------


def test_from_arrays_equals_the_regular_constructor(shared_data):
    [puzzle] = sudoku.parse((shared_data / "sudoku" / "norvig_top95.txt").read_text()
                            .splitlines()[0])
    regular = sudoku.declare_exact_cover(puzzle)
    arrays = regular.arrays()
    built = ExactCover.from_arrays(regular.primary, regular.secondary, arrays["start"],
                                   arrays["items"], arrays["colours"], data=regular.data)
    assert built.to_text() == regular.to_text() and built.data == regular.data
    tiny = ExactCover.from_text("a b c | x y\na x:0\nb x:0 y\nc y:1\na b x:1\n")
    a = tiny.arrays()
    again = ExactCover.from_arrays(tiny.primary, tiny.secondary, a["start"], a["items"],
                                   a["colours"], colour_names=tiny.colours)
    assert again.to_text() == tiny.to_text()
    assert csp.count(again).count == csp.count(tiny).count


@pytest.mark.parametrize("indptr, indices, colours, message", [
    ([0, 1, 3], [0, 2, 2], None, "item x twice in option 1"),
    ([0, 1, 2], [0, 2], None, "option 1 'x' has only secondary items"),
    ([0, 2], [0, 7], None, "option 0 covers item number 7"),
    ([0, 2], [0, 2], [1, 0], "colour 'red' on primary item a"),
    ([0, 3], [0, 2], None, "indptr must start at 0"),
    ([0, 1], [0.5], None, "indices must be a one-dimensional array of integers"),
])
def test_from_arrays_refuses_what_add_option_refuses(indptr, indices, colours, message):
    with pytest.raises(InputError, match=message):
        ExactCover.from_arrays(["a", "b"], ["x"], np.asarray(indptr), np.asarray(indices),
                               colours, colour_names=["red"])


def test_the_lowering_of_a_model_is_the_same_exact_cover_as_before(shared_data):
    # The vectorised lowering must keep items, options and their order.
    from csp.reformulate import model_to_exact_cover

    m = Model()
    a, b, c = (m.var(x, range(1, 4)) for x in "abc")
    m.add(csp.AllDifferent([a, b]))
    m.add(b != c)
    m.add(csp.Sum([a, c]) == 4)
    xc, decode = model_to_exact_cover(m)
    assert xc.primary == [("var", "a"), ("var", "b"), ("var", "c"), ("con", 2)]
    assert xc.secondary == [("val", "a"), ("val", "c"), ("diff", 0, 1), ("diff", 0, 2),
                            ("diff", 0, 3), ("diff", 1, 1), ("diff", 1, 2), ("diff", 1, 3)]
    assert xc.option(0) == [(("var", "a"), None), (("val", "a"), 1), (("diff", 0, 1), None)]
    assert xc.option(3) == [(("var", "b"), None), (("diff", 0, 1), None),
                            (("diff", 1, 1), None)]
    assert xc.data[:2] == [("a", 1), ("a", 2)]
    assert sorted(decode(s)["b"] for s in csp.solutions(xc)) == sorted(
        s["b"] for s in csp.solutions(m))


# -- the compile notice ------------------------------------------------------------------

TOY_KERNEL = """
import csp._numba_cache  # noqa: F401
from numba import njit


@njit(cache=True)
def double(x):
    return 2 * x
"""

NOTICE_SCRIPT = """
import sys
import csp.backends

# A kernel module of a toy backend, csp.backends.toy, in the test's directory.
csp.backends.__path__.append(sys.argv[1])
from csp.backends.toy import double

print(double(21))
"""


def _run_fresh(script: Path, cache: Path, **env_changes: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache),
               CSP_COMPILE_NOTICE="1")
    env.update(env_changes)
    return subprocess.run([sys.executable, str(script), str(script.parent)], env=env,
                          capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_a_compilation_says_so_on_stderr_once_and_a_cached_run_is_silent(tmp_path):
    (tmp_path / "toy.py").write_text(TOY_KERNEL)  # numba caches only functions of a file
    script = tmp_path / "run.py"
    script.write_text(NOTICE_SCRIPT)
    first = _run_fresh(script, tmp_path / "cache")
    assert first.stdout.strip() == "42"
    assert first.stderr.startswith("csp: compiling the toy kernels with numba (once: later "
                                   f"runs load them from {tmp_path / 'cache'})")
    again = _run_fresh(script, tmp_path / "cache")
    assert again.stdout.strip() == "42" and again.stderr == ""
    quiet = _run_fresh(script, tmp_path / "other", CSP_COMPILE_NOTICE="0")
    assert quiet.stdout.strip() == "42" and quiet.stderr == ""


@pytest.mark.slow
def test_the_first_run_of_csp_says_what_it_compiles(tmp_path):
    command = [sys.executable, "-m", "csp", "xc", "examples/tiny.xc", "--count"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path),
               CSP_COMPILE_NOTICE="1")
    first = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT,
                           timeout=900)
    assert first.returncode == 0
    assert first.stderr.startswith("csp: compiling the dlx kernels with numba (once")
    again = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT,
                           timeout=900)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout


def test_a_cover_with_multiplicities_keeps_its_bounds_in_a_family(shared_data, csp_backend):
    # 90 placements of two rooks per row, one or two per column (DLX3's count);
    # forcing an option keeps the bounds, and the counts split as alone.
    xc = ExactCover.from_text((shared_data / "xc" / "rooks4_two_per_row.dlx").read_text())
    givens = [[0], [0, 1], []]
    alone = [csp.count(_forcing(xc, g), csp_backend).count for g in givens]
    assert alone[2] == 90
    assert [r.count for r in csp.solve_family(xc, givens, csp_backend, count=True)] == alone


def _forcing(xc: ExactCover, options: list[int]) -> ExactCover:
    """`xc` with its options `options` forced, declared by hand."""
    forced = ExactCover(xc.primary + [("forced", k) for k in options], xc.secondary,
                        bounds=xc.bounds)
    for k in range(xc.n_options):
        items = [name if colour is None else (name, colour) for name, colour in xc.option(k)]
        forced.add_option(items + ([("forced", k)] if k in options else []))
    return forced
