"""Benchmark: the `bitmask` backend against CP-SAT, python-constraint2 and `dlx`.

On the hard 9x9 sudokus (top95, top1465, the 17-clue sample), the 16x16 ones
of sudoku_large.json and the kakuro collection, it measures puzzles per second
to the first solution and to a proof of uniqueness (search to the end with a
limit of 2), with the nodes per puzzle where the backend counts them. Every
backend runs on the same `Model` (`dlx` on the exact-cover form of sudoku, as
declared by `csp.problems.sudoku`), and each run is timed from the declared
problem, so the backend's own compilation is included. Answers are checked.

    python bench/bench_bitmask.py                  # default sample sizes
    python bench/bench_bitmask.py --n 0            # every puzzle of every set
    python bench/bench_bitmask.py --backends bitmask,dlx --slow-limit 5

The techniques of `bitmask` can be switched one at a time (`VARIANTS`), and
the hard sudokus (25x25, 36x36) timed one by one against CP-SAT:

    python bench/bench_bitmask.py --sets 25x25 36x36 --backends bitmask,bitmask-no-restarts,cpsat
    python bench/bench_bitmask.py --sets 25x25 36x36 --backends bitmask,bitmask-no-defer,
        bitmask-no-restarts,cpsat --hard-limit 120
    python bench/bench_bitmask.py --sets 25x25 36x36 --backends bitmask,bitmask-no-counts,cpsat
        --hard-limit 120
    python bench/bench_bitmask.py --backends bitmask,bitmask-no-counts,cpsat
    python bench/bench_bitmask.py --sets 25x25 36x36 --backends bitmask,bitmask-no-counts,
        bitmask-last,cpsat --hard-limit 120
    python bench/bench_bitmask.py --backends bitmask,bitmask-no-restarts,bitmask-no-matching,
        bitmask-no-locked,bitmask-no-probe,bitmask-wdeg-off,bitmask-no-places,cpsat,dlx
    python bench/bench_bitmask.py --sets 25x25 36x36 --puzzles puzzel1 --backends bitmask,
        bitmask-no-restarts,bitmask-no-matching,bitmask-no-locked,bitmask-wdeg-off,cpsat

(a command on two lines is one line, the names of `--backends` one word).
Times are CPU seconds of this process (CP-SAT's one worker is a thread of
it): on a shared machine they move far less than wall time.
"""

from __future__ import annotations

import json

import csp
from csp.backends.bitmask import BitmaskBackend
from csp.bench.instances import data_dir
from csp.bench.measure import header, timed, used
from csp.bench.script import arguments
from csp.problems import kakuro, sudoku

DATA = data_dir()
BACKENDS = ("bitmask", "dlx", "cpsat", "python-constraint")
SLOW = {"python-constraint"}  # gets a per-puzzle time limit and a smaller sample
VARIANTS: dict[str, dict] = {
    "bitmask-no-matching": {"matching": False},
    "bitmask-no-locked": {"locked": False},
    "bitmask-no-probe": {"probe": False},
    "bitmask-wdeg-off": {"wdeg": "off"},
    "bitmask-wdeg-ratio": {"wdeg": "ratio"},
    "bitmask-no-places": {"places": False},
    "bitmask-no-restarts": {"restarts": 0},
    "bitmask-no-defer": {"defer": False},
    "bitmask-no-counts": {"counts": False},
    "bitmask-last": {"last": True},
}
"""`bitmask` with one technique switched from its default (see BitmaskBackend)."""
SETS = ("top95", "top1465", "17-clue", "16x16", "kakuro", "25x25", "36x36")
HARD = {"25x25", "36x36"}  # timed puzzle by puzzle, with --hard-limit


def backend_of(name: str):
    """A backend name, or a `bitmask` variant's instance."""
    return BitmaskBackend(**VARIANTS[name]) if name in VARIANTS else name


