"""Bounds for FlatZinc's `var int` declared without a domain.

MiniZinc leaves a variable unbounded where it is a function of others
(`:: is_defined_var`), defined by one constraint (`:: defines_var(X)`). Its
bounds follow from the bounds of the others by interval arithmetic: each
value of `X` in a solution lies within them, so declaring `X` over them
keeps every solution. Variables are bounded in the order their definitions
allow (a definition may use another defined variable).

>>> interval("int_times", [range(-2, 4), range(1, 3)], 2)
(-4, 6)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Interval = tuple[int, int]


def _span(values: list[int]) -> Interval:
    return min(values), max(values)


def _linear(args: list[Any], k: int) -> Interval | None:
    """int_lin_eq(as, xs, c): x_k = (c - sum of the others) / a_k."""
    weights, spans, c = args
    a = weights[k]
    if a == 0:
        return None
    low = high = c
    for i, (w, (lo, hi)) in enumerate(zip(weights, spans)):
        if i == k:
            continue
        low -= max(w * lo, w * hi)
        high -= min(w * lo, w * hi)
    ends = [low / a, high / a]
    return int(-(-min(ends) // 1)), int(max(ends) // 1)


def _times(a: Interval, b: Interval) -> Interval:
    return _span([x * y for x in a for y in b])


def _div(a: Interval, b: Interval) -> Interval:
    top = max(abs(a[0]), abs(a[1]))
    return -top, top


def _mod(a: Interval, b: Interval) -> Interval:
    top = max(abs(b[0]), abs(b[1])) - 1
    low = -top if a[0] < 0 else 0
    high = top if a[1] > 0 else 0
    return low, max(low, high)


def _abs(a: Interval) -> Interval:
    if a[0] >= 0:
        return a
    if a[1] <= 0:
        return -a[1], -a[0]
    return 0, max(-a[0], a[1])


_BINARY: dict[str, Callable[[Interval, Interval], Interval]] = {
    "int_times": _times, "int_div": _div, "int_mod": _mod,
    "int_plus": lambda a, b: (a[0] + b[0], a[1] + b[1]),
    "int_minus": lambda a, b: (a[0] - b[1], a[1] - b[0]),
    "int_min": lambda a, b: (min(a[0], b[0]), min(a[1], b[1])),
    "int_max": lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
}


def interval(name: str, spans: list[Any], position: int) -> Interval | None:
    """The bounds of the argument at `position` of the call `name`, whose
    other arguments have the bounds (or values) in `spans`; None where the
    call does not define that argument."""
    name = name.removeprefix("fzn_")
    if name in _BINARY and position == 2:
        return _BINARY[name](spans[0], spans[1])
    if name == "int_abs" and position == 1:
        return _abs(spans[0])
    if name == "int_negate" and position == 1:
        return -spans[0][1], -spans[0][0]
    if name == "bool2int" and position == 1:
        return 0, 1
    if name in ("array_int_element", "array_var_int_element") and position == 2:
        return _span([end for span in spans[1] for end in span])
    if name in ("array_int_maximum", "array_int_minimum") and position == 0:
        ends = spans[1]
        pick = max if name.endswith("maximum") else min
        return pick(lo for lo, _ in ends), pick(hi for _, hi in ends)
    return None


def linear(weights: list[int], spans: list[Interval], c: int, k: int) -> Interval | None:
    """The bounds of the k-th variable of `int_lin_eq(weights, xs, c)`."""
    return _linear([weights, spans, c], k)


__all__ = ["interval", "linear"]
