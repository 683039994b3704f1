"""`csp solve KIND FILE`: solve every puzzle of a file in its own format;
`csp solve FILE.xml` or `csp solve FILE.fzn`: solve an instance of the field
(XCSP3, FlatZinc; the format by the name, or `--format`), printing each
solution in its format's terms (an XCSP3 `<instantiation>`, FlatZinc's
output annotations).

Prints the first solution of each puzzle (or `no solution`), every solution
and a count line with `--all`, only the counts with `--count`, or one JSON
object per puzzle with `--json` (and, with `--stats`, a last object
`{"summary": {...}}`, so that every line of stdout is one JSON object). A bad
puzzle is reported with its line and the others are still solved; the exit
status is then 2; an input without any puzzle is an error (exit 2). Ctrl-C
ends the puzzle being solved as INTERRUPTED, printing what was found, and
exits with 130. Otherwise the exit status says how the searches ended: 0
solved (or stopped by --limit), 1 no solution, 3 stopped by --time-limit
before the search finished; of several puzzles, the most serious wins
(130, 2, 3, 1, 0).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import csp
from csp import backends, problems
from csp.backends.base import Search
from csp.commands import _authors
from csp.commands._common import (
    ProgressBar,
    ProgressLine,
    add_parallel_options,
    backends_help,
    counted,
    exit_status,
    help_later,
    limit_seconds,
    most_serious,
    parallel_count,
    read_input,
    solution_limit,
    wants_parallel,
)
from csp.errors import BackendUnavailable, InputError
from csp.problems.kind import Kind
from csp.result import Stats, Status
from csp.solve import resolve_backend


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "solve",
        help=f"solve the puzzles of a file: {', '.join(problems.BUILTIN)} "
        "(and the plug-ins' kinds: csp list)",
        description="Solve every puzzle of FILE (- for standard input) and print the "
        "first solution of each in the puzzle's own format.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kind = parser.add_argument("kind", metavar="KIND")
    parser.add_argument("--format", choices=("xcsp3", "flatzinc"),
                        help="read FILE as an instance of this format (default: by its "
                        "name: .xml, .xml.lzma, .fzn), with no KIND: csp solve --format "
                        "xcsp3 FILE")
    parser.add_argument("--ignore-objective", action="store_true",
                        help="an instance with an objective: solve its constraints only")

    def fill() -> None:
        # Describing every kind imports them all (and the plug-ins): for --help only.
        kinds = "\n".join(f"  {name:10} {text}" for name, text in problems.describe().items())
        parser.epilog = (f"puzzle kinds and their input formats:\n{kinds}\n\n"
                         "examples:\n  csp solve sudoku examples/sudoku.txt\n"
                         "  csp solve queens 8 --count\n  csp solve Queens-0008.xml.lzma --all"
                         "\n  csp solve queens.fzn --count")
        kind.help = (f"one of: {', '.join(problems.names())}; or an instance file (.xml, "
                     ".xml.lzma, .fzn)")

    help_later(parser, fill)
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="the input file, - for standard input (queens: or the size N)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="print only the number of solutions")
    what.add_argument("--all", action="store_true",
                      help="print every solution, then the number of solutions")
    parser.add_argument("--limit", type=solution_limit, metavar="N",
                        help="stop each puzzle after N solutions (implies --all)")
    parser.add_argument("--time-limit", type=limit_seconds, metavar="S",
                        help="stop each puzzle after S seconds (inf: no limit)")
    backends_help(parser, parser.add_argument("--backend", default="auto"),
                  "one of: auto, {backends} (default: auto, the compiled backend of the "
                  "declared form)")
    parser.add_argument("--form", help="the declaration to use (sudoku, lattice: exact-cover or "
                        "model; default: the named backend's native form, else the puzzle's "
                        "default)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per puzzle: count, status, solutions, stats")
    parser.add_argument("--stats", action="store_true",
                        help="end with a summary line: puzzles, solved, bad, solutions, "
                        "time, nodes; with --json it is one more JSON object on stdout, "
                        '{"summary": {...}}')
    parser.add_argument("--symbols", metavar="S",
                        help="sudoku: the symbols in digit order, e.g. 0123456789ABCDEF")
    parser.add_argument("--boxes", metavar="RxC", help="sudoku: the box shape, e.g. 2x3 for 6x6")
    parser.add_argument("--reflect", action="store_true",
                        help="polyomino: pieces may also be turned over")
    parser.add_argument("--letters", action="store_true",
                        help="shikaku: print a letter per rectangle, not its area (two "
                        "neighbouring rectangles of one area told apart)")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="count and list one solution per class of symmetric ones "
                        "(kinds that declare their symmetries; lattice always does)")
    add_parallel_options(parser)
    _authors.add_options(parser)
    parser.set_defaults(run=run)


def _options(kind: Kind, args: argparse.Namespace) -> dict[str, Any]:
    given = {"symbols": args.symbols, "boxes": args.boxes, "reflect": args.reflect or None,
             "letters": args.letters or None}
    options = {}
    for name, value in given.items():
        if value is None:
            continue
        if name not in kind.parse_options:
            raise InputError(f"--{name} does not apply to {args.kind} puzzles")
        options[name] = value
    return options


def _text(kind: Kind, args: argparse.Namespace) -> tuple[str, str]:
    if kind.inline is not None and not Path(args.file).exists():
        text = kind.inline(args.file)
        if text is not None:
            return text, "<command line>"
    return read_input(args.file)


def _parse(kind: Kind, text: str, options: dict[str, Any]) -> list[Any]:
    return problems.read(kind, text, **options)


def run(args: argparse.Namespace) -> int:
    from csp.io.instances import detect

    if args.file is None:
        if args.format is None and detect(args.kind) is None:
            raise InputError(f"{args.kind!r}: give a puzzle file after the kind "
                             "(csp solve KIND FILE), or an instance file (.xml, .xml.lzma, "
                             ".fzn; --format xcsp3 or flatzinc for another name)")
        from csp.commands.instance import solve_instance

        return solve_instance(args)
    if args.format is not None or args.ignore_objective:
        raise InputError("--format and --ignore-objective go with an instance file, without "
                         "a kind: csp solve FILE.xml")
    kind = problems.get(args.kind)
    options = _options(kind, args)
    text, source = _text(kind, args)
    items = _parse(kind, text, options)
    if not items:
        # An empty file (or only comments) is almost surely the wrong file.
        raise InputError("no puzzle in the input", source=source)
    if args.form is not None and args.form not in kind.forms:
        raise InputError(f"unknown form {args.form!r} for {args.kind} puzzles; "
                         f"the forms are: {', '.join(kind.forms)}")
    up_to = args.up_to_symmetry or kind.up_to_symmetry
    if up_to and kind.symmetry is None:
        raise InputError(f"{args.kind} puzzles do not declare their symmetries")
    if wants_parallel(args):
        if not args.count or args.limit is not None:
            raise InputError("--workers, --scheduler and --checkpoint go with --count")
        if up_to:
            raise InputError("counting up to symmetry runs on one process: drop --workers, "
                             "--scheduler and --checkpoint")
        if args.checkpoint is not None and len(items) > 1:
            raise InputError(f"--checkpoint journals one count: the input has {len(items)} "
                             "puzzles; give one per file")
    where = _authors.check(kind, args)
    gap = _authors.Gap(kind, args.json)
    bar = ProgressBar(len(items), "puzzles") if len(items) > 1 and sys.stderr.isatty() else None
    progress = ProgressLine()
    totals = Stats(nodes=0)
    bad = solved = 0
    codes: list[int] = []
    started = time.perf_counter()
    status: Status | None = Status.COMPLETE
    runs = _family_runs(kind, items, args, up_to)
    try:
        for done, item in enumerate(items):
            if bar is not None:
                bar.show(done)
            if done in runs:
                # Many puzzles of one shape: the structure once, each puzzle its givens.
                for status, stats, count in _solve_family(kind, items[done:runs[done]], args, bar,
                                                          gap):
                    solved += count > 0
                    codes.append(exit_status(status, count))
                    _add(totals, stats, count)
                continue
            if any(start < done < end for start, end in runs.items()):
                continue  # solved with its family
            if isinstance(item, InputError):
                bad += 1
                _report_bad(item.located(source=source), args, bar)
                continue
            try:
                if args.why_not_unique:
                    status, stats, count = _authors.explain(kind, item, args, done + 1, where, gap)
                else:
                    status, stats, count = _solve_one(kind, item, args, up_to, progress, bar,
                                                      gap)
                    if where is not None:
                        _authors.write(kind, item, args.first_answer, where,
                                       f"{kind.name}-{done + 1}")
            except InputError as error:
                if isinstance(error, BackendUnavailable):
                    raise  # the --backend option is at fault (race:dlx+nosuch), not the puzzle
                # Declaring or solving this puzzle failed (say, a backend that
                # cannot take its model): report it, go on with the others.
                bad += 1
                line = getattr(item, "line", None)
                _report_bad(error.located(line=line if error.line is None else None,
                                          source=source), args, bar)
                continue
            solved += count > 0
            codes.append(exit_status(status, count))
            _add(totals, stats, count)
            if status is Status.INTERRUPTED:
                break
    except KeyboardInterrupt:
        # Ctrl-C between searches (reading or declaring a puzzle): stop there.
        progress.clear()
        status = Status.INTERRUPTED
    if bar is not None:
        bar.clear()
    if args.stats:
        _print_summary(args, {"puzzles": len(items), "solved": solved, "bad": bad,
                              "solutions": totals.solutions,
                              "time": round(time.perf_counter() - started, 3),
                              "nodes": totals.nodes})
    if status is Status.INTERRUPTED:
        return 130
    return most_serious(codes + [2] * bool(bad))


FAMILY_MIN = 2
"""The fewest puzzles of one shape in a row solved as a family."""


def _family_runs(kind: Kind, items: list[Any], args: argparse.Namespace, up_to: bool
                 ) -> dict[int, int]:
    """The runs of consecutive good puzzles of one shape that `csp solve` solves
    as a family: start -> end (exclusive). None when the kind declares no
    shape, or the run asks for what a family does not do (every solution,
    a time limit per puzzle, symmetry, parallel counting)."""
    if (kind.shape is None or up_to or wants_parallel(args) or args.all
            or args.limit is not None or args.time_limit is not None
            or args.svg is not None or args.why_not_unique):
        return {}
    runs: dict[int, int] = {}
    start = 0
    while start < len(items):
        if isinstance(items[start], InputError):
            start += 1
            continue
        key = _call(kind, "shape", items[start])
        end = start + 1
        while (end < len(items) and not isinstance(items[end], InputError)
               and _call(kind, "shape", items[end]) == key):
            end += 1
        if end - start >= FAMILY_MIN:
            runs[start] = end
        start = end
    return runs


def _solve_family(kind: Kind, puzzles: list[Any], args: argparse.Namespace, bar: ProgressBar | None,
                  gap: _authors.Gap) -> Iterator[tuple[Status, Stats, int]]:
    """Solve (or count) puzzles of one shape as a family, printing each answer
    as `_solve_one` would; yield each one's status, statistics and count."""
    form = args.form or _native_form(kind, args.backend)
    problem, givens = csp.family(kind, puzzles, form)
    for puzzle, result in zip(puzzles, csp.solve_family(problem, givens, args.backend,
                                                      count=args.count)):
        texts = []
        if result.solution is not None and not args.count:
            answer = _call(kind, "decode", puzzle, result.solution, problem)
            texts.append(_call(kind, "format", puzzle, answer))
        if bar is not None:
            bar.clear()
        if args.json:
            print(json.dumps({"count": result.count, "status": result.status.value,
                              "solutions": texts, "backend": result.backend,
                              "stats": result.stats.to_dict()}))
        else:
            line = (counted(result.count, result.status, bare=True) if args.count
                    else texts[0] if texts else "no solution")
            gap.before(puzzle, line)
            print(line)
        yield result.status, result.stats, result.count


