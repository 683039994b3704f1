"""Every backend on every form, proved to agree by `crosscheck`; a broken
backend is caught; the `csp crosscheck` command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from budget import witnesses
from shared_models import queens_model

from csp import (
    AllDifferent,
    CrosscheckReport,
    ExactCover,
    Model,
    Status,
    Sum,
    backends,
    crosscheck,
)
from csp.backends.base import Search
from csp.cli import main
from csp.errors import InputError
from csp.result import Result

# -- the problems, declared here so that the test depends on no puzzle module ----------


def queens_xc(n: int) -> ExactCover:
    """Knuth's N queens: rows and columns primary, diagonals secondary."""
    xc = ExactCover([("r", i) for i in range(n)] + [("c", j) for j in range(n)],
                    [("a", d) for d in range(2 * n - 1)] + [("b", d) for d in range(2 * n - 1)],
                    name=f"queens {n}")
    for i in range(n):
        for j in range(n):
            xc.add_option([("r", i), ("c", j), ("a", i + j), ("b", i - j + n - 1)])
    return xc


PENTOMINOES = {
    "F": [".##", "##.", ".#."], "I": ["#####"], "L": ["####", "#..."], "N": ["###.", "..##"],
    "P": ["###", "##."], "T": ["###", ".#.", ".#."], "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"], "W": ["#..", "##.", ".##"], "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."], "Z": ["##.", ".#.", ".##"],
}


def orientations(cells: list[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    """The 8 rotations and reflections of a piece, normalised (fewer if symmetric)."""
    out = set()
    for shape in (cells, [(r, -c) for r, c in cells]):
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in shape)))
    return out


def pentomino_xc(rows: int, cols: int, pieces: str = "FILNPTUVWXYZ") -> ExactCover:
    """Pentominoes (with reflections) on a rows x cols board, each piece once."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    xc = ExactCover(list(pieces) + cells, name=f"pentomino {rows}x{cols}")
    for name in pieces:
        picture = PENTOMINOES[name]
        shape = [(r, c) for r, line in enumerate(picture) for c, ch in enumerate(line)
                 if ch == "#"]
        for o in sorted(orientations(shape)):
            height, width = max(r for r, _ in o) + 1, max(c for _, c in o) + 1
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    xc.add_option([name] + [(r + dr, c + dc) for dr, dc in o])
    return xc


def sudoku_model(line: str) -> Model:
    """A 9x9 sudoku: a variable per cell (givens as one-value domains), all-different per unit."""
    m = Model("sudoku")
    cells = {(r, c): m.var((r, c), [int(line[9 * r + c])] if line[9 * r + c] in "123456789"
                           else range(1, 10))
             for r in range(9) for c in range(9)}
    units = [[(r, c) for c in range(9)] for r in range(9)]
    units += [[(r, c) for r in range(9)] for c in range(9)]
    units += [[(r + i, c + j) for i in range(3) for j in range(3)]
              for r in range(0, 9, 3) for c in range(0, 9, 3)]
    for unit in units:
        m.add(AllDifferent([cells[x] for x in unit]))
    return m


def kakuro_model(grid: list[str]) -> Model:
    """A kakuro in the shared data's grid format: all-different and a sum per run."""
    rows = [line.split(" ") for line in grid]
    m = Model("kakuro")
    white = {(r, c): m.var((r, c), range(1, 10))
             for r, row in enumerate(rows) for c, token in enumerate(row) if token == "."}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if "\\" not in token:
                continue
            for total, (dr, dc) in zip(token.split("\\"), ((1, 0), (0, 1))):
                if not total:
                    continue
                run, (rr, cc) = [], (r + dr, c + dc)
                while (rr, cc) in white:
                    run.append(white[rr, cc])
                    rr, cc = rr + dr, cc + dc
                m.add(AllDifferent(run))
                m.add(Sum(run) == int(total))
    return m


COLOURED = "| a tiny XCC problem\na b c | x y\na x:0\nb x:0 y\nc y:1\na b x:1\n"
"""The coloured instance of docs/developing/problems.md section 1."""

# -- every backend on every form --------------------------------------------------------


