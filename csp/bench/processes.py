"""Whole processes timed from outside: start-up, imports and set-up included.

What `csp.bench.measure` does for a call inside this process, this module
does for a command: the figures a user waiting for `csp solve FILE` sees.

- `Command`: what to start (its arguments, and optionally its standard
  input, extra environment variables and working directory);
- `run(command)`: one `Process`: wall seconds (a monotonic clock read just
  before the start and just after the child is reaped), CPU seconds (user +
  system, the operating system's accounting of that child and every process
  it waited for, all threads) and peak memory, its exit status and what it
  printed;
- `series(command, repeat, warmup=1)`: `warmup` runs that fill numba's cache
  and the operating system's file cache, then `repeat` timed runs: quote the
  median;
- `paired(a, b, pairs)`: two commands in turn (A B A B ...), the ratio A/B
  taken pair by pair, which stays meaningful when the machine's speed drifts
  during the measurement (a shared machine): the way to compare two
  checkouts, or a program against a reference.

A command's process runs in a session of its own: one that outlives its
`timeout` is killed with everything it started.

>>> import sys
>>> done = run(Command([sys.executable, "-c", "print(6 * 7)"]))
>>> done.stdout, done.returncode, done.wall > 0, done.cpu >= 0
('42\\n', 0, True, True)
>>> twice = series(Command([sys.executable, "-c", "pass"]), repeat=2)
>>> len(twice.runs), len(twice.warmups), twice.failure
(2, 1, None)
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Command:
    """A command to time: its arguments, and what it reads and runs in.

    Args:
        argv: the program and its arguments (no shell: a pipe is `sh -c '...'`).
        stdin: a file given as its standard input (default: empty).
        env: variables set over this process's environment.
        cwd: the directory it runs in (default: this process's).
    """

    argv: Sequence[str]
    stdin: Path | None = None
    env: Mapping[str, str] | None = None
    cwd: Path | None = None

    def text(self) -> str:
        """The command as a shell would read it (`VAR=value ... argv < stdin`)."""
        words = [f"{k}={shlex.quote(v)}" for k, v in (self.env or {}).items()]
        words.append(shlex.join(self.argv))
        return " ".join(words) + (f" < {shlex.quote(str(self.stdin))}" if self.stdin else "")


@dataclass
class Process:
    """One finished run of a command.

    `wall` and `cpu` are seconds; `peak` is the largest resident set of a
    single process among those it waited for, in KiB; `killed` says the
    run outlived its timeout (its figures then stop at the kill).
    """

    wall: float
    cpu: float
    peak: int
    returncode: int
    stdout: str
    stderr: str
    killed: bool = False


def run(command: Command, timeout: float | None = None) -> Process:
    """Start `command`, wait for it to end (or kill it after `timeout`
    seconds, with every process of its session), and return its figures.

    Its output goes to temporary files, not pipes, so that a command that
    prints a great deal is not slowed by this process reading it.

    Raises:
        OSError: the program cannot be started (not found, not executable).
    """
    env = None if command.env is None else {**os.environ, **command.env}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(command.stdin or os.devnull, "rb") as given:
        started = time.perf_counter()
        child = subprocess.Popen(list(command.argv), stdin=given, stdout=out, stderr=err,
                                 env=env, cwd=command.cwd, start_new_session=True)
        killed = threading.Event()
        timer = None
        if timeout is not None:
            timer = threading.Timer(timeout, _kill, (child.pid, killed))
            timer.start()
        try:
            # wait4: this child's own accounting (runs may overlap other children)
            _, status, usage = os.wait4(child.pid, 0)
        except BaseException:  # Ctrl-C: the child (in its own session) must not outlive us
            _kill(child.pid, None)
            child.wait()
            raise
        finally:
            if timer is not None:
                timer.cancel()
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait
        _kill(child.pid, None)  # what it left running in its session
        out.seek(0)
        err.seek(0)
        return Process(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
                       child.returncode, out.read().decode(errors="replace"),
                       err.read().decode(errors="replace"), killed.is_set())


def _kill(session: int, killed: threading.Event | None) -> None:
    try:
        os.killpg(session, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return
    if killed is not None:
        killed.set()


@dataclass
class Series:
    """The runs of one command: `warmups` (not counted), then `runs`.

    `failure` says why the series stopped early (a run killed at its timeout,
    or an exit status not accepted), else None; the failed run is the last
    of `runs` (or of `warmups`).
    """

    command: Command
    runs: list[Process] = field(default_factory=list)
    warmups: list[Process] = field(default_factory=list)
    failure: str | None = None

    @property
    def wall(self) -> float | None:
        """The median wall seconds of the timed runs (None: none)."""
        return _median([p.wall for p in self.runs])

    @property
    def cpu(self) -> float | None:
        """The median CPU seconds (user + system) of the timed runs."""
        return _median([p.cpu for p in self.runs])

    @property
    def peak(self) -> int | None:
        """The largest peak memory of any run, KiB."""
        return max((p.peak for p in self.runs + self.warmups), default=None)

    @property
    def every(self) -> list[Process]:
        """Every run, the warm-ups first."""
        return self.warmups + self.runs


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def series(command: Command, repeat: int, *, warmup: int = 1, timeout: float | None = None,
           accept: Collection[int] | None = (0,)) -> Series:
    """`warmup` runs of `command`, then `repeat` timed ones.

    Args:
        command: what to run.
        repeat: the timed runs (at least 1).
        warmup: runs first, not counted (numba's cache, the OS's file cache).
        timeout: seconds each run may take before it is killed.
        accept: the exit statuses of a run that did its job (None: any); a run
            with another, or killed, ends the series (`Series.failure`).

    Returns:
        The `Series`, every run's output kept for the caller to check.
    """
    out = Series(command)
    for k in range(max(0, warmup) + max(1, repeat)):
        done = run(command, timeout)
        (out.warmups if k < warmup else out.runs).append(done)
        out.failure = _failure(done, timeout, accept)
        if out.failure is not None:
            break
    return out


def _failure(done: Process, timeout: float | None, accept: Collection[int] | None
             ) -> str | None:
    if done.killed:
        return f"killed after {timeout:g} s"
    if accept is not None and done.returncode not in accept:
        return f"exit status {done.returncode}: {done.stderr.strip()[-300:]}"
    return None


@dataclass
class Pair:
    """Two commands' series, run in turn; `ratio` compares them pair by pair."""

    a: Series
    b: Series

    def ratio(self, what: str = "wall") -> float | None:
        """The median over the pairs of A's `what` ("wall" or "cpu") over B's."""
        ratios = [getattr(x, what) / getattr(y, what) for x, y in zip(self.a.runs, self.b.runs)
                  if getattr(y, what) > 0]
        return _median(ratios)

    @property
    def failure(self) -> str | None:
        """Why a run of A or B failed, else None."""
        return self.a.failure or self.b.failure


def paired(a: Command, b: Command, pairs: int, *, warmup: int = 1,
           timeout: float | None = None, accept: Collection[int] | None = (0,)) -> Pair:
    """A and B in turn (one warm-up of each first, then A B A B ...).

    Args and the end on a failed run: as `series`.

    >>> quick = Command([sys.executable, "-c", "pass"])
    >>> pair = paired(quick, quick, 2)
    >>> len(pair.a.runs), len(pair.b.runs), pair.ratio("wall") > 0
    (2, 2, True)
    """
    out = Pair(Series(a), Series(b))
    for k in range(max(0, warmup) + max(1, pairs)):
        for command, into in ((a, out.a), (b, out.b)):
            done = run(command, timeout)
            (into.warmups if k < warmup else into.runs).append(done)
            into.failure = _failure(done, timeout, accept)
            if into.failure is not None:
                return out
    return out


def csp_program() -> str:
    """The `csp` console script on PATH, else the one beside this Python."""
    return shutil.which("csp") or str(Path(sys.executable).with_name("csp"))


__all__ = ["Command", "Pair", "Process", "Series", "csp_program", "paired", "run", "series"]
