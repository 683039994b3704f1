"""The peers' programs for whole-process timing: each puzzle solved as a
user of the package would write it, with no csp.

    python PATH/TO/csp/bench/peer_programs.py PEER --kind sudoku|shikaku [--count]
                                              [--time-limit S] FILE

`csp.bench.solving` times these processes against `csp solve` on the same
file (the puzzles in `csp solve`'s input formats) and checks what they print
(csp's output format). The file is run by its path, never imported by the
process it runs in: its module level is the standard library alone, and it
asserts at its end that it never imported csp (the point of a peer process is
to time the peer alone). The parent imports it for `rectangles`, the
candidate rectangles of a shikaku clue that its checks share.

- `xcover`: `xcover.algorithm_c` (its numba Algorithm C, what
  `xcover.covers` calls) on uint32 arrays built with numpy: sudoku as the
  324-item exact cover (cell, row/digit, column/digit, box/digit; one
  option per cell and digit, only the given digit in a given cell, as csp
  declares it); shikaku as one item per clue and per cell, one option per
  rectangle of a clue's area holding that clue alone. First solution, or
  every solution with --count.
- `ortools`: a CP-SAT `CpModel`, one integer variable 1..9 per cell (fixed
  for a given), `add_all_different` per row, column and box; `solve` with
  CP-SAT's default parameters (every core, as csp's `cpsat` backend does
  for a first solution). First solution only: no proof of uniqueness.
- `python-constraint2`: a `Problem` (its default solver) with an
  `AllDifferentConstraint` per unit, `getSolution()`. Its compiled search
  cannot be interrupted, so, like csp's `python-constraint` backend, the
  problem carries one more constraint that accepts everything and reads the
  clock every 256 calls, to stop at the per-puzzle time limit.

>>> [r for r in rectangles([[2, 0], [0, 0]], 0, 0, 2)]
[(0, 0, 1, 2), (0, 0, 2, 1)]
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

# Only the standard library at module level: the peers' processes run this
# file, and must time the peer alone, never csp.

KINDS = ("sudoku", "shikaku")
PEERS = {"sudoku": ("xcover", "ortools", "python-constraint2"), "shikaku": ("xcover",)}
"""The peers of each kind."""
MODULES = {"xcover": "xcover", "ortools": "ortools", "python-constraint2": "constraint"}
"""The module each peer imports."""
TIME_LIMIT = "TIME_LIMIT"


def rectangles(grid: Sequence[Sequence[int]], r: int, c: int, area: int
               ) -> Iterator[tuple[int, int, int, int]]:
    """(top, left, height, width) of each rectangle of `area` cells that holds
    the clue at (r, c) and no other clue."""
    h, w = len(grid), len(grid[0])
    for height in (d for d in range(1, min(area, h) + 1) if area % d == 0):
        width = area // height
        if width > w:
            continue
        for top in range(max(0, r - height + 1), min(r, h - height) + 1):
            for left in range(max(0, c - width + 1), min(c, w - width) + 1):
                if sum(1 for i in range(top, top + height) for j in range(left, left + width)
                       if grid[i][j]) == 1:
                    yield top, left, height, width



class OutOfTime(Exception):
    """Raised by the clock constraint inside python-constraint2's search."""


def main(argv: Sequence[str]) -> int:
    """Solve every puzzle of the file with the peer, printing as `csp solve` does."""
    parser = argparse.ArgumentParser(prog="peer_programs.py")
    parser.add_argument("peer", choices=sorted(MODULES))
    parser.add_argument("--kind", choices=KINDS, required=True)
    parser.add_argument("--count", action="store_true", help="count every solution")
    parser.add_argument("--time-limit", type=float, help="seconds per puzzle")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    text = Path(args.file).read_text(encoding="utf-8")
    if args.kind == "sudoku":
        if args.count:
            parser.error("sudoku peers find the first solution only")
        solve = {"xcover": xcover_sudoku, "ortools": ortools_sudoku,
                 "python-constraint2": pyconstraint_sudoku}[args.peer]
        for puzzle in (line.strip() for line in text.splitlines()):
            if puzzle:
                print(solve(puzzle, args.time_limit), flush=True)
    else:
        if args.peer != "xcover":
            parser.error("the shikaku peer is xcover")
        for width, height, grid in shikaku_puzzles(text):
            print(xcover_shikaku(width, height, grid, args.count), flush=True)
    # The point of a peer process is to time the peer alone.
    assert "csp" not in sys.modules, "a peer process imported csp"
    return 0


def units() -> list[list[int]]:
    """The 27 units of a 9x9 sudoku as cell indices: rows, columns, boxes."""
    rows = [[9 * r + c for c in range(9)] for r in range(9)]
    cols = [[9 * r + c for r in range(9)] for c in range(9)]
    boxes = [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)]
             for b in range(9)]
    return rows + cols + boxes


