"""`csp bench`: time every backend (and, with --peers, the other Python tools)
on a suite of instances with known answers, checking every count; or on the
user's own instances (`csp bench DIR_OR_FILE...`, `--kind KIND FILE`), with a
table of instances solved per backend and the virtual best, a cactus plot and
a pairwise scatter of times.

Exit status: 0 when every run's count was right, 1 when any was wrong (a
run cut by the time limit whose partial count already exceeds the known
answer is wrong too), a solver failed, or backends that finished counted
differently (timeouts and "cannot express" are reported, not failures); 2 on
bad input, such as a `--compare` file that is not the JSON of a bench run, a
path that does not exist or an unknown backend; also 2 when some files or
puzzles could not be read (each is reported, the others are run), unless 1
applies.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from csp.commands._common import positive_int, seconds

TIME_LIMITS = {"tiny": 10.0, "quick": 1.0, "full": 60.0, "custom": 10.0}
"""Per-run time limit of each suite (seconds; custom: the user's own instances),
unless --time-limit says otherwise."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bench",
        help="benchmark the backends (and peers) on instances with known answers",
        description="Run a suite of instances with known answers on each backend (with "
        "--peers also on xcover, miniexact, exact-cover, and on OR-Tools (ortools) and "
        "python-constraint2 through their own API), check every count, and write "
        "bench.md, bench.csv, solved.csv, bench.json (and with matplotlib the charts "
        "cactus.png, scatter.png, bench.png) to --out. Given PATHs or --kind, run your "
        "own instances instead: each exact cover of a file or directory, each puzzle of "
        "a puzzle file; the backends' counts are compared with one another. "
        "--compare OLD.json NEW.json compares two saved runs; --compare OLD.json "
        "compares this run with a saved one (exit 2 if a file is not the JSON of a "
        "bench run).",
        epilog="examples:\n  csp bench --suite quick --peers\n"
        "  csp bench my-instances/ --backends dlx,cpsat --time-limit 5\n"
        "  csp bench --kind sudoku puzzles.txt --compare bench-out/bench.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="exact covers in Knuth's format, XCSP3 (.xml, .xml.lzma) or "
                        "FlatZinc (.fzn) instances: a file, or a directory (each of its "
                        "files is one instance)")
    parser.add_argument("--kind", nargs=2, action="append", metavar=("KIND", "FILE"),
                        help="every puzzle of FILE, of puzzle kind KIND (see `csp list`), "
                        "one instance each; may be repeated")
    parser.add_argument("--suite", choices=("tiny", "quick", "full"),
                        help="quick: under a minute on 2 cores; full: the one in "
                        "bench/RESULTS.md (default without PATH or --kind: quick)")
    parser.add_argument("--backends", metavar="LIST",
                        help="the backends to run, comma-separated (default: every "
                        "available one)")
    parser.add_argument("--peers", action="store_true",
                        help="also run the peer packages (pip install 'csp-workbench[peers]')")
    parser.add_argument("--only", nargs="+", metavar="INSTANCE",
                        help="run only these instances of the suite")
    parser.add_argument("--repeat", type=positive_int, default=None, metavar="N",
                        help="warm runs per instance after the first (default: 3, 5 for "
                        "full); the report shows their median and spread")
    parser.add_argument("--time-limit", type=seconds, metavar="S",
                        help="per-run time limit (default: 1 s quick, 60 s full, 10 s on "
                        "your own instances); a run past it is a timeout: unsolved")
    parser.add_argument("--out", default="bench-out", metavar="DIR",
                        help="where to write the reports (default: bench-out)")
    parser.add_argument("--no-startup", action="store_true",
                        help="skip measuring import and JIT costs in fresh processes")
    parser.add_argument("--jit", action="store_true",
                        help="also measure the one-time numba compilation (first call with an "
                        "empty cache; minutes on a slow machine; on by default for full)")
    parser.add_argument("--compare", nargs="+", metavar="FILE.json",
                        help="OLD.json NEW.json: compare two saved runs instead of running; "
                        "OLD.json: run, then compare with OLD.json (a change is flagged "
                        "only beyond the noise: see bench/README.md)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from csp.bench import charts, instances, report, runner, solvers
    from csp.errors import InputError

    compare = args.compare or []
    if len(compare) > 2:
        raise InputError(f"--compare takes OLD.json, or OLD.json NEW.json: {len(compare)} "
                         "files given")
    if len(compare) == 2:
        old, new = (_load(path) for path in compare)
        print(report.compare(old, new))
        return 0
    baseline = _load(compare[0]) if compare else None  # a bad file fails before the run
    own = bool(args.paths or args.kind)
    if own and (args.suite or args.only):
        raise InputError("--suite and --only choose among the built-in instances: not with "
                         "PATH or --kind")
    suite = report.CUSTOM if own else args.suite or "quick"
    skipped: list[tuple[str, str]] = []
    if own:
        chosen = _own(args, skipped)
        bad = list(skipped)
    else:
        chosen = instances.suite(suite, skipped)
        bad = []
    if args.only:
        unknown = set(args.only) - {i.name for i in chosen}
        if unknown:
            raise InputError(f"not in suite {suite}: {', '.join(sorted(unknown))}; it has: "
                             f"{', '.join(i.name for i in chosen)}")
        chosen = [i for i in chosen if i.name in args.only]
    from csp import backends

    # one argument, names separated by commas, as every `--backends` of csp
    names = backends.parse_names(args.backends or "") or backends.known()
    for name in names:
        if not backends.is_known(name):
            raise InputError(f"unknown backend {name!r}; the backends are: "
                             f"{', '.join(backends.known())}")
    lineup = solvers.backend_solvers(names)
    if args.peers:
        lineup += solvers.peer_solvers()
    repeat = args.repeat if args.repeat is not None else (5 if suite == "full" else 3)
    limit = args.time_limit if args.time_limit is not None else TIME_LIMITS[suite]

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    for what, why in bad:
        log(f"csp bench: not run: {what}: {why}")
    if not chosen:
        raise InputError("nothing to run: no instance could be read")
    log(f"csp bench {'on your instances' if own else '--suite ' + suite}: "
        f"{len(chosen)} instances, {', '.join(s.name for s in lineup)}; repeat {repeat}, "
        f"time limit {limit:g} s")
    bench = runner.run(chosen, lineup, suite=suite, repeat=repeat, time_limit=limit,
                       startup_costs=not args.no_startup,
                       jit_costs=args.jit or suite == "full",
                       command=_command(args, repeat, limit),
                       log=log, skipped=skipped)
    written = report.write_all(bench, Path(args.out))
    print(report.markdown(bench))
    if baseline is not None:
        print(f"## Compared with {compare[0]}\n")
        print(report.compare(baseline, bench.to_dict()))
    if charts.pyplot() is None:
        log(f"csp bench: {charts.MISSING}")
    log("wrote " + ", ".join(str(p) for p in written))
    loud = report.failures_text(bench.records)
    disagree = report.disagreements_text(runner.summarise(bench.records))
    if loud or disagree:
        log("\n".join([loud, *disagree]).strip())
        return 1
    return 2 if bad else 0


def _own(args: argparse.Namespace, skipped: list[tuple[str, str]]) -> list[Any]:
    """The user's instances, each once, in the order given."""
    from csp import backends
    from csp.bench import files
    from csp.errors import InputError

    found = []
    for path in args.paths:
        if not Path(path).exists() and backends.is_known(path):
            # `--backends dlx cpsat DIR`: the second name was read as a PATH
            raise InputError(f"no such file or directory: {path} (a backend's name: name "
                             f"the backends in one argument, with commas: --backends "
                             f"dlx,{path})")
        found += files.exact_covers(path, skipped)
    for kind, path in args.kind or []:
        found += files.puzzles(kind, path, skipped)
    return list({i.name: i for i in reversed(found)}.values())[::-1]


def _command(args: argparse.Namespace, repeat: int, limit: float) -> str:
    """The command line that reproduces this run, defaults spelled out."""
    words = ["csp bench", *args.paths]
    words += [f"--kind {kind} {path}" for kind, path in args.kind or []]
    if not (args.paths or args.kind):
        words.append(f"--suite {args.suite or 'quick'}")
    if args.backends:
        from csp.backends import parse_names

        words.append("--backends " + ",".join(parse_names(args.backends)))
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
