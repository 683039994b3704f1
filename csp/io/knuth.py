"""Knuth's text format for exact covers, as his DLX1/DLX2/DLX3 and SSXCC read it.

Comment lines start with `|`; the first other line names the items (primary,
then a lone `|`, then secondary); every further line is an option, with
`name:colour` for a coloured secondary item. A primary item may carry bounds,
as DLX3 reads them: `a:b|name` (covered between a and b times) or `b|name`
(exactly b times).

>>> from csp import ExactCover
>>> xc = parse("| tiny\\na b | x\\na x:0\\nb x:0\\n", ExactCover)
>>> xc.primary, xc.secondary, xc.n_options
(['a', 'b'], ['x'], 2)
>>> print(format(xc), end="")
a b | x
a x:0
b x:0

`ExactCover.from_text`, `to_text`, `read`, `write` and `option_text` are these
functions; `parse` and `read` take the class to make (`ExactCover`, or a
subclass), since this module sits below the type in the layers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, TypeVar

from csp.errors import InputError
from csp.io.text import BOM, Warn, read_text_file, strip_boms
from csp.io.text import warn as report

if TYPE_CHECKING:
    from csp.exactcover import ExactCover

Cover = TypeVar("Cover", bound="ExactCover")


def parse(text: str, into: type[Cover], *, source: str | None = None,
          warn: Warn | None = None) -> Cover:
    """The exact cover written in `text` in Knuth's format, as an `into`
    (`ExactCover`, or a subclass). An option without a primary item is
    dropped with a warning, as Knuth's programs do: `warn(message)` if given,
    else an `InputWarning`.

    Args:
        text: the file's text.
        into: the class to make, `ExactCover` or a subclass.
        source: the file's name, for messages.
        warn: called with each message about a dropped option.

    Returns:
        The exact cover, an instance of `into`.

    Raises:
        InputError: malformed input, naming the line at fault.

    >>> from csp import ExactCover
    >>> parse("2|r 0:1|c\\nr c\\nr\\n", ExactCover).bounds
    {'r': (2, 2), 'c': (0, 1)}
    >>> parse("a b\\na c\\n", ExactCover)
    Traceback (most recent call last):
    ...
    csp.errors.InputError: line 2: unknown item c in option
    """
    xc: Cover | None = None
    text = strip_boms(text)  # an editor's byte-order mark is not part of an item
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("|"):
            continue
        tokens = line.split()
        try:
            if xc is None:
                xc = _item_line(tokens, source, into)
                continue
            entries: list[Hashable] = []
            for token in tokens:
                # A name has no ':', so the first one ends it; a colour may hold more.
                name, colon, colour = token.partition(":")
                if colon and (not name or not colour):
                    raise InputError(f"malformed item {token!r}", token=token)
                entries.append((name, colour) if colon else token)
            if xc.covers_primary(entries):
                xc.add_option(entries, data=None)
                continue
            where = ": ".join(filter(None, (source, f"line {number}")))
            report(f"{where}: option ignored (it has no primary item): {line[:80]}", warn)
        except InputError as err:
            if xc is None and _MATRIX_ROW.fullmatch(line):
                # A 0/1 matrix is also a valid-looking Knuth file: say what it is.
                err = InputError(f"{err.message}: this looks like a 0/1 matrix; read it as "
                                 "one (`--format matrix`, or csp.io.covers.read_cover(path, "
                                 "\"matrix\"))", token=err.token)
            raise err.located(line=number, source=source) from None
    if xc is None:
        raise InputError("no items: the input has no item line", source=source)
    return xc


_MATRIX_ROW = re.compile(r"[01](\s*[01])*")
"""An item line that is a row of a 0/1 matrix."""


def read(path: str | os.PathLike[str], into: type[Cover], *,
         warn: Warn | None = None) -> Cover:
    """The exact cover in the file `path`, in Knuth's format (see `parse`)."""
    path = os.fspath(path)
    return parse(read_text_file(path), into, source=path, warn=warn)


def format(xc: ExactCover) -> str:  # noqa: A001 - as every kind's `format`
    """`xc` in Knuth's format. Items and colours are written with `str`, a
    tuple as its parts joined by commas (`("r", 3)` is `r,3`), so that `parse`
    reads back the same problem, its names as strings. A name that cannot be
    a token (a space, a ':') or two names written alike are an `InputError`.

    >>> from csp import ExactCover
    >>> text = "a b c | x y\\na x:0\\nb x:0 y\\nc y:1\\na b x:1\\n"
    >>> format(parse(text, ExactCover)) == text
    True
    >>> print(format(ExactCover(["r", "d"], bounds={"r": 2, "d": (0, 2)})), end="")
    2|r 0:2|d
    >>> xc = ExactCover([("r", 1), ("r", 2)], [("c", 1)])
    >>> _ = xc.add_option([("r", 1), (("c", 1), (0, 1))])
    >>> print(format(xc), end="")
    r,1 r,2 | c,1
    r,1 c,1:0,1
    """
    if not xc.primary:
        raise InputError("Knuth's format needs at least one primary item; this problem "
                         "has none")
    _check_distinct(xc.items, _name_token, "item names")
    _check_distinct(xc.colours, _colour_token, "colours")
    head = _line(_bounds_token(xc.bounds.get(name)) + _name_token(name)
                 for name in xc.primary)
    if xc.secondary:
        head += " | " + " ".join(_name_token(name) for name in xc.secondary)
    lines = [head] + [option_text(xc, k) for k in range(xc.n_options)]
    return "\n".join(lines) + "\n"


