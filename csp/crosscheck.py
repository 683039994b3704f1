"""Cross-checking: run one problem on several backends and prove they agree.

Every solution a backend returns is verified with the pure-Python checker of
the problem as declared (`ExactCover.check`, `Model.problems`); the solution
*sets* are compared while they are small enough to keep, the counts always.
Only runs that explored the whole search space (`COMPLETE`) are held to an
exact count; a run stopped by the time limit is inconclusive unless it found
more solutions than a complete run, a solution a complete run lacks, or an
invalid one.

A backend that could not run the problem at all (it refused it, say
`bitmask` a variable with more than 64 values, or it raised) is not a
witness: `report.agree` is then False, `report.failed` lists those runs, the
report says why each could not run, and its last line is never "all backends
agree". `agree` is True only when every backend ran, at least two finished
(one finished run compares nothing) and none is proved wrong (a run stopped
by the time limit is inconclusive, not wrong). `report.verdict` says it in
one word, for scripts: `agree`, `disagree`, `failed` (some backend could
not run), `inconclusive` (fewer than two finished) or `interrupted`.

Every run also keeps `set_hash`, a hash of its solution set that depends
neither on the order of the solutions nor on the order of the options or
variables within one (see `solution_hash`): complete runs past `limit`
solutions still compare their sets by it, and golden records
(`csp.records`) keep it.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> report = crosscheck(xc, backends=["dlx", "cpsat"])
>>> report.agree
True
>>> [(run.backend, run.count, run.status.value, run.verdict) for run in report.runs]
[('dlx', 1, 'COMPLETE', 'agree'), ('cpsat', 1, 'COMPLETE', 'agree')]
>>> str(report).splitlines()[-1]
'all backends agree: 1 solution'
>>> report.verdict, crosscheck(xc, backends=["dlx"]).verdict
('agree', 'inconclusive')
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from csp import backends as registry
from csp import dispatch
from csp.backends.base import COUNTS_ONLY, Backend
from csp.errors import BackendUnavailable, InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Status

DEFAULT_LIMIT = 10_000
"""Solutions kept per backend for comparing the sets; past it, counts only."""

MAX_INVALID = 5
"""Invalid solutions kept per backend for the report."""


@dataclass
class Run:
    """What one backend did on the problem."""

    backend: str
    count: int = 0
    status: Status | None = None
    nodes: int | None = None
    time: float = 0.0
    invalid: list[tuple[Any, list[str]]] = field(default_factory=list)
    duplicates: int = 0
    solutions: dict[Hashable, Any] | None = None  # normalised -> as returned, in order
    error: str | None = None
    verdict: str = "agree"  # agree | disagree | inconclusive | error
    set_sum: int = 0
    """The sum of the valid solutions' `solution_hash`es, mod 2**256."""
    counted_only: bool = False
    """A backend that counts only (`COUNTS_ONLY`): its count is compared, it
    has no solutions to check, compare or hash."""

    @property
    def set_hash(self) -> str:
        """The hash of the solution set found, as 64 hex digits (see `solution_hash`)."""
        return f"{self.set_sum:064x}"

    @property
    def complete(self) -> bool:
        """Whether this backend's search finished: its count is exact."""
        return self.status is Status.COMPLETE

    def to_dict(self) -> dict[str, Any]:
        """This run's figures as plain values (for JSON)."""
        return {
            "backend": self.backend,
            "count": self.count,
            "status": self.status.value if self.status else None,
            "nodes": self.nodes,
            "time": round(self.time, 6),
            "verdict": self.verdict,
            "set_hash": None if self.counted_only else self.set_hash,
            "invalid": [{"solution": _jsonable(s), "problems": p} for s, p in self.invalid],
            "duplicates": self.duplicates,
            "error": self.error,
        }


@dataclass
class Difference:
    """A solution some backends found and others lack."""

    solution: Any
    present_in: list[str]
    missing_from: list[str]


