"""Timing for the benchmark scripts of `bench/`: one way to time, repeat,
alternate and report, where `csp bench` (`csp.bench.runner`) times whole
suites in worker processes.

- `timed(fn, clock)`: one call, its seconds and its result; `clock` is
  "cpu" (`time.process_time`: what a shared machine disturbs least) or
  "wall" (`time.perf_counter`);
- `runs(fn, repeat)`: every call's seconds and result; `best` and `median`
  of `repeat` calls;
- `alternate(calls, repeat)`: several callables in one process, in turn
  (A B C, then C B A, ...), so that a change of load hits all of them alike:
  the way to compare two versions of a kernel; `rounds` is the same with
  every run's result kept;
- `usage()` and `spent(before)`: this process's CPU seconds (user, system),
  minor page faults and involuntary context switches, and the wall clock,
  between two points; `used(fn)` over one call;
- `header(what)`: the line that says where a run was made and under what
  load (`csp.bench.runner.machine`);
- `table(columns, rows)`: a Markdown table;
- `spearman(a, b)`: Spearman's rank correlation (ties share their mean
  rank), how a rating is held to an outside scale.

>>> seconds, value = best(lambda: sum(range(1000)), repeat=3, number=10)
>>> value, seconds >= 0
(499500, True)
>>> times = alternate({"a": lambda: 1, "b": lambda: 2}, repeat=2)
>>> sorted(times), [len(t) for t, _ in times.values()], times["b"][1]
(['a', 'b'], [2, 2], 2)
>>> [seconds >= 0 and value for seconds, value in rounds({"a": lambda: 1}, 2)["a"]]
[1, 1]
>>> sorted(spent(usage())), used(lambda: 42)[1]
(['minflt', 'nivcsw', 'sys', 'user', 'wall'], 42)
>>> print(table(["x", "y"], [[1, "2.5 s"]]))
| x | y |
|---|---|
| 1 | 2.5 s |
>>> spearman([1, 2, 3, 4], [10, 20, 20, 40]), spearman([1, 2, 3], [3, 2, 1])
(0.9486832980505138, -1.0)
"""

from __future__ import annotations

import gc
import resource
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def timed(fn: Callable[[], T], clock: str = "cpu", number: int = 1) -> tuple[float, T]:
    """One call of `fn`: (its seconds on `clock`, its result). With `number`
    above 1, that many calls in a row, the garbage collector paused as
    `timeit` pauses it: the seconds of one call (their mean), the last result."""
    now = CLOCKS[clock]
    paused = number > 1 and gc.isenabled()
    if paused:
        gc.disable()
    try:
        started = now()
        for _ in range(max(1, number)):
            out = fn()
        seconds = now() - started
    finally:
        if paused:
            gc.enable()
    return seconds / max(1, number), out


def runs(fn: Callable[[], T], repeat: int, clock: str = "wall",
         number: int = 1) -> list[tuple[float, T]]:
    """`repeat` timings of `fn` (at least one; each of `number` calls, as
    `timed`): each one's seconds and result."""
    return [timed(fn, clock, number) for _ in range(max(1, repeat))]


def best(fn: Callable[[], T], repeat: int, clock: str = "wall",
         number: int = 1) -> tuple[float, T]:
    """The fastest of `repeat` timings (each of `number` calls), and the last result."""
    seen = runs(fn, repeat, clock, number)
    return min(t for t, _ in seen), seen[-1][1]


def median(fn: Callable[[], T], repeat: int, clock: str = "cpu") -> tuple[float, T]:
    """The median of `repeat` calls, and the last result."""
    seen = runs(fn, repeat, clock)
    return statistics.median(t for t, _ in seen), seen[-1][1]


def rounds(calls: Mapping[str, Callable[[], T]], repeat: int,
           clock: str = "cpu") -> dict[str, list[tuple[float, T]]]:
    """Each callable `repeat` times, in turn, the order reversed every other
    round: per name, (seconds, result) of each of its runs, round by round."""
    names = list(calls)
    seen: dict[str, list[tuple[float, T]]] = {name: [] for name in names}
    for round_ in range(max(1, repeat)):
        for name in names if round_ % 2 == 0 else names[::-1]:
            seen[name].append(timed(calls[name], clock))
    return seen


def alternate(calls: Mapping[str, Callable[[], T]], repeat: int,
              clock: str = "cpu") -> dict[str, tuple[list[float], T]]:
    """`rounds`, per name: (its seconds, round by round; its last result)."""
    return {name: ([t for t, _ in seen], seen[-1][1])
            for name, seen in rounds(calls, repeat, clock).items()}


def usage() -> dict[str, float]:
    """This process's CPU seconds so far (`user`, `sys`: every thread),
    minor page faults (`minflt`), involuntary context switches (`nivcsw`),
    and the `wall` clock: give it to `spent` later."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"user": ru.ru_utime, "sys": ru.ru_stime, "minflt": ru.ru_minflt,
            "nivcsw": ru.ru_nivcsw, "wall": time.perf_counter()}


def spent(before: dict[str, float]) -> dict[str, float]:
    """What `usage` counts, from `before` to now."""
    after = usage()
    return {key: after[key] - before[key] for key in before}


def used(fn: Callable[[], T]) -> tuple[dict[str, float], T]:
    """One call of `fn`: what `usage` counts over it, and its result."""
    before = usage()
    out = fn()
    return spent(before), out


def header(what: str = "") -> str:
    """Where, what and under what load: "machine: CPU, N cores, Python,
    numba, numpy; csp from DIR; load average at start L; `what`". The
    directory tells which checkout was measured: with an editable install,
    a script run from another one still imports the installed one."""
    import csp
    from csp.bench.runner import machine

    m = machine()
    load = " ".join(f"{x:.2f}" for x in m["loadavg"]) if m["loadavg"] else "?"
    parts = [f"machine: {m['cpu']}, {m['nproc']} cores, Python {m['python']}, "
             f"numba {m['numba']}, numpy {m['numpy']}",
             f"csp from {Path(csp.__file__).resolve().parent.parent}",
             f"load average at start {load}"]
    return "; ".join(parts + ([what] if what else []))


def table(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table of `rows` under `columns`."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value (0 for the least), ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranked = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranked[i] = (start + end) / 2
        start = end + 1
    return ranked


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long sequences: Pearson's
    on their ranks (`statistics.correlation` ranks them itself only from
    Python 3.12)."""
    return statistics.correlation(ranks(a), ranks(b))


__all__ = ["alternate", "best", "header", "median", "ranks", "rounds", "runs", "spearman", "spent",
           "table", "timed", "usage", "used"]
