#!/usr/bin/env python
"""Builds of the dancing-cells C kernel against each other, in one process.

    python bench/bench_cells_builds.py BUILD.so [BUILD.so ...] [--repeat N] [--names NAME ...]

To tell whether a change to `csp/backends/dlx/_cells.c` is faster than the
kernel before it, build both (`git show main:csp/backends/dlx/_cells.c >
old.c`, then the compiler command that `pip install -v` prints, with
`-o old.so`) and give the shared objects here: each is loaded under a name
of its own, counts the same covers (the exact-cover instances of `csp bench
--suite full`, kakuro lowered once, as `bench_dlx_engines.py` prepares them),
and the builds run in turn within each round so that the shared machine's
load hits all alike. Reported: the median CPU seconds (`time.process_time`)
of counting each instance's puzzles (from copies of structures built before
the timing) and each build's ratio to the first. A build whose `sets`
layout predates the head tables (each item's place and size just before its
segment) is recognised by its `build` refusing the newer size.

Puzzles that the first build does not finish within `--max-nodes` nodes are
left out (one kakuro; sudoku-25x25 is not in the list). Exits 1 if the
builds disagree on a count, nodes or updates (they must run one search).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from csp import dispatch
from csp.backends.dlx import DLXBackend, cells_slots
from csp.bench import instances
from csp.bench.measure import alternate
from csp.bench.script import arguments
from csp.exactcover import ExactCover

NAMES = ("queens-12", "queens-13", "queens-14", "pentominoes-6x10", "pentominoes-5x12",
         "pentominoes-8x8-hole", "sudoku-38-solutions", "sudoku-hardest1-minus4",
         "sudoku-norvig_top95", "sudoku-royle_17clue_sample1000", "sudoku-16x16", "kakuro-all",
         "shikaku-largest10", "word-square-5x5-96words")


def load(path: Path, tag: int) -> ModuleType:
    """The extension at `path` under a name of its own (its init function is _cells's)."""
    name = f"build{tag}._cells"
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


Built = tuple[np.ndarray, np.ndarray, np.ndarray, int, int]
"""nd, sets, item, n_primary, n_items of one cover, as one build lays it out."""


def build(kernel: ModuleType, xc: ExactCover) -> Built:
    """The structure of `xc` in the layout of `kernel` (outside the timing)."""
    arrays = xc.arrays()
    n_items, n_entries, n_primary = xc.n_items, len(arrays["items"]), xc.n_primary
    nd = np.zeros(4 * (1 + n_entries + xc.n_options), dtype=np.int32)
    item = np.zeros(n_items, dtype=np.int32)
    first_primary = np.zeros(xc.n_options, dtype=np.int32)
    for n_sets in (cells_slots.pairs_at(n_items) + 2 * n_items + n_entries,  # head tables
                   1 + 2 * n_items + n_entries):  # heads inside the segments (before)
        sets = np.zeros(n_sets, dtype=np.int32)
        try:
            kernel.build(arrays["start"], arrays["items"], arrays["colours"], n_primary, nd, sets,
                         item, first_primary)
            return nd, sets, item, n_primary, n_items
        except ValueError:
            continue
    raise ValueError("the build refuses both layouts of `sets`")


def count(kernel: ModuleType, built: Built, max_nodes: int) -> tuple[int, int, int, int]:
    """Solutions, nodes, updates and the last event of counting a copy of `built`."""
    nd, sets, item, n_primary, n_items = built
    nd, sets, item = nd.copy(), sets.copy(), item.copy()
    choice, force = (np.zeros(n_primary + 1, dtype=np.int32) for _ in range(2))
    saved, saved_ap = (np.zeros(n_primary + 2, dtype=np.int32) for _ in range(2))
    stack = np.zeros(2 * max(256, 4 * n_items), dtype=np.int32)
    state = cells_slots.new_state(n_primary, n_items)
    while True:
        event = kernel.search(nd, sets, item, choice, saved, saved_ap, stack, force, state, True,
                              max_nodes)
        if event != cells_slots.GROW:
            break
        stack = np.concatenate([stack, np.zeros_like(stack)])
    return (int(state[cells_slots.SOLUTIONS]), int(state[cells_slots.NODES]),
            int(state[cells_slots.UPDATES]), event)


def covers(name: str) -> list[ExactCover]:
    inst = instances.get(name)
    form = "exact-cover" if "exact-cover" in inst.forms else inst.forms[0]
    out = []
    for problem in inst.problems(form):
        if not isinstance(problem, ExactCover):  # lowered once, outside the timing
            problem = dispatch.prepare(problem, DLXBackend()).target
        if isinstance(problem, ExactCover):
            out.append(problem)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, repeat=3)
    parser.add_argument("builds", nargs="+", type=Path, help="shared objects of _cells.c")
    parser.add_argument("--names", nargs="*", default=list(NAMES))
    parser.add_argument("--max-nodes", type=int, default=10_000_000,
                        help="a puzzle the first build does not finish within this is left out")
    args = parser.parse_args(argv)
    kernels = [(path.name, load(path, k)) for k, path in enumerate(args.builds)]
    print("| instance | nodes | " + " | ".join(f"{tag} s" for tag, _ in kernels) + " | "
          + " | ".join(f"{tag}/{kernels[0][0]}" for tag, _ in kernels[1:]) + " |")
    print("|---" * (2 + 2 * len(kernels) - 1) + "|", flush=True)
    wrong = False
    for name in args.names:
        first = kernels[0][1]
        kept = [xc for xc in covers(name)
                if count(first, build(first, xc), args.max_nodes)[3] == cells_slots.EXHAUSTED]
        built = {tag: [build(kernel, xc) for xc in kept] for tag, kernel in kernels}
        figures = {tag: [count(kernel, b, args.max_nodes)[:3] for b in built[tag]]
                   for tag, kernel in kernels}
        if len({tuple(f) for f in figures.values()}) != 1:
            wrong = True
            print(f"WRONG on {name}: the builds differ: {figures}", file=sys.stderr)
        def count_all(kernel: ModuleType, builds: list[Built]) -> None:
            for b in builds:
                count(kernel, b, args.max_nodes)

        runs = alternate({tag: (lambda k=kernel, b=built[tag]: count_all(k, b))
                          for tag, kernel in kernels}, args.repeat)
        seconds = [statistics.median(runs[tag][0]) for tag, _ in kernels]
        nodes = sum(f[1] for f in figures[kernels[0][0]])
        print(f"| {name} | {nodes:,} | " + " | ".join(f"{s:.4f}" for s in seconds) + " | "
              + " | ".join(f"{s / max(seconds[0], 1e-9):.2f}" for s in seconds[1:]) + " |",
              flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
