"""Many puzzles of one shape (`DLXBackend.solve_family`): one compiled loop, no Python per puzzle.

The structure of the shape is built once; each puzzle starts from a copy of
it, forces its givens (options chosen before the search, as `choose` replays a
prefix) and searches, all inside the kernel. A call handles puzzles until a
node budget is spent, so that Python regains control now and then (Ctrl-C,
progress). Two loops do it: the C kernel's `solve_batch` on the dancing cells
where it is built, else numba's `family_links.solve_batch` on the dancing links.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from csp.backends.base import Progress
from csp.backends.dlx import cells
from csp.backends.dlx.cells_slots import (
    BATCH_SIZE,
    OUT_DONE,
    OUT_NODES,
    OUT_SIZE,
    OUT_SOLUTIONS,
    OUT_UPDATES,
)
from csp.exactcover import ExactCover
from csp.result import Result, Stats, Status

BATCH_BUDGET = 1 << 20
"""Nodes per call of a family loop: a few milliseconds, so that Ctrl-C and
progress are served while a collection is solved."""

Step = Callable[[np.ndarray, np.ndarray], int]
"""Solve on from where the last call stopped, filling `out` and `found`;
return the number of puzzles done so far."""


def solve_family(problem: ExactCover, givens: Sequence[Sequence[int]], *, count: bool,
               progress: Progress | None, on_cells: bool) -> Iterator[Result]:
    """Each puzzle `problem` + `givens[j]` (option indices forced): its first
    solution (`count`: its number of solutions), in order. `on_cells`: on the
    dancing cells if the C kernel is built (else on the links)."""
    starts = np.zeros(len(givens) + 1, dtype=np.int64)
    np.cumsum([len(g) for g in givens], out=starts[1:])
    forced = np.fromiter((k for g in givens for k in g), dtype=np.int64, count=int(starts[-1]))
    out = np.zeros((len(givens), OUT_SIZE), dtype=np.int64)
    found = np.full((len(givens), max(problem.n_primary, 1)), -1, dtype=np.int64)
    native = on_cells and cells.kernel() is cells.native
    step = (_on_cells if native else _on_links)(problem, starts, forced, count)
    done = 0
    clock = time.perf_counter()
    while done < len(givens):
        now = step(out, found)
        elapsed = time.perf_counter() - clock
        for j in range(done, now):
            yield _result(out[j], found[j], count, elapsed / max(now - done, 1))
        done = now
        clock = time.perf_counter()
        if progress is not None:
            progress(Stats(solutions=int(out[:done, OUT_SOLUTIONS].sum()),
                           nodes=int(out[:done, OUT_NODES].sum())))


def _on_cells(problem: ExactCover, starts: np.ndarray, forced: np.ndarray, count: bool) -> Step:
    shape = cells.build(problem)
    search = cells.CellsSearch(problem, shape.copy())  # its arrays: the current puzzle's
    work = search.cells
    where = np.zeros(BATCH_SIZE, dtype=np.int64)
    kernel = cells.native
    assert kernel is not None

    def step(out: np.ndarray, found: np.ndarray) -> int:
        while True:
            now = kernel.solve_batch(work.nd, work.sets, work.item, search.choice, search.saved,
                                     search.saved_ap, search.stack, search.force, search.state,
                                     shape.nd, shape.sets, shape.item, shape.first_primary,
                                     starts, forced, count, where, out, found, BATCH_BUDGET)
            if now >= 0:
                return int(now)
            search.stack = np.concatenate([search.stack, np.zeros_like(search.stack)])

    return step


def _on_links(problem: ExactCover, starts: np.ndarray, forced: np.ndarray, count: bool) -> Step:
    # numba's kernels, imported only when they run.
    from csp.backends.dlx import family_links, links_kernel
    from csp.backends.dlx.links import build

    links = build(problem)
    work = links.copy()
    x = np.zeros(links.n_primary + 1, dtype=np.int32)
    state = links_kernel.new_state()
    where = np.zeros(BATCH_SIZE, dtype=np.int64)

    def step(out: np.ndarray, found: np.ndarray) -> int:
        return int(family_links.solve_batch(
            work.flat, work.llink, work.rlink, links.flat, links.llink, links.rlink,
            links.first_primary, links.option_of, starts, forced, count, x, state, where, out,
            found, BATCH_BUDGET))

    return step


def _result(out: np.ndarray, found: np.ndarray, count: bool, seconds: float) -> Result:
    solutions = int(out[OUT_SOLUTIONS])
    stats = Stats(solutions=solutions, nodes=int(out[OUT_NODES]),
                  updates=int(out[OUT_UPDATES]), time=seconds)
    exhausted = int(out[OUT_DONE]) == 1
    solution = None if count or solutions == 0 else tuple(found[found >= 0].tolist())
    return Result(solutions, Status.COMPLETE if exhausted else Status.SOLUTION_LIMIT, stats,
                  "dlx", solution)


__all__ = ["BATCH_BUDGET", "OUT_SIZE", "solve_family"]
