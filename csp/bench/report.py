"""Writing a benchmark down: Markdown, CSV, JSON, PNG charts, and comparisons.

`compare` calls a change *faster* or *slower* only when it exceeds the noise:
the medians differ by more than the threshold (10%) **and** the ranges
[fastest run, slowest run] of the two series do not overlap. A change of the
median that stays inside the runs' spread is `noise`. A row saved without a
spread (one run, or an old file) is judged by the threshold alone.

>>> rows = [{"instance": "q", "solver": "a", "median": 0.5, "min": 0.48, "max": 0.53,
...          "runs": 3, "status": "ok"},
...         {"instance": "q", "solver": "b", "median": 0.2, "min": 0.15, "max": 0.3,
...          "runs": 3, "status": "ok"}]
>>> old = {"summary": rows}
>>> new = {"summary": [dict(rows[0], median=0.25, min=0.24, max=0.27),
...                    dict(rows[1], median=0.25, min=0.2, max=0.31)]}
>>> print(compare(old, new))
| instance | solver | old | new | new/old | |
|---|---|---|---|---|---|
| q | a | 500.0 ms (480.0 ms - 530.0 ms) | 250.0 ms (240.0 ms - 270.0 ms) | 0.50 | faster |
| q | b | 200.0 ms (150.0 ms - 300.0 ms) | 250.0 ms (200.0 ms - 310.0 ms) | 1.25 | noise |
<BLANKLINE>
1 faster, 0 slower, 1 about the same (a change: medians more than 10% apart and \
the [min, max] of the runs not overlapping)
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from csp.bench import charts, solved
from csp.bench.runner import CANNOT, FAILURES, OK, TIMEOUT, BenchRun, summarise

CUSTOM = "custom"
"""The suite name of a run on the user's own instances."""

CSV_FIELDS = ("solver", "kind", "version", "instance", "family", "form", "puzzles", "phase",
              "run", "status", "count", "expected", "search_status", "time", "prep_time",
              "nodes", "stats", "parameters", "note")


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 0:  # a difference of two noisy times
        return "~0"
    if value < 0.001:
        return f"{value * 1e6:.0f} us"
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def _cell(row: dict[str, Any]) -> str:
    if row["status"] == OK:
        return seconds(row["median"])
    if row["status"] in FAILURES:
        return f"**{row['status']}**"
    return row["status"]


