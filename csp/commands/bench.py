"""`csp bench`: time every backend (and, with --peers, the other Python tools)
on a suite of instances with known answers; check every count.

Exit status: 0 when every run's count was right, 1 when any was wrong (a
run cut by the time limit whose partial count already exceeds the known
answer is wrong too) or a solver failed (timeouts and "cannot express" are
reported, not failures); 2 on bad input, such as a `--compare` file that is
not the JSON of a bench run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csp.commands._common import positive_int, seconds

TIME_LIMITS = {"tiny": 10.0, "quick": 1.0, "full": 60.0}
"""Per-run time limit of each suite (seconds), unless --time-limit says otherwise."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bench",
        help="benchmark the backends (and peers) on instances with known answers",
        description="Run a suite of instances with known answers on each backend (with "
        "--peers also on xcover, miniexact, exact-cover, and on OR-Tools (ortools) and "
        "python-constraint2 through their own API), check every count, and write "
        "bench.md, bench.csv, bench.json (and bench.png with matplotlib) to --out. "
        "--compare OLD.json NEW.json compares two saved runs (exit 2 if either is not "
        "the JSON of a bench run).",
    )
    parser.add_argument("--suite", default="quick", choices=("tiny", "quick", "full"),
                        help="quick: under a minute on 2 cores; full: the one in "
                        "bench/RESULTS.md (default: quick)")
    parser.add_argument("--backends", nargs="+", metavar="NAME",
                        help="the backends to run (default: every available one)")
    parser.add_argument("--peers", action="store_true",
                        help="also run the peer packages (pip install 'csp-workbench[peers]')")
    parser.add_argument("--only", nargs="+", metavar="INSTANCE",
                        help="run only these instances of the suite")
    parser.add_argument("--repeat", type=positive_int, default=None, metavar="N",
                        help="warm runs per instance after the first (default: 3 for "
                        "quick, 5 for full)")
    parser.add_argument("--time-limit", type=seconds, metavar="S",
                        help="per-run time limit (default: 1 s quick, 60 s full)")
    parser.add_argument("--out", default="bench-out", metavar="DIR",
                        help="where to write the reports (default: bench-out)")
    parser.add_argument("--no-startup", action="store_true",
                        help="skip measuring import and JIT costs in fresh processes")
    parser.add_argument("--jit", action="store_true",
                        help="also measure the one-time numba compilation (first call with an "
                        "empty cache; minutes on a slow machine; on by default for full)")
    parser.add_argument("--compare", nargs=2, metavar=("OLD.json", "NEW.json"),
                        help="compare two saved runs instead of running")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from csp.bench import instances, report, runner, solvers
    from csp.errors import InputError

    if args.compare:
        old, new = (_load(path) for path in args.compare)
        print(report.compare(old, new))
        return 0
    skipped: list[tuple[str, str]] = []
    chosen = instances.suite(args.suite, skipped)
    if args.only:
        unknown = set(args.only) - {i.name for i in chosen}
        if unknown:
            raise InputError(f"not in suite {args.suite}: {', '.join(sorted(unknown))}; it has: "
                             f"{', '.join(i.name for i in chosen)}")
        chosen = [i for i in chosen if i.name in args.only]
    from csp import backends

    # names separated by spaces or commas, as `csp crosscheck --backends` takes them
    names = [name for word in (args.backends or backends.known())
             for name in word.split(",") if name] or backends.known()
    for name in names:
        if not backends.is_known(name):
            raise InputError(f"unknown backend {name!r}; the backends are: "
                             f"{', '.join(backends.known())}")
    lineup = solvers.backend_solvers(names)
    if args.peers:
        lineup += solvers.peer_solvers()
    repeat = args.repeat if args.repeat is not None else (5 if args.suite == "full" else 3)
    limit = args.time_limit if args.time_limit is not None else TIME_LIMITS[args.suite]

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    log(f"csp bench --suite {args.suite}: {len(chosen)} instances, "
        f"{', '.join(s.name for s in lineup)}; repeat {repeat}, time limit {limit:g} s")
    bench = runner.run(chosen, lineup, suite=args.suite, repeat=repeat, time_limit=limit,
                       startup_costs=not args.no_startup,
                       jit_costs=args.jit or args.suite == "full",
                       command=_command(args, repeat, limit),
                       log=log, skipped=skipped)
    written = report.write_all(bench, Path(args.out))
    print(report.markdown(bench))
    log("wrote " + ", ".join(str(p) for p in written))
    loud = report.failures_text(bench.records)
    if loud:
        log(loud)
        return 1
    return 0


def _command(args: argparse.Namespace, repeat: int, limit: float) -> str:
    """The command line that reproduces this run, defaults spelled out."""
    words = ["csp bench", f"--suite {args.suite}"]
    if args.backends:
        words.append("--backends " + " ".join(args.backends))
    if args.peers:
        words.append("--peers")
    if args.only:
        words.append("--only " + " ".join(args.only))
    words += [f"--repeat {repeat}", f"--time-limit {limit:g}", f"--out {args.out}"]
    words += [flag for flag, on in (("--jit", args.jit), ("--no-startup", args.no_startup)) if on]
    return " ".join(words)


def _load(path: str) -> dict:
    from csp.bench import report
    from csp.errors import InputError

    try:
        return report.load(path)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror}", source=path) from None
    except (ValueError, KeyError) as err:
        raise InputError(f"{path} is not a csp bench JSON record: {err}", source=path) from None
