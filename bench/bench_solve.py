#!/usr/bin/env python
"""Whole-process puzzles per second: `csp solve` against the Python peers.

    python bench/bench_solve.py [--only sudoku|shikaku] [--limit N] [--repeat N]
                                [--backends A,B,...] [--peers NAME... | --no-peers]
                                [--slow-puzzles N] [--slow-time-limit S] [--out DIR]

Puzzles (`csp.bench.answers`): sudoku top1465 (974 puzzles, each with its
unique solution) and the janko shikaku collection (271 puzzles, with their
solution counts and solutions), written once in the input formats of `csp
solve` to DIR (default: a temporary directory).

What is timed, each as a whole process (`csp.bench.processes`: wall clock
from start to exit, the median of --repeat runs after one warm-up run that
fills numba's on-disk cache and the OS file cache; also its CPU time, user +
system):

- `csp solve sudoku FILE [--backend B]`: Python's start, importing csp,
  reading and parsing the file, declaring each puzzle, solving it to its
  first solution, printing it. The row `csp` is the default backend (no
  `--backend`); then one row per backend.
- `csp solve shikaku FILE` (first solution of each puzzle, printed as its
  grid of areas) and `csp solve shikaku FILE --count` (every solution
  counted: a proof of uniqueness), the same way.
- The peers, each in a process that never imports csp
  (`csp.bench.peer_programs`, which says how each is driven): Python's
  start, importing the package, parsing the same file with plain Python,
  building the package's own model, solving, printing in csp's output
  format: `xcover` (sudoku and shikaku), `ortools` and `python-constraint2`
  (sudoku).

Every printed answer of every run is checked (`csp.bench.answers`). The slow
solvers (csp's `python-constraint` backend and the `python-constraint2`
peer) get only the first --slow-puzzles puzzles, a per-puzzle limit of
--slow-time-limit seconds, and one run without warm-up (`csp.bench.solving`).

Prints the Markdown report (and with --out writes DIR/bench_solve.md and
DIR/bench_solve.json); exits 1 if any answer is wrong or a process failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from csp.bench import answers, solving
from csp.bench.instances import data_dir
from csp.bench.runner import machine
from csp.bench.script import arguments, invocation


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = arguments(__doc__, repeat=3, backends=solving.BACKENDS)
    parser.add_argument("--only", choices=solving.KINDS, help="one puzzle kind (default: both)")
    parser.add_argument("--limit", type=int, help="the first N puzzles of each collection")
    parser.add_argument("--peers", nargs="*", default=["xcover", "ortools", "python-constraint2"],
                        help="peer packages (default: all installed)")
    parser.add_argument("--no-peers", action="store_true", help="csp's backends only")
    parser.add_argument("--slow-puzzles", type=int, default=50,
                        help="puzzles for the slow solvers (default 50)")
    parser.add_argument("--slow-time-limit", type=float, default=1.0,
                        help="seconds per puzzle for the slow solvers (default 1)")
    parser.add_argument("--process-timeout", type=float, default=3600.0,
                        help="kill a process after this many seconds (default 3600)")
    parser.add_argument("--out", help="write the inputs and the report here "
                        "(default: inputs in a temporary directory, report on stdout only)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def plan(args: argparse.Namespace, directory: Path) -> tuple[list[solving.Entry], list[str]]:
    """Write the input files; the entries to time, and what cannot run."""
    backends, missing = solving.available_backends(args.backends)
    notes = [f"csp backend {b}: not available" for b in missing]
    peers, absent = ([], []) if args.no_peers else solving.available_peers(args.peers)
    notes += [f"peer {p}: not installed" for p in absent]
    entries = []
    for kind in [args.only] if args.only else solving.KINDS:
        load = answers.load_sudoku if kind == "sudoku" else answers.load_shikaku
        cases: list = load(data_dir(), args.limit)
        slow_cases = cases[:args.slow_puzzles]
        path = answers.write_input(directory, kind, cases)
        slow_path = answers.write_input(directory, kind, slow_cases, f"-first{len(slow_cases)}")
        for make, who in ((solving.csp_entries, backends), (solving.peer_entries, peers)):
            entries += make(kind, path, cases, who, slow_path, slow_cases, args.slow_time_limit)
    return entries, notes


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    header: dict[str, object] = {
        "command": invocation(__file__, argv), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine(), "versions": solving.versions(), "repeat": args.repeat,
        "slow_puzzles": args.slow_puzzles, "slow_time_limit": args.slow_time_limit}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench_solve-") as scratch:
        directory = Path(args.out or scratch)
        directory.mkdir(parents=True, exist_ok=True)
        entries, notes = plan(args, directory)
        header["slow_puzzles"] = " or ".join(
            sorted({str(len(e.cases)) for e in entries if e.slow})) or args.slow_puzzles
        rows = []
        for entry in entries:
            print(f"timing {entry.label} ({entry.kind}, {entry.mode})", file=sys.stderr,
                  flush=True)
            rows.append(solving.measure(entry, args.repeat, args.process_timeout))
        header["elapsed"] = time.perf_counter() - started
        text = solving.markdown(rows, header, notes)
        print(text)
        if args.out:
            (directory / "bench_solve.md").write_text(text, encoding="utf-8")
            record = {**header, "rows": [asdict(r) | {"wall": r.wall, "cpu": r.cpu,
                                                      "rate": r.rate} for r in rows]}
            (directory / "bench_solve.json").write_text(
                json.dumps(record, indent=1, default=str) + "\n", encoding="utf-8")
    for r in rows:
        if r.failed:
            print(f"FAILURE: {r.label} ({r.kind}, {r.mode}): {r.error or r.wrong[:3]}",
                  file=sys.stderr)
    return 1 if any(r.failed for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
