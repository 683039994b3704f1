"""The field's CDCL SAT solvers on the balanced quasigroups of bench/qwh.py,
counted: a diagnosis for `bitmask` learning (issue 28), not a backend.

Each instance is written in the direct encoding, as CP-SAT's presolve
expands a permutation all-different (bench/RESULTS.md, stop 61): a Boolean
per open cell and value left to it, exactly one of them per cell, and
exactly one place per value in each row and column (at-most-ones pairwise),
the givens folded in. A PySAT solver counts the completions, one blocking
clause per solution. So the conflicts and time of `bitmask` and CP-SAT can be
set beside those of a plain SAT solver on the same instance.

    python bench/bench_qwh_sat.py --qwh-count 30:315:40,57,58 --solver g4 \\
        --solver cd15 --limit 30

Each count runs in a child process, stopped at `--limit` wall seconds
(PySAT's CaDiCaL takes no budget); the time printed is the child's CPU
seconds of the search, without building the clauses. Solver names are
PySAT's (`g4` Glucose 4.1, `cd15` CaDiCaL 1.5.3, `m22` MiniSat 2.2).

>>> grid = [[0, -1], [-1, -1]]
>>> count(grid, "g4")[1]
1
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qwh  # noqa: E402  (bench/qwh.py, beside this script)
from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

from csp.bench import measure  # noqa: E402


def direct(grid: list[list[int]]) -> tuple[list[list[int]], int]:
    """The clauses of `grid` (-1: a hole) in the direct encoding, and the
    number of its cell-value variables (numbered from 1; auxiliaries none)."""
    n = len(grid)
    rows = [{v for v in grid[r] if v >= 0} for r in range(n)]
    cols = [{grid[r][c] for r in range(n) if grid[r][c] >= 0} for c in range(n)]
    atom: dict[tuple[int, int, int], int] = {}
    for r in range(n):
        for c in range(n):
            if grid[r][c] < 0:
                for k in range(n):
                    if k not in rows[r] and k not in cols[c]:
                        atom[r, c, k] = len(atom) + 1
    clauses: list[list[int]] = []

    def exactly_one(literals: list[int]) -> None:
        clauses.append(literals)  # (empty: no way left, unsatisfiable)
        clauses.extend(CardEnc.atmost(literals, 1, encoding=EncType.pairwise).clauses)

    for r in range(n):
        for c in range(n):
            if grid[r][c] < 0:
                exactly_one([atom[r, c, k] for k in range(n) if (r, c, k) in atom])
    for i in range(n):
        for k in range(n):
            if k not in rows[i]:
                exactly_one([atom[i, c, k] for c in range(n) if (i, c, k) in atom])
            if k not in cols[i]:
                exactly_one([atom[r, i, k] for r in range(n) if (r, i, k) in atom])
    return clauses, len(atom)


def count(grid: list[list[int]], solver: str) -> tuple[float, int, dict[str, int]]:
    """(CPU s of the search, completions of `grid`, the solver's statistics)."""
    clauses, atoms = direct(grid)
    start = time.process_time()
    found = 0
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        while sat.solve():
            found += 1
            model = sat.get_model()
            sat.add_clause([-lit for lit in model[:atoms] if lit > 0])
        stats = sat.accum_stats()
    return time.process_time() - start, found, stats


def _child(grid: list[list[int]], solver: str, out: multiprocessing.Queue) -> None:
    out.put(count(grid, solver))


def limited(grid: list[list[int]], solver: str,
            limit: float) -> tuple[float, int, dict[str, int]] | None:
    """`count` in a child process, None if it is not done in `limit` wall seconds."""
    out: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_child, args=(grid, solver, out), daemon=True)
    child.start()
    try:
        return out.get(timeout=limit)
    except queue.Empty:  # (the limit)
        return None
    finally:
        child.kill()
        child.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qwh-count", action="append", required=True, metavar="N:HOLES:SEEDS",
                        help="balanced quasigroups of bench/qwh.py, counted (repeatable)")
    parser.add_argument("--solver", action="append", default=[], metavar="NAME",
                        help="a PySAT solver name (repeatable; default g4 and cd15)")
    parser.add_argument("--limit", type=float, default=30.0, help="wall seconds a count")
    args = parser.parse_args()
    solvers = args.solver or ["g4", "cd15"]
    print(measure.header(f"bench_qwh_sat: {', '.join(solvers)}, {args.limit:g} s limit; "
                         "CPU s of the search, conflicts"))
    done: dict[str, list[float]] = {name: [] for name in solvers}
    for spec in args.qwh_count:
        n, holes, seeds = qwh.spec(spec)
        for seed in seeds:
            made = qwh.instance(n, holes, seed)
            row = [made["name"]]
            for name in solvers:
                got = limited(made["grid"], name, args.limit)
                if got is None:
                    row.append(f"{name} timeout")
                    done[name].append(2 * args.limit)
                    continue
                seconds, found, stats = got
                done[name].append(seconds)
                row.append(f"{name} {seconds:.2f} s {found} ({stats.get('conflicts', 0):,} "
                           f"conflicts)")
            print(" | ".join(row), flush=True)
    for name, times in done.items():
        print(f"{name}: PAR2 {sum(times):.1f} s over {len(times)}, "
              f"{sum(t >= 2 * args.limit for t in times)} timeouts")


if __name__ == "__main__":
    main()
