"""Build tests/data/{hitori,skyscrapers,starbattle}/janko.json from the
puzzlekit dataset (SmilingWayne/PuzzleSolver, `assets/data/KIND/problems/
KIND_puzzles.json` and `solutions/KIND_solutions.json`: janko.at's puzzles
with their published solutions, transcribed).

    python tests/make_janko_data.py PATH/TO/PuzzleSolver/assets/data

Selection (deterministic): the puzzles in janko.at's order (the number of
their page) whose transcription our kind reads (a few skyscrapers carry
janko's raw `[problem]` section, and star battles with `@` cells are a
variant without regions there: both are passed over), then per size the
first few (`PLAN`). Each kept puzzle's published solution must be the one
answer CP-SAT finds (limit 2); a puzzle where it is not would be reported
and dropped (none is). Each entry: `id`, `source` (its janko.at page),
`puzzle` and `solution` as the dataset has them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import csp
from csp.errors import InputError
from csp.problems import hitori, skyscrapers, starbattle

DATA = Path(__file__).resolve().parent / "data"

PLAN = {
    # kind: (dataset name, module, {size: how many})
    "hitori": ("Hitori", hitori, {"5x5": 2, "6x6": 2, "7x7": 2, "8x8": 2, "9x9": 2,
                                  "10x10": 3, "12x12": 3, "15x15": 3, "17x17": 3,
                                  "20x20": 3, "25x25": 1}),
    "skyscrapers": ("Skyscraper", skyscrapers, {"4x4": 3, "5x5": 3, "6x6": 3, "7x7": 9}),
    "starbattle": ("Starbattle", starbattle, {"5x5": 2, "6x6": 2, "7x7": 2, "8x8": 2, "9x9": 2,
                                              "10x10": 4, "11x11": 3, "12x12": 3, "13x13": 2,
                                              "14x14": 3, "15x15": 3}),
}


def page(entry: dict) -> int:
    found = re.search(r"/(\d+)\.a\.htm", entry.get("source", ""))
    return int(found.group(1)) if found else 10**9


def build(root: Path, kind: str) -> list[dict]:
    name, module, sizes = PLAN[kind]
    problems = json.loads((root / name / "problems" / f"{name}_puzzles.json").read_text())
    solutions = json.loads((root / name / "solutions" / f"{name}_solutions.json").read_text())
    taken = dict.fromkeys(sizes, 0)
    kept = []
    for key, entry in sorted(problems["puzzles"].items(), key=lambda item: page(item[1])):
        size = key.rsplit("_", 1)[-1]
        if taken.get(size, 10**9) >= sizes.get(size, 0) or key not in solutions["solutions"]:
            continue
        if "@" in entry["problem"]:
            continue
        try:
            [puzzle] = module.parse(entry["problem"])
        except InputError:
            continue
        m = module.declare(puzzle)
        found = list(csp.solutions(m, "cpsat", limit=2))
        solution = solutions["solutions"][key]["solution"]
        if len(found) != 1 or answer_grid(kind, module, puzzle, found[0], m) != solution_grid(
                solution):
            print(f"{kind} {key}: the published solution is not the one answer; dropped",
                  file=sys.stderr)
            continue
        taken[size] += 1
        kept.append({"id": key, "source": entry["source"], "puzzle": entry["problem"],
                     "solution": solution})
    return kept


def solution_grid(solution: str) -> list[list[str]]:
    return [row.split() for row in solution.splitlines()[1:]]


def answer_grid(kind: str, module, puzzle, solution, m) -> list[list[str]]:
    """Our answer in the dataset's notation."""
    answer = module.decode(puzzle, solution, m)
    if kind == "skyscrapers":
        return [[str(h) for h in row] for row in answer]
    if kind == "hitori":
        return [["x" if n is None else "-" for n in row] for row in answer]
    return [["x" if ch == "*" else "-" for ch in row] for row in answer]


def main(argv: list[str]) -> None:
    root = Path(argv[1])
    for kind in PLAN:
        kept = build(root, kind)
        out = DATA / kind / "janko.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps({"puzzles": kept}, indent=1) + "\n")
        print(f"{kind}: {len(kept)} puzzles -> {out}")


if __name__ == "__main__":
    main(sys.argv)
