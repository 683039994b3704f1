"""The field's solvers as backends (issue 24): what a call costs them.

    python bench/bench_field_solvers.py startup [--backends ...] [--calls N]
    python bench/bench_field_solvers.py sudokus [--backends ...] [--puzzles N] [--time-limit S]
    python bench/bench_field_solvers.py ganak [--time-limit S]

- `startup`: the overhead of one call, per backend: a warm `csp.count` of 4
  queens as a model (4 queens is no work: what is left is the process, the
  JVM, the model's building), median wall time of N calls, and CPU seconds
  per call (this process's and its children's, JVMs included: the figure a
  shared machine does not distort);
- `sudokus`: the cost per instance on a collection of 9x9 sudokus (the first
  N of Norvig's top95, tests/data), each solved and proved unique (`limit=2`)
  in the form the backend prefers, checked against the published solution
  (a backend that counts only: counted, 1 each);
- `ganak`: ganak's counts of the tilings and packings of tests/data
  (`polyomino/`, pieces rotated and reflected; domino tilings of 2n x 2n
  boards, whose counts are known in closed form) against `dlx`'s, with
  their times.

Every count is checked against its known answer; a wrong one is printed
`WRONG` and the script exits 1. The machine's load is printed first:
compare a table's figures as ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import csp
from csp import Model, Status
from csp.backends.base import COUNTS_ONLY
from csp.testing import queens_model

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CSP_DATA") or ROOT / "tests" / "data")
BACKENDS = ["dlx", "bitmask", "cpsat", "sat", "python-constraint", "choco", "ace", "gecode",
            "ganak"]
WRONG = False


def cpu() -> float:
    """CPU seconds of this process and of its reaped children (JVMs included)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def available(names: list[str]) -> list[str]:
    here = csp.backends.available()
    for name in names:
        if name not in here:
            print(f"<!-- {name} not run: {csp.backends.missing().get(name, 'unknown')} -->")
    return [name for name in names if name in here]


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def startup(names: list[str], calls: int) -> None:
    problem = queens_model(4)
    print(f"| backend | wall per call (median of {calls}) | CPU per call | count |")
    print("|---|---|---|---|")
    for name in available(names):
        csp.count(problem, name)  # loads what the backend loads once per process
        walls = []
        spent = cpu()
        result = None
        for _ in range(calls):
            started = time.perf_counter()
            result = csp.count(problem, name)
            walls.append(time.perf_counter() - started)
        per = (cpu() - spent) / calls
        assert result is not None
        print(f"| {name} | {fmt(statistics.median(walls))} | {fmt(per)} | "
              f"{check(result.count, 2, result.status)} |")


def check(count: int, known: int, status: Status) -> str:
    global WRONG
    if status is not Status.COMPLETE:
        return f"{count} ({status.value})"
    if count != known:
        WRONG = True
        return f"WRONG {count} (known {known})"
    return str(count)


def sudoku(puzzle: str) -> Model:
    m = Model("sudoku")
    cell = {(r, c): m.var((r, c), range(1, 10) if puzzle[9 * r + c] in ".0" else
                          [int(puzzle[9 * r + c])]) for r in range(9) for c in range(9)}
    for k in range(9):
        m.add(csp.AllDifferent([cell[k, c] for c in range(9)]))
        m.add(csp.AllDifferent([cell[r, k] for r in range(9)]))
        m.add(csp.AllDifferent([cell[3 * (k // 3) + i // 3, 3 * (k % 3) + i % 3]
                                for i in range(9)]))
    return m


def sudokus(names: list[str], count: int, limit: float) -> None:
    global WRONG
    lines = (DATA / "sudoku" / "norvig_top95.txt").read_text().split()
    pairs = list(zip(lines[0::2], lines[1::2]))[:count]
    print(f"{len(pairs)} sudokus of norvig_top95.txt, each solved and proved unique "
          f"(limit=2), {limit:g} s each at most")
    print()
    print("| backend | solved | wall per puzzle (median) | total wall | CPU per puzzle |")
    print("|---|---|---|---|---|")
    for name in available(names):
        csp.count(queens_model(4), name)  # loaded
        walls, solved = [], 0
        spent = cpu()
        began = time.perf_counter()
        for puzzle, answer in pairs:
            m = sudoku(puzzle)
            started = time.perf_counter()
            if COUNTS_ONLY in csp.backends.get(name).capabilities:  # counted: one solution
                result = csp.count(m, name, time_limit=limit)
                walls.append(time.perf_counter() - started)
                solved += result.status is Status.COMPLETE and check(result.count, 1,
                                                                     result.status) == "1"
                continue
            found = list(csp.solutions(m, name, limit=2, time_limit=limit))
            walls.append(time.perf_counter() - started)
            if found:
                grid = "".join(str(found[0][r, c]) for r in range(9) for c in range(9))
                if grid != answer or len(found) != 1:
                    WRONG = True
                    print(f"WRONG: {name} on {puzzle}: {len(found)} solutions")
                    continue
                solved += 1
        total = time.perf_counter() - began
        per = (cpu() - spent) / len(pairs)
        print(f"| {name} | {solved}/{len(pairs)} | {fmt(statistics.median(walls))} | "
              f"{fmt(total)} | {fmt(per)} |")


def dominoes(n: int) -> csp.ExactCover:
    cells = [f"{r},{c}" for r in range(n) for c in range(n)]
    xc = csp.ExactCover(cells)
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                xc.add_option([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < n:
                xc.add_option([f"{r},{c}", f"{r + 1},{c}"])
    return xc


def domino_tilings(n: int) -> int:
    """Kasteleyn's product for the n x n board (n even)."""
    total = 1.0
    for j in range(1, n // 2 + 1):
        for k in range(1, n // 2 + 1):
            total *= 4 * math.cos(math.pi * j / (n + 1)) ** 2 + \
                4 * math.cos(math.pi * k / (n + 1)) ** 2
    return round(total)


def ganak(limit: float) -> None:
    from csp.problems import polyomino

    answers = json.loads((DATA / "polyomino" / "answers.json").read_text())["answers"]
    print("| instance | known | dlx | dlx time | ganak | ganak time |")
    print("|---|---|---|---|---|---|")
    cases: list[tuple[str, Any, int]] = []
    for key, entry in answers.items():
        text = (DATA / "polyomino" / entry["file"]).read_text()
        reflect = "count_with_reflections" in entry
        known = entry["count_with_reflections"] if reflect else entry["count_rotations_only"]
        puzzle = polyomino.parse(text, reflect=reflect)[0]
        cases.append((f"{key}{' (reflections)' if reflect else ''}",
                      polyomino.declare(puzzle), known))
    for n in (4, 6, 8, 10):
        cases.append((f"dominoes {n}x{n}", dominoes(n), domino_tilings(n)))
    for name, problem, known in cases:
        cells = [name, str(known)]
        for backend in ("dlx", "ganak"):
            started = time.perf_counter()
            result = csp.count(problem, backend, time_limit=limit)
            cells += [check(result.count, known, result.status),
                      fmt(time.perf_counter() - started)]
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["startup", "sudokus", "ganak"])
    parser.add_argument("--backends", nargs="+", default=BACKENDS)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--puzzles", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    print(f"<!-- {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.1f}; python bench/bench_field_solvers.py "
          f"{' '.join(sys.argv[1:])} -->")
    if args.what == "startup":
        startup(args.backends, args.calls)
    elif args.what == "sudokus":
        sudokus(args.backends, args.puzzles, args.time_limit)
    else:
        ganak(args.time_limit)
    sys.exit(1 if WRONG else 0)


if __name__ == "__main__":
    main()
