"""Counting up to symmetry, with and without pruning: nodes and time.

    python bench/bench_symmetry.py [--skip-slow] [--depth D]

Problems: Lattice Practices (the first sample; published for it: 61,793 nodes
plain, 16,708 with canonical forms during the search, 2,381 best-first), the
6x10 pentomino box (flips allowed; 2339 classes) and 10 queens (92 classes).
"Plain" enumerates every solution and keeps the canonical ones; "pruned" cuts
branches that cannot lead to a canonical solution (dlx: partial solutions
tested at the first levels; bitmask: lex-leader table on the leading
variables). Prints a Markdown table.
"""

from __future__ import annotations

import sys

from csp import symmetry as sym
from csp.bench.instances import data_dir
from csp.bench.measure import header, table, timed
from csp.bench.script import arguments
from csp.problems import lattice, polyomino, queens

DATA = data_dir()


def cases(skip_slow: bool):
    puzzle = lattice.parse(lattice.SAMPLE)[0]
    for form, backend in (("exact-cover", "dlx"), ("model", "bitmask")):
        problem = lattice.declare(puzzle, form)
        yield f"lattice sample 1 ({form})", problem, lattice.symmetry(puzzle, problem), backend
    board = queens.Queens(10)
    problem = queens.declare(board)
    yield "10 queens", problem, queens.symmetry(board, problem), "dlx"
    path = DATA / "polyomino" / "pent_6x10.txt"
    if not skip_slow and path.exists():
        [box] = polyomino.parse(path.read_text(), reflect=True)
        problem = polyomino.declare(box)
        yield "pentominoes 6x10", problem, polyomino.symmetry(box, problem), "dlx"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=None)
    parser.add_argument("--skip-slow", action="store_true", help="leave out 6x10 pentominoes")
    parser.add_argument("--depth", type=int, default=None, help="dlx levels checked")
    args = parser.parse_args(argv)
    # Warm the compiled kernels so that timings leave out loading them.
    for _, problem, group, backend in cases(skip_slow=True):
        sym.count(problem, group, backend, prune=False)
    print(header("wall seconds, one run each") + "\n")
    rows = []
    for name, problem, group, backend in cases(args.skip_slow):
        def counted(prune: bool, problem=problem, group=group, backend=backend):
            return sym.count(problem, group, backend, prune=prune, depth=args.depth)

        (t_plain, plain), (t_pruned, pruned) = (timed(lambda p=prune: counted(p), "wall")
                                                for prune in (False, True))
        assert plain.count == pruned.count, name
        rows.append([name, backend, pruned.count, f"{plain.stats.extra['raw_solutions']} -> "
                     f"{pruned.stats.extra['raw_solutions']}", f"{plain.stats.nodes:,}",
                     f"{pruned.stats.nodes:,}", f"{t_plain:.2f}s", f"{t_pruned:.2f}s"])
    print(table(["problem", "backend", "classes", "raw solutions seen", "nodes plain",
                 "nodes pruned", "time plain", "time pruned"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
