"""The `gecode` backend: Gecode, MiniZinc's default solver, through its
FlatZinc front end `fzn-gecode` (Debian `flatzinc`), on the model written
as FlatZinc (`csp.io.flatzinc.write`).

Debian's MiniZinc 2.6.4 and Gecode 6.2 disagree on the solver library
(`include "globals.mzn"` fails); csp writes FlatZinc itself, so MiniZinc is
never run: `fzn-gecode -a -s -time MS FILE`, from the backend's child
process (`csp.backends.forked`, `csp.backends.program`): Ctrl-C, a closed
search or an overrun time limit kill it with the child.

Its output is read exactly: `id = value;` for each variable of a solution,
`----------` after each solution, `==========` once the search is complete,
`=====UNSATISFIABLE=====` when there is none; `%%%mzn-stat: name=value`
lines are its statistics (`nodes`, `failures`, and the others in
`stats.extra`). A search stopped by its time limit prints no `==========`.
Anything else (a solution missing a variable, an exit without an answer) is
a `SolverFailed` with its last lines.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Hashable
from typing import Any, ClassVar

from csp.backends.base import ALL_CONSTRAINT_KINDS, CONSTRAINT_KINDS, OUTSIDE
from csp.backends.forked import ModelInChild, Outbox
from csp.backends.program import Program
from csp.model import Model
from csp.result import Status

PROGRAM = "fzn-gecode"

KINDS = ALL_CONSTRAINT_KINDS
"""Every kind: the FlatZinc writer says each with a builtin or decomposes it
itself (`csp.decompose`, in one pass: a model the dispatch layer had
decomposed already would be decomposed twice, and the auxiliary variables
of the two passes share names)."""

BOUND = (1 << 31) - 2
"""Gecode's `Int::Limits::max`: its integers are ints, one short of the range."""

GRACE = 1.0
"""Seconds `fzn-gecode` may run past its time limit before the child kills it."""

_ASSIGNED = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*=\s*(-?\d+|true|false)\s*;\s*$")
_STATISTIC = re.compile(r"^%%%mzn-stat:\s*(\w+)=(\S+)\s*$")


MAX_TUPLES = 1_000_000
"""The most tuples a forbidden table may allow (see `_allowed_tables`)."""


def refusal(m: Model) -> str | None:
    """Why Gecode cannot take `m` (a value past its ints, a forbidden table
    too large to give as the tuples it allows), or None."""
    import math

    from csp.constraints import Table

    for name, v in m.variables.items():
        if v.domain and max(-v.domain[0], v.domain[-1]) > BOUND:
            return f"variable {name!r} has a value beyond Gecode's bound of +-{BOUND:,}"
    for c in m.constraints:
        if isinstance(c, Table) and c.forbidden:
            size = math.prod(len(m.variables[x].domain) for x in c.scope)
            if size > MAX_TUPLES:
                return (f"{c.describe()} would allow up to {size:,} tuples, over the "
                        f"{MAX_TUPLES:,} gecode is given a forbidden table as")
    return None


def command(path: str, *, limit: int | None, time_limit: float | None) -> list[str]:
    """The command that runs Gecode on the FlatZinc file at `path`."""
    out = [PROGRAM, "-s"]
    out += ["-a"] if limit is None else ["-n", str(limit)]
    if time_limit is not None:
        out += ["-time", str(max(1, int(time_limit * 1000)))]
    return [*out, path]


def _search(outbox: Outbox, model: Model, limit: int | None, time_limit: float | None,
            count_only: bool) -> None:
    """The child: write the FlatZinc, run Gecode, read its answer."""
    from csp.io.flatzinc import write

    if any(not v.domain for v in model.variables.values()):
        outbox.done(Status.COMPLETE, {"solutions": 0})
        return
    with tempfile.TemporaryDirectory(prefix="csp-gecode-") as place:
        path = os.path.join(place, "model.fzn")
        ids = write(_allowed_tables(model), path, dialect="gecode")
        left = None if time_limit is None else time_limit - outbox.elapsed()
        if left is not None and left <= 0:
            outbox.done(Status.TIME_LIMIT, {"solutions": 0})
            return
        started = time.perf_counter()
        program = Program(command(path, limit=limit, time_limit=left),
                          deadline=None if left is None else started + left + GRACE)
        try:
            _read(outbox, program, model, ids, limit, count_only, started)
        except ValueError as err:
            raise program.failure(f"unreadable output: {err}") from None
        finally:
            program.finish()


