"""Whole `csp solve` processes against the peers' programs: puzzles per second.

What `bench/bench_solve.py` measures (its docstring says what and how to run
it): each `Entry` is a solver's command on one kind's puzzles, in one mode
(`first`: the first solution of each puzzle; `count`: every solution
counted). `measure(entry, repeat)` times it as a whole process
(`csp.bench.processes.series`: one warm-up run, then `repeat`), checks
what every run printed (`csp.bench.answers`), and gives its `Row`;
`markdown(rows, header)` is the report.

The slow solvers (csp's `python-constraint` backend and the
`python-constraint2` peer) get only the first puzzles of a collection, a
per-puzzle time limit, and one run without warm-up; their rows say how many
puzzles they solved. Puzzles per second is the number solved over the
median wall time; the ratio is the fastest row's rate over this row's (1.00:
the fastest; within the same kind and mode).

>>> row = Row("csp", "sudoku", "first", "csp solve sudoku F", 10, solved=10, walls=[0.5, 0.4])
>>> row.wall, row.rate
(0.45, 22.22222222222222)
>>> table([row])[2]
'| csp | 10 / 10 | 0.450 s | - | 22.2 | 1.00 |'
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from csp.bench import answers, peer_programs
from csp.bench.processes import Command, csp_program, series

BACKENDS = ("auto", "dlx", "bitmask", "cpsat", "python-constraint")
SLOW = {"python-constraint", "python-constraint2"}
KINDS = peer_programs.KINDS
PEERS = peer_programs.PEERS


@dataclass
class Entry:
    """One row of the report: a solver, its command and its puzzles."""

    label: str
    kind: str
    mode: str
    """'first' (first solution) or 'count' (every solution counted)."""
    command: Command
    cases: Sequence[object]
    slow: bool = False
    answered: tuple[int, ...] = (0,)
    """The exit statuses of a run that answered (`csp solve`: also 1, no
    solution, and 3, the time limit); any other is an error."""


@dataclass
class Row:
    """What the runs of an `Entry` measured and what their answers were worth."""

    label: str
    kind: str
    mode: str
    command: str
    puzzles: int
    solved: int = 0
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def wall(self) -> float | None:
        return statistics.median(self.walls) if self.walls else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def rate(self) -> float | None:
        wall = self.wall
        return self.solved / wall if wall and not self.failed else None

    @property
    def failed(self) -> bool:
        return bool(self.wrong) or self.error is not None


def verify(entry: Entry, stdout: str) -> answers.Verdict:
    """What one run of `entry` printed, checked against the known answers."""
    if entry.kind == "sudoku":
        return answers.check_sudoku(entry.cases, stdout)  # type: ignore[arg-type]
    return answers.check_shikaku(entry.cases, stdout,  # type: ignore[arg-type]
                                 entry.mode == "count")


def measure(entry: Entry, repeat: int, timeout: float = 3600.0, warm_up: bool = True) -> Row:
    """Run `entry` once to warm up, then time it `repeat` times, checking
    the answers of every run; a slow entry runs once, without warm-up."""
    row = Row(entry.label, entry.kind, entry.mode, " ".join(entry.command.argv),
              len(entry.cases))
    runs = series(entry.command, 1 if entry.slow else repeat,
                  warmup=int(warm_up and not entry.slow), timeout=timeout,
                  accept=entry.answered)
    done = runs.every[:-1] if runs.failure else runs.every
    solved = []
    for process in done:
        verdict = verify(entry, process.stdout)
        row.wrong.extend(m for m in verdict.wrong if m not in row.wrong)
        solved.append(verdict.solved)
    timed = runs.runs[:-1] if runs.failure else runs.runs
    row.walls = [p.wall for p in timed]
    row.cpus = [p.cpu for p in timed]
    if runs.failure:
        row.error = runs.failure
        return row
    row.solved = min(solved)  # a time-limited row may vary: the worst run
    return row


def csp_entries(kind: str, path: Path, cases: Sequence[object], backends: Sequence[str],
                slow_path: Path, slow_cases: Sequence[object], slow_limit: float
                ) -> list[Entry]:
    """`csp solve KIND FILE [--backend B] [--count]`, per backend and mode."""
    modes = ("first", "count") if kind == "shikaku" else ("first",)
    entries = []
    for mode in modes:
        for backend in backends:
            slow = backend in SLOW
            argv = [csp_program(), "solve", kind, str(slow_path if slow else path)]
            argv += [] if backend == "auto" else ["--backend", backend]
            argv += ["--count"] if mode == "count" else []
            argv += ["--time-limit", str(slow_limit)] if slow else []
            label = f"csp (default: {default_backend(kind)})" if backend == "auto" else \
                f"csp --backend {backend}"
            entries.append(Entry(label, kind, mode, Command(argv),
                                 slow_cases if slow else cases, slow, answered=(0, 1, 3)))
    return entries


def peer_entries(kind: str, path: Path, cases: Sequence[object], peers: Sequence[str],
                 slow_path: Path, slow_cases: Sequence[object], slow_limit: float
                 ) -> list[Entry]:
    """The peers' programs (`csp.bench.peer_programs`) on the same files."""
    modes = ("first", "count") if kind == "shikaku" else ("first",)
    entries = []
    for mode in modes:
        for peer in peers:
            if peer not in PEERS[kind]:
                continue
            slow = peer in SLOW
            argv = [sys.executable, peer_programs.__file__, peer, "--kind", kind,
                    str(slow_path if slow else path)]
            argv += ["--count"] if mode == "count" else []
            argv += ["--time-limit", str(slow_limit)] if slow else []
            entries.append(Entry(f"peer {peer}", kind, mode, Command(argv),
                                 slow_cases if slow else cases, slow))
    return entries


