"""Running a benchmark: every solver on every instance, each count checked.

One run of a solver on an instance makes one record (a dict; see `measure`).
Before its first instance a solver is warmed up (`warm_up`: its compiled
code loaded on two tiny problems; that one-time cost is measured apart, by
`startup`). The first run of each instance is kept apart (`phase: "first"`:
it may include work done once per input), then `repeat` warm runs (`phase: "warm"`) give the
median. A count that differs from the known answer is status `WRONG`: a
failure that the report shows loudly and that makes `csp bench` exit 1.

With `isolate=True` (what `csp bench` does) each solver runs in a worker
process of its own (`python -m csp.bench.worker`), so that no solver's
imports or compiled code help another, and a solver stuck past its time
limit (some peers cannot be stopped from outside) is killed and reported as
`timeout` instead of hanging the benchmark.

Separately, `startup(solver)` measures in fresh processes what a user pays
once: the import, and the first call (compiled code loaded from numba's
cache), and for numba solvers the compilation itself (first call with an
empty cache directory).
"""

from __future__ import annotations

import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from csp.bench.instances import Instance
from csp.bench.solvers import Cannot, Solver
from csp.errors import Refused
from csp.exactcover import ExactCover

Log = Callable[[str], None]

OK, WRONG, TIMEOUT, ERROR, CANNOT, UNAVAILABLE = (
    "ok", "WRONG", "timeout", "error", "cannot express", "unavailable")
FAILURES = (WRONG, ERROR)
"""Statuses that make the benchmark fail."""


def _quiet(_: str) -> None:
    pass


