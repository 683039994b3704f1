"""Searches whose solver runs in a child process: its crash, its memory and
its native code never touch the caller, and it never outlives the call.

The field's solvers are native code that Python cannot interrupt, or other
programs: pychoco is a GraalVM image that aborts the whole process on an
uncaught Java exception; ganak's count is one C++ call with no time limit;
ACE is a JVM and Gecode a program of its own. A backend for one of them
(capability `OUTSIDE`) runs it through `ForkedSearch`:

- `work(outbox, payload, limit, time_limit, count_only)` runs in a child
  process started for the search: forked while this process runs no other
  Python thread (milliseconds, nothing imported again), else a fresh
  interpreter (`python -m csp.backends.forked`, which is sent `work` and
  its arguments pickled). The child ignores Ctrl-C, dies with this process
  (`csp.children.die_with_parent`; a program it starts does too, see
  `program`), and writes its stdout and stderr to a log file;
- it reports through `outbox`: `solution(payload)`, `progress(figures)` and
  `done(status, figures)`, where `figures` holds `solutions`, `nodes`,
  `failures`, `time` (its search's seconds) and `extra` (its own figures);
- this process reads the reports as the consumer asks for solutions
  (solutions come through a pipe, so a child never runs far ahead of its
  consumer: enumerating holds nothing), turns them into solutions
  (`decode`), calls `progress` about five times a second, and ends the
  child (SIGKILL, then reaped) when the search is over, closed, abandoned
  (a finaliser), interrupted (Ctrl-C: `INTERRUPTED`, keeping what was
  found), or when the child overruns its time limit by `grace` seconds
  (`TIME_LIMIT`, keeping its last count: a lower bound);
- a child that dies without saying `done`, or reports an error, is a
  `csp.errors.SolverFailed` naming the backend, with the last lines of its
  log: never a count;
- the child's temporary files (Python's `tempfile`, and a program's that
  honours `TMPDIR`) go in a directory this process makes for the search
  and removes once the child is reaped: the child is killed the moment it
  answers, before any cleanup of its own could run.

>>> search = ForkedSearch("demo", _demo, 3)
>>> list(search), search.status.value, search.stats.solutions
([0, 1, 2], 'COMPLETE', 3)
>>> ForkedSearch("demo", _demo, 3, count_only=True).count().count
3
>>> ForkedSearch("demo", _demo, -1).count()
Traceback (most recent call last):
    ...
csp.errors.SolverFailed: demo failed: ValueError: a negative count
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, ClassVar

from csp.backends.base import Progress, Search, check_limit, check_time_limit
from csp.errors import InputError, SolverFailed
from csp.model import Assignment, Model
from csp.result import Result, Status

Work = Callable[..., None]
"""`work(outbox, payload, limit, time_limit, count_only)`, run in the child."""

GRACE = 2.0
"""Seconds a child that checks its own time limit may run past it (its model
building, a slow node) before it is killed."""

LAST_LINES = 12
"""Lines of a failed child's log kept in the error."""

LOG_TAIL = 16_384
"""Bytes read from the end of a failed child's log."""


class Failure(Exception):
    """A failure the child explains in full (a program's exit and last lines):
    reported as its message alone."""


class Outbox:
    """What a child reports through (the child's end of the pipe)."""

    PROGRESS_SECONDS = 0.1

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.started = time.perf_counter()
        self._last = self.started

    def elapsed(self) -> float:
        """Seconds since the child began."""
        return time.perf_counter() - self.started

    def solution(self, payload: Any) -> None:
        """One solution (blocks while the consumer is behind)."""
        self._conn.send(("solution", payload))

    def due(self) -> bool:
        """Whether a progress report is due (every `PROGRESS_SECONDS`)."""
        now = time.perf_counter()
        if now - self._last < self.PROGRESS_SECONDS:
            return False
        self._last = now
        return True

    def progress(self, figures: dict[str, Any]) -> None:
        """The figures so far (`solutions`, `nodes`, `failures`, `time`, `extra`)."""
        self._conn.send(("progress", figures))

    def done(self, status: Status, figures: dict[str, Any]) -> None:
        """The search is over: how it ended, and its last figures."""
        self._conn.send(("done", Status(status).value, figures))


