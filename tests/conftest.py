"""Shared test settings: the `--runslow` option and the `shared_data` fixture.

- Tests marked `@pytest.mark.slow` are skipped unless pytest runs with
  `--runslow` (it also raises the example counts of the hypothesis tests).
- `shared_data` is the directory of puzzle data with known answers: the copy
  of `../shared/data` committed in `tests/data` (so that a clean checkout
  tests on real data), or the directory named by `$CSP_DATA`.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

# A compilation's stderr line (csp._numba_cache) would depend on whether an
# earlier test warmed the cache: the tests that want it ask for it.
os.environ.setdefault("CSP_COMPILE_NOTICE", "0")

SHARED_DATA = Path(os.environ.get("CSP_DATA") or Path(__file__).resolve().parent / "data")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long-running; run with --runslow")
    # pytest-xdist's workers ignore SIGINT, and an ignored signal is inherited
    # by every program they start: the tests that press Ctrl-C on a child
    # would wait for it forever. The worker takes Python's usual handler back.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def runslow(request: pytest.FixtureRequest) -> bool:
    """Whether `--runslow` was given (for tests that scale with it)."""
    return bool(request.config.getoption("--runslow"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The puzzle data directory (missing data is an error, never a silent skip)."""
    if not SHARED_DATA.is_dir():
        raise FileNotFoundError(f"puzzle data not found at {SHARED_DATA} (set CSP_DATA)")
    return SHARED_DATA
