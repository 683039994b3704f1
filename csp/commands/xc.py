"""`csp xc FILE`: solve, count or enumerate an exact cover in Knuth's format.

Exit status: 0 solved (or stopped by --limit), 1 no solution (the search
finished), 2 bad input, 3 stopped by --time-limit before the search finished,
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from csp.commands._common import (
    ProgressLine,
    add_format_option,
    add_memo_options,
    add_parallel_options,
    backends_help,
    check_memo_options,
    exit_status,
    limit_seconds,
    memo_options,
    parallel_count,
    read_cover_input,
    solution_limit,
    wants_parallel,
)
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.result import Stats, Status
from csp.solve import count, resolve_backend, solutions


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "xc",
        help="solve an exact cover given in Knuth's text format",
        description="Read an exact cover with colours in Knuth's format (`|` comments; the "
        "item line: primary items, `a:b|name` for one covered a to b times, a lone `|`, "
        "secondary items; then one option per line, `name:colour` for a coloured "
        "secondary item), or in a variant (--format). Print every solution as its "
        "options, a blank line between solutions, then a summary line.",
    )
    parser.add_argument("file", help="the input file, or - for standard input")
    add_format_option(parser)
    parser.add_argument("--count", action="store_true", help="only count the solutions")
    parser.add_argument("--limit", type=solution_limit, metavar="N",
                        help="stop after N solutions")
    parser.add_argument("--time-limit", type=limit_seconds, metavar="S",
                        help="stop after S seconds (inf: no limit)")
    backends_help(parser, parser.add_argument("--backend", default="auto"),
                  "one of: auto, {backends} (default: auto = dlx)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_memo_options(parser)
    add_parallel_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if wants_parallel(args) and not args.count:
        raise InputError("--workers, --scheduler and --checkpoint go with --count")
    check_memo_options(args)
    xc = read_cover_input(args)
    backend = resolve_backend(xc, args.backend)
    progress = ProgressLine()
    found: list[list[str]] | None = None
    if args.count and args.limit is None:
        status, stats = _count(xc, backend, args, progress)
        number = stats.solutions
    else:
        found = [] if args.json and not args.count else None
        status, stats, listed = _list(xc, backend, args, progress, found)
        # Listing, the count is what was listed: a Ctrl-C may fall between the
        # kernel finding a solution and its being printed.
        number = stats.solutions if args.count else listed
    if args.json:
        record: dict[str, Any] = {"count": number, "status": status.value, "backend": backend,
                  "stats": stats.to_dict()}
        if found is not None:
            record["solutions"] = found
        print(json.dumps(record))
    else:
        if number and not args.count:
            sys.stdout.write("\n")
        noun = "solution" if number == 1 else "solutions"
        print(f"{number} {noun} {status.value} backend={backend} {stats.summary()}")
    return exit_status(status, number)


def _count(xc: ExactCover, backend: str, args: argparse.Namespace,
           progress: ProgressLine) -> tuple[Status, Stats]:
    """Count in the kernel, on one process or `--workers` of them."""
    if wants_parallel(args):
        result = parallel_count(xc, backend, args, progress)
    else:
        try:
            result = count(xc, backend, time_limit=args.time_limit, progress=progress.callback,
                           **memo_options(args))
        finally:
            progress.clear()
    return result.status, result.stats


def _list(xc: ExactCover, backend: str, args: argparse.Namespace, progress: ProgressLine,
          found: list[list[str]] | None) -> tuple[Status, Stats, int]:
    """Enumerate: print each solution (or keep it in `found` for --json); return
    the status, the statistics and how many solutions were listed.

    Ctrl-C may arrive here, while a solution is printed, rather than in the
    kernel: it ends the search as INTERRUPTED all the same, keeping what was found.
    """
    search = solutions(xc, backend, limit=args.limit, time_limit=args.time_limit,
                       progress=progress.callback)
    listed = 0
    try:
        for solution in search:
            if not args.count:
                _show(xc, solution, found, progress, first=listed == 0)
            listed += 1
    except KeyboardInterrupt:
        search.close()
    finally:
        progress.clear()
    assert search.status is not None
    return search.status, search.stats, listed


def _show(xc: ExactCover, solution: tuple[int, ...], found: list[list[str]] | None,
          progress: ProgressLine, *, first: bool) -> None:
    lines = [xc.option_text(k) for k in solution]
    if found is not None:
        found.append(lines)
        return
    progress.clear()
    # One write per solution, a blank line before all but the first.
    sys.stdout.write(("" if first else "\n") + "".join(line + "\n" for line in lines))
