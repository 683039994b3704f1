"""The `race` backend: several backends on the same problem, in separate
processes; the first complete answer wins and the others are stopped.

Members: by default the problem's own compiled backend (`auto`: `dlx` for an
exact cover, `bitmask` for a model) and `cpsat`; any list as `race:A+B+C`
(`csp solve ... --backend race:dlx+cpsat+sat`, `csp.solve(p, "race:dlx+sat")`;
a comma works too where the name is not itself in a comma-separated list).

What wins:

- `count`: the first member to finish its count (`COMPLETE`). Stopped by the
  time limit or Ctrl-C, the race reports the largest count a member had
  reached (a lower bound, as any count so stopped);
- `solve`, and `solutions` with a `limit` of at most `BUFFER`: the first
  member to find `limit` solutions or to prove there are fewer (a proof of
  uniqueness is `limit=2`). Each member keeps the solutions it found until
  one wins; the winner's are then handed out, so the first comes when the
  race is over;
- `solutions` without a limit (or a larger one): the first member to produce
  a solution, or to prove there is none. From then on only the winner runs,
  and its solutions are streamed as it finds them (a member is never switched
  mid-enumeration: that would need every solution kept to skip repeats). The
  first to a solution is not always the fastest to list them all: to race a
  whole enumeration, race its count.

`stats.extra["winner"]` names the winner and `stats.extra["race"]` says what
each member had done (status, solutions, nodes, time) when the race ended;
`nodes` and `failures` are the winner's. A member that refuses the problem
is left out before the start (`stats.extra["race_notes"]` says why); one that
fails while running is noted and the others race on.

Each member runs in a process of its own (the `forkserver` start method:
started once, it has imported csp, and each member is forked from it, so a
race costs milliseconds to start, not the seconds of a fresh interpreter).
Members ignore Ctrl-C (the race stops them) and die with the fork server,
which dies with this process; every member is ended and joined before a race
returns, fails or is interrupted.

>>> import csp
>>> from csp.testing import queens_cover
>>> result = csp.count(queens_cover(6), "race:dlx+sat")
>>> result.count, result.status.value, result.stats.extra["winner"] in ("dlx", "sat")
(4, 'COMPLETE', True)
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any, ClassVar

from csp.backends.base import (
    COLOURS,
    CONSTRAINT_KINDS,
    MULTIPLICITIES,
    PORTFOLIO,
    Progress,
    Search,
    check_limit,
    check_time_limit,
)
from csp.errors import BackendUnavailable, InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result, Stats, Status

DEFAULT = ("auto", "cpsat")
"""The members when none are named: the problem's own compiled backend, and CP-SAT."""

POLL = 0.05
"""The longest the race waits for a member before it looks at the clock."""

PROGRESS_SECONDS = 0.2

QUIET_SECONDS = 0.5

BUFFER = 10_000
"""The largest `limit` raced to the end: each member may keep that many solutions."""

PRELOAD = ["csp.backends.warm"]
"""What the fork server imports once: the members warmed up (`csp.backends.warm`)."""

WARM = "CSP_RACE_WARM"
"""The environment variable that tells the fork server which backends to warm
up (comma-separated): the members of the race that starts it."""


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _figures(stats: Stats) -> dict[str, Any]:
    return {"solutions": stats.solutions, "nodes": stats.nodes, "failures": stats.failures,
            "time": round(stats.time, 6)}


def _member(backend: Any, target: Any, count_only: bool, limit: int | None,
            time_limit: float | None, conn: Any) -> None:
    """One member, in its own process: run and report through `conn`."""
    from csp.children import die_with_parent

    die_with_parent()

    def progress(stats: Stats) -> None:
        conn.send(("progress", _figures(stats)))

    try:
        if count_only:
            result = backend.count(target, time_limit=time_limit, progress=progress)
            if not isinstance(result, Result):
                raise TypeError(f"count returned a {type(result).__name__}, not a csp.Result")
            conn.send(("done", result.status.value, _figures(result.stats)))
        else:
            search = backend.solutions(target, limit=limit, time_limit=time_limit,
                                       progress=progress)
            for solution in search:
                conn.send(("solution", solution, _figures(search.stats)))
            status = search.status or Status.COMPLETE
            conn.send(("done", Status(status).value, _figures(search.stats)))
    except BaseException as err:  # noqa: BLE001 - every failure is reported to the race
        conn.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


