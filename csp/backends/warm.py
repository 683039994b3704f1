"""Imported by the race's fork server (`csp.backends.race`), once: the
members of the race that started it (`CSP_RACE_WARM`, else every available
engine) count a small problem, so that their compiled kernels are loaded
(numba's cache, OR-Tools, PySAT) in the server, and every race member forked
from it starts with them, in milliseconds."""

from __future__ import annotations

import os

from csp.backends.race import WARM


def warm() -> None:
    from csp import backends, count
    from csp.testing import queens_cover, queens_model

    names = [name for name in os.environ.get(WARM, "").split(",") if name]
    for name in names or backends.engines():
        for problem in (queens_cover(4), queens_model(4)):
            try:
                count(problem, name)
            except Exception:  # noqa: BLE001, S112 - a backend that fails here fails in the race
                continue


warm()
