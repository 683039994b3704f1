#!/usr/bin/env python
"""Whole-process puzzles per second: `csp solve` against the Python peers.

    python bench/bench_solve.py [--only sudoku|shikaku] [--limit N] [--repeat N]
                                [--backends A,B,...] [--peers NAME... | --no-peers]
                                [--slow-puzzles N] [--slow-time-limit S] [--out DIR]

Puzzles: sudoku top1465 (`magictour_top1465.txt` of the puzzle data, 974
puzzles, each with its unique solution) and the janko shikaku collection
(the `janko-sikaku-*` entries of `shikaku.json`, 271 puzzles, with their
solution counts and solutions). They are written once, in the input formats
of `csp solve` (sudoku: one 81-character puzzle per line; shikaku: `w h` then
h rows of w integers, 0 blank, all puzzles in one file), to DIR (default: a
temporary directory).

What is timed, each as a whole process (wall clock from start to exit, the
median of --repeat runs after one warm-up run that fills numba's on-disk cache
and the OS file cache; also its CPU time, user + system):

- `csp solve sudoku FILE [--backend B]`: Python's start, importing csp,
  reading and parsing the file, declaring each puzzle, solving it to its
  first solution, printing it. The row `csp` is the default backend (no
  `--backend`); then one row per backend.
- `csp solve shikaku FILE` (first solution of each puzzle, printed as its
  grid of areas) and `csp solve shikaku FILE --count` (every solution
  counted: a proof of uniqueness), the same way.
- The peers, each in a process of this script (`--peer NAME`) that never
  imports csp: Python's start, importing the package, parsing the same file
  with plain Python, building the package's own model, solving, printing
  in csp's output format:
  - `xcover`: `xcover.algorithm_c` (its numba Algorithm C, what
    `xcover.covers` calls) on uint32 arrays built with numpy: sudoku as the
    324-item exact cover (cell, row/digit, column/digit, box/digit; one
    option per cell and digit, only the given digit in a given cell, as csp
    declares it); shikaku as one item per clue and per cell, one option per
    rectangle of a clue's area holding that clue alone. First solution, or
    every solution with --count.
  - `ortools`: a CP-SAT `CpModel`, one integer variable 1..9 per cell (fixed
    for a given), `add_all_different` per row, column and box; `solve` with
    CP-SAT's default parameters (every core, as csp's `cpsat` backend does
    for a first solution). First solution only: no proof of uniqueness.
  - `python-constraint2`: a `Problem` (its default solver) with an
    `AllDifferentConstraint` per unit, `getSolution()`. Its compiled search
    cannot be interrupted, so, like csp's `python-constraint` backend, the
    problem carries one more constraint that accepts everything and reads the
    clock every 256 calls, to stop at the per-puzzle time limit.

Every printed answer of every run is checked: each sudoku line against the
known solution; each shikaku grid is checked to be a division into
rectangles (each clue's rectangle of its area, holding it alone) and, for a
unique puzzle, to be the known one; each count against `solution_count`.
A run cut by its time limit prints `no solution found (TIME_LIMIT)` (or a
count with a status): that puzzle is unsolved, not wrong.

The slow solvers (csp's `python-constraint` backend and the
`python-constraint2` peer) get only the first --slow-puzzles puzzles, a
per-puzzle limit of --slow-time-limit seconds, and one run without warm-up;
their rows say how many puzzles they solved. Puzzles per second is the number
solved over the median wall time; the ratio is the fastest row's rate over
this row's (1.00: the fastest; within the same kind and mode).

Prints the Markdown report (and with --out writes DIR/bench_solve.md and
DIR/bench_solve.json); exits 1 if any answer is wrong or a process failed.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

# Only the standard library at module level: the peer runner (`--peer`) is
# this file too, and its processes must time the peer alone, never csp.

KINDS = ("sudoku", "shikaku")
BACKENDS = ("auto", "dlx", "bitmask", "cpsat", "python-constraint")
PEERS = {"sudoku": ("xcover", "ortools", "python-constraint2"), "shikaku": ("xcover",)}
PEER_MODULES = {"xcover": "xcover", "ortools": "ortools", "python-constraint2": "constraint"}
SLOW = {"python-constraint", "python-constraint2"}
TIME_LIMIT = "TIME_LIMIT"


# -- the puzzles and their known answers ---------------------------------------------


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


def data_dir() -> Path:
    from csp.bench.instances import data_dir as find  # the parent only, never a peer

    return find()


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
    """PROBLEMS.md section 4, every puzzle of the collection in one file."""
    blocks = [f"{case.width} {case.height}\n"
              + "".join(" ".join(map(str, row)) + "\n" for row in case.grid) for case in cases]
    return "".join(blocks)


def write_input(directory: Path, kind: str, cases: Sequence[object], tag: str = "") -> Path:
    path = directory / f"{kind}{tag}.txt"
    text = sudoku_text(cases) if kind == "sudoku" else shikaku_text(cases)  # type: ignore[arg-type]
    path.write_text(text, encoding="utf-8")
    return path


# -- checking what a process printed -------------------------------------------------


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


def rectangles(grid: Sequence[Sequence[int]], r: int, c: int, area: int
               ) -> Iterator[tuple[int, int, int, int]]:
    """(top, left, height, width) of each rectangle of `area` cells that holds
    the clue at (r, c) and no other clue."""
    h, w = len(grid), len(grid[0])
    for height in (d for d in range(1, min(area, h) + 1) if area % d == 0):
        width = area // height
        if width > w:
            continue
        for top in range(max(0, r - height + 1), min(r, h - height) + 1):
            for left in range(max(0, c - width + 1), min(c, w - width) + 1):
                if sum(1 for i in range(top, top + height) for j in range(left, left + width)
                       if grid[i][j]) == 1:
                    yield top, left, height, width


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


# -- timing whole processes ----------------------------------------------------------


@dataclass
class Command:
    """One row of the report: a solver, its command line and its puzzles."""

    label: str
    kind: str
    mode: str
    """'first' (first solution) or 'count' (every solution counted)."""
    argv: list[str]
    cases: Sequence[object]
    slow: bool = False
    answered: tuple[int, ...] = (0,)
    """The exit statuses of a run that answered (`csp solve`: also 1, no
    solution, and 3, the time limit); any other is an error."""


@dataclass
class Row:
    label: str
    kind: str
    mode: str
    command: str
    puzzles: int
    solved: int = 0
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def wall(self) -> float | None:
        return statistics.median(self.walls) if self.walls else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def rate(self) -> float | None:
        wall = self.wall
        return self.solved / wall if wall and not self.failed else None

    @property
    def failed(self) -> bool:
        return bool(self.wrong) or self.error is not None


def csp_command() -> str:
    return shutil.which("csp") or str(Path(sys.executable).with_name("csp"))


def run_once(argv: Sequence[str], timeout: float
             ) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds of one process (CPU: user + system, every thread;
    read from the rusage of waited-for children, so runs must not overlap)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def verify(command: Command, stdout: str) -> Verdict:
    if command.kind == "sudoku":
        return check_sudoku(command.cases, stdout)  # type: ignore[arg-type]
    return check_shikaku(command.cases, stdout, command.mode == "count")  # type: ignore[arg-type]


def measure(command: Command, repeat: int, timeout: float = 3600.0,
            warm_up: bool = True) -> Row:
    """Run `command` once to warm up, then time it `repeat` times, checking
    the answers of every run; a slow command runs once, without warm-up."""
    row = Row(command.label, command.kind, command.mode, " ".join(command.argv),
              len(command.cases))
    warm_up = warm_up and not command.slow
    runs = 1 if command.slow else repeat + warm_up
    solved = []
    for k in range(runs):
        try:
            wall, cpu, done = run_once(command.argv, timeout)
        except subprocess.TimeoutExpired:
            row.error = f"killed after {timeout:.0f} s"
            return row
        if done.returncode not in command.answered:
            row.error = f"exit status {done.returncode}: {done.stderr.strip()[-300:]}"
            return row
        verdict = verify(command, done.stdout)
        row.wrong.extend(m for m in verdict.wrong if m not in row.wrong)
        solved.append(verdict.solved)
        if k > 0 or not warm_up:
            row.walls.append(wall)
            row.cpus.append(cpu)
    row.solved = min(solved)  # a time-limited row may vary: the worst run
    return row


def csp_commands(kind: str, path: Path, cases: Sequence[object], backends: Sequence[str],
                 slow_path: Path, slow_cases: Sequence[object], slow_limit: float
                 ) -> list[Command]:
    modes = ("first", "count") if kind == "shikaku" else ("first",)
    commands = []
    for mode in modes:
        for backend in backends:
            slow = backend in SLOW
            argv = [csp_command(), "solve", kind, str(slow_path if slow else path)]
            argv += [] if backend == "auto" else ["--backend", backend]
            argv += ["--count"] if mode == "count" else []
            argv += ["--time-limit", str(slow_limit)] if slow else []
            label = f"csp (default: {default_backend(kind)})" if backend == "auto" else \
                f"csp --backend {backend}"
            commands.append(Command(label, kind, mode, argv, slow_cases if slow else cases,
                                    slow, answered=(0, 1, 3)))
    return commands


def peer_commands(kind: str, path: Path, cases: Sequence[object], peers: Sequence[str],
                  slow_path: Path, slow_cases: Sequence[object], slow_limit: float
                  ) -> list[Command]:
    modes = ("first", "count") if kind == "shikaku" else ("first",)
    commands = []
    for mode in modes:
        for peer in peers:
            if peer not in PEERS[kind]:
                continue
            slow = peer in SLOW
            argv = [sys.executable, str(Path(__file__).resolve()), "--peer", peer,
                    "--kind", kind, str(slow_path if slow else path)]
            argv += ["--count"] if mode == "count" else []
            argv += ["--time-limit", str(slow_limit)] if slow else []
            commands.append(Command(f"peer {peer}", kind, mode, argv,
                                    slow_cases if slow else cases, slow))
    return commands


def default_backend(kind: str) -> str:
    """What `csp solve KIND` picks without --backend (for the row's label)."""
    try:
        from csp import problems
        from csp.solve import resolve_backend

        chosen = problems.get(kind)
        sample = "4 1\n2 0 2 0" if kind == "shikaku" else "." * 81
        return resolve_backend(chosen.declare(next(iter(chosen.parse(sample)))), "auto")
    except Exception:  # noqa: BLE001 - only a label
        return "auto"


def available_backends(wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    import csp

    have = set(csp.backends.available()) | {"auto"}
    return [b for b in wanted if b in have], [b for b in wanted if b not in have]


def available_peers(wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    def found(peer: str) -> bool:
        return peer in PEER_MODULES and importlib.util.find_spec(PEER_MODULES[peer]) is not None
    return [p for p in wanted if found(p)], [p for p in wanted if not found(p)]


# -- the report ----------------------------------------------------------------------


TITLES = {("sudoku", "first"): "sudoku top1465: first solution of each puzzle",
          ("shikaku", "first"): "shikaku (janko): first solution of each puzzle",
          ("shikaku", "count"): "shikaku (janko): `--count`, every solution counted"}


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def table(rows: Sequence[Row]) -> list[str]:
    """One Markdown table of rows of the same kind and mode, fastest rate first."""
    rates = [r.rate for r in rows if r.rate]
    best = max(rates) if rates else None
    out = ["| solver | solved / puzzles | wall (median) | CPU | puzzles/s | fastest/this |",
           "|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -(r.rate or 0)):
        if r.error:
            out.append(f"| {r.label} | **ERROR** | {r.error} | | | |")
            continue
        solved = f"{r.solved} / {r.puzzles}" + (" **WRONG**" if r.wrong else "")
        rate = f"{r.rate:,.1f}" if r.rate is not None else "-"
        ratio = f"{best / r.rate:.2f}" if best and r.rate else "-"
        out.append(f"| {r.label} | {solved} | {_seconds(r.wall)} | {_seconds(r.cpu)} | "
                   f"{rate} | {ratio} |")
    return out


def markdown(rows: Sequence[Row], header: dict[str, object], notes: Sequence[str] = ()
             ) -> str:
    m = header.get("machine", {})
    assert isinstance(m, dict)
    out = ["# `csp solve`, whole processes: puzzles per second", "",
           f"- command: `{header.get('command')}`; started {header.get('started')}; "
           f"took {header.get('elapsed', 0):.0f} s",
           f"- machine: {m.get('cpu')}, {m.get('nproc')} cores, {m.get('platform')}, "
           f"Python {m.get('python')}; load average at start "
           f"{' '.join(f'{x:.2f}' for x in m.get('loadavg') or [])}",
           "- versions: " + ", ".join(f"{k} {v}" for k, v in
                                      dict(header.get("versions", {})).items()),
           f"- timed: each command as a whole process (start, imports, parsing, building, "
           f"solving, printing), wall clock, median of {header.get('repeat')} run(s) after "
           "one warm-up run; CPU is user + system time (above the wall time: several threads)",
           f"- slow solvers ({', '.join(sorted(SLOW))}): the first "
           f"{header.get('slow_puzzles')} puzzles of a collection, at most "
           f"{header.get('slow_time_limit')} s each, one run without warm-up",
           "- puzzles/s: solved / wall time; fastest/this: the fastest row's rate over this "
           "row's", ""]
    for key in TITLES:
        group = [r for r in rows if (r.kind, r.mode) == key]
        if group:
            out += [f"## {TITLES[key]}", "", *table(group), ""]
    out += ["## Commands", ""]
    out += [f"- {r.label} ({r.kind}, {r.mode}): `{r.command}`" for r in rows]
    if notes:
        out += ["", "## Not run", "", *(f"- {n}" for n in notes)]
    failures = [f"- {r.label} ({r.kind}, {r.mode}): {r.error or '; '.join(r.wrong[:5])}"
                for r in rows if r.failed]
    if failures:
        out += ["", "## FAILURES", "", *failures]
    return "\n".join(out) + "\n"


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("csp-workbench", "numba", "numpy", "xcover", "ortools", "python-constraint2"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


# -- the main job --------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    from csp.backends import parse_names  # (here: the module level is the standard library)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=KINDS, help="one puzzle kind (default: both)")
    parser.add_argument("--limit", type=int, help="the first N puzzles of each collection")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (default 3)")
    parser.add_argument("--backends", type=parse_names, default=list(BACKENDS),
                        help="csp backends, 'auto' for the default (default: all)")
    parser.add_argument("--peers", nargs="*", default=["xcover", "ortools", "python-constraint2"],
                        help="peer packages (default: all installed)")
    parser.add_argument("--no-peers", action="store_true", help="csp's backends only")
    parser.add_argument("--slow-puzzles", type=int, default=50,
                        help="puzzles for the slow solvers (default 50)")
    parser.add_argument("--slow-time-limit", type=float, default=1.0,
                        help="seconds per puzzle for the slow solvers (default 1)")
    parser.add_argument("--process-timeout", type=float, default=3600.0,
                        help="kill a process after this many seconds (default 3600)")
    parser.add_argument("--out", help="write the inputs and the report here "
                        "(default: inputs in a temporary directory, report on stdout only)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def plan(args: argparse.Namespace, directory: Path) -> tuple[list[Command], list[str]]:
    """Write the input files; the commands to time, and what cannot run."""
    backends, missing = available_backends(args.backends)
    notes = [f"csp backend {b}: not available" for b in missing]
    peers, absent = ([], []) if args.no_peers else available_peers(args.peers)
    notes += [f"peer {p}: not installed" for p in absent]
    data = data_dir()
    commands = []
    for kind in [args.only] if args.only else KINDS:
        cases = (load_sudoku if kind == "sudoku" else load_shikaku)(data, args.limit)
        slow_cases = cases[:args.slow_puzzles]
        path = write_input(directory, kind, cases)
        slow_path = write_input(directory, kind, slow_cases, f"-first{len(slow_cases)}")
        commands += csp_commands(kind, path, cases, backends, slow_path, slow_cases,
                                 args.slow_time_limit)
        commands += peer_commands(kind, path, cases, peers, slow_path, slow_cases,
                                  args.slow_time_limit)
    return commands, notes


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--peer"]:
        return peer_main(argv[1:])
    args = parse_args(argv)
    from csp.bench.runner import machine

    header: dict[str, object] = {
        "command": " ".join(["python bench/bench_solve.py", *argv]),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"), "machine": machine(),
        "versions": versions(), "repeat": args.repeat, "slow_puzzles": args.slow_puzzles,
        "slow_time_limit": args.slow_time_limit}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench_solve-") as scratch:
        directory = Path(args.out or scratch)
        directory.mkdir(parents=True, exist_ok=True)
        commands, notes = plan(args, directory)
        header["slow_puzzles"] = " or ".join(
            sorted({str(len(c.cases)) for c in commands if c.slow})) or args.slow_puzzles
        rows = []
        for command in commands:
            print(f"timing {command.label} ({command.kind}, {command.mode})", file=sys.stderr,
                  flush=True)
            rows.append(measure(command, args.repeat, args.process_timeout))
        header["elapsed"] = time.perf_counter() - started
        text = markdown(rows, header, notes)
        print(text)
        if args.out:
            (directory / "bench_solve.md").write_text(text, encoding="utf-8")
            record = {**header, "rows": [asdict(r) | {"wall": r.wall, "cpu": r.cpu,
                                                      "rate": r.rate} for r in rows]}
            (directory / "bench_solve.json").write_text(
                json.dumps(record, indent=1, default=str) + "\n", encoding="utf-8")
    for r in rows:
        if r.failed:
            print(f"FAILURE: {r.label} ({r.kind}, {r.mode}): {r.error or r.wrong[:3]}",
                  file=sys.stderr)
    return 1 if any(r.failed for r in rows) else 0


# -- the peers: each as its user would write it, with no csp ----------------------------


class OutOfTime(Exception):
    """Raised by the clock constraint inside python-constraint2's search."""


def peer_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_solve.py --peer")
    parser.add_argument("peer", choices=sorted(PEER_MODULES))
    parser.add_argument("--kind", choices=KINDS, required=True)
    parser.add_argument("--count", action="store_true", help="count every solution")
    parser.add_argument("--time-limit", type=float, help="seconds per puzzle")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    text = Path(args.file).read_text(encoding="utf-8")
    if args.kind == "sudoku":
        if args.count:
            parser.error("sudoku peers find the first solution only")
        solve = {"xcover": xcover_sudoku, "ortools": ortools_sudoku,
                 "python-constraint2": pyconstraint_sudoku}[args.peer]
        for puzzle in (line.strip() for line in text.splitlines()):
            if puzzle:
                print(solve(puzzle, args.time_limit), flush=True)
    else:
        if args.peer != "xcover":
            parser.error("the shikaku peer is xcover")
        for width, height, grid in shikaku_puzzles(text):
            print(xcover_shikaku(width, height, grid, args.count), flush=True)
    # The point of a peer process is to time the peer alone.
    assert "csp" not in sys.modules, "a peer process imported csp"
    return 0


def units() -> list[list[int]]:
    """The 27 units of a 9x9 sudoku as cell indices: rows, columns, boxes."""
    rows = [[9 * r + c for c in range(9)] for r in range(9)]
    cols = [[9 * r + c for r in range(9)] for c in range(9)]
    boxes = [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)]
             for b in range(9)]
    return rows + cols + boxes


def xcover_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    import numpy as np
    from xcover import algorithm_c

    options, chosen = [], []
    for cell, ch in enumerate(puzzle):
        r, c, b = cell // 9, cell % 9, 3 * (cell // 27) + (cell % 9) // 3
        for d in (int(ch),) if ch != "." else range(1, 10):
            options += [cell, 81 + 9 * r + d - 1, 162 + 9 * c + d - 1, 243 + 9 * b + d - 1]
            chosen.append((cell, d))
    n_options = len(chosen)
    solution = next(algorithm_c(np.array(options, dtype=np.uint32),
                                np.arange(0, 4 * n_options + 1, 4, dtype=np.uint32),
                                np.zeros(len(options), dtype=np.uint32), 324, 0), None)
    if solution is None:
        return "no solution"
    grid = [0] * 81
    for k in solution:
        cell, d = chosen[k]
        grid[cell] = d
    return "".join(map(str, grid))


def ortools_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = [model.new_int_var(1, 9, f"c{k}") if ch == "." else
             model.new_int_var(int(ch), int(ch), f"c{k}") for k, ch in enumerate(puzzle)]
    for unit in units():
        model.add_all_different([cells[k] for k in unit])
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "".join(str(solver.value(cell)) for cell in cells)
    return "no solution" if status == cp_model.INFEASIBLE else f"no solution found ({TIME_LIMIT})"


@functools.cache
def clock_constraint() -> type:
    """python-constraint2's compiled search never runs Python's signal checks,
    so a time limit needs Python code inside it: a constraint over every
    variable, called at every node, that accepts everything and every 256
    calls ends the search past its deadline (the trick of csp's backend)."""
    import constraint

    class Clock(constraint.Constraint):
        def __init__(self, deadline: float) -> None:
            self.deadline, self.countdown = deadline, 256

        def __call__(self, variables: object, domains: object, assignments: object,
                     forwardcheck: object = False) -> bool:
            self.countdown -= 1
            if self.countdown <= 0:
                self.countdown = 256
                if time.perf_counter() > self.deadline:
                    raise OutOfTime
            return True

        def preProcess(self, variables: object, domains: object, constraints: object,  # noqa: N802
                       vconstraints: object) -> None:
            return None  # never pruned away

    return Clock


def pyconstraint_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    import constraint

    problem = constraint.Problem()
    for k, ch in enumerate(puzzle):
        problem.addVariable(k, list(range(1, 10)) if ch == "." else [int(ch)])
    for unit in units():
        problem.addConstraint(constraint.AllDifferentConstraint(), unit)
    if time_limit is not None:
        clock = clock_constraint()(time.perf_counter() + time_limit)
        problem.addConstraint(clock, list(range(81)))
    try:
        solution = problem.getSolution()
    except OutOfTime:
        return f"no solution found ({TIME_LIMIT})"
    if not solution:
        return "no solution"
    return "".join(str(solution[k]) for k in range(81))


def shikaku_puzzles(text: str) -> Iterator[tuple[int, int, list[list[int]]]]:
    """`w h` then h rows of w integers, puzzle after puzzle (the file written above)."""
    numbers = iter(int(t) for t in text.split())
    for width in numbers:
        height = next(numbers)
        yield width, height, [[next(numbers) for _ in range(width)] for _ in range(height)]


def xcover_shikaku(width: int, height: int, grid: list[list[int]], count: bool) -> str:
    """Items: each clue, then each cell; an option per candidate rectangle."""
    import numpy as np
    from xcover import algorithm_c

    clues = [(r, c, a) for r, row in enumerate(grid) for c, a in enumerate(row) if a]
    options, sizes, placed = [], [], []
    for k, (r, c, a) in enumerate(clues):
        for top, left, h, w in rectangles(grid, r, c, a):
            cells = [len(clues) + i * width + j for i in range(top, top + h)
                     for j in range(left, left + w)]
            options += [k, *cells]
            sizes.append(len(cells) + 1)
            placed.append((k, top, left, h, w))
    pointers = np.zeros(len(sizes) + 1, dtype=np.uint32)
    pointers[1:] = np.cumsum(sizes)
    solutions = algorithm_c(np.array(options, dtype=np.uint32), pointers,
                            np.zeros(len(options), dtype=np.uint32),
                            len(clues) + width * height, 0)
    if count:
        return str(sum(1 for _ in solutions))
    solution = next(solutions, None)
    if solution is None:
        return "no solution"
    areas = [[0] * width for _ in range(height)]
    for option in solution:
        k, top, left, h, w = placed[option]
        for i in range(top, top + h):
            for j in range(left, left + w):
                areas[i][j] = clues[k][2]
    pad = len(str(max(a for _, _, a in clues)))
    return "\n".join(" ".join(str(a).rjust(pad) for a in row) for row in areas)


if __name__ == "__main__":
    sys.exit(main())
