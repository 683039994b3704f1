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

import argparse
import os
import statistics
import threading
import time

from bench_hard import large, nine  # this script's folder: python bench/bench_race.py

import csp
from csp.backends import race
from csp.problems import sudoku

WAYS = ("home+fork", "fork", "forkserver")


def run(way: str, backend: str, puzzle: sudoku.Sudoku) -> dict:
    """One uniqueness proof of `puzzle`, the race started `way`."""
    model = sudoku.declare(puzzle, form="model")
    sliced = race.SLICED
    stop = threading.Event()
    if way in ("fork", "forkserver"):
        race.SLICED = "no member at home"  # no backend declares it
    if way == "forkserver":
        # Another thread running: forking is not safe, the fork server is used.
        threading.Thread(target=stop.wait, daemon=True).start()
    try:
        started = time.perf_counter()
        search = csp.solutions(model, backend, limit=2)
        found = list(search)
        seconds = time.perf_counter() - started
    finally:
        race.SLICED = sliced
        stop.set()
    assert search.status is csp.Status.COMPLETE and len(found) == 1
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


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n9", type=int, default=20, help="9x9 puzzles of top95; default 20")
    parser.add_argument("--large", nargs="*", default=["evil1"],
                        help="36x36 puzzles of sudoku_large.json by name; default evil1")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    puzzles = [(label, p) for label, p, _ in nine("norvig_top95.txt", args.n9)]
    puzzles += [(f"36x36 {label}", p) for label, p, _ in large(36) if label in args.large]
    for way in WAYS:  # warm up: kernels, the fork server
        run(way, "race", puzzles[0][1])
    print(f"# {os.cpu_count()} cpus; load average at the start "
          f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())}; median of {args.repeat}; ms")
    print("| puzzles | way | race | start | began | search | stop | rest | bitmask | cpsat |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    groups = [("9x9 top95", [p for label, p in puzzles if label.startswith("norvig")])]
    groups += [(label, [p]) for label, p in puzzles if label.startswith("36x36")]
    for label, group in groups:
        singles = {name: sum(statistics.median(run("-", name, p)["total"]
                                               for _ in range(args.repeat)) for p in group)
                   for name in ("bitmask", "cpsat")}
        for way in WAYS:
            rows = [[run(way, "race", p) for _ in range(args.repeat)] for p in group]
            cells = [sum(median(r, key) for r in rows)
                     for key in ("total", "start", "began", "search", "stop", "rest")]
            each = f" (each of {len(group)})" if len(group) > 1 else ""
            print(f"| {label}{each} | {way} | "
                  + " | ".join(f"{1000 * c / len(group):.1f}" for c in cells)
                  + f" | {1000 * singles['bitmask'] / len(group):.1f}"
                  + f" | {1000 * singles['cpsat'] / len(group):.1f} |", flush=True)
    print(f"# load average at the end {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
