"""Imported by the race's fork server (`csp.backends.race`), once: every
available engine counts a one-option problem, so that its compiled kernels
are loaded (numba's cache, OR-Tools, PySAT) in the server, and every race
member forked from it starts with them, in milliseconds."""

from __future__ import annotations


def warm() -> None:
    from csp import backends, count
    from csp.testing import queens_cover, queens_model

    for name in backends.engines():
        for problem in (queens_cover(4), queens_model(4)):
            try:
                count(problem, name)
            except Exception:  # noqa: BLE001, S112 - a backend that fails here fails in the race
                continue


warm()
