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

import heapq
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csp import dispatch, parallel  # noqa: E402
from csp.bench import instances  # noqa: E402
from csp.bench.measure import header, rounds, timed  # noqa: E402
from csp.bench.script import Report, arguments, invocation  # noqa: E402
from csp.parallel.split import splitter_for  # noqa: E402

INSTANCES = {
    "queens-15": lambda: instances.queens(15),
    "queens-13": lambda: instances.queens(13),
    "pentominoes-6x10": lambda: instances.pentominoes("6x10"),
}


def speed_up(problem, expected: int, repeat: int) -> tuple[float, float]:
    parallel.count(problem, workers=1, time_limit=1.0)  # warm-up: numba's cache loaded
    seen = rounds({workers: (lambda w=workers: parallel.count(problem, workers=w))
                   for workers in (1, 2)}, repeat, "wall")
    for workers, runs in seen.items():
        for _, result in runs:
            if result.count != expected:
                raise SystemExit(f"WRONG: {result.count} != {expected} on {workers} workers")
    one, two = (statistics.median(t for t, _ in seen[w]) for w in (1, 2))
    return one, two


def simulate(problem, workers_list: list[int]) -> tuple[int, float, dict[int, float]]:
    splitter = splitter_for(dispatch.prepare(problem))
    keys = splitter.first(8 * max(workers_list))
    costs = []
    for key in keys:
        costs.append(timed(lambda k=key: splitter.count(k, None), "wall")[0])
    total = sum(costs)
    found = {}
    for workers in workers_list:
        free = [0.0] * workers  # when each worker is next idle
        for cost in costs:
            heapq.heapreplace(free, free[0] + cost)
        found[workers] = total / max(free)
    return len(keys), total, found


def main() -> None:
    parser = arguments(__doc__, repeat=3, out="file")
    parser.add_argument("--only", nargs="+", choices=list(INSTANCES),
                        default=["queens-15", "pentominoes-6x10"])
    args = parser.parse_args()
    report = Report()
    report(header(), f"command: {invocation(__file__)}", "")
    report.table(["instance", "1 worker (s)", "2 workers (s)", "speed-up", "pieces", "work (s)",
                  "simulated 8", "64", "512"])
    for name in args.only:
        instance = INSTANCES[name]()
        [problem] = instance.build("exact-cover")
        [expected] = instance.expected
        one, two = speed_up(problem, expected, args.repeat)
        pieces, total, simulated = simulate(problem, [8, 64, 512])
        report.row([name, f"{one:.2f}", f"{two:.2f}", f"{one / two:.2f}x", pieces, f"{total:.2f}",
                    f"{simulated[8]:.1f}x", f"{simulated[64]:.1f}x", f"{simulated[512]:.1f}x"])
    report.write(args.out)


if __name__ == "__main__":
    main()
