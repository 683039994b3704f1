"""Reading numbers in puzzle files: ASCII digits only, and not absurdly many.

`str.isdigit()` is true of '²', '⑤' or Arabic-Indic digits, which `int()`
then refuses or reads in a way no puzzle means; and `int()` refuses more than
4,300 digits (Python's guard against quadratic conversion). Every parser asks
these instead, so that a bad token is an `InputError`, never a ValueError.
"""

from __future__ import annotations

from csp.errors import InputError

MAX_DIGITS = 18
"""The most digits a number of a puzzle file may have: every size, count and
clue of a real puzzle has a handful, and 18 digits still fit in an int64."""


def is_natural(token: str) -> bool:
    """Whether `token` is a whole number >= 0 written in ASCII digits."""
    return token.isascii() and token.isdigit()


def is_integer(token: str) -> bool:
    """Whether `token` is an integer in ASCII digits, with at most one leading '-'."""
    return is_natural(token[1:] if token.startswith("-") else token)


def natural(token: str, what: str = "number") -> int:
    """The value of `token` (see `is_natural`), or an `InputError` naming it."""
    if not is_natural(token):
        raise InputError(f"{what} {short(token)!r} is not a whole number in digits 0-9",
                         token=token)
    return integer(token, what)


def integer(token: str, what: str = "number") -> int:
    """The value of `token` (see `is_integer`), or an `InputError` naming it."""
    if not is_integer(token):
        raise InputError(f"{what} {short(token)!r} is not an integer in digits 0-9",
                         token=token)
    digits = len(token.lstrip("-"))
    if digits > MAX_DIGITS:
        raise InputError(f"{what} {short(token)!r} has {digits:,} digits; a puzzle's numbers "
                         f"have at most {MAX_DIGITS}", token=short(token))
    return int(token)


def check_size(value: int, maximum: int, what: str) -> None:
    """Refuse, before anything is built, a size no search could get through
    (building it alone would eat the memory)."""
    if value > maximum:
        raise InputError(f"{what} {value:,} is over the maximum of {maximum:,}", token=value)


def short(token: str) -> str:
    return token if len(token) <= 24 else token[:20] + "..."