def _allowed_tables(model: Model) -> Model:
    """`model` with its forbidden tables as tables of the tuples they allow
    (within the domains). The FlatZinc writer's own clauses for a forbidden
    table fail on an unbound comparison (KeyError, i23formats at 833e00c):
    until that is mended, Gecode gets what a forbidden table allows."""
    from csp.constraints import Table

    if not any(isinstance(c, Table) and c.forbidden for c in model.constraints):
        return model
    copy = Model(model.name)
    for name, v in model.variables.items():
        copy.var(name, v.domain)
    for c in model.constraints:
        if isinstance(c, Table) and c.forbidden:
            domains = [model.variables[x].domain for x in c.scope]
            c = Table([copy.variables[x] for x in c.scope], c.allowed(domains))
            copy.add(c)
        else:
            copy.constraints.append(c)  # bound already: its scope names the same variables
    return copy


def _read(outbox: Outbox, program: Program, model: Model, ids: dict[Hashable, str],
          limit: int | None, count_only: bool, started: float) -> None:
    names = list(model.variables)
    position = {xid: k for k, xid in enumerate(ids[name] for name in names)}
    values: list[int | None] = [None] * len(names)
    found = 0
    complete = False
    statistics: dict[str, str] = {}
    for line in program.lines():
        if match := _ASSIGNED.match(line):
            if match[1] in position:
                text = match[2]
                values[position[match[1]]] = (int(text == "true") if text in ("true", "false")
                                              else int(text))
        elif line == "----------":
            missing = [names[k] for k, v in enumerate(values) if v is None]
            if missing:
                raise ValueError(f"a solution without a value for {missing[0]!r}")
            found += 1
            if not count_only:
                outbox.solution(tuple(values))
            elif outbox.due():
                outbox.progress(_figures(found, started, statistics))
            values = [None] * len(names)
            if limit is not None and found >= limit:
                outbox.done(Status.SOLUTION_LIMIT, _figures(found, started, statistics))
                return
        elif line in ("==========", "=====UNSATISFIABLE====="):
            complete = True
        elif match := _STATISTIC.match(line):
            statistics[match[1]] = match[2]
    if program.overran:
        outbox.done(Status.TIME_LIMIT, _figures(found, started, statistics))
        return
    code = program.finish()
    said = statistics.get("solutions")
    if said is not None and int(said) != found:
        raise program.failure(f"Gecode counted {said} solutions but printed {found}")
    if complete:
        status = Status.COMPLETE
    elif code == 0 and statistics:
        status = Status.TIME_LIMIT  # its own time limit: a complete answer says so
    else:
        raise program.failure("Gecode ended without an answer")
    outbox.done(status, _figures(found, started, statistics))


def _figures(found: int, started: float, statistics: dict[str, str]) -> dict[str, Any]:
    extra = {k: _number(v) for k, v in statistics.items()
             if k not in ("solutions", "nodes", "failures")}
    return {"solutions": found, "time": time.perf_counter() - started,
            "nodes": _whole(statistics.get("nodes")),
            "failures": _whole(statistics.get("failures")), "extra": extra}


def _whole(text: str | None) -> int | None:
    return None if text is None else int(float(text))


def _number(text: str) -> Any:
    try:
        return float(text) if "." in text or "e" in text else int(text)
    except ValueError:
        return text


class GecodeBackend(ModelInChild):
    """Gecode through fzn-gecode on FlatZinc, in a child process; native
    form `Model`. It refuses a value past Gecode's ints and a forbidden
    table too large to give as the tuples it allows."""

    name: ClassVar[str] = "gecode"
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS | KINDS | {OUTSIDE}
    grace: ClassVar[float] = 2 * GRACE
    work = staticmethod(_search)

    def refuses(self, problem: Model) -> str | None:
        """Why Gecode cannot take `problem`, or None."""
        return refusal(problem)


__all__ = ["GecodeBackend", "KINDS", "command"]
