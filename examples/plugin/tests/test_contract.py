"""The csp backend contract on this package's backend: one line.

`pytest` runs it on every available backend; `pytest --csp-backend algx` on
algx only (the option comes with csp's pytest plug-in).
"""

from csp.testing.contract import *  # noqa: F401,F403
