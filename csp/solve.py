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

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from csp import dispatch
from csp.backends.base import (
    Backend,
    Progress,
    Search,
    check_limit,
    check_progress,
    check_time_limit,
)
from csp.errors import InputError
from csp.problem import Problem
from csp.result import Result

if TYPE_CHECKING:
    from csp.symmetry import Group


def solutions(
    problem: Problem,
    backend: str | Backend = "auto",
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    up_to_symmetry: bool | Group = False,
    symmetry: Group | None = None,
    over: Iterable[Any] | None = None,
) -> Search:
    """A lazy iterator of the solutions of `problem`.

    The returned `Search` also carries `.status` (None until the iteration
    ends) and `.stats`. With `up_to_symmetry` (a `csp.symmetry.Group`, or True
    for the group given as `symmetry=` or else declared on the problem,
    `problem.symmetry`) only the canonical solution of each class of
    equivalent ones is listed; see `csp.symmetry`. With `over` (some of a
    model's variables) each distinct assignment of those variables that
    extends to a solution is listed once, as a dict of them only; see
    `csp.projection`. The time limit counts from the call: lowering the
    problem for the backend spends it too.

    Args:
        problem: an `ExactCover` or a `Model`.
        backend: a backend's name (`csp.backends.available()`), `"auto"` (the
            first available backend native to the problem's form), or a
            backend object.
        limit: stop after this many solutions (status `SOLUTION_LIMIT`).
        time_limit: seconds, from the call (`float("inf")`: none).
        progress: called about five times a second with a copy of the `Stats`.
        up_to_symmetry: list one solution per class of equivalent ones: True
            (the problem's declared group, or `symmetry`) or a `Group`.
        symmetry: the group `up_to_symmetry=True` uses.
        over: a model's variables to project the solutions onto.

    Returns:
        A `Search`: iterate it for the solutions (sorted option indices for an
        exact cover, an `Assignment` for a model); its `status` and `stats`
        are live, and `result()` drains it into a `Result`.

    Raises:
        InputError: the problem or an argument is bad, or the backend refuses
            the problem (`csp.errors.Refused`, naming the backends that take it).
        BackendUnavailable: an unknown backend, or one whose package is missing.
        TypeError: `limit`, `time_limit` or `progress` of the wrong type.

    >>> from csp import ExactCover
    >>> xc = ExactCover.from_text("a b\\na\\nb\\na b\\n")
    >>> search = solutions(xc, "dlx")
    >>> sorted(search), search.status.value
    ([(0, 1), (2,)], 'COMPLETE')
    """
    started = time.perf_counter()
    limit, time_limit, progress = _checked(limit, time_limit, progress)
    if over is not None:
        return _projected(problem, over, backend, up_to_symmetry, limit, time_limit, progress)
    group = _group(problem, up_to_symmetry, symmetry)
    if group is not None:
        from csp import symmetry as sym

        return sym.solutions(problem, group, backend, limit=limit, time_limit=time_limit,
                             progress=progress)
    plan = dispatch.prepare(problem, backend)
    return plan.solutions(limit=limit, time_limit=_left(time_limit, started),
                          progress=progress)


