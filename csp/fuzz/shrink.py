"""Greedy shrinking: the smallest instance that still shows a disagreement.

Starting from a failing spec, try its simplifications (`spec.smaller()`: the
largest cuts first) in order and move to the first one that still fails;
stop when none does (a local minimum: no single simplification keeps the
failure) or the budget is spent. The order is fixed and the test is the
same, so shrinking the same instance gives the same result.

>>> from csp.fuzz.generate import CoverSpec
>>> spec = CoverSpec(("a", "b", "c"), (), ((("a", None),), (("b", None),), (("c", None),)))
>>> small, steps = shrink(spec, lambda s: any(o == (("b", None),) for o in s.options))
>>> small.primary, small.options, steps
(('b',), ((('b', None),),), 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, TypeVar


class Shrinkable(Protocol):
    def smaller(self) -> object: ...


S = TypeVar("S", bound=Shrinkable)

MAX_TRIES = 2_000
"""Candidates tried at most, whatever the time budget."""


def shrink(spec: S, fails: Callable[[S], bool], *, seconds: float = 60.0,
           max_tries: int = MAX_TRIES) -> tuple[S, int]:
    """The smallest spec reached from `spec` on which `fails` still holds,
    and the number of simplifications taken. `fails(spec)` is assumed."""
    deadline = time.monotonic() + seconds
    tries = steps = 0
    progress = True
    while progress:
        progress = False
        for candidate in spec.smaller():  # type: ignore[attr-defined]
            if tries >= max_tries or time.monotonic() > deadline:
                return spec, steps
            tries += 1
            if fails(candidate):
                spec, steps, progress = candidate, steps + 1, True
                break
    return spec, steps
