"""The `race` backend: several backends on the same problem in parallel (one
in this process, the others in processes of their own); the first complete
answer wins and the others are stopped.

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
each member had done when the race ended (status: `NOT STARTED` for one
never needed, `STOPPED` for a loser; solutions, nodes, time; `process`:
"this one" or "its own"; `began`: seconds into the race; `cpu`: its
process's CPU seconds, when it finished); `nodes` and `failures` are the
winner's. A member that refuses the problem
is left out before the start (`stats.extra["race_notes"]` says why); one that
fails while running is noted and the others race on.

Where members run: the first member whose backend is `SLICED` (`dlx`,
`bitmask`, `sat`: searches that come back to Python between short slices)
runs in this process, alone for `HEAD_START` seconds, or only for its setup
if that takes longer (a problem it settles in less never starts a process:
on a batch of easy puzzles the race costs little more than that member
alone), then interleaved with reading the
others' news every `HOME_SLICE` seconds. Each other member runs in a process
of its own, started by `fork` while this process runs no other Python
thread: nothing is pickled, imported or loaded again, and a script needs no
`if __name__ == "__main__":`. With another thread running, forking is not
safe: members then come from a `forkserver` (started once; it imports csp
and warms the members up, a few seconds), which imports the main script
again, as `multiprocessing` does. Members ignore Ctrl-C (the race stops
them) and die with this process; the losers are killed (SIGKILL) and reaped
as soon as there is a winner, and every member is ended before a race
returns, fails or is interrupted. `stats.extra["race_costs"]` says how the
members were started and what starting and stopping them cost here.

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
import sys
import time
import warnings
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any, ClassVar

from csp.backends import by_name
from csp.backends.base import (
    ALL_CONSTRAINT_KINDS,
    COLOURS,
    MULTIPLICITIES,
    PORTFOLIO,
    SLICED,
    Progress,
    Search,
    SlicedSearch,
    check_limit,
    check_time_limit,
)
from csp.errors import BackendUnavailable, BadMember, InputError
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

HEAD_START = 0.02
"""Seconds the member run in this process searches alone before the others
are started (once it has run here before: `WARMED`): a problem it settles
in less never pays for a process. About what starting and stopping them
costs (a fork of a few ms, reaping the losers, the member building its
model: 15-25 ms on a 36x36 sudoku), so that neither the easy problems nor
the hard ones pay much more than twice that cost; a 9x9 sudoku takes `bitmask`
1-2 ms (bench/RESULTS.md, section 18)."""

WARMED: set[str] = set()
"""The members that have run a slice in this process: their kernels are
loaded. Another member's first slice may load its kernels (a second or so,
before any poll), so the others start at once instead of after a head start."""

HOME_SLICE = 0.01
"""Seconds of a slice of the member run in this process: between two slices
it reads the others' news, so a winner elsewhere stops it this soon."""

PRELOAD = ["csp.backends.warm"]
"""What the fork server imports once: the members warmed up (`csp.backends.warm`)."""

WARM = "CSP_RACE_WARM"
"""The environment variable that tells the fork server which backends to warm
up (comma-separated): the members of the race that starts it."""


def _context() -> Any:
    """How members start (`csp.children.context`): by `fork` while this
    process runs no other Python thread, else from a fork server that warms
    the members up (`PRELOAD`)."""
    from csp.children import context

    return context(PRELOAD)


def _figures(stats: Stats) -> dict[str, Any]:
    return {"solutions": stats.solutions, "nodes": stats.nodes, "failures": stats.failures,
            "time": round(stats.time, 6)}


def _spent(stats: Stats) -> dict[str, Any]:
    """A member's last figures, with the CPU seconds of its process (its
    model's building included): the same as alone, unless it was not alone."""
    return {**_figures(stats), "cpu": round(time.process_time(), 4)}


def _member(backend: Any, target: Any, count_only: bool, limit: int | None,
            time_limit: float | None, conn: Any) -> None:
    """One member, in its own process: run and report through `conn`."""
    from csp.children import die_with_parent

    die_with_parent()
    conn.send(("began", time.time()))

    def progress(stats: Stats) -> None:
        conn.send(("progress", _figures(stats)))

    try:
        if count_only:
            result = backend.count(target, time_limit=time_limit, progress=progress)
            if not isinstance(result, Result):
                raise TypeError(f"count returned a {type(result).__name__}, not a csp.Result")
            conn.send(("done", result.status.value, _spent(result.stats)))
        else:
            search = backend.solutions(target, limit=limit, time_limit=time_limit,
                                       progress=progress)
            for solution in search:
                conn.send(("solution", solution, _figures(search.stats)))
            status = search.status or Status.COMPLETE
            conn.send(("done", Status(status).value, _spent(search.stats)))
    except BaseException as err:  # noqa: BLE001 - every failure is reported to the race
        conn.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


