"""`csp rate KIND FILE`: how hard each puzzle of a file is for a person.

One line per puzzle: its difficulty and the weakest rung of deductions that
solves it without a guess (`easy (singles)`, `extreme (search, 1,234
nodes)`; docs/authors.md and `csp.rating`), or why it is not rated (no
solution, or several). `--json`: one object per puzzle. Exit status: 0 every
puzzle rated, 1 one has no solution or several, 3 `--time-limit` stopped a
rating, 2 bad input (the worst wins, as for `csp solve`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from csp.commands._common import (
    EXIT_NO_SOLUTION,
    EXIT_TIME_LIMIT,
    limit_seconds,
    most_serious,
)
from csp.errors import InputError
from csp.result import Status


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rate",
        help="rate each puzzle of a file: the weakest deductions that solve it (docs/authors.md)",
        description="Rate every puzzle of FILE (- for standard input) by the weakest rung of "
        "deductions that solves it without a guess: singles (easy), intersections (medium), "
        "subsets (hard), failed-value probing or search (extreme), each a set of the bitmask "
        "backend's techniques.",
    )
    parser.add_argument("kind", metavar="KIND")
    parser.add_argument("file", metavar="FILE", help="the input file, - for standard input")
    parser.add_argument("--time-limit", type=limit_seconds, metavar="S",
                        help="stop rating a puzzle after S seconds")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per puzzle: difficulty, level, nodes, score")
    parser.add_argument("--stats", action="store_true",
                        help="end with a summary line: puzzles by difficulty, time")
    parser.add_argument("--symbols", metavar="S", help="sudoku: the symbols in digit order")
    parser.add_argument("--boxes", metavar="RxC", help="sudoku: the box shape")
    parser.add_argument("--reflect", action="store_true",
                        help="polyomino: pieces may also be turned over")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from csp import problems
    from csp.commands.solve import _options, _text
    from csp.rating import DIFFICULTIES, model_of, rate

    kind = problems.get(args.kind)
    args.letters = None
    options = _options(kind, args)
    text, source = _text(kind, args)
    items = problems.read(kind, text, **options)
    if not items:
        raise InputError("no puzzle in the input", source=source)
    codes = []
    tally = dict.fromkeys([*DIFFICULTIES, "unrated"], 0)
    started = time.perf_counter()
    for item in items:
        if isinstance(item, InputError):
            codes.append(2)
            if args.json:
                print(json.dumps({"error": item.message, "line": item.line}))
            print(f"csp: error: {item.located(source=source)}", file=sys.stderr)
            continue
        rating = rate(model_of(kind, item), time_limit=args.time_limit)
        tally[rating.difficulty or "unrated"] += 1
        codes.append(0 if rating.level is not None else EXIT_TIME_LIMIT
                     if rating.status is Status.TIME_LIMIT else EXIT_NO_SOLUTION)
        if args.json:
            print(json.dumps({"difficulty": rating.difficulty, "level": rating.level,
                              "nodes": rating.nodes, "score": None if rating.level is None
                              else round(rating.score, 3), "solutions": rating.solutions,
                              "status": rating.status.value}))
        else:
            print(rating)
    if args.stats:
        summary = " ".join(f"{name}={count}" for name, count in tally.items())
        print(f"puzzles={len(items)} {summary} time={time.perf_counter() - started:.3f}s")
    return most_serious(codes)
