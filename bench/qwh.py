"""Quasigroup-with-holes instances, made here from a seed: fresh hard Latin
square completions that nothing was ever tuned on.

The method is the one of the QWH benchmarks (Achlioptas, Gomes, Kautz and
Selman, "Generating satisfiable problem instances", AAAI 2000): a Latin
square drawn (nearly) uniformly by Jacobson and Matthews' Markov chain
("Generating uniformly distributed random Latin squares", J. Combin. Des.
1996), then `holes` cells are blanked. Every instance so made has a solution
(the square). By default the holes are balanced, the same number in every
row and column (Kautz et al. 2001): with uniform holes, orders 25 and 30
gave only easy instances (230 to 400 holes), where balanced ones of order 30
with 330 holes take CP-SAT 0.1 to 40 s (bench/RESULTS.md, issue 28).

    python bench/qwh.py 30 330 --seeds 100-107     # print them as JSON

>>> grid = square(6, random.Random(1))
>>> all(sorted(row) == list(range(6)) for row in grid)
True
>>> all(sorted(col) == list(range(6)) for col in zip(*grid))
True
>>> sum(v < 0 for row in instance(6, 10, 1)["grid"] for v in row)
10
"""

from __future__ import annotations

import argparse
import json
import random
from typing import TypedDict

import numpy as np

REPORTED = {(30, 330): "100-107,200-207,300-307,400-407,500-507,600-607",
            (30, 315): "700-1239"}
"""Seeds of balanced instances (order, holes) reported on as never run
before (bench/RESULTS.md): never to be tuned on (bench_learning_tune.py
refuses them). The next report takes seeds from 700 on (1240 for 315 holes)."""

TUNED = {(30, 330): "0-49,1000-1029", (30, 360): "0-4", (30, 315): "0-139"}
"""Seeds tuned on so far: never to be reported on as unseen."""


def reported(n: int, holes: int, chosen: list[int]) -> list[int]:
    """The seeds of `chosen` already reported on for order n with `holes`.

    >>> reported(30, 330, [7, 104, 105, 700])
    [104, 105]
    """
    done = set(seeds(REPORTED.get((n, holes), "")))
    return [seed for seed in chosen if seed in done]


MOVES = 8
"""Moves of the chain, times n^3: it is believed (and seen) to mix in O(n^3)
moves (Jacobson and Matthews)."""


def square(n: int, rng: random.Random) -> list[list[int]]:
    """A random Latin square of order n (values 0..n-1), by Jacobson and
    Matthews' chain from the cyclic square, MOVES * n^3 moves."""
    # cube[r, c, s] = 1 if cell (r, c) holds s; an improper square has one -1.
    if n < 3:  # (no move leaves the square of order 1; order 2 has two squares)
        flip = n == 2 and rng.random() < 0.5
        return [[(r + c + flip) % n for c in range(n)] for r in range(n)]
    cube = np.zeros((n, n, n), dtype=np.int8)
    for r in range(n):
        for c in range(n):
            cube[r, c, (r + c) % n] = 1
    improper: tuple[int, int, int] | None = None
    moves = MOVES * n ** 3
    done = 0
    while done < moves or improper is not None:
        if improper is None:
            while True:
                r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
                if cube[r, c, s] == 0:
                    break
            s2 = int(np.flatnonzero(cube[r, c, :] == 1)[0])
            c2 = int(np.flatnonzero(cube[r, :, s] == 1)[0])
            r2 = int(np.flatnonzero(cube[:, c, s] == 1)[0])
        else:
            r, c, s = improper
            s2 = rng.choice([int(k) for k in np.flatnonzero(cube[r, c, :] == 1)])
            c2 = rng.choice([int(k) for k in np.flatnonzero(cube[r, :, s] == 1)])
            r2 = rng.choice([int(k) for k in np.flatnonzero(cube[:, c, s] == 1)])
        # The +-1 move on the 2x2x2 sub-cube (r, r2) x (c, c2) x (s, s2).
        cube[r, c, s] += 1
        cube[r, c2, s2] += 1
        cube[r2, c, s2] += 1
        cube[r2, c2, s] += 1
        cube[r, c, s2] -= 1
        cube[r, c2, s] -= 1
        cube[r2, c, s] -= 1
        cube[r2, c2, s2] -= 1
        improper = (r2, c2, s2) if cube[r2, c2, s2] < 0 else None
        done += 1
    return [[int(np.flatnonzero(cube[r, c, :] == 1)[0]) for c in range(n)] for r in range(n)]


class Instance(TypedDict):
    """A quasigroup with holes, as the puzzles of tests/data/latin/qcp.json."""

    name: str
    n: int
    grid: list[list[int]]  # the values, -1 for a hole


class Made(Instance):
    """An instance made from a known square (`instance`)."""

    solution: list[list[int]]


