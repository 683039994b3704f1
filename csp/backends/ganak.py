"""The `ganak` backend: an exact model counter (Ganak, through pyganak), which
counts without listing solutions.

Both forms are encoded as CNF by `sat`'s encodings (`csp.backends.sat.cnf`):
a model one-hot, an exact cover one literal per option. Ganak counts the
assignments of the declared literals (the variables' values, the options)
that extend to a model of the clauses: its *sampling set* is those
literals, so the encoding's auxiliary literals (a cardinality encoding's
counters may take several values for one solution) never multiply the
count. It counts by component caching and clause learning, not by
enumerating: 12x12 domino tilings (53,060,477,521,960,000) in seconds, as a
witness that no enumerating backend could be in a lifetime.

It counts only (capability `COUNTS_ONLY`): `csp.solve` and `csp.solutions`
refuse it before solving, `crosscheck` compares its count with the others'.
The count is one C++ call, with no time limit or progress of its own: it
runs in a child process (`csp.backends.forked`), killed at the time limit
(status `TIME_LIMIT`, count 0: it never reports a partial count) or on
Ctrl-C.

**A caveat.** Ganak's component cache is keyed by a hash of the component;
two components whose 64-bit hashes collide share an entry, and a count was
once wrong that way (meelgroup/ganak#116). A count that matters deserves a
second, independent witness: `csp crosscheck` runs one.

>>> from csp import AllDifferent, Model
>>> m = Model()
>>> _ = m.add(AllDifferent(m.vars("abc", range(3))))
>>> GanakBackend().count(m).count
6
"""

from __future__ import annotations

from typing import Any, ClassVar

from csp.backends.base import COLOURS, CONSTRAINT_KINDS, COUNTS_ONLY, LOGIC, OUTSIDE, Progress
from csp.backends.forked import ForkedSearch, Outbox
from csp.backends.sat.globals import NATIVE
from csp.errors import InputError, Refused
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result, Status

CAVEAT = ("ganak's cache is keyed by a 64-bit hash: a collision once gave a wrong count "
          "(meelgroup/ganak#116); a count that matters deserves a second witness")
"""What a user is told with every count (`stats.extra["caveat"]`)."""


def _count(outbox: Outbox, problem: ExactCover | Model, limit: int | None,
           time_limit: float | None, count_only: bool) -> None:
    """The child: encode, then count on the declared literals."""
    import pyganak

    from csp.backends.sat.cnf import encode

    cnf = encode(problem)
    figures: dict[str, Any] = {"extra": {"clauses": len(cnf.clauses),
                                         "literals": cnf.pool.top}}
    if cnf.unsatisfiable:
        outbox.done(Status.COMPLETE, {**figures, "solutions": 0, "time": 0.0})
        return
    started = outbox.elapsed()
    counter = pyganak.Counter()
    if cnf.pool.top:
        counter.new_vars(cnf.pool.top)
    counter.add_clauses(cnf.clauses)
    counter.set_sampling_set(cnf.declared)
    count = counter.count()
    outbox.done(Status.COMPLETE, {**figures, "solutions": int(count),
                                  "time": outbox.elapsed() - started})


class GanakBackend:
    """Ganak's exact model counting on `sat`'s CNF; both forms taken directly."""

    name: ClassVar[str] = "ganak"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    capabilities: ClassVar[frozenset[str]] = (CONSTRAINT_KINDS | NATIVE  # sat's encodings
                                              | {LOGIC, "SumNotEqual", COLOURS, COUNTS_ONLY,
                                                 OUTSIDE})
    caveat: ClassVar[str] = CAVEAT
    """Said by `csp list` and with every count (`stats.extra["caveat"]`)."""

    def refuses(self, problem: ExactCover | Model) -> str | None:
        """Why the encoding cannot take `problem` (too many one-hot literals,
        a sum's diagram too large), or None."""
        from csp.backends.sat.cnf import refusal

        return refusal(problem) if isinstance(problem, Model) else None

    def solutions(self, problem: Any, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None) -> Any:
        raise Refused("backend 'ganak' counts solutions but does not list them")

    def count(self, problem: ExactCover | Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        why = self.refuses(problem)
        if why is not None:
            raise InputError(f"ganak: {why}")
        # It cannot stop itself: no grace, killed at the limit.
        search = ForkedSearch(self.name, _count, problem, time_limit=time_limit,
                              progress=progress, count_only=True, grace=0.0)
        result = search.count()
        result.stats.extra["caveat"] = CAVEAT
        return result


__all__ = ["CAVEAT", "GanakBackend"]
