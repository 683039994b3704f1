"""Benchmark: `bitmask` against CP-SAT on the published puzzles of issue 22's
kinds (nonogram, skyscrapers, star battle, hitori).

The collections are those of the tests, with their published answers
(`tests/published.py`; sources in tests/data/README.md): nonogram-db's 39
nonograms (5x10 to 75x50), and janko.at's 12 skyscrapers (4x4-7x7), 28 star
battles (5x5-15x15) and 25 hitori (5x5-20x20). Each puzzle is declared once
(`csp.problems.KIND.declare`) and each backend proves its answer unique
(`csp.count(..., limit=2)`), timed from the declared model (the backend's
own compilation, and the decomposition of what it does not take natively,
included); the answer found must be the published one. Times are CPU
seconds of this process (CP-SAT runs one worker, a thread of it), taken
puzzle by puzzle, the backends in turn; a puzzle not proved within
`--time-limit` (wall seconds), or refused, is counted as not solved, and
the totals compare the puzzles both backends solved.

    python bench/bench_kinds.py                           # all four, 60 s a puzzle
    python bench/bench_kinds.py --kinds hitori,starbattle --min-side 10 --time-limit 20
    python bench/bench_kinds.py --each                    # a line per puzzle too

Exit status 1 if a backend's answer is not the published one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from published import MODULES, Published, collection  # noqa: E402

import csp  # noqa: E402
from csp.bench import measure  # noqa: E402
from csp.errors import InputError  # noqa: E402

BACKENDS = ("bitmask", "cpsat")


def prove(entry: Published, model: csp.Model, backend: str, time_limit: float
          ) -> tuple[float, str, int | None]:
    """(CPU seconds, "unique" / "timeout" / what went wrong, nodes) of one
    proof (csp's `cpsat` reports no nodes: 0)."""
    started = time.process_time()
    try:
        result = csp.count(model, backend, limit=2, time_limit=time_limit)
    except InputError as refused:  # e.g. a decomposition's domain too wide for it
        return time.process_time() - started, f"refused ({refused})", None
    seconds = time.process_time() - started
    if result.status is not csp.Status.COMPLETE:
        return seconds, "timeout", None
    if result.count != 1 or result.solution is None or not entry.check(result.solution):
        return seconds, f"WRONG: {result.count} solutions, or not the published answer", None
    return seconds, "unique", result.stats.nodes


def warm_up(backends: list[str]) -> None:
    """Each backend's first call (numba's kernels, OR-Tools' import) outside the figures."""
    [entry] = collection("starbattle")[:1]
    model = MODULES[entry.kind].declare(entry.puzzle)
    for backend in backends:
        csp.count(model, backend, limit=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default=",".join(MODULES))
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per proof")
    parser.add_argument("--min-side", type=int, default=0, help="only puzzles this wide or tall")
    parser.add_argument("--each", action="store_true", help="a line per puzzle")
    args = parser.parse_args()
    backends = args.backends.split(",")
    print(measure.header(f"limit {args.time_limit:g} s a proof; CPU seconds"))
    warm_up(backends)
    rows, wrong = [], 0
    for kind in args.kinds.split(","):
        entries = [e for e in collection(kind) if e.side >= args.min_side]
        seen: dict[str, dict[str, tuple[float, str, int | None]]] = {b: {} for b in backends}
        for entry in entries:
            model = MODULES[kind].declare(entry.puzzle)
            for backend in backends:
                seen[backend][entry.name] = outcome = prove(entry, model, backend,
                                                            args.time_limit)
                wrong += outcome[1].startswith("WRONG")
                if args.each or outcome[1] != "unique":
                    print(f"{kind} {entry.name} {entry.height}x{entry.width} {backend}: "
                          f"{outcome[1]} {outcome[0]:.3f} s nodes {outcome[2]}", flush=True)
        both = [e.name for e in entries
                if all(seen[b][e.name][1] == "unique" for b in backends)]
        sizes = sorted({e.side for e in entries})
        for backend in backends:
            solved = [name for name, o in seen[backend].items() if o[1] == "unique"]
            times = [seen[backend][name][0] for name in both]
            nodes = [n for name in both if (n := seen[backend][name][2]) is not None]
            first = [seen[backends[0]][name][0] for name in both]
            ratio = sum(times) / sum(first) if both and sum(first) else float("nan")
            rows.append([kind, f"{len(entries)} ({sizes[0]}-{sizes[-1]} wide)", backend,
                         f"{len(solved)}/{len(entries)}", f"{sum(times):.2f}",
                         f"{statistics.median(times) * 1000:.1f}" if times else "-",
                         f"{max(times):.2f}" if times else "-",
                         f"{statistics.median(nodes):g}" if nodes else "-",
                         f"{ratio:.2f}x"])
    print()
    print(measure.table(["kind", "puzzles", "backend", "proved unique",
                         "CPU s (both proved)", "median ms", "max s", "median nodes",
                         f"time / {backends[0]}'s"], rows))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
