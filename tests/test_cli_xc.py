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


@pytest.mark.parametrize("limit", ["inf", "Infinity"])
def test_an_infinite_time_limit_means_none(capsys, limit):
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--count", "--time-limit", limit]) == 0
    assert capsys.readouterr().out.startswith("92 solutions COMPLETE")
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--time-limit", limit, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 92


def test_a_nan_time_limit_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["xc", str(EXAMPLES / "queens8.xc"), "--time-limit", "nan"])
    assert caught.value.code == 2
    assert "not a number of seconds: 'nan'" in capsys.readouterr().err


def test_crosscheck_with_an_infinite_time_limit(capsys):
    assert main(["crosscheck", str(EXAMPLES / "tiny.xc"), "--backends", "dlx,bitmask",
                 "--time-limit", "inf"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("all backends agree: 1 solution")


def interrupt_on_call(monkeypatch, target: object, name: str, call: int) -> None:
    """Make `target.name` raise KeyboardInterrupt on its `call`-th call, as a
    Ctrl-C arriving while a solution is being printed would."""
    real = getattr(target, name)
    calls = 0

    def wrapper(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == call:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, wrapper)


def test_ctrl_c_while_listing_prints_the_summary(monkeypatch, capsys):
    from csp.exactcover import ExactCover

    # queens8 solutions have 8 options each: the 3rd solution is cut short.
    interrupt_on_call(monkeypatch, ExactCover, "option_text", 8 * 2 + 3)
    assert main(["xc", str(EXAMPLES / "queens8.xc")]) == 130
    out = capsys.readouterr().out
    *blocks, summary = out.split("\n\n")
    assert len(blocks) == 2 and all(len(block.splitlines()) == 8 for block in blocks)
    assert summary.startswith("2 solutions INTERRUPTED backend=dlx")


def test_ctrl_c_while_listing_with_json_keeps_the_solutions(monkeypatch, capsys):
    from csp.exactcover import ExactCover

    interrupt_on_call(monkeypatch, ExactCover, "option_text", 8 * 3 + 1)
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--json"]) == 130
    record = json.loads(capsys.readouterr().out)
    assert (record["count"], record["status"]) == (3, "INTERRUPTED")
    assert len(record["solutions"]) == 3 and record["stats"]["nodes"] > 0


def test_ctrl_c_while_printing_to_a_full_pipe(tmp_path):
    # Nobody reads stdout at first, so the command blocks in a write: the
    # SIGINT arrives in the printing loop, not in the kernel.
    path = tmp_path / "queens16.xc"
    path.write_text(queens16_text())
    process = subprocess.Popen(
        [sys.executable, "-m", "csp.cli", "xc", str(path), "--time-limit", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(8)  # import, JIT or cache load, then fill the pipe
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    summary = out.splitlines()[-1]
    assert " INTERRUPTED backend=dlx " in summary and int(summary.split()[0]) > 0
    assert "Traceback" not in err


def test_ctrl_c_with_json_prints_the_object(tmp_path):
    path = tmp_path / "queens16.xc"
    path.write_text(queens16_text())
    process = subprocess.Popen(
        [sys.executable, "-m", "csp.cli", "xc", str(path), "--json", "--time-limit", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(5)  # import, JIT or cache load, then some solutions listed
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    record = json.loads(out)
    assert record["status"] == "INTERRUPTED"
    assert record["count"] == len(record["solutions"]) > 0
    assert "Traceback" not in err


def queens16_text() -> str:
    from csp.problems import queens

    return queens.declare(queens.Queens(16)).to_text()


def test_a_byte_order_mark_is_ignored(tmp_path, monkeypatch, capsys):
    import io

    content = b"\xef\xbb\xbfa b | x\na x:0\nb x:0\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content)))
    assert main(["xc", "-"]) == 0
    assert capsys.readouterr().out.startswith("a x:0\nb x:0\n\n1 solution COMPLETE")
    path = tmp_path / "bom.xc"
    path.write_bytes(content)
    assert main(["xc", str(path), "--count"]) == 0
    assert capsys.readouterr().out.startswith("1 solution COMPLETE")


def test_a_colour_with_colons_is_printed_back(tmp_path, capsys):
    path = tmp_path / "colons.xc"
    path.write_text("a b | x\na x:b:c\nb x:b:c\n")
    assert main(["xc", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("a x:b:c\nb x:b:c\n\n1 solution COMPLETE") and err == ""


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_not_read_forever():
    # In a process with 2 GiB of address space, so that a regression fails
    # with a MemoryError instead of eating the machine's memory.
    import resource

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    process = subprocess.run([sys.executable, "-m", "csp.cli", "xc", "/dev/zero"],
                             capture_output=True, text=True, timeout=120,
                             preexec_fn=cap_memory)
    assert process.returncode == 2, process.stderr[-500:]
    assert "cannot read /dev/zero: not a regular file or a pipe" in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1


def test_a_fifo_is_read(tmp_path, capsys):
    # what `csp xc <(generate)` passes: a pipe with a name
    import threading

    fifo = tmp_path / "fifo.xc"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("a b\na\nb\na b\n",))
    writer.start()
    try:
        assert main(["xc", str(fifo), "--count"]) == 0
    finally:
        writer.join(timeout=10)
    assert capsys.readouterr().out.startswith("2 solutions COMPLETE")


def test_an_endless_stream_stops_at_the_cap(monkeypatch, capsys):
    import io

    import csp.io.text

    monkeypatch.setattr(csp.io.text, "MAX_INPUT_BYTES", 1 << 20)
    endless = io.BytesIO(b"a b\n" + b"a\n" * (1 << 20))  # 2 MiB of text, no NUL
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(endless))
    assert main(["xc", "-", "--count"]) == 2
    assert "<stdin>: the input is larger than 1 MiB" in capsys.readouterr().err


def test_an_option_without_primary_item_is_shown(tmp_path, capsys):
    path = tmp_path / "secondary.xc"
    path.write_text("a | x y\na\nx y:red\n")
    assert main(["xc", str(path)]) == 0  # dropped with a warning, as Knuth's programs do
    captured = capsys.readouterr()
    assert "line 3: option ignored (it has no primary item): x y:red" in captured.err
    assert "1 solution COMPLETE" in captured.out
