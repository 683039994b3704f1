"""Benchmark: `bitmask` against CP-SAT on models that use the model language
natively on `bitmask` (issue 22): nonograms (`Regular`), hitori
(`Connected`), star battle (sums), skyscrapers (as their kind declares them,
with `Maximum`, which reaches bitmask decomposed; and with visibility as a
`Count` of reified comparisons, native), and closed knight's tours
(`Circuit`).

    python bench/bench_bitmask_globals.py
    python bench/bench_bitmask_globals.py --sets nonogram knight --backends bitmask,cpsat

The puzzles are the published ones kept in tests/data (nonogram: the
nonogram-db collection; hitori, skyscrapers, star battle: janko.at), read by
their kinds of `csp.problems` (a kind that is not there is left out, saying
so). Each puzzle is solved to its first solution, then searched to the end
with a limit of 2 (a proof of uniqueness); a knight's tour only to its first
solution. Times are CPU seconds of this process (CP-SAT runs one worker, in
a thread of it), nodes are bitmask's. Every solution is checked by the
model, and the two backends must agree on each count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import csp
from csp import AllDifferent, Circuit, Count, Model, problems
from csp.backends import parse_names
from csp.bench.measure import header
from csp.logic import And

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
BACKENDS = ("bitmask", "cpsat")
SETS = ("nonogram", "hitori", "starbattle", "skyscrapers", "skyscrapers-count", "knight")
KNIGHT_BOARDS = ((6, 6), (6, 8), (8, 8), (10, 10))


def kind_puzzles(name: str) -> list[tuple[str, Model]] | None:
    """(label, model) per published puzzle of kind `name`, or None if the kind
    is not in csp.problems."""
    if name not in problems.names():
        return None
    kind = problems.get(name)
    if name == "nonogram":
        return [(path.stem, kind.declare(puzzle))
                for path in sorted((DATA / "nonogram").glob("*.non"))
                for puzzle in problems.every(kind.parse(path.read_text()))]
    entries = json.loads((DATA / name / "janko.json").read_text())["puzzles"]
    return [(e["id"], kind.declare(puzzle)) for e in entries
            for puzzle in problems.every(kind.parse(e["puzzle"]))]


def skyscrapers_by_count() -> list[tuple[str, Model]] | None:
    """The skyscrapers puzzles, visibility stated with `Count`: a tower is seen
    when it is taller than every tower before it (a reified conjunction of
    comparisons), and the clue counts the towers seen."""
    if "skyscrapers" not in problems.names():
        return None
    kind = problems.get("skyscrapers")
    entries = json.loads((DATA / "skyscrapers" / "janko.json").read_text())["puzzles"]
    out = []
    for e in entries:
        for puzzle in problems.every(kind.parse(e["puzzle"])):
            out.append((e["id"], _towers(puzzle.n, puzzle.clues, puzzle.givens)))
    return out


def _towers(n: int, clues: tuple[tuple[int, ...], ...], givens: tuple[int, ...]) -> Model:
    m = Model(f"skyscrapers {n}x{n} by Count")
    x = [[m.var(f"r{r}c{c}", range(1, n + 1)) for c in range(n)] for r in range(n)]
    for k in range(n):
        m.add(AllDifferent(x[k]))
        m.add(AllDifferent([x[r][k] for r in range(n)]))
    for r in range(n):
        for c in range(n):
            if givens[r * n + c]:
                m.add(x[r][c] == givens[r * n + c])
    columns = [[x[r][c] for r in range(n)] for c in range(n)]
    lines = (columns, [col[::-1] for col in columns], x, [row[::-1] for row in x])
    for side, clue_line in enumerate(clues):
        for k, clue in enumerate(clue_line):
            if not clue:
                continue
            line = lines[side][k]
            seen = [m.bool(f"seen{side}_{k}_{i}") for i in range(1, n)]
            for i, b in enumerate(seen, start=1):
                m.add(b == And([line[i] > line[j] for j in range(i)]))
            m.add(Count(seen, 1) == clue - 1)  # the first tower is always seen
    return m


def knights_tours() -> list[tuple[str, Model]]:
    """A closed knight's tour of each board: each square's successor is a
    knight's move away, and the successors form one circuit."""
    out = []
    for rows, cols in KNIGHT_BOARDS:
        m = Model(f"knight's tour {rows}x{cols}")
        succ = []
        for r in range(rows):
            for c in range(cols):
                moves = [(r + dr) * cols + c + dc for dr, dc in
                         ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
                         if 0 <= r + dr < rows and 0 <= c + dc < cols]
                succ.append(m.var(f"s{r}_{c}", sorted(moves)))
        m.add(Circuit(succ))
        out.append((f"{rows}x{cols}", m))
    return out


