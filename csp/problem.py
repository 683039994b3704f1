"""What a problem is: one of the two forms it can be declared in.

>>> from csp import ExactCover, Model
>>> isinstance(ExactCover(["a"]), Problem), isinstance(Model(), Problem)
(True, True)
"""

from __future__ import annotations

from typing import TypeAlias

from csp.exactcover import ExactCover
from csp.model import Model

Problem: TypeAlias = ExactCover | Model
"""A problem: an exact cover (Knuth's XCC) or a CSP (`Model`). Every backend
takes both; solutions come back in the form the problem was declared in."""

__all__ = ["Problem"]
