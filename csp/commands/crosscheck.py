"""`csp crosscheck FILE`: run an exact cover (Knuth's format) on several
backends and check that they agree.

Exit status: 0 when every backend agrees, 1 when some disagree (the
difference is printed) or nothing could be compared, 2 on bad input, 130
after Ctrl-C (which stops the whole check).
"""

from __future__ import annotations

import argparse
import json

from csp import backends
from csp.commands._common import (
    add_format_option,
    limit_seconds,
    positive_int,
    read_cover_input,
)
from csp.crosscheck import DEFAULT_LIMIT, crosscheck
from csp.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "crosscheck",
        help="solve an exact cover with several backends and compare the answers",
        description="Read an exact cover with colours in Knuth's format and enumerate its "
        "solutions with each backend; verify every solution, compare the solution sets "
        "and the counts. Exit 0 if all agree, 1 if not, 2 on bad input.",
    )
    parser.add_argument("file", help="the input file, or - for standard input")
    parser.add_argument("--backends", metavar="LIST",
                        help=f"comma-separated, from: {', '.join(backends.known())} "
                        "(default: every available one)")
    parser.add_argument("--time-limit", type=limit_seconds, metavar="S",
                        help="stop each backend after S seconds (inf: no limit)")
    parser.add_argument("--limit", type=positive_int, metavar="N", default=DEFAULT_LIMIT,
                        help="solutions kept per backend to compare the sets; past it, "
                        f"only counts (default: {DEFAULT_LIMIT})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_format_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = None
    if args.backends is not None:
        names = [name.strip() for name in args.backends.split(",") if name.strip()]
        if not names:
            raise InputError("--backends: no backend named")
        for name in names:
            backends.get(name)  # an unknown or missing backend is an error (exit 2)
    xc = read_cover_input(args)
    report = crosscheck(xc, backends=names, limit=args.limit, time_limit=args.time_limit)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(report)
    if report.interrupted:
        return 130
    return 0 if report.agree else 1