def sudoku9(name: str, n: int) -> list[tuple[sudoku.Sudoku, str]]:
    rows = [line.split() for line in (DATA / "sudoku" / name).read_text().splitlines()
            if line.strip()]
    rows = rows if n <= 0 else rows[:n]
    return [(sudoku.parse(p)[0], s) for p, s in rows]


def sudoku_large(size: int) -> list[tuple[sudoku.Sudoku, str, str]]:
    """The unique sudokus of sudoku_large.json of one size: (puzzle, answer, name)."""
    entries = json.loads((DATA / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    return [(sudoku.parse(e["puzzle"], symbols=e["symbols"])[0], e["solution"], e["name"])
            for e in entries if e["size"] == size and e.get("solution_count") == 1]


def kakuros() -> list[tuple[kakuro.Kakuro, int]]:
    entries = json.loads((DATA / "kakuro" / "kakuro.json").read_text())["puzzles"]
    return [(kakuro.parse("\n".join(e["grid"]))[0], e["solution_count"]) for e in entries]


def collections(n: int, sets: tuple[str, ...] = SETS) -> dict[str, list]:
    """name -> [(Model, ExactCover or None, checker of a solution, solution count)];
    a hard set (25x25, 36x36) -> [(name, case)], one per puzzle."""
    out: dict[str, list] = {}
    for label, file in (("top95", "norvig_top95.txt"), ("top1465", "magictour_top1465.txt"),
                        ("17-clue", "royle_17clue_sample1000.txt")):
        if label in sets:
            out[label] = [_sudoku_case(p, s) for p, s in sudoku9(file, n)]
    if "16x16" in sets:
        out["16x16"] = [_sudoku_case(p, s) for p, s, _ in sudoku_large(16)]
    if "kakuro" in sets:
        out["kakuro"] = [_kakuro_case(p, count) for p, count in kakuros()]
    for label, size in (("25x25", 25), ("36x36", 36)):
        if label in sets:
            out[label] = [(name.split("-")[-1], _sudoku_case(p, s))
                          for p, s, name in sudoku_large(size)]
    return out


def _kakuro_case(puzzle: kakuro.Kakuro, count: int):
    model = kakuro.declare(puzzle)
    return model, None, lambda solution, problem=None: model.is_solution(solution), count


def _sudoku_case(puzzle: sudoku.Sudoku, answer: str):
    model = sudoku.declare(puzzle, form="model")
    cover = sudoku.declare(puzzle, form="exact-cover")

    def check(solution, problem=None) -> bool:
        return sudoku.format(puzzle, sudoku.decode(puzzle, solution, problem)) == answer

    return model, cover, check, 1


def run(name: str, cases, slow_limit: float | None) -> dict[str, float | int | None]:
    first_time = unique_time = 0.0
    finished = solved = 0
    nodes: list[int] = []
    limit = slow_limit if name in SLOW else None
    backend = backend_of(name)
    for model, cover, check, count in cases:
        problem = cover if backend == "dlx" and cover is not None else model
        seconds, result = timed(lambda p=problem: csp.solve(p, backend, time_limit=limit))
        first_time += seconds
        if result.solution is None:
            continue
        assert check(result.solution, problem if problem is cover else None), backend
        solved += 1
        seconds, (search, found) = timed(lambda p=problem: _proof(p, backend, limit))
        unique_time += seconds
        if search.status is csp.Status.COMPLETE:
            assert len(found) == min(count, 2), \
                f"{backend}: {len(found)} solutions, expected {count}"
            finished += 1
            if search.stats.nodes is not None:
                nodes.append(search.stats.nodes)
    return {
        "puzzles": len(cases),
        "solved": solved,
        "first_per_s": solved / first_time if first_time else None,
        "proved": finished,
        "unique_per_s": finished / unique_time if unique_time else None,
        "nodes": sum(nodes) / len(nodes) if nodes else None,
    }


def _proof(problem, backend: str, limit: float | None) -> tuple[csp.Search, list]:
    """The search to the end with a limit of 2 (uniqueness), and its solutions."""
    search = csp.solutions(problem, backend, limit=2, time_limit=limit)
    return search, list(search)


def run_hard(name: str, case, limit: float) -> tuple[str, float, float, int | None]:
    """Prove one puzzle unique (search to the end with a limit of 2), within
    `limit` seconds: (status, CPU seconds, wall seconds, nodes). The CPU time
    of this process (CP-SAT runs one worker, in a thread of it) is what a
    shared machine disturbs least."""
    model, _, check, _ = case
    spent, (search, found) = used(lambda: _proof(model, backend_of(name), limit))
    cpu, seconds = spent["user"] + spent["sys"], spent["wall"]
    if search.status is not csp.Status.COMPLETE:
        return search.status.value.lower(), cpu, seconds, search.stats.nodes
    assert len(found) == 1 and check(found[0]), f"{name}: wrong answer"
    return "proved", cpu, seconds, search.stats.nodes


def _fmt(x) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def main() -> None:
    parser = arguments(__doc__, repeat=None, backends=BACKENDS)
    parser.epilog = f"--backends also takes bitmask variants: {', '.join(VARIANTS)}"
    parser.add_argument("--n", type=int, default=200,
                        help="puzzles per 9x9 set (0 = all); default 200")
    parser.add_argument("--slow-n", type=int, default=10,
                        help="puzzles per set for python-constraint; default 10")
    parser.add_argument("--slow-limit", type=float, default=10.0,
                        help="seconds per puzzle for python-constraint; default 10")
    parser.add_argument("--sets", nargs="+", default=[s for s in SETS if s not in HARD],
                        choices=SETS, help="default: all but 25x25 and 36x36")
    parser.add_argument("--puzzles", nargs="+", default=None,
                        help="only the 25x25/36x36 puzzles whose name ends so (e.g. puzzel1)")
    parser.add_argument("--hard-limit", type=float, default=120.0,
                        help="seconds per 25x25 or 36x36 puzzle; default 120")
    args = parser.parse_args()
    backends = [b for b in args.backends if b in csp.backends.available() or b in VARIANTS]

    # Warm up numba (loading the on-disk cache) outside the timings.
    warm = collections(1)
    for b in backends:
        if b not in SLOW:
            run(b, warm["top95"][:1], args.slow_limit)

    print("# " + header("CPU seconds of this process"))
    sets = collections(args.n, tuple(args.sets))
    hard = [name for name in sets if name in HARD]
    if hard:
        print("CPU seconds (wall seconds), nodes, to prove each puzzle unique")
        print("| puzzle | " + " | ".join(backends) + " |")
        print("|---|" + "---|" * len(backends))
    for name in hard:
        for label, case in sets[name]:
            if args.puzzles and label not in args.puzzles:
                continue
            cells = []
            for b in backends:
                status, cpu, seconds, nodes = run_hard(b, case, args.hard_limit)
                cells.append(f"{cpu:.2f} s ({seconds:.1f}), {_fmt(nodes)} nodes"
                             + ("" if status == "proved" else f" ({status})"))
            print(f"| {name} {label} | " + " | ".join(cells) + " |", flush=True)
    easy = {name: cases for name, cases in sets.items() if name not in HARD}
    if easy:
        print("| collection | backend | solved | first sol./CPU s | proved unique "
              "| uniqueness/CPU s | nodes/puzzle |")
        print("|---|---|---|---|---|---|---|")
    for name, cases in easy.items():
        for b in backends:
            sample = cases[: args.slow_n] if b in SLOW else cases
            r = run(b, sample, args.slow_limit)
            print(f"| {name} | {b} | {r['solved']}/{r['puzzles']} | {_fmt(r['first_per_s'])} "
                  f"| {r['proved']}/{r['puzzles']} | {_fmt(r['unique_per_s'])} "
                  f"| {_fmt(r['nodes'])} |", flush=True)


if __name__ == "__main__":
    main()
