"""The field's solvers as backends (issue 24): choco, ganak, ace, gecode.

What the backend contract (tests/test_contract.py) and the model-language
tests (tests/test_model_language.py) do not say: each solver's own traps
(ACE's "INCOMPLETE EXPLORATION" and thousands separators, ganak's
projection, Choco's bound and its n_values), a solver that crashes or
overruns its time limit, Ctrl-C leaving no process behind, and what a user
is told. A test skips with the reason when its solver is absent.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import csp
from csp import AllDifferent, ExactCover, Model, Status, backends, dispatch
from csp.backends.forked import ForkedSearch, Outbox, _demo
from csp.errors import Refused, SolverFailed
from csp.testing import QUEENS, queens_cover, queens_model

ROOT = Path(__file__).resolve().parent.parent


def need(name: str) -> None:
    """Skip unless backend `name` can run here (saying what it lacks)."""
    if name not in backends.available():
        pytest.skip(backends.missing().get(name, f"backend {name!r} is not available"))


def dominoes(rows: int, cols: int) -> ExactCover:
    """Domino tilings of a rows x cols board: an option per domino."""
    cells = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    xc = ExactCover(cells)
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                xc.add_option([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                xc.add_option([f"{r},{c}", f"{r + 1},{c}"])
    return xc


def _dead(pid: int, within: float = 5.0) -> bool:
    """Whether process `pid` is gone (or a zombie) within `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[-1].startswith("Z"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


# -- the child process ----------------------------------------------------------------


@contextlib.contextmanager
def another_thread() -> Iterator[None]:
    """Another thread runs meanwhile: a child is then started in a fresh
    interpreter, not forked (forking beside a thread is not safe)."""
    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait)
    waiter.start()
    try:
        yield
    finally:
        stop.set()
        waiter.join()


def test_a_child_started_beside_another_thread_runs_in_a_fresh_interpreter() -> None:
    with another_thread():
        search = ForkedSearch("demo", _demo, 3)
        assert list(search) == [0, 1, 2] and search.status is Status.COMPLETE


def _abort(outbox: Outbox, payload: Any, *limits: Any) -> None:
    import faulthandler

    # pytest's faulthandler, inherited, would dump this abort on the log.
    faulthandler.disable()
    print("the solver's last words")
    sys.stdout.flush()
    os.abort()


def test_a_crash_is_an_error_naming_the_backend_with_its_last_lines() -> None:
    with pytest.raises(SolverFailed, match=r"(?s)demo failed: .*signal 6.*the solver's last words"):
        ForkedSearch("demo", _abort, None).count()


def _answer_inside_a_temporary_directory(outbox: Outbox, payload: Any, *limits: Any) -> None:
    # As ACE's and Gecode's children do: the answer is sent from inside the
    # `with`, and the kill that follows it never lets the cleanup run.
    with tempfile.TemporaryDirectory(prefix="csp-test-") as place:
        Path(place, "model.xml").write_text("<instance/>")
        outbox.done(Status.COMPLETE, {"solutions": 1})
        time.sleep(30)


def test_a_child_s_temporary_files_are_removed_with_it(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    started = time.perf_counter()
    assert ForkedSearch("demo", _answer_inside_a_temporary_directory, None).count().count == 1
    assert time.perf_counter() - started < 20  # killed at its answer, not waited for
    assert list(tmp_path.iterdir()) == []
    with another_thread():  # a fresh interpreter's child too
        assert ForkedSearch("demo", _demo, 2, count_only=True).count().count == 2
    assert list(tmp_path.iterdir()) == []


# -- choco ------------------------------------------------------------------------------


def _choco_beyond_int(outbox: Outbox, payload: Any, *limits: Any) -> None:
    from pychoco import Model as ChocoModel

    ChocoModel().intvar(0, (1 << 31) - 1)  # Choco aborts its process on this


def test_choco_aborting_its_process_is_an_error_not_a_crash() -> None:
    need("choco")
    with pytest.raises(SolverFailed, match=r"(?s)choco failed: .*consider reducing the bounds"):
        ForkedSearch("choco", _choco_beyond_int, None).count()


def test_choco_refuses_before_solving_what_would_abort_it() -> None:
    need("choco")
    m = Model()
    m.var("x", [0, 10**8])
    with pytest.raises(Refused, match=r"beyond Choco's bound.*backends that take it: .*cpsat"):
        csp.count(m, "choco")
    assert csp.count(m).count == 2  # auto: bitmask takes it


def test_choco_nvalue_beside_all_different_except_0() -> None:
    # Choco's default (strong) n_values filtering loses (0, 0, 0) here.
    need("choco")
    m = Model()
    xs = [m.var("a", [0]), m.var("b", range(3)), m.var("c", range(2))]
    m.add(csp.NValue(xs) <= 2)
    m.add(csp.AllDifferentExcept(xs, [0]))
    assert csp.count(m, "choco").count == 4 == csp.count(m, "cpsat").count


def test_choco_limits_and_solutions() -> None:
    need("choco")
    m = queens_model(8)
    assert csp.count(m, "choco").count == QUEENS[8]
    search = csp.solutions(m, "choco", limit=3)
    assert len(list(search)) == 3 and search.status is Status.SOLUTION_LIMIT
    assert search.stats.nodes is not None and "backtracks" in search.stats.extra


# -- ganak ----------------------------------------------------------------------------------


def test_ganak_counts_tilings_as_dlx_does() -> None:
    need("ganak")
    for rows, cols, tilings in ((4, 4, 36), (6, 6, 6728)):
        xc = dominoes(rows, cols)
        result = csp.count(xc, "ganak")
        assert (result.count, result.status) == (tilings, Status.COMPLETE)
        assert csp.count(xc, "dlx").count == tilings
        assert "meelgroup/ganak#116" in result.stats.extra["caveat"]


def test_ganak_counts_on_the_declared_literals_only() -> None:
    # The sequential counters of sat's at-most-one are not functions of the
    # options: counted over every literal, 8 queens would be 14,272, not 92.
    need("ganak")
    assert csp.count(queens_cover(8), "ganak").count == QUEENS[8]
    assert csp.count(queens_model(6), "ganak").count == QUEENS[6]


def test_ganak_is_a_witness_by_its_count() -> None:
    need("ganak")
    report = csp.crosscheck(dominoes(4, 4), ["dlx", "ganak"])
    assert report.agree, str(report)
    assert [run.count for run in report.runs] == [36, 36]
    with pytest.raises(Refused, match="counts solutions but does not list them"):
        csp.solve(dominoes(4, 4), "ganak")


def test_a_time_limit_is_never_printed_as_a_bare_zero() -> None:
    need("ganak")
    out = subprocess.run([sys.executable, "-m", "csp", "solve", "queens", "13", "--count",
                          "--backend", "ganak", "--time-limit", "0.2"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 3, out.stderr
    assert out.stdout.split() == ["0", "(TIME_LIMIT)"], out.stdout


# -- ace ------------------------------------------------------------------------------------


def _small() -> Model:
    m = Model()
    xs = [m.var(f"x[{i}]", range(3)) for i in range(3)]
    m.add(AllDifferent(xs))
    return m


def _fake_ace(monkeypatch: pytest.MonkeyPatch, output: str, *, sleep: float = 0.0,
              pid_file: Path | None = None) -> None:
    """ACE replaced by a program printing `output` (then sleeping `sleep` s).
    The child process is forked, so the patch reaches it."""
    from csp.backends import ace

    script = textwrap.dedent(f"""
        import os, sys, time
        if {str(pid_file)!r} != 'None':
            open({str(pid_file)!r}, 'w').write(str(os.getpid()))
        sys.stdout.write({output!r})
        sys.stdout.flush()
        time.sleep({sleep})
    """)
    monkeypatch.setattr(ace, "command", lambda *a, **k: [sys.executable, "-c", script])
    monkeypatch.setattr(ace, "archive", lambda *a, **k: ([], None))


def test_ace_counts_are_read_with_thousands_separators(monkeypatch: pytest.MonkeyPatch) -> None:
    need("ace")
    _fake_ace(monkeypatch, "d FOUND SOLUTIONS  1,366\nd COMPLETE EXPLORATION\n")
    result = csp.count(_small(), "ace")
    assert (result.count, result.status) == (1366, Status.COMPLETE)


def test_ace_incomplete_exploration_is_not_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    # "d INCOMPLETE EXPLORATION" contains "COMPLETE EXPLORATION": read exactly,
    # and, with no limit to explain it, an error rather than a count.
    need("ace")
    _fake_ace(monkeypatch, "s SATISFIABLE\nd FOUND SOLUTIONS  5\nd INCOMPLETE EXPLORATION\n")
    with pytest.raises(SolverFailed, match=r"ace failed: .*neither at a limit nor complete"):
        csp.count(_small(), "ace")


def test_ace_unreadable_output_is_an_error_with_its_last_lines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    need("ace")
    _fake_ace(monkeypatch, "Exception in thread main: java.lang.OutOfMemoryError\n")
    with pytest.raises(SolverFailed, match=r"(?s)ace failed: ACE ended without a complete "
                       r"answer.*OutOfMemoryError"):
        csp.count(_small(), "ace")
    _fake_ace(monkeypatch, "v <instantiation> <list> x[] </list> <values> 0 1 </values>\n"
                           "d FOUND SOLUTIONS 1\nd COMPLETE EXPLORATION\n")
    with pytest.raises(SolverFailed, match=r"unreadable output: 2 values for 3 variables"):
        list(csp.solutions(_small(), "ace"))


def test_ace_solutions_are_read_back_by_the_writer_s_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    need("ace")
    _fake_ace(monkeypatch, "v <instantiation> <list> x[] </list> <values> 2 0 1 </values>"
                           " </instantiation>\nd FOUND SOLUTIONS 1\nd COMPLETE EXPLORATION\n")
    assert [dict(s) for s in csp.solutions(_small(), "ace")] == [
        {"x[0]": 2, "x[1]": 0, "x[2]": 1}]


def test_an_overrun_time_limit_kills_the_solver(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    need("ace")
    pid_file = tmp_path / "pid"
    _fake_ace(monkeypatch, "", sleep=600, pid_file=pid_file)
    started = time.perf_counter()
    # 3 s: time for the fake to start on a loaded machine (at 0.5 s it was
    # sometimes never started: nothing then to kill, and nothing proved)
    result = csp.count(_small(), "ace", time_limit=3)
    assert (result.count, result.status) == (0, Status.TIME_LIMIT)
    assert time.perf_counter() - started < 15
    assert _dead(int(pid_file.read_text()))


def test_ctrl_c_leaves_no_solver_behind(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    need("ace")
    pid_file = tmp_path / "pid"
    _fake_ace(monkeypatch, "", sleep=600, pid_file=pid_file)

    def progress(stats: csp.Stats) -> None:
        if pid_file.exists() and pid_file.read_text():
            raise KeyboardInterrupt

    result = csp.count(_small(), "ace", time_limit=60, progress=progress)
    assert result.status is Status.INTERRUPTED
    assert _dead(int(pid_file.read_text()))


def test_ace_itself() -> None:
    need("ace")
    m = _small()
    m.var("free", range(4))  # in no constraint: ACE leaves it out, csp multiplies it in
    assert csp.count(m, "ace").count == 6 * 4
    assert len({tuple(sorted(s.items())) for s in csp.solutions(m, "ace")}) == 24
    assert csp.count(queens_model(6), "ace").count == QUEENS[6]


def test_ace_leaves_nothing_in_the_temporary_directory(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    need("ace")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert csp.count(_small(), "ace").count == 6
    assert len(list(csp.solutions(_small(), "ace", limit=2))) == 2  # stopped mid-answer
    assert list(tmp_path.iterdir()) == []


# -- what a user is told --------------------------------------------------------------------


def test_list_says_what_installs_a_missing_backend(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from csp.commands import list as listing

    entry = backends.REGISTRY["ace"]
    monkeypatch.setitem(backends.REGISTRY, "ace",
                        dataclasses.replace(entry, program="no-such-java-for-csp"))
    backends.reload()
    try:
        listing.run(None)  # type: ignore[arg-type]
        assert ("backend ace is not installed: backend 'ace' needs the program "
                "'no-such-java-for-csp' on PATH: apt-get install default-jre-headless"
                in capsys.readouterr().out)
        with pytest.raises(csp.BackendUnavailable, match="apt-get install"):
            backends.get("ace")
    finally:
        monkeypatch.undo()
        backends.reload()


def test_list_says_ganak_s_caveat() -> None:
    need("ganak")
    out = subprocess.run([sys.executable, "-m", "csp", "list"], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "ganak: ganak's cache is keyed by a 64-bit hash" in out.stdout


# -- the form each backend prefers ------------------------------------------------------------


README_SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def sudoku_model(puzzle: str) -> Model:
    m = Model("sudoku")
    cell = {(r, c): m.var((r, c), range(1, 10) if puzzle[9 * r + c] == "." else
                          [int(puzzle[9 * r + c])]) for r in range(9) for c in range(9)}
    for k in range(9):
        m.add(AllDifferent([cell[k, c] for c in range(9)]))
        m.add(AllDifferent([cell[r, k] for r in range(9)]))
        m.add(AllDifferent([cell[3 * (k // 3) + i // 3, 3 * (k % 3) + i % 3]
                            for i in range(9)]))
    return m


def test_python_constraint_takes_a_sudoku_model_as_an_exact_cover() -> None:
    # As a model: count 0 with TIME_LIMIT after 30 s; as a cover, 0.14 s.
    need("python-constraint")
    m = sudoku_model(README_SUDOKU)
    assert isinstance(dispatch.prepare(m, "python-constraint").target, ExactCover)
    result = csp.count(m, "python-constraint", time_limit=60)
    assert (result.count, result.status) == (1, Status.COMPLETE)
    solution = csp.solve(m, "python-constraint").solution
    assert m.check(solution) == []
    # A model with a sum stays a model.
    assert isinstance(dispatch.prepare(queens_model(6), "python-constraint").target, Model)


def test_a_model_without_constraints_is_not_lowered() -> None:
    need("python-constraint")
    m = Model()
    m.var("x", range(3))
    assert isinstance(dispatch.prepare(m, "python-constraint").target, Model)
    assert csp.count(m, "python-constraint").count == 3


def test_a_count_with_a_limit_on_a_backend_that_counts_only() -> None:
    need("ganak")
    result = csp.count(queens_cover(6), "ganak", limit=3)
    assert (result.count, result.status) == (3, Status.SOLUTION_LIMIT)
    result = csp.count(queens_cover(6), "ganak", limit=10)
    assert (result.count, result.status) == (4, Status.COMPLETE)


# -- gecode ---------------------------------------------------------------------------------


def _fake_flatzinc(monkeypatch: pytest.MonkeyPatch) -> None:
    """A FlatZinc writer for models of all-differents only, where csp has none
    of its own yet (csp.io.flatzinc, issue 23): enough to test how gecode's
    answers are read."""
    import itertools
    import types

    if "csp.io.flatzinc" in sys.modules or _has_flatzinc():
        return

    def write(model: Model, path: str) -> dict[Any, str]:
        ids = {name: f"v{k}" for k, name in enumerate(model.variables)}
        lines = [f"var {{{', '.join(map(str, v.domain))}}}: {ids[name]} :: output_var;"
                 for name, v in model.variables.items()]
        for c in model.constraints:
            assert isinstance(c, AllDifferent)
            lines += [f"constraint int_ne({ids[a]}, {ids[b]});"
                      for a, b in itertools.combinations(c.scope, 2)]
        Path(path).write_text("\n".join([*lines, "solve satisfy;", ""]))
        return ids

    module = types.ModuleType("csp.io.flatzinc")
    module.write = write  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "csp.io.flatzinc", module)
    backends.reload()


def _has_flatzinc() -> bool:
    import importlib.util

    return importlib.util.find_spec("csp.io.flatzinc") is not None


@pytest.fixture
def gecode(monkeypatch: pytest.MonkeyPatch) -> Any:
    import shutil

    if shutil.which("fzn-gecode") is None:
        pytest.skip("fzn-gecode is not installed: apt-get install flatzinc")
    _fake_flatzinc(monkeypatch)
    yield backends.get("gecode")
    monkeypatch.undo()
    backends.reload()


def test_gecode_reads_solutions_counts_and_statistics(gecode: Any) -> None:
    m = Model()
    m.add(AllDifferent(m.vars("abcd", range(4))))
    m.var("z", [7, 9])  # in no constraint: Gecode lists it too
    result = gecode.count(m)
    assert (result.count, result.status) == (48, Status.COMPLETE)
    assert result.stats.nodes is not None and "propagations" in result.stats.extra
    found = list(gecode.solutions(m))
    assert len(found) == 48 and all(m.check(s) == [] for s in found)
    search = gecode.solutions(m, limit=2)
    assert len(list(search)) == 2 and search.status is Status.SOLUTION_LIMIT


def test_gecode_leaves_nothing_in_the_temporary_directory(
        gecode: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    m = Model()
    m.add(AllDifferent(m.vars("abc", range(3))))
    assert gecode.count(m).count == 6
    assert len(list(gecode.solutions(m, limit=2))) == 2
    assert list(tmp_path.iterdir()) == []


def test_gecode_stopped_by_its_time_limit(gecode: Any) -> None:
    m = Model()
    m.add(AllDifferent(m.vars("abcdefghijkl", range(12))))
    result = gecode.count(m, time_limit=0.5)
    assert result.status is Status.TIME_LIMIT and 0 < result.count < 479_001_600


def test_gecode_without_a_solution(gecode: Any) -> None:
    m = Model()
    m.add(AllDifferent(m.vars("abc", range(2))))
    result = gecode.count(m)
    assert (result.count, result.status) == (0, Status.COMPLETE)
