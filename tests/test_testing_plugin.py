"""The pytest plug-in on a user's own test file (run by pytester): the
`csp_backend` argument over every backend that takes the problem,
`--csp-backends` and `--csp-backend`, and `assert_backends_agree`."""

from __future__ import annotations

from pathlib import Path

import pytest

# pytester gives the inner runs a home directory of their own: settle numba's
# cache directory (under the real home) before, or every kernel compiles again.
import csp._numba_cache  # noqa: F401

pytest_plugins = ["pytester"]

CONFTEST = '''
from typing import ClassVar

from csp import backends
from csp.backends.base import SPLIT
from csp.backends.dlx import DLXBackend


class NoColours(DLXBackend):
    """Dancing links that declares no colours: coloured covers are refused."""
    name: ClassVar[str] = "nocolours"
    capabilities: ClassVar[frozenset[str]] = frozenset({SPLIT})


def pytest_configure(config):
    backends.register(NoColours)


def pytest_unconfigure(config):
    backends.unregister("nocolours")
'''

BUGGY = (Path(__file__).parent / "buggy_backends.py").read_text()

USER_TESTS = '''
import csp
from csp.testing import assert_backends_agree

from buggy_backends import DropsOne

COLOURED = "a b c | x\\na x:red\\nb x:red\\nc\\na b\\n"
TWO = "a b\\na\\nb\\na b\\n"


def test_coloured_count(csp_backend):
    assert csp.count(csp.ExactCover.from_text(COLOURED), csp_backend).count == 2


def test_every_backend_agrees():
    report = assert_backends_agree(csp.ExactCover.from_text(TWO))
    assert report.runs[0].count == 2


def test_the_buggy_one_is_shown():
    assert_backends_agree(csp.ExactCover.from_text(TWO), [DropsOne(), "dlx"])
'''


@pytest.fixture(scope="module")
def warm() -> None:
    """Run every backend once here: pytester drops the modules an inner run
    imports, and numba does not survive being imported twice in a process."""
    import csp
    from csp.backends.base import COUNTS_ONLY
    from csp.testing import coloured_cover, every_kind_model

    for name in csp.backends.engines():
        for problem in (coloured_cover(), every_kind_model()):
            csp.count(problem, name)
            if COUNTS_ONLY not in csp.backends.get(name).capabilities:
                list(csp.solutions(problem, name))


@pytest.fixture
def user(pytester: pytest.Pytester, warm: None) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_puzzles=USER_TESTS, buggy_backends=BUGGY)
    return pytester


def test_every_backend_that_takes_the_problem(user: pytest.Pytester) -> None:
    from csp import backends

    result = user.runpytest("-rs", "-p", "no:cacheprovider")
    takers = len(backends.engines())  # without nocolours, registered by the user's conftest
    # nocolours is skipped on the coloured cover; every other backend runs it.
    result.assert_outcomes(passed=takers + 1, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*nocolours does not take this problem*colours*"])
    text = result.stdout.str()
    assert "backends disagree" in text and "missing from: drops-one" in text
    assert "complete runs disagree on the count: drops-one=1, dlx=2" in text


def test_csp_backends_and_csp_backend_name_them(user: pytest.Pytester) -> None:
    # The old option (used by the example plug-in's CI) and the new one add up.
    result = user.runpytest("--csp-backends", "nocolours", "--csp-backend", "dlx",
                            "-p", "no:cacheprovider", "-k", "coloured or every")
    # Named on the command line, a backend that refuses the problem fails:
    # the user asked for it.
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*csp backends: dlx, nocolours*",
                                 "*test_coloured_count?nocolours?*"])
    assert "does not take colours" in result.stdout.str()


def test_an_unknown_backend_stops_the_run(user: pytest.Pytester) -> None:
    result = user.runpytest("--csp-backends", "dlx,nosuch", "-p", "no:cacheprovider")
    assert result.ret != pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*--csp-backends nosuch: unknown backend 'nosuch'*"])


def test_one_backend_alone_is_inconclusive_not_a_disagreement() -> None:
    import csp
    from csp.testing import assert_backends_agree

    with pytest.raises(AssertionError, match="inconclusive: fewer than two backends finished"):
        assert_backends_agree(csp.ExactCover.from_text("a b\\na\\nb\\na b\\n"), ["dlx"])
