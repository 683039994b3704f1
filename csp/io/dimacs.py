"""The DIMACS-like exact-cover format of miniexact and other tools.

A header `p xc P S` or `p xcc P S` (P primary items numbered 1..P, S secondary
ones P+1..P+S), then each option as item numbers ended by `0`, a negative
number after a secondary item being its colour; comment lines start with `c`
or `//`. An option without a primary item is dropped with a warning, as
Knuth's programs do. Items are named by their numbers, as strings.

>>> xc = parse("c two items, one secondary\\np xcc 1 1\\n1 2 -7 0\\n1 0\\n")
>>> xc.primary, xc.secondary, xc.option_text(0)
(['1'], ['2'], '1 2:7')
"""

from __future__ import annotations

import os
import re

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.io.text import Warn
from csp.io.text import warn as report

_HEADER = re.compile(r"p\s+(xcc?)\s+(\d+)\s+(\d+)")


def has_header(text: str) -> bool:
    """Whether the first line past comments is a `p xc`/`p xcc` header.

    A malformed header (`p xc x y`) is still one: reading it says what is
    wrong with it, where taking it for Knuth's item line would give a wrong
    answer (Knuth's reader takes items named `p` and `xc`).

    >>> has_header("// made by a tool\\np xc 3 0\\n1 2 0\\n"), has_header("a b\\na\\nb\\n")
    (True, False)
    >>> has_header("p xc x y\\n")
    True
    """
    for line in text.splitlines():
        line = line.strip()
        if not line or is_comment(line):
            continue
        return line.split()[:2] in (["p", "xc"], ["p", "xcc"])
    return False


def is_comment(line: str) -> bool:
    """Whether a stripped line is a comment (`c`, `//` or Knuth's `|`)."""
    return line.startswith(("//", "|")) or line == "c" or line.startswith(("c ", "c\t"))


def parse(text: str, *, source: str | None = None, warn: Warn | None = None) -> ExactCover:
    """The exact cover in `text`, in this format (see the module). Raises
    `InputError` naming the line at fault."""
    xc: ExactCover | None = None
    option: list[object] = []
    start = 0  # the line where the option being read began
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0].strip()
        if not line or is_comment(line):
            continue
        try:
            if xc is None:
                xc = _dimacs_header(line, source)
                continue
            for token in line.split():
                if not option:
                    start = number
                if token == "0":
                    _add(xc, option, start, source, warn)
                    option = []
                    continue
                item = _dimacs_entry(xc, token)
                if item > 0:
                    option.append(str(item))
                elif option and isinstance(option[-1], str) and int(option[-1]) > xc.n_primary:
                    option[-1] = (option[-1], str(-item))
                else:
                    raise InputError(f"colour {token} does not follow a secondary item",
                                     token=token)
        except InputError as err:
            raise err.located(line=number, source=source) from None
    if xc is None:
        raise InputError("no `p xc` or `p xcc` header", source=source)
    if option:
        raise InputError("the last option does not end with 0", line=number, source=source)
    return xc


def _dimacs_header(line: str, source: str | None) -> ExactCover:
    match = _HEADER.fullmatch(line)
    if match is None:
        raise InputError(f"expected a header `p xc P S` or `p xcc P S`, not {line[:60]!r}")
    primary, secondary = int(match[2]), int(match[3])
    if primary == 0:
        raise InputError("the header declares no primary item")
    return ExactCover([str(i) for i in range(1, primary + 1)],
                      [str(i) for i in range(primary + 1, primary + secondary + 1)],
                      name=os.path.basename(source) if source else None)


def _dimacs_entry(xc: ExactCover, token: str) -> int:
    """An item number, or (< 0, after a secondary item) a colour."""
    if token.startswith("$"):
        raise InputError(f"option costs ({token!r}) are not read: csp counts and lists "
                         "solutions, it does not minimise", token=token)
    try:
        value = int(token)
    except ValueError:
        raise InputError(f"{token!r} is not an item number", token=token) from None
    if value > xc.n_items:
        raise InputError(f"item {value} is beyond the {xc.n_items} items of the header",
                         token=token)
    return value


def _add(xc: ExactCover, entries: list[object], line: int, source: str | None,
         warn: Warn | None) -> None:
    if any(isinstance(e, str) and int(e) <= xc.n_primary for e in entries):
        xc.add_option(entries)
        return
    report(f"{_where(source, line)}option ignored (it has no primary item)", warn)


def _where(source: str | None, line: int) -> str:
    return f"{source}: line {line}: " if source else f"line {line}: "
