"""Bad puzzles end to end through `csp solve`: a bad puzzle is
reported with its line and the others of the file are still solved; inputs
that were read wrongly are read as docs/developing/problems.md has them."""

from __future__ import annotations

import io
import sys

import pytest

from csp.cli import main

SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SUDOKU_ANSWER = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def solve(capsys, monkeypatch, kind, text, *options):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code = main(["solve", kind, "-", *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_lattice_data_set_of_equal_boards(capsys, monkeypatch):
    # Ten boards of two kinds made the group of board exchanges too large to
    # enumerate, and the error lost the data sets after it.
    text = ("10000 01000 00100 11000 01100 11111 01110 11100 10110 11110\n"
            "11111 11111 11111 11111 11111 00000 00000 00000 00000 00000\n"
            "10101 01000 00000 11001 01100 11101 01110 11100 10110 11010\n"
            "END\n")
    assert solve(capsys, monkeypatch, "lattice", text) == (0, "40\n1\n6\n", "")


def test_lattice_bad_data_set_in_the_middle(capsys, monkeypatch):
    text = ("10000 01000 00100 11000 01100 11111 01110 11100 10110 11110\n"
            "10000 01000 00100 11000 01100 11111 01110 11100 10110 1111\n"
            "10101 01000 00000 11001 01100 11101 01110 11100 10110 11010\n"
            "END\n")
    code, out, err = solve(capsys, monkeypatch, "lattice", text)
    assert (code, out) == (2, "40\n6\n")
    assert "line 2: board '1111' has 4 notches" in err


def test_kakuro_bad_algospot_case_then_a_good_one(capsys, monkeypatch):
    case = "3\n0 0 0\n0 1 1\n0 1 1\n{q}\n2 1 0 4\n3 1 0 3\n1 2 1 4\n1 3 1 3\n"
    text = "2\n" + case.format(q=5) + case.format(q=4)
    code, out, err = solve(capsys, monkeypatch, "kakuro", text)
    assert (code, out) == (2, "0 0 0\n0 3 1\n0 1 2\n")
    assert "line 6: case 1: line 6 announces 5 hints but only 4 follow" in err


def test_shikaku_extra_row_then_good_puzzles(capsys, monkeypatch):
    good = "3 2\n2 0 0\n0 4 0\n"
    code, out, err = solve(capsys, monkeypatch, "shikaku", good + "0 0 0\n" + good + good)
    assert (code, out) == (2, "2 4 4\n2 4 4\n\n2 4 4\n2 4 4\n")
    assert "line 4: the 3x2 puzzle of line 1 has more than 2 rows" in err


def test_polyomino_line_of_dots_is_a_separator(capsys, monkeypatch):
    text = "#.#.........#..#\n\n#..#.##\n.......\n#.#..##\n##...##\n"
    assert solve(capsys, monkeypatch, "polyomino", text) == (0, "#b#bccbbacca#aa#\n", "")


@pytest.mark.parametrize("blank", [".", "0"])
def test_sudoku_line_with_both_blanks(capsys, monkeypatch, blank):
    mixed = SUDOKU[:40].replace(".", "0") + SUDOKU[40:].replace(".", blank)
    assert solve(capsys, monkeypatch, "sudoku", mixed + "\n") == (0, SUDOKU_ANSWER + "\n", "")


def test_sudoku_e_symbol_is_not_the_end(capsys, monkeypatch):
    line = "e" + "." * 255
    code, out, _ = solve(capsys, monkeypatch, "sudoku", f"{line}\nend\n{line}\n",
                         "--symbols", "0123456789abcdef")
    [answer] = out.splitlines()  # the first line is a puzzle; 'end' ends the input
    assert code == 0 and answer[0] == "e" and len(answer) == 256 and "." not in answer
