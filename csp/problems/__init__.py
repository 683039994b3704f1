"""The puzzle library: one module per puzzle, all with the same small surface.

- `parse(text, **options) -> list[puzzle]` reads every puzzle of a file
  (`puzzles(text)` yields each puzzle, or the `InputError` of a bad one, so
  that one bad puzzle does not stop the others);
- `declare(puzzle, form=None) -> ExactCover | Model` is the declaration;
- `decode(puzzle, solution, problem=None) -> answer`;
- `format(puzzle, answer) -> str` writes the answer as PROBLEMS.md shows it.

>>> sorted(KINDS)
['kakuro', 'lattice', 'polyomino', 'queens', 'shikaku', 'sudoku']
>>> get("queens").DESCRIPTION
'N queens: the board size n, one per line (or `csp solve queens N`)'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType
from typing import TypeVar

from csp.errors import InputError

KINDS: dict[str, str] = {
    "sudoku": "csp.problems.sudoku",
    "kakuro": "csp.problems.kakuro",
    "shikaku": "csp.problems.shikaku",
    "polyomino": "csp.problems.polyomino",
    "queens": "csp.problems.queens",
    "lattice": "csp.problems.lattice",
}
"""Puzzle kind -> the module that reads, declares and prints it."""


def get(kind: str) -> ModuleType:
    """The module of puzzle `kind`."""
    if kind not in KINDS:
        raise InputError(f"unknown puzzle kind {kind!r}; the kinds are: {', '.join(KINDS)}")
    return importlib.import_module(KINDS[kind])


Puzzle = TypeVar("Puzzle")


def every(items: Iterable[Puzzle | InputError]) -> list[Puzzle]:
    """The puzzles `puzzles(text)` yields, raising the first `InputError` among
    them: what each module's `parse` returns.

    >>> every([1, 2])
    [1, 2]
    """
    found = []
    for item in items:
        if isinstance(item, InputError):
            raise item
        found.append(item)
    return found


def describe() -> dict[str, str]:
    """Each kind's one-line description of its input format."""
    return {kind: get(kind).DESCRIPTION for kind in KINDS}
