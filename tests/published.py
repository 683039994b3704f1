"""The published puzzles of issue 22's kinds with their published answers
(tests/data/nonogram/*.non, tests/data/{hitori,skyscrapers,starbattle}/
janko.json; their sources in tests/data/README.md), read once for the
tests (test_problems_nonogram.py, test_problems_janko.py) and the benchmark
(bench/bench_kinds.py).

Each `Published` is a parsed puzzle, its kind's module, its size and its
published answer printed as the kind prints its own (`module.format`), so
an answer found is checked by comparing two strings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from csp.problems import hitori, nonogram, skyscrapers, starbattle

DATA = Path(__file__).resolve().parent / "data"
MODULES: dict[str, ModuleType] = {"nonogram": nonogram, "skyscrapers": skyscrapers,
                                  "starbattle": starbattle, "hitori": hitori}
JANKO = ("skyscrapers", "starbattle", "hitori")


@dataclass(frozen=True)
class Published:
    kind: str
    name: str
    puzzle: Any
    height: int
    width: int
    answer: str
    """The published answer, as `MODULES[kind].format` prints an answer."""

    @property
    def cells(self) -> int:
        return self.height * self.width

    @property
    def side(self) -> int:
        return max(self.height, self.width)

    def check(self, solution: dict) -> bool:
        """Whether a solution of the kind's model is the published answer."""
        module = MODULES[self.kind]
        return module.format(self.puzzle, module.decode(self.puzzle, solution)) == self.answer


def collection(kind: str) -> list[Published]:
    """Every published puzzle of `kind`, in the data's order."""
    if kind == "nonogram":
        return [_nonogram(path) for path in sorted((DATA / "nonogram").glob("*.non"))]
    entries = json.loads((DATA / kind / "janko.json").read_text())["puzzles"]
    return [_janko(kind, entry) for entry in entries]


def _nonogram(path: Path) -> Published:
    [puzzle] = nonogram.parse(path.read_text())
    height, width = len(puzzle.rows), len(puzzle.columns)
    assert puzzle.goal is not None and len(puzzle.goal) == width * height, path.name
    rows = [puzzle.goal[k:k + width] for k in range(0, len(puzzle.goal), width)]
    answer = "\n".join(row.replace("1", "#").replace("0", ".") for row in rows)
    return Published("nonogram", path.stem, puzzle, height, width, answer)


def _janko(kind: str, entry: dict) -> Published:
    module = MODULES[kind]
    [puzzle] = module.parse(entry["puzzle"])
    rows = [row.split() for row in entry["solution"].splitlines()[1:]]
    height, width = len(rows), len(rows[0])
    if kind == "skyscrapers":
        answer = "\n".join(" ".join(row) for row in rows)
    elif kind == "starbattle":
        answer = "\n".join("".join("*" if x == "x" else "." for x in row) for row in rows)
    else:
        shaded = tuple(tuple(None if x == "x" else n for x, n in zip(row, numbers))
                       for row, numbers in zip(rows, puzzle.numbers))
        answer = hitori.format(puzzle, shaded)
    return Published(kind, entry["id"], puzzle, height, width, answer)


__all__ = ["JANKO", "MODULES", "Published", "collection"]
