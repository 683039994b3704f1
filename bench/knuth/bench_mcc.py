#!/usr/bin/env python
"""csp's `dlx` (Algorithm M) against Knuth's DLX3 on covers with multiplicities.

    bench/knuth/build.sh SCRATCH                 # once: Knuth's programs, if they build
    python bench/knuth/bench_mcc.py [--knuth SCRATCH/bin] [--repeat N] [--out DIR]

Instances (Knuth's format, with `a:b|name` bounds): tests/data/xc's 4x4 rooks
(two in each row, one or two in each column: 90) and "two queens in each row
and column, at most two on each diagonal" on n x n boards, n = 5..8 (92,
1097, 19448, 477136: DLX3's counts, which every run must match).

Columns: `dlx` counting in-process (wall seconds of `csp.count`, median of N
warm runs: `csp.bench.measure.median`), its nodes; `csp xc --count` as a
whole process (median of N after one that fills the caches:
`csp.bench.processes.series`); DLX3 as a whole process (the same) and its
nodes, when `--knuth` names a folder holding `dlx3` (without it, or without
the program, those columns say "not built"). DLX3 counts the root of the
search tree as a node, `dlx` does not: equal trees show as DLX3 = dlx + 1.

Writes DIR/mcc.md (and prints it); exits 1 if any count is wrong.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from csp import ExactCover, count
from csp.bench.measure import median
from csp.bench.processes import Command, csp_program, series
from csp.bench.script import Report, arguments
from csp.testing import two_queens_cover

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "xc"

KNOWN = {"rooks4_two_per_row": 90, "queens5_two_per_line": 92, "queens6_two_per_line": 1097,
         "queens7_two_per_line": 19448, "queens8_two_per_line": 477136}


def instances(folder: Path) -> dict[str, Path]:
    paths = {"rooks4_two_per_row": DATA / "rooks4_two_per_row.dlx",
             "queens5_two_per_line": DATA / "queens5_two_per_line.dlx"}
    for n in (6, 7, 8):
        path = folder / f"queens{n}_two_per_line.dlx"
        path.write_text(two_queens_cover(n).to_text())
        paths[path.stem] = path
    return paths


def main() -> int:
    parser = arguments(__doc__, repeat=3, out="dir", knuth=True)
    args = parser.parse_args()
    dlx3 = args.knuth / "dlx3" if args.knuth else None
    if dlx3 is not None and not dlx3.exists():
        print(f"{dlx3}: not built (see bench/knuth/build.sh); DLX3 columns skipped")
        dlx3 = None
    report = Report()
    report.table(["instance", "count", "dlx in-process", "dlx nodes", "`csp xc --count`",
                  "DLX3 process", "DLX3 nodes", "DLX3 / dlx in-process"])
    wrong = False
    with tempfile.TemporaryDirectory() as folder:
        for name, path in instances(Path(folder)).items():
            xc = ExactCover.read(path)
            count(xc, "dlx")  # compile or load the kernel
            inside, result = median(lambda xc=xc: count(xc, "dlx"), args.repeat, "wall")
            wrong |= result.count != KNOWN[name]
            whole = series(Command([csp_program(), "xc", str(path), "--count"]), args.repeat,
                           accept=None).wall
            knuth = ["not built", "-", "-"]
            if dlx3 is not None:
                runs = series(Command([str(dlx3)], stdin=path), args.repeat, accept=None)
                last = runs.every[-1]
                found = re.search(r"Altogether (\d+) solution.* (\d+) nodes",
                                  last.stderr + last.stdout)
                if found is None or int(found[1]) != KNOWN[name] or runs.wall is None:
                    wrong = True
                    knuth = ["FAILURE: WRONG", "-", "-"]
                else:
                    knuth = [f"{runs.wall:.3f} s", found[2], f"{runs.wall / inside:.2f}"]
            report.row([name, result.count, f"{inside:.4f} s", result.stats.nodes,
                        f"{whole:.3f} s", *knuth])
    report.write(args.out / "mcc.md")
    if wrong:
        print("FAILURE: WRONG count")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
