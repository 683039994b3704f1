"""Exact-cover files as other tools write them: one reader for every format.

- `knuth`: Knuth's format, as his DLX1/DLX2/DLX3 read it (`csp.io.knuth`);
- `dimacs`: `p xc P S` / `p xcc P S` (`csp.io.dimacs`);
- `matrix`: a 0/1 matrix, as text or as a `.npy` array (`csp.io.matrix`).

`read_cover(path, format="auto")` chooses by the name and the text: a `.npy`
file is a matrix; a text whose first line (past comments) is a `p xc`/`p xcc`
header is `dimacs`; any other is Knuth's format, with whole-line `//` comments
dropped (`format="knuth"` reads exactly as Knuth's programs do). A text matrix
is read with `format="matrix"` only: it is also a valid Knuth file.

In every format an option without a primary item is dropped with a warning,
as Knuth's programs do.

>>> detect("p xc 2 0\\n1 2 0\\n"), detect("a b\\na b\\n")
('dimacs', 'knuth')
"""

from __future__ import annotations

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.io import dimacs, knuth, matrix
from csp.io.text import Warn, read_text_file

FORMATS = ("auto", "knuth", "dimacs", "matrix")


def read_cover(path: str, format: str = "auto", *, text: str | None = None,
               warn: Warn | None = None) -> ExactCover:
    """The exact cover in file `path` (or in `text`, read from `path`), in
    `format`: one of `FORMATS` (see the module's documentation).

    Args:
        path: the file (`-` is not read here: pass its `text`).
        format: `auto`, `knuth`, `dimacs` or `matrix`.
        text: the file's text, if it was read already.
        warn: called with each message about a dropped option (default: an
            `InputWarning`).

    Returns:
        The `ExactCover`.

    Raises:
        InputError: an unknown format, an unreadable file, or bad input,
            naming the line at fault.
    """
    if format not in FORMATS:
        raise InputError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
    if text is None and (format == "matrix" or format == "auto") and path.endswith(".npy"):
        return matrix.from_array(matrix.load(path), source=path, warn=warn)
    if text is None:
        text = read_text_file(path)
    if format == "auto":
        format = detect(text)
        if format == "knuth":
            text = "\n".join("" if line.lstrip().startswith("//") else line
                             for line in text.splitlines())
    if format == "dimacs":
        return dimacs.parse(text, source=path, warn=warn)
    if format == "matrix":
        return matrix.parse(text, source=path, warn=warn)
    return knuth.parse(text, ExactCover, source=path, warn=warn)


def detect(text: str) -> str:
    """`dimacs` if the first line past comments is a `p xc`/`p xcc` header
    (`csp.io.dimacs.has_header`), else `knuth`."""
    return "dimacs" if dimacs.has_header(text) else "knuth"
