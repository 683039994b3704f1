#!/usr/bin/env python
"""Memoized counting (issue 25): tilings against their closed forms and Knuth's
DLX6, and `auto` against `memo=False` where memo does not pay.

    python bench/bench_memo.py [--dlx6 PATH] [--repeat N] [--quick]

DLX6 is Knuth's program (the CWEB source `dlx6.w` in the ascherer/cwebtest
mirror of his programs, which `bench/knuth/build.sh SCRATCH` builds into
SCRATCH/bin, outside this repository); its path comes from `--dlx6` or `$DLX6`, and
its columns are left empty where it is absent. Each instance is written in
Knuth's format (`xc.to_text()`) for it.

Tilings: `csp.count` in this process (building the cover, then counting: the
seconds of `time.process_time`, median of N) with the branching rule named,
against DLX6 as a whole process (user + system CPU seconds of the child: it
reads the file and counts; it counts in 64 bits, so its count is shown only
where it fits). Every count is checked against its closed form (Kasteleyn's
product, 2 ** (n (n + 1) / 2)) or, for the coloured tiling, against DLX6's
and against the other branching rule.

`auto`: pentominoes 6x10 and 5x12, queens 12-14, Langford 12 counted with
`memo=False`, `"auto"` and `True` in turn within each repetition (so that a
change of load hits all three), the ratio auto / off of the medians.

Exits 1 if a count is wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import csp
from csp import ExactCover
from csp.bench import instances, measure, tilings
from csp.bench.processes import Command, run
from csp.problems import langford

TILINGS: list[tuple[str, Callable[[], ExactCover], str | None, int | None]] = [
    ("dominoes 8x8", lambda: tilings.dominoes(8, 8), None, tilings.domino_tilings(8, 8)),
    ("dominoes 10x10", lambda: tilings.dominoes(10, 10), None, tilings.domino_tilings(10, 10)),
    ("dominoes 12x12", lambda: tilings.dominoes(12, 12), None, tilings.domino_tilings(12, 12)),
    ("dominoes 12x12", lambda: tilings.dominoes(12, 12), "first", tilings.domino_tilings(12, 12)),
    ("dominoes 16x16", lambda: tilings.dominoes(16, 16), None, tilings.domino_tilings(16, 16)),
    ("dominoes 16x16", lambda: tilings.dominoes(16, 16), "first",
     tilings.domino_tilings(16, 16)),
    ("I+L trominoes 9x9", lambda: tilings.trominoes(9, 9), "first", 928789262080),
    ("Aztec diamond 10", lambda: tilings.aztec_dominoes(10), None, tilings.aztec_tilings(10)),
    ("Aztec diamond 12", lambda: tilings.aztec_dominoes(12), None, tilings.aztec_tilings(12)),
    ("side-coloured dominoes 12x12", lambda: tilings.side_coloured_dominoes(12, 12), None, None),
    ("side-coloured dominoes 12x12", lambda: tilings.side_coloured_dominoes(12, 12), "first",
     None),
]
"""name, cover, branching rule (None: the default), closed form (None: DLX6's count)."""

QUICK = {"dominoes 8x8", "dominoes 10x10", "dominoes 12x12", "I+L trominoes 9x9",
         "Aztec diamond 10", "side-coloured dominoes 12x12"}

AUTO = ["pentominoes-6x10", "pentominoes-5x12", "queens-12", "queens-13", "queens-14",
        "langford-12"]


def build(name: str) -> ExactCover:
    if name.startswith("langford-"):
        return langford.declare(langford.Langford(int(name.split("-")[1])))
    [problem] = instances.get(name).build("exact-cover")
    return problem


def in_process(make: Callable[[], ExactCover], **options: object) -> tuple[float, csp.Result]:
    started = time.process_time()
    result = csp.count(make(), "dlx", **options)  # type: ignore[arg-type]
    return time.process_time() - started, result


def dlx6(program: Path, path: Path) -> tuple[float, int | None, int]:
    """CPU seconds of DLX6 on `path`, its count (None if it overflowed) and nodes."""
    done = run(Command([str(program)], stdin=path))
    seconds = done.cpu
    found = re.search(r"Altogether (\d+) solution.* (\d+) search nodes", done.stderr)
    if found is None:
        raise RuntimeError(f"{program}: no summary line in {done.stderr[-300:]!r}")
    overflowed = "overflowed" in done.stderr
    return seconds, None if overflowed else int(found[1]), int(found[2])


def bench_tilings(program: Path | None, repeat: int, quick: bool) -> bool:
    print("| instance | branch | count | csp s | DLX6 s | csp/DLX6 | csp nodes | DLX6 nodes "
          "| memo entries | memo hits | memo bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    wrong = False
    with tempfile.TemporaryDirectory() as scratch:
        for name, make, branch, closed in TILINGS:
            if quick and name not in QUICK:
                continue
            path = Path(scratch) / (name.replace(" ", "_") + ".dlx")
            path.write_text(make().to_text())
            ours: list[float] = []
            theirs: list[float] = []
            dlx6_count: int | None = None
            dlx6_nodes = 0
            for _ in range(repeat):
                seconds, result = in_process(make, memo="auto", branch=branch)
                ours.append(seconds)
                if program is not None:
                    seconds, dlx6_count, dlx6_nodes = dlx6(program, path)
                    theirs.append(seconds)
            expected = closed if closed is not None else dlx6_count
            if expected is not None and result.count != expected:
                print(f"{name}: csp counted {result.count}, expected {expected}")
                wrong = True
            if closed is not None and dlx6_count is not None and dlx6_count != closed:
                print(f"{name}: DLX6 counted {dlx6_count}, expected {closed}")
            ours_s = statistics.median(ours)
            theirs_s = statistics.median(theirs) if theirs else float("nan")
            extra = result.stats.extra
            shown = f"{theirs_s:.3f}" if theirs else "-"
            print(f"| {name} | {branch or 'mrv'} | {result.count:,} | {ours_s:.3f} | {shown} | "
                  f"{ours_s / theirs_s:.2f} | {result.stats.nodes:,} | "
                  f"{dlx6_nodes:,} | {extra['memo_entries']:,} | {extra['memo_hits']:,} | "
                  f"{extra['memo_bytes']:,} |", flush=True)
    return wrong


def bench_auto(repeat: int) -> bool:
    print("\n| instance | count | off s | auto s | on s | auto/off | on/off | auto says |")
    print("|---|---|---|---|---|---|---|---|")
    wrong = False
    for name in AUTO:
        problem = build(name)
        times: dict[object, list[float]] = {False: [], "auto": [], True: []}
        counts = set()
        said = ""
        for _ in range(repeat):
            for memo in times:
                seconds, result = in_process(lambda p=problem: p, memo=memo)
                times[memo].append(seconds)
                counts.add(result.count)
                if memo == "auto":
                    said = str(result.stats.extra["memo"]).split(" (")[0]
        if len(counts) != 1:
            print(f"{name}: the counts differ: {counts}")
            wrong = True
        off, auto, on = (statistics.median(times[m]) for m in (False, "auto", True))
        print(f"| {name} | {counts.pop():,} | {off:.3f} | {auto:.3f} | {on:.3f} | "
              f"{auto / off:.2f} | {on / off:.2f} | {said} |", flush=True)
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--dlx6", type=Path, default=os.environ.get("DLX6"),
                        help="Knuth's DLX6 (default: $DLX6)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="only the tilings that take under a second")
    args = parser.parse_args(argv)
    program = args.dlx6
    if program is None or not Path(program).is_file():
        print(f"DLX6 not found ({program}): its columns are left empty")
        program = None
    csp.count(tilings.dominoes(4, 4))  # load the kernels before timing
    print(measure.header(f"CPU seconds, median of {args.repeat}") + "\n", flush=True)
    wrong = bench_tilings(program, args.repeat, args.quick)
    wrong |= bench_auto(args.repeat)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