def run_all(problem: Any, expected: int | None, runslow: bool = False,
            seconds: float | None = None) -> CrosscheckReport:
    """Every backend on `problem`, compared. The problem's own backend must
    finish; another that does not within the budget (python-constraint on the
    hard sudokus: forward checking only) is inconclusive, not compared
    (with `--runslow`, every one must finish)."""
    report = crosscheck(problem, backends=witnesses(problem),
                        time_limit=None if runslow else seconds or CROSSCHECK_BUDGET)
    assert report.agree, str(report)
    own = backends.default_for(problem)
    for run in report.runs:
        if run.status is Status.TIME_LIMIT and run.backend != own:
            continue
        assert run.status is Status.COMPLETE, str(report)
        if expected is not None:
            assert run.count == expected, str(report)
    assert report.sets_compared
    return report


CROSSCHECK_BUDGET = 5.0
"""Seconds each backend gets in a cross-check, unless --runslow."""


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_queens_both_forms(n: int, shared_data: Path) -> None:
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    expected = next(row["solutions"] for row in rows if row["n"] == n)
    run_all(queens_xc(n), expected)
    run_all(queens_model(n), expected)


def test_eight_queens_both_forms(shared_data: Path, runslow: bool) -> None:
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    expected = next(row["solutions"] for row in rows if row["n"] == 8)
    run_all(queens_xc(8), expected)
    run_all(queens_model(8), expected, runslow=runslow)


@pytest.mark.slow
def test_pentomino_3x20_with_reflections(shared_data: Path, runslow: bool) -> None:
    answers = json.loads((shared_data / "polyomino" / "answers.json").read_text())
    expected = answers["answers"]["pent_3x20"]["count_with_reflections"]
    # Lowered to a 0/1 model, this takes bitmask minutes; python-constraint, taking the
    # cover directly, about 50 s; sat (no search order of its own for tilings) finds
    # no tiling in a minute; cpsat 8 s at load 5. (The 5x4 tiling below runs by default.)
    run_all(pentomino_xc(3, 20), expected, seconds=30)


def test_small_polyomino_on_every_backend() -> None:
    run_all(pentomino_xc(5, 4, "LNPY"), None)


def test_coloured_instance() -> None:
    xc = ExactCover.from_text(COLOURED)
    run_all(xc, 1)
    assert crosscheck(xc).runs[0].solutions == {(2, 3): (2, 3)}


def grid_of(solution: dict) -> str:
    return "".join(str(solution[r, c]) for r in range(9) for c in range(9))


SUDOKUS = [("michael404_9x9.txt", 0), ("norvig_top95.txt", 0), ("norvig_top95.txt", 1)]
"""(file, line): python-constraint has no propagation beyond forward checking
and takes minutes on the hard ones (inconclusive within the budget)."""


@pytest.mark.parametrize("name, line", SUDOKUS)
def test_sudokus(name: str, line: int, shared_data: Path, runslow: bool) -> None:
    puzzle, solution = (shared_data / "sudoku" / name).read_text().split("\n")[line].split()
    report = run_all(sudoku_model(puzzle), 1, runslow=runslow)
    for run in report.finished:
        if run.counted_only:  # an exact counter: its count was compared
            continue
        assert run.solutions is not None
        assert [grid_of(s) for s in run.solutions.values()] == [solution]


def test_sudokus_with_many_or_no_solutions(shared_data: Path, runslow: bool) -> None:
    data = json.loads((shared_data / "sudoku" / "sudoku9_special.json").read_text())
    for puzzle in data["puzzles"]:
        problem = sudoku_model(puzzle["puzzle"])
        report = crosscheck(problem, backends=witnesses(problem),
                            time_limit=None if runslow else CROSSCHECK_BUDGET)
        assert report.agree, str(report)
        for run in report.finished:
            assert run.count == puzzle["solution_count"], str(report)
            listed = puzzle.get("all_solutions")
            if isinstance(listed, list) and run.solutions is not None:
                assert sorted(map(grid_of, run.solutions.values())) == sorted(listed)


