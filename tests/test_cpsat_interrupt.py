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

from csp import Model  # noqa: E402
from csp.backends.cpsat import CPSATSearch  # noqa: E402

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
