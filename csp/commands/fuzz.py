"""`csp fuzz`: random exact covers and models on several backends; every
disagreement is shrunk and written into `--out`.

Exit status: 0 when no disagreement was found, 1 when one was (the files are
named), 2 on bad input (an unknown backend), 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse

from csp.commands._common import (
    ProgressLine,
    backend_list,
    backends_help,
    positive_int,
    seconds,
    worker_count,
)
from csp.fuzz import campaign
from csp.fuzz.generate import FORMS


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "fuzz",
        help="compare backends on random exact covers and models; shrink any disagreement",
        description="Generate random exact covers (secondary items, colours) and models "
        "(every kind of constraint of the model language, logic nested and reified, "
        "negative values, empty domains), run them on the chosen "
        "backends, verify every solution with the checkers and compare the backends with "
        "each other and, on small instances, with brute force. A disagreement is shrunk to "
        "a small instance and written (Knuth's format or a Python snippet) with the seed. "
        "Exit 0 if none, 1 if one was found, 2 on bad input.",
    )
    backends_help(parser, parser.add_argument("--backends", metavar="LIST"),
                  "comma-separated, from: {backends} (default: every available one, "
                  "plug-ins included, but portfolios such as race)")
    parser.add_argument("--seed", type=positive_int, metavar="N",
                        help="the campaign's seed (default: a random one, printed)")
    parser.add_argument("--instances", type=worker_count, metavar="N",
                        help=f"stop after N instances (default: {campaign.DEFAULT_INSTANCES} "
                        "unless --time is given)")
    parser.add_argument("--time", type=seconds, metavar="S",
                        help="stop starting instances after S seconds")
    parser.add_argument("--time-limit", type=seconds, metavar="S",
                        default=campaign.DEFAULT_TIME_LIMIT,
                        help="seconds each backend may spend on one instance; running out is "
                        "inconclusive, not a disagreement "
                        f"(default: {campaign.DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--form", choices=(*FORMS, "both"), default="both",
                        help="exact covers, models, or both (default)")
    parser.add_argument("--out", metavar="DIR", default="csp-fuzz",
                        help="where a disagreement is written (default: ./csp-fuzz)")
    parser.add_argument("--keep-going", action="store_true",
                        help="go on after a disagreement (default: stop at the first)")
    parser.add_argument("--start", type=positive_int, metavar="I", default=0,
                        help="the index of the first instance (to replay one: --seed S "
                        "--start I --instances 1)")
    parser.add_argument("--shrink-time", type=seconds, metavar="S",
                        default=campaign.DEFAULT_SHRINK_SECONDS,
                        help="seconds spent shrinking one disagreement at most (default: "
                        f"{campaign.DEFAULT_SHRINK_SECONDS:g})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = backend_list(args.backends)
    forms = FORMS if args.form == "both" else (args.form,)
    progress = ProgressLine()

    def shown(index: int, form: str, verdict: campaign.Verdict) -> None:
        progress.show(f"instance {index} ({form}): {verdict.outcome}")

    def found(finding: campaign.Finding) -> None:
        progress.clear()
        print(f"instance {finding.index} ({finding.form}): DISAGREEMENT, backends proved "
              f"wrong: {', '.join(finding.suspects)}")
        for line in finding.why:
            print(f"  {line}")
        print(f"  shrunk in {finding.steps} steps from {finding.original.size()} to "
              f"{finding.shrunk.size()}; written to {finding.files[0]}"
              f" (as generated: {finding.files[1]})")
        print(f"  replay: {finding.replay}")

    seed = args.seed if args.seed is not None else campaign.random_seed()
    print(f"csp fuzz: seed {seed}", flush=True)
    try:
        report = campaign.fuzz(names, seed=seed, instances=args.instances, seconds=args.time,
                               time_limit=args.time_limit, forms=forms, out=args.out,
                               keep_going=args.keep_going, start=args.start,
                               shrink_seconds=args.shrink_time,
                               on_instance=shown if progress.enabled else None,
                               on_finding=found)
    finally:
        progress.clear()
    print(report.summary())
    if report.interrupted:
        return 130
    return 1 if report.findings else 0
