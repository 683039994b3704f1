#!/usr/bin/env python
"""`dlx`'s dancing cells (C kernel and numba kernel) against Knuth's SSXCC, one run.

    bench/knuth/build.sh SCRATCH                 # once: Knuth's programs, if they build
    python bench/knuth/bench_ssxcc.py --knuth SCRATCH/bin [--repeat N]

Instances: 6x10 pentominoes (9,356), queens 12-14, "Platinum Blonde" minus its
last two clues (74,568), 5x5 word squares over 96 words (38,778). Each is
written in Knuth's format (`xc.to_text()`) for SSXCC. Columns: the C kernel
counting in-process (CPU seconds, median of N warm counts), the numba kernel
the same way, SSXCC as a whole process (user + system CPU seconds of the
child, median of N), each one's nodes, and the ratios C/SSXCC and
numba/C (< 1: csp faster than SSXCC). Runs alternate C, numba, SSXCC in each
repetition, so that a change of load hits all three. Exits 1 if a count is wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from csp import ExactCover
from csp.backends.dlx import DLXBackend
from csp.bench import instances, measure
from csp.problems import sudoku

PLATINUM_BLONDE = (".......12........3..23..4....18....5.6..7.8......."
                   "9.....85.....9...4.5..47...6...")
"""gsf's "Platinum Blonde"; minus its last two clues (row 9's 7 and 6) it has 74,568 grids."""


def platinum_blonde_minus_2() -> ExactCover:
    grid = PLATINUM_BLONDE[:73] + "." * 8
    problem = sudoku.declare(sudoku.parse(grid)[0])
    assert isinstance(problem, ExactCover)
    return problem


def chosen() -> list[tuple[str, ExactCover, int]]:
    found = []
    for name in ("pentominoes-6x10", "queens-12", "queens-13", "queens-14",
                 "word-square-5x5-96words"):
        instance = instances.get(name)
        [problem] = instance.build("exact-cover")
        found.append((name, problem, instance.expected[0]))
    found.insert(4, ("sudoku-platinum-blonde-minus-2", platinum_blonde_minus_2(), 74568))
    return found


def in_process(backend: DLXBackend, problem: ExactCover) -> tuple[float, int, int]:
    started = time.process_time()
    result = backend.count(problem)
    return time.process_time() - started, result.count, result.stats.nodes or 0


def ssxcc(program: Path, path: Path) -> tuple[float, int, int]:
    seconds, done = measure.child([str(program)], stdin=str(path))
    found = re.search(r"Altogether (\d+) solution.* (\d+) nodes", done.stderr)
    if found is None:
        raise RuntimeError(f"{program}: no summary line in {done.stderr[-300:]!r}")
    return seconds, int(found[1]), int(found[2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knuth", type=Path, help="the folder of build.sh's programs")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    program = args.knuth / "ssxcc" if args.knuth else None
    if program is None or not program.is_file():
        print(f"{program}: not built (see bench/knuth/build.sh); SSXCC columns skipped")
        program = None
    c, numba = DLXBackend("cells"), DLXBackend("cells-numba")
    if c.solutions(ExactCover(["a"])).kernel is numba.solutions(ExactCover(["a"])).kernel:
        print("the C kernel is not built here (csp.backends.dlx._cells): both columns are numba")
    load = os.getloadavg()[0]
    print(f"# load average {load:.2f} at the start; CPU seconds, median of {args.repeat}\n")
    print("| instance | count | C s | numba s | SSXCC s | C nodes | SSXCC nodes | C/SSXCC "
          "| numba/C |")
    print("|---|---|---|---|---|---|---|---|---|")
    wrong = False
    with tempfile.TemporaryDirectory() as scratch:
        for name, problem, expected in chosen():
            path = Path(scratch) / f"{name}.dlx"
            path.write_text(problem.to_text())
            in_process(c, problem), in_process(numba, problem)  # warm up: load, compile
            times: dict[str, list[float]] = {"c": [], "numba": [], "ssxcc": []}
            nodes = {}
            for _ in range(args.repeat):
                runs = [("c", in_process(c, problem)), ("numba", in_process(numba, problem))]
                if program is not None:
                    runs.append(("ssxcc", ssxcc(program, path)))
                for key, (seconds, count, nodes[key]) in runs:
                    times[key].append(seconds)
                    if count != expected:
                        print(f"{name}: {key} counted {count}, expected {expected}")
                        wrong = True
            med = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
            print(f"| {name} | {expected:,} | {med['c']:.3f} | {med['numba']:.3f} | "
                  f"{med['ssxcc']:.3f} | {nodes['c']:,} | {nodes.get('ssxcc', 0):,} | "
                  f"{med['c'] / med['ssxcc']:.2f} | {med['numba'] / med['c']:.2f} |", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
