#!/usr/bin/env python
"""Start-up: whole processes of `csp`, paired against another checkout and a reference program.

    python bench/bench_startup.py [--against CHECKOUT] [--dlx2 PATH] [--pairs N]

Runs each pair of commands in turn (A B A B ..., after one warm-up of each:
`csp.bench.processes.paired`) and prints, per pair, the median CPU seconds
(user + system, from the operating system's accounting of the finished
child) and wall seconds of each, and the median of the ratios A/B taken pair
by pair: on a shared, noisy machine only such ratios are worth quoting.

A is this checkout (`python -m csp ...` with it first on PYTHONPATH). B is:

- `--against CHECKOUT`: the same command run from another checkout of csp
  (e.g. a worktree of main), for an A/B of a change;
- `--dlx2 PATH`: Knuth's DLX2 (built by `bench/knuth/build.sh`) counting the
  same 12 queens file, the reference of issue 11 (within 5x);
- always `python -c pass`, what no Python program goes below.

The commands: `csp xc QUEENS-12 --count` (written to a temporary file),
`csp solve sudoku TOP1465` (the puzzles of the puzzle data, solutions
dropped) and `python -c "import csp"`. The modules `import csp` loads are
listed by `python -X importtime -c "import csp.cli"`; tests/test_startup.py
checks the heavy ones stay out. Exits 1 if a command fails.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from csp.bench import answers
from csp.bench.instances import data_dir, queens_text
from csp.bench.processes import Command, Pair, paired
from csp.bench.script import arguments

ROOT = Path(__file__).resolve().parent.parent


def line(label: str, pair: Pair) -> str:
    """`label: A cpu .. wall .. | B cpu .. wall .. | A/B cpu .. wall .. (N pairs)`."""
    if pair.failure:
        return f"{label}: FAILURE: {pair.failure}"
    a, b = pair.a, pair.b
    return (f"{label}: A cpu {a.cpu:.3f} s wall {a.wall:.3f} s | B cpu {b.cpu:.3f} s wall "
            f"{b.wall:.3f} s | A/B cpu {pair.ratio('cpu'):.2f} wall {pair.ratio('wall'):.2f} "
            f"({len(a.runs)} pairs)")


def main() -> int:
    parser = arguments(__doc__, repeat=None)
    parser.add_argument("--against", type=Path, help="another checkout of csp, for B")
    parser.add_argument("--dlx2", type=Path, help="Knuth's DLX2 binary, for B")
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    python, here = sys.executable, Path(tempfile.gettempdir())
    lines = []
    with tempfile.TemporaryDirectory() as scratch:
        queens = Path(scratch) / "queens12.xc"
        queens.write_text(queens_text(12))
        top = answers.write_input(Path(scratch), "sudoku", answers.load_sudoku(data_dir()))
        commands = {
            "csp xc queens-12 --count": [python, "-m", "csp", "xc", str(queens), "--count"],
            "csp solve sudoku top1465": [python, "-m", "csp", "solve", "sudoku", str(top)],
            "python -c 'import csp'": [python, "-c", "import csp"],
        }
        bare = Command([python, "-c", "pass"], cwd=here)
        for label, argv in commands.items():
            mine = Command(argv, env={"PYTHONPATH": str(ROOT)}, cwd=here)
            if args.against is not None:
                theirs = Command(argv, env={"PYTHONPATH": str(args.against)}, cwd=here)
                lines.append(line(f"{label}, against {args.against}",
                                  paired(mine, theirs, args.pairs)))
                print(lines[-1], flush=True)
            lines.append(line(f"{label}, against python -c pass", paired(mine, bare, args.pairs)))
            print(lines[-1], flush=True)
        if args.dlx2 is not None:
            mine = Command(commands["csp xc queens-12 --count"], env={"PYTHONPATH": str(ROOT)},
                           cwd=here)
            reference = Command([str(args.dlx2)], stdin=queens, cwd=here)
            lines.append(line("csp xc queens-12 --count, against DLX2",
                              paired(mine, reference, args.pairs)))
            print(lines[-1], flush=True)
    return 1 if any("FAILURE" in text for text in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
