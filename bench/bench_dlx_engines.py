#!/usr/bin/env python
"""The three engines of `dlx` on every instance of `csp bench --suite full`
that `dlx` counts: dancing links ("links", numba: the engine before issue 11),
dancing cells through numba ("cells-numba") and the default, dancing cells in
C ("cells").

    python bench/bench_dlx_engines.py [--repeat N] [--time-limit S] [--out FILE] [NAME ...]

Instances: those of the suite (or the names given, see `csp.bench.instances`)
in the form `dlx` takes: an exact cover as declared; a CSP-only instance
(kakuro) lowered to an exact cover once, as `csp bench` does (the lowering is
preparation, not timed: it is the same for every engine); lattice counted up
to its symmetries through `csp.count`, as `csp bench` counts it.

Each engine first loads or compiles its kernel on a small problem. Then, per
instance, each engine counts every puzzle once more with `--time-limit`
seconds per puzzle (the warm-up): a puzzle that some engine does not finish
in time is left out of the instance and named under the table (sudoku-25x25
and one kakuro are such; the default engine tries first, and a puzzle it
does not finish is not tried on the others). Then `--repeat` rounds, the engines in turn within
each round so that a change of load on the shared machine hits all alike.
Reported: the median CPU seconds (`time.process_time`) of counting the
instance's puzzles, the count, each engine's nodes (links as DLX2 counts them
minus the root, cells as SSXCC does: README, "Nodes"), and the ratios
cells/links (< 1: the default is faster than the old engine) and
cells/cells-numba.

Exits 1 if an engine's count differs from another's or from the known
answer, or if the two cells kernels' node counts differ (they run one search).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import csp
from csp import dispatch
from csp.backends.dlx import DLXBackend
from csp.bench import instances
from csp.bench.measure import alternate, header
from csp.bench.script import arguments, invocation
from csp.exactcover import ExactCover
from csp.result import Status

ENGINES = ("links", "cells-numba", "cells")
Count = Callable[[DLXBackend, float | None], Any]
"""(backend, time limit) -> the Result of counting one puzzle."""


def counters(inst: instances.Instance) -> list[Count]:
    """One counting function per puzzle of `inst`, in the form `dlx` takes."""
    form = "exact-cover" if "exact-cover" in inst.forms else inst.forms[0]
    out: list[Count] = []
    for problem in inst.problems(form):
        if isinstance(problem, instances.UpToSymmetry):
            out.append(partial(_up_to_symmetry, problem))
            continue
        if not isinstance(problem, ExactCover):  # lowered once, outside the timing
            problem = dispatch.prepare(problem, DLXBackend()).target
        out.append(partial(_plain, problem))
    return out


def _plain(problem: ExactCover, backend: DLXBackend, limit: float | None) -> Any:
    return backend.count(problem, time_limit=limit)


def _up_to_symmetry(problem: instances.UpToSymmetry, backend: DLXBackend,
                    limit: float | None) -> Any:
    return csp.count(problem.problem, backend, time_limit=limit, up_to_symmetry=problem.group)


def run(backend: DLXBackend, puzzles: list[Count]) -> tuple[int, int]:
    """Solutions and nodes of counting every puzzle."""
    solutions = nodes = 0
    for count in puzzles:
        result = count(backend, None)
        solutions += result.count
        nodes += result.stats.nodes or 0
    return solutions, nodes


def warm_up(backends: dict[str, DLXBackend]) -> None:
    """Load (C) or compile (numba) every kernel: plain cover, colours, lattice."""
    for name in ("queens-6", "word-square-3x3-20words"):
        for count in counters(instances.get(name)):
            for backend in backends.values():
                count(backend, None)


def finished(backends: dict[str, DLXBackend], puzzles: list[Count],
             limit: float) -> tuple[list[int], dict[int, str]]:
    """The puzzles every engine counts within `limit` seconds; the others, and why.
    The default engine goes first: a puzzle it does not finish is not tried on
    the others (sudoku-25x25 would cost minutes)."""
    kept, dropped = [], {}
    for k, count in enumerate(puzzles):
        for engine in reversed(ENGINES):
            if count(backends[engine], limit).status is Status.TIME_LIMIT:
                dropped[k] = f"over {limit:g} s on {engine}"
                break
        else:
            kept.append(k)
    return kept, dropped


def ratio(seconds: dict[str, float], a: str, b: str) -> str:
    return f"{seconds[a] / max(seconds[b], 1e-9):.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=3, out="file")
    parser.add_argument("names", nargs="*", help="instance names (default: the suite's)")
    parser.add_argument("--suite", default="full")
    parser.add_argument("--time-limit", type=float, default=20.0,
                        help="seconds per puzzle in the warm-up; slower puzzles are left out")
    args = parser.parse_args(argv)
    chosen = ([instances.get(n) for n in args.names] if args.names
              else instances.suite(args.suite))
    backends = {engine: DLXBackend(engine) for engine in ENGINES}
    warm_up(backends)
    lines = [
        f"command: `{invocation(__file__, argv)}`",
        header(f"CPU seconds, median of {args.repeat}"),
        "",
        "| instance | puzzles | count | links s | cells-numba s | cells (C) s | cells/links "
        "| cells/cells-numba | links nodes | cells nodes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    notes, wrong = [], False
    for inst in chosen:
        puzzles = counters(inst)
        kept, dropped = finished(backends, puzzles, args.time_limit)
        for k, why in dropped.items():
            notes.append(f"{inst.name}: puzzle {k + 1} of {len(puzzles)} left out ({why})")
        if not kept:
            continue
        timed = [puzzles[k] for k in kept]
        runs = alternate({e: (lambda e=e, p=timed: run(backends[e], p)) for e in ENGINES},
                         args.repeat)
        seconds = {e: statistics.median(runs[e][0]) for e in ENGINES}
        expected = [inst.expected[k] for k in kept]
        known = None if None in expected else sum(e for e in expected if e is not None)
        counts = {e: runs[e][1][0] for e in ENGINES}
        nodes = {e: runs[e][1][1] for e in ENGINES}
        if len(set(counts.values())) != 1 or (known is not None and counts["cells"] != known):
            wrong = True
            print(f"WRONG on {inst.name}: counts {counts}, known {known}", file=sys.stderr)
        if nodes["cells"] != nodes["cells-numba"]:
            wrong = True
            print(f"WRONG on {inst.name}: cells nodes {nodes['cells']:,} but cells-numba "
                  f"{nodes['cells-numba']:,}", file=sys.stderr)
        line = (f"| {inst.name} | {len(kept)} | {counts['cells']:,} | {seconds['links']:.4f} "
                f"| {seconds['cells-numba']:.4f} | {seconds['cells']:.4f} "
                f"| {ratio(seconds, 'cells', 'links')} "
                f"| {ratio(seconds, 'cells', 'cells-numba')} "
                f"| {nodes['links']:,} | {nodes['cells']:,} |")
        lines.append(line)
        print(line, flush=True)
    lines += [""] + [f"- {note}" for note in notes]
    for note in notes:
        print(f"- {note}", flush=True)
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
