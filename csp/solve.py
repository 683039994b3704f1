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
from csp.result import Result, Status

if TYPE_CHECKING:
    from csp.diagram import ZDD
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
    memo: bool | str = "auto",
    memo_bytes: int | str | None = None,
    branch: str | None = None,
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
        memo: "auto" (the default), True or False: count with a memo of the
            counts of subproblems, on a backend that has one (`dlx`; see
            docs/how-to/memo.md). "auto" keeps it while it pays;
            `stats.extra["memo"]` says how it went. A count stopped early
            (time limit, Ctrl-C) is a lower bound.
        memo_bytes: the memo's memory bound, an int or a text such as "512M"
            (default 1 GiB).
        branch: "mrv" (the default) or "first": branch on the first item
            left in declared order (for tilings).

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
    _memo_alone(memo, branch, limit, up_to_symmetry, over)
    if over is not None:
        return _projected(problem, over, backend, up_to_symmetry, limit, time_limit,
                          progress).result()
    if limit is not None and not up_to_symmetry and _counts_only(problem, backend):
        # An exact counter lists nothing to stop at: its count, capped.
        result = dispatch.prepare(problem, backend).count(
            time_limit=_left(time_limit, started), progress=progress)
        if result.count > limit:
            result.count = result.stats.solutions = limit
            result.status = Status.SOLUTION_LIMIT
        return result
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
    plan.memo = dispatch.memo_keywords(plan, memo, memo_bytes, branch)
    return plan.count(time_limit=_left(time_limit, started), progress=progress)


def _counts_only(problem: Problem, backend: str | Backend) -> bool:
    """Whether `backend` (for `problem`) counts without listing solutions."""
    from csp.backends.base import COUNTS_ONLY

    return COUNTS_ONLY in dispatch.resolve(problem, backend).capabilities


def _memo_alone(memo: bool | str, branch: str | None, limit: int | None,
                up_to_symmetry: object, over: object) -> None:
    """Refuse memo=True (or a branching rule) with what a memoized count
    cannot do: stop after `limit` solutions, test each one for symmetry, or
    count distinct projections."""
    from csp.memo import branch_rule, memo_mode

    asked = memo_mode(memo) == "on" or branch_rule(branch) != "mrv"
    if asked and over is not None:
        raise InputError("counting over some variables lists the distinct assignments of "
                         "those, which a memoized count never visits: use memo=False")
    if asked and limit is not None:
        raise InputError("a memoized count adds whole subtrees at once: it cannot stop after "
                         "`limit` solutions; count without a limit, or with memo=False")
    if asked and up_to_symmetry is not False and up_to_symmetry is not None:
        raise InputError("counting up to symmetry tests each solution for canonicity, and a "
                         "memoized count never visits them one by one: use memo=False (or "
                         "'auto', which leaves memo off there)")


def zdd(
    problem: Problem,
    backend: str | Backend = "auto",
    *,
    memo_bytes: int | str | None = None,
    branch: str | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> ZDD:
    """The diagram (a ZDD, `csp.diagram.ZDD`) of all the solutions of an exact
    cover, as a memoized count builds it: `.count()`, iteration, `.sample(k,
    seed=)` (uniform, exact), `.write(path)` (Knuth's format). A diagram that
    does not fit in `memo_bytes` (half of it; the memo takes the other half)
    is refused with the size it reached.

    >>> from csp import ExactCover
    >>> xc = ExactCover.from_text("a b c\\na\\nb\\nc\\na b\\nb c\\n")
    >>> diagram = zdd(xc)
    >>> diagram.count(), sorted(diagram)
    (3, [(0, 1, 2), (0, 4), (2, 3)])
    """
    from csp.backends.base import MEMO
    from csp.exactcover import ExactCover

    started = time.perf_counter()
    _, time_limit, progress = _checked(None, time_limit, progress)
    if not isinstance(problem, ExactCover):
        raise InputError(f"a diagram is over the options of an ExactCover, not a "
                         f"{type(problem).__name__}")
    plan = dispatch.prepare(problem, backend)
    if MEMO not in plan.backend.capabilities or plan.target is not problem:
        raise dispatch.Refused(f"backend {plan.name!r} builds no diagram of solutions; "
                               f"backends that do: {', '.join(dispatch.memo_takers())}")
    builder: Any = plan.backend
    return builder.zdd(problem, memo_bytes=memo_bytes, branch=branch,
                       time_limit=_left(time_limit, started), progress=progress)


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
