"""`assert_backends_agree`: one line in a test to run a problem on every
backend and fail, showing the disagreement, unless they all agree.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> assert_backends_agree(xc).runs[0].count
1
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from csp.backends.base import Backend
from csp.crosscheck import CrosscheckReport, crosscheck
from csp.exactcover import ExactCover
from csp.model import Model


def assert_backends_agree(
    problem: ExactCover | Model,
    backends: Sequence[str | Backend] | str | None = None,
    *,
    time_limit: float | None = None,
    limit: int | None = None,
) -> CrosscheckReport:
    """Run `problem` on `backends` (default: those chosen by pytest's
    `--csp-backends`/`--csp-backend`, else every available backend that
    takes the problem) and raise `AssertionError` unless every one finished,
    every solution passes the problem's checker, and the solution sets and
    counts agree. The message is the crosscheck's table and the first
    difference. Returns the report (`report.runs[0].count` is the count).

    `time_limit` (seconds, per backend; default none): a backend that runs
    out is a failure too, since it showed no agreement.

    Args:
        problem: an `ExactCover` or a `Model`.
        backends: names or backend objects; None: pytest's choice, or every
            available backend that takes the problem.
        time_limit: seconds per backend.
        limit: solutions kept per backend to compare the sets.

    Returns:
        The `CrosscheckReport`, when they all agree.

    Raises:
        AssertionError: a backend disagrees, fails or does not finish.

    >>> from csp.testing import queens_cover
    >>> assert_backends_agree(queens_cover(5), ["dlx", "bitmask"]).runs[0].count
    10
    """
    if backends is None:
        # The plug-in is loaded only under pytest: elsewhere there is no option to read.
        plugin = sys.modules.get("csp.testing.plugin")
        backends = getattr(plugin, "CHOSEN", None) or None
    report = crosscheck(problem, backends, limit=limit, time_limit=time_limit)
    unfinished = [run.backend for run in report.runs if run.error is None and not run.complete]
    if report.agree and not unfinished:
        return report
    if report.agree:
        why = f"not every backend finished ({', '.join(unfinished)}): nothing shown for those"
    elif report.verdict == "inconclusive":
        # One backend alone (say --csp-backend dlx) compares nothing: say so,
        # rather than that backends disagree.
        why = "inconclusive: fewer than two backends finished, so nothing was compared"
    elif report.verdict == "failed":
        why = "a backend could not run"
    else:
        why = "backends disagree"
    raise AssertionError(f"{why} on {problem!r}:\n{report}")


__all__ = ["assert_backends_agree"]