def xcover_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    import numpy as np
    from xcover import algorithm_c

    options, chosen = [], []
    for cell, ch in enumerate(puzzle):
        r, c, b = cell // 9, cell % 9, 3 * (cell // 27) + (cell % 9) // 3
        for d in (int(ch),) if ch != "." else range(1, 10):
            options += [cell, 81 + 9 * r + d - 1, 162 + 9 * c + d - 1, 243 + 9 * b + d - 1]
            chosen.append((cell, d))
    n_options = len(chosen)
    solution = next(algorithm_c(np.array(options, dtype=np.uint32),
                                np.arange(0, 4 * n_options + 1, 4, dtype=np.uint32),
                                np.zeros(len(options), dtype=np.uint32), 324, 0), None)
    if solution is None:
        return "no solution"
    grid = [0] * 81
    for k in solution:
        cell, d = chosen[k]
        grid[cell] = d
    return "".join(map(str, grid))


def ortools_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = [model.new_int_var(1, 9, f"c{k}") if ch == "." else
             model.new_int_var(int(ch), int(ch), f"c{k}") for k, ch in enumerate(puzzle)]
    for unit in units():
        model.add_all_different([cells[k] for k in unit])
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "".join(str(solver.value(cell)) for cell in cells)
    return "no solution" if status == cp_model.INFEASIBLE else f"no solution found ({TIME_LIMIT})"


@functools.cache
def clock_constraint() -> type:
    """python-constraint2's compiled search never runs Python's signal checks,
    so a time limit needs Python code inside it: a constraint over every
    variable, called at every node, that accepts everything and every 256
    calls ends the search past its deadline (the trick of csp's backend)."""
    import constraint

    class Clock(constraint.Constraint):
        def __init__(self, deadline: float) -> None:
            self.deadline, self.countdown = deadline, 256

        def __call__(self, variables: object, domains: object, assignments: object,
                     forwardcheck: object = False) -> bool:
            self.countdown -= 1
            if self.countdown <= 0:
                self.countdown = 256
                if time.perf_counter() > self.deadline:
                    raise OutOfTime
            return True

        def preProcess(self, variables: object, domains: object, constraints: object,  # noqa: N802
                       vconstraints: object) -> None:
            return None  # never pruned away

    return Clock


def pyconstraint_sudoku(puzzle: str, time_limit: float | None = None) -> str:
    import constraint

    problem = constraint.Problem()
    for k, ch in enumerate(puzzle):
        problem.addVariable(k, list(range(1, 10)) if ch == "." else [int(ch)])
    for unit in units():
        problem.addConstraint(constraint.AllDifferentConstraint(), unit)
    if time_limit is not None:
        clock = clock_constraint()(time.perf_counter() + time_limit)
        problem.addConstraint(clock, list(range(81)))
    try:
        solution = problem.getSolution()
    except OutOfTime:
        return f"no solution found ({TIME_LIMIT})"
    if not solution:
        return "no solution"
    return "".join(str(solution[k]) for k in range(81))


def shikaku_puzzles(text: str) -> Iterator[tuple[int, int, list[list[int]]]]:
    """`w h` then h rows of w integers, puzzle after puzzle (the file written above)."""
    numbers = iter(int(t) for t in text.split())
    for width in numbers:
        height = next(numbers)
        yield width, height, [[next(numbers) for _ in range(width)] for _ in range(height)]


def xcover_shikaku(width: int, height: int, grid: list[list[int]], count: bool) -> str:
    """Items: each clue, then each cell; an option per candidate rectangle."""
    import numpy as np
    from xcover import algorithm_c

    clues = [(r, c, a) for r, row in enumerate(grid) for c, a in enumerate(row) if a]
    options, sizes, placed = [], [], []
    for k, (r, c, a) in enumerate(clues):
        for top, left, h, w in rectangles(grid, r, c, a):
            cells = [len(clues) + i * width + j for i in range(top, top + h)
                     for j in range(left, left + w)]
            options += [k, *cells]
            sizes.append(len(cells) + 1)
            placed.append((k, top, left, h, w))
    pointers = np.zeros(len(sizes) + 1, dtype=np.uint32)
    pointers[1:] = np.cumsum(sizes)
    solutions = algorithm_c(np.array(options, dtype=np.uint32), pointers,
                            np.zeros(len(options), dtype=np.uint32),
                            len(clues) + width * height, 0)
    if count:
        return str(sum(1 for _ in solutions))
    solution = next(solutions, None)
    if solution is None:
        return "no solution"
    areas = [[0] * width for _ in range(height)]
    for option in solution:
        k, top, left, h, w = placed[option]
        for i in range(top, top + h):
            for j in range(left, left + w):
                areas[i][j] = clues[k][2]
    pad = len(str(max(a for _, _, a in clues)))
    return "\n".join(" ".join(str(a).rjust(pad) for a in row) for row in areas)


if __name__ == "__main__":
    # Run by its path: its folder (csp/bench) must not shadow the peers' imports.
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]
    sys.exit(main(sys.argv[1:]))