def _report_bad(error: InputError, args: argparse.Namespace, bar: ProgressBar | None) -> None:
    if bar is not None:
        bar.clear()
    if args.json:
        print(json.dumps({"error": error.message, "line": error.line}))
    print(f"csp: error: {error}", file=sys.stderr)


def _native_form(kind: Kind, backend: str) -> str | None:
    """The puzzle's form native to a named backend, if it declares one: a
    sudoku on cpsat is a model, not an exact cover lowered to 0/1 variables.
    None (the puzzle's own default) for `auto`."""
    if backend == "auto":
        return None
    form = backends.native_form(backend)
    return form if form in kind.forms else None


def _solve_one(kind: Kind, item: Any, args: argparse.Namespace, up_to: bool,
               progress: ProgressLine, bar: ProgressBar | None, gap: _authors.Gap
               ) -> tuple[Status, Stats, int]:
    """Solve, count or list one puzzle and print its answer; return how it ended,
    its statistics and the number of solutions reported. The first answer
    is left in `args.first_answer` (None if none), for `--svg`."""
    everything = args.all or (args.limit is not None and not args.count)
    args.first_answer = None
    problem = _call(kind, "declare", item, args.form or _native_form(kind, args.backend))
    backend = resolve_backend(problem, args.backend)
    texts: list[str] = []
    group = _call(kind, "symmetry", item, problem) if up_to else None
    if group is not None:
        from csp import symmetry
    only_count = args.count or (group is not None and not everything)
    if only_count and args.limit is None and wants_parallel(args):
        result = parallel_count(problem, backend, args, progress)
        status, stats = result.status, result.stats
        count = stats.solutions
    elif only_count and args.limit is None:
        # a kind whose answer is a number of classes prints only that number
        result = (csp.count(problem, backend, time_limit=args.time_limit,
                            progress=progress.callback) if group is None else
                  symmetry.count(problem, group, backend, time_limit=args.time_limit,
                                 progress=progress.callback))
        status, stats = result.status, result.stats
        count = stats.solutions
    else:
        limit = args.limit if (everything or args.count) else 1
        search = (csp.solutions(problem, backend, limit=limit, time_limit=args.time_limit,
                                progress=progress.callback) if group is None else
                  symmetry.solutions(problem, group, backend, limit=limit,
                                     time_limit=args.time_limit, progress=progress.callback))
        _list(kind, item, problem, search, texts, args, progress, bar, gap)
        assert search.status is not None
        status, stats = search.status, search.stats
        # Listing, the count is what was listed: a Ctrl-C may fall between
        # the kernel finding a solution and its being printed.
        count = stats.solutions if args.count else len(texts)
    progress.clear()
    if bar is not None:
        bar.clear()
    if args.json:
        print(json.dumps({"count": count, "status": status.value,
                          "solutions": texts, "backend": backend,
                          "stats": stats.to_dict()}))
    else:
        line = (counted(count, status, bare=True) if only_count else counted(count, status)
                if everything else None if texts else "no solution"
                if status is Status.COMPLETE else f"no solution found ({status})")
        if line is not None:
            if not texts:
                gap.before(item, line)
            print(line)
    return status, stats, count