def measure(solver: Solver, instance: Instance, *, repeat: int = 3,
            time_limit: float | None = None, log: Log = _quiet,
            on_run: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Run `solver` on `instance` once cold and `repeat` times warm; one record per run.

    A run cut by the time limit ends the series (its count is a lower bound).
    """
    base = {"solver": solver.name, "kind": solver.kind, "version": solver.version(),
            "instance": instance.name, "family": instance.family,
            "puzzles": instance.size, "expected": known(instance.expected),
            "parameters": dict(instance.parameters, time_limit=time_limit)}
    try:
        form = solver.form_for(instance.forms)
        started = time.perf_counter()
        prepared = solver.prepare(instance.problems(form))
        prep = time.perf_counter() - started
    except Cannot as why:
        return [dict(base, status=CANNOT, note=str(why))]
    except Exception as err:  # noqa: BLE001 - a solver's failure is a result, not a crash
        return [dict(base, status=ERROR, note=f"preparing: {type(err).__name__}: {err}")]
    base.update(form=form, prep_time=prep)
    records = []
    for k in range(repeat + 1):
        record = dict(base, phase="first" if k == 0 else "warm", run=k)
        if on_run is not None:
            on_run(k)
        try:
            started = time.perf_counter()
            outcome = solver.count(prepared, time_limit)
            elapsed = time.perf_counter() - started
        except Refused as why:  # refused before solving (ganak lists no solutions)
            records.append(dict(record, status=CANNOT, time=None, note=str(why)))
            break
        except Exception as err:  # noqa: BLE001
            records.append(dict(record, status=ERROR, time=None,
                                note=f"{type(err).__name__}: {err}"))
            break
        record.update(time=elapsed, count=sum(outcome.counts), search_status=outcome.status,
                      nodes=outcome.nodes, stats=outcome.stats)
        record.update(judge(outcome.counts, outcome.status, instance.expected, elapsed))
        records.append(record)
        log(f"  {solver.name:18} {instance.name:32} {record['phase']:5} "
            f"{elapsed:9.4f}s count={record['count']} {record['status']}")
        if record["status"] != OK:
            break
    return records


def known(expected: Sequence[int | None]) -> int | None:
    """The known count of an instance: its puzzles' sum, None if any is unknown."""
    return None if None in expected else sum(c for c in expected if c is not None)


WARM_UP = "a b c | x y\na x:0\nb x:0 y\nc y:1\na b x:1\n"
"""A tiny exact cover with colours (examples/tiny.xc), for `warm_up`."""


def warm_up(solver: Solver) -> None:
    """Run `solver` once on two tiny problems (4 queens; an exact cover with
    colours) before it is timed, so that loading compiled code (numba's cache,
    hundreds of ms) is not charged to the first instance's first run, where a
    small time limit would turn it into a timeout. Failures are left for the
    timed runs to report."""
    from csp.bench.instances import queens

    problems = [*queens(4).problems("exact-cover"), ExactCover.from_text(WARM_UP)]
    for problem in problems:
        try:
            solver.count(solver.prepare([problem]), None)
        except Exception:  # noqa: BLE001 - the timed runs report what fails
            continue


def judge(counts: Sequence[int], status: str, expected: Sequence[int | None],
          elapsed: float) -> dict[str, str]:
    """The status (and note) of one run from its per-puzzle counts.

    A complete run is `ok` when every count is the known answer, else
    `WRONG`. A run cut short (`status` not COMPLETE) counted its puzzles
    before the last one completely and the last one only in part: it is
    `WRONG` if a complete count differs or the partial one already exceeds
    the known answer (no lower bound may), else `timeout`. An unknown answer
    (None) is never wrong.

    >>> judge([4], "TIME_LIMIT", [3], 1.0)["status"]
    'WRONG'
    >>> judge([2], "TIME_LIMIT", [3], 1.0)["status"]
    'timeout'
    """
    cut = status != "COMPLETE"
    done = counts[:-1] if cut else counts
    wrong = [k for k, (got, want) in enumerate(zip(done, expected))
             if want is not None and got != want]
    if cut and counts and len(counts) <= len(expected):
        want = expected[len(done)]
        if want is not None and counts[-1] > want:
            wrong.append(len(done))
    if wrong or (not cut and len(counts) != len(expected)):
        first = wrong[0] if wrong else min(len(counts), len(expected) - 1)
        got = counts[first] if first < len(counts) else None
        when = f" before the time limit ({status})" if cut and first == len(done) else ""
        return {"status": WRONG, "note": (
            f"{len(wrong) or 1} puzzle(s) with a wrong count; puzzle {first}: counted "
            f"{got}{when}, known answer {expected[first]}")}
    if cut:
        return {"status": TIMEOUT, "note": f"{status} after {elapsed:.1f}s: "
                f"{len(counts)} of {len(expected)} puzzles reached"}
    return {"status": OK}


# -- worker processes -------------------------------------------------------------


def _python() -> list[str]:
    return [sys.executable, "-m", "csp.bench.worker"]


class _Worker:
    """A `csp.bench.worker` process whose output lines are read with a deadline."""

    def __init__(self, job: dict[str, Any], env: dict[str, str] | None = None) -> None:
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            _python(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
            text=True, env=env)
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(job))
        self.process.stdin.close()
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message; None at the end; raises `queue.Empty` on timeout."""
        line = self.lines.get(timeout=timeout)
        return None if line is None else json.loads(line)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stderr_tail(self) -> str:
        self.process.wait()
        self.errors.seek(0)
        text = self.errors.read().strip().splitlines()
        return " | ".join(text[-3:])


def measure_isolated(solver: Solver, instances: Sequence[Instance], *, repeat: int,
                     time_limit: float, log: Log = _quiet) -> list[dict[str, Any]]:
    """`measure` each instance in a worker process for `solver`; a run that
    outlives its time limit by far is killed and recorded as `timeout`."""
    records: list[dict[str, Any]] = []
    pending = [i.name for i in instances]
    by_name = {i.name: i for i in instances}
    # the user's own instances are in no suite: the worker builds them from these
    specs = {i.name: i.spec for i in instances if i.spec is not None}
    # Preparation (parsing, lowering) is not under the solver's time limit; a
    # run is, but not every solver can stop itself: it gets a margin, then dies.
    preparing = 600.0
    running = 1.2 * time_limit + 5
    loading = 30.0 if solver.numba else 0.0  # the first run may load compiled code
    while pending:
        worker = _Worker({"mode": "measure", "solver": solver.name, "instances": pending,
                          "specs": specs, "repeat": repeat, "time_limit": time_limit})
        current: str | None = None
        patience = preparing
        while True:
            try:
                message = worker.next(patience)
            except queue.Empty:
                worker.kill()
                assert current is not None
                records.append(_lost(solver, by_name[current], TIMEOUT,
                                     f"killed: no answer within {patience:.0f}s"))
                log(f"  {solver.name:18} {current:32} killed after {patience:.0f}s")
                pending = pending[pending.index(current) + 1:]
                break
            if message is None:
                tail = worker.stderr_tail()
                if current is not None and current in pending:
                    records.append(_lost(solver, by_name[current], ERROR,
                                         f"worker died (exit {worker.process.returncode}): "
                                         f"{tail}"))
                    pending = pending[pending.index(current) + 1:]
                elif current is None:
                    raise RuntimeError(f"bench worker for {solver.name} failed: {tail}")
                break
            if message["event"] == "start":
                current = message["instance"]
                patience = preparing
            elif message["event"] == "run":
                patience = running if message["run"] > 0 else running + loading
            elif message["event"] == "record":
                patience = preparing
                record = message["record"]
                records.append(record)
                if record.get("time") is not None:
                    log(f"  {solver.name:18} {record['instance']:32} {record['phase']:5} "
                        f"{record['time']:9.4f}s count={record.get('count')} "
                        f"{record['status']}")
                else:
                    log(f"  {solver.name:18} {record['instance']:32} {record['status']}: "
                        f"{record.get('note', '')}")
            elif message["event"] == "done":
                pending.remove(message["instance"])
        if not pending:
            break
    return records


def _lost(solver: Solver, instance: Instance, status: str, note: str) -> dict[str, Any]:
    """The record of a run whose worker was killed or died: no count, but
    what it was (solver, version, instance) and why."""
    return {"solver": solver.name, "kind": solver.kind, "version": solver.version(),
            "instance": instance.name, "family": instance.family, "puzzles": instance.size,
            "expected": known(instance.expected), "status": status, "note": note}


# -- one-time costs ----------------------------------------------------------------


def startup(solver: Solver, *, fresh_cache: bool = False,
            timeout: float = 300) -> dict[str, Any]:
    """Import and first-call costs of `solver`, measured in a fresh process.

    `fresh_cache=True` points numba at an empty cache directory, so the first
    call compiles everything it uses: the one-time JIT cost.
    """
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="csp-bench-numba-") as cache:
        if fresh_cache:
            env["NUMBA_CACHE_DIR"] = cache
        worker = _Worker({"mode": "startup", "solver": solver.name}, env=env)
        try:
            message = worker.next(timeout)
        except queue.Empty:
            worker.kill()
            return {"solver": solver.name, "status": TIMEOUT, "fresh_cache": fresh_cache}
        if message is None:
            return {"solver": solver.name, "status": ERROR, "fresh_cache": fresh_cache,
                    "note": worker.stderr_tail()}
        worker.process.wait()
    return dict(message["record"], fresh_cache=fresh_cache)


def startup_in_process(solver: Solver) -> dict[str, Any]:
    """The body of `startup` (run by the worker): import, first call, second call
    on a small problem (8 queens, or its model for a CSP-only solver)."""
    import importlib

    started = time.perf_counter()
    for module in solver.modules:
        importlib.import_module(module)
    imported = time.perf_counter() - started
    from csp.bench.instances import queens

    inst = queens(8)
    if "exact-cover" in solver.forms:
        problems = inst.problems(solver.form_for(inst.forms))
    else:  # a CSP-only solver: the same 8 queens, as csp's lowering to a model
        from csp import reformulate
        from csp.model import Model

        problems = [reformulate.lower(xc, Model)[0] for xc in inst.problems("exact-cover")]
    prepared = solver.prepare(problems)
    started = time.perf_counter()
    solver.count(prepared, None)
    first = time.perf_counter() - started
    started = time.perf_counter()
    solver.count(prepared, None)
    second = time.perf_counter() - started
    return {"solver": solver.name, "status": OK, "import_time": imported,
            "first_call": first, "warm_call": second, "first_call_extra": first - second,
            "probe": inst.name}


# -- the whole benchmark --------------------------------------------------------------


@dataclass
class BenchRun:
    """Everything one benchmark produced."""

    suite: str
    command: str
    records: list[dict[str, Any]] = field(default_factory=list)
    startups: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    elapsed: float = 0.0

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("status") in FAILURES]

    def to_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "command": self.command, "started": self.started,
                "elapsed": self.elapsed, "machine": self.machine,
                "skipped": [list(s) for s in self.skipped], "startups": self.startups,
                "records": self.records, "summary": summarise(self.records)}


def run(instances: Sequence[Instance], solvers: Sequence[Solver], *, suite: str = "custom",
        repeat: int = 3, time_limit: float = 60.0, isolate: bool = True,
        startup_costs: bool = True, jit_costs: bool = False, command: str = "",
        log: Log = _quiet,
        skipped: list[tuple[str, str]] | None = None) -> BenchRun:
    """Run every available solver on every instance; solvers one after another
    (never in parallel: they would disturb each other's timings)."""
    bench = BenchRun(suite, command or " ".join(sys.argv), skipped=list(skipped or []),
                     machine=machine(), started=time.strftime("%Y-%m-%d %H:%M:%S %z"))
    clock = time.perf_counter()
    for solver in solvers:
        why = solver.unavailable()
        if why is not None:
            bench.skipped.append((solver.name, why))
            log(f"{solver.name}: skipped ({why})")
            continue
        log(f"{solver.name} {solver.version()}")
        if isolate:
            bench.records += measure_isolated(solver, instances, repeat=repeat,
                                              time_limit=time_limit, log=log)
        else:
            warm_up(solver)
            for instance in instances:
                bench.records += measure(solver, instance, repeat=repeat,
                                         time_limit=time_limit, log=log)
        if startup_costs:
            bench.startups.append(startup(solver))
            if solver.numba and jit_costs:
                bench.startups.append(startup(solver, fresh_cache=True))
    bench.elapsed = time.perf_counter() - clock
    return bench


def summarise(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (instance, solver): the median warm time (the first run's
    when there is no warm one) and their `spread`, the status of the worst
    run, the run's time limit, the ratio to the fastest solver that got the
    instance right."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault((record["instance"], record["solver"]), []).append(record)
    rank = {s: k for k, s in enumerate((ERROR, WRONG, TIMEOUT, CANNOT, UNAVAILABLE, OK))}
    rows = []
    for (instance, solver), runs in groups.items():
        status = min((r["status"] for r in runs), key=lambda s: rank.get(s, 0))
        warm = [r["time"] for r in runs if r.get("phase") == "warm" and r.get("time") is not None]
        first = [r["time"] for r in runs
                 if r.get("phase") == "first" and r.get("time") is not None]
        last = runs[-1]
        limit = next((r["parameters"].get("time_limit") for r in runs
                      if isinstance(r.get("parameters"), dict)), None)
        rows.append({**spread(warm or first[:1]), "time_limit": limit,
            "instance": instance, "solver": solver, "kind": last.get("kind"),
            "version": last.get("version"), "family": last.get("family"),
            "puzzles": last.get("puzzles"), "form": last.get("form"),
            "status": status, "expected": last.get("expected"), "count": last.get("count"),
            "median": statistics.median(warm) if warm else (first[0] if first else None),
            "runs": len(warm) or len(first),
            "first": first[0] if first else None, "prep": last.get("prep_time"),
            "nodes": last.get("nodes"),
            "note": next((r["note"] for r in runs if r.get("note")), ""),
        })
    for instance in {row["instance"] for row in rows}:
        times = [row["median"] for row in rows
                 if row["instance"] == instance and row["status"] == OK and row["median"]]
        best = min(times) if times else None
        for row in rows:
            if row["instance"] == instance:
                row["ratio"] = (row["median"] / best
                                if best and row["status"] == OK and row["median"] else None)
    return rows


def spread(times: Sequence[float]) -> dict[str, float | None]:
    """The spread of a series of timings: least, greatest, and the quartiles
    (the middle half of the runs lies between `q1` and `q3`; with fewer than
    4 runs the quartiles are interpolated between them).

    >>> spread([1.0, 2.0, 4.0, 3.0])
    {'min': 1.0, 'q1': 1.75, 'q3': 3.25, 'max': 4.0}
    >>> spread([])["min"] is None
    True
    """
    if not times:
        return {"min": None, "q1": None, "q3": None, "max": None}
    if len(times) == 1:
        q1 = q3 = times[0]
    else:
        q1, _, q3 = statistics.quantiles(times, n=4, method="inclusive")
    return {"min": min(times), "q1": q1, "q3": q3, "max": max(times)}


def machine() -> dict[str, Any]:
    """Where the benchmark ran: platform, cores, CPU model, Python and library versions."""
    from csp.bench.solvers import _version

    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {"platform": platform.platform(), "machine": platform.machine(),
            "nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "numba": _version("numba"), "numpy": _version("numpy"),
            "loadavg": list(load) if load else None}
