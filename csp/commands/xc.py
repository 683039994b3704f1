"""`csp xc FILE`: solve, count or enumerate an exact cover in Knuth's format."""

from __future__ import annotations

import argparse
import json
import sys

from csp import backends
from csp.commands._common import ProgressLine, positive_int, read_input, seconds
from csp.exactcover import ExactCover
from csp.result import Status
from csp.solve import count, resolve_backend, solutions


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "xc",
        help="solve an exact cover given in Knuth's text format",
        description="Read an exact cover with colours in Knuth's format (`|` comments; the "
        "item line: primary items, a lone `|`, secondary items; then one option per "
        "line, `name:colour` for a coloured secondary item). Print every solution as "
        "its options, a blank line between solutions, then a summary line.",
    )
    parser.add_argument("file", help="the input file, or - for standard input")
    parser.add_argument("--count", action="store_true", help="only count the solutions")
    parser.add_argument("--limit", type=positive_int, metavar="N",
                        help="stop after N solutions")
    parser.add_argument("--time-limit", type=seconds, metavar="S", help="stop after S seconds")
    parser.add_argument("--backend", default="auto",
                        help=f"one of: auto, {', '.join(backends.known())} (default: auto = dlx)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--workers", type=positive_int, metavar="N",
                        help="with --count: count on N processes (0 = one per core)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text, source = read_input(args.file)
    xc = ExactCover.from_text(text, source=source)
    backend = resolve_backend(xc, args.backend)
    progress = ProgressLine()
    found: list[list[str]] = []
    if args.count and args.limit is None and args.workers is not None:
        from csp import parallel

        result = parallel.count(xc, backend, workers=args.workers or None,
                                time_limit=args.time_limit)
        status, stats = result.status, result.stats
    elif args.count and args.limit is None:
        result = count(xc, backend, time_limit=args.time_limit, progress=progress.callback)
        progress.clear()
        status, stats = result.status, result.stats
    else:
        search = solutions(xc, backend, limit=args.limit, time_limit=args.time_limit,
                           progress=progress.callback)
        first = True
        for solution in search:
            if args.count:
                continue
            lines = [xc.option_text(k) for k in solution]
            if args.json:
                found.append(lines)
                continue
            progress.clear()
            if not first:
                sys.stdout.write("\n")
            sys.stdout.write("".join(line + "\n" for line in lines))
            first = False
        progress.clear()
        assert search.status is not None
        status, stats = search.status, search.stats
    if args.json:
        record = {"count": stats.solutions, "status": status.value, "backend": backend,
                  "stats": stats.to_dict()}
        if not args.count:
            record["solutions"] = found
        print(json.dumps(record))
    else:
        if stats.solutions and not args.count:
            sys.stdout.write("\n")
        noun = "solution" if stats.solutions == 1 else "solutions"
        print(f"{stats.solutions} {noun} {status.value} backend={backend} {stats.summary()}")
    return 130 if status is Status.INTERRUPTED else 0
