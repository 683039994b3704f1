"""Benchmark: proving sudokus unique with `sat` and `race` against the single backends.

For each puzzle, the time to a proof of uniqueness (search to the end with a
limit of 2, `COMPLETE` with one solution) on the declared model, timed from
the declared problem (each backend's encoding included), with a time limit
per puzzle. The 36x36 and 25x25 sudokus of sudoku_large.json, one row each;
then a 9x9 collection (top95), as a total. `race` is the default race (the
model's native `bitmask` and `cpsat`) unless named otherwise
(`race:bitmask+sat`). Answers are checked.

    python bench/bench_hard.py                              # the defaults below
    python bench/bench_hard.py --time-limit 60 --n9 20 --backends cpsat sat race
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import csp
from csp.bench.instances import data_dir
from csp.problems import sudoku

DATA = data_dir()
BACKENDS = ("bitmask", "cpsat", "sat", "race")


def large(size: int) -> list[tuple[str, sudoku.Sudoku, str]]:
    entries = json.loads((DATA / "sudoku" / "sudoku_large.json").read_text())["puzzles"]
    return [(e["name"].split("-")[-1], sudoku.parse(e["puzzle"], symbols=e["symbols"])[0],
             e["solution"]) for e in entries if e["size"] == size and e.get("solution_count") == 1]


def nine(name: str, n: int) -> list[tuple[str, sudoku.Sudoku, str]]:
    rows = [line.split() for line in (DATA / "sudoku" / name).read_text().splitlines()
            if line.strip()][:n]
    return [(f"{name}:{i}", sudoku.parse(p)[0], s) for i, (p, s) in enumerate(rows)]


def prove(backend: str, puzzle: sudoku.Sudoku, answer: str, limit: float) -> dict:
    """Seconds to prove `puzzle` unique on `backend` (None: not within `limit`)."""
    started = time.perf_counter()
    model = sudoku.declare(puzzle, form="model")
    search = csp.solutions(model, backend, limit=2, time_limit=limit)
    found = list(search)
    seconds = time.perf_counter() - started
    for solution in found:
        assert sudoku.format(puzzle, sudoku.decode(puzzle, solution, None)) == answer, backend
    proved = search.status is csp.Status.COMPLETE
    if proved:
        assert len(found) == 1, f"{backend}: {len(found)} solutions of a unique puzzle"
    return {"seconds": seconds if proved else None, "spent": seconds,
            "nodes": search.stats.nodes, "winner": search.stats.extra.get("winner")}


def _cell(result: dict, limit: float) -> str:
    if result["seconds"] is None:
        return f"> {limit:g} s"
    winner = f" ({result['winner']})" if result["winner"] else ""
    return f"{result['seconds']:.2f} s{winner}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per puzzle and backend; default 120")
    parser.add_argument("--n9", type=int, default=95, help="9x9 puzzles of top95; default all")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--sizes", nargs="+", type=int, default=[36, 25])
    args = parser.parse_args()
    names = args.backends
    for name in names:
        csp.backends.get(name)  # unknown or unavailable: say so now

    # Warm up (numba's cache, the race's fork server) outside the timings.
    _, warm, answer = nine("norvig_top95.txt", 1)[0]
    for name in names:
        prove(name, warm, answer, args.time_limit)

    print(f"# machine: {platform.machine()}, {os.cpu_count()} cpus, python "
          f"{platform.python_version()}; time limit {args.time_limit:g} s per puzzle")
    print("| puzzle | " + " | ".join(names) + " | race / best single |")
    print("|---|" + "---|" * (len(names) + 1))
    for size in args.sizes:
        for label, puzzle, answer in large(size):
            results = {name: prove(name, puzzle, answer, args.time_limit) for name in names}
            print(f"| {size}x{size} {label} | "
                  + " | ".join(_cell(results[n], args.time_limit) for n in names)
                  + f" | {_ratio(results)} |", flush=True)
    cases = nine("norvig_top95.txt", args.n9)
    if not cases:  # --n9 0: the large puzzles only
        return
    totals = {name: 0.0 for name in names}
    proved = {name: 0 for name in names}
    for _, puzzle, answer in cases:
        for name in names:
            result = prove(name, puzzle, answer, args.time_limit)
            totals[name] += result["spent"]
            proved[name] += result["seconds"] is not None
    cells = [f"{totals[n]:.2f} s ({proved[n]}/{len(cases)})" for n in names]
    singles = [totals[n] for n in names if not n.startswith("race")]
    races = [totals[n] for n in names if n.startswith("race")]
    ratio = f"{races[0] / min(singles):.2f}x" if races and singles else "-"
    print(f"| 9x9 top95, {len(cases)} in all | " + " | ".join(cells) + f" | {ratio} |")


def _ratio(results: dict) -> str:
    singles = [r["seconds"] for n, r in results.items() if not n.startswith("race")
               and r["seconds"] is not None]
    races = [r["seconds"] for n, r in results.items() if n.startswith("race")]
    if not singles or not races or races[0] is None:
        return "-"
    return f"{races[0] / min(singles):.2f}x"


if __name__ == "__main__":
    main()
