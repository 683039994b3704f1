"""Parallel counting: the speed-up of 2 local workers over one, and a
simulation of 8, 64 and 512 workers from measured subproblem times.

    python bench/bench_parallel.py                  # queens 15 and 6x10 pentominoes
    python bench/bench_parallel.py --only queens-13 --repeat 1   # a quick look

For each instance:

1. `csp.parallel.count` with `workers=1` and `workers=2`, alternately
   `--repeat` times, in this process; the speed-up is the ratio of the median
   wall times (the same process, the same machine state, so the ratio holds
   on a noisy machine where absolute times do not).
2. The simulation: the tree is cut into `8 * 512` subproblems as
   `csp.parallel` would cut it for 512 workers, each subproblem is counted
   alone and timed, and P workers taking them in the scheduler's order are
   simulated (each idle worker takes the next). The speed-up is the sum of
   the times over the simulated makespan. It leaves out what the real
   scheduler adds (handing large pieces back as they run, which only helps)
   and the cost of moving work between machines (which only hurts).
"""

from __future__ import annotations

import argparse
import heapq
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csp import dispatch, parallel  # noqa: E402
from csp.bench import instances  # noqa: E402
from csp.bench.measure import header
from csp.parallel.split import splitter_for  # noqa: E402

INSTANCES = {
    "queens-15": lambda: instances.queens(15),
    "queens-13": lambda: instances.queens(13),
    "pentominoes-6x10": lambda: instances.pentominoes("6x10"),
}


def speed_up(problem, expected: int, repeat: int) -> tuple[float, float]:
    times: dict[int, list[float]] = {1: [], 2: []}
    parallel.count(problem, workers=1, time_limit=1.0)  # warm-up: numba's cache loaded
    for _ in range(repeat):
        for workers in (1, 2):
            started = time.perf_counter()
            result = parallel.count(problem, workers=workers)
            times[workers].append(time.perf_counter() - started)
            if result.count != expected:
                raise SystemExit(f"WRONG: {result.count} != {expected} on {workers} workers")
    return statistics.median(times[1]), statistics.median(times[2])


def simulate(problem, workers_list: list[int]) -> tuple[int, float, dict[int, float]]:
    splitter = splitter_for(dispatch.prepare(problem))
    keys = splitter.first(8 * max(workers_list))
    costs = []
    for key in keys:
        started = time.perf_counter()
        splitter.count(key, None)
        costs.append(time.perf_counter() - started)
    total = sum(costs)
    found = {}
    for workers in workers_list:
        free = [0.0] * workers  # when each worker is next idle
        for cost in costs:
            heapq.heapreplace(free, free[0] + cost)
        found[workers] = total / max(free)
    return len(keys), total, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(INSTANCES),
                        default=["queens-15", "pentominoes-6x10"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args()
    lines = [header(),
             f"command: python bench/bench_parallel.py {' '.join(sys.argv[1:])}".rstrip(), "",
             "| instance | 1 worker (s) | 2 workers (s) | speed-up | pieces | work (s) "
             "| simulated 8 | 64 | 512 |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in args.only:
        instance = INSTANCES[name]()
        [problem] = instance.build("exact-cover")
        [expected] = instance.expected
        one, two = speed_up(problem, expected, args.repeat)
        pieces, total, simulated = simulate(problem, [8, 64, 512])
        lines.append(f"| {name} | {one:.2f} | {two:.2f} | {one / two:.2f}x | {pieces} "
                     f"| {total:.2f} | {simulated[8]:.1f}x | {simulated[64]:.1f}x "
                     f"| {simulated[512]:.1f}x |")
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    print()
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
