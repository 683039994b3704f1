"""What a run reports: `Status`, `Stats` and `Result`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from typing import Any


class Status(str, Enum):
    """How a search ended."""

    COMPLETE = "COMPLETE"
    """The whole search space was explored: the count is exact."""
    SOLUTION_LIMIT = "SOLUTION_LIMIT"
    """Stopped after the requested number of solutions."""
    TIME_LIMIT = "TIME_LIMIT"
    """Stopped by the time limit: the count is a lower bound."""
    INTERRUPTED = "INTERRUPTED"
    """Stopped by Ctrl-C (or the consumer): what was found is kept."""

    def __str__(self) -> str:
        return self.value


@dataclass
class Stats:
    """The named statistics every backend reports where it can measure them.

    `None` means "this backend does not measure it", never zero.
    """

    solutions: int = 0
    nodes: int | None = None
    """Search-tree nodes: options tried (dlx), decisions (bitmask), branches (cpsat)."""
    failures: int | None = None
    """Dead ends: backtracks (bitmask), conflicts (cpsat)."""
    updates: int | None = None
    """Link updates (dlx), Knuth's measure of the work done."""
    time: float = 0.0
    """Wall-clock seconds of the search, excluding model building."""
    extra: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Stats:
        """A snapshot: what a progress callback gets, so that keeping it is safe."""
        return replace(self, extra=dict(self.extra))

    def to_dict(self) -> dict[str, Any]:
        """The figures measured (None ones left out) and the backend's
        `extra` ones, in one dict: what `--json` prints.

        >>> Stats(nodes=12, extra={"restarts": 2}).to_dict()
        {'solutions': 0, 'nodes': 12, 'time': 0.0, 'restarts': 2}
        """
        out = {k: v for k, v in asdict(self).items() if k != "extra" and v is not None}
        out.update(self.extra)
        return out

    def summary(self) -> str:
        """The figures on one line, `name=value` (the nested ones left out).

        >>> Stats(solutions=1, nodes=12, time=0.5).summary()
        'solutions=1 nodes=12 time=0.500s'
        """
        # nested figures (per worker, say) are for --json, not for one line
        parts = [f"{k}={_fmt(v)}" for k, v in self.to_dict().items()
                 if not isinstance(v, (dict, list))]
        return " ".join(parts)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}s" if value < 100 else f"{value:.1f}s"
    return str(value)


@dataclass
class Result:
    """The outcome of `csp.count` or `csp.solve`.

    `count` is the number of solutions found; it is exact only when `status`
    is `COMPLETE`. `solution` is the first solution found (for `solve`).
    """

    count: int
    status: Status
    stats: Stats
    backend: str
    solution: Any = None

    @property
    def complete(self) -> bool:
        """Whether the search finished: `count` is exact."""
        return self.status is Status.COMPLETE

    def to_dict(self) -> dict[str, Any]:
        """Count, status, backend and statistics as plain values (for JSON);
        the solution is left out."""
        return {
            "count": self.count,
            "status": self.status.value,
            "backend": self.backend,
            "stats": self.stats.to_dict(),
        }
