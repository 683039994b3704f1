"""Tuning `bitmask`'s learning (issue 28) on the tuning set only: option
dictionaries of `BitmaskBackend` compared by PAR2, and CP-SAT (one worker)
under parameter variants, on the same instances.

The tuning set (bench_learning.py, "Tuned on what you can see" in DESIGN.md):
the tuning half of the large sudokus (`--sudokus`, counted), that half's
36x36 minimal1 with one clue blanked (`--blanked`, counted; its own
sudokus never reach learning; `--blanked-from` another of the half, with
as many clues blanked as given), and balanced
quasigroups with holes made from seeds (`--qwh`, first solutions; by default
bqwh-30-330 seeds 0-19 and bqwh-30-360 seeds 0-4; `--qwh-count`, counted,
as a count's restarts are chosen apart). The held-out sets are
not built in, and seeds once reported on (`qwh.REPORTED`) are refused by
`--qwh`: report on fresh seeds with bench_learning.py, once, and add them
there. Seeds tuned on are listed in `qwh.TUNED`.

    python bench/bench_learning_tune.py --config "{}" --config "{'learn_restart': 50}"
    python bench/bench_learning_tune.py --qwh 30:330:0-19 --cpsat "{}" \\
        --cpsat "{'cp_model_probing_level': 0}" --cpsat "{'cp_model_presolve': False}"
    python bench/bench_learning_tune.py --blanked 0,4,5 --cpsat "{'restart_algorithms': [0]}"
    python bench/bench_learning_tune.py --qwh 30:330:0-19 --backend sat
    python bench/bench_learning_tune.py --blanked --config "{}" --cpsat "{}"
    python bench/bench_learning_tune.py --blanked 0-5 --blanked-from \\
        michael404-TestData36-puzzel1:8 --limit 20 --config "{}"
    python bench/bench_learning_tune.py --qwh-count 30:315:0-39 --config "{}" \\
        --config "{'restart_margin': 0}"
    python bench/bench_learning_tune.py --qwh-count 30:315:0-7,9-15,17-39 --renamed 3 \\
        --limit 20 --config "{}" --cpsat "{}"

A row per configuration: PAR2 (a timeout counts twice the limit), the
geometric mean of the seconds (a timeout as twice the limit), timeouts, and
conflicts in all; then the seconds per instance, in order; then the work a
conflict costs over all runs (timeouts too): CPU microseconds, and for
`bitmask` the propagator runs (of which the all-differents' strong
reasoning), for CP-SAT the Boolean and integer propagations. `--backend
NAME` runs any backend of this process with its defaults, through
`csp.solutions` (first solutions) or `csp.count`: the whole call, its
compilation too. CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import ast
import math
import time
from typing import Any

import qwh  # (bench/qwh.py, beside this script)
from bench_learning import (
    BLANKED_FROM,
    BLANKED_SEEDS,
    TUNING,
    _bitmask,
    backend_run,
    blanked,
    blanked_text,
    quasigroups,
    sudokus,
)

from csp import Model, backends
from csp.backends.bitmask import BitmaskBackend
from csp.bench import measure
from csp.bench.solvers import cpsat_counter

DEFAULT_QWH = ("30:330:0-19", "30:360:0-4")
"""The quasigroups of the tuning set since stop 33 (bench/RESULTS.md)."""


def instances(specs: list[str], with_sudokus: bool, blanked_seeds: tuple[int, ...] = (),
              counted: tuple[str, ...] = (), blanked_from: tuple[str, int] = (BLANKED_FROM, 1),
              renamed: int = 0) -> list[tuple[str, Model, bool]]:
    """(name, model, first solution only) for each instance of the tuning set:
    the quasigroups of `specs` solved to a first solution, those of `counted`
    counted (each followed by `renamed` copies under other names), the
    sudokus counted (`blanked_from`: the tuning sudoku and how many of its
    clues the blanked ones lose)."""
    chosen: list[tuple[str, Model, bool]] = []
    if with_sudokus:
        chosen += [(name, m, False) for name, m in sudokus(TUNING)]
    chosen += [(*blanked(seed, *blanked_from), False) for seed in blanked_seeds]
    return chosen + quasigroups(specs, True, renamed) + quasigroups(counted, False, renamed)


def _unseen(spec: str) -> str | None:
    """Why `--qwh` spec N:HOLES:SEEDS is not for tuning (malformed, or seeds
    reported on as unseen), or None."""
    try:
        order, blanks, made = qwh.spec(spec)
    except ValueError:
        return "not N:HOLES:SEEDS, e.g. 30:330:0-19"
    if not made:
        return "no seeds"
    done = qwh.reported(order, blanks, made)
    if done:
        which = (f"seed {done[0]} was" if len(done) == 1
                 else f"seeds {','.join(map(str, done))} were")
        return (f"{which} reported on as never run (qwh.REPORTED, bench/RESULTS.md): "
                "tuning must not see them")
    return None


def refuse_untunable(parser: argparse.ArgumentParser, first: list[str],
                     counted: list[str]) -> None:
    """Exit through `parser.error` at the first quasigroup spec, of `--qwh`
    (`first`) or `--qwh-count` (`counted`), that is not for tuning (`_unseen`)."""
    for flag, spec in [("--qwh", spec) for spec in first] + \
            [("--qwh-count", spec) for spec in counted]:
        why = _unseen(spec)
        if why:
            parser.error(f"{flag} {spec}: {why}")


def _options(text: str) -> dict[str, Any]:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        value = None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"a Python dict, not {text!r}")
    return value


def _cpsat(model: Model, limit: float, first: bool, parameters: dict[str, Any]
           ) -> tuple[float, str, int, int, int]:
    """CP-SAT, one worker, under `parameters`: (CPU s, answer, conflicts,
    Boolean propagations, integer propagations); a
    first solution is checked against the model; a count runs under the
    parameters with which CP-SAT enumerates every solution (ENUMERATION)."""
    from ortools.sat.python import cp_model

    from csp.backends.cpsat import ENUMERATION, compile_problem

    compiled = compile_problem(model)
    solver = _parameters({"max_time_in_seconds": limit, **({} if first else ENUMERATION),
                          **parameters})
    counter = cpsat_counter()
    started = time.process_time()
    status = solver.solve(compiled.model, None if first else counter)
    seconds = time.process_time() - started
    if first and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        answer = "WRONG" if model.check(compiled.read(solver)) else "1st"
    elif status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        answer = "none" if first else f"{counter.found}"
    else:
        answer = "timeout"
    response = solver.response_proto
    return (seconds, answer, int(response.num_conflicts),
            int(response.num_binary_propagations), int(response.num_integer_propagations))


def _in_process(name: str) -> str | None:
    """Why backend `name` cannot be timed here, or None."""
    if name not in backends.available():
        return f"not an available backend (available: {', '.join(backends.available())})"
    entry = backends.entry(name)
    if name == "race" or entry.program:
        return "runs in other processes, whose CPU this process does not see"
    return None


def _parameters(parameters: dict[str, Any]) -> Any:
    """A CP-SAT solver of one worker under `parameters` (AttributeError for
    an unknown one, TypeError or ValueError for a value of the wrong kind).
    A list sets a repeated parameter: `{'restart_algorithms': [0]}` (the
    numbers of SatParameters' enums; 0: NO_RESTART, 1: LUBY_RESTART)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    for key, value in parameters.items():
        if isinstance(value, list):  # (a repeated field has no setter)
            field = getattr(solver.parameters, key)
            field.clear()
            field.extend(value)
        else:
            setattr(solver.parameters, key, value)
    return solver


def summary(label: str, runs: list[tuple[float, str, int]], limit: float) -> str:
    """PAR2, geometric mean, timeouts and conflicts of one configuration."""
    seconds = [2 * limit if answer == "timeout" else s for s, answer, _ in runs]
    geometric = math.exp(sum(math.log(max(s, 0.01)) for s in seconds) / len(seconds))
    timeouts = sum(answer == "timeout" for _, answer, _ in runs)
    conflicts = sum(c for _, _, c in runs)
    counted = f"{conflicts:,} conflicts" if conflicts else "no conflicts (or none reported)"
    return (f"{label}: PAR2 {sum(seconds):.1f} s, geometric mean {geometric:.2f} s, "
            f"{timeouts} timeouts, {counted}\n    "
            + " ".join("timeout" if a == "timeout" else f"{s:.2f}" for s, a, _ in runs))


def per_conflict(seconds: float, conflicts: int, **counts: int) -> str:
    """The work of one conflict: microseconds and each of `counts`."""
    per = max(conflicts, 1)
    return (f"    a conflict: {1e6 * seconds / per:.0f} us, "
            + ", ".join(f"{n / per:.1f} {what.replace('_', ' ')}" for what, n in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qwh", action="append", metavar="N:HOLES:SEEDS",
                        help=f"quasigroups with holes of bench/qwh.py (repeatable; default "
                             f"{' '.join(DEFAULT_QWH)})")
    parser.add_argument("--qwh-count", action="append", default=[], metavar="N:HOLES:SEEDS",
                        help="quasigroups with holes of bench/qwh.py, counted (repeatable; "
                             "without --qwh, instead of the default quasigroups)")
    parser.add_argument("--renamed", type=int, default=0, metavar="K",
                        help="after each quasigroup, K copies of it with rows, columns and "
                             "symbols renamed (qwh.renamed: NAME/r1 ...): a solver's spread "
                             "over the same puzzle")
    parser.add_argument("--sudokus", action="store_true",
                        help="also the tuning half of the large sudokus, counted")
    parser.add_argument("--blanked", nargs="?", const=",".join(map(str, BLANKED_SEEDS)),
                        default="", metavar="SEEDS",
                        help="the tuning half's 36x36 minimal1 with one clue blanked, for "
                             "each seed (as 0,4,5 or 0-9; default "
                             f"{','.join(map(str, BLANKED_SEEDS))}), counted; without "
                             "--qwh, instead of the default quasigroups")
    parser.add_argument("--blanked-from", default=f"{BLANKED_FROM}:1", metavar="NAME:CLUES",
                        help="the tuning half's sudoku that --blanked blanks, and how many "
                             "clues (default %(default)s; a second sudoku set since stop 55: "
                             "michael404-TestData36-puzzel1:8)")
    parser.add_argument("--config", action="append", type=_options, default=[],
                        metavar="DICT", help="BitmaskBackend options (repeatable)")
    parser.add_argument("--cpsat", action="append", type=_options, default=[],
                        metavar="DICT", help="CP-SAT parameters, one worker (repeatable)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help="a backend of this process with its defaults (repeatable)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per run")
    args = parser.parse_args()
    if not args.config and not args.cpsat and not args.backend:
        parser.error("give at least one --config, --cpsat or --backend")
    for name in args.backend:
        why = _in_process(name)
        if why:
            parser.error(f"--backend {name}: {why}")
    for options in args.config:  # a misspelt option fails here, not after an hour
        try:
            BitmaskBackend(**options)
        except (TypeError, ValueError) as err:
            parser.error(f"--config {options}: {err}")
    for parameters in args.cpsat:
        try:
            _parameters(parameters)
        except (AttributeError, TypeError, ValueError) as err:
            parser.error(f"--cpsat {parameters}: {err}")
    refuse_untunable(parser, args.qwh or [], args.qwh_count)
    try:
        seeds = tuple(qwh.seeds(args.blanked))
    except ValueError:
        parser.error(f"--blanked {args.blanked}: not seeds, e.g. 0,4,5 or 0-9")
    name, colon, clues = args.blanked_from.rpartition(":")
    if not colon or not clues.isdigit():
        parser.error(f"--blanked-from {args.blanked_from}: not NAME:CLUES, e.g. "
                     f"michael404-TestData36-puzzel1:8")
    try:
        blanked_from = (name, int(clues))
        blanked_text(0, *blanked_from)  # (a reported sudoku, or too many clues, refused here)
    except ValueError as err:
        parser.error(f"--blanked-from {args.blanked_from}: {err}")
    specs = args.qwh if args.qwh is not None else [] if seeds or args.qwh_count \
        else list(DEFAULT_QWH)
    if args.renamed < 0:
        parser.error(f"--renamed {args.renamed}: a number of copies, 0 or more")
    chosen = instances(specs, args.sudokus, seeds, tuple(args.qwh_count), blanked_from,
                       args.renamed)
    print(measure.header(f"bench_learning_tune: {len(chosen)} tuning instances, "
                         f"{args.limit:g} s limit; CPU s"))
    print("instances: " + " ".join(name for name, _, _ in chosen))
    for options in args.config:
        runs = []
        propagations = strong = 0
        for name, m, first in chosen:
            seconds, answer, _, conflicts, extra = _bitmask(m, args.limit, first, **options)
            if answer == "WRONG":
                raise SystemExit(f"{name}: a wrong solution with {options}")
            runs.append((seconds, answer, conflicts))
            propagations += extra.get("propagations", 0)
            strong += extra.get("strong", 0)
        print(summary(f"bitmask {options}", runs, args.limit))
        print(per_conflict(sum(r[0] for r in runs), sum(r[2] for r in runs),
                           propagator_runs=propagations, of_them_strong=strong), flush=True)
    for parameters in args.cpsat:
        runs = []
        boolean = integer = 0
        for name, m, first in chosen:
            seconds, answer, conflicts, binary, other = _cpsat(m, args.limit, first, parameters)
            if answer == "WRONG":
                raise SystemExit(f"{name}: a wrong solution from CP-SAT with {parameters}")
            runs.append((seconds, answer, conflicts))
            boolean += binary
            integer += other
        print(summary(f"cpsat {parameters}", runs, args.limit))
        print(per_conflict(sum(r[0] for r in runs), sum(r[2] for r in runs),
                           Boolean_propagations=boolean, integer_propagations=integer),
              flush=True)
    for name in args.backend:
        runs = []
        for instance, m, first in chosen:
            run = backend_run(m, args.limit, first, name)
            if run[1] == "WRONG":
                raise SystemExit(f"{instance}: a wrong solution from {name}")
            runs.append(run)
        print(summary(f"{name} (its defaults)", runs, args.limit), flush=True)


if __name__ == "__main__":
    main()
