#!/usr/bin/env python
"""csp's `dlx` against the PyPI exact-cover packages, on one machine, in one run.

    python bench/bench_dlx.py [--repeat N] [--time-limit S] [--out DIR] [--no-jit] [--small]

Instances (counting every solution; each count checked against its known
answer, see `csp.bench.instances`): N queens 12, 13, 14; pentominoes 6x10 with
reflections (9356); a sudoku with many solutions (Inkala's hardest with its
first 4 givens removed: 52276, as an exact cover); 5x5 double word squares
(rows and columns primary, cells secondary coloured by letter, words
secondary, over a deterministic 96-word list: 38778).

Solvers: `dlx`, `xcover` (numba Algorithm C), `miniexact` (C, Algorithm X or C
through SWIG), `exact-cover` (C, Algorithm X; no colours, so not on the word
squares). Each runs in a worker process of its own (`csp.bench.runner`, as
`csp bench` runs them): a first run, then N warm
runs whose median is reported with the ratio of each peer to `dlx` (> 1: dlx
is faster). Apart from that: the import cost and first-call cost of each
package in a fresh process, the one-time numba compilation (first call with
an empty cache directory), and the warm whole-process time of
`csp xc --count FILE` (median of N runs after one that fills the caches:
`csp.bench.processes.series`).

Writes DIR/bench_dlx.md and DIR/bench_dlx.json (DIR defaults to bench-out/);
exits 1 if any count is wrong.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from csp.bench import instances, report, runner, solvers
from csp.bench.measure import table
from csp.bench.processes import Command, csp_program, series
from csp.bench.script import arguments, invocation

PEERS = ("xcover", "miniexact", "exact-cover")


def lineup(small: bool) -> list[instances.Instance]:
    if small:  # a smoke test of this script: seconds, not minutes
        return [instances.queens(10), instances.pentominoes("3x20"),
                instances.sudoku_many(), instances.word_squares(5, "abcd", 20)]
    return [instances.queens(12), instances.queens(13), instances.queens(14),
            instances.pentominoes("6x10"), instances.sudoku_opened(),
            instances.word_squares(5, "abcd", 24)]


def whole_process(inst: instances.Instance, repeat: int) -> dict[str, object]:
    """Median wall time of `csp xc --count FILE` in a new process, after one
    run that fills numba's cache and the OS file cache."""
    [xc] = inst.problems("exact-cover")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / f"{inst.name}.xc"
        path.write_text(xc.to_text())
        runs = series(Command([csp_program(), "xc", "--count", str(path)]), repeat, accept=None)
    done = runs.every[-1]
    line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    counted = int(line.split()[0]) if line[:1].isdigit() else None
    return {"instance": inst.name, "median": runs.wall, "runs": len(runs.runs),
            "count": counted, "ok": counted == sum(inst.expected), "output": line}


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=5, out="dir", time_limit=300.0)
    parser.add_argument("--no-jit", action="store_true",
                        help="skip the compilation measurement (empty numba cache)")
    parser.add_argument("--small", action="store_true",
                        help="small instances: a smoke test of the script")
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    chosen = lineup(args.small)
    lineup_solvers = [solvers.by_name("dlx")] + [solvers.by_name(p) for p in PEERS]
    bench = runner.run(chosen, lineup_solvers, suite="bench_dlx" + ("-small" if args.small else ""),
                       repeat=args.repeat, time_limit=args.time_limit,
                       jit_costs=not args.no_jit, command=invocation(__file__, argv), log=log)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    # the in-process results first, so that nothing below can lose them
    (out / "bench_dlx.json").write_text(json.dumps(bench.to_dict(), indent=1, default=str)
                                        + "\n", encoding="utf-8")
    log("whole process: csp xc --count")
    processes = []
    for inst in chosen:
        try:
            processes.append(whole_process(inst, args.repeat))
        except Exception as err:  # noqa: BLE001 - reported as a failure of that row
            processes.append({"instance": inst.name, "median": None, "runs": 0,
                              "count": None, "ok": False, "output": f"{type(err).__name__}: {err}"})
    text = markdown(bench, processes)
    print(text)
    (out / "bench_dlx.md").write_text(text, encoding="utf-8")
    data = bench.to_dict()
    data["whole_process"] = processes
    (out / "bench_dlx.json").write_text(json.dumps(data, indent=1, default=str) + "\n",
                                        encoding="utf-8")
    log(f"wrote {out / 'bench_dlx.md'}, {out / 'bench_dlx.json'}")
    loud = report.failures_text(bench.records)
    wrong_process = [p for p in processes if not p["ok"]]
    for p in wrong_process:
        log(f"FAILURE: csp xc --count on {p['instance']}: {p['output']}")
    if loud:
        log(loud)
    return 1 if loud or wrong_process else 0


