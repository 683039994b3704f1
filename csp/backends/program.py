"""An outside program (a JVM, `fzn-gecode`) run from a backend's child
process (`csp.backends.forked`), read line by line.

The program dies with the child that started it (Linux's
`PR_SET_PDEATHSIG`, set between its fork and its exec), so killing the
child (Ctrl-C, a closed search, an overrun time limit in the caller) ends
it too; its stderr goes to the child's log; its stdout is read as it comes,
with a deadline past which it is killed (`overran`). The last lines it
printed are kept for the error that says it failed (`failure`).
"""

from __future__ import annotations

import collections
import os
import select
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence

from csp.backends.forked import Failure

LAST_LINES = 12
"""Lines of a program's output kept for an error."""


def _die_with_parent() -> None:  # pragma: no cover - runs between fork and exec
    import ctypes

    from csp.children import PR_SET_PDEATHSIG

    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


class ProgramFailed(Failure):
    """The program failed: what it did, and the last lines it printed."""


class Program:
    """One run of `command`, its stdout read line by line until `deadline`
    (a `time.perf_counter()` value; None: none)."""

    def __init__(self, command: Sequence[str], *, deadline: float | None = None) -> None:
        self.command = list(command)
        self.deadline = deadline
        self.overran = False
        self.answered = False  # its whole answer was read (its caller says so)
        self.last: collections.deque[str] = collections.deque(maxlen=LAST_LINES)
        self.popen = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=None,
                                      preexec_fn=_die_with_parent)

    def lines(self) -> Iterator[str]:
        """Its output, a line at a time (without the newline), until it
        closes its output or overruns the deadline (then killed, `overran`)."""
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        pending = b""
        while True:
            wait = 0.5
            if self.deadline is not None:
                wait = min(wait, self.deadline - time.perf_counter())
                if wait <= 0:
                    self.overran = True
                    self.kill()
                    return
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                if pending:
                    yield self._kept(pending)
                return
            pending += chunk
            *whole, pending = pending.split(b"\n")
            for line in whole:
                yield self._kept(line)

    def _kept(self, raw: bytes) -> str:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        if line.strip():
            self.last.append(line)
        return line

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()

    def finish(self, wait: float = 0.0) -> int:
        """Its exit code, once it has ended: after `wait` seconds it is killed."""
        if wait > 0 and self.popen.poll() is None:
            try:
                self.popen.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        code = self.popen.wait()
        if self.popen.stdout is not None:
            self.popen.stdout.close()
        return code

    def failure(self, why: str) -> ProgramFailed:
        """An error saying `why`, with its exit code and the last lines it printed."""
        code = self.finish()
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        shown = "\n  ".join(self.last) or "(none)"
        return ProgramFailed(f"{why} ({os.path.basename(self.command[0])}, {how}); its last "
                             f"lines of output:\n  {shown}")


__all__ = ["LAST_LINES", "Program", "ProgramFailed"]