def _list(kind: Kind, item: Any, problem: Any, search: Search, texts: list[str],
          args: argparse.Namespace, progress: ProgressLine, bar: ProgressBar | None,
          gap: _authors.Gap) -> None:
    """Collect (and, without --json, print) each solution of `search` in `texts`.

    Ctrl-C may arrive here, while a solution is decoded or printed, rather
    than in the kernel: it ends the search as INTERRUPTED all the same.
    """
    try:
        for solution in search:
            if args.count:
                continue
            answer = _call(kind, "decode", item, solution, problem)
            texts.append(_call(kind, "format", item, answer))
            if len(texts) == 1:
                args.first_answer = answer
                if not args.json:
                    gap.before(item, texts[0])
            if not args.json:
                _emit(texts, progress, bar)
    except KeyboardInterrupt:
        search.close()


def _call(kind: Kind, part: str, *args: Any) -> Any:
    """A part of the kind (`declare`, `decode`, ...); its failure other than an
    `InputError` is reported as one, naming the kind and the part."""
    try:
        return getattr(kind, part)(*args)
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - a plug-in's bug is reported, not a traceback
        raise InputError(f"the {kind.name} kind's {part} failed: "
                         f"{type(err).__name__}: {err}") from err


def _print_summary(args: argparse.Namespace, summary: dict[str, Any]) -> None:
    """The --stats line; with --json one more JSON object, `{"summary": {...}}`,
    so that stdout stays one JSON object per line."""
    if args.json:
        print(json.dumps({"summary": summary}))
        return
    nodes = "" if summary["nodes"] is None else f" nodes={summary['nodes']:,}"
    print(f"puzzles={summary['puzzles']} solved={summary['solved']} bad={summary['bad']} "
          f"solutions={summary['solutions']:,} time={summary['time']:.3f}s{nodes}")


def _emit(texts: list[str], progress: ProgressLine, bar: ProgressBar | None) -> None:
    """Print the latest answer; multi-line answers are separated by blank lines."""
    progress.clear()
    if bar is not None:
        bar.clear()
    answer = texts[-1]
    if len(texts) > 1 and "\n" in answer:
        sys.stdout.write("\n")
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()


def _add(totals: Stats, stats: Stats, count: int) -> None:
    totals.solutions += count
    totals.time += stats.time
    if stats.nodes is None or totals.nodes is None:
        totals.nodes = None
    else:
        totals.nodes += stats.nodes
