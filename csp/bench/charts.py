"""The charts of a benchmark (matplotlib, an optional extra: `pip install
'csp-workbench[bench]'`, which `all` includes): a cactus plot and a pairwise
scatter of times, from the summary rows (`csp.bench.runner.summarise`).

- cactus: per solver (and the virtual best), the number of instances solved
  within each time: a step up at each solved instance's time. Each solver's
  unsolved instances (timeouts and the rest) are written at the time limit;
- scatter: one panel per solver, one point per instance at (the best time
  of the *other* solvers, this solver's time), log-log, the diagonal drawn:
  above it the solver is slower than the best of the rest, below it it is the
  best. An instance that a solver did not solve is put *at the time limit* (a
  cross, not left out), so a timeout shows where it hurts; the instances
  furthest above the diagonal are labelled. Two solvers: one panel, the one
  against the other (`scatter_points`).

The numbers each chart draws come from pure functions (`cactus_points`,
`scatter_points`, `against_best`), which the tests check without drawing.

>>> rows = [{"instance": "a", "solver": "x", "status": "ok", "median": 0.5, "time_limit": 2},
...         {"instance": "b", "solver": "x", "status": "timeout", "median": None,
...          "time_limit": 2},
...         {"instance": "a", "solver": "y", "status": "ok", "median": 0.1, "time_limit": 2},
...         {"instance": "b", "solver": "y", "status": "ok", "median": 1.5, "time_limit": 2}]
>>> cactus_points(rows, "y")
[(0.1, 1), (1.5, 2)]
>>> scatter_points(rows, "x", "y", cap(rows))
[('a', 0.5, 0.1, False, False), ('b', 2.0, 1.5, True, False)]
>>> against_best(rows, "x", cap(rows))
[('a', 0.1, 0.5, False, False), ('b', 1.5, 2.0, False, True)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from csp.bench import solved
from csp.bench.runner import CANNOT

Rows = Sequence[dict[str, Any]]


def pyplot() -> Any | None:
    """matplotlib's pyplot on the file-only Agg backend; None if not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


MISSING = ("matplotlib is not installed: no charts, the tables are written "
           "(pip install 'csp-workbench[bench]')")
"""The one line `csp bench` prints without matplotlib."""


def cap(rows: Rows) -> float:
    """Where an unsolved instance is drawn: the time limit, or with no finite
    limit twice the longest time solved."""
    limit = solved.time_limit(rows)
    if limit is not None and limit > 0:
        return limit
    times = [t for t in map(solved.solve_time, rows) if t is not None]
    return 2 * max(times) if times else 1.0


def cactus_points(rows: Rows, solver: str) -> list[tuple[float, int]]:
    """(time, instances solved within it) at each instance `solver` solved;
    `solver` may be `solved.VBS`."""
    if solver == solved.VBS:
        times = [t for t in solved.best_times(rows).values() if t is not None]
    else:
        times = [t for r in rows if r["solver"] == solver
                 if (t := solved.solve_time(r)) is not None]
    return [(t, k) for k, t in enumerate(sorted(times), start=1)]


def scatter_points(rows: Rows, a: str, b: str,
                   at: float) -> list[tuple[str, float, float, bool, bool]]:
    """(instance, time of a, time of b, a unsolved, b unsolved) per instance
    that both ran; an unsolved time is `at` (the time limit)."""
    index = {(r["instance"], r["solver"]): r for r in rows}
    out = []
    for name in solved.instances(rows):
        if (name, a) not in index or (name, b) not in index:
            continue
        ta, tb = solved.solve_time(index[name, a]), solved.solve_time(index[name, b])
        out.append((name, at if ta is None else ta, at if tb is None else tb,
                    ta is None, tb is None))
    return out


def against_best(rows: Rows, solver: str,
                 at: float) -> list[tuple[str, float, float, bool, bool]]:
    """(instance, best time of the other solvers, time of `solver`, no other
    solved it, `solver` did not) per instance `solver` ran (one it cannot
    express is left out: it did not run); an unsolved time is `at` (the time
    limit)."""
    out = []
    mine = {r["instance"]: solved.solve_time(r) for r in rows
            if r["solver"] == solver and r.get("status") != CANNOT}
    others = solved.best_times([r for r in rows if r["solver"] != solver])
    for name, t in mine.items():
        best = others.get(name)
        out.append((name, at if best is None else best, at if t is None else t,
                    best is None, t is None))
    return out


LABELLED = 3
"""Instances labelled per scatter panel: those furthest above the diagonal."""


def _floor(value: float) -> float:
    """A positive lower edge for a log axis (a run can take ~0 s)."""
    return max(value, 1e-6)


