"""Reading a file of sizes, one per line: the input of the kinds whose puzzle
is a number (`queens`-like: `langford 7`, `magic 3`, `latin 5`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from csp.errors import InputError

Puzzle = TypeVar("Puzzle")


def sizes(text: str, make: Callable[[int, int], Puzzle], what: str = "a size",
          least: int = 1) -> Iterator[Puzzle | InputError]:
    """`make(n, line)` for each size n of `text` (blank lines and `#` comments
    skipped), or an `InputError` naming the line of one that is not a whole
    number of at least `least`.

    >>> list(sizes("# two\\n3\\nx\\n", lambda n, line: (n, line)))
    [(3, 2), InputError("line 3: 'x' is not a size (a whole number >= 1)")]
    """
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not (line.isascii() and line.isdigit()) or int(line) < least:
            yield InputError(f"{line!r} is not {what} (a whole number >= {least})",
                             line=number, token=line)
        else:
            yield make(int(line), number)


def inline(argument: str) -> str | None:
    """`csp solve KIND 8`: a size given on the command line instead of a file
    (a minus sign too, so that `-1` is refused as a size, not looked for as a file)."""
    digits = argument[1:] if argument[:1] == "-" else argument
    return argument if digits.isascii() and digits.isdigit() else None
