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
BACKENDS = csp.backends.available()


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


@pytest.mark.parametrize("backend", BACKENDS)
def test_queens_on_every_backend(capsys, backend):
    code, out, _ = run(capsys, "solve", "queens", "8", "--count", "--backend", backend)
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