def default_backend(kind: str) -> str:
    """What `csp solve KIND` picks without --backend (for the row's label)."""
    try:
        from csp import problems
        from csp.solve import resolve_backend

        chosen = problems.get(kind)
        sample = "4 1\n2 0 2 0" if kind == "shikaku" else "." * 81
        return resolve_backend(chosen.declare(next(iter(chosen.parse(sample)))), "auto")
    except Exception:  # noqa: BLE001 - only a label
        return "auto"


def available_backends(wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    """The backends of `wanted` installed here (`auto` always), and the others."""
    import csp

    have = set(csp.backends.available()) | {"auto"}
    return [b for b in wanted if b in have], [b for b in wanted if b not in have]


def available_peers(wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    """The peers of `wanted` installed here, and the others."""
    def found(peer: str) -> bool:
        return (peer in peer_programs.MODULES
                and importlib.util.find_spec(peer_programs.MODULES[peer]) is not None)
    return [p for p in wanted if found(p)], [p for p in wanted if not found(p)]


TITLES = {("sudoku", "first"): "sudoku top1465: first solution of each puzzle",
          ("shikaku", "first"): "shikaku (janko): first solution of each puzzle",
          ("shikaku", "count"): "shikaku (janko): `--count`, every solution counted"}


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def table(rows: Sequence[Row]) -> list[str]:
    """One Markdown table of rows of the same kind and mode, fastest rate first."""
    rates = [r.rate for r in rows if r.rate]
    best = max(rates) if rates else None
    out = ["| solver | solved / puzzles | wall (median) | CPU | puzzles/s | fastest/this |",
           "|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -(r.rate or 0)):
        if r.error:
            out.append(f"| {r.label} | **ERROR** | {r.error} | | | |")
            continue
        solved = f"{r.solved} / {r.puzzles}" + (" **WRONG**" if r.wrong else "")
        rate = f"{r.rate:,.1f}" if r.rate is not None else "-"
        ratio = f"{best / r.rate:.2f}" if best and r.rate else "-"
        out.append(f"| {r.label} | {solved} | {_seconds(r.wall)} | {_seconds(r.cpu)} | "
                   f"{rate} | {ratio} |")
    return out


def markdown(rows: Sequence[Row], header: dict[str, object], notes: Sequence[str] = ()
             ) -> str:
    m, versions = header.get("machine", {}), header.get("versions", {})
    assert isinstance(m, dict) and isinstance(versions, dict)
    out = ["# `csp solve`, whole processes: puzzles per second", "",
           f"- command: `{header.get('command')}`; started {header.get('started')}; "
           f"took {header.get('elapsed', 0):.0f} s",
           f"- machine: {m.get('cpu')}, {m.get('nproc')} cores, {m.get('platform')}, "
           f"Python {m.get('python')}; load average at start "
           f"{' '.join(f'{x:.2f}' for x in m.get('loadavg') or [])}",
           "- versions: " + ", ".join(f"{k} {v}" for k, v in
                                      versions.items()),
           f"- timed: each command as a whole process (start, imports, parsing, building, "
           f"solving, printing), wall clock, median of {header.get('repeat')} run(s) after "
           "one warm-up run; CPU is user + system time (above the wall time: several threads)",
           f"- slow solvers ({', '.join(sorted(SLOW))}): the first "
           f"{header.get('slow_puzzles')} puzzles of a collection, at most "
           f"{header.get('slow_time_limit')} s each, one run without warm-up",
           "- puzzles/s: solved / wall time; fastest/this: the fastest row's rate over this "
           "row's", ""]
    for key in TITLES:
        group = [r for r in rows if (r.kind, r.mode) == key]
        if group:
            out += [f"## {TITLES[key]}", "", *table(group), ""]
    out += ["## Commands", ""]
    out += [f"- {r.label} ({r.kind}, {r.mode}): `{r.command}`" for r in rows]
    if notes:
        out += ["", "## Not run", "", *(f"- {n}" for n in notes)]
    failures = [f"- {r.label} ({r.kind}, {r.mode}): {r.error or '; '.join(r.wrong[:5])}"
                for r in rows if r.failed]
    if failures:
        out += ["", "## FAILURES", "", *failures]
    return "\n".join(out) + "\n"


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("csp-workbench", "numba", "numpy", "xcover", "ortools", "python-constraint2"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


__all__ = ["Entry", "Row", "available_backends", "available_peers", "csp_entries", "markdown",
           "measure", "peer_entries", "versions"]
