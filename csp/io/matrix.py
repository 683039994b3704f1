"""0/1 matrices: one row per option, one column per (primary) item.

As text: rows of `0`/`1`, spaces optional; `|`, `#` and `//` lines are
comments. Or as a 2-D NumPy `.npy` array. Items are named by their column
number, from 1, as strings. An empty row is dropped with a warning.

>>> parse("1 0 1\\n0 1 0\\n").option_text(0)
'1 3'
"""

from __future__ import annotations

import os

import numpy as np

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.io.text import Warn
from csp.io.text import warn as report


def parse(text: str, *, source: str | None = None, warn: Warn | None = None) -> ExactCover:
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
    return from_array(matrix, source=source, warn=warn,
                             lines=[number for number, _ in rows])


def from_array(matrix: np.ndarray, *, source: str | None = None, warn: Warn | None = None,
               lines: list[int] | None = None) -> ExactCover:
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
            report(f"{source + ': ' if source else ''}{where}: option ignored (an empty row)",
                   warn)
    return xc


def load(path: str) -> np.ndarray:
    """The array of a `.npy` file (never a pickle); an `InputError` if it is none."""
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as err:  # EOFError: an empty or cut file
        raise InputError(f"cannot read {path} as a NumPy array: {err}", source=path) from None
