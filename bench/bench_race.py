"""Benchmark: what `race` costs besides the search, phase by phase.

Three ways to start the members, on the same puzzles in one run:

- `home+fork` (what a race does): the first SLICED member (`bitmask` here)
  runs in this process, alone for `HEAD_START` seconds; the others are forked;
- `fork`: every member in a forked process of its own (no member at home);
- `forkserver`: every member from the fork server (what a race falls back to
  when this process runs another thread; before, every race did so): each
  member's problem is pickled and sent, and the member imports the main
  script again.

For each puzzle and way, the median of `--repeat` runs of a uniqueness proof
(`solutions(limit=2)`), and its phases, in milliseconds: `start` (this
process starting the members' processes: forking, pickling, sending),
`began` (when the winner began to search, from the race's start), `search`
(the winner's own search time), `stop` (killing and reaping the losers), and
`rest` (the remainder: waiting for and reading the answer, decoding it).
The single backends' times are measured in the same run.

    python bench/bench_race.py                 # 20 puzzles of top95, the 36x36 evil1
    python bench/bench_race.py --n9 95 --repeat 5
"""

from __future__ import annotations

import os
import statistics
import threading

from bench_hard import large, nine  # this script's folder: python bench/bench_race.py

import csp
from csp.backends import race
from csp.bench.measure import header, median, runs, timed
from csp.bench.script import arguments
from csp.problems import sudoku

WAYS = ("home+fork", "fork", "forkserver")


def proof(model: csp.Model, backend: str) -> csp.Search:
    """A uniqueness proof: the search, drained."""
    search = csp.solutions(model, backend, limit=2)
    found = list(search)
    assert search.status is csp.Status.COMPLETE and len(found) == 1
    return search


def run(way: str, model: csp.Model) -> dict:
    """One uniqueness proof by the race, started `way`: its seconds and phases."""
    sliced = race.SLICED
    stop = threading.Event()
    if way in ("fork", "forkserver"):
        race.SLICED = "no member at home"  # no backend declares it
    if way == "forkserver":
        # Another thread running: forking is not safe, the fork server is used.
        threading.Thread(target=stop.wait, daemon=True).start()
    try:
        seconds, search = timed(lambda: proof(model, "race"), "wall")
    finally:
        race.SLICED = sliced
        stop.set()
    extra = search.stats.extra
    out = {"total": seconds}
    if "race_costs" in extra:
        winner = extra["race"][extra["winner"]]
        costs = extra["race_costs"]
        out.update(start=costs["start"], began=winner["began"] or 0.0,
                   search=winner["time"] or 0.0, stop=costs["stop"],
                   method=costs["started_with"] or "none", winner=extra["winner"])
        out["rest"] = seconds - out["began"] - out["search"] - out["stop"]
    return out


def main() -> None:
    parser = arguments(__doc__, repeat=3)
    parser.add_argument("--n9", type=int, default=20, help="9x9 puzzles of top95; default 20")
    parser.add_argument("--large", nargs="*", default=["evil1"],
                        help="36x36 puzzles of sudoku_large.json by name; default evil1")
    args = parser.parse_args()
    puzzles = [(label, sudoku.declare(p, form="model"))
               for label, p, _ in nine("norvig_top95.txt", args.n9)]
    puzzles += [(f"36x36 {label}", sudoku.declare(p, form="model"))
                for label, p, _ in large(36) if label in args.large]
    for way in WAYS:  # warm up: kernels, the fork server
        run(way, puzzles[0][1])
    print(f"# {header(f'median of {args.repeat}; ms')}")
    print("| puzzles | way | race | start | began | search | stop | rest | bitmask | cpsat |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    groups = [("9x9 top95", [m for label, m in puzzles if label.startswith("norvig")])]
    groups += [(label, [m]) for label, m in puzzles if label.startswith("36x36")]
    for label, group in groups:
        singles = {name: sum(median(lambda m=m, n=name: proof(m, n), args.repeat, "wall")[0]
                             for m in group) for name in ("bitmask", "cpsat")}
        for way in WAYS:
            rows = [[r for _, r in runs(lambda m=m, w=way: run(w, m), args.repeat)]
                    for m in group]
            cells = [sum(statistics.median(r[key] for r in row) for row in rows)
                     for key in ("total", "start", "began", "search", "stop", "rest")]
            each = f" (each of {len(group)})" if len(group) > 1 else ""
            print(f"| {label}{each} | {way} | "
                  + " | ".join(f"{1000 * c / len(group):.1f}" for c in cells)
                  + f" | {1000 * singles['bitmask'] / len(group):.1f}"
                  + f" | {1000 * singles['cpsat'] / len(group):.1f} |", flush=True)
    print(f"# load average at the end {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
