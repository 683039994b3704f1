#!/usr/bin/env python
"""The two engines of `dlx` side by side: dancing cells (the default) against
dancing links, in one process, on the same problems.

    python bench/bench_cells.py [--repeat N] [--suite full] [--out FILE] [NAME ...]

Instances: the exact-cover instances of `csp bench --suite full` (or the
names given, see `csp.bench.instances`). Each problem is built once; then
each engine counts it once to compile and warm up, and N more times,
alternating engines, so that a change of load on a shared machine hits both
alike. Reported: the median CPU time of a count (the sum over the instance's
puzzles), the nodes and updates of each engine (each as its own programs count
them: see README, "Nodes"), and the ratio links/cells (> 1: cells is faster).
Exits 1 if a count is wrong.
"""

from __future__ import annotations

import statistics
import sys

from csp.backends.dlx import DLXBackend
from csp.bench import instances
from csp.bench.measure import alternate, header
from csp.bench.script import arguments, invocation
from csp.exactcover import ExactCover

ENGINES = ("links", "cells")


def count_all(backend: DLXBackend, problems: list) -> tuple[int, int, int]:
    """Solutions, nodes and updates of counting every problem."""
    solutions = nodes = updates = 0
    for problem in problems:
        result = backend.count(problem)
        solutions += result.count
        nodes += result.stats.nodes or 0
        updates += result.stats.updates or 0
    return solutions, nodes, updates


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=3, out="file")
    parser.add_argument("names", nargs="*", help="instance names (default: the suite's)")
    parser.add_argument("--suite", default="full")
    parser.add_argument("--skip", action="append", default=None,
                        help="leave out an instance of the suite (default: sudoku-25x25, which "
                             "neither engine finishes within hours)")
    args = parser.parse_args(argv)
    chosen = [instances.get(n) for n in args.names] if args.names else [
        i for i in instances.suite(args.suite)
        if "exact-cover" in i.forms and i.name not in (args.skip or ["sudoku-25x25"])]
    backends = {engine: DLXBackend(engine) for engine in ENGINES}
    lines = [
        f"command: `{invocation(__file__, argv)}`",
        header(f"CPU time, median of {args.repeat}"),
        "",
        "| instance | count | links s | cells s | links/cells | links nodes | cells nodes "
        "| links updates | cells updates |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    wrong = False
    for inst in chosen:
        problems = inst.problems("exact-cover")
        if not all(isinstance(p, ExactCover) for p in problems):
            continue  # (lattice: an exact cover up to symmetry, counted another way)
        for engine in ENGINES:
            count_all(backends[engine], problems)  # compile, warm the caches
        runs = alternate({e: (lambda e=e, p=problems: count_all(backends[e], p)) for e in ENGINES},
                         args.repeat)
        time_of = {e: statistics.median(runs[e][0]) for e in ENGINES}
        links, cells = runs["links"][1], runs["cells"][1]
        expected = sum(inst.expected)
        for engine in ENGINES:
            if runs[engine][1][0] != expected:
                wrong = True
                print(f"WRONG: {engine} counts {runs[engine][1][0]} on {inst.name}, "
                      f"not {expected}", file=sys.stderr)
        line = (f"| {inst.name} | {cells[0]:,} | {time_of['links']:.3f} | {time_of['cells']:.3f} "
                f"| {time_of['links'] / max(time_of['cells'], 1e-9):.2f} | {links[1]:,} "
                f"| {cells[1]:,} | {links[2]:,} | {cells[2]:,} |")
        lines.append(line)
        print(line, flush=True)
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
