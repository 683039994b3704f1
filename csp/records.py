"""Golden records: what a cross-check of a collection found, kept as JSON, and
the drift of a later run from it.

A record holds, per instance (by its name in the collection), the `status`
(the instance's verdict: `agree`, `disagree`, `failed`, `inconclusive` or
`bad`), the `count` the finished runs agree on and `solutions`, the hash of
their solution set (`Run.set_hash`: independent of the order of the
solutions and of the options or variables within one), both null when the
runs did not agree on one; and `problem`, a fingerprint of the instance, so
that a record of other instances under the same names is refused. The file
is small, stable and diff-friendly: sorted keys, one instance a line, and a
`format` number.

>>> from pathlib import Path
>>> from csp import collection
>>> examples = Path(__file__).resolve().parents[1] / "examples"
>>> run = collection.check(collection.instances(examples / "tiny.xc"), ["dlx", "cpsat"])
>>> golden = record(run)
>>> golden["instances"]["tiny.xc"]["count"], golden["instances"]["tiny.xc"]["status"]
(1, 'agree')
>>> drifts(golden, run)
[]
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

from csp.collection import CollectionReport, Instance, Outcome
from csp.errors import InputError

FORMAT = 1
"""The version of the record format; a record of another version is refused."""

KIND = "csp crosscheck record"


@dataclass(frozen=True)
class Drift:
    """One way an instance moved since the record: `what` is `count`,
    `solutions` (the set) or `status`."""

    instance: str
    what: str
    was: Any
    now: Any

    def __str__(self) -> str:
        return f"{self.instance}: {self.what} was {_shown(self.was)}, now {_shown(self.now)}"


def _shown(value: Any) -> str:
    if isinstance(value, str) and len(value) == 64:
        return value[:12] + "..."  # a hash
    return "none" if value is None else str(value)


def entry(outcome: Outcome) -> dict[str, Any]:
    """The record of one instance."""
    report = outcome.report
    count = solutions = None
    if report is not None and report.verdict == "agree":
        finished = report.finished
        count, solutions = finished[0].count, finished[0].set_hash
    return {"status": outcome.verdict, "count": count, "solutions": solutions,
            "problem": fingerprint(outcome.instance)}


def fingerprint(instance: Instance) -> str | None:
    """A short hash of the instance as declared (None for a bad one)."""
    problem = instance.problem
    if problem is None:
        return None
    from csp.parallel.split import describe

    return hashlib.sha256(describe(problem).encode()).hexdigest()[:16]


def record(run: CollectionReport) -> dict[str, Any]:
    """The golden record of a run, as a JSON-ready dict."""
    return {"format": FORMAT, "kind": KIND,
            "instances": {outcome.name: entry(outcome) for outcome in run.outcomes}}


def dumps(golden: dict[str, Any]) -> str:
    """The record as text: sorted keys, one instance a line."""
    lines = [f"{json.dumps(name)}: {json.dumps(value, sort_keys=True)}"
             for name, value in sorted(golden["instances"].items())]
    body = ",\n".join("    " + line for line in lines)
    return (f'{{\n  "format": {golden["format"]},\n  "instances": {{\n{body}\n  }},\n'
            f'  "kind": {json.dumps(golden["kind"])}\n}}\n')


def write(path: str | os.PathLike[str], run: CollectionReport) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(dumps(record(run)))


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The record in `path`; an `InputError` naming the file if it is not one."""
    where = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the record {where!r}: {err}") from None
    try:
        golden = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{where!r} is not a crosscheck record: not JSON ({err.msg} at line "
                         f"{err.lineno})") from None
    if not isinstance(golden, dict) or golden.get("kind") != KIND:
        raise InputError(f"{where!r} is not a crosscheck record (no \"kind\": {KIND!r}); "
                         "write one with --record")
    if golden.get("format") != FORMAT:
        raise InputError(f"{where!r} is a crosscheck record of format "
                         f"{golden.get('format')!r}; this csp reads format {FORMAT}")
    table = golden.get("instances")
    fields = {"status", "count", "solutions", "problem"}
    if not isinstance(table, dict) or not all(
            isinstance(v, dict) and fields <= v.keys() for v in table.values()):
        raise InputError(f"{where!r}: its \"instances\" are not a map of name to "
                         f"{{{', '.join(sorted(fields))}}}")
    return golden


def match(golden: dict[str, Any], found: list[Instance], source: str = "the record") -> None:
    """Refuse, with an `InputError`, a record of other instances than `found`:
    a name the record lacks, one it has that `found` lacks, or an instance
    that is not the one recorded under its name. Called before a run."""
    was = golden["instances"]
    names = {instance.name for instance in found}
    _same_names(was, names, source)
    changed = [i.name for i in found
               if was[i.name]["problem"] and i.problem is not None
               and was[i.name]["problem"] != fingerprint(i)]
    if changed:
        raise InputError(f"{source} is of other instances: {len(changed)} instance(s) differ "
                         f"from the one recorded under that name, e.g. {changed[0]!r}")


def _same_names(was: dict[str, Any], names: set[str], source: str,
                all_run: bool = True) -> None:
    extra = sorted(name for name in names if name not in was)
    gone = [name for name in was if name not in names] if all_run else []
    if extra or gone:
        parts = []
        if extra:
            parts.append(f"{len(extra)} instance(s) not in it, e.g. {extra[0]!r}")
        if gone:
            parts.append(f"{len(gone)} of its instance(s) not run, e.g. {gone[0]!r}")
        raise InputError(f"{source} is of other instances: {'; '.join(parts)}")


def drifts(golden: dict[str, Any], run: CollectionReport, source: str = "the record"
           ) -> list[Drift]:
    """Every way `run` moved from `golden` (see `match` for the record of
    other instances, an `InputError`). An interrupted run compares what it
    checked."""
    was = golden["instances"]
    now = {outcome.name: entry(outcome) for outcome in run.outcomes}
    _same_names(was, set(now), source, all_run=not run.interrupted)
    found = []
    for name, new in now.items():
        old = was[name]
        for what in ("status", "count", "solutions"):
            if what != "status" and (old[what] is None or new[what] is None):
                continue  # unknown on one side: the status says why
            if old[what] != new[what]:
                found.append(Drift(name, what, old[what], new[what]))
    return found


__all__ = ["FORMAT", "Drift", "drifts", "dumps", "entry", "fingerprint", "match", "read",
           "record", "write"]
