"""The cost of the reformulations next to the time to solve on the native form.

    python bench/bench_reformulate.py [--repeat N] [--skip-count]

1. The 6x10 pentomino exact cover (with reflections, `../shared/data`):
   build its `Model` (`exact_cover_to_model`); solve the exact cover with
   `dlx` (first solution, and the full count) and `cpsat` (first solution).
2. The first 16x16 sudoku of `sudoku_large.json` as a `Model`: build its
   `ExactCover` (`model_to_exact_cover`); solve the model with `bitmask`
   and `cpsat`, and the lowered exact cover with `dlx`.

Times are the best of `--repeat` runs (wall clock, seconds); the first run of
a numba backend includes loading its compiled kernels from the cache, so a
warm-up run is made first.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import csp
from csp.bench.instances import data_dir
from csp.problems import polyomino, sudoku
from csp.reformulate import exact_cover_to_model, model_to_exact_cover

DATA = data_dir()


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def model_size(m: csp.Model) -> str:
    values = sum(len(v.domain) for v in m.variables.values())
    return f"{len(m.variables)} variables ({values} values), {len(m.constraints)} constraints"


def xc_size(xc: csp.ExactCover) -> str:
    entries = int(xc.arrays()["start"][-1])
    return (f"{xc.n_primary} primary + {len(xc.secondary)} secondary items, "
            f"{xc.n_options} options, {entries} entries")


def row(label: str, seconds: float, note: str = "") -> None:
    print(f"  {label:<44} {seconds:9.4f}s  {note}")


def pentomino(repeat: int, skip_count: bool) -> None:
    text = (DATA / "polyomino" / "pent_6x10.txt").read_text()
    [puzzle] = polyomino.parse(text, reflect=True)
    xc = polyomino.declare(puzzle)
    print(f"pentomino 6x10 with reflections: {xc_size(xc)}")
    t, (m, _) = best(lambda: exact_cover_to_model(xc), repeat)
    row("exact_cover_to_model", t, model_size(m))
    csp.solve(xc, "dlx")  # warm-up: load the compiled kernel
    t, r = best(lambda: csp.solve(xc, "dlx"), repeat)
    row("dlx: first solution (native form)", t)
    t, r = best(lambda: csp.solve(xc, "cpsat"), repeat)
    row("cpsat: first solution (ExactCover taken directly)", t)
    if not skip_count:
        t, r = best(lambda: csp.count(xc, "dlx"), 1)
        row("dlx: count (native form)", t, f"{r.count} solutions, {r.status}")


def sudoku16(repeat: int) -> None:
    data = json.loads((DATA / "sudoku" / "sudoku_large.json").read_text())
    entry = next(p for p in data["puzzles"] if p["size"] == 16)
    [puzzle] = sudoku.parse(entry["puzzle"], symbols=entry["symbols"])
    m = sudoku.declare(puzzle, form="model")
    print(f"sudoku 16x16 ({entry['name']}): {model_size(m)}")
    t, (xc, decode) = best(lambda: model_to_exact_cover(m), repeat)
    row("model_to_exact_cover", t, xc_size(xc))
    csp.solve(m, "bitmask")  # warm-up
    t, r = best(lambda: csp.count(m, "bitmask"), repeat)
    row("bitmask: count (native form)", t, f"{r.count} solution(s)")
    t, r = best(lambda: csp.count(m, "cpsat"), repeat)
    row("cpsat: count (native form)", t, f"{r.count} solution(s)")
    csp.count(xc, "dlx")
    t, r = best(lambda: csp.count(xc, "dlx"), repeat)
    row("dlx: count of the lowered exact cover", t, f"{r.count} solution(s)")
    t, _ = best(lambda: csp.count(m, "dlx"), repeat)
    row("dlx: count, lowering included (csp.count)", t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-count", action="store_true",
                        help="skip the full count of the 6x10 pentomino (a few seconds)")
    args = parser.parse_args()
    pentomino(args.repeat, args.skip_count)
    sudoku16(args.repeat)


if __name__ == "__main__":
    main()