def count(
    problem: Problem,
    backend: str | Backend = "auto",
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    up_to_symmetry: bool | Group = False,
    symmetry: Group | None = None,
    over: Iterable[Any] | None = None,
) -> Result:
    """Count the solutions of `problem` without materialising them.

    With `limit`, stop after that many (status `SOLUTION_LIMIT`). With
    `up_to_symmetry` (a `csp.symmetry.Group`, or True for the group given as
    `symmetry=` or else declared on the problem, `problem.symmetry`) each
    class of equivalent solutions is counted once;
    `stats.extra["raw_solutions"]` says how many solutions the search met.
    With `over` (some of a model's variables), count the distinct assignments
    of those variables that extend to a solution (`csp.projection`).

    Args:
        problem: as for `solutions`.
        backend: as for `solutions`.
        limit: stop after this many solutions (status `SOLUTION_LIMIT`).
        time_limit: as for `solutions`.
        progress: as for `solutions`.
        up_to_symmetry: count one solution per class of equivalent ones.
        symmetry: as for `solutions`.
        over: a model's variables: count the distinct assignments of those.

    Returns:
        A `Result`: `count` (exact only when `status` is `COMPLETE`), `status`,
        `stats`, `backend`.

    Raises:
        InputError: as for `solutions`.
        BackendUnavailable: as for `solutions`.
        TypeError: as for `solutions`.

    >>> from csp import ExactCover
    >>> xc = ExactCover.from_text("a b\\na\\nb\\na b\\n")
    >>> count(xc).count, count(xc, limit=1).count, count(xc, limit=1).status.value
    (2, 1, 'SOLUTION_LIMIT')
    """
    started = time.perf_counter()
    limit, time_limit, progress = _checked(limit, time_limit, progress)
    if over is not None:
        return _projected(problem, over, backend, up_to_symmetry, limit, time_limit,
                          progress).result()
    if limit is not None:
        # One solution at a time, none kept: a kernel counts without stopping.
        return solutions(problem, backend, limit=limit, time_limit=time_limit,
                         progress=progress, up_to_symmetry=up_to_symmetry,
                         symmetry=symmetry).result()
    group = _group(problem, up_to_symmetry, symmetry)
    if group is not None:
        from csp import symmetry as sym

        return sym.count(problem, group, backend, time_limit=time_limit, progress=progress)
    plan = dispatch.prepare(problem, backend)
    return plan.count(time_limit=_left(time_limit, started), progress=progress)


def solve(
    problem: Problem,
    backend: str | Backend = "auto",
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Result:
    """The first solution of `problem`.

    Args:
        problem: an `ExactCover` or a `Model`.
        backend: a backend's name (`csp.backends.available()`), `"auto"` (the
            first available backend native to the problem's form), or a
            backend object.
        time_limit: seconds, from the call (`float("inf")`: none).
        progress: called about five times a second with a copy of the `Stats`.

    Returns:
        A `Result` whose `solution` is the first solution found, or None
        (status `COMPLETE`: there is none; `TIME_LIMIT`: none found in time).

    Raises:
        InputError: the problem or an argument is bad, or the backend refuses it.
        BackendUnavailable: an unknown backend, or one whose package is missing.

    >>> from csp import Model
    >>> m = Model()
    >>> x, y = m.var("x", range(3)), m.var("y", range(3))
    >>> _ = m.add(x + y == 4)
    >>> solve(m).solution
    {'x': 2, 'y': 2}
    """
    search = solutions(problem, backend, limit=1, time_limit=time_limit, progress=progress)
    return search.result()


def _projected(problem: Problem, over: Iterable[Any], backend: str | Backend,
               up_to_symmetry: bool | Group, limit: int | None, time_limit: float | None,
               progress: Progress | None) -> Search:
    if up_to_symmetry is not False:
        raise InputError("over= and up_to_symmetry= cannot be combined: a symmetry acts on "
                         "whole solutions, not on their projections")
    from csp.projection import projected

    return projected(problem, over, backend, limit=limit, time_limit=time_limit,
                     progress=progress)


def _checked(limit: int | None, time_limit: float | None, progress: Progress | None
             ) -> tuple[int | None, float | None, Progress | None]:
    # inf: no limit; nan, 2.5 solutions, "10" seconds: errors, before any work
    return check_limit(limit), check_time_limit(time_limit), check_progress(progress)


def _left(time_limit: float | None, started: float) -> float | None:
    """What is left of `time_limit` after preparing the problem."""
    if time_limit is None:
        return None
    return max(0.0, time_limit - (time.perf_counter() - started))


def _group(problem: Problem, up_to_symmetry: bool | Group, symmetry: Group | None
           ) -> Group | None:
    if up_to_symmetry is False:
        return None  # the common case, without importing the symmetry package
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


def resolve_backend(problem: Problem, backend: str | Backend = "auto") -> str:
    """The backend name that `backend` means for `problem`."""
    return dispatch.resolve(problem, backend).name
