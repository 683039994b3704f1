"""A fuzzing campaign: random instances on the chosen backends until a
number of instances or a time is spent; every disagreement shrunk and written.

>>> report = fuzz(["dlx", "bitmask"], seed=3, instances=4)
>>> report.seed, report.instances, report.findings
(3, 4, [])
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from csp import backends as registry
from csp.backends.base import Backend
from csp.errors import InputError
from csp.fuzz.compare import Verdict, compare
from csp.fuzz.generate import FORMS, CoverSpec, ModelSpec, instance
from csp.fuzz.models import KIND_TAGS, kinds
from csp.fuzz.shrink import shrink
from csp.fuzz.write import write
from csp.model import Model

DEFAULT_INSTANCES = 200
"""Instances run when neither a number nor a time is given."""
DEFAULT_TIME_LIMIT = 10.0
"""Seconds each backend may spend on one instance."""
DEFAULT_SHRINK_SECONDS = 60.0
"""Seconds spent shrinking one disagreement at most."""

Spec = CoverSpec | ModelSpec


@dataclass
class Finding:
    """A disagreement: the instance as generated, and as shrunk."""

    index: int
    form: str
    suspects: list[str]
    why: list[str]
    original: Spec
    shrunk: Spec
    steps: int
    replay: str
    files: list[Path] = field(default_factory=list)


@dataclass
class FuzzReport:
    """What a campaign did: instances by outcome and form, per backend how
    often it ran, ran out of time, was left out (it does not take the
    problem) or was proved wrong, and the findings."""

    seed: int
    backends: list[str]
    instances: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    forms: Counter[str] = field(default_factory=Counter)
    per_backend: dict[str, Counter[str]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    """Per kind of constraint and feature of the model language
    (`csp.fuzz.models.KIND_TAGS`), how many models used it."""
    brute_forced: int = 0
    """Instances small enough to be held to brute force too."""
    elapsed: float = 0.0
    interrupted: bool = False
    campaign_forms: tuple[str, ...] = FORMS

    def summary(self) -> str:
        forms = ", ".join(f"{n} {form}" for form, n in sorted(self.forms.items()))
        outcomes = ", ".join(f"{self.outcomes[o]} {o}"
                             for o in ("agree", "inconclusive", "disagree"))
        lines = [f"seed {self.seed}: {self.instances} instances ({forms or 'none'}) in "
                 f"{self.elapsed:.1f}s: {outcomes}"
                 + (" (interrupted)" if self.interrupted else ""),
                 f"held to brute force: {self.brute_forced}"]
        if self.kinds:
            lines.append("models using each kind: " + ", ".join(
                f"{kind} {self.kinds[kind]}" for kind in KIND_TAGS))
        rows = [("backend", "ran", "timed out", "left out", "wrong")]
        for name in self.backends:
            c = self.per_backend.get(name, Counter())
            rows.append((name, str(c["ran"]), str(c["timed out"]), str(c["left out"]),
                         str(c["wrong"])))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                  for row in rows]
        return "\n".join(lines)


def fuzz(
    backends: Sequence[str | Backend] | None = None,
    *,
    seed: int | None = None,
    instances: int | None = None,
    seconds: float | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    forms: Sequence[str] = FORMS,
    out: str | Path = "csp-fuzz",
    keep_going: bool = False,
    start: int = 0,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    on_instance: Callable[[int, str, Verdict], None] | None = None,
    on_finding: Callable[[Finding], None] | None = None,
) -> FuzzReport:
    """Fuzz `backends` (names or backend objects; default: every available
    one but portfolios) with instances `start`, `start + 1`, ... of the campaign `seed` (a
    random one if None: `report.seed` says it) until `instances` ran or
    `seconds` passed (200 instances if neither is given). Each backend may
    spend `time_limit` seconds on an instance. The first disagreement (every
    one with `keep_going`) is shrunk for up to `shrink_seconds` and written
    into the directory `out`. An unknown or unavailable backend is a
    `BackendUnavailable` before anything runs.
    """
    given = list(registry.engines() if backends is None else backends)
    if not given:
        raise InputError("no backend to fuzz")
    names = [registry.get(b).name for b in given]  # fails here on an unknown name
    # An alias runs under its backend's name, the name every report uses.
    chosen = [name if isinstance(b, str) else b for name, b in zip(names, given)]
    for form in forms:
        if form not in FORMS:
            raise InputError(f"unknown form {form!r} (use {' or '.join(FORMS)})")
    if seed is None:
        seed = random_seed()
    if instances is None and seconds is None:
        instances = DEFAULT_INSTANCES
    report = FuzzReport(seed, names, per_backend={name: Counter() for name in names},
                        campaign_forms=tuple(forms))
    by_name = dict(zip(names, chosen))
    began = time.monotonic()
    index = start
    try:
        while ((instances is None or report.instances < instances)
               and (seconds is None or time.monotonic() - began < seconds)):
            form, spec = instance(seed, index, forms)
            problem = spec.build()
            verdict = compare(problem, chosen, time_limit)
            if verdict.outcome == "interrupted":
                report.interrupted = True
                break
            _tally(report, form, verdict)
            if isinstance(problem, Model):
                report.kinds.update(kinds(problem).keys())
            if on_instance is not None:
                on_instance(index, form, verdict)
            if verdict.outcome == "disagree":
                finding = _shrunk(index, form, spec, verdict, by_name, report, time_limit,
                                  shrink_seconds, Path(out))
                report.findings.append(finding)
                if on_finding is not None:
                    on_finding(finding)
                if not keep_going:
                    break
            index += 1
    except KeyboardInterrupt:
        report.interrupted = True
    report.elapsed = time.monotonic() - began
    return report


def random_seed() -> int:
    """A fresh seed for a campaign (printed, so that it can be replayed)."""
    return random.SystemRandom().randrange(1 << 32)


def _tally(report: FuzzReport, form: str, verdict: Verdict) -> None:
    report.instances += 1
    report.brute_forced += verdict.brute_forced
    report.forms[form] += 1
    report.outcomes[verdict.outcome] += 1
    for name in verdict.ran:
        report.per_backend[name]["ran"] += 1
    for name in verdict.timed_out:
        report.per_backend[name]["timed out"] += 1
    for name in verdict.skipped:
        if name in report.per_backend:
            report.per_backend[name]["left out"] += 1
    for name in verdict.suspects:
        report.per_backend[name]["wrong"] += 1


def _shrunk(index: int, form: str, spec: Spec, verdict: Verdict,
            by_name: dict[str, str | Backend], report: FuzzReport, time_limit: float,
            shrink_seconds: float, out: Path) -> Finding:
    """Shrink a disagreement on the backends proved wrong (and one that was
    not, as a witness), then write it, before and after."""
    suspects = set(verdict.suspects)
    witnesses = sorted(suspects) + ([verdict.reference] if verdict.reference else [])
    judged = [by_name[name] for name in witnesses]

    def fails(candidate: Spec) -> bool:
        try:
            problem = candidate.build()
        except InputError:  # a simplification the API refuses is no instance
            return False
        again = compare(problem, judged, time_limit)
        return again.outcome == "disagree" and bool(suspects & set(again.suspects))

    small, steps = shrink(spec, fails, seconds=shrink_seconds)
    final = compare(small.build(), judged, time_limit)
    if final.outcome != "disagree":  # the disagreement did not come back: keep the original
        small, steps, final = spec, 0, verdict
    names = ",".join(report.backends)
    replay = f"csp fuzz --seed {report.seed} --start {index} --instances 1 --backends {names}"
    if len(report.campaign_forms) == 1:
        replay += f" --form {report.campaign_forms[0]}"  # the form is drawn only among several
    finding = Finding(index, form, final.suspects, final.why, spec, small, steps, replay)
    header = [f"csp fuzz: seed {report.seed}, instance {index} ({form}), shrunk in {steps} "
              f"steps from {spec.size()} to {small.size()}",
              f"backends proved wrong: {', '.join(final.suspects)}",
              *(f"  {line}" for line in final.why),
              f"replay: {replay}"]
    stem = f"seed{report.seed}-{index}"
    finding.files.append(write(out, stem, small, header, witnesses))
    finding.files.append(write(out, f"{stem}-unshrunk", spec,
                               [*header[:1], "(as generated)", *header[1:]], witnesses))
    return finding
