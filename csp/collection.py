"""Cross-checking a collection: every instance of a file, a directory or a
puzzle file on several backends, with a summary per backend.

An *instance* is one problem with a stable name: a file of Knuth's format
(its path), or one puzzle of a puzzle file (`FILE#k`, the k-th puzzle). An
instance that cannot be read or declared is kept with its `error` (bad
input), and the others are still checked.

Each instance is cross-checked by `csp.crosscheck` with a time limit per
backend (`DEFAULT_TIME_LIMIT` unless told), so a backend that runs out is
*inconclusive*, never a hang. The whole run's `verdict`, and the exit status
of `csp crosscheck`, is the worst of its instances', in this order:
`interrupted` (130), `disagree` or `failed` (1), `bad` input (2),
`inconclusive` (3), `agree` (0).

>>> from pathlib import Path
>>> examples = Path(__file__).resolve().parents[1] / "examples"
>>> found = list(instances(examples / "tiny.xc"))
>>> [(i.name, i.problem.n_options) for i in found]
[('tiny.xc', 4)]
>>> report = check(found, backends=["dlx", "cpsat"])
>>> report.verdict, report.exit_status
('agree', 0)
>>> print(report.table())
backend  instances  agree  disagree  inconclusive  failed
dlx      1          1      0         0             0
cpsat    1          1      0         0             0
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csp.backends.base import Backend
from csp.crosscheck import CrosscheckReport, crosscheck
from csp.errors import BackendUnavailable, InputError
from csp.exactcover import ExactCover
from csp.io.covers import read_cover
from csp.io.instances import detect, model_of, read_instance
from csp.io.text import Warn, read_text_file
from csp.io.text import warn as say
from csp.model import Model

DEFAULT_TIME_LIMIT = 10.0
"""Seconds per backend and instance when none is given: enough for small
instances, and a collection of hard ones still ends."""

EXIT = {"agree": 0, "disagree": 1, "failed": 1, "bad": 2, "inconclusive": 3,
        "interrupted": 130}
"""The exit status of `csp crosscheck` for each verdict."""

WORST_FIRST = ("interrupted", "disagree", "failed", "bad", "inconclusive", "agree")
"""Verdicts from the most to the least serious: a run's verdict is its worst."""

COLUMNS = ("agree", "disagree", "inconclusive", "failed")
"""A backend's verdicts counted in the summary (`failed`: it could not run)."""


@dataclass
class Instance:
    """One problem of a collection, or why it could not be read (`error`)."""

    name: str
    problem: ExactCover | Model | None = None
    error: str | None = None


@dataclass
class Outcome:
    """An instance and its cross-check (None for a bad instance)."""

    instance: Instance
    report: CrosscheckReport | None = None

    @property
    def name(self) -> str:
        return self.instance.name

    @property
    def verdict(self) -> str:
        return "bad" if self.report is None else self.report.verdict


@dataclass
class CollectionReport:
    """Every instance's outcome, a summary table per backend and the verdict."""

    outcomes: list[Outcome] = field(default_factory=list)
    interrupted: bool = False

    @property
    def verdict(self) -> str:
        seen = {outcome.verdict for outcome in self.outcomes}
        if self.interrupted:
            seen.add("interrupted")
        if not seen:
            return "bad"  # nothing to check is no agreement
        return next(v for v in WORST_FIRST if v in seen)

    @property
    def exit_status(self) -> int:
        return EXIT[self.verdict]

    def counts(self) -> dict[str, int]:
        """How many instances ended with each verdict."""
        out = {verdict: 0 for verdict in reversed(WORST_FIRST)}
        for outcome in self.outcomes:
            out[outcome.verdict] += 1
        return {verdict: n for verdict, n in out.items() if n or verdict != "interrupted"}

    def per_backend(self) -> dict[str, dict[str, int]]:
        """backend -> {"instances": runs, and a count per verdict of `COLUMNS`}."""
        table: dict[str, dict[str, int]] = {}
        for outcome in self.outcomes:
            if outcome.report is None:
                continue
            for run in outcome.report.runs:
                row = table.setdefault(run.backend, dict.fromkeys(("instances", *COLUMNS), 0))
                row["instances"] += 1
                row["failed" if run.verdict == "error" else run.verdict] += 1
        return table

    def table(self) -> str:
        """The summary per backend, as aligned columns."""
        rows: list[tuple[str, ...]] = [("backend", "instances", *COLUMNS)]
        rows += [(name, *(str(row[c]) for c in ("instances", *COLUMNS)))
                 for name, row in self.per_backend().items()]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                         for row in rows)

    def summary(self) -> str:
        """One line: the instances and how many ended each way."""
        counts = self.counts()
        parts = [f"{n} {verdict}" for verdict, n in counts.items() if n]
        head = f"{len(self.outcomes)} instance{'' if len(self.outcomes) == 1 else 's'}"
        return f"{head}: {', '.join(parts) or 'none'} -> {self.verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "interrupted": self.interrupted,
            "counts": self.counts(),
            "backends": self.per_backend(),
            "instances": [{"name": o.name, "verdict": o.verdict, "error": o.instance.error,
                           "report": None if o.report is None else o.report.to_dict()}
                          for o in self.outcomes],
        }


