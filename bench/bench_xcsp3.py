"""XCSP3 instances: read by csp, counted by csp, ACE and Choco.

    python bench/bench_xcsp3.py FILE_OR_DIR... [--time-limit 60] [--backends cpsat]
        [--out bench/results/xcsp3.json] [--no-field] [--log FILE]

For each instance (`.xml`, `.xml.lzma`; those with an objective are left
out): the CPU time `csp.io.xcsp3.read` takes, csp's count with each backend,
and the counts of ACE and Choco (bench/field_solvers.py says how each is
run and read), each with the time limit. A count is only compared where the
run finished; the verdict of an instance is `agree` (every finished count
equal, at least two of them), `DISAGREE`, `one` (a single run finished) or
`none`. The JSON keeps every run; the Markdown table goes to stdout.
With `--log FILE`, each instance's row is appended to FILE (a JSON line) as
it is measured, and the instances already there are not run again: a long
run stopped half-way goes on where it stopped (with the same options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import field_solvers  # noqa: E402

import csp  # noqa: E402
from csp.io import xcsp3  # noqa: E402


def instances(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for path in map(Path, paths):
        found += sorted(p for p in path.iterdir() if xcsp3.is_xcsp3(p.name)) \
            if path.is_dir() else [path]
    return [p for p in found if not _has_objective(p)]


def _has_objective(path: Path) -> bool:
    from csp.io.xcsp3.loading import read_bytes

    return b"<objectives" in read_bytes(str(path))


def measure(path: Path, backends: list[str], limit: float, field: bool) -> dict:
    row: dict = {"instance": path.name, "runs": []}
    started = time.process_time()  # CPU: the machine is shared, wall time is its load
    try:
        model = xcsp3.read(path, warn=lambda message: None)
    except csp.InputError as err:
        row["read"] = {"error": str(err), "cpu": time.process_time() - started}
        return row
    row["read"] = {"cpu": round(time.process_time() - started, 3),
                   "variables": len(model.variables), "constraints": len(model.constraints)}
    for name in backends:
        began = time.perf_counter()
        try:
            result = csp.count(model, name, time_limit=limit)
            row["runs"].append({"solver": name, "count": result.count,
                                "complete": result.status is csp.Status.COMPLETE,
                                "time": round(time.perf_counter() - began, 3)})
        except (csp.InputError, csp.BackendUnavailable) as err:
            row["runs"].append({"solver": name, "count": None, "complete": False,
                                "time": round(time.perf_counter() - began, 3),
                                "note": str(err)[:200]})
    if field:
        for solver in (field_solvers.ace, field_solvers.choco):
            answer = solver(str(path), limit)
            row["runs"].append({"solver": answer.solver, "count": answer.count,
                                "complete": answer.complete, "time": round(answer.time, 3),
                                "note": answer.note})
    finished = {r["solver"]: r["count"] for r in row["runs"] if r["complete"]}
    counts = set(finished.values())
    row["verdict"] = ("DISAGREE" if len(counts) > 1 else "agree" if len(finished) >= 2
                      else "one" if finished else "none")
    return row


def markdown(rows: list[dict], solvers: list[str]) -> str:
    head = ["instance", "read CPU s", *solvers, "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        read = row["read"]
        if "error" in read:
            lines.append(f"| {row['instance']} | refused | " + " | ".join("" for _ in solvers)
                         + f" | {read['error'].split(': ', 1)[-1][:90]} |")
            continue
        cells = []
        for solver in solvers:
            run = next((r for r in row["runs"] if r["solver"] == solver), None)
            if run is None:
                cells.append("")
            elif run["complete"]:
                cells.append(f"{run['count']:,} ({run['time']:.1f} s)")
            elif run["count"] is not None:
                cells.append(f">= {run['count']:,} (limit)")
            else:
                cells.append("failed")
        lines.append(f"| {row['instance']} | {read.get('cpu', read.get('time', 0)):.2f} | "
                     + " | ".join(cells)
                     + f" | {row['verdict']} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--backends", default="cpsat")
    parser.add_argument("--out", default="bench/results/xcsp3.json")
    parser.add_argument("--no-field", action="store_true", help="csp only: no ACE, no Choco")
    parser.add_argument("--log", help="JSON lines: append each row, skip the rows already there")
    args = parser.parse_args()
    backends = [b for b in args.backends.split(",") if b]
    done: dict[str, dict] = {}
    if args.log and Path(args.log).exists():
        for line in Path(args.log).read_text().splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                done[row["instance"]] = row
    rows = []
    for path in instances(args.paths):
        if path.name in done:
            rows.append(done[path.name])
            continue
        row = measure(path, backends, args.time_limit, not args.no_field)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
        if args.log:
            with open(args.log, "a") as log:
                print(json.dumps(row), file=log)
    solvers = backends + ([] if args.no_field else ["ace", "choco"])
    report = {"command": " ".join(["python bench/bench_xcsp3.py", *sys.argv[1:]]),
              "load": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                time.gmtime()),
              "instances": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(markdown(rows, solvers))
    read = [r for r in rows if "error" not in r["read"]]
    verdicts = [r["verdict"] for r in read]
    print(f"\n{len(read)} of {len(rows)} read; " + ", ".join(
        f"{verdicts.count(v)} {v}" for v in ("agree", "DISAGREE", "one", "none")))
    return 1 if "DISAGREE" in verdicts else 0


if __name__ == "__main__":
    sys.exit(main())