def write(xc: ExactCover, path: str | os.PathLike[str]) -> None:
    """Write `xc` to the file `path` in Knuth's format (see `format`)."""
    text = format(xc)  # first, so that an unwritable name leaves no half-written file
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def option_text(xc: ExactCover, k: int) -> str:
    """Option `k` of `xc` as a line of Knuth's format, e.g. ``'a x:0'``."""
    return _line(
        _name_token(name) if colour is None else f"{_name_token(name)}:{_colour_token(colour)}"
        for name, colour in xc.option(k)
    )


def _item_line(tokens: list[str], source: str | None, into: type[Cover]) -> Cover:
    # Knuth's reader takes `|name` as the separator and then a name.
    tokens = [part for token in tokens
              for part in (["|", token[1:]] if token.startswith("|") and token != "|"
                           else [token])]
    if tokens.count("|") > 1:
        raise InputError("more than one '|' in the item line", token="|")
    if "|" in tokens:
        bar = tokens.index("|")
        primary, secondary = tokens[:bar], tokens[bar + 1 :]
    else:
        primary, secondary = tokens, []
    bounds: dict[Hashable, int | tuple[int, int]] = {}
    names: list[str] = []
    for token in primary:
        name, bound = _bounded_token(token)
        names.append(name)
        if bound is not None:
            bounds[name] = bound
    for token in secondary:
        if "|" in token:
            name = token.rpartition("|")[2]
            raise InputError(f"bounds on secondary item {name!r} ({token!r}): only a "
                             "primary item has a multiplicity", token=token)
    for token in names + secondary:
        if ":" in token:
            raise InputError(f"item name {token!r} may not contain ':'", token=token)
        if token.startswith(BOM):
            # Written first in a file, it would be dropped as a byte-order mark.
            raise InputError(f"item name {token!r} starts with a byte-order mark (U+FEFF)",
                             token=token)
    if not names:
        raise InputError("no primary items in the item line")
    return into(names, secondary, name=os.path.basename(source) if source else None,
                bounds=bounds)


def _text(value: object) -> str:
    # A tuple's repr has spaces, which split tokens: join its parts by commas.
    if isinstance(value, tuple):
        return ",".join(_text(part) for part in value)
    return str(value)


def _check_distinct(values: Iterable[object], token: Callable[[object], str], what: str) -> None:
    """Refuse two values written as the same token: read back, they would be one."""
    seen: dict[str, object] = {}
    for value in values:
        text = token(value)
        if text in seen and seen[text] != value:
            raise InputError(f"{what} {seen[text]!r} and {value!r} would both be written "
                             f"{text!r} in Knuth's format", token=value)
        seen[text] = value


def _name_token(name: object) -> str:
    """An item name as a token: no space, no ':' (a token splits at its first ':'),
    no '|' (it would read as bounds, `a:b|name`), no leading byte-order mark (a
    reader drops one at the start of a file)."""
    text = _text(name)
    if not text or _has_space(text) or ":" in text or "|" in text or text.startswith(BOM):
        raise InputError(f"item name {name!r} cannot be written as a token of Knuth's format",
                         token=name)
    return text


_BOUNDS = re.compile(r"(?:([^:|]*):)?([^:|]*)\|(.*)")


def _bounded_token(token: str) -> tuple[str, tuple[int, int] | None]:
    """A primary item's token of the item line: its name, and its bounds if it
    has `a:b|` or `b|` in front (Knuth's DLX3).

    >>> _bounded_token("0:2|d1"), _bounded_token("2|r"), _bounded_token("r")
    (('d1', (0, 2)), ('r', (2, 2)), ('r', None))
    """
    if "|" not in token:
        return token, None
    match = _BOUNDS.fullmatch(token)
    if match is None or "|" in match[3]:
        raise InputError(f"malformed bounds {token!r}: write a:b|name or b|name",
                         token=token)
    name = match[3]
    if not name:
        raise InputError(f"no item name after the bounds in {token!r}", token=token)
    upper = _bound(match[2], name, token)
    lower = upper if match[1] is None else _bound(match[1], name, token)
    return name, (lower, upper)  # checked as any bounds are, by `set_bounds`


def _bound(text: str, name: str, token: str) -> int:
    if text.isdigit() and text.isascii():
        return int(text)
    if text.startswith("-") and text[1:].isdigit():
        raise InputError(f"item {name!r}: bound {text} is negative in {token!r}", token=token)
    raise InputError(f"item {name!r}: bound {text!r} is not a whole number in {token!r}",
                     token=token)


def _bounds_token(bound: tuple[int, int] | None) -> str:
    if bound is None:
        return ""
    lower, upper = bound
    return f"{upper}|" if lower == upper else f"{lower}:{upper}|"


def _colour_token(colour: object) -> str:
    """A colour as the part of a token after the first ':', which may hold more ':'."""
    text = _text(colour)
    if not text or _has_space(text):
        raise InputError(f"colour {colour!r} cannot be written in Knuth's format", token=colour)
    return text


def _has_space(text: str) -> bool:
    return any(ch.isspace() for ch in text)


def _line(tokens: Iterable[str]) -> str:
    line = " ".join(tokens)
    if line.startswith("|"):
        # Such a line would read back as a comment.
        raise InputError(f"a line of Knuth's format may not start with '|': {line[:60]!r}",
                         token=line.split()[0])
    return line
