"""MiniZinc models compiled to FlatZinc, read by csp and solved by csp and Gecode.

    python bench/bench_flatzinc.py BENCHMARKS_DIR [--per-dir 3] [--time-limit 60]
        [--backend cpsat] [--out bench/results/flatzinc.json] [--only DIR...]

BENCHMARKS_DIR is a checkout of MiniZinc/minizinc-benchmarks. Its
satisfaction directories are those with a model whose solve item is
`satisfy`. In each, the instances are the satisfaction models with each of
the data files beside them (or alone, for a model without data), the
smallest data files first, `--per-dir` of them. Each instance is:

1. compiled: `minizinc --solver gecode -G std -c MODEL DATA -o FILE.fzn`
   (Debian's MiniZinc 2.6.4 and Gecode 6.2 need `-G std`: Gecode's own
   library predates MiniZinc's `fzn_` names);
2. read by `csp.io.flatzinc.read_program` (its CPU time);
3. solved for one solution by csp (the backend given) and by Gecode
   (`fzn-gecode -time MS FILE.fzn`), each with the time limit; where both
   finish, their answers (satisfiable or not) must agree.

A directory counts as compiled and read when one of its instances is. The
JSON keeps every instance; a table per directory goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import field_solvers  # noqa: E402

import csp  # noqa: E402
from csp.io.flatzinc import read_program  # noqa: E402


def _solve_kind(path: Path) -> str | None:
    text = path.read_text(errors="replace")
    text = re.sub(r"%[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    match = re.search(r"\bsolve\b(.*?);", text, re.S)
    if match is None:
        return None
    body = re.sub(r"::\s*\w+\s*(\((?:[^()]|\([^()]*\))*\))?", "", match[1])
    for kind in ("satisfy", "minimize", "maximize"):
        if kind in body:
            return kind
    return None


def satisfaction_dirs(root: Path) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for directory in sorted(p for p in root.iterdir() if p.is_dir() and
                            not p.name.startswith(".")):
        models = sorted(p for p in directory.rglob("*.mzn") if _solve_kind(p) == "satisfy")
        if models:
            found[directory.name] = models
    return found


def instances(directory: Path, models: list[Path], per_dir: int
              ) -> list[tuple[Path, Path | None]]:
    data = sorted(directory.rglob("*.dzn"), key=lambda p: (p.stat().st_size, p.name))
    pairs: list[tuple[Path, Path | None]] = []
    for model in models:
        if data:
            pairs += [(model, d) for d in data]
        else:
            pairs.append((model, None))
    pairs.sort(key=lambda pair: (pair[1].stat().st_size if pair[1] else 0, str(pair[0])))
    return pairs[:per_dir]


def compile_fzn(model: Path, data: Path | None, out: Path, limit: float) -> str | None:
    command = ["minizinc", "--solver", "gecode", "-G", "std", "-c", str(model)]
    command += [str(data)] if data else []
    command += ["-o", str(out)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit,
                              cwd=model.parent)
    except subprocess.TimeoutExpired:
        return "compiling timed out"
    if done.returncode != 0 or not out.exists():
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        return (lines[-1] if lines else f"exit {done.returncode}")[:200]
    return None


def measure(model: Path, data: Path | None, backend: str, limit: float, work: Path) -> dict:
    name = model.stem + ("+" + data.stem if data else "")
    row: dict = {"model": str(model), "data": str(data) if data else None, "name": name}
    fzn = work / f"{model.parent.name}-{name}.fzn"
    started = time.perf_counter()
    error = compile_fzn(model, data, fzn, 300)
    row["compile"] = {"time": round(time.perf_counter() - started, 2), "error": error}
    if error:
        return row
    row["fzn_bytes"] = fzn.stat().st_size
    started = time.process_time()  # CPU: the machine is shared, wall time is its load
    try:
        program = read_program(fzn)
    except csp.InputError as err:
        row["read"] = {"error": str(err)[:300]}
        return row
    row["read"] = {"cpu": round(time.process_time() - started, 3),
                   "variables": len(program.model.variables),
                   "constraints": len(program.model.constraints)}
    started = time.perf_counter()
    try:
        search = csp.solutions(program.model, backend, limit=1, time_limit=limit)
        found = sum(1 for _ in search)
        status = search.status
        answer = "sat" if found else ("unsat" if status is csp.Status.COMPLETE else "unknown")
    except (csp.InputError, csp.BackendUnavailable) as err:
        answer, row["csp_error"] = "failed", str(err)[:200]
    row["csp"] = {"answer": answer, "time": round(time.perf_counter() - started, 2)}
    gecode = field_solvers.gecode(str(fzn), limit, all_solutions=False)
    g_answer = "sat" if gecode.count else ("unsat" if gecode.complete else "unknown")
    row["gecode"] = {"answer": g_answer, "time": round(gecode.time, 2), "note": gecode.note}
    both = {answer, g_answer}
    row["verdict"] = ("agree" if both <= {"sat"} or both <= {"unsat"} else
                      "DISAGREE" if both == {"sat", "unsat"} else "open")
    fzn.unlink(missing_ok=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--per-dir", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--backend", default="cpsat")
    parser.add_argument("--out", default="bench/results/flatzinc.json")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    dirs = satisfaction_dirs(Path(args.root))
    if args.only:
        dirs = {k: v for k, v in dirs.items() if k in args.only}
    rows: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory() as work:
        for name, models in dirs.items():
            rows[name] = []
            for model, data in instances(Path(args.root) / name, models, args.per_dir):
                row = measure(model, data, args.backend, args.time_limit, Path(work))
                rows[name].append(row)
                print(json.dumps({"dir": name, **row}), file=sys.stderr, flush=True)
    report = {"command": " ".join(["python bench/bench_flatzinc.py", *sys.argv[1:]]),
              "load": os.getloadavg()[0],
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "dirs": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print("| directory | instances | compiled | read | read CPU s (max) | MB | agree | open | "
          "DISAGREE | first error |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    compiled_dirs = read_dirs = 0
    for name, found in rows.items():
        compiled = [r for r in found if not r["compile"]["error"]]
        read = [r for r in compiled if "error" not in r.get("read", {"error": 1})]
        compiled_dirs += bool(compiled)
        read_dirs += bool(read)
        verdicts = [r.get("verdict") for r in read]
        errors = [r["compile"]["error"] for r in found if r["compile"]["error"]] + \
            [r["read"]["error"] for r in compiled if "error" in r.get("read", {})]
        slowest = max(read, key=lambda r: r["read"]["cpu"], default=None)
        cpu, size = (slowest["read"]["cpu"], slowest["fzn_bytes"] / 1e6) if slowest else (0, 0)
        print(f"| {name} | {len(found)} | {len(compiled)} | {len(read)} | {cpu:.2f} | {size:.2f} | "
              f"{verdicts.count('agree')} | {verdicts.count('open')} | "
              f"{verdicts.count('DISAGREE')} | {(errors[0] if errors else '')[:80]} |")
    print(f"\n{len(rows)} satisfaction directories: {compiled_dirs} compile with -G std, "
          f"{read_dirs} are read")
    disagree = any(r.get("verdict") == "DISAGREE" for found in rows.values() for r in found)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
