"""The kinds futoshiki, killer, kenken, langford, latin, magic, polycube and
word squares end to end through `csp solve`: each example file is
solved, `csp list` names them, and a bad puzzle is one error line while the
others are still solved."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from csp import problems
from csp.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NEW = ["langford", "latin", "magic", "polycube", "futoshiki", "killer", "kenken", "wordsquare"]


def solve(capsys, monkeypatch, *args, stdin=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_new_kind_is_built_in():
    assert set(NEW) <= set(problems.BUILTIN)
    for name in NEW:
        assert problems.get(name).name == name


@pytest.mark.parametrize("kind, argument, options, expected", [
    ("langford", "examples/langford.txt", ["--count", "--up-to-symmetry"], "1\n1\n26\n"),
    ("latin", "examples/latin.txt", ["--count"], "576\n56\n1\n"),
    ("magic", "3", ["--all", "--up-to-symmetry"], "2 7 6\n9 5 1\n4 3 8\n1 solution\n"),
    ("polycube", "examples/soma.txt", ["--count", "--up-to-symmetry"], "240\n"),
    ("futoshiki", "examples/futoshiki.txt", ["--count"], "1\n1\n"),
    ("killer", "examples/killer.txt", ["--count"], "1\n1\n"),
    ("kenken", "examples/kenken.txt", ["--count"], "1\n1\n1\n"),
    ("wordsquare", "examples/words3.txt", ["--count", "--up-to-symmetry"], "188\n"),
])
def test_examples(capsys, monkeypatch, kind, argument, options, expected):
    path = Path(__file__).resolve().parents[1] / argument
    code, out, err = solve(capsys, monkeypatch, kind, str(path) if path.exists() else argument,
                           *options)
    assert (code, out, err) == (0, expected, "")


@pytest.mark.parametrize("kind, text, answers, error", [
    ("langford", "3\nfour\n7\n", "2\n52\n", "line 2: 'four' is not"),
    ("latin", "12\n2.\n\n1x\n.1\n\n2.\n.2\n", "12\n21\n\n21\n12\n", "line 4:"),
    ("futoshiki", ".<.\n. .\n\n.>x\n. .\n\n.>.\n. .\n", "12\n21\n\n21\n12\n", "line 4:"),
    ("killer", "aabb\naabb\nccdd\nccdd\na=10 b=10 c=10\n\n"
               "aabb\ncdde\ncfge\nhfgg\na=3 b=7 c=5 d=5 e=5 f=4 g=7 h=4\n",
     "1234\n3412\n2143\n4321\n", "line 1: cage 'd' of the puzzle of line 1 has no clue"),
    ("kenken", "ab\nab\na=3+ b=3%\n\naab\ncbb\ncdd\na=3x b=6+ c=1- d=2/\n",
     "132\n213\n321\n", "line 3: 'b=3%' is not a clue"),
])
def test_a_bad_puzzle_is_reported_and_the_others_solved(capsys, monkeypatch, kind, text,
                                                        answers, error):
    options = ["--count"] if kind == "langford" else []  # its first row depends on the backend
    code, out, err = solve(capsys, monkeypatch, kind, "-", *options, stdin=text)
    assert (code, out) == (2, answers)
    assert error in err and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["langford", "latin", "magic"])
def test_a_negative_size_on_the_command_line_is_named_as_a_size(capsys, monkeypatch, kind):
    # As `csp solve queens -1`: the bad size, not "cannot read -1: No such file".
    code, out, err = solve(capsys, monkeypatch, kind, "-1")
    assert code == 2 and out == ""
    assert "'-1' is not" in err and "No such file" not in err, err
    assert "column" not in err, err  # a size, not a cell of a 1x1 square
