#!/usr/bin/env python
"""Start-up: whole processes of `csp`, paired against another checkout and a reference program.

    python bench/bench_startup.py [--against CHECKOUT] [--dlx2 PATH] [--pairs N]

Runs each pair of commands in turn (A B A B ..., after one warm-up of each)
and prints, per pair, the median CPU seconds (user + system, from the
operating system's accounting of the finished child) and wall seconds of
each, and the median of the ratios A/B taken pair by pair: on a shared, noisy
machine only such ratios are worth quoting.

A is this checkout (`python -m csp ...` with it first on PYTHONPATH). B is:

- `--against CHECKOUT`: the same command run from another checkout of csp
  (e.g. a worktree of main), for an A/B of a change;
- `--dlx2 PATH`: Knuth's DLX2 (built by `bench/knuth/build.sh`) counting the
  same 12 queens file, the reference of issue 11 (within 5x);
- always `python -c pass`, what no Python program goes below.

The commands: `csp xc QUEENS-12 --count` (written to a temporary file),
`csp solve sudoku TOP1465` (the puzzles of tests/data, solutions dropped) and
`python -c "import csp"`. The modules `import csp` loads are listed by
`python -X importtime -c "import csp.cli"`; tests/test_startup.py checks the
heavy ones stay out.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def run(command: list[str], checkout: Path | None, stdin: Path | None = None
        ) -> tuple[float, float]:
    """CPU and wall seconds of one whole process."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with open(stdin or os.devnull, "rb") as source:
        subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, check=True, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def paired(label: str, a: tuple, b: tuple, pairs: int) -> None:
    run(*a), run(*b)  # warm-up: numba's cache, the OS's file cache
    seen_a, seen_b = [], []
    for _ in range(pairs):
        seen_a.append(run(*a))
        seen_b.append(run(*b))
    cpu = [x[0] / y[0] for x, y in zip(seen_a, seen_b)]
    wall = [x[1] / y[1] for x, y in zip(seen_a, seen_b)]
    med = statistics.median
    print(f"{label}: A cpu {med(x[0] for x in seen_a):.3f} s wall {med(x[1] for x in seen_a):.3f} s"
          f" | B cpu {med(x[0] for x in seen_b):.3f} s wall {med(x[1] for x in seen_b):.3f} s"
          f" | A/B cpu {med(cpu):.2f} wall {med(wall):.2f} ({pairs} pairs)")


def queens_file(n: int, where: Path) -> Path:
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)] + ["|"]
                      + [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)])]
    lines += [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    path = where / f"queens{n}.xc"
    path.write_text("\n".join(lines) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout of csp, for B")
    parser.add_argument("--dlx2", type=Path, help="Knuth's DLX2 binary, for B")
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        queens = queens_file(12, Path(scratch))
        top = Path(scratch) / "top1465.txt"
        text = (DATA / "sudoku" / "magictour_top1465.txt").read_text()
        top.write_text("".join(line.split()[0] + "\n" for line in text.splitlines()
                               if line.strip()))
        commands = {
            "csp xc queens-12 --count": [python, "-m", "csp", "xc", str(queens), "--count"],
            "csp solve sudoku top1465": [python, "-m", "csp", "solve", "sudoku", str(top)],
            "python -c 'import csp'": [python, "-c", "import csp"],
        }
        bare = ([python, "-c", "pass"], None)
        for label, command in commands.items():
            mine = (command, ROOT)
            if args.against is not None:
                paired(f"{label}, against {args.against}", mine, (command, args.against),
                       args.pairs)
            paired(f"{label}, against python -c pass", mine, bare, args.pairs)
        if args.dlx2 is not None:
            reference = ([str(args.dlx2)], None, queens)
            paired("csp xc queens-12 --count, against DLX2", (commands[
                "csp xc queens-12 --count"], ROOT), reference, args.pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
