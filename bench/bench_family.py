#!/usr/bin/env python
"""Collections at compiled speed, vectorised lowering, start-up: issue 11's figures.

    python bench/bench_family.py [--repeat N] [--only family lowering startup]

1. family: `csp solve sudoku top1465` (974 puzzles, first solution each) as a
   whole process against the xcover script of `bench_solve.py` (`--peer
   xcover`), run in turn (A B A B ...), median wall seconds and the median of
   the pairwise ratios; and, in-process, `csp.solve_family` against solving
   the puzzles one by one (`csp.solve` on each declared puzzle), per backend.
2. lowering: `model_to_exact_cover` of a blank 16x16 sudoku model (the best
   of --repeat runs of 20 calls, milliseconds).
3. startup: whole process `csp xc QUEENS-12 --count` (written to a temporary
   file), against `python -c pass`, `python -c "import numpy"` and
   `python -c "import numba"`: what a run cannot go below while it uses numba.

Needs the puzzle data (tests/data or $CSP_DATA) and, for the peer, xcover
(`pip install -e '.[peers]'`); a missing peer is skipped with a message.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   cwd=ROOT)
    return time.perf_counter() - started


def paired(a: list[str], b: list[str], repeat: int) -> tuple[float, float, float]:
    """Median wall of a, of b, and the median of a/b taken pair by pair."""
    wall(a), wall(b)  # warm-up: numba's cache, the OS's file cache
    times_a, times_b = [], []
    for _ in range(repeat):
        times_a.append(wall(a))
        times_b.append(wall(b))
    ratios = [x / y for x, y in zip(times_a, times_b)]
    return statistics.median(times_a), statistics.median(times_b), statistics.median(ratios)


def family(repeat: int) -> None:
    import csp
    from csp.problems import sudoku

    source = DATA / "sudoku" / "magictour_top1465.txt"
    lines = [line.split()[0] for line in source.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "top1465.txt"
        path.write_text("\n".join(lines) + "\n")
        csp_cmd = [sys.executable, "-m", "csp", "solve", "sudoku", str(path)]
        if importlib.util.find_spec("xcover") is None:
            print("family: xcover is not installed (pip install -e '.[peers]'): peer skipped")
            median = statistics.median(wall(csp_cmd) for _ in range(repeat))
            print(f"csp solve sudoku top1465: {median:.3f} s")
        else:
            peer = [sys.executable, str(ROOT / "bench" / "bench_solve.py"), "--peer", "xcover",
                    "--kind", "sudoku", str(path)]
            a, b, ratio = paired(csp_cmd, peer, repeat)
            print(f"whole process, top1465 ({len(lines)} puzzles): csp solve sudoku {a:.3f} s, "
                  f"xcover script {b:.3f} s, csp/xcover {ratio:.2f} (median of {repeat} pairs)")
    puzzles = sudoku.parse(source.read_text())
    for form, backend in (("exact-cover", "dlx"), ("model", "bitmask")):
        shape, givens = csp.family(sudoku.KIND, puzzles, form)
        list(csp.solve_family(shape, givens[:2], backend))  # load the kernels
        started = time.perf_counter()
        shape, givens = csp.family(sudoku.KIND, puzzles, form)
        solved = sum(r.count for r in csp.solve_family(shape, givens, backend))
        many = time.perf_counter() - started
        csp.solve(sudoku.declare(puzzles[0], form), backend)
        started = time.perf_counter()
        alone = sum(csp.solve(sudoku.declare(p, form), backend).count for p in puzzles)
        one_by_one = time.perf_counter() - started
        assert solved == alone == len(puzzles)
        print(f"in-process, top1465, {backend} ({form}): solve_family {many:.3f} s "
              f"(declaring the shape and givens included), one by one {one_by_one:.3f} s, "
              f"{one_by_one / many:.1f}x")


def lowering(repeat: int) -> None:
    from csp.problems import sudoku
    from csp.reformulate import model_to_exact_cover

    for text in ("." * 256, "." * 81):
        [puzzle] = sudoku.parse(text)
        m = sudoku.declare_model(puzzle)
        best = min(timeit.repeat(lambda m=m: model_to_exact_cover(m), number=20,
                                 repeat=repeat)) / 20
        xc, _ = model_to_exact_cover(m)
        print(f"model_to_exact_cover, blank {puzzle.size}x{puzzle.size} sudoku "
              f"({xc.n_options} options): {best * 1000:.2f} ms")


def startup(repeat: int) -> None:
    n = 12
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)] + ["|"]
                      + [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)])]
    lines += [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "queens12.xc"
        path.write_text("\n".join(lines) + "\n")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "import numpy": [sys.executable, "-c", "import numpy"],
            "import numba": [sys.executable, "-c", "import numba"],
            "import csp": [sys.executable, "-c", "import csp"],
            "csp xc queens-12 --count": [sys.executable, "-m", "csp", "xc", str(path), "--count"],
        }
        for label, command in commands.items():
            wall(command)
            print(f"whole process, {label}: "
                  f"{statistics.median(wall(command) for _ in range(repeat)):.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=["family", "lowering", "startup"],
                        choices=["family", "lowering", "startup"])
    args = parser.parse_args()
    for part in args.only:
        {"family": family, "lowering": lowering, "startup": startup}[part](args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
