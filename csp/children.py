"""Child processes that leave Ctrl-C to their parent and die with it.

A terminal sends Ctrl-C to the whole process group: the parent decides what
it means (stop, keep what was found) and ends its children itself. A child
whose parent is killed outright gets SIGKILL from Linux (`PR_SET_PDEATHSIG`)
rather than computing on, orphaned.
"""

from __future__ import annotations

import ctypes
import signal
import sys

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


__all__ = ["PR_SET_PDEATHSIG", "die_with_parent"]