def markdown(bench: BenchRun) -> str:
    """The report: machine, command, the instance x solver table, one-time costs,
    failures (loudly), and what was skipped."""
    rows = summarise(bench.records)
    m = bench.machine
    title = "your instances" if bench.suite == CUSTOM else f"suite `{bench.suite}`"
    out = [f"# csp bench: {title}", "",
           f"- command: `{bench.command}`",
           f"- started: {bench.started}; took {bench.elapsed:.1f} s",
           f"- machine: {m.get('cpu')}, {m.get('nproc')} cores, {m.get('platform')}; "
           f"Python {m.get('python')}, numba {m.get('numba')}, numpy {m.get('numpy')}; "
           f"load average at start {m.get('loadavg')}",
           "- time: median of the warm runs (the solver's count call on its own input, "
           "in-process, after a first run); prep: turning the instance into the solver's "
           "input (lowering, arrays), once; spread: the fastest and the slowest run; "
           "ratio: to the fastest correct solver", ""]
    failures = [r for r in rows if r["status"] in FAILURES]
    if failures:
        out += ["## FAILURES", ""]
        out += [f"- **{r['status']}**: {r['solver']} on {r['instance']}: {r['note']}"
                for r in failures]
        out.append("")
    out += disagreements_text(rows)
    if rows:
        out += solved_table(rows)
    instances = list(dict.fromkeys(r["instance"] for r in rows))
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    out += ["## Time per instance (median, warm)", "",
            "| instance | " + " | ".join(solvers) + " |",
            "|---|" + "---|" * len(solvers)]
    index = {(r["instance"], r["solver"]): r for r in rows}
    for instance in instances:
        cells = []
        for solver in solvers:
            row = index.get((instance, solver))
            cell = "" if row is None else _cell(row)
            if row is not None and row.get("ratio") == 1.0:
                cell = f"**{cell}**"
            cells.append(cell)
        out.append(f"| {instance} | " + " | ".join(cells) + " |")
    out += ["", "## Every instance and solver", "",
            "| instance | solver | median | spread | runs | first | prep | nodes | count | "
            "known | ratio | status |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for instance in instances:
        for row in sorted((r for r in rows if r["instance"] == instance),
                          key=lambda r: (r.get("ratio") is None, r.get("ratio") or 0)):
            ratio = f"{row['ratio']:.2f}" if row.get("ratio") else "-"
            status = row["status"] if row["status"] not in FAILURES else f"**{row['status']}**"
            if row["status"] != OK and row.get("note"):
                status += f": {row['note']}"
            out.append(
                f"| {instance} | {row['solver']} | {seconds(row['median'])} | "
                f"{_spread(row)} | {row['runs']} | "
                f"{seconds(row['first'])} | {seconds(row['prep'])} | "
                f"{'-' if row['nodes'] is None else format(row['nodes'], ',')} | "
                f"{'-' if row['count'] is None else format(row['count'], ',')} | "
                f"{format(row['expected'], ',') if row.get('expected') is not None else '-'} | "
                f"{ratio} | {status} |")
    if bench.startups:
        out += ["", "## One-time costs (fresh process, probe: 8 queens)", "",
                "| solver | numba cache | import | first call | warm call | first - warm |",
                "|---|---|---|---|---|---|"]
        for s in bench.startups:
            if s.get("status") != OK:
                out.append(f"| {s['solver']} | {'empty' if s.get('fresh_cache') else 'as is'} "
                           f"| {s.get('status')} {s.get('note', '')} | | | |")
                continue
            out.append(f"| {s['solver']} | {'empty' if s.get('fresh_cache') else 'as is'} | "
                       f"{seconds(s['import_time'])} | {seconds(s['first_call'])} | "
                       f"{seconds(s['warm_call'])} | {seconds(s['first_call_extra'])} |")
        out += ["", "With an empty numba cache the first call compiles: that row's "
                "first - warm is the one-time JIT cost; with the cache as is it is the cost "
                "of loading compiled code (paid by every new process)."]
    if bench.skipped:
        out += ["", "## Not run", ""]
        out += [f"- {what}: {why}" for what, why in bench.skipped]
    cannot = [r for r in rows if r["status"] not in (OK, *FAILURES)]
    if cannot:
        out += ["", "## Rows without a time", ""]
        out += [f"- {r['solver']} on {r['instance']}: {r['status']} ({r['note']})"
                for r in cannot]
    return "\n".join(out) + "\n"


def _spread(row: dict[str, Any]) -> str:
    if row.get("min") is None or row.get("runs", 0) < 2:
        return "-"
    return f"{seconds(row['min'])} - {seconds(row['max'])}"


def disagreements_text(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The instances on which solvers that finished counted differently (loud)."""
    found = solved.disagreements(rows)
    if not found:
        return []
    out = ["## DISAGREEMENTS", ""]
    out += [f"- **{name}**: " + ", ".join(f"{s} counted {c:,}" for s, c in counts.items())
            for name, counts in found.items()]
    return [*out, ""]


OWN = "VBS of csp's in-process backends"
"""The virtual best over the backends that run inside csp's process, beside
the field's solvers (capability `OUTSIDE`) when a run has both."""


def groups(rows: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """{OWN: its backends} when the run has backends of both sides, else {}."""
    from csp import backends
    from csp.backends.base import OUTSIDE
    from csp.errors import BackendUnavailable

    inside: list[str] = []
    outside: list[str] = []
    for name in solved.solvers(rows):
        if not backends.is_known(name):
            continue  # a peer package, measured through its own API
        try:
            caps = backends.get(name).capabilities
        except BackendUnavailable:  # not installed here: neither side
            continue
        (outside if OUTSIDE in caps else inside).append(name)
    return {OWN: inside} if inside and outside else {}


def solved_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Solved counts, time and PAR-2 per solver, for the virtual best, and
    for the virtual best of csp's in-process backends when the field's
    solvers ran too."""
    limit = solved.time_limit(rows)
    out = [f"## Solved within the time limit ({'none' if limit is None else f'{limit:g} s'})",
           "", "| solver | solved | timeout | other | time (solved) | PAR-2 | fastest on |",
           "|---|---|---|---|---|---|---|"]
    sides = groups(rows)
    for line in solved.table(rows, sides):
        out.append(f"| {line['solver']} | {line['solved']}/{line['instances']} | "
                   f"{line['timeout']} | {line['other']} | {seconds(line['time'])} | "
                   f"{seconds(line['par2'])} | "
                   f"{'-' if line['fastest'] is None else line['fastest']} |")
    out += ["", f"{solved.VBS}: the virtual best solver, the fastest solver on each instance. "
            "other: unsolved for another reason than the time limit (error, cannot express, "
            "WRONG). PAR-2: the solved instances' times plus twice the limit per unsolved "
            "one.", ""]
    if sides:
        out[-1:] = [f"{OWN}: the fastest of {', '.join(sides[OWN])} on each instance, "
                    "against the field's solvers, which run outside the process.", ""]
    return out


def write_csv(bench: BenchRun, path: Path) -> None:
    rows = []
    for record in bench.records:
        row = dict(record)
        for key in ("stats", "parameters"):
            if key in row:
                row[key] = json.dumps(row[key], sort_keys=True)
        rows.append(row)
    _write_rows(rows, CSV_FIELDS, path)


def write_json(bench: BenchRun, path: Path) -> None:
    data = bench.to_dict()
    data["solved"] = (solved.table(data["summary"], groups(data["summary"]))
                      if data["summary"] else [])
    data["disagreements"] = solved.disagreements(data["summary"])
    path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")


def write_png(bench: BenchRun, path: Path) -> bool:
    """A log-scale bar chart of time per instance per solver, whiskers from the
    fastest to the slowest run; an instance a solver did not solve within the
    limit is a hatched bar up to the limit, marked `timeout` (not a missing
    bar). False without matplotlib, or with nothing timed."""
    plt = charts.pyplot()
    if plt is None:
        return False
    rows = [r for r in summarise(bench.records) if r["status"] in (OK, TIMEOUT, CANNOT)]
    if not any(r["status"] == OK and r["median"] for r in rows):
        return False
    limit = charts.cap(rows)
    instances = list(dict.fromkeys(r["instance"] for r in rows))
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    width = 0.8 / len(solvers)
    fig, ax = plt.subplots(figsize=(max(8, 1.2 * len(instances)), 5.6))
    timeouts = cannot = 0
    bottom = _floor_of(rows)
    for k, solver in enumerate(solvers):
        xs, ys, low, high, cut, unsaid = [], [], [], [], [], []
        for i, instance in enumerate(instances):
            for r in rows:
                if r["instance"] != instance or r["solver"] != solver:
                    continue
                x = i + k * width - 0.4 + width / 2
                if r["status"] == TIMEOUT:
                    cut.append(x)
                    continue
                if r["status"] == CANNOT:
                    unsaid.append(x)
                    continue
                xs.append(x)
                ys.append(r["median"])
                low.append(r["median"] - _or(r.get("min"), r["median"]))
                high.append(_or(r.get("max"), r["median"]) - r["median"])
        bars = ax.bar(xs, ys, width, yerr=[low, high], capsize=2, label=solver)
        if cut:
            colour = bars.patches[0].get_facecolor() if bars.patches else None
            ax.bar(cut, [limit] * len(cut), width, color="none", edgecolor=colour,
                   hatch="//", label=None if timeouts else "timeout (hatched, up to the limit)")
            for x in cut:
                ax.text(x, limit * 0.8, "timeout", rotation=90, ha="center", va="top",
                        fontsize="x-small")
            timeouts += len(cut)
        if unsaid:
            # drawn, not a gap: the package has no way to state this instance
            colour = bars.patches[0].get_facecolor() if bars.patches else "grey"
            ax.scatter(unsaid, [bottom * 1.6] * len(unsaid), marker="_", s=60, color=colour,
                       label=None if cannot else "cannot express (a dash at the foot)")
            for x in unsaid:
                ax.text(x, bottom * 2.2, "cannot express", rotation=90, ha="center",
                        va="bottom", fontsize="xx-small", color="dimgrey")
            cannot += len(unsaid)
    if timeouts:
        ax.axhline(limit, color="grey", linestyle=":", label=f"time limit {limit:g} s")
    ax.set_yscale("log")
    ax.set_ylim(bottom, limit * 1.6)
    ax.set_ylabel("median time (s, log scale; whiskers: min to max)")
    ax.set_xticks(range(len(instances)))
    ax.set_xticklabels(instances, rotation=30, ha="right")
    ax.set_title(_title(bench))
    # above the axes, in one row: inside, it would cover bars
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i] not in solvers)  # solvers first
    ax.legend([handles[i] for i in order], [labels[i] for i in order], fontsize="small",
              loc="lower center", bbox_to_anchor=(0.5, 1.06), ncol=min(6, len(solvers) + 3),
              frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def _floor_of(rows: Sequence[dict[str, Any]]) -> float:
    """The foot of the bar chart's log axis: below the fastest time."""
    times = [r["median"] for r in rows if r["status"] == OK and r["median"]]
    return min(times) / 4 if times else 1e-4


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def write_all(bench: BenchRun, out: Path) -> list[Path]:
    """bench.md, bench.csv (one row per run), solved.csv (the solved table),
    bench.json in `out`; with matplotlib the charts: cactus.png, scatter.png
    (two solvers or more) and, up to `BARS` instances, bench.png."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "bench.md", out / "bench.csv", out / "solved.csv", out / "bench.json"]
    written[0].write_text(markdown(bench), encoding="utf-8")
    write_csv(bench, written[1])
    rows = summarise(bench.records)
    _write_rows(solved.table(rows, groups(rows)), SOLVED_FIELDS, written[2])
    write_json(bench, written[3])
    if len(solved.instances(rows)) <= BARS and write_png(bench, out / "bench.png"):
        written.append(out / "bench.png")
    written += charts.write(rows, out, _title(bench))
    return written


def _title(bench: BenchRun) -> str:
    return "csp bench" + ("" if bench.suite == CUSTOM else f" --suite {bench.suite}")


BARS = 40
"""Instances up to which a bar per instance is still readable."""

SOLVED_FIELDS = ("solver", "instances", "solved", "timeout", "other", "time", "par2", "fastest")


def _write_rows(rows: Sequence[dict[str, Any]], fields: Sequence[str], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


RECORD_KEYS = ("instance", "solver", "status")
"""What every record and summary row of a bench JSON file has."""


def load(path: Path | str) -> dict[str, Any]:
    """A saved `bench.json` (or `bench_dlx.json`); `ValueError` saying what is
    missing if the file is not one (so that `--compare` never compares
    nothing and calls it a success)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    check_record(data)
    if "summary" not in data or (data["records"] and any(
            "min" not in row for row in data["summary"])):
        # no summary, or one saved before the spread was: the runs give both
        data["summary"] = summarise(data["records"])
    return data


def check_record(data: Any) -> None:
    """Raise `ValueError` unless `data` looks like a bench run's JSON: an
    object with a list of `records`, each with an instance, a solver and a
    status (and, if present, a `summary` of the same kind of rows).

    >>> check_record({})
    Traceback (most recent call last):
        ...
    ValueError: no "records" list: not the JSON of a csp bench run
    """
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise ValueError('no "records" list: not the JSON of a csp bench run')
    if "summary" in data and not isinstance(data["summary"], list):
        raise ValueError('"summary" is not a list')
    rows: list[tuple[Any, tuple[str, ...]]] = [(row, RECORD_KEYS) for row in data["records"]]
    rows += [(row, (*RECORD_KEYS, "median")) for row in data.get("summary", [])]
    for row, keys in rows:
        missing = [k for k in keys if not isinstance(row, dict) or k not in row]
        if missing:
            raise ValueError(f"a record without {', '.join(missing)}: {str(row)[:80]}")
    if not data["records"] and not data.get("summary"):
        raise ValueError("no records: the run measured nothing")


def compare(old: dict[str, Any], new: dict[str, Any], threshold: float = 0.10) -> str:
    """A table of what got faster or slower between two JSON records: the
    medians (with the spread of the runs), their ratio and the verdict (see
    the module's docstring for the rule)."""
    before = {(r["instance"], r["solver"]): r for r in old["summary"]}
    lines = ["| instance | solver | old | new | new/old | |", "|---|---|---|---|---|---|"]
    tally = {"faster": 0, "slower": 0, "same": 0}
    changed: list[str] = []
    for row in new["summary"]:
        key = (row["instance"], row["solver"])
        was = before.get(key)
        if was is None:
            lines.append(f"| {key[0]} | {key[1]} | - | {_status_time(row)} | | new |")
            continue
        if was["status"] != row["status"] and OK in (was["status"], row["status"]):
            changed.append(f"- {key[1]} on {key[0]}: {was['status']} -> {row['status']}")
        if was["status"] != OK or row["status"] != OK or not was["median"]:
            lines.append(f"| {key[0]} | {key[1]} | {_status_time(was)} | {_status_time(row)} "
                         f"| | |")
            continue
        ratio = row["median"] / was["median"]
        verdict = change(was, row, threshold)
        tally["same" if verdict in ("same", "noise") else verdict] += 1
        lines.append(f"| {key[0]} | {key[1]} | {_with_spread(was)} | {_with_spread(row)} | "
                     f"{ratio:.2f} | {verdict} |")
    lines += ["", f"{tally['faster']} faster, {tally['slower']} slower, {tally['same']} about "
              f"the same (a change: medians more than {threshold:.0%} apart and the [min, max] "
              "of the runs not overlapping)"]
    if changed:
        lines += ["", "Status changes:", *changed]
    return "\n".join(lines)


def change(old: dict[str, Any], new: dict[str, Any], threshold: float = 0.10) -> str:
    """`faster`, `slower`, `same` (medians within the threshold) or `noise`
    (beyond it, but inside the spread of the runs) from one summary row to
    another.

    >>> change({"median": 1.0, "min": 0.9, "max": 1.1, "runs": 3},
    ...        {"median": 1.3, "min": 1.2, "max": 1.4, "runs": 3})
    'slower'
    >>> change({"median": 1.0, "min": 0.9, "max": 1.25, "runs": 3},
    ...        {"median": 1.3, "min": 1.2, "max": 1.4, "runs": 3})
    'noise'
    """
    ratio = new["median"] / old["median"]
    if 1 - threshold <= ratio <= 1 + threshold:
        return "same"
    if _has_spread(old) and _has_spread(new) and (
            new["min"] <= old["max"] and old["min"] <= new["max"]):
        return "noise"
    return "faster" if ratio < 1 else "slower"


def _has_spread(row: dict[str, Any]) -> bool:
    return row.get("min") is not None and row.get("max") is not None \
        and int(row.get("runs") or 0) > 1


def _with_spread(row: dict[str, Any]) -> str:
    if not _has_spread(row):
        return seconds(row["median"])
    return f"{seconds(row['median'])} ({seconds(row['min'])} - {seconds(row['max'])})"


def _status_time(row: dict[str, Any]) -> str:
    return seconds(row.get("median")) if row.get("status") == OK else str(row.get("status"))


def failures_text(records: Sequence[dict[str, Any]]) -> str:
    """One loud line per failed run (empty when there is none)."""
    return "\n".join(f"FAILURE: {r['status']}: {r['solver']} on {r['instance']}: "
                     f"{r.get('note', '')}" for r in records if r.get("status") in FAILURES)
