"""One fuzzing instance on several backends: do they agree, with each other,
with the checkers and, on a small instance, with brute force?

`compare` runs `csp.crosscheck` (which verifies every solution with the
problem's own checker and compares solution sets and counts) on the backends
that take the problem, then holds every complete run to the solutions found
by trying everything, when that is cheap: so a backend fuzzed alone is still
checked against an oracle that is no backend.

A backend that runs out of time is *inconclusive*, never a disagreement; one
that ignores its time limit is stopped by a watchdog (on the main thread of
a Unix process) and the instance is inconclusive too.

>>> from csp import ExactCover
>>> verdict = compare(ExactCover.from_text("a b | x\\na x:red\\nb x:red\\na b\\n"),
...                   ["dlx", "bitmask"], time_limit=10)
>>> verdict.outcome, verdict.suspects
('agree', [])
"""

from __future__ import annotations

import math
import signal
import threading
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from csp import dispatch
from csp.backends.base import Backend
from csp.crosscheck import CrosscheckReport, crosscheck, normalise
from csp.errors import Refused
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Status

BRUTE_FORCE_OPTIONS = 12
"""Brute force tries every subset of at most this many options (4,096)."""
BRUTE_FORCE_ASSIGNMENTS = 4_096
"""... and every assignment of a model with at most this many."""

GRACE = 5.0
"""Seconds past every backend's time limit before the watchdog stops a check."""


@dataclass
class Verdict:
    """What one instance showed.

    `outcome` is `agree`, `disagree`, `inconclusive` (a backend ran out of
    time, or none took the problem) or `interrupted` (Ctrl-C). `suspects`
    names the backends proved wrong, `why` says how.
    """

    outcome: str
    suspects: list[str] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # backend -> why it does not take it
    timed_out: list[str] = field(default_factory=list)
    reference: str | None = None  # a backend that finished and was not proved wrong
    report: CrosscheckReport | None = None
    brute_forced: bool = False  # the runs were held to brute force too


class Hung(BaseException):
    """The watchdog's signal: a check ran past every time limit and its grace.

    A BaseException, so that no `except Exception` on the way (crosscheck
    counts a crashing backend as a finding) mistakes it for a backend's crash.
    """


def compare(problem: ExactCover | Model, backends: Sequence[str | Backend],
            time_limit: float, *, oracle: bool = True) -> Verdict:
    """Run `problem` on those of `backends` that take it and judge the runs."""
    taking: list[str | Backend] = []
    skipped: dict[str, str] = {}
    for backend in backends:
        try:
            dispatch.prepare(problem, backend)
        except Refused as err:  # refused by what it declares: no witness, no finding
            skipped[_name(backend)] = str(err)
            continue
        except Exception:  # noqa: BLE001 - a crash while preparing: crosscheck reports it
            pass
        taking.append(backend)
    if not taking:
        return Verdict("inconclusive", why=["no chosen backend takes this problem"],
                       skipped=skipped)
    try:
        with watchdog(len(taking) * time_limit + GRACE):
            report = crosscheck(problem, taking, time_limit=time_limit)
    except Hung:
        return Verdict("inconclusive", skipped=skipped, ran=[_name(b) for b in taking],
                       why=[f"stopped by the watchdog after {len(taking)} x {time_limit:g}s "
                            f"+ {GRACE:g}s: a backend ignores its time limit"])
    verdict = _judge(problem, report, oracle)
    verdict.skipped = skipped
    return verdict


def _judge(problem: Any, report: CrosscheckReport, oracle: bool) -> Verdict:
    runs = report.runs
    suspects = [run.backend for run in runs if run.verdict in ("disagree", "error")]
    why = list(report.notes)
    if report.difference is not None:
        d = report.difference
        why.append(f"solution {_shown(d.solution)} found by {', '.join(d.present_in)}, "
                   f"missing from {', '.join(d.missing_from)}")
    why += [f"{run.backend} crashed: {run.error}" for run in runs if run.error is not None]
    truth = brute_force(problem) if oracle else None
    if truth is not None:
        for run in runs:
            if not run.complete or run.backend in suspects:
                continue
            found = None if run.solutions is None else set(run.solutions)
            if run.count != len(truth) or (found is not None and found != truth):
                suspects.append(run.backend)
                why.append(f"{run.backend}: {run.count} solutions, brute force finds "
                           f"{len(truth)}")
    timed_out = [run.backend for run in runs if run.status is Status.TIME_LIMIT]
    finished = [run for run in runs if run.complete and run.backend not in suspects]
    reference = finished[0].backend if finished else None
    if suspects:
        outcome = "disagree"
    elif report.interrupted or any(run.status is Status.INTERRUPTED for run in runs):
        outcome = "interrupted"
    elif timed_out or not finished:
        outcome = "inconclusive"
    else:
        outcome = "agree"
    return Verdict(outcome, suspects, why if suspects else [], [run.backend for run in runs],
                   timed_out=timed_out, reference=reference, report=report,
                   brute_forced=truth is not None)


def brute_force(problem: ExactCover | Model) -> set[Hashable] | None:
    """Every solution of a small problem by trying everything, normalised as
    crosscheck normalises them; None if the problem is too large for that."""
    from csp.testing import brute_force as everything

    if isinstance(problem, ExactCover):
        if problem.n_options > BRUTE_FORCE_OPTIONS:
            return None
    elif math.prod(len(v.domain) for v in problem.variables.values()) > BRUTE_FORCE_ASSIGNMENTS:
        return None
    # csp.testing's oracle keys solutions as crosscheck does; say so rather than trust it.
    return {normalise(problem, dict(s) if isinstance(s, frozenset) else s)
            for s in everything(problem)}


@contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise `Hung` in the block once `seconds` have passed (Unix, main thread
    only; elsewhere the backends' own time limits are all there is)."""
    if (not hasattr(signal, "setitimer") or math.isinf(seconds)
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise Hung

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _name(backend: str | Backend) -> str:
    return backend if isinstance(backend, str) else backend.name


def _shown(solution: Any) -> str:
    text = repr(tuple(solution) if not isinstance(solution, dict) else dict(solution))
    return text if len(text) <= 120 else text[:117] + "..."
