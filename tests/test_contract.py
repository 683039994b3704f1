"""The backend contract (`csp.testing.contract`) on every available backend
(or those named by `--csp-backend`)."""

from csp.testing.contract import *  # noqa: F401,F403