@dataclass
class _Runner:
    """One member as the race sees it."""

    name: str
    plan: Any  # its dispatch.Plan: what it runs, and how its solutions map back
    process: Any = None
    conn: Any = None
    figures: dict[str, Any] = field(default_factory=dict)
    status: Status | None = None
    error: str | None = None
    found: list[Any] = field(default_factory=list)  # its solutions, while kept

    @property
    def running(self) -> bool:
        return self.process is not None and self.status is None and self.error is None

    def report(self) -> dict[str, Any]:
        out = dict(self.figures)
        if self.error is not None:
            out["status"], out["error"] = "FAILED", self.error
        else:
            out["status"] = self.status.value if self.status is not None else "STOPPED"
        return out


def _stop(runners: list[_Runner]) -> None:
    """End every member still running and wait for it (also the finaliser of
    an abandoned race, so it touches only the runners)."""
    for runner in runners:
        process = runner.process
        if process is None:
            continue
        if process.is_alive():
            process.terminate()
        process.join(2)
        if process.is_alive():
            process.kill()
            process.join()
        if runner.conn is not None:
            runner.conn.close()
        runner.process = None


class RaceSearch(Search):
    """A race, consumed as a search (or run to the end to count)."""

    backend = "race"

    def __init__(self, runners: list[_Runner], notes: list[str], *, limit: int | None,
                 time_limit: float | None, progress: Progress | None,
                 count_only: bool = False) -> None:
        super().__init__()
        self.runners = runners
        self.limit = check_limit(limit)
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self.count_only = count_only
        self.winner: _Runner | None = None
        self.notes = notes
        self._started: float | None = None
        self._deadline: float | None = None
        self._last_progress = 0.0
        self._news = False
        self._buffered = limit is not None and limit <= BUFFER and not count_only
        self._pending: deque[Any] | None = None  # the winner's kept solutions, to hand out
        self._final: Status | None = None  # how the race ended, once they are handed out
        self._finalizer = weakref.finalize(self, _stop, runners)

    # -- starting and stopping ----------------------------------------------------------

    def _start(self) -> None:
        self._started = time.perf_counter()
        if self.time_limit is not None:
            self._deadline = self._started + self.time_limit
        if self.limit == 0 and not self.count_only:
            self._finish(Status.SOLUTION_LIMIT)
            return
        if self.time_limit == 0:
            self._finish(Status.TIME_LIMIT)
            return
        context = _context()
        # The fork server, if this race starts it, warms up these members only.
        before = os.environ.get(WARM)
        os.environ[WARM] = ",".join(runner.name for runner in self.runners)
        try:
            self._launch(context)
        finally:
            if before is None:
                del os.environ[WARM]
            else:
                os.environ[WARM] = before

    def _launch(self, context: Any) -> None:
        for runner in self.runners:
            receive, send = context.Pipe(duplex=False)
            process = context.Process(
                target=_member, name=f"csp-race-{runner.name}", daemon=True,
                args=(runner.plan.backend, runner.plan.target, self.count_only, self.limit,
                      self.time_limit, send))
            try:
                process.start()
            except Exception as err:  # noqa: BLE001 - pickling the member or its problem
                receive.close()
                runner.error = f"it cannot be sent to a process: {type(err).__name__}: {err}"
                self.notes.append(f"{runner.name} failed: {runner.error}")
                continue
            finally:
                send.close()  # the member's end: EOF here once it is gone
            runner.process, runner.conn = process, receive

    def _finish(self, status: Status) -> None:
        _stop(self.runners)
        self._finalizer.detach()
        self.status = status
        self._measure()

    def close(self) -> None:
        if self.status is None:
            self._finish(Status.INTERRUPTED)

    # -- the race -------------------------------------------------------------------------

    def __next__(self) -> Any:
        if self._started is None:
            self._start()
        if self.status is not None:
            raise StopIteration
        if self._pending is not None:
            return self._hand_out()
        try:
            solution = self._run()
        except KeyboardInterrupt:
            self._end(Status.INTERRUPTED)
            solution = None
        except BaseException:
            _stop(self.runners)
            raise
        if self._pending is not None:
            return self._hand_out()
        if solution is None:
            raise StopIteration
        return solution

    def _hand_out(self) -> Any:
        """The next kept solution of the winner of a race to `limit` solutions."""
        assert self._pending is not None and self.winner is not None
        if not self._pending:
            assert self._final is not None
            self._finish(self._final)
            raise StopIteration
        self.stats.solutions += 1
        return self.winner.plan.declared(self._pending.popleft())

    def count(self) -> Result:
        """Run the race to its end (members counting), and report it."""
        self.count_only = True  # no solution comes back: the result holds none
        return self.result()

    def _run(self) -> Any:
        """Read the members until a solution to hand out (or None: the end)."""
        while self.status is None and self._pending is None:
            listening = [r for r in self.runners if r.running
                         and (self.winner is None or r is self.winner)]
            if not listening:
                self._no_winner()
                return None
            wait = POLL
            if self._deadline is not None:
                wait = max(0.0, min(wait, self._deadline - time.perf_counter()))
            ready = multiprocessing.connection.wait([r.conn for r in listening], wait)
            for runner in listening:
                # Everything a ready member has sent, not one message per wait.
                while runner.conn in ready:
                    found = self._receive(runner)
                    if found is not None:
                        return found[0]
                    if self.status is not None or self._pending is not None:
                        return None
                    if not runner.running or not runner.conn.poll():
                        break
            self._tick()
        return None

    def _receive(self, runner: _Runner) -> tuple[Any] | None:
        """Take one message of `runner`; a solution to hand out comes back in a 1-tuple."""
        try:
            message = runner.conn.recv()
        except (EOFError, OSError):
            code = runner.process.exitcode if runner.process is not None else None
            message = ("error", f"its process ended without an answer (exit code {code})")
        kind = message[0]
        if kind == "progress":
            runner.figures = message[1]
            self._news = True
        elif kind == "solution":
            runner.figures = message[2]
            if self._buffered:
                runner.found.append(message[1])
                return None
            self._crown(runner)
            self.stats.solutions += 1
            return (runner.plan.declared(message[1]),)
        elif kind == "done":
            runner.status, runner.figures = Status(message[1]), message[2]
            complete = runner.status is Status.COMPLETE or (
                self._buffered and runner.status is Status.SOLUTION_LIMIT)
            if self.winner is runner or complete:
                self._crown(runner)
                if self._buffered:
                    self._pending, self._final = deque(runner.found), runner.status
                else:
                    self._finish(runner.status)
        else:
            runner.error = message[1]
            self.notes.append(f"{runner.name} failed: {message[1]}")
            if self.winner is runner:
                self._finish(Status.INTERRUPTED)
        return None

    def _end(self, status: Status) -> None:
        """Stopped before any member had a complete answer (time limit, Ctrl-C):
        in a race to `limit` solutions, the member that had found the most
        hands them out; the race then ends with `status`."""
        best = max(self.runners, key=lambda r: len(r.found))
        if self._buffered and self.winner is None and best.found:
            self.winner = best
            _stop(self.runners)
            self._pending, self._final = deque(best.found), status
        else:
            self._finish(status)

    def _crown(self, runner: _Runner) -> None:
        """`runner` has the first complete answer: the others stop now."""
        if self.winner is None:
            self.winner = runner
            _stop([r for r in self.runners if r is not runner])

    def _no_winner(self) -> None:
        """Every member ended without a complete answer."""
        finished = [r for r in self.runners if r.error is None]
        if not finished:
            raise InputError("race: every member failed: " + "; ".join(self.notes))
        statuses = [r.status for r in finished if r.status is not None]
        self._end(Status.INTERRUPTED if Status.INTERRUPTED in statuses else Status.TIME_LIMIT)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._deadline is not None and now >= self._deadline:
            if self.progress is not None and not self._last_progress:
                # The first race of a process starts the fork server, which may
                # take the whole limit: progress is still reported once.
                self._measure()
                self.progress(self.stats)
            self._end(Status.TIME_LIMIT)
            return
        # On the members' news, at most every PROGRESS_SECONDS; without news
        # (members starting on a busy machine), every QUIET_SECONDS all the same.
        quiet = now - (self._last_progress or self._started or now)
        if self.progress is not None and (
                (self._news and quiet >= PROGRESS_SECONDS) or quiet >= QUIET_SECONDS):
            self._last_progress = now
            self._news = False
            self._measure()
            self.progress(self.stats)

    def _measure(self) -> None:
        stats = self.stats
        leader = self.winner or max(self.runners,
                                    key=lambda r: r.figures.get("solutions", 0), default=None)
        figures = leader.figures if leader is not None else {}
        if self.count_only:
            stats.solutions = int(figures.get("solutions", 0))
        stats.nodes = figures.get("nodes")
        stats.failures = figures.get("failures")
        stats.time = time.perf_counter() - (self._started or time.perf_counter())
        if self.winner is not None:
            stats.extra["winner"] = self.winner.name
        stats.extra["race"] = {r.name: r.report() for r in self.runners}
        if self.notes:
            stats.extra["race_notes"] = list(self.notes)


