"""`csp solve FILE.xml` and `csp solve FILE.fzn`: an instance of the field.

Prints the first solution (or `no solution`), every solution and a count
line with `--all`, the count with `--count`, or one JSON object with
`--json`; each solution in its format's terms (`csp.io.instances`). The
exit status is `csp solve`'s: 0 solved (or stopped by --limit), 1 no
solution, 2 bad input, 3 stopped by --time-limit, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import csp
from csp.commands._common import (
    ProgressLine,
    counted,
    exit_status,
    parallel_count,
    wants_parallel,
    warn,
)
from csp.errors import InputError
from csp.io.instances import model_of, read_instance, solution_text
from csp.result import Status
from csp.solve import resolve_backend

_PUZZLE_OPTIONS = ("form", "symbols", "boxes")


def solve_instance(args: argparse.Namespace) -> int:
    for option in _PUZZLE_OPTIONS:
        if getattr(args, option, None) is not None:
            raise InputError(f"--{option} goes with a puzzle kind, not an instance file")
    if args.up_to_symmetry or args.reflect or args.letters:
        raise InputError("--up-to-symmetry, --reflect and --letters go with a puzzle kind")
    started = time.perf_counter()
    instance = read_instance(args.kind, args.format, ignore_objective=args.ignore_objective,
                             warn=warn)
    model = model_of(instance)
    backend = resolve_backend(model, args.backend)
    progress = ProgressLine()
    everything = args.all or (args.limit is not None and not args.count)
    texts: list[str] = []
    if args.count and args.limit is None:
        result = parallel_count(model, backend, args, progress) if wants_parallel(args) \
            else csp.count(model, backend, time_limit=args.time_limit,
                           progress=progress.callback)
        progress.clear()
        status, stats, number = result.status, result.stats, result.count
    else:
        if wants_parallel(args):
            raise InputError("--workers, --scheduler and --checkpoint go with --count")
        limit = args.limit if (everything or args.count) else 1
        search = csp.solutions(model, backend, limit=limit, time_limit=args.time_limit,
                               progress=progress.callback)
        try:
            for solution in search:
                if args.count:
                    continue
                texts.append(solution_text(instance, solution))
                if not args.json:
                    progress.clear()
                    print(texts[-1], flush=True)
        except KeyboardInterrupt:
            search.close()
        progress.clear()
        assert search.status is not None
        status, stats = search.status, search.stats
        number = stats.solutions if args.count else len(texts)
    if args.json:
        print(json.dumps({"count": number, "status": status.value, "solutions": texts,
                          "backend": backend, "stats": stats.to_dict()}))
    elif args.count:
        print(counted(number, status, bare=True))
    elif everything:
        print(counted(number, status))
    elif not texts:
        print("no solution" if status is Status.COMPLETE else f"no solution found ({status})")
    if args.stats:
        summary = {"puzzles": 1, "solved": int(number > 0), "bad": 0, "solutions": number,
                   "time": round(time.perf_counter() - started, 3), "nodes": stats.nodes}
        if args.json:
            print(json.dumps({"summary": summary}))
        else:
            nodes = "" if stats.nodes is None else f" nodes={stats.nodes:,}"
            print(f"instances=1 solved={summary['solved']} solutions={number:,} "
                  f"time={summary['time']:.3f}s{nodes}", file=sys.stdout)
    if status is Status.INTERRUPTED:
        return 130
    return exit_status(status, number)