def instances(path: str | os.PathLike[str], kind: str | None = None,
              form: str | None = None, format: str = "auto",
              warn: Warn | None = None, ignore_objective: bool = False) -> Iterator[Instance]:
    """The instances at `path`: a file of Knuth's format (or any exact-cover
    format, or an instance of the field: XCSP3, FlatZinc, by its name), a directory of them
    (every file in it and in its subdirectories, in name order, each named by
    its path from `path`; hidden files and directories, links to
    directories, and the notes that sit beside instances, `.md` and `.json`
    files, left out, each of those files said to `warn`), or with `kind`
    every puzzle of a puzzle file of that kind (`csp list` names the kinds),
    declared in `form` (default: the kind's own). Exact covers are read in
    `format` (see `csp.io.covers`); XCSP3 and FlatZinc files by their names
    (`csp.io.instances`; `ignore_objective` reads the constraints of one with an
    objective); `warn` hears what reading drops.

    A file that cannot be read or parsed is one instance with its `error`;
    so is a bad puzzle. A `path` that does not exist raises `InputError`.
    """
    root = Path(path)
    if not root.exists():
        raise InputError(f"no such file or directory: {str(root)!r}")
    if root.is_dir():
        files = _files_under(root)
        notes = [file for file in files if file.suffix.lower() in NOTES]
        files = [file for file in files if file not in notes]
        if notes:
            say(f"left out {len(notes)} file(s) of notes, not instances: "
                f"{', '.join(str(file.relative_to(root)) for file in notes)}", warn)
        if not files:
            raise InputError(f"no instance file in the directory {str(root)!r}")
        for file in files:
            yield from _file(file, str(file.relative_to(root)), kind, form, format, warn,
                             ignore_objective)
    else:
        yield from _file(root, root.name, kind, form, format, warn, ignore_objective)


NOTES = frozenset({".md", ".json"})
"""The suffixes of the files a directory of instances holds beside them (a
README, the published counts): no instance is written so."""


def _files_under(root: Path) -> list[Path]:
    """Every file under the directory `root`, at any depth, in name order."""
    found = []
    for where, directories, names in os.walk(root):  # links to directories not followed
        directories[:] = [d for d in directories if not d.startswith(".")]
        found += [Path(where) / name for name in names if not name.startswith(".")]
    return sorted(found, key=lambda file: file.relative_to(root).parts)


def _file(path: Path, name: str, kind: str | None, form: str | None, format: str,
          warn: Warn | None, ignore_objective: bool = False) -> Iterator[Instance]:
    if kind is None:
        try:
            if detect(path) is not None:  # an instance of the field: XCSP3, FlatZinc
                found = read_instance(path, ignore_objective=ignore_objective, warn=warn)
                yield Instance(name, model_of(found))
            else:
                yield Instance(name, read_cover(str(path), format, warn=warn))
        except InputError as err:
            yield Instance(name, error=str(err))
        return
    try:
        text = read_text_file(str(path))
    except InputError as err:
        yield Instance(name, error=str(err))
        return
    yield from puzzles(text, name, kind, form)


def puzzles(text: str, name: str, kind: str, form: str | None = None) -> Iterator[Instance]:
    """Every puzzle of `text` in the format of `kind`, named `NAME#k`."""
    from csp import problems

    declared = problems.get(kind)
    if form is not None and form not in declared.forms:
        raise InputError(f"unknown form {form!r} for {kind} puzzles; the forms are: "
                         f"{', '.join(declared.forms)}")
    try:
        items = problems.read(declared, text)
    except InputError as err:  # the whole file is refused
        yield Instance(name, error=str(err.located(source=name)))
        return
    if not items:
        yield Instance(name, error=f"{name}: no puzzle in the input")
    for number, item in enumerate(items, start=1):
        label = f"{name}#{number}"
        if isinstance(item, InputError):
            yield Instance(label, error=str(item.located(source=name)))
            continue
        line = getattr(item, "line", None)
        try:
            yield Instance(label, declared.declare(item, form))
        except InputError as err:
            yield Instance(label, error=str(err.located(line=line, source=name)))
        except Exception as err:  # noqa: BLE001 - a plug-in's bug is bad input, not a crash
            yield Instance(label, error=f"{name}: the {kind} kind's declare failed: "
                           f"{type(err).__name__}: {err}")


def check(found: Iterable[Instance], backends: Sequence[str | Backend] | None = None, *,
          limit: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
          each: Callable[[Outcome], None] | None = None) -> CollectionReport:
    """Cross-check every instance of `found` on `backends` (default: every
    available one that takes it), `time_limit` seconds per backend (None: no
    limit), keeping `limit` solutions per run to compare the sets (see
    `csp.crosscheck`). `each` is called with every outcome as it is known (a
    progress bar, a report line). Ctrl-C ends the run with what was checked
    (`interrupted`)."""
    report = CollectionReport()
    try:
        for instance in found:
            outcome = Outcome(instance)
            if instance.problem is not None:
                try:
                    outcome.report = crosscheck(instance.problem, backends=backends,
                                                limit=limit, time_limit=time_limit)
                except (InputError, BackendUnavailable) as err:
                    # no backend takes this instance: it is reported, the rest checked
                    instance.error = str(err)
            report.outcomes.append(outcome)
            if each is not None:
                each(outcome)
            if outcome.report is not None and outcome.report.interrupted:
                report.interrupted = True
                break
    except KeyboardInterrupt:
        report.interrupted = True
    return report


__all__ = ["DEFAULT_TIME_LIMIT", "EXIT", "CollectionReport", "Instance", "Outcome", "check",
           "instances", "puzzles"]
