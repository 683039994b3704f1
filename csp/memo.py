"""The settings of a memoized count (`csp.count(memo=, memo_bytes=, branch=)`),
checked: what a user may give, whatever backend counts.

- `memo`: "auto" (memo while it pays: the default of `csp.count`), True or
  "on", False or "off";
- `memo_bytes`: the memory bound of the memo (and of a diagram): an int, or a
  text such as "512M" or "2G" (binary units);
- `branch`: "mrv" (the item with the fewest options left: the default) or
  "first" (the first item left in declared order: on a tiling, a sweep whose
  subproblems are few).

See `docs/how-to/memo.md` for when memo pays.
"""

from __future__ import annotations

import math
import operator
import re

from csp.errors import InputError

MODES = ("auto", "on", "off")
BRANCHES = ("mrv", "first")

DEFAULT_MEMO_BYTES = 1 << 30
"""The memo's bound when none is given: 1 GiB (per process: each worker of a
parallel count has its own). The table starts small and grows as it fills."""

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def memo_mode(memo: object) -> str:
    """`memo` as "auto", "on" or "off" (True is "on", False "off").

    >>> memo_mode(True), memo_mode("auto"), memo_mode("off")
    ('on', 'auto', 'off')
    """
    if memo is True or memo is False:
        return "on" if memo else "off"
    if isinstance(memo, str) and memo.lower() in MODES:
        return memo.lower()
    raise InputError(f"memo must be 'auto', True ('on') or False ('off'), not {memo!r}")


def branch_rule(branch: object) -> str:
    """`branch` checked: "mrv" (None: the default) or "first".

    >>> branch_rule(None), branch_rule("first")
    ('mrv', 'first')
    """
    if branch is None:
        return "mrv"
    if isinstance(branch, str) and branch.lower() in BRANCHES:
        return branch.lower()
    raise InputError(f"branch must be 'mrv' or 'first', not {branch!r}")


def memo_size(value: object) -> int:
    """A memory bound in bytes: an int, or a text such as "512M", "2G", "1.5GiB"
    (binary units); None is the default, `DEFAULT_MEMO_BYTES`.

    >>> memo_size("512M"), memo_size(4096), memo_size(None) == DEFAULT_MEMO_BYTES
    (536870912, 4096, True)
    >>> memo_size("lots")
    Traceback (most recent call last):
        ...
    csp.errors.InputError: memo_bytes must be a size in bytes (e.g. 536870912, '512M'), not 'lots'
    """
    if value is None:
        return DEFAULT_MEMO_BYTES
    size: float | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    elif hasattr(value, "__index__") and not isinstance(value, bool):  # a numpy integer
        size = operator.index(value)
    elif isinstance(value, str):
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)(?:i?b)?\s*", value.lower())
        if found:
            size = float(found.group(1)) * _UNITS[found.group(2)]
    if size is None or not math.isfinite(size):
        raise InputError(f"memo_bytes must be a size in bytes (e.g. 536870912, '512M'), "
                         f"not {value!r}")
    if size < 1:
        raise InputError(f"memo_bytes must be at least 1 byte, not {value!r}")
    return int(size)


__all__ = ["BRANCHES", "DEFAULT_MEMO_BYTES", "MODES", "branch_rule", "memo_mode", "memo_size"]
