"""How far a test goes on each backend: by a time budget, never by its name.

A test whose cases grow (queens of n = 1..11, a collection of puzzles of
growing size) holds every backend to the cases it calls required, with no
time limit, and gives the larger cases a time budget: a backend that runs out
stops there, and no count is read from the run that did not finish. A fast
backend is so held to more cases than a slow one, measured on this machine,
and a new backend is sized the same way.

>>> budget = Budget(seconds=60)
>>> budget.limit(required=True) is None, 0 < budget.limit(required=False) <= 60
(True, True)
"""

from __future__ import annotations

import time

import csp

BUDGET = 2.0
"""Seconds a backend gets for the cases of a test beyond the required ones."""


class Budget:
    """One test's time for a backend's cases beyond the required ones."""

    def __init__(self, seconds: float = BUDGET) -> None:
        self.end = time.monotonic() + seconds

    def limit(self, required: bool) -> float | None:
        """The time limit of a case: none if every backend must finish it,
        else what is left of the budget."""
        return None if required else max(0.01, self.end - time.monotonic())

    def spent(self) -> bool:
        return time.monotonic() >= self.end


def limit(required: bool) -> float | None:
    """The time limit of one case: none if required, else `BUDGET`."""
    return None if required else BUDGET


OUTSIDE_SHARE = 8
"""A random test gives a backend whose solver runs outside the process this
share of its examples (at least `OUTSIDE_LEAST`): every example is a call
that starts a solver (ACE's JVM: about a second), and the in-process
backends already take every example."""
OUTSIDE_LEAST = 8


def examples(backend: str, n: int) -> int:
    """How many of a random test's `n` examples `backend` takes: all, or a
    share of them for a backend outside the process (capability `OUTSIDE`).

    >>> examples("bitmask", 150)
    150
    """
    from csp.backends.base import OUTSIDE

    if OUTSIDE not in csp.backends.get(backend).capabilities:
        return n
    return min(n, max(OUTSIDE_LEAST, n // OUTSIDE_SHARE))


def finished(status: csp.Status | None) -> bool:
    """Whether a run under such a limit ended other than by its time limit."""
    return status is not csp.Status.TIME_LIMIT


def witnesses(problem: object) -> list[str]:
    """The backends a cross-check of `problem` runs: those chosen by
    `--csp-backends` (with the problem's own backend beside a lone one, so
    that there is something to compare), else every available engine."""
    from csp.testing import plugin

    chosen = list(plugin.CHOSEN) or csp.backends.engines()
    if len(chosen) == 1:
        own = csp.backends.default_for(problem)
        chosen = list(dict.fromkeys([*chosen, own]))
    return chosen