def _run_child(work: Work, args: tuple[Any, ...], conn: Connection, log: int,
               scratch: str) -> None:
    """The child: quiet, detached from Ctrl-C, tied to its parent, its temporary
    files in `scratch`, then `work` (`log`: the file descriptor of its log,
    opened and already unlinked by the parent)."""
    from csp.children import die_with_parent

    die_with_parent()
    # The parent removes `scratch` once this process is reaped: it kills it
    # at its answer, so a `with TemporaryDirectory()` here never ends.
    tempfile.tempdir = scratch
    os.environ["TMPDIR"] = scratch  # and for the programs it starts
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    # Python's own streams too (a caller may have replaced them: pytest does).
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - for the child's life
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    try:
        work(Outbox(conn), *args)
    except BaseException as err:  # noqa: BLE001 - every failure is reported to the parent
        kind = "refused" if isinstance(err, InputError) else "error"
        text = str(err) if isinstance(err, Failure) else f"{type(err).__name__}: {err}"
        try:
            conn.send((kind, text))
        except OSError:
            pass
    finally:
        try:
            conn.close()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()


class _Child:
    """A started child, forked or spawned: kill it, reap it, say how it ended."""

    def __init__(self, pid: int | None = None, popen: subprocess.Popen[bytes] | None = None
                 ) -> None:
        self.pid = pid
        self.popen = popen
        self.exit: int | None = None

    def kill(self) -> None:
        if self.exit is not None:
            return
        try:
            if self.popen is not None:
                self.popen.kill()
            elif self.pid is not None:
                os.kill(self.pid, signal.SIGKILL)
        except (ProcessLookupError, OSError):
            pass

    def reap(self) -> int:
        """Wait for the child to end (after `kill`, at once); its exit code
        (negative: the signal that ended it)."""
        if self.exit is None:
            if self.popen is not None:
                self.exit = self.popen.wait()
            else:
                assert self.pid is not None
                _, status = os.waitpid(self.pid, 0)
                self.exit = os.waitstatus_to_exitcode(status)
        return self.exit


def _start(work: Work, args: tuple[Any, ...], log: int, scratch: str
           ) -> tuple[_Child, Connection]:
    """Start `work` in a child: forked if this process runs no other Python
    thread, else a fresh interpreter. The parent's end of the pipe."""
    read, write = os.pipe()
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        pid = os.fork()
        if pid == 0:  # the child
            os.close(read)
            code = 0
            try:
                _run_child(work, args, Connection(write, readable=False), log, scratch)
            except BaseException:  # noqa: BLE001 - a child never returns into the caller's code
                code = 1
            os._exit(code)
        os.close(write)
        return _Child(pid=pid), Connection(read, writable=False)
    # Forking a process whose other threads may hold locks is not safe: a
    # new interpreter, sent the work and its arguments pickled.
    try:
        data = pickle.dumps((work, args))
    except Exception as err:  # noqa: BLE001 - an unpicklable problem says so
        os.close(read)
        os.close(write)
        raise InputError(f"this problem cannot be sent to a solver's process: "
                         f"{type(err).__name__}: {err}") from err
    popen = subprocess.Popen(
        [sys.executable, "-m", "csp.backends.forked", str(write), str(log), scratch],
        stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(write, log))
    os.close(write)
    assert popen.stdin is not None
    try:
        popen.stdin.write(data)
        popen.stdin.close()
    except OSError:
        pass  # it died at once: its log says why
    return _Child(popen=popen), Connection(read, writable=False)


def _end(child: _Child, conn: Connection, log: int, scratch: str) -> None:
    """Kill, reap and forget a child, and remove its temporary files (also
    the finaliser of an abandoned search)."""
    child.kill()
    child.reap()
    conn.close()
    os.close(log)
    shutil.rmtree(scratch, ignore_errors=True)


