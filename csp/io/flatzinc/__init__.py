"""FlatZinc, what MiniZinc compiles a model into for its solvers: read a
file into a `Model`, write a `Model` as FlatZinc.

`read(path)` parses the file with csp's own reader of the FlatZinc grammar
(`csp.io.flatzinc.grammar`; no dependency) and maps each builtin onto the
model language (`csp.io.flatzinc.builtins`): the integer and boolean
builtins of the FlatZinc specification, their reified and half-reified
forms, and the globals a solver library may keep (`all_different_int`,
`table_int`, `regular`, ...). `solve satisfy` is read; `minimize` and
`maximize` are refused unless `ignore_objective=True`. Float and set
variables, and any builtin outside these, are refused naming it and its
line.

`read_program(path)` also gives the output annotations (`Program.outputs`),
which `csp.io.flatzinc.output` prints as FlatZinc's solvers do.

`write(model, path)` writes any model whose constraints FlatZinc's builtins
and the kept globals can say (`format(model)` gives the text), and `read`
gives it back with the same variables and solutions.

>>> program = parse_program('''
... var 1..3: x :: output_var;
... var 1..3: y :: output_var;
... constraint int_lin_le([1, 1], [x, y], 3);
... solve satisfy;''')
>>> program.model
<Model: 2 variables, 1 constraints>
>>> [o.name for o in program.outputs]
['x', 'y']
"""

from __future__ import annotations

import os
from pathlib import Path

from csp.errors import InputError
from csp.io.flatzinc.building import Output, Program, build
from csp.io.flatzinc.grammar import parse as parse_items
from csp.io.flatzinc.writing import format, write
from csp.io.text import read_text_file
from csp.model import Model

SUFFIXES = (".fzn",)
"""The names `csp` reads as FlatZinc when no format is given."""


def read(path: str | os.PathLike[str], *, ignore_objective: bool = False) -> Model:
    """The model of the FlatZinc file `path` (see the module)."""
    return read_program(path, ignore_objective=ignore_objective).model


def read_program(path: str | os.PathLike[str], *, ignore_objective: bool = False) -> Program:
    """The model of the FlatZinc file `path`, its outputs and its solve item."""
    where = os.fspath(path)
    text = read_text_file(where)
    return parse_program(text, source=where, ignore_objective=ignore_objective,
                         name=Path(where).stem)


def parse(text: str, *, source: str = "<flatzinc>", ignore_objective: bool = False,
          name: str | None = None) -> Model:
    """The model of a FlatZinc text."""
    return parse_program(text, source=source, ignore_objective=ignore_objective,
                         name=name).model


def parse_program(text: str, *, source: str = "<flatzinc>", ignore_objective: bool = False,
                  name: str | None = None) -> Program:
    """The program of a FlatZinc text: its model, outputs and solve item."""
    try:
        items = parse_items(text)
        if not any(type(item).__name__ == "Solve" for item in items):
            raise InputError("no solve item (solve satisfy;): not a whole FlatZinc file")
        program = build(items, name)
        if program.solve != "satisfy" and not ignore_objective:
            solve = next(item for item in items if type(item).__name__ == "Solve")
            raise InputError(f"solve {program.solve}: csp solves and counts satisfaction "
                             "problems (--ignore-objective reads its constraints only)",
                             line=solve.line)
    except InputError as err:
        raise err.located(source=source) from None
    return program


def is_flatzinc(path: str) -> bool:
    """Whether `path`'s name says FlatZinc (`SUFFIXES`)."""
    return path.endswith(SUFFIXES)


__all__ = ["SUFFIXES", "Output", "Program", "format", "is_flatzinc", "parse", "parse_program",
           "read", "read_program", "write"]
