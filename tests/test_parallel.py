"""Parallel counting: the subproblems partition the solutions."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import csp
from csp import parallel
from csp.backends.base import SPLIT
from csp.exactcover import ExactCover
from csp.parallel import split


def queens(n: int) -> ExactCover:
    from csp.problems import queens as module

    return module.declare(module.parse(str(n))[0])


def test_exact_cover_on_a_process_pool_counts_like_one_process():
    xc = queens(9)
    result = parallel.count(xc, workers=2)
    assert result.count == 352 == csp.count(xc).count
    assert result.status is csp.Status.COMPLETE
    assert result.stats.extra["subproblems"] >= 2


def test_any_executor_with_submit():
    xc = queens(8)
    with ThreadPoolExecutor(2) as pool:
        assert parallel.count(xc, executor=pool).count == 92


def test_model_split_on_values(monkeypatch):
    m = csp.Model()
    xs = [m.var(f"q{i}", range(7)) for i in range(7)]
    m.add(csp.AllDifferent(xs))
    m.add(csp.Sum(xs) == 21)  # redundant with all-different: it must not change the count
    for i in range(7):
        for j in range(i + 1, 7):
            m.add(csp.Relation([xs[i], xs[j]], lambda a, b, d=j - i: abs(a - b) != d))
    backend = csp.backends.default_for(m)  # the model's own backend
    expected = csp.count(m, backend).count
    assert expected == 40  # 7 queens
    assert parallel.count(m, backend, workers=1).count == expected
    with ThreadPoolExecutor(2) as pool:
        assert parallel.count(m, backend, executor=pool).count == expected


def test_time_limit_reaches_every_subproblem():
    result = parallel.count(queens(16), workers=1, time_limit=0.5)
    assert result.status is csp.Status.TIME_LIMIT
    assert result.count < 14_772_512


def test_a_backend_that_does_not_split_gets_the_lowered_model_split():
    # a model backend declares no `split`: the exact cover is counted as a model
    # split on values (this used to be refused)
    backend = next(name for name in csp.backends.engines()
                   if SPLIT not in csp.backends.get(name).capabilities)
    result = parallel.count(queens(6), backend, workers=1)
    assert result.count == 4 and result.stats.extra["subproblems"] > 1


# -- stopping: Ctrl-C, a killed parent ---------------------------------------------------


def _start_workers(tmp_path):
    import subprocess
    import sys
    import time

    path = tmp_path / "queens16.xc"
    path.write_text(queens(16).to_text())
    process = subprocess.Popen(
        [sys.executable, "-m", "csp.cli", "xc", str(path), "--count", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children: list[int] = []
    for _ in range(100):  # the pool starts once the problem is read and split
        time.sleep(0.2)
        children = _children(process.pid)
        if len(children) >= 2:
            break
    time.sleep(0.5)
    return process, children


def _children(pid: int) -> list[int]:
    import pathlib

    found = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pids: list[int]) -> list[int]:
    import pathlib

    alive = []
    for pid in pids:
        try:
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_workers_at_once_and_prints_what_was_counted(tmp_path):
    import signal
    import time

    process, children = _start_workers(tmp_path)
    assert children, "the pool started"
    stopped = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert time.perf_counter() - stopped < 10
    assert "INTERRUPTED" in out and "subproblems=" in out
    time.sleep(0.5)
    assert _alive(children) == []


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_a_killed_parent_leaves_no_worker_behind(tmp_path):
    import signal
    import time

    process, children = _start_workers(tmp_path)
    assert children, "the pool started"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    for _ in range(50):
        if not _alive(children):
            break
        time.sleep(0.1)
    assert _alive(children) == []


def test_a_model_with_a_lambda_relation_is_counted_on_processes():
    m = csp.Model()
    xs = [m.var(f"q{i}", range(6)) for i in range(6)]
    m.add(csp.AllDifferent(xs))
    for i in range(6):
        for j in range(i + 1, 6):
            m.add(csp.Relation([xs[i], xs[j]], lambda a, b, d=j - i: abs(a - b) != d))
    assert parallel.count(m, "bitmask", workers=2).count == 4  # 6 queens


def test_givens_do_not_stop_the_splitting():
    from csp.problems import sudoku

    [puzzle] = sudoku.parse("." * 81)
    m = sudoku.declare(puzzle, "model")
    m.variables["r1c1"].domain = (5,)  # one given among blanks
    from csp.parallel.split import ValueSplitter

    assert len(ValueSplitter(csp.dispatch.prepare(m, "bitmask")).first(16)) >= 16
    [hard] = sudoku.parse(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    xc = sudoku.declare(hard, "exact-cover")
    # past the forced levels of the givens, the tree branches
    assert len(split.prefixes(csp.dispatch.prepare(xc), 4)) > 1
    assert parallel.count(xc, workers=2).count == 1
