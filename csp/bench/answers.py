"""The puzzles of the whole-process benchmark, and the checks of what a
process printed for them (`csp.bench.solving`).

Puzzles: sudoku top1465 (`magictour_top1465.txt` of the puzzle data, 974
puzzles, each with its unique solution) and the janko shikaku collection
(the `janko-sikaku-*` entries of `shikaku.json`, 271 puzzles, with their
solution counts and solutions). They are written in the input formats of
`csp solve` (sudoku: one 81-character puzzle per line; shikaku: `w h` then
h rows of w integers, 0 blank, all puzzles in one file), which the peers'
programs (`csp.bench.peer_programs`) read too.

Every printed answer of every run is checked: each sudoku line against the
known solution; each shikaku grid is checked to be a division into
rectangles (each clue's rectangle of its area, holding it alone) and, for a
unique puzzle, to be the known one; each count against `solution_count`.
A run cut by its time limit prints `no solution found (TIME_LIMIT)` (or a
count with a status): that puzzle is unsolved, not wrong.

>>> grid = ((2, 0, 0), (0, 4, 0))
>>> case = ShikakuCase("tiny", grid, 1, None)
>>> verdict = check_shikaku([case], "2 4 4\\n2 4 4\\n", count=False)
>>> verdict.solved, verdict.wrong
(1, [])
>>> check_shikaku([case], "2 2 4\\n4 4 4\\n", count=False).wrong
["tiny: not a division into rectangles of the clues' areas"]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from csp.bench.peer_programs import rectangles


@dataclass(frozen=True)
class SudokuCase:
    puzzle: str
    """81 characters, `.` blank."""
    solution: str


@dataclass(frozen=True)
class ShikakuCase:
    name: str
    grid: tuple[tuple[int, ...], ...]
    """The clues, 0 blank, one tuple per row."""
    count: int
    solution: tuple[tuple[int, ...], ...] | None
    """The known solution's clue index per cell (row-major clue order), or None."""

    @property
    def width(self) -> int:
        return len(self.grid[0])

    @property
    def height(self) -> int:
        return len(self.grid)


def load_sudoku(data: Path, limit: int | None = None) -> list[SudokuCase]:
    """The top1465 puzzles with their solutions (the file's `<puzzle> <solution>`)."""
    lines = (data / "sudoku" / "magictour_top1465.txt").read_text(encoding="utf-8").splitlines()
    cases = [SudokuCase(*line.split()) for line in lines if line.strip()]
    return cases[:limit] if limit else cases


def load_shikaku(data: Path, limit: int | None = None) -> list[ShikakuCase]:
    """The janko shikaku puzzles with their counts and (example) solutions."""
    entries = json.loads((data / "shikaku" / "shikaku.json").read_text(encoding="utf-8"))
    cases = []
    for entry in entries["puzzles"]:
        if not entry["name"].startswith("janko-sikaku-"):
            continue
        grid = tuple(tuple(0 if t == "." else int(t) for t in row.split())
                     for row in entry["grid"])
        known = entry.get("solution") or entry.get("example_solution")
        solution = (tuple(tuple(int(t) for t in row.split()) for row in known)
                    if known else None)
        cases.append(ShikakuCase(entry["name"], grid, entry["solution_count"], solution))
    return cases[:limit] if limit else cases


def sudoku_text(cases: Sequence[SudokuCase]) -> str:
    return "".join(case.puzzle + "\n" for case in cases)


def shikaku_text(cases: Sequence[ShikakuCase]) -> str:
    """docs/developing/problems.md section 4, every puzzle of the collection in one file."""
    blocks = [f"{case.width} {case.height}\n"
              + "".join(" ".join(map(str, row)) + "\n" for row in case.grid) for case in cases]
    return "".join(blocks)


def write_input(directory: Path, kind: str, cases: Sequence[object], tag: str = "") -> Path:
    path = directory / f"{kind}{tag}.txt"
    text = sudoku_text(cases) if kind == "sudoku" else shikaku_text(cases)  # type: ignore[arg-type]
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class Verdict:
    total: int
    solved: int = 0
    unsolved: int = 0
    """Cut by a time limit: no answer, but nothing wrong."""
    wrong: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.wrong.append(message)


def check_sudoku(cases: Sequence[SudokuCase], stdout: str) -> Verdict:
    """One line per puzzle: its known solution, or `no solution found (STATUS)`."""
    verdict = Verdict(len(cases))
    lines = stdout.splitlines()
    if len(lines) != len(cases):
        verdict.fail(f"{len(lines)} lines printed for {len(cases)} puzzles")
    for k, (case, line) in enumerate(zip(cases, lines), start=1):
        line = line.strip()
        if line == case.solution:
            verdict.solved += 1
        elif line.startswith("no solution found ("):
            verdict.unsolved += 1
        else:
            verdict.fail(f"puzzle {k}: printed {line!r}, expected {case.solution}")
    return verdict


