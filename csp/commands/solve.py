"""`csp solve KIND FILE`: solve every puzzle of a file in its own format.

Prints the first solution of each puzzle (or `no solution`), every solution
and a count line with `--all`, only the counts with `--count`, or one JSON
object per puzzle with `--json`. A bad puzzle is reported with its line and
the others are still solved; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import csp
from csp import backends, problems, symmetry
from csp.commands._common import ProgressLine, positive_int, read_input, seconds
from csp.errors import InputError
from csp.result import Stats, Status
from csp.solve import resolve_backend


def add_parser(sub: argparse._SubParsersAction) -> None:
    kinds = "\n".join(f"  {kind:10} {text}" for kind, text in problems.describe().items())
    parser = sub.add_parser(
        "solve",
        help="solve the puzzles of a file: sudoku, kakuro, shikaku, polyomino, queens",
        description="Solve every puzzle of FILE (- for standard input) and print the "
        "first solution of each in the puzzle's own format.",
        epilog=f"puzzle kinds and their input formats:\n{kinds}\n\n"
        "examples:\n  csp solve sudoku examples/sudoku.txt\n  csp solve queens 8 --count",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("kind", choices=list(problems.KINDS), metavar="KIND",
                        help=f"one of: {', '.join(problems.KINDS)}")
    parser.add_argument("file", metavar="FILE",
                        help="the input file, - for standard input (queens: or the size N)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="print only the number of solutions")
    what.add_argument("--all", action="store_true",
                      help="print every solution, then the number of solutions")
    parser.add_argument("--limit", type=positive_int, metavar="N",
                        help="stop each puzzle after N solutions (implies --all)")
    parser.add_argument("--time-limit", type=seconds, metavar="S",
                        help="stop each puzzle after S seconds")
    parser.add_argument("--backend", default="auto",
                        help=f"one of: auto, {', '.join(backends.known())} (default: auto, "
                        "the compiled backend of the declared form)")
    parser.add_argument("--form", help="the declaration to use (sudoku: exact-cover or model)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per puzzle: count, status, solutions, stats")
    parser.add_argument("--stats", action="store_true",
                        help="end with a summary: puzzles, solved, time, nodes")
    parser.add_argument("--symbols", metavar="S",
                        help="sudoku: the symbols in digit order, e.g. 0123456789ABCDEF")
    parser.add_argument("--boxes", metavar="RxC", help="sudoku: the box shape, e.g. 2x3 for 6x6")
    parser.add_argument("--reflect", action="store_true",
                        help="polyomino: pieces may also be turned over")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="count and list one solution per class of symmetric ones "
                        "(kinds that declare their symmetries; lattice always does)")
    parser.set_defaults(run=run)


def _options(module: Any, args: argparse.Namespace) -> dict[str, Any]:
    given = {"symbols": args.symbols, "boxes": args.boxes, "reflect": args.reflect or None}
    options = {}
    for name, value in given.items():
        if value is None:
            continue
        if name not in module.PARSE_OPTIONS:
            raise InputError(f"--{name} does not apply to {args.kind} puzzles")
        options[name] = value
    return options


def _text(args: argparse.Namespace) -> tuple[str, str]:
    if args.kind == "queens" and args.file.isdigit() and not Path(args.file).exists():
        return args.file, "<command line>"
    return read_input(args.file)


def run(args: argparse.Namespace) -> int:
    module = problems.get(args.kind)
    options = _options(module, args)
    text, source = _text(args)
    items = list(module.puzzles(text, **options))
    up_to = args.up_to_symmetry or getattr(module, "UP_TO_SYMMETRY", False)
    if up_to and not hasattr(module, "symmetry"):
        raise InputError(f"{args.kind} puzzles do not declare their symmetries")
    everything = args.all or (args.limit is not None and not args.count)
    bar = _Bar(len(items)) if len(items) > 1 and sys.stderr.isatty() else None
    progress = ProgressLine()
    totals = Stats(nodes=0)
    bad = solved = 0
    started = time.perf_counter()
    status: Status | None = Status.COMPLETE
    for done, item in enumerate(items):
        if bar is not None:
            bar.show(done)
        if isinstance(item, InputError):
            bad += 1
            error = item.located(source=source)
            if bar is not None:
                bar.clear()
            if args.json:
                print(json.dumps({"error": error.message, "line": error.line}))
            print(f"csp: error: {error}", file=sys.stderr)
            continue
        problem = module.declare(item, args.form)
        backend = resolve_backend(problem, args.backend)
        texts: list[str] = []
        group = module.symmetry(item, problem) if up_to else None
        if (args.count or (group is not None and not everything)) and args.limit is None:
            # a kind whose answer is a number of classes prints only that number
            result = (csp.count(problem, backend, time_limit=args.time_limit,
                                progress=progress.callback) if group is None else
                      symmetry.count(problem, group, backend, time_limit=args.time_limit,
                                     progress=progress.callback))
            status, stats = result.status, result.stats
        else:
            limit = args.limit if (everything or args.count) else 1
            search = (csp.solutions(problem, backend, limit=limit, time_limit=args.time_limit,
                                    progress=progress.callback) if group is None else
                      symmetry.solutions(problem, group, backend, limit=limit,
                                         time_limit=args.time_limit, progress=progress.callback))
            for solution in search:
                if not args.count:
                    texts.append(module.format(item, module.decode(item, solution, problem)))
                    if not args.json:
                        _emit(texts, progress, bar)
            status, stats = search.status, search.stats
        progress.clear()
        if bar is not None:
            bar.clear()
        solved += stats.solutions > 0
        _add(totals, stats)
        if args.json:
            print(json.dumps({"count": stats.solutions, "status": status.value,
                              "solutions": texts, "backend": backend,
                              "stats": stats.to_dict()}))
        elif args.count or (group is not None and not everything):
            print(_counted(stats.solutions, status, bare=True))
        elif everything:
            print(_counted(stats.solutions, status))
        elif not texts:
            print("no solution" if status is Status.COMPLETE else f"no solution found ({status})")
        if status is Status.INTERRUPTED:
            break
    if bar is not None:
        bar.clear()
    if args.stats:
        elapsed = time.perf_counter() - started
        nodes = "" if totals.nodes is None else f" nodes={totals.nodes:,}"
        print(f"puzzles={len(items)} solved={solved} bad={bad} solutions={totals.solutions:,} "
              f"time={elapsed:.3f}s{nodes}", file=sys.stdout)
    if status is Status.INTERRUPTED:
        return 130
    return 2 if bad else 0


def _emit(texts: list[str], progress: ProgressLine, bar: _Bar | None) -> None:
    """Print the latest answer; multi-line answers are separated by blank lines."""
    progress.clear()
    if bar is not None:
        bar.clear()
    answer = texts[-1]
    if len(texts) > 1 and "\n" in answer:
        sys.stdout.write("\n")
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()


def _counted(count: int, status: Status | None, bare: bool = False) -> str:
    text = str(count) if bare else f"{count} solution{'' if count == 1 else 's'}"
    if status not in (Status.COMPLETE, None):
        text += f" ({status})"
    return text


def _add(totals: Stats, stats: Stats) -> None:
    totals.solutions += stats.solutions
    totals.time += stats.time
    if stats.nodes is None or totals.nodes is None:
        totals.nodes = None
    else:
        totals.nodes += stats.nodes


class _Bar:
    """A progress bar of puzzles done, on a terminal's stderr."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total = total
        self.started = time.perf_counter()
        self.last = 0.0

    def show(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.last < 0.1:
            return
        self.last = now
        filled = self.WIDTH * done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} "
                         f"puzzles {now - self.started:.1f}s\x1b[K")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
