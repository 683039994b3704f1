"""The per-user cache directory of `csp`, after the XDG base directory spec.

numba's compiled kernels (`csp._numba_cache`), ACE's class-data archives
(`csp.backends.ace`) and the profile's patched copy of the kernel
(`bench/bench_learning_profile.py`) each keep a subdirectory of it. This
module only names the directory: it creates nothing and configures nothing,
so any of them can import it.

>>> str(cache_home({"XDG_CACHE_HOME": "/var/cache/me"}))
'/var/cache/me/csp'
>>> cache_home({"XDG_CACHE_HOME": "relative"}) == Path.home() / ".cache" / "csp"
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def cache_home(environ: Mapping[str, str] | None = None) -> Path | None:
    """`$XDG_CACHE_HOME/csp` if XDG_CACHE_HOME (in `environ`, by default the
    process's environment) is an absolute path, else `~/.cache/csp` (the spec
    says to ignore a relative one); None when there is no home directory to
    be found (never a relative `~`, which would put the cache in the working
    directory)."""
    xdg = (os.environ if environ is None else environ).get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "csp"
    try:
        return Path.home() / ".cache" / "csp"
    except (RuntimeError, KeyError):  # no HOME and no password entry
        return None