class Race:
    """A portfolio: its members race on each problem (see the module's docstring)."""

    name: ClassVar[str] = "race"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    # Whatever a member cannot take, its own plan adapts or refuses (`runners`).
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS | {COLOURS, MULTIPLICITIES,
                                                                 PORTFOLIO}
    members: ClassVar[tuple[str, ...]] = ()
    """The members' names; empty: `DEFAULT`."""

    def configured(self, options: str) -> Race:
        """The race of the backends named in `options` (`dlx+cpsat`, or `dlx,cpsat`)."""
        from csp import backends

        names = [word.strip() for word in options.replace(",", "+").split("+") if word.strip()]
        if not names:
            raise BackendUnavailable("race: name its members, as in race:dlx+cpsat; "
                                     f"available: {', '.join(backends.engines())}")
        for word in names:
            try:
                backend = backends.get(word)
            except BackendUnavailable as err:
                raise BackendUnavailable(f"race: {err}; available: "
                                         f"{', '.join(backends.engines())}") from None
            if PORTFOLIO in backend.capabilities:
                raise BackendUnavailable(f"race: {word!r} runs other backends itself and "
                                         "cannot be a member")
        chosen = tuple(dict.fromkeys(backends.name_of(word) for word in names))
        spec = "race:" + "+".join(chosen)
        return type("Race", (Race,), {"name": spec, "members": chosen})()

    def __reduce__(self) -> tuple[Any, ...]:
        # A configured race is a class made on the fly: sent elsewhere by its name.
        from csp import backends

        return (backends.get, (self.name,))

    def runners(self, problem: ExactCover | Model) -> tuple[list[_Runner], list[str]]:
        """The members that take `problem`, each with its plan; and why others do not."""
        from csp import backends, dispatch

        names = list(self.members)
        if not names:
            available = backends.engines()
            names = [backends.default_for(problem)] + [n for n in DEFAULT[1:] if n in available]
        runners, notes = [], []
        for name in dict.fromkeys(names):
            try:
                plan = dispatch.prepare(problem, name)
            except InputError as err:
                notes.append(f"{name} left out: {err}")
                continue
            runners.append(_Runner(name, plan))
        if not runners:
            raise InputError("race: no member takes this problem: " + "; ".join(notes))
        return runners, notes

    def solutions(self, problem: ExactCover | Model, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> RaceSearch:
        runners, notes = self.runners(problem)
        return RaceSearch(runners, notes, limit=limit, time_limit=time_limit, progress=progress)

    def count(self, problem: ExactCover | Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        runners, notes = self.runners(problem)
        return RaceSearch(runners, notes, limit=None, time_limit=time_limit, progress=progress,
                          count_only=True).count()


__all__ = ["DEFAULT", "Race", "RaceSearch"]
