#!/usr/bin/env python
"""csp's `dlx` (Algorithm M) against Knuth's DLX3 on covers with multiplicities.

    bench/knuth/build.sh SCRATCH                 # once: Knuth's programs, if they build
    python bench/knuth/bench_mcc.py [--knuth SCRATCH/bin] [--repeat N] [--out DIR]

Instances (Knuth's format, with `a:b|name` bounds): tests/data/xc's 4x4 rooks
(two in each row, one or two in each column: 90) and "two queens in each row
and column, at most two on each diagonal" on n x n boards, n = 5..8 (92,
1097, 19448, 477136: DLX3's counts, which every run must match).

Columns: `dlx` counting in-process (median of N warm runs), its nodes; `csp xc
--count` as a whole process (median of N after one that fills the caches);
DLX3 as a whole process (median of N) and its nodes, when `--knuth` names a
folder holding `dlx3` (without it, or without the program, those columns say
"not built"). DLX3 counts the root of the search tree as a node, `dlx` does
not: equal trees show as DLX3 = dlx + 1.

Writes DIR/mcc.md (and prints it); exits 1 if any count is wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from csp import ExactCover, count
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


def median_time(command: list[str], stdin: Path | None, repeat: int) -> tuple[float, str]:
    times, err = [], ""
    for run in range(repeat + 1):
        with open(stdin or os.devnull) as handle:
            start = time.perf_counter()
            done = subprocess.run(command, stdin=handle, capture_output=True, text=True,
                                  check=False)
            elapsed = time.perf_counter() - start
        err = done.stderr + done.stdout
        if run:  # the first fills the caches
            times.append(elapsed)
    return statistics.median(times), err


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knuth", type=Path, help="the folder of build.sh's programs")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("bench-out"))
    args = parser.parse_args()
    dlx3 = args.knuth / "dlx3" if args.knuth else None
    if dlx3 is not None and not dlx3.exists():
        print(f"{dlx3}: not built (see bench/knuth/build.sh); DLX3 columns skipped")
        dlx3 = None
    csp_command = shutil.which("csp") or str(Path(sys.executable).with_name("csp"))
    rows = ["| instance | count | dlx in-process | dlx nodes | `csp xc --count` | DLX3 process "
            "| DLX3 nodes | DLX3 / dlx in-process |", "|---|---|---|---|---|---|---|---|"]
    wrong = False
    with tempfile.TemporaryDirectory() as folder:
        for name, path in instances(Path(folder)).items():
            xc = ExactCover.read(path)
            count(xc, "dlx")  # compile or load the kernel
            runs = []
            for _ in range(args.repeat):
                result = count(xc, "dlx")
                runs.append(result.stats.time)
            inside = statistics.median(runs)
            wrong |= result.count != KNOWN[name]
            whole, _ = median_time([csp_command, "xc", str(path), "--count"], None, args.repeat)
            knuth = ["not built", "-", "-"]
            if dlx3 is not None:
                seconds, err = median_time([str(dlx3)], path, args.repeat)
                found = re.search(r"Altogether (\d+) solution.* (\d+) nodes", err)
                if found is None or int(found[1]) != KNOWN[name]:
                    wrong = True
                    knuth = ["FAILURE: WRONG", "-", "-"]
                else:
                    knuth = [f"{seconds:.3f} s", found[2], f"{seconds / inside:.2f}"]
            rows.append(f"| {name} | {result.count} | {inside:.4f} s | {result.stats.nodes} | "
                        f"{whole:.3f} s | " + " | ".join(knuth) + " |")
    text = "\n".join(rows) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mcc.md").write_text(text)
    print(text, end="")
    if wrong:
        print("FAILURE: WRONG count")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
