"""`csp solve` and `csp list` end to end, through `csp.cli.main`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import csp
from csp.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BACKENDS = csp.backends.engines()


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sudoku_example(capsys):
    code, out, _ = run(capsys, "solve", "sudoku", str(EXAMPLES / "sudoku.txt"))
    assert code == 0
    answer = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    assert out == answer + "\n"


def test_a_whole_file_from_stdin_with_stats(capsys, monkeypatch, shared_data):
    lines = (shared_data / "sudoku" / "norvig_top95.txt").read_text().splitlines()
    code, out, _ = run(capsys, "solve", "sudoku", "-", "--stats",
                       stdin="\n".join(lines), monkeypatch=monkeypatch)
    assert code == 0
    *answers, summary = out.splitlines()
    assert answers == [line.split()[1] for line in lines]
    assert summary.startswith(f"puzzles={len(lines)} solved={len(lines)} bad=0 ")


def test_a_bad_puzzle_is_reported_and_the_others_solved(capsys, tmp_path):
    sample = (EXAMPLES / "sudoku.txt").read_text().splitlines()[-1]
    path = tmp_path / "three.txt"
    path.write_text(f"{sample}\n{sample[:80]}\n{'11' + '.' * 79}\n")
    code, out, err = run(capsys, "solve", "sudoku", str(path))
    assert code == 2
    assert out.splitlines()[0].startswith("4173")
    assert out.splitlines()[1] == "no solution"
    assert f"{path}: line 2: a line of 80 symbols" in err


def patch_kind(monkeypatch, module, **parts):
    """Replace parts of a built-in kind (its `KIND` holds the module's functions).
    A replaced `declare` drops the kind's family, which declares a collection
    its own way: each puzzle then goes through the replacement."""
    import dataclasses

    if "declare" in parts:
        parts.update(shape=None, declare_shape=None, givens=None)

    monkeypatch.setattr(module, "KIND", dataclasses.replace(module.KIND, **parts))


def test_a_puzzle_that_fails_to_declare_is_reported_and_the_others_solved(
        capsys, tmp_path, monkeypatch):
    from csp.errors import InputError
    from csp.problems import sudoku

    declare = sudoku.declare

    def refuse_the_second(puzzle, form=None):
        if puzzle.line == 2:
            raise InputError("this backend cannot take it")
        return declare(puzzle, form)

    patch_kind(monkeypatch, sudoku, declare=refuse_the_second)
    sample = (EXAMPLES / "sudoku.txt").read_text().splitlines()[-1]
    path = tmp_path / "three.txt"
    path.write_text(f"{sample}\n{sample}\n{sample}\n")
    code, out, err = run(capsys, "solve", "sudoku", str(path))
    assert code == 2
    assert out.splitlines() == [out.splitlines()[0]] * 2 and out.startswith("4173")
    assert f"{path}: line 2: this backend cannot take it" in err


def test_a_named_backend_gets_the_puzzle_in_its_native_form(capsys, monkeypatch):
    from csp.problems import sudoku

    forms = []
    declare = sudoku.declare
    patch_kind(monkeypatch, sudoku,
               declare=lambda puzzle, form=None: forms.append(form) or declare(puzzle, form))
    for backend in ("dlx", "bitmask", "auto"):
        code, out, _ = run(capsys, "solve", "sudoku", str(EXAMPLES / "sudoku.txt"),
                           "--backend", backend)
        assert code == 0 and out.startswith("4173")
    assert forms == ["exact-cover", "model", None]


def test_an_unknown_form_is_one_error_not_one_per_puzzle(capsys):
    code, out, err = run(capsys, "solve", "sudoku", str(EXAMPLES / "sudoku.txt"),
                         "--form", "bogus")
    assert code == 2 and out == ""
    assert err.count("unknown form 'bogus'") == 1


def test_all_and_count_on_the_38_solution_sudoku(capsys, monkeypatch, shared_data):
    data = json.loads((shared_data / "sudoku" / "sudoku9_special.json").read_text())
    entry = next(e for e in data["puzzles"] if e["solution_count"] == 38)
    code, out, _ = run(capsys, "solve", "sudoku", "-", "--all",
                       stdin=entry["puzzle"], monkeypatch=monkeypatch)
    *found, last = out.splitlines()
    assert (code, last) == (0, "38 solutions")
    assert sorted(found) == sorted(entry["all_solutions"])
    code, out, _ = run(capsys, "solve", "sudoku", "-", "--count", "--form", "model",
                       stdin=entry["puzzle"] + "\n" + entry["puzzle"], monkeypatch=monkeypatch)
    assert out == "38\n38\n"
    code, out, _ = run(capsys, "solve", "sudoku", "-", "--limit", "3",
                       stdin=entry["puzzle"], monkeypatch=monkeypatch)
    assert out.splitlines()[-1] == "3 solutions (SOLUTION_LIMIT)"


def test_json_lines(capsys):
    code, out, _ = run(capsys, "solve", "queens", "6", "--all", "--json")
    record = json.loads(out)
    assert (record["count"], record["status"]) == (4, "COMPLETE")
    assert "2 4 6 1 3 5" in record["solutions"] and "nodes" in record["stats"]


def test_queens_on_every_backend(capsys, csp_backend):
    code, out, _ = run(capsys, "solve", "queens", "8", "--count", "--backend", csp_backend)
    assert (code, out) == (0, "92\n")


def test_kakuro_both_formats(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "kakuro", str(EXAMPLES / "kakuro.txt"))
    assert out == (EXAMPLES / "kakuro.answer.txt").read_text()
    grid = tmp_path / "grid.txt"
    grid.write_text("# 6\\ 6\\ 6\\\n\\6 . . .\n\\6 . . .\n\\6 . . .\n")
    code, out, _ = run(capsys, "solve", "kakuro", str(grid), "--count")
    assert (code, out) == (0, "12\n")


def test_shikaku_sample_and_bad_sums(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "shikaku", str(EXAMPLES / "shikaku.txt"), "--all")
    assert (code, out) == (0, "2 4 4\n2 4 4\n1 solution\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("3 2\n2 0 0\n0 3 0\n")
    code, out, err = run(capsys, "solve", "shikaku", str(bad))
    assert code == 2 and out == ""
    assert "line 1: the clues add up to 5 but the 3x2 grid has 6 cells" in err


def test_polyomino_box_and_1d(capsys):
    code, out, _ = run(capsys, "solve", "polyomino", str(EXAMPLES / "polyomino-box.txt"), "--all")
    blocks = out.split("\n\n")
    assert (code, blocks[-1].splitlines()[-1]) == (0, "9 solutions")
    assert len(blocks) == 9
    code, out, _ = run(capsys, "solve", "polyomino", str(EXAMPLES / "polyomino-1d.txt"),
                       "--reflect")
    assert out == "#b#bccbbacca#aa#\n"


def test_options_that_do_not_apply_are_refused(capsys):
    code, _, err = run(capsys, "solve", "queens", "8", "--symbols", "12345678")
    assert code == 2 and "--symbols does not apply to queens puzzles" in err


def test_sudoku_symbols_and_boxes(capsys, monkeypatch):
    code, out, _ = run(capsys, "solve", "sudoku", "-", "--symbols", "abcdef", "--boxes", "3x2",
                       "--count", stdin="ab" + "." * 34, monkeypatch=monkeypatch)
    assert code == 0 and int(out) > 1


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for kind in ("sudoku", "kakuro", "shikaku", "polyomino", "queens"):
        assert f"  {kind}" in out


def test_up_to_symmetry(capsys, shared_data):
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    expected = next(row["distinct_up_to_symmetry"] for row in rows if row["n"] == 8)
    code, out, _ = run(capsys, "solve", "queens", "8", "--up-to-symmetry")
    assert (code, out) == (0, f"{expected}\n")


def test_lattice_prints_the_number_of_classes(capsys, monkeypatch):
    from csp.problems import lattice

    code, out, _ = run(capsys, "solve", "lattice", "-", stdin=lattice.SAMPLE,
                       monkeypatch=monkeypatch)
    assert (code, out) == (0, "40\n6\n")


@pytest.mark.parametrize("kind", ["sudoku", "kakuro", "shikaku", "queens", "lattice"])
@pytest.mark.parametrize("content", ["", "\n\n   \n"])
def test_no_puzzle_in_the_input_is_an_error(capsys, tmp_path, kind, content):
    path = tmp_path / "empty.txt"
    path.write_text(content)
    code, out, err = run(capsys, "solve", kind, str(path))
    assert (code, out) == (2, "")
    assert f"{path}: no puzzle in the input" in err


@pytest.mark.parametrize("kind", ["sudoku", "shikaku", "queens"])
def test_only_comments_is_no_puzzle(capsys, monkeypatch, kind):
    code, out, err = run(capsys, "solve", kind, "-", stdin="# a comment\n\n",
                         monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert "<stdin>: no puzzle in the input" in err


def test_json_with_stats_stays_one_object_per_line(capsys):
    code, out, _ = run(capsys, "solve", "sudoku", str(EXAMPLES / "sudoku.txt"), "--json",
                       "--stats")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    *puzzles, last = records
    assert puzzles and all(record["count"] == 1 for record in puzzles)
    assert last["summary"]["puzzles"] == len(puzzles)
    assert last["summary"]["solved"] == len(puzzles) and last["summary"]["bad"] == 0


def test_an_infinite_time_limit(capsys):
    code, out, _ = run(capsys, "solve", "queens", "8", "--count", "--time-limit", "inf")
    assert (code, out) == (0, "92\n")


def test_a_byte_order_mark_is_ignored(capsys, monkeypatch):
    puzzle = (EXAMPLES / "sudoku.txt").read_text().splitlines()[-1]
    code, out, err = run(capsys, "solve", "sudoku", "-", stdin="\ufeff" + puzzle,
                         monkeypatch=monkeypatch)
    assert code == 0 and out.startswith("4173") and err == ""


def interrupt_formatting(monkeypatch, call: int) -> None:
    """Ctrl-C while the `call`-th solution of queens is formatted for printing."""
    from csp.problems import queens

    real = queens.format
    calls = 0

    def format_or_interrupt(*args):
        nonlocal calls
        calls += 1
        if calls == call:
            raise KeyboardInterrupt
        return real(*args)

    patch_kind(monkeypatch, queens, format=format_or_interrupt)


def test_ctrl_c_while_printing_ends_as_interrupted(capsys, monkeypatch):
    interrupt_formatting(monkeypatch, 3)
    code, out, _ = run(capsys, "solve", "queens", "8", "--all", "--stats")
    assert code == 130
    first, second, counted, summary = out.splitlines()
    assert counted == "2 solutions (INTERRUPTED)"
    assert summary.startswith("puzzles=1 solved=1 bad=0 ")


def test_ctrl_c_while_listing_with_json_keeps_the_solutions(capsys, monkeypatch):
    interrupt_formatting(monkeypatch, 4)
    code, out, _ = run(capsys, "solve", "queens", "8", "--all", "--json", "--stats")
    assert code == 130
    record, summary = (json.loads(line) for line in out.splitlines())
    assert (record["count"], record["status"]) == (3, "INTERRUPTED")
    assert len(record["solutions"]) == 3
    assert summary["summary"]["puzzles"] == 1


def test_ctrl_c_with_json_prints_the_record_and_the_summary():
    import os
    import signal
    import subprocess
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "csp.cli", "solve", "queens", "16", "--all", "--json", "--stats",
         "--time-limit", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    time.sleep(5)  # import, JIT or cache load, then some solutions listed
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    record, summary = (json.loads(line) for line in out.splitlines())
    assert record["status"] == "INTERRUPTED"
    assert record["count"] == len(record["solutions"]) > 0
    assert summary["summary"]["solutions"] == record["count"]
    assert "Traceback" not in err


def test_the_registry_knows_each_backends_native_form():
    # csp solve picks a form from the registry without importing the backend:
    # it must say what the backend itself says.
    for name in csp.backends.engines():
        native = csp.backends.get(name).native.__name__
        assert csp.backends.native_form(name) == {"ExactCover": "exact-cover",
                                                 "Model": "model"}[native]


def test_the_readme_lattice_example_gives_the_published_answer(capsys):
    code, out, _ = run(capsys, "solve", "lattice", str(EXAMPLES / "lattice.txt"))
    assert code == 0 and out.split() == ["40", "6"]  # docs/developing/problems.md section 7


def test_the_docs_the_code_cites_are_in_the_repository():
    import re

    root = EXAMPLES.parent
    for path in (root / "csp").rglob("*.py"):
        text = path.read_text()
        for cited in re.findall(r"(?:[a-z]+/)?[A-Z]+\.md", text):
            assert "/" in cited and (root / cited).exists(), (path, cited)
        for cited in re.findall(r"\bdocs/[\w/-]+\.md", text):  # the site's pages
            assert (root / cited).exists(), (path, cited)


def test_a_bad_race_member_is_one_usage_error_not_a_bad_puzzle_per_line(capsys, tmp_path):
    # The option is at fault, not the puzzles: one error without a line, said once.
    line = (EXAMPLES / "sudoku.txt").read_text().splitlines()[1]
    path = tmp_path / "two.txt"
    path.write_text(f"{line}\n{line}\n")
    for argv in (["queens", "8"], [str(path), "--limit", "1"]):
        kind, *rest = argv if argv[0] == "queens" else ["sudoku", *argv]
        code, out, err = run(capsys, "solve", kind, *rest, "--backend", "race:dlx+nosuch")
        assert code == 2 and out == ""
        assert err.count("unknown backend 'nosuch'") == 1 and "line" not in err, err
