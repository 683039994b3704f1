"""`csp xc`: output formats, stdin, bad input, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from csp.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_solutions_then_summary(capsys):
    assert main(["xc", str(EXAMPLES / "tiny.xc")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("c y:1\na b x:1\n\n1 solution COMPLETE backend=dlx")


def test_count_and_json(capsys):
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--count"]) == 0
    assert capsys.readouterr().out.startswith("92 solutions COMPLETE")
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--json", "--limit", "2"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == 2 and record["status"] == "SOLUTION_LIMIT"
    assert len(record["solutions"]) == 2 and len(record["solutions"][0]) == 8
    assert record["stats"]["nodes"] > 0
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--json", "--count"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == 92 and "solutions" not in record


def test_count_on_workers(capsys):
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--count", "--workers", "2"]) == 0
    assert capsys.readouterr().out.startswith("92 solutions COMPLETE")


def test_blank_line_between_solutions(capsys):
    main(["xc", str(EXAMPLES / "queens8.xc"), "--limit", "2"])
    blocks = capsys.readouterr().out.split("\n\n")
    assert len(blocks) == 3
    assert all(len(block.splitlines()) == 8 for block in blocks[:2])


def test_stdin(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b\na\nb\na b\n")))
    assert main(["xc", "-", "--count"]) == 0
    assert capsys.readouterr().out.startswith("2 solutions COMPLETE")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"a b\na z\n", "line 2: unknown item z"),
        (b"a b\na a\n", "line 2: item a twice in one option"),
        (b"a | x\na:1\n", "line 2: colour '1' on primary item a"),
        (b"| only a comment\n", "no items"),
        (b"a b\n\x00\x01", "binary file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.xc"
    path.write_bytes(content)
    assert main(["xc", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_missing_file(capsys):
    assert main(["xc", "/no/such/file.xc"]) == 2
    assert "cannot read /no/such/file.xc" in capsys.readouterr().err


def test_bad_arguments_exit_non_zero(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["xc", str(EXAMPLES / "tiny.xc"), "--limit", "-3"])
    assert caught.value.code == 2
    assert main(["xc", str(EXAMPLES / "tiny.xc"), "--backend", "nope"]) == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err


def test_ctrl_c_keeps_what_was_found(tmp_path):
    from csp.problems import queens

    path = tmp_path / "queens16.xc"  # 14,772,512 solutions: far longer than the test waits
    path.write_text(queens.declare(queens.Queens(16)).to_text())
    process = subprocess.Popen(
        [sys.executable, "-m", "csp.cli", "xc", str(path), "--count", "--time-limit", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    time.sleep(8)  # import, JIT or cache load, then some counting
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert " INTERRUPTED " in out
    assert int(out.split()[0]) > 0
    assert "Traceback" not in err