def log_tail(fd: int, lines: int = LAST_LINES) -> str:
    """The last `lines` lines of the file open as `fd`, indented; "(none)" if empty."""
    try:
        size = os.fstat(fd).st_size
        text = os.pread(fd, LOG_TAIL, max(0, size - LOG_TAIL)).decode("utf-8", "replace")
    except OSError:
        return "(none)"
    every = [line.rstrip() for line in text.splitlines() if line.strip()]
    kept = every[-lines:]
    # A crash report (a JVM's, a native image's) names its cause first, then
    # pages of state: the first line naming an exception or error leads.
    cause = next((line for line in every if _CAUSE.search(line)), None)
    if cause is not None and cause not in kept:
        kept = [cause, "..."] + kept
    return "\n  " + "\n  ".join(kept) if kept else "(none)"


_CAUSE = re.compile(r"exception|error", re.IGNORECASE)


class ForkedSearch(Search):
    """One search in a child process (see the module)."""

    POLL = 0.05
    PROGRESS_SECONDS = 0.2

    def __init__(self, backend: str, work: Work, payload: Any, *,
                 decode: Callable[[Any], Any] | None = None, limit: int | None = None,
                 time_limit: float | None = None, progress: Progress | None = None,
                 count_only: bool = False, grace: float = GRACE) -> None:
        super().__init__()
        self.backend = backend
        self.work = work
        self.payload = payload
        self.decode = decode
        self.limit = check_limit(limit)
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self.count_only = count_only
        self.grace = grace
        self._child: _Child | None = None
        self._conn: Connection | None = None
        self._log: int | None = None  # the log's file descriptor
        self._started = 0.0
        self._last_progress = 0.0
        self._reported = 0  # the child's own count of its solutions
        self._child_time: float | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- starting and ending -----------------------------------------------------------

    def _begin(self) -> None:
        self._started = self._last_progress = time.perf_counter()
        if self.limit == 0 and not self.count_only:
            self._finish(Status.SOLUTION_LIMIT)
            return
        if self.time_limit == 0:
            self._finish(Status.TIME_LIMIT)
            return
        # The log is unlinked at once: nothing is left in the temporary
        # directory, however this process ends; both ends keep it open.
        self._log, path = tempfile.mkstemp(prefix=f"csp-{self.backend}-", suffix=".log")
        os.unlink(path)
        args = (self.payload, self.limit, self.time_limit, self.count_only)
        try:
            scratch = tempfile.mkdtemp(prefix=f"csp-{self.backend}-")
        except BaseException:
            os.close(self._log)
            raise
        try:
            self._child, self._conn = _start(self.work, args, self._log, scratch)
        except BaseException:
            os.close(self._log)
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        self._finalizer = weakref.finalize(self, _end, self._child, self._conn, self._log,
                                           scratch)

    def _finish(self, status: Status) -> None:
        self._stop()
        if self.count_only:
            self.stats.solutions = self._reported
        self.stats.time = (self._child_time if self._child_time is not None
                           else time.perf_counter() - self._started)
        self.status = status

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # _end: kill, reap, close the pipe and the log
            self._finalizer = None

    def _fail(self, why: str | None) -> None:
        """The child failed: end it and raise, naming the backend with its last lines."""
        assert self._child is not None and self._log is not None
        self._child.kill()
        code = self._child.reap()
        tail = log_tail(self._log)
        self._stop()
        self.status = Status.INTERRUPTED
        if why is None:
            how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
            why = f"its process ended without an answer ({how})"
        said = "" if tail == "(none)" else f"; its last lines: {tail}"
        raise SolverFailed(f"{self.backend} failed: {why}{said}")

    # -- reading the child ------------------------------------------------------------------

    def __next__(self) -> Any:
        if self._child is None and self.status is None:
            self._begin()
        if self.status is not None:
            raise StopIteration
        try:
            return self._next()
        except KeyboardInterrupt:
            # Ctrl-C, wherever it lands in the wait: end the child, keep what was found.
            self._finish(Status.INTERRUPTED)
            raise StopIteration from None

    def _next(self) -> Any:
        while True:
            message = self._receive()
            if message is None:  # the time limit, overrun: the child was killed
                self._finish(Status.TIME_LIMIT)
                raise StopIteration
            kind = message[0]
            if kind == "solution":
                self.stats.solutions += 1
                return message[1] if self.decode is None else self.decode(message[1])
            if kind == "progress":
                self._absorb(message[1])
            elif kind == "done":
                self._absorb(message[2])
                self._finish(Status(message[1]))
                raise StopIteration
            elif kind == "refused":
                self._stop()
                self.status = Status.INTERRUPTED
                raise InputError(f"{self.backend}: {message[1]}")
            else:
                self._fail(str(message[1]))

    def _receive(self) -> Any:
        """The child's next report, or None once it overran its time limit."""
        assert self._conn is not None
        deadline = None if self.time_limit is None else (
            self._started + self.time_limit + self.grace)
        while True:
            wait = self.POLL
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                wait = min(wait, left)
            if self._conn.poll(wait):
                try:
                    return self._conn.recv()
                except (EOFError, OSError):
                    self._fail(None)
            self._tick()

    def _absorb(self, figures: dict[str, Any]) -> None:
        self._reported = int(figures.get("solutions", self._reported))
        if self.count_only:
            self.stats.solutions = self._reported
        for name in ("nodes", "failures"):
            if figures.get(name) is not None:
                setattr(self.stats, name, int(figures[name]))
        if figures.get("time") is not None:
            # Kept for the end: the solver's own time, its start left out. The
            # reports in between keep the caller's clock, which never runs
            # backwards (the child's started later).
            self._child_time = float(figures["time"])
        self.stats.extra.update(figures.get("extra", {}))

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
            self._last_progress = now
            self.stats.time = now - self._started
            self.progress(self.stats)

    # -- the Search API -----------------------------------------------------------------------

    def close(self) -> None:
        if self.status is None:
            self._finish(Status.INTERRUPTED)

    def count(self) -> Result:
        """Run to the end counting in the child (nothing is sent but figures)."""
        if self._child is None and self.status is None:
            self.count_only = True
        for _ in self:
            pass
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)