@dataclass
class CrosscheckReport:
    """The runs, the verdict and the first difference found.

    `agree` is True when every backend ran, at least one finished (so there
    was something to compare) and none was proved wrong; `failed` lists the
    backends that could not run (then `agree` is False).
    """

    runs: list[Run]
    agree: bool
    sets_compared: bool
    notes: list[str]
    difference: Difference | None = None
    problem: Any = None
    interrupted: bool = False
    """Stopped by Ctrl-C: the backends after the interrupted one did not run."""

    @property
    def verdict(self) -> str:
        """One word: `agree`, `disagree` (some backend proved wrong), `failed`
        (some backend could not run), `inconclusive` (fewer than two runs
        finished, so nothing was compared) or `interrupted` (Ctrl-C)."""
        if self.interrupted:
            return "interrupted"
        if any(run.verdict == "disagree" for run in self.runs):
            return "disagree"
        if self.failed:
            return "failed"
        return "agree" if self.agree else "inconclusive"

    @property
    def finished(self) -> list[Run]:
        """The runs that explored the whole search space."""
        return [run for run in self.runs if run.error is None and run.complete]

    @property
    def failed(self) -> list[Run]:
        """The runs of the backends that could not run the problem (each with
        its `error`): their silence proves nothing."""
        return [run for run in self.runs if run.error is not None]

    def to_dict(self) -> dict[str, Any]:
        """The verdict, every run and the difference as plain values: what
        `csp crosscheck --json` prints."""
        out: dict[str, Any] = {
            "agree": self.agree,
            "verdict": self.verdict,
            "interrupted": self.interrupted,
            "failed": [run.backend for run in self.failed],
            "sets_compared": self.sets_compared,
            "runs": [run.to_dict() for run in self.runs],
            "notes": self.notes,
            "difference": None,
        }
        if self.difference is not None:
            out["difference"] = {
                "solution": _jsonable(self.difference.solution),
                "present_in": self.difference.present_in,
                "missing_from": self.difference.missing_from,
            }
        return out

    def table(self) -> str:
        """The runs as an aligned text table (backend, count, status, nodes,
        time, verdict): what `csp crosscheck` prints."""
        rows = [("backend", "count", "status", "nodes", "time", "agree")]
        for run in self.runs:
            rows.append((
                run.backend,
                str(run.count),
                run.status.value if run.status else "-",
                "-" if run.nodes is None else str(run.nodes),
                f"{run.time:.3f}s",
                run.verdict if run.error is None else f"error: {run.error}",
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        return "\n".join(
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1]
            for row in rows
        )

    def __str__(self) -> str:
        lines = [self.table()]
        lines += self.notes
        if self.difference is not None:
            d = self.difference
            lines.append(f"first differing solution: {_show(self.problem, d.solution)}")
            lines.append(f"  found by: {', '.join(d.present_in)}")
            lines.append(f"  missing from: {', '.join(d.missing_from)}")
        lines += self._summary()
        return "\n".join(lines)

    def _summary(self) -> list[str]:
        failed = self.failed
        wrong = [run for run in self.runs if run.verdict == "disagree"]
        if wrong:
            return []  # the notes and the difference say it
        counts = {run.count for run in self.runs if run.complete}
        n = counts.pop() if len(counts) == 1 else None
        found = "" if n is None else f": {n} solution{'' if n == 1 else 's'}"
        if failed:
            names = ", ".join(run.backend for run in failed)
            ran = len(self.runs) - len(failed)
            head = f"not cross-checked on every backend: {names} could not run (error above)"
            if ran == 0:
                return [head]
            if n is None:
                return [f"{head}; no disagreement among the others (no complete run)"]
            return [f"{head}; the {ran} that ran agree{found}"]
        finished = self.finished
        if n is not None and len(finished) >= 2:
            return [f"all backends agree{found}"]
        if finished:
            others = len(self.runs) - 1
            why = ("no other backend ran" if not others else
                   f"the other{'s' if others > 1 else ''} did not finish "
                   "(give more time: --time-limit)")
            return [f"inconclusive: only {finished[0].backend} finished{found}; {why}"]
        return ["inconclusive: no backend finished, so nothing was compared "
                "(give more time: --time-limit)"]


def crosscheck(
    problem: ExactCover | Model,
    backends: Sequence[str | Backend] | str | None = None,
    limit: int | None = None,
    time_limit: float | None = None,
) -> CrosscheckReport:
    """Run `problem` on `backends` (names or backend objects; default: every
    available one that takes it, those that refuse it by their capabilities
    named in the notes) and compare what they found.

    `limit` is the number of solutions kept per backend for comparing the
    solution sets (default `DEFAULT_LIMIT`); past it only counts are compared,
    but every solution is still verified. `time_limit` (seconds) applies to
    each backend's run.

    Args:
        problem: an `ExactCover` or a `Model`.
        backends: names or backend objects (one name alone is one backend);
            None: every available backend but portfolios.
        limit: solutions kept per backend to compare the sets.
        time_limit: seconds per backend's run; a run cut short is inconclusive.

    Returns:
        A `CrosscheckReport`: `runs` (per backend: count, status, solution-set
        hash, invalid solutions, error), `agree`, `verdict` (`agree`,
        `disagree`, `failed`, `inconclusive`, `interrupted`); `str()` is the
        table.

    Raises:
        TypeError: `problem` is neither form.
        BackendUnavailable: no backend to run, or an unknown one named.

    >>> from csp import ExactCover
    >>> xc = ExactCover.from_text("a b\\na\\nb\\na b\\n")
    >>> report = crosscheck(xc, ["dlx", "bitmask"])
    >>> report.verdict, [run.count for run in report.runs]
    ('agree', [2, 2])
    """
    if not isinstance(problem, (ExactCover, Model)):
        raise TypeError(f"expected an ExactCover or a Model, not {type(problem).__name__}")
    keep = DEFAULT_LIMIT if limit is None else limit
    if isinstance(backends, str):
        backends = [backends]  # one name, not its letters
    skipped: list[str] = []
    if backends is None:
        chosen = []
        for name in registry.engines():
            # By default, a backend that refuses the problem by what it
            # declares (a plug-in without colours, given a model) is no
            # witness: it is left out and the report says so. A backend
            # named explicitly runs, and its refusal is a failure.
            try:
                dispatch.prepare(problem, name)
            except InputError as err:
                skipped.append(f"{name} left out: {err}")
                continue
            chosen.append(registry.get(name))
    else:
        chosen = [registry.get(b) for b in backends]
    if not chosen:
        raise BackendUnavailable("no backend to cross-check with")
    runs = []
    for backend in chosen:
        runs.append(_run(problem, backend, keep, time_limit))
        if runs[-1].status is Status.INTERRUPTED:
            break  # Ctrl-C stops the whole check, not one backend
    report = _compare(problem, runs, keep)
    report.notes[:0] = skipped
    if runs[-1].status is Status.INTERRUPTED:
        # Ctrl-C, even during the last backend, stops the caller too (a collection)
        report.interrupted = True
        report.agree = False
        not_run = ", ".join(b.name for b in chosen[len(runs):])
        report.notes.append("interrupted (Ctrl-C)" + (f": not run: {not_run}" if not_run else ""))
    return report


def _run(problem: Any, backend: Any, keep: int, time_limit: float | None) -> Run:
    if COUNTS_ONLY in backend.capabilities:
        return _counted(problem, backend, time_limit)
    run = Run(backend.name, solutions={})
    check = problem.check if isinstance(problem, ExactCover) else problem.problems
    started = time.perf_counter()
    try:
        search = dispatch.prepare(problem, backend).solutions(time_limit=time_limit)
        for solution in search:
            run.count += 1
            wrong = check(solution)
            if wrong:
                if len(run.invalid) < MAX_INVALID:
                    run.invalid.append((solution, wrong))
                continue
            run.set_sum = (run.set_sum + solution_hash(problem, solution)) % _MODULUS
            if run.solutions is not None:
                key = normalise(problem, solution)
                if key in run.solutions:
                    run.duplicates += 1
                elif len(run.solutions) < keep:
                    run.solutions[key] = solution
                else:
                    run.solutions = None  # too many to keep: compare counts only
        run.status = search.status
        run.nodes = search.stats.nodes
    except (InputError, BackendUnavailable) as err:
        run.error = str(err)
        run.verdict = "error"
        run.solutions = None
    except KeyboardInterrupt:
        run.status = Status.INTERRUPTED
    except Exception as err:  # noqa: BLE001 - a crashing backend is a finding, not a crash
        run.error = f"{type(err).__name__}: {err}"
        run.verdict = "error"
        run.solutions = None
    run.time = time.perf_counter() - started
    return run


def _counted(problem: Any, backend: Any, time_limit: float | None) -> Run:
    """The run of a backend that counts only: its count, no solution to
    check or compare (its solution set stays unknown: `solutions` None)."""
    run = Run(backend.name, counted_only=True)
    started = time.perf_counter()
    try:
        result = dispatch.prepare(problem, backend).count(time_limit=time_limit)
        run.count, run.status, run.nodes = result.count, result.status, result.stats.nodes
    except (InputError, BackendUnavailable) as err:
        run.error, run.verdict = str(err), "error"
    except KeyboardInterrupt:
        run.status = Status.INTERRUPTED
    except Exception as err:  # noqa: BLE001 - a crashing backend is a finding, not a crash
        run.error, run.verdict = f"{type(err).__name__}: {err}", "error"
    run.time = time.perf_counter() - started
    return run


def normalise(problem: Any, solution: Any) -> Hashable:
    """A solution as a hashable value independent of order: the sorted tuple of
    option indices (`ExactCover`) or the frozenset of (variable, value) (`Model`)."""
    if isinstance(problem, ExactCover):
        return tuple(sorted(int(k) for k in solution))
    return frozenset(solution.items())


_MODULUS = 1 << 256


def canonical(problem: Any, solution: Any) -> str:
    """A solution as a text independent of the order it was reported in: the
    sorted option indices (`ExactCover`), or `name=value` sorted by the
    names' repr (`Model`).

    >>> canonical(ExactCover.from_text("a b\\na\\nb\\n"), (1, 0))
    '0 1'
    """
    if isinstance(problem, ExactCover):
        return " ".join(str(k) for k in sorted(int(k) for k in solution))
    return ";".join(sorted(f"{name!r}={int(value)}" for name, value in solution.items()))


def solution_hash(problem: Any, solution: Any) -> int:
    """The SHA-256 of `canonical(problem, solution)`, as an int.

    A solution *set* hashes to the sum of its solutions' hashes mod 2**256
    (Bellare and Micciancio's AdHash): independent of the order of the
    solutions, and kept while counting without holding the solutions.
    """
    return int.from_bytes(hashlib.sha256(canonical(problem, solution).encode()).digest(), "big")


def _compare(problem: Any, runs: list[Run], keep: int) -> CrosscheckReport:
    notes: list[str] = []
    bad: set[str] = set()
    for run in runs:
        if run.invalid:
            bad.add(run.backend)
            solution, wrong = run.invalid[0]
            notes.append(f"{run.backend}: invalid solution {_show(problem, solution)}: "
                         f"{'; '.join(wrong[:3])}")
        if run.duplicates:
            bad.add(run.backend)
            notes.append(f"{run.backend}: returned {run.duplicates} solution(s) twice")
    ran = [run for run in runs if run.error is None]
    complete = [run for run in ran if run.complete]
    # The runs that listed their solutions (not a count-only one's) compare sets.
    listed = [run for run in complete if not run.counted_only]
    sets = [run for run in ran if run.solutions is not None]
    sets_compared = bool(listed) and all(run.solutions is not None for run in listed)
    difference = None
    if sets_compared:
        # Every kept solution was verified: one that a complete run lacks
        # proves that run wrong.
        union: dict[Hashable, tuple[Any, list[str]]] = {}
        for run in sets:
            assert run.solutions is not None
            for key, solution in run.solutions.items():
                union.setdefault(key, (solution, []))[1].append(run.backend)
        for key, (solution, present) in union.items():
            missing = [run.backend for run in listed
                       if run.solutions is not None and key not in run.solutions]
            if missing:
                bad.update(missing)
                if difference is None:
                    difference = Difference(solution, present, missing)
    if complete:
        counts = {run.count for run in complete}
        if len(counts) > 1:
            # The most solutions found is the count, but a run that returned an
            # invalid (or twice the same) solution counted it too: the others are
            # not wrong for that.
            trusted = [run.count for run in complete
                       if not run.invalid and not run.duplicates] or counts
            top = max(trusted)
            notes.append("complete runs disagree on the count: " + ", ".join(
                f"{run.backend}={run.count}" for run in complete))
            bad.update(run.backend for run in complete if run.count != top)
        exact = max(counts)
        for run in ran:
            if not run.complete and run.count > exact:
                bad.add(run.backend)
                notes.append(f"{run.backend}: found {run.count} solutions, more than the "
                             f"{exact} of a complete run")
    for run in runs:
        if run.error is not None:
            run.verdict = "error"
        elif run.backend in bad:
            run.verdict = "disagree"
        elif not run.complete:
            run.verdict = "inconclusive"
        else:
            run.verdict = "agree"
    if not sets_compared and listed:
        hashes = {run.set_hash for run in listed if not run.invalid}
        if len(hashes) > 1:
            # Past `keep` the sets are compared by their hashes: a complete run
            # whose hash the others do not share found another set.
            notes.append("complete runs found different solution sets (their hashes differ): "
                         + ", ".join(f"{run.backend}={run.set_hash[:12]}" for run in listed))
            shares = [sum(other.set_hash == run.set_hash for other in listed)
                      for run in listed]
            bad.update(run.backend for run, n in zip(listed, shares)
                       if n < max(shares) or shares.count(max(shares)) > max(shares))
        else:
            notes.append(f"solution sets not compared one by one (over {keep:,} solutions): "
                         "counts and set hashes compared")
    # A backend that could not run is no witness, and fewer than two finished
    # runs compared nothing: either way the check proves nothing.
    agree = not bad and all(run.error is None for run in runs) and len(complete) >= 2
    return CrosscheckReport(runs, agree, sets_compared, notes, difference, problem)


def _show(problem: Any, solution: Any) -> str:
    if isinstance(problem, ExactCover):
        chosen = list(solution)
        shown = " | ".join(_option_text(problem, k) for k in chosen[:8])
        return f"{tuple(chosen)} ({shown}{' | ...' if len(chosen) > 8 else ''})"
    if isinstance(solution, dict):
        items = list(solution.items())
        text = ", ".join(f"{k!r}: {v!r}" for k, v in items[:12])
        return "{" + text + (", ..." if len(items) > 12 else "") + "}"
    return repr(solution)


def _option_text(problem: ExactCover, k: Any) -> str:
    if not (isinstance(k, int) and 0 <= k < problem.n_options):
        return repr(k)
    try:
        return problem.option_text(k)
    except InputError:  # item names that are not tokens of Knuth's format
        return " ".join(repr(name) if colour is None else f"{name!r}:{colour!r}"
                        for name, colour in problem.option(k))


def _jsonable(solution: Any) -> Any:
    if isinstance(solution, dict):
        return [[_jsonable_name(k), v] for k, v in solution.items()]
    if isinstance(solution, Iterable):
        return [int(k) if isinstance(k, int) else repr(k) for k in solution]
    return repr(solution)


def _jsonable_name(name: Any) -> Any:
    return name if isinstance(name, (str, int)) else repr(name)


__all__ = ["CrosscheckReport", "Difference", "Run", "canonical", "crosscheck", "normalise",
           "solution_hash"]