KAKUROS = ["cross_sums_4", "gridpuzzlesolver_Easy4x4Puzzle", "janko_kakuro_91",
           "pycsp3_easy-000", "cross_sums_2"]


@pytest.mark.parametrize("name", KAKUROS)
def test_kakuros(name: str, shared_data: Path) -> None:
    puzzles = json.loads((shared_data / "kakuro" / "kakuro.json").read_text())["puzzles"]
    puzzle = next(p for p in puzzles if p["name"] == name)
    run_all(kakuro_model(puzzle["grid"]), puzzle["solution_count"])


# -- a broken backend is caught -----------------------------------------------------------


class _Dropping(Search):
    def __init__(self, inner: Search, drop: int) -> None:
        super().__init__()
        self.inner, self.drop, self.backend = inner, drop, "broken"

    def __next__(self) -> Any:
        solution = next(self.inner)
        if self.stats.solutions == self.drop:
            self.stats.solutions += 1
            solution = next(self.inner)
        self.stats.solutions += 1
        return solution

    @property
    def status(self) -> Status | None:  # type: ignore[override]
        return self.inner.status

    @status.setter
    def status(self, value: Status | None) -> None:
        pass


class DroppingBackend:
    """A test double: cpsat that silently drops its third solution."""

    name = "broken"
    native = Model
    accepts = (Model, ExactCover)
    capabilities = frozenset({"enumerate"})

    def solutions(self, problem: Any, *, limit=None, time_limit=None, progress=None) -> Search:
        inner = backends.get("cpsat").solutions(problem, time_limit=time_limit)
        return _Dropping(inner, drop=2)

    def count(self, problem: Any, *, time_limit=None, progress=None) -> Result:
        return self.solutions(problem, time_limit=time_limit).result()


def test_a_dropped_solution_is_reported() -> None:
    xc = queens_xc(6)
    report = crosscheck(xc, backends=["dlx", DroppingBackend()])
    assert not report.agree
    dlx, broken = report.runs
    assert (dlx.count, broken.count) == (4, 3)
    assert (dlx.verdict, broken.verdict) == ("agree", "disagree")
    assert report.difference is not None
    assert report.difference.missing_from == ["broken"]
    missing = report.difference.solution
    assert missing in dlx.solutions and missing not in broken.solutions
    text = str(report)
    assert "first differing solution" in text and "missing from: broken" in text
    assert report.to_dict()["difference"]["missing_from"] == ["broken"]


def test_an_invalid_solution_is_reported() -> None:
    class Liar(DroppingBackend):
        name = "liar"

        def solutions(self, problem: Any, **_: Any) -> Search:
            search = backends.get("dlx").solutions(problem)
            search.backend = "liar"
            original = search._solution
            search._solution = lambda: original()[:-1]  # forget one option
            return search

    report = crosscheck(queens_xc(5), backends=["dlx", Liar()])
    assert not report.agree
    assert report.runs[1].invalid and report.runs[1].verdict == "disagree"
    assert "invalid solution" in str(report)


def test_time_limited_run_is_inconclusive() -> None:
    report = crosscheck(queens_xc(6), backends=["dlx", "cpsat"], time_limit=0)
    for run in report.runs:
        assert run.status is Status.TIME_LIMIT and run.verdict == "inconclusive"
    # Nothing was compared: that is no agreement (it used to say agree).
    assert not report.agree and "inconclusive" in str(report)


def wide_model() -> Model:
    """A variable of 70 values: more than the bitmask backend's 64-bit masks take."""
    m = Model("wide")
    m.add(m.var("x", range(70)) == 3)
    return m


def test_a_backend_that_could_not_run_is_no_agreement() -> None:
    report = crosscheck(wide_model(), backends=["cpsat", "bitmask"])
    cpsat, bitmask = report.runs
    assert (cpsat.count, cpsat.verdict) == (1, "agree")
    assert bitmask.verdict == "error" and "64" in (bitmask.error or "")
    assert not report.agree and report.failed == [bitmask]
    text = str(report)
    assert "all backends agree" not in text
    assert text.splitlines()[-1].startswith("not cross-checked on every backend: bitmask")
    assert report.to_dict()["failed"] == ["bitmask"]


