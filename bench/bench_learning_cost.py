"""Benchmark: what `bitmask`'s learning costs when it is off (issue 28).

Learning waits by default for 10,000 failures without a solution (or in
all, once solutions are rare: `learn_rare`), and must cost (almost) nothing
until it starts: the rule is no instance of `csp bench --suite full` more
than 10% slower than before. (The three pentominoes learn within the
budget, and with `learn_rare` so does word-square-5x5-96words: their nodes
are not the plain search's, bench/RESULTS.md, stop 58.)
This script runs every instance of that suite on `bitmask` (`BitmaskBackend()`'s options)
in one process, each with the same node budget (so an instance `bitmask`
cannot finish in reasonable time is still compared over the same search),
and prints per instance its nodes (which must not change), CPU seconds and
microseconds per node. Run it under two checkouts, with PYTHONPATH choosing
the `csp` it measures, in turn:

    PYTHONPATH=. python bench/bench_learning_cost.py --json /tmp/a.json
    PYTHONPATH=/path/to/main python bench/bench_learning_cost.py --json /tmp/b.json
    python bench/bench_learning_cost.py --compare /tmp/a*.json --vs /tmp/b*.json

(`--compare` pairs the runs of A and B and prints each instance's median
ratio A/B of CPU seconds, and whether the nodes agree.) The first call of
each instance warms it (numba's cache is loaded once per process, and each
model is compiled to arrays); the timed calls follow, `--repeat` of them.

An instance counted up to symmetry (lattice) is counted here without it,
and an exact cover is given to `bitmask` as `csp.dispatch` lowers it: the
search is what `bitmask` runs on the model it gets, which is what is timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from csp import dispatch
from csp.backends.bitmask import BitmaskBackend, BitmaskSearch, layout
from csp.bench import measure
from csp.bench.instances import UpToSymmetry, suite


def models(name: str) -> list[tuple[str, list]]:
    """Each instance of suite `name`: its name and the models `bitmask` gets."""
    out = []
    for instance in suite(name):
        form = "model" if "model" in instance.forms else instance.forms[0]
        targets = []
        for problem in instance.problems(form):
            if isinstance(problem, UpToSymmetry):
                problem = problem.problem
            targets.append(dispatch.prepare(problem, "bitmask").target)
        out.append((instance.name, targets))
    return out


def run(targets: list, budget: int) -> tuple[int, int, bool]:
    """Count each model in turn within `budget` nodes in all: (nodes,
    solutions, finished)."""
    nodes = solutions = 0
    for model in targets:
        search = BitmaskSearch(model, BitmaskBackend().options)
        search._advance(True, budget - nodes)  # noqa: SLF001 (a node budget, no clock)
        st = search.state.st
        nodes += int(st[layout.NODES])
        solutions += int(st[layout.SOLUTIONS])
        if nodes >= budget:
            return nodes, solutions, False
    return nodes, solutions, True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="full")
    parser.add_argument("--budget", type=int, default=100_000, help="nodes per instance")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per instance")
    parser.add_argument("--only", nargs="*", default=None, help="these instances only")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--compare", nargs="*", help="A's JSON files (see the docstring)")
    parser.add_argument("--vs", nargs="*", help="B's JSON files, in the same order")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare, args.vs or [])
        return
    print(measure.header(f"bench_learning_cost --suite {args.suite} --budget {args.budget} "
                         f"--repeat {args.repeat}; csp from {sys.modules['csp'].__file__}"),
          flush=True)
    rows, figures = [], {}
    for name, targets in models(args.suite):
        if args.only and name not in args.only:
            continue
        run(targets, min(args.budget, 1000))  # warm: the kernels' cache, the arrays
        times = []
        for _ in range(args.repeat):
            seconds, (nodes, found, done) = measure.timed(lambda t=targets: run(t, args.budget))
            times.append(seconds)
        cpu = statistics.median(times)
        figures[name] = {"nodes": nodes, "solutions": found, "finished": done, "cpu": times}
        rows.append((name, nodes, found if done else f"{found} (budget)", f"{cpu:.3f}",
                     f"{1e6 * cpu / max(nodes, 1):.1f}"))
        print(measure.table(["instance", "nodes", "solutions", "CPU s", "us/node"],
                            rows[-1:]).splitlines()[-1], flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                       "instances": figures}, f, indent=1)


def compare(a_files: list[str], b_files: list[str]) -> None:
    """Each instance's ratio A/B of median CPU seconds, run by run, and their median."""
    a_runs = [json.load(open(f))["instances"] for f in a_files]
    b_runs = [json.load(open(f))["instances"] for f in b_files]
    rows, all_ratios = [], []
    for name in a_runs[0]:
        ratios = [statistics.median(a[name]["cpu"]) / statistics.median(b[name]["cpu"])
                  for a, b in zip(a_runs, b_runs)]
        same = all(a[name]["nodes"] == b[name]["nodes"] for a, b in zip(a_runs, b_runs))
        all_ratios += ratios
        rows.append((name, a_runs[0][name]["nodes"], "yes" if same else "NO",
                     f"{statistics.median(statistics.median(b[name]['cpu']) for b in b_runs):.3f}",
                     f"{statistics.median(ratios):.3f}",
                     " ".join(f"{r:.2f}" for r in ratios)))
    print(measure.table(["instance", "nodes", "same nodes", "B CPU s", "A/B median",
                         "A/B per pair"], rows))
    print(f"\nmedian of every ratio: {statistics.median(all_ratios):.3f}")


if __name__ == "__main__":
    main()
