"""Benchmark: why a `race` member costs more CPU than the same backend alone.

CP-SAT proving a 36x36 sudoku unique, measured from inside the process
that runs it (`resource.getrusage`: user and system CPU seconds, minor page
faults, involuntary context switches), in several settings on the same
puzzle, interleaved, in one run:

- `alone`: in this process, nothing else of ours running;
- `forked`: in a process forked from this one (which has numba, OR-Tools and
  the bitmask kernel loaded), this one waiting idle: copy-on-write faults
  and anything else fork brings, without a neighbour;
- `race:cpsat`: the race with CP-SAT as its only member (forked);
- `race`: the race `race:bitmask+cpsat` (bitmask at home, CP-SAT forked);
- `race at once`: the same, CP-SAT started at once (no `HEAD_START`);
- `beside NEIGHBOUR`: alone in this process, while a separate process (not
  forked from this one: started fresh, warmed up first) runs NEIGHBOUR
  without pause: `loop` (a pure-Python loop: ALU, a few KiB of memory),
  `bitmask` or `cpsat` (proving the same puzzle over and over).

    python bench/bench_race_cpu.py                      # evil1 and minimal2, 3 runs
    python bench/bench_race_cpu.py --puzzles evil1 --repeat 5 --ways alone "beside loop"
    python bench/bench_race_cpu.py --quiet 0.1      # each run again while others were busy

`others`: the other processes' CPU use during the run, in cores
(`csp.bench.quiet`): on a shared machine, what separates a quiet run from a
loaded one. The figures are this process's own accounting
(`csp.bench.measure.usage`), or the member's for a race.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import subprocess
import sys
from typing import Any

from bench_hard import large  # this script's folder: python bench/bench_race_cpu.py

import csp
from csp.backends import race
from csp.bench.measure import header, timed, usage, used
from csp.bench.quiet import quietly
from csp.bench.script import arguments
from csp.problems import sudoku

WAYS = ("alone", "forked", "race:cpsat", "race", "race at once", "beside loop",
        "beside bitmask", "beside cpsat")

NEIGHBOUR = """
import sys, time
sys.path.insert(0, {bench!r})
what, name = sys.argv[1], sys.argv[2]
if what == "loop":
    print("ready", flush=True)
    while True:
        total = 0
        for i in range(1_000_000):
            total += i * i
import csp
from bench_hard import large
from csp.problems import sudoku
model = sudoku.declare(dict((label, p) for label, p, _ in large(36))[name], form="model")
first = True
while True:
    list(csp.solutions(model, what, limit=2))
    if first:
        print("ready", flush=True)
        first = False
"""


def prove(model: Any, backend: str) -> csp.Search:
    search = csp.solutions(model, backend, limit=2, time_limit=120)
    found = list(search)
    assert search.status is csp.Status.COMPLETE and len(found) == 1, backend
    return search


def in_child(model: Any, conn: Any) -> None:
    conn.send(used(lambda: prove(model, "cpsat"))[0])
    conn.close()


def forked(model: Any) -> dict[str, float]:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=in_child, args=(model, send))

    def start_and_receive() -> dict[str, float]:
        process.start()
        send.close()
        return receive.recv()

    wall, out = timed(start_and_receive, "wall")
    out["wall"] = wall
    process.join()
    return out


def raced(model: Any, backend: str) -> dict[str, float]:
    """The race, with the CP-SAT member's own figures (its process's usage,
    sent in its last message: `race._spent` wrapped here, inherited by fork)."""
    wall, search = timed(lambda: prove(model, backend), "wall")
    member = search.stats.extra["race"]["cpsat"]
    out = {"wall": wall, "winner": search.stats.extra["winner"]}
    if "user" in member:
        out.update({k: member[k] for k in ("user", "sys", "minflt", "nivcsw")})
    return out


def beside(model: Any, neighbour: str, name: str, pin: bool) -> dict[str, float]:
    """Alone here, while a fresh process runs `neighbour` without pause (with
    `pin`, on the other CPU: this process is on CPU 0)."""
    here = os.path.dirname(os.path.abspath(__file__))
    command = [sys.executable, "-c", NEIGHBOUR.format(bench=here), neighbour.split()[-1], name]
    child = subprocess.Popen(["taskset", "-c", "1", *command] if pin else command,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        return used(lambda: prove(model, "cpsat"))[0]
    finally:
        child.kill()
        child.wait()


def run(way: str, model: Any, name: str, pin: bool) -> dict[str, float]:
    if way == "alone":
        return used(lambda: prove(model, "cpsat"))[0]
    if way == "forked":
        return forked(model)
    if way == "race:cpsat":
        return raced(model, "race:cpsat")
    if way == "race":
        return raced(model, "race:bitmask+cpsat")
    if way == "race at once":
        head_start, race.HEAD_START = race.HEAD_START, 0.0
        try:
            return raced(model, "race:bitmask+cpsat")
        finally:
            race.HEAD_START = head_start
    return beside(model, way, name, pin)


def main() -> None:
    parser = arguments(__doc__, repeat=3, quiet=True)
    parser.add_argument("--puzzles", nargs="+", default=["evil1", "minimal2"])
    parser.add_argument("--ways", nargs="+", default=list(WAYS), choices=WAYS)
    parser.add_argument("--pin", action="store_true",
                        help="this process on CPU 0, a neighbour on CPU 1 (never the same core)")
    args = parser.parse_args()
    if args.pin:
        if set(args.ways) - {"alone", "beside loop", "beside bitmask", "beside cpsat"}:
            parser.error("--pin: only alone and beside (a forked member would share CPU 0)")
        os.sched_setaffinity(0, {0})
    original = race._spent

    def spent_with_usage(stats: Any) -> dict[str, Any]:
        member = usage()
        return {**original(stats), **{k: member[k] for k in ("user", "sys", "minflt", "nivcsw")}}

    race._spent = spent_with_usage
    puzzles = {label: p for label, p, _ in large(36)}
    models = {name: sudoku.declare(puzzles[name], form="model") for name in args.puzzles}
    for backend in ("cpsat", "bitmask", "race:bitmask+cpsat"):  # kernels loaded, race WARMED
        prove(models[args.puzzles[0]], backend)
    print(f"# {header(f'median of {args.repeat}')}")
    print("| puzzle | way | wall s | user s | sys s | minor faults | invol. switches | others "
          "(cores) | quiet runs | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, model in models.items():
        runs: dict[str, list[dict[str, Any]]] = {way: [] for way in args.ways}
        load = os.getloadavg()[0]
        for _ in range(args.repeat):
            for way in args.ways:
                result, others = quietly(lambda w=way, m=model, n=name: run(w, m, n, args.pin),
                                         args.quiet, args.tries)
                result["others"] = others
                runs[way].append(result)
        for way in args.ways:
            cells = []
            for key in ("wall", "user", "sys", "minflt", "nivcsw", "others"):
                values = [r[key] for r in runs[way] if key in r]
                cells.append(f"{statistics.median(values):.3g}" if values else "-")
            winners = {r["winner"] for r in runs[way] if "winner" in r}
            label = way + (f" (won: {'/'.join(sorted(winners))})" if winners else "")
            quiet = sum(args.quiet is not None and r["others"] <= args.quiet for r in runs[way])
            print(f"| {name} | {label} | " + " | ".join(cells)
                  + f" | {quiet if args.quiet is not None else '-'} | {load:.1f} |", flush=True)
    print(f"# load average at the end {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
