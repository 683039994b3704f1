"""`csp fzn FILE.fzn`: solve a FlatZinc file as MiniZinc's solvers do.

The options and the output are FlatZinc's conventions, so that MiniZinc
drives `csp` as one of its solvers (`csp minizinc-config`; the console
script `fzn-csp` is this command): `-a` every solution, `-n N` at most N,
`-t MS` a time limit in milliseconds, `-s` statistics (`%%%mzn-stat:`
lines), `-f`, `-p N` and `-r SEED` accepted and ignored (the search is the
backend's), `--backend NAME` any csp backend. Each solution is printed in the
output annotations' format and followed by `----------`; `==========` when
the search is complete, `=====UNSATISFIABLE=====` when there is no solution,
`=====UNKNOWN=====` when a limit stopped it before any.

Solutions are those of the output variables: where the model has variables
that are neither printed nor defined by the others, each printed solution is
listed once (a projection, `csp.solutions(..., over=...)`).

Exit status: 0 when the search ran (its answer is in the output, including
unsatisfiable and unknown, as MiniZinc expects of a solver), 2 bad input,
130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from csp.commands._common import backends_help, positive_int
from csp.errors import BackendUnavailable, InputError
from csp.result import Status


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "fzn",
        help="solve a FlatZinc file, printing as MiniZinc's solvers do (csp as a MiniZinc "
        "solver: csp minizinc-config)",
        description="Solve FILE (FlatZinc) with a csp backend; print the solutions in "
        "FlatZinc's output format: ---------- after each, ========== when the search is "
        "complete, =====UNSATISFIABLE=====, =====UNKNOWN=====.",
    )
    add_options(parser)
    parser.set_defaults(run=run)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.fzn")
    parser.add_argument("-a", "--all-solutions", action="store_true", dest="all",
                        help="print every solution")
    parser.add_argument("-n", "--num-solutions", type=_count, metavar="N", dest="number",
                        help="print at most N solutions")
    parser.add_argument("-t", "--time-limit", type=positive_int, metavar="MS", dest="time",
                        help="stop after MS milliseconds")
    parser.add_argument("-s", "--statistics", action="store_true", dest="statistics",
                        help="print statistics (%%%%%%mzn-stat: lines)")
    parser.add_argument("-f", "--free-search", action="store_true", help="(ignored)")
    parser.add_argument("-p", "--parallel", type=positive_int, metavar="N", help="(ignored)")
    parser.add_argument("-r", "--random-seed", type=int, metavar="SEED", help="(ignored)")
    parser.add_argument("-i", "--intermediate", action="store_true", help="(ignored)")
    parser.add_argument("--ignore-objective", action="store_true",
                        help="solve the constraints of a minimize/maximize model (else it "
                        "is refused)")
    backends_help(parser, parser.add_argument("--backend", default="auto"),
                  "one of: auto, {backends} (default: auto)")


def _count(text: str) -> int:
    from csp.commands._common import solution_limit

    return solution_limit(text)


def run(args: argparse.Namespace) -> int:
    import csp
    from csp.io.flatzinc import read_program
    from csp.io.flatzinc.output import (
        COMPLETE,
        SEPARATOR,
        UNKNOWN,
        UNSATISFIABLE,
        solution_text,
    )

    program = read_program(args.file, ignore_objective=args.ignore_objective)
    limit = None if args.all else (args.number or 1)
    time_limit = args.time / 1000 if args.time is not None else None
    over = program.output_variables() if program.free() else None
    if over == []:  # nothing printed varies: one solution says everything
        limit = 1
    search = csp.solutions(program.model, args.backend, limit=limit, time_limit=time_limit,
                           over=over or None)
    found = 0
    out = sys.stdout
    try:
        for solution in search:
            text = solution_text(program, solution)
            out.write((text + "\n" if text else "") + SEPARATOR + "\n")
            out.flush()
            found += 1
    except KeyboardInterrupt:
        search.close()
        return 130
    status = search.status
    if over == [] and found:
        status = Status.COMPLETE
    if status is Status.COMPLETE:
        out.write((COMPLETE if found else UNSATISFIABLE) + "\n")
    elif not found:
        out.write(UNKNOWN + "\n")
    if args.statistics:
        stats = search.stats
        out.write(f"%%%mzn-stat: solutions={found}\n%%%mzn-stat: solveTime={stats.time:.3f}\n")
        if stats.nodes is not None:
            out.write(f"%%%mzn-stat: nodes={stats.nodes}\n")
        out.write("%%%mzn-stat-end\n")
    return 130 if status is Status.INTERRUPTED else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The console script `fzn-csp`: `csp fzn` under the name MiniZinc's
    solvers have (fzn-gecode, fzn-chuffed)."""
    parser = argparse.ArgumentParser(prog="fzn-csp", description=__doc__.splitlines()[0])
    add_options(parser)
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        return run(args)
    except (InputError, BackendUnavailable) as err:
        print(f"fzn-csp: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
