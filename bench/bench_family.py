#!/usr/bin/env python
"""Collections at compiled speed, vectorised lowering, start-up: issue 11's figures.

    python bench/bench_family.py [--repeat N] [--only family lowering startup]

1. family: `csp solve sudoku top1465` (974 puzzles, first solution each) as a
   whole process against the xcover peer program (`csp.bench.peer_programs`,
   what `bench_solve.py` runs), in turn (A B A B ...:
   `csp.bench.processes.paired`), median wall seconds and the median of the
   pairwise ratios; and, in-process, `csp.solve_family` against solving the
   puzzles one by one (`csp.solve` on each declared puzzle), per backend.
2. lowering: `model_to_exact_cover` of a blank 16x16 sudoku model (the best
   of --repeat runs of 20 calls, the garbage collector paused as `timeit`
   pauses it, milliseconds a call: `csp.bench.measure.best`).
3. startup: whole process `csp xc QUEENS-12 --count` (written to a temporary
   file), against `python -c pass`, `python -c "import numpy"` and
   `python -c "import numba"`: what a run cannot go below while it uses numba
   (`csp.bench.processes.series`: one warm-up, the median of --repeat).

Needs the puzzle data (tests/data or $CSP_DATA) and, for the peer, xcover
(`pip install -e '.[peers]'`); a missing peer is skipped with a message.
Exits 1 if a process fails.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import csp
from csp.bench import answers, peer_programs
from csp.bench.instances import data_dir, queens_text
from csp.bench.measure import best, timed
from csp.bench.processes import Command, paired, series
from csp.bench.script import arguments

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("family", "lowering", "startup")


def family(repeat: int) -> bool:
    from csp.problems import sudoku

    cases = answers.load_sudoku(data_dir())
    with tempfile.TemporaryDirectory() as scratch:
        path = answers.write_input(Path(scratch), "sudoku", cases)
        ours = Command([sys.executable, "-m", "csp", "solve", "sudoku", str(path)], cwd=ROOT)
        if importlib.util.find_spec("xcover") is None:
            print("family: xcover is not installed (pip install -e '.[peers]'): peer skipped")
            alone = series(ours, repeat, warmup=0)
            if alone.failure:
                print(f"FAILURE: csp solve sudoku top1465: {alone.failure}")
                return False
            print(f"csp solve sudoku top1465: {alone.wall:.3f} s")
        else:
            peer = Command([sys.executable, peer_programs.__file__, "xcover", "--kind", "sudoku",
                            str(path)], cwd=ROOT)
            pair = paired(ours, peer, repeat)
            if pair.failure:
                print(f"FAILURE: family: {pair.failure}")
                return False
            print(f"whole process, top1465 ({len(cases)} puzzles): csp solve sudoku "
                  f"{pair.a.wall:.3f} s, xcover script {pair.b.wall:.3f} s, csp/xcover "
                  f"{pair.ratio('wall'):.2f} (median of {repeat} pairs)")
    puzzles = sudoku.parse(answers.sudoku_text(cases))
    for form, backend in (("exact-cover", "dlx"), ("model", "bitmask")):
        shape, givens = csp.family(sudoku.KIND, puzzles, form)
        list(csp.solve_family(shape, givens[:2], backend))  # load the kernels

        def many(form: str = form, backend: str = backend) -> int:
            shape, givens = csp.family(sudoku.KIND, puzzles, form)
            return sum(r.count for r in csp.solve_family(shape, givens, backend))

        def one_by_one(form: str = form, backend: str = backend) -> int:
            return sum(csp.solve(sudoku.declare(p, form), backend).count for p in puzzles)

        seconds_many, solved = timed(many, "wall")
        csp.solve(sudoku.declare(puzzles[0], form), backend)
        seconds_alone, alone = timed(one_by_one, "wall")
        assert solved == alone == len(puzzles)
        print(f"in-process, top1465, {backend} ({form}): solve_family {seconds_many:.3f} s "
              f"(declaring the shape and givens included), one by one {seconds_alone:.3f} s, "
              f"{seconds_alone / seconds_many:.1f}x")
    return True


def lowering(repeat: int) -> bool:
    from csp.problems import sudoku
    from csp.reformulate import model_to_exact_cover

    for text in ("." * 256, "." * 81):
        [puzzle] = sudoku.parse(text)
        m = sudoku.declare_model(puzzle)
        seconds, (xc, _) = best(lambda m=m: model_to_exact_cover(m), repeat, number=20)
        print(f"model_to_exact_cover, blank {puzzle.size}x{puzzle.size} sudoku "
              f"({xc.n_options} options): {seconds * 1000:.2f} ms")
    return True


def startup(repeat: int) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "queens12.xc"
        path.write_text(queens_text(12))
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "import numpy": [sys.executable, "-c", "import numpy"],
            "import numba": [sys.executable, "-c", "import numba"],
            "import csp": [sys.executable, "-c", "import csp"],
            "csp xc queens-12 --count": [sys.executable, "-m", "csp", "xc", str(path), "--count"],
        }
        for label, argv in commands.items():
            runs = series(Command(argv, cwd=ROOT), repeat)
            if runs.failure:
                print(f"FAILURE: whole process, {label}: {runs.failure}")
                return False
            print(f"whole process, {label}: {runs.wall:.3f} s")
    return True


def main() -> int:
    parser = arguments(__doc__, repeat=5)
    parser.add_argument("--only", nargs="*", default=list(PARTS), choices=PARTS)
    args = parser.parse_args()
    parts = {"family": family, "lowering": lowering, "startup": startup}
    done = [parts[part](args.repeat) for part in args.only]
    return 0 if all(done) else 1


if __name__ == "__main__":
    sys.exit(main())