class _Overtaken(BaseException):
    """Raised in the progress callback of the member run in this process: the
    race is decided elsewhere (or over), so its search stops here. A
    BaseException, so that no `except Exception` on the way swallows it."""


@dataclass
class _Runner:
    """One member as the race sees it."""

    name: str
    plan: Any  # its dispatch.Plan: what it runs, and how its solutions map back
    home: bool = False  # run in this process (a SLICED backend), not in one of its own
    process: Any = None
    conn: Any = None
    search: Any = None  # the home member's search, while it runs
    launched: bool = False  # its process was started
    began: float | None = None  # seconds after the race's start that it began searching
    figures: dict[str, Any] = field(default_factory=dict)
    status: Status | None = None
    error: str | None = None
    found: list[Any] = field(default_factory=list)  # its solutions, while kept

    @property
    def running(self) -> bool:
        """Searching, or (the home member) about to."""
        started = self.process is not None or self.search is not None or (
            self.home and self.began is None)
        return started and self.status is None and self.error is None

    def report(self) -> dict[str, Any]:
        out = dict(self.figures)
        if self.error is not None:
            out["status"], out["error"] = "FAILED", self.error
        elif self.status is not None:
            out["status"] = self.status.value
        else:
            started = self.launched or self.began is not None
            out["status"] = "STOPPED" if started else "NOT STARTED"
        out["began"] = None if self.began is None else round(self.began, 4)
        out["process"] = "this one" if self.home else "its own"
        return out


def _stop(runners: list[_Runner]) -> None:
    """End every member still running: the home one's search is closed, the
    others are killed (SIGKILL: nothing of theirs needs cleaning up), then
    reaped, so that no process is left behind. Also the finaliser of an
    abandoned race, so it touches only the runners."""
    for runner in runners:
        if runner.search is not None:
            search, runner.search = runner.search, None
            search.close()
        if runner.process is not None and runner.process.is_alive():
            runner.process.kill()  # every loser first, then the waits: they end together
    for runner in runners:
        process = runner.process
        if process is None:
            continue
        process.join()
        if runner.conn is not None:
            runner.conn.close()
        runner.process = None


