"""Writing a benchmark down: Markdown, CSV, JSON, a PNG chart, and comparisons.

>>> rows = [{"instance": "q", "solver": "a", "median": 0.5, "status": "ok"},
...         {"instance": "q", "solver": "b", "median": 0.2, "status": "ok"}]
>>> old = {"summary": rows}
>>> new = {"summary": [dict(rows[0], median=0.25), rows[1]]}
>>> print(compare(old, new))
| instance | solver | old | new | new/old | |
|---|---|---|---|---|---|
| q | a | 500.0 ms | 250.0 ms | 0.50 | faster |
| q | b | 200.0 ms | 200.0 ms | 1.00 | same |
<BLANKLINE>
1 faster, 0 slower, 1 about the same (threshold 10%)
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from csp.bench.runner import FAILURES, OK, BenchRun, summarise

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
    out = [f"# csp bench: suite `{bench.suite}`", "",
           f"- command: `{bench.command}`",
           f"- started: {bench.started}; took {bench.elapsed:.1f} s",
           f"- machine: {m.get('cpu')}, {m.get('nproc')} cores, {m.get('platform')}; "
           f"Python {m.get('python')}, numba {m.get('numba')}, numpy {m.get('numpy')}; "
           f"load average at start {m.get('loadavg')}",
           "- time: median of the warm runs (the solver's count call on its own input, "
           "in-process, after a first run); prep: turning the instance into the solver's "
           "input (lowering, arrays), once; ratio: to the fastest correct solver", ""]
    failures = [r for r in rows if r["status"] in FAILURES]
    if failures:
        out += ["## FAILURES", ""]
        out += [f"- **{r['status']}**: {r['solver']} on {r['instance']}: {r['note']}"
                for r in failures]
        out.append("")
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
            "| instance | solver | median | runs | first | prep | nodes | count | known | "
            "ratio | status |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for instance in instances:
        for row in sorted((r for r in rows if r["instance"] == instance),
                          key=lambda r: (r.get("ratio") is None, r.get("ratio") or 0)):
            ratio = f"{row['ratio']:.2f}" if row.get("ratio") else "-"
            status = row["status"] if row["status"] not in FAILURES else f"**{row['status']}**"
            if row["status"] != OK and row.get("note"):
                status += f": {row['note']}"
            out.append(
                f"| {instance} | {row['solver']} | {seconds(row['median'])} | {row['runs']} | "
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


def write_csv(bench: BenchRun, path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for record in bench.records:
            row = dict(record)
            for key in ("stats", "parameters"):
                if key in row:
                    row[key] = json.dumps(row[key], sort_keys=True)
            writer.writerow(row)


def write_json(bench: BenchRun, path: Path) -> None:
    path.write_text(json.dumps(bench.to_dict(), indent=1, default=str) + "\n",
                    encoding="utf-8")


def write_png(bench: BenchRun, path: Path) -> bool:
    """A log-scale bar chart of time per instance per solver; False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in summarise(bench.records) if r["status"] == OK and r["median"]]
    if not rows:
        return False
    instances = list(dict.fromkeys(r["instance"] for r in rows))
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    width = 0.8 / len(solvers)
    fig, ax = plt.subplots(figsize=(max(8, 1.2 * len(instances)), 5))
    for k, solver in enumerate(solvers):
        xs, ys = [], []
        for i, instance in enumerate(instances):
            for r in rows:
                if r["instance"] == instance and r["solver"] == solver:
                    xs.append(i + k * width - 0.4 + width / 2)
                    ys.append(r["median"])
        ax.bar(xs, ys, width, label=solver)
    ax.set_yscale("log")
    ax.set_ylabel("median time (s, log scale)")
    ax.set_xticks(range(len(instances)))
    ax.set_xticklabels(instances, rotation=30, ha="right")
    ax.set_title(f"csp bench --suite {bench.suite}")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def write_all(bench: BenchRun, out: Path) -> list[Path]:
    """bench.md, bench.csv, bench.json (and bench.png with matplotlib) in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "bench.md", out / "bench.csv", out / "bench.json"]
    written[0].write_text(markdown(bench), encoding="utf-8")
    write_csv(bench, written[1])
    write_json(bench, written[2])
    if write_png(bench, out / "bench.png"):
        written.append(out / "bench.png")
    return written


RECORD_KEYS = ("instance", "solver", "status")
"""What every record and summary row of a bench JSON file has."""


def load(path: Path | str) -> dict[str, Any]:
    """A saved `bench.json` (or `bench_dlx.json`); `ValueError` saying what is
    missing if the file is not one (so that `--compare` never compares
    nothing and calls it a success)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    check_record(data)
    if "summary" not in data:
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
    """A table of what got faster or slower between two JSON records (by median)."""
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
        verdict = ("faster" if ratio < 1 - threshold else
                   "slower" if ratio > 1 + threshold else "same")
        tally[verdict] += 1
        lines.append(f"| {key[0]} | {key[1]} | {seconds(was['median'])} | "
                     f"{seconds(row['median'])} | {ratio:.2f} | {verdict} |")
    lines += ["", f"{tally['faster']} faster, {tally['slower']} slower, {tally['same']} about "
              f"the same (threshold {threshold:.0%})"]
    if changed:
        lines += ["", "Status changes:", *changed]
    return "\n".join(lines)


def _status_time(row: dict[str, Any]) -> str:
    return seconds(row.get("median")) if row.get("status") == OK else str(row.get("status"))


def failures_text(records: Sequence[dict[str, Any]]) -> str:
    """One loud line per failed run (empty when there is none)."""
    return "\n".join(f"FAILURE: {r['status']}: {r['solver']} on {r['instance']}: "
                     f"{r.get('note', '')}" for r in records if r.get("status") in FAILURES)
