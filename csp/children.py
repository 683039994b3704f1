"""Child processes that leave Ctrl-C to their parent and die with it.

A terminal sends Ctrl-C to the whole process group: the parent decides what
it means (stop, keep what was found) and ends its children itself. A child
whose parent is killed outright gets SIGKILL from Linux (`PR_SET_PDEATHSIG`)
rather than computing on, orphaned.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
import sys
import threading
from typing import Any

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


def die_with_parent() -> None:
    """Called first in a child: ignore Ctrl-C, and die when the parent does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # no prctl: the parent's own shutdown still ends the child


def context(preload: list[str]) -> Any:
    """How children start: `fork` while this process runs no other Python
    thread (a child then starts in milliseconds, with everything imported and
    loaded here, and nothing sent or imported again); else a fork server that
    imports the modules `preload` once (forking a process whose other
    threads may hold locks is not safe); `spawn` where neither exists."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    server = multiprocessing.get_context("forkserver")
    server.set_forkserver_preload(preload)
    return server


__all__ = ["PR_SET_PDEATHSIG", "context", "die_with_parent"]
