"""A byte-order mark at the start of any line, not only the file's first, is
dropped: `cat a.txt b.txt` where b starts with U+FEFF."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from csp import ExactCover
from csp.cli import main
from csp.io.text import decode_text

BOM = "\ufeff"
SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ANSWER = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_decode_text_drops_a_mark_at_any_line_start() -> None:
    raw = (BOM + "a b\n" + BOM + "c\n").encode()
    assert decode_text(raw, "x") == "a b\nc\n"


def test_exact_cover_text_with_a_mark_in_the_middle() -> None:
    xc = ExactCover.from_text(BOM + "a b\na\n" + BOM + "b\n")
    assert xc.n_options == 2 and xc.option_text(1) == "b"


def test_concatenated_files_on_the_command_line(tmp_path: Path, capsys) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(SUDOKU + "\n", encoding="utf-8")
    second.write_text(SUDOKU + "\n", encoding="utf-8-sig")  # starts with the mark
    both = tmp_path / "both.txt"
    both.write_bytes(first.read_bytes() + second.read_bytes())
    assert main(["solve", "sudoku", str(both)]) == 0
    assert capsys.readouterr().out.split() == [ANSWER, ANSWER]


def test_concatenated_exact_covers_on_stdin(monkeypatch, capsys) -> None:
    text = "a b\na\n" + BOM + "b\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["xc", "-", "--count"]) == 0
    assert capsys.readouterr().out.startswith("1 solution")
