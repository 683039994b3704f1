"""Long counts as jobs: checkpoints that survive a kill, a Dask cluster, the
command line's parallel options."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

import csp
from csp import parallel
from csp.backends.base import OUTSIDE
from csp.cli import main
from csp.parallel.checkpoint import Journal
from csp.problems import queens


def queens_xc(n: int) -> csp.ExactCover:
    return queens.declare(queens.Queens(n))


def test_a_checkpoint_resumes_what_is_missing_and_counts_nothing_twice(tmp_path):
    path = tmp_path / "q10.ckpt"
    first = parallel.count(queens_xc(10), workers=1, checkpoint=path)
    assert first.count == 724
    lines = path.read_text().splitlines()
    done = [json.loads(line) for line in lines[1:] if '"done"' in line]
    assert sum(record["count"] for record in done) == 724
    # Keep the header and half of the finished subproblems, and a half-written line.
    kept = lines[: 1 + len(lines[1:]) // 2]
    path.write_text("\n".join(kept) + "\n" + lines[-1][: len(lines[-1]) // 2])
    again = parallel.count(queens_xc(10), workers=2, checkpoint=path)
    assert again.count == 724 and again.status is csp.Status.COMPLETE
    assert 0 < again.stats.extra["resumed"] < first.stats.extra["subproblems"]
    # The journal now holds every subproblem once: a third run counts nothing.
    third = parallel.count(queens_xc(10), workers=1, checkpoint=path)
    assert third.count == 724 and third.stats.extra["resumed"] == third.stats.extra["subproblems"]


def test_a_checkpoint_of_another_problem_or_a_damaged_one_is_refused(tmp_path):
    path = tmp_path / "q8.ckpt"
    parallel.count(queens_xc(8), workers=1, checkpoint=path)
    with pytest.raises(csp.InputError, match="another problem"):
        parallel.count(queens_xc(9), workers=1, checkpoint=path)
    with pytest.raises(csp.InputError, match="counted on dlx .prefix splitting., not bitmask"):
        parallel.count(queens_xc(8), "bitmask", workers=1, checkpoint=path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{oops", *lines[1:]]) + "\n")
    with pytest.raises(csp.InputError, match="line 2 is damaged"):
        parallel.count(queens_xc(8), workers=1, checkpoint=path)
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    with pytest.raises(csp.InputError, match="notes.txt is not a csp checkpoint"):
        parallel.count(queens_xc(8), workers=1, checkpoint=other)


def test_a_killed_count_resumes_to_the_same_total(tmp_path):
    problem = tmp_path / "q12.xc"
    problem.write_text(queens_xc(12).to_text())
    path = tmp_path / "q12.ckpt"
    command = [sys.executable, "-m", "csp.cli", "xc", str(problem), "--count", "--workers", "2",
               "--checkpoint", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(200):  # until some subproblems are journaled
        time.sleep(0.05)
        if path.exists() and path.read_text().count('"done"') >= 3:
            break
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("14200 solutions COMPLETE"), out.stdout
    assert "resumed=" in out.stdout


def test_journal_replay_is_the_frontier(tmp_path):
    path = tmp_path / "j.ckpt"
    journal = Journal.start(path, "f", "dlx", "prefix", [(0,), (1,)])
    journal.split((0,), [(0, 5), (0, 6)])
    journal.done((0, 5), 3, nodes=None, time=0.0)
    journal.close()
    state = Journal.read(path, "f", "dlx", "prefix")
    assert state.left == [(1,), (0, 6)] and state.count == 3 and state.nodes is None
    with pytest.raises(csp.InputError, match="exists already"):
        Journal.start(path, "f", "dlx", "prefix", [])


def test_large_subproblems_are_shared_out_while_the_others_run():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        result = parallel.count(queens_xc(11), executor=pool, workers=2)
    assert result.count == 2680
    # each subproblem of the first cut was counted one level deeper, in pieces
    assert result.stats.extra["subproblems"] > 2 * parallel.TASKS_PER_WORKER


def test_a_dask_cluster_counts_like_one_process():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = parallel.count(queens_xc(9), executor=client)
        assert result.count == 352 and result.status is csp.Status.COMPLETE
        assert len(result.stats.extra["workers"]) >= 1
        model = parallel.count(queens_xc(7), "bitmask", scheduler=cluster.scheduler_address)
        assert model.count == 40


def test_an_unreachable_scheduler_is_a_clear_error_within_seconds():
    pytest.importorskip("distributed")
    started = time.perf_counter()
    with pytest.raises(csp.InputError, match="cannot reach the Dask scheduler"):
        parallel.count(queens_xc(6), scheduler="tcp://127.0.0.1:9")
    assert time.perf_counter() - started < 30


def test_the_command_line_counts_in_parallel(capsys, tmp_path):
    assert main(["solve", "queens", "9", "--count", "--workers", "2"]) == 0
    assert capsys.readouterr().out == "352\n"
    assert main(["solve", "queens", "8", "--count", "--workers", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == 92 and record["stats"]["workers"]
    with pytest.raises(SystemExit) as exit:
        main(["solve", "queens", "8", "--count", "--workers", "0"])
    assert exit.value.code == 2
    assert main(["solve", "queens", "8", "--workers", "2"]) == 2
    assert "go with --count" in capsys.readouterr().err
    path = tmp_path / "two.txt"
    path.write_text("6\n7\n")
    assert main(["solve", "queens", str(path), "--count", "--checkpoint",
                 str(tmp_path / "c")]) == 2
    assert "one per file" in capsys.readouterr().err


def test_a_lowered_problem_is_counted_on_processes(csp_backend):
    # Each backend gets the problem of the other form, lowered (a model backend
    # the queens cover, an exact-cover backend a model): the lowering's decode
    # never travels, counting needs none.
    if csp.backends.native_form(csp_backend) == "model":
        problem, expected = queens_xc(8), 92
    else:
        problem, expected = _queens_model(6), 4
    result = parallel.count(problem, csp_backend, workers=2)
    assert result.count == expected
    if OUTSIDE in csp.backends.get(csp_backend).capabilities:
        # Each subproblem pays the solver's start: few, and none cut deeper
        # (the eight rows of the first queen, not the leaves of the tree).
        assert result.stats.extra["subproblems"] <= 2 * parallel.OUTSIDE_TASKS_PER_WORKER


def _queens_model(n: int) -> csp.Model:
    m = csp.Model()
    xs = [m.var(f"q{i}", range(n)) for i in range(n)]
    m.add(csp.AllDifferent(xs))
    for i in range(n):
        for j in range(i + 1, n):
            m.add(csp.Relation([xs[i], xs[j]], lambda a, b, d=j - i: abs(a - b) != d))
    return m


def test_a_port_that_never_answers_is_no_scheduler():
    pytest.importorskip("distributed")
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    started = time.perf_counter()
    try:
        with pytest.raises(csp.InputError, match="cannot reach the Dask scheduler"):
            parallel.count(queens_xc(6), scheduler=f"tcp://127.0.0.1:{server.getsockname()[1]}")
    finally:
        server.close()
    assert time.perf_counter() - started < 30