def cactus_figure(rows: Rows, title: str) -> Any:
    plt = pyplot()
    assert plt is not None
    n = len(solved.instances(rows))
    limit = cap(rows)
    counts = {r["solver"]: r for r in solved.table(rows)}
    fig, ax = plt.subplots(figsize=(10, 5))
    # The virtual best first, wide and pale: the solvers' curves are drawn over
    # it, so that the one it follows (often dlx) stays in sight.
    for solver in [solved.VBS, *solved.solvers(rows)]:
        points = cactus_points(rows, solver)
        line = counts[solver]
        unsolved = n - line["solved"]
        label = f"{solver}: {line['solved']}/{n} solved"
        if line["timeout"]:
            label += f", {line['timeout']} timeout{'s' if line['timeout'] > 1 else ''}"
        if solver == solved.VBS:
            label = f"virtual best (wide, behind): {line['solved']}/{n} solved"
        style = ({"color": "black", "linewidth": 7, "alpha": 0.18, "zorder": 1}
                 if solver == solved.VBS else {"zorder": 2})
        xs = [_floor(t) for t, _ in points]
        ys = [k for _, k in points]
        # the curve starts at 0 solved and runs on flat to the limit
        drawn = ax.step([_floor(min(xs, default=limit)), *xs, limit], [0, *ys, len(ys)],
                        where="post", label=label, **style)
        if unsolved:
            ax.plot([limit], [len(ys)], marker="x", markersize=9, linestyle="none",
                    color=drawn[0].get_color())
    ax.axvline(limit, color="grey", linestyle=":", label=f"time limit {limit:g} s "
               "(x: unsolved instances remain)")
    ax.axhline(n, color="grey", linewidth=0.5)
    ax.set_xscale("log")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylim(0, n + max(1, n // 20))
    ax.set_xlabel("time per instance (s, log scale)")
    ax.set_ylabel("instances solved")
    ax.set_title(f"{title}: instances solved within a time")
    # beside the axes: inside, it would hide the curves' tops
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return fig


def scatter_figure(rows: Rows, title: str) -> Any:
    """Each solver against the best of the others (two solvers: the one
    against the other), one panel each, its outliers labelled."""
    plt = pyplot()
    assert plt is not None
    names = solved.solvers(rows)
    limit = cap(rows)
    if len(names) == 2:
        a, b = names
        panels = [(f"{a} (s)", f"{b} (s)", scatter_points(rows, a, b, limit))]
        note = f"below the diagonal: {b} is faster"
    else:
        panels = [("best of the others (s)", f"{solver} (s)", against_best(rows, solver, limit))
                  for solver in names]
        note = "above the diagonal: slower than the best of the others; below: the best"
    cols = min(3, len(panels))
    lines = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(lines, cols, figsize=(4.4 * cols, 4.2 * lines + 0.6),
                             squeeze=False, layout="constrained")
    low = _floor(min((t for r in rows if (t := solved.solve_time(r)) is not None),
                     default=limit) / 2)
    for ax, (xlabel, ylabel, points) in zip(axes.flat, panels):
        both = [(x, y) for _, x, y, ux, uy in points if not (ux or uy)]
        cut = [(x, y) for _, x, y, ux, uy in points if ux or uy]
        ax.plot([low, limit], [low, limit], color="grey", linewidth=0.8)
        ax.axvline(limit, color="grey", linestyle=":")
        ax.axhline(limit, color="grey", linestyle=":")
        ax.scatter([_floor(x) for x, _ in both], [_floor(y) for _, y in both], s=16)
        ax.scatter([_floor(x) for x, _ in cut], [_floor(y) for _, y in cut], marker="x",
                   color="red", s=30)
        # the solved instances furthest above the diagonal, named (the crosses
        # at the limit are too close together to name)
        worst = sorted((p for p in points if not (p[3] or p[4]) and p[2] > 3 * p[1]),
                       key=lambda p: p[1] / p[2])
        for k, (name, x, y, _, _) in enumerate(worst[:LABELLED]):
            ax.annotate(_short(name), (_floor(x), _floor(y)), xytext=(5, (-10, 4, -22)[k]),
                        textcoords="offset points", fontsize=6.5, color="dimgrey")
        ax.set_title(f"{ylabel[:-4]}: {len(both) + len(cut)} instances, {len(cut)} x "
                     "(unsolved, at the limit)", fontsize="small")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(low, limit * 1.5)
        ax.set_ylim(low, limit * 1.5)
        ax.set_xlabel(xlabel, fontsize="small")
        ax.set_ylabel(ylabel, fontsize="small")
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(f"{title}: time per instance, log-log; {note}", fontsize="medium")
    return fig


def _short(name: str, width: int = 22) -> str:
    """An instance's name cut to fit beside a point (a file's path: its file name)."""
    name = Path(name.split("#")[0]).name + ("#" + name.split("#")[1] if "#" in name else "")
    return name if len(name) <= width else name[: width - 1] + "…"


def write(rows: Rows, out: Path, title: str) -> list[Path]:
    """cactus.png and (with two solvers or more) scatter.png in `out`; [] without
    matplotlib or without a time."""
    plt = pyplot()
    if plt is None or not rows:
        return []
    written = []
    for name, draw, wanted in (("cactus.png", cactus_figure, True),
                               ("scatter.png", scatter_figure,
                                len(solved.solvers(rows)) > 1)):
        if not wanted:
            continue
        fig = draw(rows, title)
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        written.append(out / name)
    return written