def check_shikaku(cases: Sequence[ShikakuCase], stdout: str, count: bool) -> Verdict:
    """`--count`: one count per puzzle, `N` or `N (STATUS)`; else each puzzle's
    grid of areas (h lines, no separator between puzzles) or `no solution ...`."""
    verdict = Verdict(len(cases))
    lines = [line for line in stdout.splitlines() if line.strip()]
    at = 0
    for k, case in enumerate(cases, start=1):
        if at >= len(lines):
            verdict.fail(f"the output ends before puzzle {k} ({case.name})")
            break
        if count:
            _check_count(verdict, case, lines[at])
            at += 1
        elif lines[at].startswith("no solution"):
            if lines[at].startswith("no solution found ("):
                verdict.unsolved += 1
            else:
                verdict.fail(f"{case.name}: printed {lines[at]!r}")
            at += 1
        else:
            rows = lines[at:at + case.height]
            at += case.height
            problem = _check_areas(case, rows)
            if problem:
                verdict.fail(f"{case.name}: {problem}")
            else:
                verdict.solved += 1
    if at < len(lines):
        verdict.fail(f"{len(lines) - at} lines printed after the last puzzle")
    return verdict


def _check_count(verdict: Verdict, case: ShikakuCase, line: str) -> None:
    number, _, status = line.strip().partition(" ")
    if not number.isdigit():
        verdict.fail(f"{case.name}: printed {line!r}, not a count")
    elif status and int(number) <= case.count:
        verdict.unsolved += 1  # cut short: a lower bound, still consistent
    elif int(number) != case.count or status:
        verdict.fail(f"{case.name}: counted {line!r}, known {case.count}")
    else:
        verdict.solved += 1


def _check_areas(case: ShikakuCase, rows: Sequence[str]) -> str | None:
    """Why the printed rows are not a solution of `case`, or None."""
    try:
        areas = tuple(tuple(int(t) for t in row.split()) for row in rows)
    except ValueError:
        return f"not a grid of areas: {list(rows)[:2]!r}"
    if len(areas) != case.height or any(len(row) != case.width for row in areas):
        return f"not a {case.width}x{case.height} grid: {list(rows)[:2]!r}"
    if not is_tiling(case.grid, areas):
        return "not a division into rectangles of the clues' areas"
    if case.count == 1 and case.solution is not None and areas != known_areas(case):
        return "a division, but not the known (unique) solution"
    return None


def known_areas(case: ShikakuCase) -> tuple[tuple[int, ...], ...]:
    """The known solution as csp prints it: each cell's area."""
    assert case.solution is not None
    clue_area = [a for row in case.grid for a in row if a]
    return tuple(tuple(clue_area[k] for k in row) for row in case.solution)


def is_tiling(grid: Sequence[Sequence[int]], areas: Sequence[Sequence[int]]) -> bool:
    """Whether `areas` is the area grid of some division of `grid` into its
    clues' rectangles. The printed grid alone does not say where two equal
    neighbouring rectangles meet, so this searches for one division whose
    rectangles all print their area: an exact cover with few options, solved
    by a plain Algorithm X (clues and cells as items)."""
    clues = [(r, c, a) for r, row in enumerate(grid) for c, a in enumerate(row) if a]
    options: dict[int, list[object]] = {}
    for k, (r, c, a) in enumerate(clues):
        for rect in rectangles(grid, r, c, a):
            cells = _cells(rect)
            if all(areas[i][j] == a for i, j in cells):
                options[len(options)] = [("clue", k), *cells]
    items: dict[object, set[int]] = {("clue", k): set() for k in range(len(clues))}
    items.update({(i, j): set() for i in range(len(grid)) for j in range(len(grid[0]))})
    for name, covered in options.items():
        for item in covered:
            items[item].add(name)
    return _exact_cover(items, options)


def _cells(rect: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    top, left, height, width = rect
    return [(i, j) for i in range(top, top + height) for j in range(left, left + width)]


def _exact_cover(items: dict[object, set[int]], options: dict[int, list[object]]) -> bool:
    """Whether some options cover every item of `items` exactly once (Algorithm X
    on dicts of sets: `items` maps each uncovered item to its options)."""
    if not items:
        return True
    item = min(items, key=lambda i: len(items[i]))
    for option in list(items[item]):
        removed = _select(items, options, option)
        if _exact_cover(items, options):
            return True
        _deselect(items, options, option, removed)
    return False


def _select(items: dict[object, set[int]], options: dict[int, list[object]],
            option: int) -> list[set[int]]:
    removed = []
    for item in options[option]:
        for other in items[item]:
            for other_item in options[other]:
                if other_item != item:
                    items[other_item].discard(other)
        removed.append(items.pop(item))
    return removed


def _deselect(items: dict[object, set[int]], options: dict[int, list[object]], option: int,
              removed: list[set[int]]) -> None:
    for item in reversed(options[option]):
        items[item] = removed.pop()
        for other in items[item]:
            for other_item in options[other]:
                if other_item != item:
                    items[other_item].add(other)
