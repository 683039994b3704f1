"""The field's instance files, whatever their format: XCSP3 and FlatZinc.

`detect(path)` names the format a file's name says (`.xml`, `.xml.lzma`,
`.xml.xz`: `xcsp3`; `.fzn`: `flatzinc`; else None), `read_instance(path)`
reads it into a `Model`, and `solution_text` prints a solution in the
format's own terms: an XCSP3 `<instantiation>` (what the competitions'
checkers read), or FlatZinc's output annotations.

>>> detect("Queens-8.xml.lzma"), detect("queens.fzn"), detect("tiny.xc")
('xcsp3', 'flatzinc', None)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from csp.errors import InputError
from csp.io.text import Warn
from csp.model import Model

FORMATS = ("xcsp3", "flatzinc")


def detect(path: str | os.PathLike[str]) -> str | None:
    """The instance format `path`'s name says, or None."""
    from csp.io import flatzinc, xcsp3

    name = os.fspath(path)
    if xcsp3.is_xcsp3(name):
        return "xcsp3"
    if flatzinc.is_flatzinc(name):
        return "flatzinc"
    return None


def read_instance(path: str | os.PathLike[str], format: str | None = None, *,
                  ignore_objective: bool = False, warn: Warn | None = None) -> Any:
    """The instance in `path`, in `format` (default: by its name): a `Model`
    for XCSP3, a `csp.io.flatzinc.Program` (its `.model`) for FlatZinc."""
    from csp.io import flatzinc, xcsp3

    chosen = format or detect(path)
    if chosen == "xcsp3":
        return xcsp3.read(path, ignore_objective=ignore_objective, warn=warn)
    if chosen == "flatzinc":
        return flatzinc.read_program(path, ignore_objective=ignore_objective)
    if chosen is None:
        raise InputError(f"{os.fspath(path)}: not an instance by its name (.xml, .xml.lzma, "
                         ".fzn): give --format xcsp3 or flatzinc")
    raise InputError(f"unknown instance format {chosen!r}: one of {', '.join(FORMATS)}")


def model_of(instance: Any) -> Model:
    """The model of what `read_instance` gave."""
    return instance if isinstance(instance, Model) else instance.model


def solution_text(instance: Any, solution: Mapping[Any, int]) -> str:
    """A solution as the instance's format prints it."""
    if isinstance(instance, Model):
        names = list(instance.variables)
        values = " ".join(str(solution[name]) for name in names)
        return (f"<instantiation> <list> {' '.join(map(str, names))} </list> "
                f"<values> {values} </values> </instantiation>")
    from csp.io.flatzinc.output import solution_text as flatzinc_text

    if instance.outputs:
        return flatzinc_text(instance, solution)
    return "\n".join(f"{name} = {solution[name]};" for name in instance.model.variables)


__all__ = ["FORMATS", "detect", "model_of", "read_instance", "solution_text"]
