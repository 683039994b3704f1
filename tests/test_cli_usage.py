"""Command lines a user gets wrong are told why, with exit status 2: a size
that is not one, a limit of no solutions; and a directory given to
`csp crosscheck` is read with its subdirectories, each file named by its path."""

from __future__ import annotations

from pathlib import Path

import pytest

from csp.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("size", ["-1", "+0", "0"])
def test_a_board_size_that_is_not_one_is_named(size: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "queens", size]) == 2
    err = capsys.readouterr().err
    assert f"{size!r} is not a board size" in err and "No such file" not in err


@pytest.mark.parametrize("argv", [
    ["xc", str(EXAMPLES / "queens8.xc"), "--limit", "0"],
    ["xc", str(EXAMPLES / "queens8.xc"), "--count", "--limit", "0"],
    ["solve", "queens", "6", "--limit", "0"],
])
def test_a_limit_of_no_solutions_is_a_usage_error(argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert "argument --limit: must be >= 1: 0" in capsys.readouterr().err


def test_a_limit_of_one_still_lists_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--limit", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 solution SOLUTION_LIMIT")


def test_crosscheck_reads_the_subdirectories(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "deeper" / "deepest").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "tiny.xc").write_text((EXAMPLES / "tiny.xc").read_text())
    (tmp_path / "deeper" / "deepest" / "queens8.xc").write_text(
        (EXAMPLES / "queens8.xc").read_text())
    (tmp_path / ".hidden" / "bad.xc").write_text("not read\n")
    # the notes beside instances (tests/data/xcsp3 has both) are no instances
    (tmp_path / "README.md").write_text("# Instances\n\nFrom ...\n")
    (tmp_path / "deeper" / "counts.json").write_text('{"queens8.xc": 92}\n')
    assert main(["crosscheck", str(tmp_path), "--backends", "dlx,bitmask"]) == 0
    out, err = capsys.readouterr()
    assert "deeper/deepest/queens8.xc  agree  92 solutions" in out
    assert "tiny.xc  agree" in out and "bad.xc" not in out
    assert out.splitlines()[-1] == "2 instances: 2 agree -> agree"
    assert "left out 2 file(s) of notes, not instances: README.md, deeper/counts.json" in err


def test_crosscheck_of_a_directory_without_files(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["crosscheck", str(tmp_path)]) == 2
    assert "no instance file in the directory" in capsys.readouterr().err
