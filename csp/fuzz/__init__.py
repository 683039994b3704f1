"""`csp fuzz`: random exact covers and models on several backends, every
disagreement shrunk to a small instance and written out.

- `generate`: random instances as plain data (specs), seeded per instance;
- `compare`: one instance on the backends, the checkers and brute force;
- `shrink`: greedy shrinking of a spec while the disagreement stays;
- `write`: a finding as Knuth's format or a runnable Python snippet;
- `campaign`: the loop, `fuzz(...)`, and its `FuzzReport`.

A plug-in backend (`csp.backends.register`, or an entry point) is fuzzed like
a built-in: `fuzz(["mine", "dlx"])` holds it to dancing links, to the
checkers and to brute force.
"""

from csp.fuzz.campaign import DEFAULT_TIME_LIMIT, Finding, FuzzReport, fuzz
from csp.fuzz.compare import Verdict, compare

__all__ = ["DEFAULT_TIME_LIMIT", "Finding", "FuzzReport", "Verdict", "compare", "fuzz"]
