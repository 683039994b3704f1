"""Build the puzzle collections with known answers in tests/data/ for the kinds
without a public collection here (futoshiki, killer, kenken).

Each puzzle is built from a known solution (a random Latin square or sudoku
grid): clues that hold in it are added until the puzzle has one solution,
then clues are taken away one at a time, in random order, as long as it
stays unique. Every puzzle kept is then proven unique by two backends
(`bitmask` and `cpsat` each find exactly one solution with a limit of 2) and
that solution is the one it was built from. The output is deterministic for
a seed:

    python tests/make_puzzle_data.py futoshiki    # writes tests/data/futoshiki/puzzles.json
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import csp
from csp import grid

DATA = Path(__file__).resolve().parent / "data"
PROOF = ("bitmask", "cpsat")


def latin_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random Latin square: the cyclic one with rows, columns and symbols shuffled."""
    rows, cols, symbols = (rng.sample(range(n), n) for _ in range(3))
    return [[symbols[(rows[r] + cols[c]) % n] + 1 for c in range(n)] for r in range(n)]


def solutions(problem: Any, backend: str = "bitmask") -> int:
    return len(list(csp.solutions(problem, backend, limit=2)))


def minimise(clues: list[Any], build: Callable[[list[Any]], Any], rng: random.Random
             ) -> list[Any]:
    """Add clues (in random order) until unique, then drop what is not needed."""
    order = rng.sample(clues, len(clues))
    kept: list[Any] = []
    for clue in order:
        kept.append(clue)
        if solutions(build(kept)) == 1:
            break
    for clue in rng.sample(kept, len(kept)):
        trial = [c for c in kept if c != clue]
        if solutions(build(trial)) == 1:
            kept = trial
    return kept


def futoshiki(count: int = 12, seed: int = 15) -> list[dict[str, str]]:
    from csp.problems import futoshiki as kind

    rng = random.Random(seed)
    found = []
    for k in range(count):
        n = 4 + k % 4
        square = latin_square(n, rng)
        value = {(r, c): square[r][c] for r, c in grid.box(n, n)}
        clues: list[Any] = [("given", cell) for cell in value]
        for cell in value:
            for other in grid.neighbours(cell, value):
                if other > cell:
                    clues.append(("sign", tuple(sorted((cell, other), key=value.get))))

        def build(chosen: list[Any], n: int = n, value: dict = value) -> Any:
            givens = tuple(value[cell] if ("given", cell) in chosen else 0
                           for cell in grid.box(n, n))
            signs = tuple(pair for what, pair in chosen if what == "sign")
            return kind.Futoshiki(n, givens, signs)

        puzzle = build(minimise(clues, lambda c, b=build: kind.declare(b(c)), rng))
        found.append(_proven(kind, puzzle))
    return found


def sudoku_grid(n: int, rng: random.Random) -> list[list[int]]:
    """A random sudoku grid: the pattern grid with bands, stacks, the rows of a
    band, the columns of a stack and the symbols shuffled."""
    br, bc = grid.block_shape(n)
    rows = [band * br + r for band in rng.sample(range(bc), bc) for r in rng.sample(range(br), br)]
    cols = [stack * bc + c for stack in rng.sample(range(br), br)
            for c in rng.sample(range(bc), bc)]
    symbols = rng.sample(range(1, n + 1), n)
    return [[symbols[(bc * (r % br) + r // br + c) % n] for c in cols] for r in rows]


def random_cages(value: dict[grid.Cell, int], sizes: dict[int, int], rng: random.Random,
                 distinct: bool) -> list[list[grid.Cell]]:
    """A random partition into connected cages of random sizes (weights
    `sizes`), without a repeated digit in a cage when `distinct`."""
    free = set(value)
    cages = []
    for start in rng.sample(sorted(value), len(value)):
        if start not in free:
            continue
        size = rng.choices(list(sizes), weights=list(sizes.values()))[0]
        cage = [start]
        free.discard(start)
        while len(cage) < size:
            options = sorted({other for cell in cage for other in grid.neighbours(cell, free)
                              if not distinct or value[other] not in
                              {value[c] for c in cage}})
            if not options:
                break
            cage.append(rng.choice(options))
            free.discard(cage[-1])
        cages.append(sorted(cage))
    return sorted(cages)


def killer(count: int = 12, seed: int = 15) -> list[dict[str, str]]:
    from csp.problems import killer as kind
    from csp.problems.cages import Cage

    rng = random.Random(seed)
    found = []
    for k in range(count):
        n = (4, 6, 9)[k % 3]
        square = sudoku_grid(n, rng)
        value = {(r, c): square[r][c] for r, c in grid.box(n, n)}
        while True:
            cages = random_cages(value, {1: 1, 2: 4, 3: 4, 4: 2, 5: 1}, rng, distinct=True)
            if len(cages) > len(grid.LABELS):
                continue
            puzzle = kind.Killer(n, tuple(Cage(grid.LABELS[j], tuple(cells),
                                               sum(value[c] for c in cells))
                                          for j, cells in enumerate(cages)))
            if solutions(kind.declare(puzzle)) == 1:
                break
        found.append(_proven(kind, puzzle))
    return found


def kenken(count: int = 12, seed: int = 15) -> list[dict[str, str]]:
    import math

    from csp.problems import kenken as kind
    from csp.problems.cages import Cage

    rng = random.Random(seed)
    found = []
    for k in range(count):
        n = 4 + k % 3
        square = latin_square(n, rng)
        value = {(r, c): square[r][c] for r, c in grid.box(n, n)}
        while True:
            cages = random_cages(value, {1: 1, 2: 5, 3: 3, 4: 1}, rng, distinct=False)
            clues = []
            for j, cells in enumerate(cages):
                digits = sorted(value[c] for c in cells)
                ops = "" if len(cells) == 1 else "+x" if len(cells) > 2 else "+x-" + (
                    "/" if digits[1] % digits[0] == 0 else "")
                op = rng.choice(ops) if ops else ""
                target = {"": digits[0], "+": sum(digits), "x": math.prod(digits),
                          "-": digits[-1] - digits[0], "/": digits[-1] // digits[0]}[op]
                clues.append(Cage(grid.LABELS[j], tuple(cells), target, op))
            puzzle = kind.KenKen(n, tuple(clues))
            if solutions(kind.declare(puzzle)) == 1:
                break
        found.append(_proven(kind, puzzle))
    return found


def _proven(kind: Any, puzzle: Any) -> dict[str, str]:
    problem = kind.declare(puzzle)
    for backend in PROOF:
        assert solutions(problem, backend) == 1, (backend, puzzle)
    [solution] = csp.solutions(problem, PROOF[0])
    return {"puzzle": kind.format_puzzle(puzzle),
            "answer": kind.format(puzzle, kind.decode(puzzle, solution, problem))}


MAKERS = {"futoshiki": futoshiki, "killer": killer, "kenken": kenken}


def main(names: list[str]) -> None:
    for name in names or list(MAKERS):
        puzzles = MAKERS[name]()
        path = DATA / name / "puzzles.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"made_by": f"python tests/make_puzzle_data.py {name}",
                                    "proven_unique_by": list(PROOF), "puzzles": puzzles},
                                   indent=1) + "\n")
        print(f"{path}: {len(puzzles)} puzzles")


if __name__ == "__main__":
    main(sys.argv[1:])
