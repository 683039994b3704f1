#!/usr/bin/env python
"""For puzzle authors (issue 26): generating, rating, explaining.

    python bench/bench_authors.py [--only generate rate why] [--kinds K ...] [--count N]
                                  [--seed S] [--time-limit T]

1. generate: `csp.generate` of each kind that makes puzzles, at its default
   size and each difficulty: CPU and wall seconds per puzzle, solutions
   drawn per puzzle, and every puzzle proven unique again by a complete count
   on a second backend (CP-SAT, else dlx). Sudoku 9x9 makes 100 at each
   difficulty (`--count`), the others a tenth of that.
2. rate: every puzzle of the shared sudoku collections rated; per collection
   the puzzles at each level, the mean and median score, and Spearman's rank
   correlation of the score with the nodes of two plain searches: dlx
   (Algorithm X, fewest options first, on the exact cover) and bitmask with
   every technique off (singles and fewest values first, no restarts),
   each counting to 2; then the puzzles of Sukaku Explainer's published
   grades (tests/data/sudoku/sudoku_exchange_rated.txt): the levels per
   grade band and the rank correlation of the score with the grade.
3. why: `explain_uniqueness` on the puzzles of tests/data known to have
   several solutions: solutions found, cells named, givens proposed, seconds.

Prints markdown for bench/RESULTS.md, with the load average.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from pathlib import Path

import csp
from csp import problems, rating
from csp.backends.bitmask import BitmaskBackend
from csp.bench.measure import spearman

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CSP_DATA", ROOT / "tests" / "data"))
KINDS = ("sudoku", "latin", "futoshiki", "killer", "kenken", "kakuro", "shikaku", "nonogram",
         "starbattle", "skyscrapers")


def second_backend() -> str:
    return "cpsat" if "cpsat" in csp.backends.available() else "dlx"


def generate(count: int, seed: str, limit: float, kinds: tuple[str, ...] = KINDS) -> None:
    second = second_backend()
    print(f"### Generating (count {count} for sudoku 9x9, {max(count // 10, 2)} for the others, "
          f"seed {seed!r}; unique proven again on {second})\n")
    print("| kind | size | difficulty | made | CPU s/puzzle | wall s/puzzle | median wall | "
          "solutions drawn | proven on a 2nd backend |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in kinds:
        kind = problems.get(name)
        difficulties: list[str | None] = [None, *rating.DIFFICULTIES]
        if "model" not in kind.forms:
            difficulties = [None, "easy", "extreme"]
        n = count if name == "sudoku" else max(count // 10, 2)
        for difficulty in difficulties:
            started, cpu = time.perf_counter(), time.process_time()
            try:
                made = list(csp.generate(kind, None, count=n, seed=seed, difficulty=difficulty,
                                         time_limit=limit))
            except csp.InputError as err:
                print(f"| {name} | default | {difficulty or 'any'} | - | {err} | | | | |")
                continue
            spent, cpu = time.perf_counter() - started, time.process_time() - cpu
            seconds = [m.seconds for m in made]
            proven = sum(_proven(kind, m.puzzle, second) for m in made)
            size = kind.maker.sizes.rsplit("default ", 1)[-1]
            print(f"| {name} | {size} | {difficulty or 'any'} | {len(made)}/{n} | "
                  f"{cpu / max(len(made), 1):.3f} | {spent / max(len(made), 1):.3f} | "
                  f"{statistics.median(seconds) if seconds else math.nan:.3f} | "
                  f"{sum(m.attempts for m in made) / max(len(made), 1):.1f} | "
                  f"{proven}/{len(made)} |", flush=True)
    print()


def _proven(kind, puzzle, backend: str) -> bool:
    problem = kind.declare(puzzle, "model" if "model" in kind.forms else None)
    result = csp.count(problem, backend)
    return result.count == 1 and result.status is csp.Status.COMPLETE


PLAIN = BitmaskBackend(matching=False, locked=False, probe=False, wdeg="off", places=False,
                       restarts=0)


def rate() -> None:
    kind = problems.get("sudoku")
    print("### Rating the shared sudoku collections\n")
    print("| collection | puzzles | singles | intersections | subsets | probing | search | "
          "mean score | median | s/puzzle | Spearman vs dlx nodes | vs plain bitmask nodes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in ("royle_17clue_sample1000.txt", "michael404_9x9.txt", "norvig_top95.txt",
                 "norvig_hardest.txt", "magictour_top1465.txt"):
        lines = [line.split()[0] for line in (DATA / "sudoku" / name).read_text().splitlines()
                 if line.strip()]
        ratings, dlx_nodes, plain_nodes = [], [], []
        started = time.perf_counter()
        for line in lines:
            [puzzle] = kind.parse(line)
            ratings.append(rating.rate(rating.model_of(kind, puzzle)))
        spent = time.perf_counter() - started
        for line in lines:
            [puzzle] = kind.parse(line)
            dlx_nodes.append(csp.count(kind.declare(puzzle), "dlx", limit=2).stats.nodes)
            plain_nodes.append(csp.count(kind.declare(puzzle, "model"), PLAIN,
                                         limit=2).stats.nodes)
        scores = [r.score for r in ratings]
        levels = [sum(r.level == level for r in ratings) for level in rating.LEVELS]
        print(f"| {name} | {len(lines)} | {' | '.join(map(str, levels))} | "
              f"{statistics.mean(scores):.2f} | {statistics.median(scores):.2f} | "
              f"{spent / len(lines):.4f} | {spearman(scores, dlx_nodes):.2f} | "
              f"{spearman(scores, plain_nodes):.2f} |", flush=True)
    print()
    published()


def published() -> None:
    """The rating against Sukaku Explainer's grades of the Sudoku Exchange bank."""
    kind = problems.get("sudoku")
    rows = [line.split() for line in
            (DATA / "sudoku" / "sudoku_exchange_rated.txt").read_text().splitlines()]
    bands = ("<1.5", "<2.5", "2.5-2.9", "3.0-3.9", "4.0-4.9", "5.0-5.9", "6.0-6.9", "7.0-7.9",
             "8.0-9.3")
    table = {band: dict.fromkeys(rating.LEVELS, 0) for band in bands}
    grades, scores = [], []
    started = time.process_time()
    for text, grade in rows:
        [puzzle] = kind.parse(text)
        found = rating.rate(rating.model_of(kind, puzzle))
        value = {"<1.5": 1.2, "<2.5": 2.0}.get(grade) or float(grade)
        band = grade if grade.startswith("<") else next(
            b for b in bands[2:] if value <= float(b.split("-")[1]))
        table[band][found.level or "search"] += 1
        grades.append(value)
        scores.append(found.score)
    spent = time.process_time() - started
    print("### Against a published scale: Sukaku Explainer's grades "
          "(tests/data/sudoku/sudoku_exchange_rated.txt)\n")
    print(f"{len(rows)} puzzles, {spent / len(rows):.4f} CPU s each to rate.\n")
    print("| SE grade | puzzles | " + " | ".join(rating.LEVELS) + " |")
    print("|---|---|" + "---|" * len(rating.LEVELS))
    for band, levels in table.items():
        print(f"| {band} | {sum(levels.values())} | "
              + " | ".join(str(levels[level]) for level in rating.LEVELS) + " |")
    graded = [i for i, (text, grade) in enumerate(rows) if not grade.startswith("<")]
    alone = spearman([grades[i] for i in graded], [scores[i] for i in graded])
    print(f"\nSpearman's rank correlation of the score with the SE grade: "
          f"{spearman(grades, scores):.2f} over all {len(rows)} (the buckets <1.5 and <2.5 "
          f"counted as 1.2 and 2.0), {alone:.2f} over the {len(graded)} with a per-puzzle "
          f"grade (2.5 to 9.3).\n")


