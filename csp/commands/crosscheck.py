"""`csp crosscheck PATH`: run every instance of a collection on several
backends and check that they agree.

PATH is a file of Knuth's format, an XCSP3 or FlatZinc instance (`.xml`,
`.xml.lzma`, `.fzn`), a directory of them (mixed), or with `--kind KIND` a
puzzle file (every puzzle in it). One instance prints its full report;
several print a line each (the full report of those that do not agree),
then the summary per backend. `--record FILE` writes the golden record of
the run; `--against FILE` lists every drift from an earlier one (an
instance the record lacks is listed as new, not as a drift), and with
`--update` merges this run into it.

Exit status: 0 every instance agrees; 1 some backend disagrees or could not
run, or (with `--against`) something drifted; 2 bad input (a bad instance,
record or option); 3 inconclusive (some instance had fewer than two
backends finish, within the time limit); 130 after Ctrl-C. The most serious
wins, in that order: 130, 1, 2, 3, 0.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from csp import problems, records
from csp.collection import (
    DEFAULT_TIME_LIMIT,
    EXIT,
    CollectionReport,
    Instance,
    Outcome,
    check,
    instances,
    puzzles,
)
from csp.commands._common import (
    ProgressBar,
    add_format_option,
    backend_list,
    backends_help,
    positive_int,
    read_input,
    seconds,
    warn,
)
from csp.crosscheck import DEFAULT_LIMIT
from csp.errors import InputError
from csp.io.covers import read_cover


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "crosscheck",
        help="solve a collection of problems with several backends and compare the answers",
        description="Enumerate the solutions of every instance with each backend; verify "
        "every solution, compare the solution sets and the counts. PATH is an exact cover "
        "in Knuth's format, an XCSP3 or FlatZinc instance, a directory of them, or with "
        "--kind a puzzle file. Exit 0 if "
        "all agree, 1 on a disagreement (or a drift from --against), 2 on bad input, "
        "3 if inconclusive (fewer than two backends finished an instance), 130 after Ctrl-C.",
    )
    parser.add_argument("path", metavar="PATH",
                        help="a file, a directory of files, or - for standard input")
    parser.add_argument("--kind", metavar="KIND",
                        help="PATH is a puzzle file of this kind (csp list): check every "
                        "puzzle in it")
    parser.add_argument("--form", help="with --kind: the declaration to use (exact-cover or "
                        "model; default: the kind's own)")
    backends_help(parser, parser.add_argument("--backends", metavar="LIST"),
                  "comma-separated, from: {backends} "
                  "(default: every available one that takes the instance)")
    parser.add_argument("--time-limit", type=seconds, metavar="S", default=DEFAULT_TIME_LIMIT,
                        help="stop each backend after S seconds on an instance; it is then "
                        f"inconclusive (default: {DEFAULT_TIME_LIMIT:g}; inf: no limit)")
    parser.add_argument("--limit", type=positive_int, metavar="N", default=DEFAULT_LIMIT,
                        help="solutions kept per backend to compare the sets; past it, "
                        f"counts and set hashes (default: {DEFAULT_LIMIT})")
    parser.add_argument("--record", metavar="FILE",
                        help="write the golden record of this run (JSON) to FILE")
    parser.add_argument("--against", metavar="FILE",
                        help="compare this run with the golden record in FILE; list every "
                        "drift (count, solution set, status, a changed or missing instance) "
                        "and exit 1 if any; instances not in FILE are listed as new")
    parser.add_argument("--update", action="store_true",
                        help="with --against: write this run into FILE (new instances "
                        "added, the others' entries replaced by this run's)")
    parser.add_argument("--progress", action="store_true",
                        help="show the progress bar on stderr even when it is not a terminal")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--ignore-objective", action="store_true",
                        help="XCSP3 and FlatZinc instances with an objective: check their "
                        "constraints only (else such an instance is refused)")
    add_format_option(parser)
    parser.set_defaults(run=run)


def _instances(args: argparse.Namespace) -> list[Instance]:
    if args.form is not None and args.kind is None:
        raise InputError("--form goes with --kind")
    if args.kind is not None and args.path != "-" and not Path(args.path).exists():
        inline = problems.get(args.kind).inline  # `--kind queens 8`: the puzzle itself
        text = None if inline is None else inline(args.path)
        if text is not None:
            return list(puzzles(text, args.path, args.kind, args.form))
    if args.path != "-":
        return list(instances(args.path, args.kind, args.form, args.format, warn,
                              args.ignore_objective))
    text, source = read_input("-")
    if args.kind is not None:
        return list(puzzles(text, source, args.kind, args.form))
    try:
        return [Instance(source, read_cover(source, args.format, text=text, warn=warn))]
    except InputError as err:
        return [Instance(source, error=str(err))]


def run(args: argparse.Namespace) -> int:
    names = backend_list(args.backends)
    if args.update and args.against is None:
        raise InputError("--update goes with --against FILE (the record it updates)")
    golden = records.read(args.against) if args.against is not None else None
    found = _instances(args)
    if golden is not None:
        records.match(golden, found, source=f"the record {args.against!r}")
    time_limit = None if math.isinf(args.time_limit) else args.time_limit
    show = args.progress or sys.stderr.isatty()
    bar = ProgressBar(len(found), "instances") if show and len(found) > 1 else None
    done = 0

    def each(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        if bar is not None:
            bar.clear()
        if outcome.report is None:
            print(f"csp: error: {outcome.instance.error}", file=sys.stderr)
        elif not args.json and len(found) > 1:
            _line(outcome)
        if bar is not None:
            bar.show(done, force=True)  # drawn again under the lines just printed

    if bar is not None:
        bar.show(0)
    report = check(found, backends=names, limit=args.limit, time_limit=time_limit, each=each)
    if bar is not None:
        bar.clear()
    drifted = [] if golden is None else records.drifts(golden, report,
                                                         source=f"the record {args.against!r}")
    new = [] if golden is None else records.news(golden, report)
    if args.record is not None:
        records.write(args.record, report)
    if args.update and golden is not None and not report.interrupted:
        records.save(args.against, records.merged(golden, report))
    _print(args, report, found, drifted, new)
    if report.interrupted:
        return EXIT["interrupted"]
    return EXIT["disagree"] if drifted else report.exit_status


def _line(outcome: Outcome) -> None:
    """One instance's line; the whole report of one that does not agree."""
    report = outcome.report
    assert report is not None
    counts = {run.count for run in report.finished}
    n = counts.pop() if len(counts) == 1 else None
    count = "" if n is None else f"  {n} solution{'' if n == 1 else 's'}"
    print(f"{outcome.name}  {outcome.verdict}{count}")
    if outcome.verdict not in ("agree", "inconclusive"):
        print("  " + str(report).replace("\n", "\n  "))


def _print(args: argparse.Namespace, report: CollectionReport, found: list[Instance],
           drifted: list[records.Drift], new: list[str]) -> None:
    single = report.outcomes[0].report if len(found) == 1 and report.outcomes else None
    if args.json:
        # one instance: its own report, as before collections
        out = single.to_dict() if single is not None else report.to_dict()
        if args.against is not None:
            out["drifts"] = [vars(d) for d in drifted]
            out["new"] = new
        print(json.dumps(out))
        return
    if single is not None:
        print(single)
    elif len(found) > 1:
        print(report.table())
        print(report.summary())
    if report.interrupted:
        print("interrupted (Ctrl-C): the instances after it were not checked")
    if args.against is not None:
        for name in new:
            print(f"new: {name}")
        for drift in drifted:
            print(f"drift: {drift}")
        print(f"{len(drifted)} drift{'' if len(drifted) == 1 else 's'} from {args.against}"
              + (f", {len(new)} new instance{'' if len(new) == 1 else 's'}" if new else "")
              + (" (record updated)" if args.update and not report.interrupted else ""))
