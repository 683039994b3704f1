"""How busy the rest of the machine was while a benchmark ran (Linux).

On a machine shared with other sessions, the load average says little about
one run: it lags by a minute and counts this benchmark too. `Others` reads
the CPU time every process used (`/proc/stat`) and takes away this
process's and its reaped children's (`getrusage`): what remains is the
other processes' share, in cores, over the measured interval. A run whose
others used (almost) nothing ran on a quiet machine, whatever the load
average said.

`quietly(fn, quiet, tries)` runs `fn` again while the others used more than
`quiet` cores: on a shared machine, the way to a run the others left alone.

>>> with Others() as others:
...     pass
>>> others.cores >= 0.0
True
>>> quietly(lambda: 6 * 7, quiet=None, tries=3)[0]
42
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _busy() -> float:
    """CPU seconds every CPU spent busy so far (not idle, not waiting for I/O)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def _ours() -> float:
    """CPU seconds of this process and of its children that have been reaped."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class Others:
    """A `with` block's interval: `cores`, the other processes' CPU use over
    it in cores (0.0: none; 1.0: one core busy all along), within a tick."""

    def __init__(self) -> None:
        self.cores = 0.0
        self._start: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __enter__(self) -> Others:
        self._start = (time.perf_counter(), _busy(), _ours())
        return self

    def __exit__(self, *exc: Any) -> None:
        wall, busy, ours = self._start
        wall = time.perf_counter() - wall
        others = (_busy() - busy) - (_ours() - ours)
        self.cores = max(0.0, others) / wall if wall > 0 else 0.0


def quietly(fn: Callable[[], T], quiet: float | None, tries: int) -> tuple[T, float]:
    """`fn()` and the other processes' CPU use during it, in cores; with
    `quiet`, run again (up to `tries` runs) while they used more than that.

    Args:
        fn: the measurement.
        quiet: the most cores the others may use during a kept run (None: keep
            the first run).
        tries: runs at most; the last is kept when none was quiet.

    Returns:
        The kept run's result, and the others' cores during it.
    """
    for _ in range(max(1, tries)):
        with Others() as others:
            result = fn()
        if quiet is None or others.cores <= quiet:
            break
    return result, others.cores


__all__ = ["Others", "quietly"]