def markdown(bench: runner.BenchRun, processes: list[dict[str, object]]) -> str:
    rows = runner.summarise(bench.records)
    index = {(r["instance"], r["solver"]): r for r in rows}
    m = bench.machine
    out = ["# dlx against the exact-cover peers", "",
           f"- command: `{bench.command}`; started {bench.started}; took {bench.elapsed:.0f} s",
           f"- machine: {m['cpu']}, {m['nproc']} cores, {m['platform']}, Python {m['python']}, "
           f"numba {m['numba']}; load average at start {m['loadavg']}",
           "- versions: " + ", ".join(sorted({f"{r['solver']} {r['version']}" for r in rows})),
           "- time: median of the warm in-process runs; peer/dlx > 1 means dlx is faster", ""]
    lines = []
    for inst in dict.fromkeys(r["instance"] for r in rows):
        ours = index.get((inst, "dlx"))
        cells = [inst, f"{ours['expected']:,}" if ours else "-",
                 report._cell(ours) if ours else "-",
                 f"{ours['nodes']:,}" if ours and ours.get("nodes") is not None else "-"]
        for peer in PEERS:
            row = index.get((inst, peer))
            cells.append(report._cell(row) if row else "-")
            if row and ours and row["status"] == "ok" and ours["status"] == "ok":
                cells.append(f"{row['median'] / ours['median']:.2f}")
            else:
                cells.append("-")
        lines.append(cells)
    out.append(table(["instance", "count", "dlx", "nodes",
                      *(c for p in PEERS for c in (p, f"{p}/dlx"))], lines))
    out += ["", "## Whole process: `csp xc --count FILE` (warm caches)", ""]
    out.append(table(["instance", "median", "runs", "count ok"],
                     [[p["instance"], report.seconds(p["median"]), p["runs"],
                       "yes" if p["ok"] else "**NO**: " + str(p["output"])] for p in processes]))
    out += ["", "## One-time costs (fresh process; probe: 8 queens)", ""]
    costs = []
    for s in bench.startups:
        if s.get("status") != "ok":
            costs.append([s["solver"], "", s.get("status"), "", "", ""])
            continue
        costs.append([s["solver"], "empty" if s.get("fresh_cache") else "as is",
                      report.seconds(s["import_time"]), report.seconds(s["first_call"]),
                      report.seconds(s["warm_call"]), report.seconds(s["first_call_extra"])])
    out.append(table(["solver", "numba cache", "import", "first call", "warm call",
                      "first - warm"], costs))
    out += ["", "xcover compiles when imported (its kernel has an explicit signature), so its "
            "JIT cost shows in the import column of the empty-cache row; csp's kernels compile "
            "on first call."]
    failures = report.failures_text(bench.records)
    if failures:
        out += ["", "## FAILURES", "", failures]
    notes = [r for r in rows if r["status"] not in ("ok", "WRONG", "error")]
    if notes:
        out += ["", "## Rows without a time", ""]
        out += [f"- {r['solver']} on {r['instance']}: {r['status']} ({r['note']})"
                for r in notes]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
