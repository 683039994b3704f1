"""The common entry points: `solutions`, `count`, `solve`.

Each takes an `ExactCover` or a `Model` and a backend name (`"auto"` picks the
compiled backend native to the problem's form). A backend that does not take
the problem's form directly gets it lowered by `csp.reformulate`, and its
solutions are mapped back: a solution is always in the terms of the problem as
declared (sorted option indices for an `ExactCover`, a dict for a `Model`).

>>> from csp import ExactCover, count, solve
>>> xc = ExactCover.from_text("a b c\\na b\\nc\\na\\nb c\\n")
>>> count(xc).count
2
>>> solve(xc).solution
(0, 1)

Up to symmetry: a problem's declared group (`problem.symmetry`, set by
`csp.symmetry.declare` or `Group.attach`) is the one `up_to_symmetry=True`
uses. Exchanging the items a and c of this `xc` (so options 0 and 1, and 2 and
3) is a symmetry: its two solutions are one class.

>>> from csp.symmetry import declare
>>> xc = ExactCover.from_text("a b c\\na b\\nb c\\nc\\na\\n")
>>> group = declare(xc, [[1, 0, 3, 2]])
>>> count(xc).count, count(xc, up_to_symmetry=True).count
(2, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from csp import backends
from csp.backends.base import Progress, Search, check_time_limit
from csp.result import Result

if TYPE_CHECKING:
    from csp.symmetry import Group

Problem = Any  # an ExactCover or a Model


def solutions(
    problem: Problem,
    backend: str = "auto",
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    up_to_symmetry: bool | Group = False,
    symmetry: Group | None = None,
) -> Search:
    """A lazy iterator of the solutions of `problem`.

    The returned `Search` also carries `.status` (None until the iteration
    ends) and `.stats`. With `up_to_symmetry` (a `csp.symmetry.Group`, or True
    for the group given as `symmetry=` or else declared on the problem,
    `problem.symmetry`) only the canonical solution of each class of
    equivalent ones is listed; see `csp.symmetry`.
    """
    time_limit = check_time_limit(time_limit)  # inf: no limit; nan: an error
    group = _group(problem, up_to_symmetry, symmetry)
    if group is not None:
        from csp import symmetry as sym

        return sym.solutions(problem, group, backend, limit=limit, time_limit=time_limit,
                             progress=progress)
    chosen, lowered, decode = _prepare(problem, backend)
    search = chosen.solutions(lowered, limit=limit, time_limit=time_limit, progress=progress)
    return search if decode is None else _Decoded(search, decode)


def count(
    problem: Problem,
    backend: str = "auto",
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
    up_to_symmetry: bool | Group = False,
    symmetry: Group | None = None,
) -> Result:
    """Count the solutions of `problem` without materialising them.

    With `up_to_symmetry` (a `csp.symmetry.Group`, or True for the group given
    as `symmetry=` or else declared on the problem, `problem.symmetry`) each
    class of equivalent solutions is counted once;
    `stats.extra["raw_solutions"]` says how many solutions the search met.
    """
    time_limit = check_time_limit(time_limit)
    group = _group(problem, up_to_symmetry, symmetry)
    if group is not None:
        from csp import symmetry as sym

        return sym.count(problem, group, backend, time_limit=time_limit, progress=progress)
    chosen, lowered, _ = _prepare(problem, backend)
    return chosen.count(lowered, time_limit=time_limit, progress=progress)


def solve(
    problem: Problem,
    backend: str = "auto",
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Result:
    """The first solution (`.solution`, None if there is none) in a `Result`."""
    search = solutions(problem, backend, limit=1, time_limit=time_limit, progress=progress)
    return search.result()


def _group(problem: Problem, up_to_symmetry: bool | Group, symmetry: Group | None
           ) -> Group | None:
    from csp.errors import InputError
    from csp.symmetry import Group

    if isinstance(up_to_symmetry, Group):
        if symmetry is not None and symmetry is not up_to_symmetry:
            raise InputError("two symmetry groups given: up_to_symmetry= and symmetry=")
        return up_to_symmetry
    if not up_to_symmetry:
        return None
    if symmetry is None:
        symmetry = getattr(problem, "symmetry", None)  # declared with the problem
    if symmetry is None:
        raise InputError("up_to_symmetry=True needs the group: declare it on the problem "
                         "(csp.symmetry.declare(problem, generators) or Group(...).attach()) "
                         "or pass symmetry=Group(...)")
    if not isinstance(symmetry, Group):
        raise InputError(f"the problem's symmetry is a {type(symmetry).__name__}, not a "
                         "csp.symmetry.Group")
    return symmetry


def resolve_backend(problem: Problem, backend: str = "auto") -> str:
    """The backend name that `backend` means for `problem`."""
    return backends.default_for(problem) if backend == "auto" else backend


def _prepare(
    problem: Problem, backend: str
) -> tuple[Any, Problem, Callable[[Any], Any] | None]:
    name = resolve_backend(problem, backend)
    chosen = backends.get(name)
    if isinstance(problem, chosen.accepts):
        return chosen, problem, None
    from csp import reformulate

    lowered, decode = reformulate.lower(problem, chosen.native)
    return chosen, lowered, decode


class _Decoded(Search):
    """A search on a lowered problem whose solutions are mapped back."""

    def __init__(self, inner: Search, decode: Callable[[Any], Any]) -> None:
        super().__init__()
        self.inner = inner
        self.decode = decode
        self.backend = inner.backend
        self.stats = inner.stats

    def __next__(self) -> Any:
        try:
            return self.decode(next(self.inner))
        finally:
            self.status = self.inner.status
            self.stats = self.inner.stats

    def close(self) -> None:
        self.inner.close()
        self.status = self.inner.status
