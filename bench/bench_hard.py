"""Benchmark: proving sudokus unique with `sat` and `race` against the single backends.

For each puzzle, the time to a proof of uniqueness (search to the end with a
limit of 2, `COMPLETE` with one solution) on the declared model, timed from
the declared problem (each backend's encoding included), with a time limit
per puzzle. The 36x36 and 25x25 sudokus of sudoku_large.json, one row each;
then a 9x9 collection (top95), as a total. `race` is the default race (the
model's native `bitmask` and `cpsat`) unless named otherwise
(`race:bitmask+sat`). Answers are checked.

    python bench/bench_hard.py                              # the defaults below
    python bench/bench_hard.py --time-limit 60 --n9 20 --backends cpsat,sat,race
    python bench/bench_hard.py --sizes 36 --backends bitmask,cpsat,race --repeat 3

With a race among the backends, each row also has the race's time over each
single backend's and over the best, and what the race spent on its members
(how they were started, the milliseconds of starting and stopping them, when
those in a process of their own began); the 9x9 row says what the race adds
per puzzle and how many of its races started a process at all. On a shared
machine, `--repeat` runs every backend that many times per row, interleaved,
and shows the medians; the load average is printed per row, with `others`:
the most CPU other processes used during one of the row's shown runs, in
cores (`csp.bench.quiet`; 0.00 is a quiet machine). `--quiet 0.1` runs a large
puzzle again (up to `--tries` times, 10) while others used more than 0.1 core.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics

import csp
from csp.bench import quiet
from csp.bench.instances import data_dir
from csp.bench.measure import header, used
from csp.bench.script import arguments
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
    def search_all() -> tuple[csp.Search, list]:
        search = csp.solutions(sudoku.declare(puzzle, form="model"), backend, limit=2,
                               time_limit=limit)
        return search, list(search)

    spent, (search, found) = used(search_all)
    seconds = spent["wall"]
    for solution in found:
        assert sudoku.format(puzzle, sudoku.decode(puzzle, solution, None)) == answer, backend
    proved = search.status is csp.Status.COMPLETE
    if proved:
        assert len(found) == 1, f"{backend}: {len(found)} solutions of a unique puzzle"
    return {"seconds": seconds if proved else None, "spent": seconds,
            "nodes": search.stats.nodes, "winner": search.stats.extra.get("winner"),
            "extra": search.stats.extra, "cpu": spent["user"] + spent["sys"]}


def _cell(result: dict, limit: float) -> str:
    if result["seconds"] is None:
        return f"> {limit:g} s"
    winner = f" ({result['winner']})" if result["winner"] else ""
    return f"{result['seconds']:.2f} s{winner}"


def _median(runs: list[dict]) -> dict:
    """The run of median time among repeats (an unfinished run counts as the slowest)."""
    ordered = sorted(runs, key=lambda r: (r["seconds"] is None, r["seconds"] or r["spent"]))
    return ordered[(len(ordered) - 1) // 2]


def _costs(result: dict) -> str:
    """What the race spent on its members: when the others began, starting and stopping them."""
    extra = result.get("extra") or {}
    costs, members = extra.get("race_costs"), extra.get("race", {})
    if not costs:
        return "-"
    began = [f"{name} {1000 * m['began']:.0f} ms" for name, m in members.items()
             if m.get("process") == "its own" and m.get("began") is not None]
    if costs["started_with"] is None:
        return "no process started"
    cpu = [f"{name} {m['cpu']:.2f} s" for name, m in members.items() if m.get("cpu") is not None]
    return (f"{costs['started_with']}: start {1000 * costs['start']:.0f} ms, stop "
            f"{1000 * costs['stop']:.0f} ms; began: {', '.join(began) or '-'}"
            + (f"; cpu: {', '.join(cpu)}" if cpu else ""))


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = arguments(__doc__, repeat=1, time_limit=120.0, backends=BACKENDS, quiet=True)
    parser.add_argument("--n9", type=int, default=95, help="9x9 puzzles of top95; default all")
    parser.add_argument("--sizes", nargs="+", type=int, default=[36, 25])
    args = parser.parse_args()
    names = args.backends
    for name in names:
        csp.backends.get(name)  # unknown or unavailable: say so now

    # Warm up (numba's cache, the race's members) outside the timings.
    _, warm, answer = nine("norvig_top95.txt", 1)[0]
    for name in names:
        prove(name, warm, answer, args.time_limit)

    singles = [n for n in names if not n.startswith("race")]
    race = next((n for n in names if n.startswith("race")), None)
    print("# " + header(f"time limit {args.time_limit:g} s per puzzle; median of {args.repeat}"))
    ratios = [f"{race} / {n}" for n in singles] if race else []
    print("| puzzle | " + " | ".join(names) + " | " + " | ".join(ratios)
          + (" | race / best single | the race's costs | load |" if race else " load |"))
    print("|---|" + "---|" * (len(names) + len(ratios) + (3 if race else 1)))
    for size in args.sizes:
        for label, puzzle, answer in large(size):
            runs: dict[str, list[dict]] = {name: [] for name in names}
            load = os.getloadavg()[0]
            for _ in range(args.repeat):
                for name in names:
                    runs[name].append(quietly(name, puzzle, answer, args))
            results = {name: _median(runs[name]) for name in names}
            cells = [_cell(results[n], args.time_limit) for n in names]
            for n in singles:  # its CPU seconds, to set against a member's in the race
                cells[names.index(n)] += f", cpu {results[n]['cpu']:.2f} s"
            if race:
                cells += [_ratio(results[race], [results[n]]) for n in singles]
                cells += [_ratio(results[race], [results[n] for n in singles]),
                          _costs(results[race])]
            others = max(results[n]["others"] for n in names)
            print(f"| {size}x{size} {label} | " + " | ".join(cells)
                  + f" | {load:.1f}, others {others:.2f} |", flush=True)
    cases = nine("norvig_top95.txt", args.n9)
    if not cases:  # --n9 0: the large puzzles only
        print(f"# load average at the end {_load()}")
        return
    load = os.getloadavg()[0]
    totals: dict[str, list[float]] = {name: [] for name in names}
    proved = {name: 0 for name in names}
    started = 0  # races that started a process
    for _ in range(args.repeat):
        spent = {name: 0.0 for name in names}
        for _, puzzle, answer in cases:
            for name in names:
                result = prove(name, puzzle, answer, args.time_limit)
                spent[name] += result["spent"]
                proved[name] += result["seconds"] is not None
                costs = (result.get("extra") or {}).get("race_costs")
                started += bool(costs and costs["started_with"])
        for name in names:
            totals[name].append(spent[name])
    total = {name: statistics.median(totals[name]) for name in names}
    cells = [f"{total[n]:.2f} s ({proved[n] // args.repeat}/{len(cases)})" for n in names]
    if race:
        cells += [f"{total[race] / total[n]:.2f}x" for n in singles]
        best = min(total[n] for n in singles)
        cells += [f"{total[race] / best:.2f}x",
                  f"{1000 * (total[race] - best) / len(cases):+.1f} ms a puzzle; "
                  f"{started / args.repeat:g} of {len(cases)} started a process"]
    print(f"| 9x9 top95, {len(cases)} in all | " + " | ".join(cells) + f" | {load:.1f} |")
    print(f"# load average at the end {_load()}")


def quietly(name: str, puzzle: sudoku.Sudoku, answer: str, args: argparse.Namespace) -> dict:
    """`prove`, with the other processes' CPU use during it (`others`, in cores);
    with `--quiet`, run again while they used more."""
    result, result_others = quiet.quietly(lambda: prove(name, puzzle, answer, args.time_limit),
                                          args.quiet, args.tries)
    result["others"] = result_others
    return result


def _ratio(race: dict, singles: list[dict]) -> str:
    times = [r["seconds"] for r in singles if r["seconds"] is not None]
    if not times or race["seconds"] is None:
        return "-"
    return f"{race['seconds'] / min(times):.2f}x"


if __name__ == "__main__":
    main()
