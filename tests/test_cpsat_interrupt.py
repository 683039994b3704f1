"""Ctrl-C during a CP-SAT search stops it from Python and keeps what was found:
CP-SAT's own SIGINT handler aborted the process (std::bad_function_call, -6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("ortools")

from csp import Model, Status  # noqa: E402
from csp.backends.cpsat import CPSATSearch  # noqa: E402
from csp.testing import queens_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_cpsat_never_installs_its_own_sigint_handler() -> None:
    for options in ({}, {"limit": 1}, {"count_only": True}, {"time_limit": 5}):
        assert CPSATSearch(Model(), **options).parameters()["catch_sigint_signal"] is False


@pytest.mark.parametrize("mode", ["--count", "--all"])
def test_ctrl_c_ends_a_cpsat_run_interrupted(mode: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "csp", "solve", "queens", "14", "--backend", "cpsat", mode],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        # A shell's background job ignores SIGINT, and a child inherits that.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(6)  # import, then some solutions (14 queens has 365,596)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:  # a failed test leaves no search running behind it
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, (process.returncode, err)
    summary = out.splitlines()[-1]
    assert summary.endswith("(INTERRUPTED)"), summary
    assert int(summary.split()[0]) > 0
    assert "Traceback" not in err and "bad_function_call" not in err


# -- Ctrl-C outside the wait for solutions (in process: no subprocess timing) ---------------


def test_ctrl_c_as_the_solver_thread_starts_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C can land in `Thread.start`, before the wait for solutions. It
    # escaped with the solver thread running, and the process could not exit
    # until CP-SAT had counted 14 queens to the end (a CI run's hang).
    start = CPSATSearch._start

    def interrupted(self: CPSATSearch) -> None:
        start(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(CPSATSearch, "_start", interrupted)
    search = CPSATSearch(queens_model(14), count_only=True)
    result = search.count()
    assert result.status is Status.INTERRUPTED
    assert search._thread is not None and not search._thread.is_alive()


def test_ctrl_c_just_after_a_solution_is_taken_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    measure = CPSATSearch._measure
    interrupts = [KeyboardInterrupt()]

    def interrupted(self: CPSATSearch) -> None:
        measure(self)
        if interrupts:
            raise interrupts.pop()

    monkeypatch.setattr(CPSATSearch, "_measure", interrupted)
    model = queens_model(14)
    search = CPSATSearch(model)
    found = list(search)
    assert len(found) == 1 and model.check(found[0]) == []
    assert search.stats.solutions == 1 and search.status is Status.INTERRUPTED
    assert search._thread is not None and not search._thread.is_alive()
