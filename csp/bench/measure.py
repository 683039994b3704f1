"""Timing for the benchmark scripts of `bench/`: one way to time, repeat,
alternate and report, where `csp bench` (`csp.bench.runner`) times whole
suites in worker processes.

- `timed(fn, clock)`: one call, its seconds and its result; `clock` is
  "cpu" (`time.process_time`: what a shared machine disturbs least) or
  "wall" (`time.perf_counter`);
- `best` and `median` of `repeat` calls;
- `alternate(runs, repeat)`: several callables in one process, in turn
  (A B C, then C B A, ...), so that a change of load hits all of them alike:
  the way to compare two versions of a kernel;
- `header(what)`: the line that says where a run was made and under what
  load (`csp.bench.runner.machine`);
- `table(columns, rows)`: a Markdown table.

>>> seconds, value = best(lambda: sum(range(1000)), repeat=3)
>>> value, seconds >= 0
(499500, True)
>>> times = alternate({"a": lambda: 1, "b": lambda: 2}, repeat=2)
>>> sorted(times), [len(t) for t, _ in times.values()], times["b"][1]
(['a', 'b'], [2, 2], 2)
>>> print(table(["x", "y"], [[1, "2.5 s"]]))
| x | y |
|---|---|
| 1 | 2.5 s |
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def timed(fn: Callable[[], T], clock: str = "cpu") -> tuple[float, T]:
    """One call of `fn`: (its seconds on `clock`, its result)."""
    now = CLOCKS[clock]
    started = now()
    out = fn()
    return now() - started, out


def best(fn: Callable[[], T], repeat: int, clock: str = "wall") -> tuple[float, T]:
    """The fastest of `repeat` calls, and the last result."""
    runs = [timed(fn, clock) for _ in range(max(1, repeat))]
    return min(t for t, _ in runs), runs[-1][1]


def median(fn: Callable[[], T], repeat: int, clock: str = "cpu") -> tuple[float, T]:
    """The median of `repeat` calls, and the last result."""
    runs = [timed(fn, clock) for _ in range(max(1, repeat))]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def alternate(runs: Mapping[str, Callable[[], T]], repeat: int,
              clock: str = "cpu") -> dict[str, tuple[list[float], T]]:
    """Each callable `repeat` times, in turn, the order reversed every other
    round: per name, (its seconds, round by round; its last result)."""
    names = list(runs)
    seen: dict[str, list[float]] = {name: [] for name in names}
    last: dict[str, Any] = {}
    for round_ in range(max(1, repeat)):
        for name in names if round_ % 2 == 0 else names[::-1]:
            seconds, last[name] = timed(runs[name], clock)
            seen[name].append(seconds)
    return {name: (seen[name], last[name]) for name in names}


def header(what: str = "") -> str:
    """Where and under what load: "machine: CPU, N cores, Python, numba,
    numpy; load average at start L; `what`"."""
    from csp.bench.runner import machine

    m = machine()
    load = " ".join(f"{x:.2f}" for x in m["loadavg"]) if m["loadavg"] else "?"
    parts = [f"machine: {m['cpu']}, {m['nproc']} cores, Python {m['python']}, "
             f"numba {m['numba']}, numpy {m['numpy']}", f"load average at start {load}"]
    return "; ".join(parts + ([what] if what else []))


def table(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table of `rows` under `columns`."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


__all__ = ["alternate", "best", "header", "median", "table", "timed"]
