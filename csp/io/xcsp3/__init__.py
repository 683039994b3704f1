"""XCSP3, the format of the XCSP competitions: read an instance into a
`Model`, write a `Model` as an instance.

`read(path)` takes `.xml` files and their compressed forms (`.xml.lzma`, as
the competitions ship them, and `.xz`). It reads the integer satisfaction
part of XCSP3-core (docs/reference/xcsp3.md lists every constraint and how
it maps onto the model language); variables keep their names, arrays'
included (`x[3][4]`), so solutions print in the instance's terms; a
variable that no constraint mentions is left out, with a warning, as ACE and
Choco leave it (it would multiply every count by its domain's size). An
instance with an objective is refused unless `ignore_objective=True` (then
its constraints are read, the objective left out). A constraint outside the
subset is refused naming it and its line: nothing is dropped silently.

Reading uses pycsp3's parser (`pip install 'csp-workbench[xcsp3]'`), kept
from the caller's process (`csp.io.xcsp3.loading`).

`write(model, path)` writes any model whose constraints XCSP3 can say
(all but `Connected`), naming variables after the model's (`x[3][4]`
becomes the cell of an array `x`); `read` gives the same model back.

>>> from csp import Model, AllDifferent
>>> m = Model()
>>> x = [m.var(f"x[{i}]", range(3)) for i in range(3)]
>>> _ = m.add(AllDifferent(x))
>>> _ = m.add(x[0] + x[1] <= 2)
>>> back = parse(format(m))
>>> list(back.variables), [c.describe() for c in back.constraints]
(['x[0]', 'x[1]', 'x[2]'], ['AllDifferent(x[0], x[1], x[2])', 'Linear(1*x[0] + 1*x[1] <= 2)'])
"""

from __future__ import annotations

import os
from pathlib import Path

from csp.errors import InputError
from csp.io.text import Warn
from csp.io.text import warn as warning
from csp.io.xcsp3.writing import format, write
from csp.model import Model

SUFFIXES = (".xml", ".xml.lzma", ".xml.xz")
"""The names `csp` reads as XCSP3 when no format is given."""


def read(path: str | os.PathLike[str], *, ignore_objective: bool = False,
         warn: Warn | None = None) -> Model:
    """The model of the XCSP3 instance in `path` (`.xml`, `.xml.lzma`, `.xz`).

    Raises:
        InputError: a file that is not XCSP3 (malformed XML, a truncated
            `.lzma`), an objective (unless `ignore_objective`), a constraint
            outside the subset: naming the file, the line and the element.
    """
    from csp.io.xcsp3.loading import read_bytes

    where = os.fspath(path)
    data = read_bytes(where)
    return parse(data, source=where, ignore_objective=ignore_objective,
                 name=_stem(Path(where).name), warn=warn)


def parse(data: bytes | str, *, source: str = "<xcsp3>", ignore_objective: bool = False,
          name: str | None = None, warn: Warn | None = None) -> Model:
    """The model of an XCSP3 instance given as text (see `read`); `warn`
    hears which variables were left out, being in no constraint."""
    from csp.io.xcsp3.building import callbacks_class
    from csp.io.xcsp3.loading import make_callbacker, make_parser, pycsp3_parts, tree_of

    raw = data.encode() if isinstance(data, str) else data
    try:
        tree, lines = tree_of(raw, source)
        objectives = tree.find("./objectives")
        if objectives is not None and len(objectives) and not ignore_objective:
            raise InputError("the instance has an objective: csp solves and counts "
                             "satisfaction problems (--ignore-objective reads its constraints "
                             "only)", line=lines.get(objectives))
        parts = pycsp3_parts()
        parser = make_parser(tree, lines)
        callbacks = callbacks_class(parts["callbacks"].Callbacks)(name, ignore_objective)
        make_callbacker(parser, callbacks).load_instance()
    except InputError as err:
        raise err.located(source=source) from None
    left = callbacks.unconstrained
    if left:
        shown = ", ".join(left[:5]) + (", ..." if len(left) > 5 else "")
        warning(f"{source}: {len(left)} variable{'s' if len(left) > 1 else ''} in no "
                f"constraint left out, as ACE and Choco do: {shown}", warn)
    return callbacks.model


def _stem(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def is_xcsp3(path: str) -> bool:
    """Whether `path`'s name says XCSP3 (`SUFFIXES`)."""
    return path.endswith(SUFFIXES)


__all__ = ["SUFFIXES", "format", "is_xcsp3", "parse", "read", "write"]
