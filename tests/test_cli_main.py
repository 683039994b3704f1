"""`python -m csp` is the `csp` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python_m_csp(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "csp", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_python_m_csp_runs_the_command_line() -> None:
    done = _python_m_csp("list")
    assert done.returncode == 0, done.stderr
    assert "sudoku" in done.stdout


def test_python_m_csp_reports_bad_input_like_the_script() -> None:
    done = _python_m_csp("xc", "-", stdin="a b\nc\n")
    assert done.returncode == 2
    assert done.stderr.startswith("csp: error:") and "Traceback" not in done.stderr
