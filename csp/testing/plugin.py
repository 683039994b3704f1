"""The pytest plug-in of csp: `--csp-backends`, `--csp-backend` and the
`csp_backend` argument.

Registered through the `pytest11` entry point, so it is active in every pytest
run where csp is installed, other projects' included. It therefore does
nothing until a test asks for `csp_backend`: csp's backends (and numba) are
only imported then, and a run that collects no such test is unchanged.

- `--csp-backends a,b,c` or `--csp-backend NAME` (repeatable; both may be
  given): run the tests taking `csp_backend` on these backends only, and make
  them the default of `csp.testing.assert_backends_agree`; unknown or
  unavailable names stop the run with the reason.
- Without them, `csp_backend` takes every available backend, plug-ins
  included, but portfolios (`csp.backends.engines()`), and a test that a backend refuses
  by what it declares (`csp.errors.Refused`: say, a coloured cover on a
  backend without colours) is skipped for that backend with the reason: a
  user's test runs on every backend that takes its problem. A backend named
  on the command line that refuses the problem fails the test instead, and
  the backend contract (`csp.testing.contract`) always decides refusals
  itself.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

OPTION = "--csp-backend"
OPTIONS = "--csp-backends"

CHOSEN: list[str] = []
"""The backend names given on the command line in this run ([] if none)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csp", "csp backends")
    group.addoption(OPTION, action="append", default=[], metavar="NAME", dest="csp_backend",
                    help="run the tests taking `csp_backend` (the csp backend contract) on "
                         "this backend; repeatable (default: every available backend)")
    group.addoption(OPTIONS, action="append", default=[], metavar="A,B,C", dest="csp_backends",
                    help="run the tests taking `csp_backend`, and "
                         "csp.testing.assert_backends_agree, on these backends (comma-"
                         "separated; default: every available backend that takes the problem)")


def _named(config: pytest.Config) -> list[str]:
    names = list(config.getoption("csp_backend") or [])
    for listed in config.getoption("csp_backends") or []:
        names += [name.strip() for name in listed.split(",") if name.strip()]
    return names


_OUTER: list[list[str]] = []  # an inner pytest run (pytester) restores the outer's choice


def pytest_configure(config: pytest.Config) -> None:
    _OUTER.append(list(CHOSEN))
    CHOSEN[:] = _named(config)  # names only: resolving them would import the backends


def pytest_unconfigure(config: pytest.Config) -> None:
    CHOSEN[:] = _OUTER.pop() if _OUTER else []


def chosen_backends(config: pytest.Config) -> list[str]:
    """The backend names `csp_backend` takes in this run."""
    from csp import backends

    given = list(config.getoption("csp_backend") or [])
    names = _named(config)
    if not names:
        return backends.engines()
    chosen = []
    for k, name in enumerate(names):
        try:
            chosen.append(backends.get(name).name)  # an alias resolves to its name
        except backends.BackendUnavailable as err:
            option = OPTION if k < len(given) else OPTIONS
            raise pytest.UsageError(f"{option} {name}: {err}") from err
    return list(dict.fromkeys(chosen))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "csp_backend" not in metafunc.fixturenames:
        return
    names = chosen_backends(metafunc.config)
    metafunc.parametrize("csp_backend", names, ids=names)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]
                              ) -> Generator[None, Any, None]:
    outcome = yield
    if call.when != "call" or call.excinfo is None or _named(item.config):
        return
    params = getattr(getattr(item, "callspec", None), "params", {})
    function = getattr(item, "function", None)
    if "csp_backend" not in params or getattr(function, "__module__", "") == \
            "csp.testing.contract":
        return
    from csp.errors import Refused

    if call.excinfo.errisinstance(Refused):
        report = outcome.get_result()
        report.outcome = "skipped"
        path, line, _ = item.location
        report.longrepr = (str(item.path), (line or 0) + 1,
                           f"{params['csp_backend']} does not take this problem: "
                           f"{call.excinfo.value}")


def pytest_report_header(config: pytest.Config) -> str | None:
    # Say which backends were chosen only when asked to choose: a plain run of
    # another project must not import csp's backends for a header line.
    names = _named(config)
    return f"csp backends: {', '.join(names)}" if names else None