def run(backend: str, model: Model, prove: bool, limit: float) -> dict:
    cpu = time.process_time()
    first = csp.solve(model, backend, time_limit=limit)
    first_cpu = time.process_time() - cpu
    out = {"first": first_cpu, "status": first.status.value, "nodes": first.stats.nodes,
           "found": first.solution is not None, "count": None}
    if first.solution is not None:
        assert model.is_solution(first.solution), f"{backend}: not a solution"
    if prove and first.status is not csp.Status.TIME_LIMIT:
        cpu = time.process_time()
        search = csp.solutions(model, backend, limit=2, time_limit=limit)
        found = list(search)
        out["prove"] = time.process_time() - cpu
        out["count"] = len(found) if search.status is not csp.Status.TIME_LIMIT else None
        out["prove_nodes"] = search.stats.nodes
        assert all(model.is_solution(s) for s in found)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--backends", type=parse_names, default=list(BACKENDS),
                        help="comma-separated; default bitmask,cpsat")
    parser.add_argument("--limit", type=float, default=60.0,
                        help="seconds per search; default 60")
    parser.add_argument("--each", action="store_true", help="a line per puzzle")
    args = parser.parse_args()
    warm = knights_tours()[0][1]
    for b in args.backends:  # numba's cache and CP-SAT's import, outside the timings
        csp.solve(warm, b)
    print(header("CPU seconds of this process; " + " ".join(sys.argv)))
    print("| set | backend | puzzles | solved | first sol. CPU s (total) | proved unique "
          "| uniqueness CPU s (total) | nodes (first + proof) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.sets:
        cases = (knights_tours() if name == "knight" else skyscrapers_by_count()
                 if name == "skyscrapers-count" else kind_puzzles(name))
        if cases is None:
            print(f"| {name} | (the kind is not in csp.problems: left out) |")
            continue
        prove = name != "knight"
        results = {b: [run(b, model, prove, args.limit) for _, model in cases]
                   for b in args.backends}
        for i, (label, _) in enumerate(cases):
            counts = {results[b][i]["count"] for b in args.backends} - {None}
            assert len(counts) <= 1, f"{name} {label}: the backends disagree: {counts}"
            if args.each:
                cells = [f"{b} {results[b][i]['first']:.3f} s"
                         + (f" + {results[b][i]['prove']:.3f} s" if "prove" in results[b][i]
                            else "") + f" ({results[b][i]['status']})" for b in args.backends]
                print(f"| {name} {label} | " + " | ".join(cells) + " |")
        for b in args.backends:
            rs = results[b]
            solved = sum(r["found"] for r in rs)
            proved = sum(r["count"] is not None for r in rs)
            nodes = sum((r["nodes"] or 0) + (r.get("prove_nodes") or 0) for r in rs)
            print(f"| {name} | {b} | {len(rs)} | {solved} | {sum(r['first'] for r in rs):.2f} "
                  f"| {proved if prove else '-'} "
                  f"| {sum(r.get('prove', 0) for r in rs):.2f} "
                  f"| {nodes if b == 'bitmask' else '-'} |", flush=True)


if __name__ == "__main__":
    main()
