"""Golden records: what a cross-check of a collection found, kept as JSON, and
the drift of a later run from it.

A record holds, per instance (by its name in the collection), the `status`
(the instance's verdict: `agree`, `disagree`, `failed`, `inconclusive` or
`bad`), the `count` the finished runs agree on and `solutions`, the hash of
their solution set (`Run.set_hash`: independent of the order of the
solutions and of the options or variables within one), both null when the
runs did not agree on one; `problem`, a fingerprint of the instance as
declared; and `form`, the form it was declared in (`exact-cover` or `model`).
The file is small, stable and diff-friendly: sorted keys, one instance a
line, and a `format` number.

A collection grows and changes, and its record with it. Checked against a
later run (`drifts`), an instance the record lacks is *new* (`news`: not a
drift); one the run lacks is a `missing` drift; one whose fingerprint
changed under the same name and form is a `changed` drift (its counts are
not compared: it is another problem); one declared in another form is
compared on its count and status only, which do not depend on the form.
`merged` is the record updated with a run (`csp crosscheck --update`). A
record sharing no instance with the run is refused: it is of another
collection.

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
    `solutions` (the set), `status`, `changed` (another problem under the
    name: `was` and `now` are fingerprints) or `missing` (in the record, not
    in the run)."""

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
            "problem": fingerprint(outcome.instance), "form": form(outcome.instance)}


def form(instance: Instance) -> str | None:
    """The form the instance was declared in: `exact-cover` or `model`."""
    from csp.exactcover import ExactCover

    if instance.problem is None:
        return None
    return "exact-cover" if isinstance(instance.problem, ExactCover) else "model"


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
    save(path, record(run))


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
    """Refuse, with an `InputError`, a record that shares no instance with
    `found` (of another collection). Called before a run."""
    was = golden["instances"]
    if was and found and not any(instance.name in was for instance in found):
        raise InputError(f"{source} is of other instances: none of its {len(was)} is among "
                         f"the {len(found)} run (e.g. {found[0].name!r} is not in it)")


def news(golden: dict[str, Any], run: CollectionReport) -> list[str]:
    """The instances of `run` that the record lacks."""
    return [o.name for o in run.outcomes if o.name not in golden["instances"]]


def drifts(golden: dict[str, Any], run: CollectionReport, source: str = "the record"
           ) -> list[Drift]:
    """Every way `run` moved from `golden` (see the module). An interrupted
    run compares what it checked."""
    was = golden["instances"]
    now = {outcome.name: entry(outcome) for outcome in run.outcomes}
    found = []
    for name, new in now.items():
        old = was.get(name)
        if old is None:
            continue  # new: not a drift
        same_form = old.get("form") in (None, new["form"]) or new["form"] is None
        if same_form and old["problem"] and new["problem"] and old["problem"] != new["problem"]:
            found.append(Drift(name, "changed", old["problem"], new["problem"]))
            continue
        for what in ("status", "count", "solutions"):
            if what == "solutions" and not same_form:
                continue  # a solution is written in its form's terms
            if what != "status" and (old[what] is None or new[what] is None):
                continue  # unknown on one side: the status says why
            if old[what] != new[what]:
                found.append(Drift(name, what, old[what], new[what]))
    if not run.interrupted:
        found += [Drift(name, "missing", "recorded", "not run") for name in was
                  if name not in now]
    return found


def merged(golden: dict[str, Any], run: CollectionReport) -> dict[str, Any]:
    """The record `golden` updated with `run`: its instances added or
    replaced, the record's others kept."""
    table = dict(golden["instances"])
    table.update({outcome.name: entry(outcome) for outcome in run.outcomes})
    return {"format": FORMAT, "kind": KIND, "instances": table}


def save(path: str | os.PathLike[str], golden: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(dumps(golden))


__all__ = ["FORMAT", "Drift", "drifts", "dumps", "entry", "fingerprint", "form", "match",
           "merged", "news", "read", "record", "save", "write"]
