"""What a comparison of solvers over many instances reports: per solver the
instances solved within the time limit, and the virtual best solver (VBS),
which on each instance takes the fastest solver that solved it.

"Solved" is status `ok`: the run completed within its time limit (and its
count was right where the answer is known). Every other status (`timeout`,
`error`, `cannot express`, `WRONG`) is unsolved. Times are the summary's
medians (`csp.bench.runner.summarise`). PAR-2, as in the SAT competitions,
adds the times of the solved instances and twice the time limit for each
unsolved one: one number that ranks solvers by speed and by coverage.

>>> rows = [{"instance": "a", "solver": "x", "status": "ok", "median": 1.0, "time_limit": 10},
...         {"instance": "a", "solver": "y", "status": "ok", "median": 3.0, "time_limit": 10},
...         {"instance": "b", "solver": "x", "status": "timeout", "median": None,
...          "time_limit": 10},
...         {"instance": "b", "solver": "y", "status": "ok", "median": 2.0, "time_limit": 10}]
>>> [(r["solver"], r["solved"], r["timeout"], r["time"], r["par2"], r["fastest"])
...  for r in table(rows)]
[('x', 1, 1, 1.0, 21.0, 1), ('y', 2, 0, 5.0, 5.0, 1), ('VBS', 2, 0, 3.0, 3.0, None)]
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from csp.bench.runner import OK, TIMEOUT

VBS = "VBS"
"""The virtual best solver's name in the table."""


def instances(rows: Sequence[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["instance"] for r in rows))


def solvers(rows: Sequence[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["solver"] for r in rows))


def solve_time(row: dict[str, Any] | None) -> float | None:
    """The row's time if it solved its instance, else None."""
    if row is None or row.get("status") != OK or row.get("median") is None:
        return None
    return float(row["median"])


def best_times(rows: Sequence[dict[str, Any]],
               among: Collection[str] | None = None) -> dict[str, float | None]:
    """Instance -> the virtual best solver's time (None: no solver solved it),
    over the solvers `among` (default: all)."""
    best: dict[str, float | None] = {name: None for name in instances(rows)}
    for row in rows:
        if among is not None and row["solver"] not in among:
            continue
        t = solve_time(row)
        was = best[row["instance"]]
        if t is not None and (was is None or t < was):
            best[row["instance"]] = t
    return best


def time_limit(rows: Sequence[dict[str, Any]]) -> float | None:
    """The largest finite time limit of the rows (None when there is none)."""
    limits = [float(r["time_limit"]) for r in rows
              if r.get("time_limit") is not None and math.isfinite(float(r["time_limit"]))]
    return max(limits) if limits else None


def table(rows: Sequence[dict[str, Any]],
          groups: Mapping[str, Collection[str]] | None = None) -> list[dict[str, Any]]:
    """One row per solver, then the VBS: instances, solved, timeout, other
    (unsolved for another reason), time (the solved instances' times added),
    par2 (None when the limit is not finite), fastest (instances on which it
    was the fastest solver, ties to each). Then a virtual best per group of
    `groups` (name -> its solvers), such as csp's own backends, to set
    against the others one by one.

    >>> rows = [{"instance": "a", "solver": s, "status": "ok", "median": t, "time_limit": 10}
    ...         for s, t in (("x", 1.0), ("y", 3.0), ("z", 2.0))]
    >>> [(r["solver"], r["time"]) for r in table(rows, {"VBS of x, y": ["x", "y"]})][-2:]
    [('VBS', 1.0), ('VBS of x, y', 1.0)]
    """
    names = instances(rows)
    best = best_times(rows)
    limit = time_limit(rows)
    index = {(r["instance"], r["solver"]): r for r in rows}
    out = []
    for solver in solvers(rows):
        times = [solve_time(index.get((name, solver))) for name in names]
        statuses = [index[(name, solver)]["status"] for name in names
                    if (name, solver) in index]
        out.append(_line(solver, times, limit) | {
            "timeout": statuses.count(TIMEOUT),
            "other": len(names) - sum(t is not None for t in times) - statuses.count(TIMEOUT),
            "fastest": sum(t is not None and t == best[name] for t, name in zip(times, names))})
    vbs = [best[name] for name in names]
    unsolved = sum(t is None for t in vbs)
    out.append(_line(VBS, vbs, limit) | {"timeout": unsolved, "other": 0, "fastest": None})
    for group, among in (groups or {}).items():
        best = best_times(rows, among)
        vbs = [best[name] for name in names]
        out.append(_line(group, vbs, limit) | {
            "timeout": sum(t is None for t in vbs), "other": 0, "fastest": None})
    return out


def _line(solver: str, times: Sequence[float | None], limit: float | None) -> dict[str, Any]:
    solved = [t for t in times if t is not None]
    unsolved = len(times) - len(solved)
    return {"solver": solver, "instances": len(times), "solved": len(solved),
            "time": sum(solved),
            "par2": None if limit is None else sum(solved) + 2 * limit * unsolved}


def disagreements(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Instance -> {solver: count} for each instance on which solvers that
    finished found different counts (one of them at least is wrong: with no
    known answer, the bench cannot tell which).

    >>> disagreements([{"instance": "a", "solver": "x", "status": "ok", "count": 2},
    ...                {"instance": "a", "solver": "y", "status": "ok", "count": 3}])
    {'a': {'x': 2, 'y': 3}}
    """
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        if row.get("status") == OK and row.get("count") is not None:
            counts.setdefault(row["instance"], {})[row["solver"]] = int(row["count"])
    return {name: found for name, found in counts.items() if len(set(found.values())) > 1}