def why() -> None:
    print("### Why not unique: the puzzles of tests/data with several solutions\n")
    print("| puzzle | solutions found | first two differ in | fewest | givens proposed | "
          "all make it unique (limit 2, on a 2nd backend) | seconds |")
    print("|---|---|---|---|---|---|---|")
    second = second_backend()
    cases = []
    special = json.loads((DATA / "sudoku" / "sudoku9_special.json").read_text())
    for entry in special["puzzles"]:
        if entry["solution_count"] > 1:
            cases.append((entry["name"], "sudoku", entry["puzzle"], {}))
    large = json.loads((DATA / "sudoku" / "sudoku_large.json").read_text())
    for entry in large["puzzles"]:
        if "solution_count_at_least" in entry:
            cases.append((entry["name"], "sudoku", entry["puzzle"], {"symbols": entry["symbols"]}))
    for name in ("shikaku", "kakuro"):
        data = json.loads((DATA / name / f"{name}.json").read_text())
        for entry in data["puzzles"]:
            if entry.get("solution_count", 1) > 1:
                if name == "shikaku":
                    text = f"{entry['cols']} {entry['rows']}\n" + "\n".join(
                        row.replace(".", "0") for row in entry["grid"])
                else:
                    text = "\n".join(entry["grid"])
                cases.append((entry["name"], name, text, {}))
    for label, name, text, options in cases:
        kind = problems.get(name)
        [puzzle] = problems.read(kind, text, **options)
        started = time.perf_counter()
        explained = problems.explain_uniqueness(kind, puzzle)
        spent = time.perf_counter() - started
        found = f"{explained.count}" + ("" if explained.complete else "+")
        fewest = len(explained.smallest[2]) if explained.smallest else "-"
        givens = "; ".join(str(len(g.cells)) for g in explained.givens) or "none (no givens)"
        proven = all(_proven(kind, g.puzzle, second) for g in explained.givens)
        print(f"| {label} | {found} | {len(explained.differing)} cells | {fewest} | "
              f"{givens} | {'yes' if proven else 'NO'} | {spent:.2f} |", flush=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=("generate", "rate", "why"),
                        default=["generate", "rate", "why"])
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        help="the kinds to generate (default all that can)")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--time-limit", type=float, default=300,
                        help="seconds for each kind and difficulty (default 300)")
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    if "generate" in args.only:
        generate(args.count, args.seed, args.time_limit, tuple(args.kinds))
    if "rate" in args.only:
        rate()
    if "why" in args.only:
        why()


if __name__ == "__main__":
    main()
