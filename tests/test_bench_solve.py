"""bench/bench_solve.py and what it runs on (`csp.bench.answers`,
`csp.bench.solving`, `csp.bench.peer_programs`): its input files, its answer
checks (which must catch a wrong answer), and one csp backend and one peer
timed on a few puzzles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import bench_scripts
import pytest

from csp.bench import answers, peer_programs, solving
from csp.problems import shikaku, sudoku

N = 5


bs = bench_scripts.load("bench_solve")


@pytest.fixture(scope="module")
def sudokus(shared_data: Path) -> list:
    return answers.load_sudoku(shared_data, N)


@pytest.fixture(scope="module")
def shikakus(shared_data: Path) -> list:
    return answers.load_shikaku(shared_data, N)


def _solved_output(cases: list) -> str:
    """What a correct solver prints for the shikaku `cases`: each known grid of areas."""
    return "".join("\n".join(" ".join(map(str, row)) for row in answers.known_areas(case)) + "\n"
                   for case in cases)


def test_the_input_files_are_what_csp_solve_reads(tmp_path, sudokus, shikakus) -> None:
    path = answers.write_input(tmp_path, "sudoku", sudokus)
    parsed = sudoku.parse(path.read_text())
    assert [sudoku.format_puzzle(p) for p in parsed] == [c.puzzle for c in sudokus]
    path = answers.write_input(tmp_path, "shikaku", shikakus)
    parsed = shikaku.parse(path.read_text())
    assert [(p.width, p.height) for p in parsed] == [(c.width, c.height) for c in shikakus]
    for puzzle, case in zip(parsed, shikakus):
        assert puzzle.clues == tuple((r, c, a) for r, row in enumerate(case.grid)
                                     for c, a in enumerate(row) if a)
    # the peers read the same file with their own parser
    assert [g for _, _, g in peer_programs.shikaku_puzzles(path.read_text())] == [
        [list(row) for row in c.grid] for c in shikakus]


def test_the_whole_collections_are_found(shared_data) -> None:
    assert len(answers.load_sudoku(shared_data)) == 974
    cases = answers.load_shikaku(shared_data)
    assert len(cases) == 271 and all(c.name.startswith("janko-sikaku-") for c in cases)
    assert sum(c.count != 1 for c in cases) == 1  # janko-sikaku-127 has 2 solutions


def test_sudoku_check_accepts_right_answers_and_catches_wrong_ones(sudokus) -> None:
    right = "".join(c.solution + "\n" for c in sudokus)
    verdict = answers.check_sudoku(sudokus, right)
    assert (verdict.solved, verdict.unsolved, verdict.wrong) == (N, 0, [])
    # a wrong known answer (or a wrong printed one) is a failure
    wrong = [dataclasses.replace(sudokus[0], solution="1" * 81), *sudokus[1:]]
    assert answers.check_sudoku(wrong, right).wrong
    assert answers.check_sudoku(sudokus, right.replace(sudokus[2].solution[:9], "123456789", 1)
                           ).wrong
    # a missing line is a failure; a time limit is an unsolved puzzle, not a wrong one
    assert answers.check_sudoku(sudokus, right.split("\n", 1)[1]).wrong
    cut = right.replace(sudokus[1].solution, "no solution found (TIME_LIMIT)")
    verdict = answers.check_sudoku(sudokus, cut)
    assert (verdict.solved, verdict.unsolved, verdict.wrong) == (N - 1, 1, [])
    assert answers.check_sudoku(sudokus, right.replace(sudokus[1].solution, "no solution")).wrong


def test_shikaku_check_accepts_right_answers_and_catches_wrong_ones(shikakus) -> None:
    right = _solved_output(shikakus)
    verdict = answers.check_shikaku(shikakus, right, count=False)
    assert (verdict.solved, verdict.wrong) == (N, [])
    # swapping two printed rows that differ breaks the division into rectangles
    lines = right.splitlines()
    k = next(i for i in range(len(lines) - 1) if lines[i] != lines[i + 1])
    lines[k], lines[k + 1] = lines[k + 1], lines[k]
    assert answers.check_shikaku(shikakus, "\n".join(lines), count=False).wrong
    assert answers.check_shikaku(shikakus, "\n".join(right.splitlines()[:-1]), count=False).wrong
    # counts: right, wrong known count, time-limited lower bound, too many
    counts = "".join(f"{c.count}\n" for c in shikakus)
    assert answers.check_shikaku(shikakus, counts, count=True).solved == N
    wrong = [dataclasses.replace(shikakus[0], count=2), *shikakus[1:]]
    assert answers.check_shikaku(wrong, counts, count=True).wrong
    verdict = answers.check_shikaku(shikakus, "0 (TIME_LIMIT)\n" + counts.split("\n", 1)[1],
                               count=True)
    assert (verdict.solved, verdict.unsolved, verdict.wrong) == (N - 1, 1, [])
    assert answers.check_shikaku(shikakus, "2 (TIME_LIMIT)\n" + counts.split("\n", 1)[1],
                            count=True).wrong


def test_is_tiling_needs_rectangles_of_the_clue_areas() -> None:
    grid = [[2, 0, 0], [0, 4, 0]]
    assert answers.is_tiling(grid, [[2, 4, 4], [2, 4, 4]])
    assert not answers.is_tiling(grid, [[2, 2, 4], [4, 4, 4]])  # 4 cells, not a rectangle
    assert not answers.is_tiling(grid, [[4, 4, 4], [4, 4, 4]])


def test_a_csp_backend_is_timed_and_checked(tmp_path, sudokus) -> None:
    path = answers.write_input(tmp_path, "sudoku", sudokus)
    [entry] = solving.csp_entries("sudoku", path, sudokus, ["dlx"], path, sudokus, 1.0)
    assert entry.command.argv[1:] == ["solve", "sudoku", str(path), "--backend", "dlx"]
    row = solving.measure(entry, repeat=1)
    assert (row.solved, row.puzzles, row.wrong, row.error) == (N, N, [], None)
    assert len(row.walls) == 1 and row.rate > 0  # the warm-up run is not timed
    # the same process, checked against a wrong known answer, is a failure
    wrong = [*sudokus[:-1], dataclasses.replace(sudokus[-1], solution="9" * 81)]
    row = solving.measure(dataclasses.replace(entry, cases=wrong), repeat=1, warm_up=False)
    assert row.failed and row.wrong and row.rate is None
    text = solving.markdown([row], {"machine": {}, "repeat": 1})
    assert "## FAILURES" in text and "**WRONG**" in text


def test_a_failing_process_is_an_error_row(tmp_path, sudokus) -> None:
    missing = tmp_path / "no-such-file.txt"
    [entry] = solving.csp_entries("sudoku", missing, sudokus, ["dlx"], missing, sudokus, 1.0)
    row = solving.measure(entry, repeat=1, warm_up=False)
    assert row.error and row.failed


def test_the_xcover_peer_is_timed_and_checked(tmp_path, sudokus, shikakus) -> None:
    if not solving.available_peers(["xcover"])[0]:
        pytest.skip("xcover is not installed")
    rows = []
    for kind, cases in (("sudoku", sudokus), ("shikaku", shikakus)):
        path = answers.write_input(tmp_path, kind, cases)
        for entry in solving.peer_entries(kind, path, cases, ["xcover"], path, cases, 1.0):
            # (this runner asserts at its end that it never imported csp)
            rows.append(solving.measure(entry, repeat=1, warm_up=False))
    assert [(r.kind, r.mode) for r in rows] == [("sudoku", "first"), ("shikaku", "first"),
                                                ("shikaku", "count")]
    assert all((r.solved, r.wrong, r.error) == (N, [], None) for r in rows), rows
    text = solving.markdown(rows, {"machine": {}, "repeat": 1})
    assert "| peer xcover | 5 / 5 |" in text and "FAILURES" not in text


@pytest.mark.slow
def test_the_script_end_to_end(tmp_path) -> None:
    code = bs.main(["--limit", "3", "--repeat", "1", "--slow-puzzles", "2",
                    "--slow-time-limit", "0.5", "--out", str(tmp_path)])
    assert code == 0
    assert "puzzles per second" in (tmp_path / "bench_solve.md").read_text()