def test_a_backend_that_crashes_is_reported_not_raised() -> None:
    class Crashing(DroppingBackend):
        name = "crashing"

        def solutions(self, problem: Any, **_: Any) -> Search:
            raise OverflowError("Python int too large to convert to C long")

    report = crosscheck(queens_xc(4), backends=["dlx", Crashing()])
    assert not report.agree and [run.backend for run in report.failed] == ["crashing"]
    assert report.failed[0].error == "OverflowError: Python int too large to convert to C long"


def test_counts_only_past_the_limit() -> None:
    report = crosscheck(queens_xc(6), backends=["dlx", "cpsat"], limit=2)
    assert report.agree and not report.sets_compared


# -- the command line ---------------------------------------------------------------------


def test_cli_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tiny.xc"
    path.write_text(COLOURED)
    assert main(["crosscheck", str(path), "--backends", "dlx,cpsat"]) == 0
    out = capsys.readouterr().out
    assert "all backends agree: 1 solution" in out
    assert main(["crosscheck", str(path), "--json", "--backends", "dlx,cpsat"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["agree"] is True and [r["count"] for r in record["runs"]] == [1, 1]


def test_cli_disagree(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "queens.xc"
    n = 6
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)] + ["|"]
                      + [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)])]
    lines += [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setitem(backends.REGISTRY, "broken",
                        backends.Entry("broken", __name__, "DroppingBackend", None, None,
                                       "model"))
    monkeypatch.setitem(backends._instances, "broken", DroppingBackend())
    assert main(["crosscheck", str(path), "--backends", "dlx,broken"]) == 1
    out = capsys.readouterr().out
    assert "disagree" in out and "missing from: broken" in out


def test_cli_exits_1_when_a_backend_could_not_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 70 colours of one secondary item: pK alone or pK with s coloured K, so
    # 1 + 70 solutions. The lowering to a model must not need a 71-value
    # variable, so bitmask takes it and they agree ...
    path = tmp_path / "colours.xc"
    path.write_text(" ".join(f"p{k}" for k in range(70)) + " | s\n"
                    + "".join(f"p{k} s:{k}\np{k}\n" for k in range(70)))
    assert main(["crosscheck", str(path), "--backends", "dlx,bitmask"]) == 0
    assert "all backends agree: 71 solutions" in capsys.readouterr().out
    # ... but a backend that cannot run makes the check incomplete: exit 1.
    monkeypatch.setattr(backends.get("bitmask"), "solutions", _refuse)
    assert main(["crosscheck", str(path), "--backends", "dlx,bitmask"]) == 1
    out = capsys.readouterr().out
    assert "all backends agree" not in out and "bitmask could not run" in out


def _refuse(problem: Any, **_: Any) -> Search:
    raise InputError("refused for the test")


def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.xc"
    path.write_text("a b\na c\n")
    assert main(["crosscheck", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["crosscheck", str(tmp_path / "missing.xc")]) == 2
    assert main(["crosscheck", str(path), "--backends", "nosuch"]) == 2


def test_ctrl_c_stops_the_whole_check() -> None:
    class Interrupted(DroppingBackend):
        name = "interrupted"

        def solutions(self, problem: Any, **_: Any) -> Search:
            search = backends.get("dlx").solutions(problem)

            def interrupt() -> int:
                raise KeyboardInterrupt

            search._advance = lambda *args: interrupt()
            return search

    report = crosscheck(queens_xc(6), backends=["dlx", Interrupted(), "cpsat"])
    assert report.interrupted and not report.agree
    assert [run.backend for run in report.runs] == ["dlx", "interrupted"]
    assert report.runs[1].status is Status.INTERRUPTED
    assert "not run: cpsat" in str(report)


def test_one_name_is_one_backend_not_its_letters() -> None:
    report = crosscheck(queens_xc(5), backends="dlx")
    assert [run.backend for run in report.runs] == ["dlx"]
    # one finished run compares nothing: never "all backends agree"
    assert not report.agree and report.verdict == "inconclusive"
    assert str(report).splitlines()[-1] == ("inconclusive: only dlx finished: 10 solutions; "
                                            "no other backend ran")