def _demo(outbox: Outbox, n: int, limit: int | None, time_limit: float | None,
          count_only: bool) -> None:
    """The module's example: `n` solutions 0..n-1."""
    if n < 0:
        raise ValueError("a negative count")
    for k in range(n):
        if not count_only:
            outbox.solution(k)
    outbox.done(Status.COMPLETE, {"solutions": n, "time": outbox.elapsed()})


def _spawned(fd: int, log: int, scratch: str) -> None:
    """A fresh interpreter's child (`python -m csp.backends.forked FD LOG SCRATCH`):
    the work and its arguments come pickled on stdin."""
    work, args = pickle.loads(sys.stdin.buffer.read())
    _run_child(work, args, Connection(fd, readable=False), log, scratch)


if __name__ == "__main__":
    _spawned(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])


class ModelInChild:
    """A backend that searches a `Model` in a child process: `work` (a
    static method) is the child's search, `refuses` says why the solver
    cannot take a model; `grace` is how long the child may finish after the
    time limit before it is killed."""

    name: ClassVar[str]
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model,)
    grace: ClassVar[float] = GRACE
    work: ClassVar[Work]

    def refuses(self, problem: Model) -> str | None:
        """Why the solver cannot take `problem`, or None."""
        raise NotImplementedError

    def solutions(self, problem: Model, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> ForkedSearch:
        return self._search(problem, limit, time_limit, progress, count_only=False)

    def count(self, problem: Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return self._search(problem, None, time_limit, progress, count_only=True).count()

    def _search(self, problem: Model, limit: int | None, time_limit: float | None,
                progress: Progress | None, count_only: bool) -> ForkedSearch:
        why = self.refuses(problem)  # the solver would fail or abort: say why instead
        if why is not None:
            raise InputError(f"{self.name}: {why}")
        names = list(problem.variables)

        def decode(values: tuple[int, ...]) -> Assignment:
            return Assignment(zip(names, values))

        return ForkedSearch(self.name, type(self).work, problem, decode=decode, limit=limit,
                            time_limit=time_limit, progress=progress, count_only=count_only,
                            grace=self.grace)


__all__ = ["GRACE", "Failure", "ForkedSearch", "ModelInChild", "Outbox", "Work", "log_tail"]
