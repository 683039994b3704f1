"""The pytest plug-in of csp: `--csp-backend NAME` and the `csp_backend` argument.

Registered through the `pytest11` entry point, so it is active in every pytest
run where csp is installed, other projects' included. It therefore does
nothing until a test asks for `csp_backend`: csp's backends (and numba) are
only imported then, and a run that collects no such test is unchanged.

- `--csp-backend NAME` (repeatable): run the contract on these backends
  only; unknown or unavailable names stop the run with the reason.
- Without it, `csp_backend` takes every available backend, plug-ins included
  (`csp.backends.available()`).
"""

from __future__ import annotations

import pytest

OPTION = "--csp-backend"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csp", "csp backends")
    group.addoption(OPTION, action="append", default=[], metavar="NAME", dest="csp_backend",
                    help="run the tests taking `csp_backend` (the csp backend contract) on "
                         "this backend; repeatable (default: every available backend)")


def chosen_backends(config: pytest.Config) -> list[str]:
    """The backend names `csp_backend` takes in this run."""
    from csp import backends

    names = list(config.getoption("csp_backend") or [])
    if not names:
        return backends.available()
    chosen = []
    for name in names:
        try:
            chosen.append(backends.get(name).name)  # an alias resolves to its name
        except backends.BackendUnavailable as err:
            raise pytest.UsageError(f"{OPTION} {name}: {err}") from err
    return list(dict.fromkeys(chosen))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "csp_backend" not in metafunc.fixturenames:
        return
    names = chosen_backends(metafunc.config)
    metafunc.parametrize("csp_backend", names, ids=names)


def pytest_report_header(config: pytest.Config) -> str | None:
    # Say which backends were chosen only when asked to choose: a plain run of
    # another project must not import csp's backends for a header line.
    names = config.getoption("csp_backend")
    return f"csp backends: {', '.join(names)}" if names else None