class RaceSearch(Search):
    """A race, consumed as a search (or run to the end to count).

    The first member whose backend is `SLICED` (the compiled ones, `sat`)
    runs in this process: alone for `HEAD_START` seconds, then in slices of
    `HOME_SLICE` seconds between which it reads the news of the others, each
    started in a process of its own."""

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
        self._home = next((r for r in runners if SLICED in r.plan.backend.capabilities), None)
        if self._home is not None:
            self._home.home = True
        self._launched = False
        self._method: str | None = None  # how the other members were started
        self._costs = {"start": 0.0, "stop": 0.0}  # seconds this process spent on them
        self._stash: tuple[Any] | None = None  # a solution of another member, to hand out
        self._started: float | None = None
        self._wall = 0.0  # time.time() at the start: members in other processes say when
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
        self._wall = time.time()
        if self.time_limit is not None:
            self._deadline = self._started + self.time_limit
        if self.limit == 0 and not self.count_only:
            self._finish(Status.SOLUTION_LIMIT)
            return
        if self.time_limit == 0:
            self._finish(Status.TIME_LIMIT)
            return
        if self._home is None or self._home.name not in WARMED:
            self._launch()

    def _launch(self) -> None:
        """Start the members that run in processes of their own."""
        if self._launched:
            return
        self._launched = True
        others = [r for r in self.runners if not r.home and r.error is None]
        if not others:
            return
        began = time.perf_counter()
        context = _context()
        self._method = context.get_start_method()
        # The fork server, if this race starts it, warms up these members only.
        before = os.environ.get(WARM)
        os.environ[WARM] = ",".join(runner.name for runner in self.runners)
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns of fork with any thread of the process, a
                # library's idle pool included; _context forks only without
                # another Python thread.
                warnings.filterwarnings("ignore", "This process .* is multi-threaded",
                                        DeprecationWarning)
                for runner in others:
                    self._start_member(context, runner)
        finally:
            if before is None:
                del os.environ[WARM]
            else:
                os.environ[WARM] = before
        self._costs["start"] += time.perf_counter() - began

    def _start_member(self, context: Any, runner: _Runner) -> None:
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
            return
        finally:
            send.close()  # the member's end: EOF here once it is gone
        runner.process, runner.conn, runner.launched = process, receive, True

    def _finish(self, status: Status) -> None:
        self._stop(self.runners)
        self._finalizer.detach()
        self.status = status
        self._measure()

    def _stop(self, runners: list[_Runner]) -> None:
        began = time.perf_counter()
        _stop(runners)
        self._costs["stop"] += time.perf_counter() - began

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
            self._stop(self.runners)
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
        """Run the home member, or read the others, until a solution to hand
        out (or None: the end)."""
        while self.status is None and self._pending is None:
            home = self._home
            if home is not None and home.running and self.winner in (None, home):
                found = self._run_home(home)
                if found is not None:
                    return found[0]
                continue
            if not self._launched and not self._expired():
                self._launch()
            listening = [r for r in self.runners if r.conn is not None and r.running
                         and (self.winner is None or r is self.winner)]
            if not listening:
                self._no_winner()
                return None
            wait = POLL
            if self._deadline is not None:
                wait = max(0.0, min(wait, self._deadline - time.perf_counter()))
            found = self._collect(listening, wait)
            if found is not None:
                return found[0]
            if self.status is None and self._pending is None:
                self._tick()
        return None

    def _past_head_start(self) -> bool:
        """Whether the others are due to start: not yet started, and the home
        member's head start is over."""
        assert self._started is not None
        return not self._launched and time.perf_counter() - self._started >= HEAD_START

    def _expired(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    def _collect(self, listening: list[_Runner], wait: float) -> tuple[Any] | None:
        """Read the members that have news (waiting at most `wait` seconds for
        one); a solution to hand out comes back in a 1-tuple."""
        ready = multiprocessing.connection.wait([r.conn for r in listening], wait)
        for runner in listening:
            # Everything a ready member has sent, not one message per wait.
            while runner.running and runner.conn in ready:
                found = self._receive(runner)
                if found is not None:
                    return found
                if self.status is not None or self._pending is not None:
                    return None
                if not runner.running or not runner.conn.poll():
                    break
        return None

    def _run_home(self, runner: _Runner) -> tuple[Any] | None:
        """Run the member of this process until it has a solution to hand
        out, ends, or is overtaken (its progress callback, `_poll`, reads the
        others)."""
        search = runner.search
        try:
            if search is None:
                runner.began = time.perf_counter() - (self._started or 0.0)
                search = runner.search = runner.plan.backend.solutions(
                    runner.plan.target, limit=None if self.count_only else self.limit,
                    time_limit=self.time_limit, progress=self._poll)
                if not isinstance(search, SlicedSearch):
                    raise TypeError(f"it declares {SLICED!r} but its search is a "
                                    f"{type(search).__name__}, not a SlicedSearch")
                # Short slices, each followed by the callback: a winner
                # elsewhere stops this search within HOME_SLICE.
                search.SLICE_SECONDS, search.PROGRESS_SECONDS = HOME_SLICE, 0.0
                if self._past_head_start():
                    # Its setup alone outlasted the head start (a large
                    # problem: 20-40 ms on a 36x36 sudoku): the others start
                    # now, not a slice later.
                    self._launch()
            if self.count_only:
                search.count()
            else:
                for solution in search:
                    runner.figures = _figures(search.stats)
                    if self._buffered:
                        runner.found.append(solution)
                        continue
                    self._crown(runner)
                    self.stats.solutions += 1
                    return (runner.plan.declared(solution),)
        except _Overtaken as overtaken:
            if search is not None:
                search.close()
            runner.search = None
            if overtaken.args:
                raise overtaken.args[0] from None
            found, self._stash = self._stash, None
            return found
        except Exception as err:  # noqa: BLE001 - a member's failure is the race's news
            runner.search = None
            self._failed(runner, f"{type(err).__name__}: {err}")
            return None
        WARMED.add(runner.name)
        runner.figures = _figures(search.stats)
        if search.status is Status.INTERRUPTED:
            # Its searches end so only by Ctrl-C (caught in its slices).
            raise KeyboardInterrupt
        self._done(runner, search.status or Status.COMPLETE)
        return None

    def _poll(self, stats: Stats) -> None:
        """The home member's progress callback, between two of its slices:
        start the others once its head start is over, read their news, report
        progress; `_Overtaken` if that decided the race."""
        home = self._home
        assert home is not None and self._started is not None
        WARMED.add(home.name)
        home.figures = _figures(stats)
        self._news = True
        if self.winner is None:
            if self._past_head_start():
                self._launch()
            listening = [r for r in self.runners if r.conn is not None and r.running]
            if listening:
                found = self._collect(listening, 0.0)
                if found is not None:
                    self._stash = found
                    raise _Overtaken
        if self.status is None and self._pending is None and self.winner in (None, home):
            try:
                self._tick()
            except Exception as err:  # the user's progress callback: not the member's failure
                raise _Overtaken(err) from err
        if self.status is not None or self._pending is not None or \
                self.winner not in (None, home):
            raise _Overtaken

    def _receive(self, runner: _Runner) -> tuple[Any] | None:
        """Take one message of `runner`; a solution to hand out comes back in a 1-tuple."""
        try:
            message = runner.conn.recv()
        except (EOFError, OSError):
            message = ("error", self._silent_end(runner))
        kind = message[0]
        if kind == "began":
            runner.began = message[1] - self._wall
        elif kind == "progress":
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
            runner.figures = message[2]
            self._done(runner, Status(message[1]))
        else:
            self._failed(runner, message[1])
        return None

    def _silent_end(self, runner: _Runner) -> str:
        """Why `runner`'s process ended without a word: its exit code, and
        the likely cause where a fresh process imports the main script."""
        process = runner.process
        if process is not None:
            process.join(1)
        code = process.exitcode if process is not None else None
        why = f"its process ended without an answer (exit code {code})"
        main = sys.modules.get("__main__")
        if self._method != "fork" and getattr(main, "__file__", None):
            why += (f" (this process runs threads, so the race started its members with "
                    f"{self._method}, which imports the main script again: a script that "
                    "races then needs `if __name__ == \"__main__\":`)")
        return why

    def _done(self, runner: _Runner, status: Status) -> None:
        """`runner` has ended its search with `status`."""
        runner.status = status
        complete = status is Status.COMPLETE or (
            self._buffered and status is Status.SOLUTION_LIMIT)
        if self.winner is runner or complete:
            self._crown(runner)
            if self._buffered:
                self._pending, self._final = deque(runner.found), status
            else:
                self._finish(status)

    def _failed(self, runner: _Runner, error: str) -> None:
        runner.error = error
        self.notes.append(f"{runner.name} failed: {error}")
        if self.winner is runner:
            self._finish(Status.INTERRUPTED)

    def _end(self, status: Status) -> None:
        """Stopped before any member had a complete answer (time limit, Ctrl-C):
        in a race to `limit` solutions, the member that had found the most
        hands them out; the race then ends with `status`."""
        best = max(self.runners, key=lambda r: len(r.found))
        if self._buffered and self.winner is None and best.found:
            self.winner = best
            self._stop(self.runners)
            self._pending, self._final = deque(best.found), status
        else:
            self._finish(status)

    def _crown(self, runner: _Runner) -> None:
        """`runner` has the first complete answer: the others stop now."""
        if self.winner is None:
            self.winner = runner
            self._stop([r for r in self.runners if r is not runner])

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
                # A race that starts a fork server may spend the whole limit
                # on it: progress is still reported once.
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
        stats.extra["race_costs"] = {"started_with": self._method,
                                     **{k: round(v, 4) for k, v in self._costs.items()}}
        if self.notes:
            stats.extra["race_notes"] = list(self.notes)


class Race:
    """A portfolio: its members race on each problem (see the module's docstring)."""

    name: ClassVar[str] = "race"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    # Whatever a member cannot take, its own plan adapts or refuses (`runners`).
    capabilities: ClassVar[frozenset[str]] = ALL_CONSTRAINT_KINDS | {COLOURS, MULTIPLICITIES,
                                                                 PORTFOLIO}
    members: ClassVar[tuple[str, ...]] = ()
    """The members' names; empty: `DEFAULT`."""

    def configured(self, options: str) -> Race:
        """The race of the backends named in `options` (`dlx+cpsat`, or `dlx,cpsat`)."""
        from csp import backends

        names = [word.strip() for word in options.replace(",", "+").split("+") if word.strip()]
        if not names:
            raise BadMember("race: name its members, as in race:dlx+cpsat; "
                            f"available: {', '.join(backends.engines())}")
        for word in names:
            try:
                backend = backends.get(word)
            except BackendUnavailable as err:
                raise BadMember(f"race: {err}; available: "
                                f"{', '.join(backends.engines())}") from None
            if PORTFOLIO in backend.capabilities:
                raise BadMember(f"race: {word!r} runs other backends itself and "
                                "cannot be a member")
        chosen = tuple(dict.fromkeys(backends.name_of(word) for word in names))
        spec = "race:" + "+".join(chosen)
        return type("Race", (Race,), {"name": spec, "members": chosen})()

    def __reduce__(self) -> tuple[Any, ...]:
        return by_name(self)

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