def instance(n: int, holes: int, seed: int, balanced: bool = True) -> Made:
    """Instance `seed` of order n with `holes` blank cells (-1), as the
    puzzles of tests/data/latin/qcp.json; "solution" is the square it was
    made from. `balanced`: every row and column has the same number of holes
    (holes // n, then one more in holes % n rows), the cells where a second
    random square holds its smallest values, which makes them much harder
    (Kautz et al., "Balance and filtering in structured satisfiable
    problems", IJCAI 2001); else the holes are uniform."""
    rng = random.Random(f"qwh-{n}-{holes}-{seed}{'-b' if balanced else ''}")
    solution = square(n, rng)
    if balanced:
        mask = square(n, rng)
        k, extra = divmod(holes, n)
        rows = set(rng.sample(range(n), extra))
        blank = {r * n + c for r in range(n) for c in range(n)
                 if mask[r][c] < k or (r in rows and mask[r][c] == k)}
    else:
        blank = set(rng.sample(range(n * n), holes))
    grid = [[-1 if r * n + c in blank else solution[r][c] for c in range(n)] for r in range(n)]
    name = f"{'b' if balanced else ''}qwh-{n}-{holes}-{seed}"
    return {"name": name, "n": n, "grid": grid, "solution": solution}


def qcp(n: int, holes: int, seed: int) -> Instance:
    """Quasigroup completion instance `seed` (Gomes and Selman, "Problem
    structure in the presence of perturbations", AAAI 1997), as
    minizinc-benchmarks' QCP: n * n - holes cells are preassigned one by one,
    each a random cell and a random value left to it by forward checking
    (an assignment that empties another cell's values is taken back). It may
    have no solution: a cell whose every value was taken back stays a hole.
    ValueError if more than `holes` cells are left so.

    >>> sum(v < 0 for row in qcp(12, 40, 3)["grid"] for v in row)
    40
    """
    rng = random.Random(f"qcp-{n}-{holes}-{seed}")
    grid = [[-1] * n for _ in range(n)]
    values = [[set(range(n)) for _ in range(n)] for _ in range(n)]
    open_ = [(r, c) for r in range(n) for c in range(n)]
    stuck = 0  # holes left with no value (the instance has no solution)
    while len(open_) + stuck > holes:
        if not open_:
            raise ValueError(f"qcp {n}:{holes}:{seed}: forward checking left {stuck} cells "
                             f"without a value, more than the {holes} holes")
        r, c = open_[rng.randrange(len(open_))]
        if not values[r][c]:
            open_.remove((r, c))
            stuck += 1
            continue
        v = rng.choice(sorted(values[r][c]))
        peers = [(r, k) for k in range(n) if k != c] + [(k, c) for k in range(n) if k != r]
        if any(grid[a][b] < 0 and values[a][b] == {v} for a, b in peers):
            values[r][c].discard(v)  # it would empty a peer: never tried again here
            continue
        grid[r][c] = v
        open_.remove((r, c))
        for a, b in peers:
            values[a][b].discard(v)
    return {"name": f"gen-qcp-{n}-{holes}-{seed}", "n": n, "grid": grid}


def renamed(grid: list[list[int]], k: int) -> list[list[int]]:
    """Copy k of `grid` with its rows, columns and symbols renamed at random
    (copy 0: `grid` itself): the same puzzle, with as many completions, to a
    solver that does not depend on names; the search of one that breaks
    ties by the order of declaration does, and so may its time (its spread
    over copies: bench_learning_tune.py --renamed).

    >>> grid = instance(6, 10, 1)["grid"]
    >>> renamed(grid, 0) == grid
    True
    >>> copy = renamed(grid, 1)
    >>> copy != grid and renamed(grid, 1) == copy  # (a copy is always the same)
    True
    >>> holes = lambda g: sorted(sum(v < 0 for v in row) for row in g)
    >>> holes(copy) == holes(grid) and holes(zip(*copy)) == holes(zip(*grid))
    True
    """
    if k == 0:
        return grid
    rng = random.Random(1000 + k)
    n = len(grid)
    rows, cols, symbols = list(range(n)), list(range(n)), list(range(n))
    for names in (rows, cols, symbols):
        rng.shuffle(names)
    return [[-1 if grid[r][c] < 0 else symbols[grid[r][c]] for c in cols] for r in rows]


def spec(text: str) -> tuple[int, int, list[int]]:
    """'N:HOLES:SEEDS' (the scripts' `--qwh` and `--qcp`) as (order, holes,
    seeds); ValueError if it is not that.

    >>> spec("30:330:0-2,7")
    (30, 330, [0, 1, 2, 7])
    """
    n, holes, chosen = text.split(":")
    return int(n), int(holes), seeds(chosen)


def seeds(text: str) -> list[int]:
    """'0-9' or '3' or '1,4,7-8' as a list of seeds ('' for none)."""
    out: list[int] = []
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("holes", type=int)
    parser.add_argument("--seeds", default="0-9")
    parser.add_argument("--qcp", action="store_true",
                        help="quasigroup completion (may be unsatisfiable)")
    args = parser.parse_args()
    make = qcp if args.qcp else instance
    print(json.dumps({"puzzles": [make(args.n, args.holes, s) for s in seeds(args.seeds)]}))


if __name__ == "__main__":
    main()
