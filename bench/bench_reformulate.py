"""The cost of the reformulations next to the time to solve on the native form.

    python bench/bench_reformulate.py [--repeat N] [--skip-count]

1. The 6x10 pentomino exact cover (with reflections, `../shared/data`):
   build its `Model` (`exact_cover_to_model`); solve the exact cover with
   `dlx` (first solution, and the full count) and `cpsat` (first solution).
2. The first 16x16 sudoku of `sudoku_large.json` as a `Model`: build its
   `ExactCover` (`model_to_exact_cover`); solve the model with `bitmask`
   and `cpsat`, and the lowered exact cover with `dlx`.

Times are the best of `--repeat` runs (wall clock, seconds; `csp.bench.measure`);
the first run of a numba backend includes loading its compiled kernels from
the cache, so a warm-up run is made first. Prints a Markdown table per problem.
"""

from __future__ import annotations

import json

import csp
from csp.bench.instances import data_dir
from csp.bench.measure import best, header, table
from csp.bench.script import arguments
from csp.problems import polyomino, sudoku
from csp.reformulate import exact_cover_to_model, model_to_exact_cover

DATA = data_dir()


def model_size(m: csp.Model) -> str:
    values = sum(len(v.domain) for v in m.variables.values())
    return f"{len(m.variables)} variables ({values} values), {len(m.constraints)} constraints"


def xc_size(xc: csp.ExactCover) -> str:
    entries = int(xc.arrays()["start"][-1])
    return (f"{xc.n_primary} primary + {len(xc.secondary)} secondary items, "
            f"{xc.n_options} options, {entries} entries")


COLUMNS = ["step", "seconds (best)", "what"]


def pentomino(repeat: int, skip_count: bool) -> None:
    text = (DATA / "polyomino" / "pent_6x10.txt").read_text()
    [puzzle] = polyomino.parse(text, reflect=True)
    xc = polyomino.declare(puzzle)
    print(f"pentomino 6x10 with reflections: {xc_size(xc)}\n")
    rows = []
    t, (m, _) = best(lambda: exact_cover_to_model(xc), repeat)
    rows.append(["exact_cover_to_model", f"{t:.4f}", model_size(m)])
    csp.solve(xc, "dlx")  # warm-up: load the compiled kernel
    t, r = best(lambda: csp.solve(xc, "dlx"), repeat)
    rows.append(["dlx: first solution (native form)", f"{t:.4f}", ""])
    t, r = best(lambda: csp.solve(xc, "cpsat"), repeat)
    rows.append(["cpsat: first solution (ExactCover taken directly)", f"{t:.4f}", ""])
    if not skip_count:
        t, r = best(lambda: csp.count(xc, "dlx"), 1)
        rows.append(["dlx: count (native form)", f"{t:.4f}", f"{r.count} solutions, {r.status}"])
    print(table(COLUMNS, rows) + "\n")


def sudoku16(repeat: int) -> None:
    data = json.loads((DATA / "sudoku" / "sudoku_large.json").read_text())
    entry = next(p for p in data["puzzles"] if p["size"] == 16)
    [puzzle] = sudoku.parse(entry["puzzle"], symbols=entry["symbols"])
    m = sudoku.declare(puzzle, form="model")
    print(f"sudoku 16x16 ({entry['name']}): {model_size(m)}\n")
    rows = []
    t, (xc, decode) = best(lambda: model_to_exact_cover(m), repeat)
    rows.append(["model_to_exact_cover", f"{t:.4f}", xc_size(xc)])
    csp.solve(m, "bitmask")  # warm-up
    t, r = best(lambda: csp.count(m, "bitmask"), repeat)
    rows.append(["bitmask: count (native form)", f"{t:.4f}", f"{r.count} solution(s)"])
    t, r = best(lambda: csp.count(m, "cpsat"), repeat)
    rows.append(["cpsat: count (native form)", f"{t:.4f}", f"{r.count} solution(s)"])
    csp.count(xc, "dlx")
    t, r = best(lambda: csp.count(xc, "dlx"), repeat)
    rows.append(["dlx: count of the lowered exact cover", f"{t:.4f}", f"{r.count} solution(s)"])
    t, _ = best(lambda: csp.count(m, "dlx"), repeat)
    rows.append(["dlx: count, lowering included (csp.count)", f"{t:.4f}", ""])
    print(table(COLUMNS, rows) + "\n")


def main() -> None:
    parser = arguments(__doc__, repeat=3)
    parser.add_argument("--skip-count", action="store_true",
                        help="skip the full count of the 6x10 pentomino (a few seconds)")
    args = parser.parse_args()
    print(header(f"wall seconds, best of {args.repeat}") + "\n")
    pentomino(args.repeat, args.skip_count)
    sudoku16(args.repeat)


if __name__ == "__main__":
    main()
