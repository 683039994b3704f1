"""Word squares (an exact cover with colours) against a brute-force oracle."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import csp
from csp.errors import InputError
from csp.problems import wordsquare

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SATOR = "SATOR AREPO TENET\nOPERA ROTAS\n"


@functools.cache
def brute_force(words):
    """Every square: each choice of row words whose columns are words too
    (rows tried in turn, a partial square kept while its columns start words)."""
    n = len(words[0])
    prefixes = {word[:k] for word in words for k in range(n + 1)}
    squares = [()]
    for _ in range(n):
        squares = [rows + (word,) for rows in squares for word in words
                   if all("".join(row[j] for row in rows) + word[j] in prefixes
                          for j in range(n))]
    return set(squares)


def test_sator_square_on_every_backend(csp_backend):
    [puzzle] = wordsquare.parse(SATOR)
    xc = wordsquare.declare(puzzle)
    found = {wordsquare.decode(puzzle, s, xc) for s in csp.solutions(xc, csp_backend)}
    assert found == brute_force(puzzle.words) == {
        ("sator", "arepo", "tenet", "opera", "rotas"),
        ("rotas", "opera", "tenet", "arepo", "sator")}


def test_three_letter_words(csp_backend):
    [puzzle] = wordsquare.parse((EXAMPLES / "words3.txt").read_text())
    xc = wordsquare.declare(puzzle)
    expected = brute_force(puzzle.words)
    assert len(expected) == 205
    found = [wordsquare.decode(puzzle, s, xc) for s in csp.solutions(xc, csp_backend)]
    assert len(found) == len(set(found)) and set(found) == expected
    assert csp.count(xc, csp_backend).count == 205


def test_up_to_transposition():
    [puzzle] = wordsquare.parse((EXAMPLES / "words3.txt").read_text())
    xc = wordsquare.declare(puzzle)
    classes = {min(rows, tuple(map("".join, zip(*rows)))) for rows in brute_force(puzzle.words)}
    assert csp.count(xc, up_to_symmetry=wordsquare.symmetry(puzzle, xc)).count == len(classes)


@pytest.mark.parametrize("text, line, token", [
    ("cat dog\nbird\n", 2, "bird"),
    ("# words\ncat d0g\n", 2, "d0g"),
])
def test_errors_name_line_and_token(text, line, token):
    [error] = wordsquare.puzzles(text)
    assert isinstance(error, InputError) and (error.line, error.token) == (line, token)
    with pytest.raises(InputError, match="no words"):
        wordsquare.parse("# nothing\n")
