#!/usr/bin/env python
"""`dlx`'s dancing cells (C kernel and numba kernel) against Knuth's SSXCC, one run.

    bench/knuth/build.sh SCRATCH                 # once: Knuth's programs, if they build
    python bench/knuth/bench_ssxcc.py --knuth SCRATCH/bin [--repeat N]

Instances: 6x10 pentominoes (9,356), queens 12-14, "Platinum Blonde" minus its
last two clues (74,568), 5x5 word squares over 96 words (38,778). Each is
written in Knuth's format (`xc.to_text()`) for SSXCC. Columns: the C kernel
counting in-process (CPU seconds, median of N warm counts), the numba kernel
the same way, SSXCC as a whole process (user + system CPU seconds of the
child: `csp.bench.processes.run`, median of N), each one's nodes, and the
ratios C/SSXCC and numba/C (< 1: csp faster than SSXCC). The three run in
turn in each repetition, the order reversed every other one
(`csp.bench.measure.rounds`), so that a change of load hits all three.
Exits 1 if a count is wrong.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from csp import ExactCover
from csp.backends.dlx import DLXBackend
from csp.bench import instances
from csp.bench.measure import header, rounds, timed
from csp.bench.processes import Command, run
from csp.bench.script import Report, arguments
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
    """CPU seconds, count and nodes of one count in this process."""
    seconds, result = timed(lambda: backend.count(problem), "cpu")
    return seconds, result.count, result.stats.nodes or 0


def ssxcc(program: Path, path: Path) -> tuple[float, int, int]:
    """The child's CPU seconds, count and nodes of SSXCC counting `path`."""
    done = run(Command([str(program)], stdin=path))
    found = re.search(r"Altogether (\d+) solution.* (\d+) nodes", done.stderr)
    if found is None:
        raise RuntimeError(f"{program}: no summary line in {done.stderr[-300:]!r}")
    return done.cpu, int(found[1]), int(found[2])


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=3, knuth=True)
    args = parser.parse_args(argv)
    program = args.knuth / "ssxcc" if args.knuth else None
    if program is None or not program.is_file():
        print(f"{program}: not built (see bench/knuth/build.sh); SSXCC columns skipped")
        program = None
    c, numba = DLXBackend("cells"), DLXBackend("cells-numba")
    if c.solutions(ExactCover(["a"])).kernel is numba.solutions(ExactCover(["a"])).kernel:
        print("the C kernel is not built here (csp.backends.dlx._cells): both columns are numba")
    report = Report()
    report(f"# {header(f'CPU seconds, median of {args.repeat}')}", "")
    report.table(["instance", "count", "C s", "numba s", "SSXCC s", "C nodes", "SSXCC nodes",
                  "C/SSXCC", "numba/C"])
    wrong = False
    with tempfile.TemporaryDirectory() as scratch:
        for name, problem, expected in chosen():
            path = Path(scratch) / f"{name}.dlx"
            path.write_text(problem.to_text())
            in_process(c, problem), in_process(numba, problem)  # warm up: load, compile
            calls: dict[str, Callable[[], tuple[float, int, int]]] = {
                "c": lambda p=problem: in_process(c, p),
                "numba": lambda p=problem: in_process(numba, p)}
            if program is not None:
                calls["ssxcc"] = lambda prog=program, p=path: ssxcc(prog, p)
            seen = rounds(calls, args.repeat)
            med, nodes = {"ssxcc": float("nan")}, {}
            for key, runs in seen.items():
                med[key] = statistics.median(seconds for _, (seconds, _, _) in runs)
                for _, (_, count, nodes[key]) in runs:
                    if count != expected:
                        print(f"{name}: {key} counted {count}, expected {expected}")
                        wrong = True
            report.row([name, f"{expected:,}", f"{med['c']:.3f}", f"{med['numba']:.3f}",
                        f"{med['ssxcc']:.3f}", f"{nodes['c']:,}", f"{nodes.get('ssxcc', 0):,}",
                        f"{med['c'] / med['ssxcc']:.2f}", f"{med['numba'] / med['c']:.2f}"])
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
