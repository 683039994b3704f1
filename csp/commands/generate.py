"""`csp generate KIND`: make puzzles, each proven unique, in the kind's own
input format (docs/authors.md).

One puzzle after another on stdout (a blank line between two puzzles that
span several lines), or one JSON object per puzzle with `--json`. The exit
status is 0 when every puzzle asked for was made, 3 when `--time-limit`
stopped the run first (what was made is written, and stderr says how many),
2 for bad input or a difficulty the size cannot reach.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from csp.commands._common import EXIT_TIME_LIMIT, backends_help, limit_seconds, positive_int
from csp.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "generate",
        help="make unique puzzles of a kind, at a difficulty (docs/authors.md)",
        description="Make COUNT puzzles of KIND, each proven unique by a complete count, and "
        "write them in the kind's input format. Kinds that make puzzles: sudoku, latin, "
        "futoshiki, killer, kenken, kakuro, shikaku, nonogram, starbattle, skyscrapers (and "
        "plug-ins that declare a maker).",
        epilog="examples:\n  csp generate sudoku --count 100 --seed 1\n"
        "  csp generate sudoku --size 2x3 --difficulty hard\n"
        "  csp generate killer --size 6 --count 3 --svg pictures/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("kind", metavar="KIND")
    parser.add_argument("--size", metavar="SIZE",
                        help="the puzzle's size: sudoku N or RxC boxes, latin/futoshiki/killer/"
                        "kenken/skyscrapers n, kakuro N or RxC, shikaku/nonogram N or WxH, "
                        "starbattle N or N:K (K stars) (each kind's default otherwise: csp list)")
    parser.add_argument("--count", type=positive_int, default=1, metavar="N",
                        help="how many puzzles (default 1), all different")
    parser.add_argument("--seed", metavar="S",
                        help="make the same puzzles again, on any machine (default: a random "
                        "seed, said on stderr)")
    parser.add_argument("--difficulty", choices=("easy", "medium", "hard", "extreme"),
                        help="the weakest deductions that solve the puzzle (docs/authors.md): "
                        "easy singles, medium intersections, hard subsets, extreme probing or "
                        "search (default: any)")
    parser.add_argument("--time-limit", type=limit_seconds, metavar="S",
                        help="stop after S seconds in all, writing what was made")
    backends_help(parser, parser.add_argument("--backend", default="auto"),
                  "the backend of the uniqueness searches: auto or one of {backends}")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per puzzle: the puzzle, its rating, seconds")
    parser.add_argument("--svg", metavar="DIR",
                        help="also draw each puzzle to DIR/KIND-N.svg")
    parser.add_argument("--stats", action="store_true",
                        help="end with a summary on stderr: puzzles made, by difficulty, time")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from csp import problems
    from csp.commands import _authors
    from csp.generation import generate, seed_of

    kind = problems.get(args.kind)
    if kind.maker is None:
        from csp.generation import makers

        raise InputError(f"{kind.name} puzzles cannot be generated; the kinds that can: "
                         f"{', '.join(makers())}")
    where = None if args.svg is None else _authors.picture_directory(kind, args.svg)
    seed = seed_of(args.seed)
    gap = _authors.Gap(kind, args.json)
    started = time.perf_counter()
    made = []
    for puzzle in generate(kind, args.size, count=args.count, seed=seed,
                           difficulty=args.difficulty, time_limit=args.time_limit,
                           backend=args.backend):
        made.append(puzzle)
        if args.json:
            print(json.dumps({"number": puzzle.number, "puzzle": puzzle.text,
                              "difficulty": puzzle.rating.difficulty,
                              "level": puzzle.rating.level, "nodes": puzzle.rating.nodes,
                              "seconds": round(puzzle.seconds, 4),
                              "solutions_drawn": puzzle.attempts}))
        else:
            gap.before(puzzle.puzzle, puzzle.text)
            print(puzzle.text)
        sys.stdout.flush()
        if where is not None:
            _authors.write(kind, puzzle.puzzle, None, where, f"{kind.name}-{puzzle.number}")
    if args.seed is None:
        print(f"csp: seed {seed} (--seed {seed} makes these puzzles again)", file=sys.stderr)
    if args.stats:
        spent = time.perf_counter() - started
        mix = ", ".join(f"{d} {sum(m.rating.difficulty == d for m in made)}"
                        for d in ("easy", "medium", "hard", "extreme"))
        print(f"csp: {len(made)} {kind.name} puzzles ({mix}) in {spent:.2f}s, "
              f"{spent / max(len(made), 1):.3f}s each, each proven unique by a complete count",
              file=sys.stderr)
    if len(made) < args.count:
        aim = f"{args.difficulty} " if args.difficulty else ""
        print(f"csp: made {len(made)} of the {args.count} {aim}{kind.name} puzzles asked for "
              f"within --time-limit {args.time_limit:g}", file=sys.stderr)
        return EXIT_TIME_LIMIT
    return 0
