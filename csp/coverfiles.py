"""Exact-cover files as other tools write them, read into an `ExactCover`.

- `knuth`: Knuth's format, as his DLX1/DLX2/DLX3 read it (`ExactCover.from_text`:
  `|` comments, the item line with `a:b|name` bounds, options, `name:colour`);
- `dimacs`: the DIMACS-like variant of miniexact and other tools: a header
  `p xc P S` or `p xcc P S` (P primary items numbered 1..P, S secondary ones
  P+1..P+S), then each option as item numbers ended by `0`, a negative number
  after a secondary item being its colour; comment lines start with `c` or `//`;
- `matrix`: a 0/1 matrix, one row per option and one column per (primary)
  item, as text (rows of `0`/`1`, spaces optional; `|`, `#` and `//` lines
  are comments) or as a 2-D NumPy `.npy` array. Items are named by their
  column number, from 1.

`read_cover(path, format="auto")` chooses by the name and the text: a `.npy`
file is a matrix; a text whose first line (past comments) is a `p xc`/`p xcc`
header is `dimacs`; any other is Knuth's format, with whole-line `//` comments
dropped (`format="knuth"` reads exactly as Knuth's programs do). A text matrix
is read with `format="matrix"` only: it is also a valid Knuth file.

In every format an option without a primary item is dropped with a warning,
as Knuth's programs do.

>>> xc = from_dimacs("c two items, one secondary\\np xcc 1 1\\n1 2 -7 0\\n1 0\\n")
>>> xc.primary, xc.secondary, xc.option_text(0)
(['1'], ['2'], '1 2:7')
>>> from_matrix_text("1 0 1\\n0 1 0\\n").option_text(0)
'1 3'
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable

import numpy as np

from csp.errors import InputError, InputWarning
from csp.exactcover import ExactCover, read_text_file

FORMATS = ("auto", "knuth", "dimacs", "matrix")

Warn = Callable[[str], None]

_HEADER = re.compile(r"p\s+(xcc?)\s+(\d+)\s+(\d+)")


def read_cover(path: str, format: str = "auto", *, text: str | None = None,
               warn: Warn | None = None) -> ExactCover:
    """The exact cover in file `path` (or in `text`, read from `path`), in
    `format`: one of `FORMATS` (see the module's documentation)."""
    if format not in FORMATS:
        raise InputError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
    if text is None and (format == "matrix" or format == "auto") and path.endswith(".npy"):
        return from_matrix_array(_load_npy(path), source=path, warn=warn)
    if text is None:
        text = read_text_file(path)
    if format == "auto":
        format = detect(text)
        if format == "knuth":
            text = "\n".join("" if line.lstrip().startswith("//") else line
                             for line in text.splitlines())
    if format == "dimacs":
        return from_dimacs(text, source=path, warn=warn)
    if format == "matrix":
        return from_matrix_text(text, source=path, warn=warn)
    return ExactCover.from_text(text, source=path, warn=warn)


def detect(text: str) -> str:
    """`dimacs` if the first line past comments is a `p xc`/`p xcc` header, else `knuth`.

    A malformed header (`p xc x y`) is still one: reading it says what is
    wrong with it, where taking it for Knuth's item line would give a wrong
    answer (`--format knuth` reads items named `p` and `xc`).

    >>> detect("// made by a tool\\np xc 3 0\\n1 2 0\\n"), detect("a b\\na\\nb\\n")
    ('dimacs', 'knuth')
    >>> detect("p xc x y\\n")
    'dimacs'
    """
    for line in text.splitlines():
        line = line.strip()
        if not line or _is_comment(line):
            continue
        return "dimacs" if line.split()[:2] in (["p", "xc"], ["p", "xcc"]) else "knuth"
    return "knuth"


def _is_comment(line: str) -> bool:
    return line.startswith(("//", "|")) or line == "c" or line.startswith(("c ", "c\t"))


def from_dimacs(text: str, *, source: str | None = None, warn: Warn | None = None
                ) -> ExactCover:
    """Read the DIMACS-like variant (`p xc P S` / `p xcc P S`; see the module)."""
    xc: ExactCover | None = None
    option: list[object] = []
    start = 0  # the line where the option being read began
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0].strip()
        if not line or _is_comment(line):
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
    _warn(f"{_where(source, line)}option ignored (it has no primary item)", warn)


def _where(source: str | None, line: int) -> str:
    return f"{source}: line {line}: " if source else f"line {line}: "


def _warn(message: str, warn: Warn | None) -> None:
    if warn is None:
        warnings.warn(message, InputWarning, stacklevel=3)
    else:
        warn(message)


def from_matrix_text(text: str, *, source: str | None = None, warn: Warn | None = None
                     ) -> ExactCover:
    """A 0/1 matrix as text: one row per option, one column per item."""
    rows: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("|", "#", "//")):
            continue
        cells = "".join(line.split())
        if cells.strip("01"):
            bad = cells.strip("01")[0]
            raise InputError(f"{bad!r} in a row of a 0/1 matrix", line=number, token=bad,
                             source=source)
        if rows and len(cells) != len(rows[0][1]):
            raise InputError(f"a row of {len(cells)} columns, but the first has "
                             f"{len(rows[0][1])}", line=number, source=source)
        rows.append((number, cells))
    if not rows:
        raise InputError("no rows: the matrix is empty", source=source)
    matrix = np.array([[c == "1" for c in cells] for _, cells in rows], dtype=bool)
    return from_matrix_array(matrix, source=source, warn=warn,
                             lines=[number for number, _ in rows])


def from_matrix_array(matrix: np.ndarray, *, source: str | None = None,
                      warn: Warn | None = None, lines: list[int] | None = None
                      ) -> ExactCover:
    """A 2-D 0/1 array: row k is an option covering the items (columns) it has 1 in."""
    if matrix.ndim != 2 or matrix.shape[1] == 0:
        raise InputError(f"a matrix of shape {matrix.shape}: expected rows and columns",
                         source=source)
    if matrix.dtype != bool and not np.isin(matrix, (0, 1)).all():
        raise InputError("the matrix has entries other than 0 and 1", source=source)
    columns = matrix.shape[1]
    xc = ExactCover([str(j) for j in range(1, columns + 1)],
                    name=os.path.basename(source) if source else None)
    for k, row in enumerate(np.asarray(matrix, dtype=bool)):
        chosen = (np.flatnonzero(row) + 1).tolist()
        if chosen:
            xc.add_option([str(j) for j in chosen])
        else:
            where = f"line {lines[k]}" if lines else f"row {k + 1}"
            _warn(f"{source + ': ' if source else ''}{where}: option ignored (an empty row)",
                  warn)
    return xc


def _load_npy(path: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as err:  # EOFError: an empty or cut file
        raise InputError(f"cannot read {path} as a NumPy array: {err}", source=path) from None


__all__ = ["FORMATS", "detect", "from_dimacs", "from_matrix_array", "from_matrix_text",
           "read_cover"]
