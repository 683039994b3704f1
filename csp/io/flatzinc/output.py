"""Solutions in FlatZinc's output format, and back.

A FlatZinc solver prints each solution as one line per output annotation,
`x = 3;` for an `output_var`, `q = array1d(1..8, [4, 2, ...]);` for an
`output_array` (`array2d(1..2, 1..3, [...])` for two index sets, ...),
booleans as `true`/`false`, then a line `----------`. After the last one,
`==========` says the search is complete; `=====UNSATISFIABLE=====` that
there is no solution; `=====UNKNOWN=====` that a limit stopped the search
before it found one (`SEPARATOR`, `COMPLETE`, `UNSATISFIABLE`, `UNKNOWN`).

`solution_text(program, solution)` prints one solution; `read_solutions`
reads a solver's output back into assignments of the output names (how csp
compares its answers with Gecode's).

>>> from csp.io.flatzinc import parse_program
>>> program = parse_program('''
... var 1..2: x :: output_var;
... var bool: b :: output_var;
... array [1..2] of var int: a :: output_array([1..2]) = [x, 3];
... solve satisfy;''')
>>> print(solution_text(program, {"x": 2, "b": 1}))
x = 2;
b = true;
a = array1d(1..2, [2, 3]);
>>> read_solutions("x = 2;\\nb = true;\\na = array1d(1..2, [2, 3]);\\n----------\\n==========\\n")
([{'x': 2, 'b': True, 'a': [2, 3]}], 'complete')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from csp.io.flatzinc.building import Program

SEPARATOR = "----------"
COMPLETE = "=========="
UNSATISFIABLE = "=====UNSATISFIABLE====="
UNKNOWN = "=====UNKNOWN====="


def _value(item: Any, solution: Mapping[Any, int], boolean: bool) -> str:
    value = item if isinstance(item, int) else solution[item.name]
    return ("true" if value else "false") if boolean else str(value)


def solution_text(program: Program, solution: Mapping[Any, int]) -> str:
    """The lines that print `solution` (of the output variables at least)."""
    lines = []
    for output in program.outputs:
        values = [_value(item, solution, output.boolean) for item in output.items]
        if output.dims is None:
            lines.append(f"{output.name} = {values[0]};")
            continue
        dims = ", ".join(f"{r.start}..{r.stop - 1}" for r in output.dims)
        lines.append(f"{output.name} = array{len(output.dims)}d({dims}, "
                     f"[{', '.join(values)}]);")
    return "\n".join(lines)


_ASSIGNMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?);\s*$")


def read_solutions(text: str) -> tuple[list[dict[str, Any]], str]:
    """The solutions a FlatZinc solver printed, and how its search ended:
    `complete`, `unsatisfiable`, `unknown`, or `stopped` (solutions, no final line)."""
    solutions: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    status = "stopped"
    for line in text.splitlines():
        line = line.strip()
        if line == SEPARATOR:
            solutions.append(current)
            current = {}
        elif line == COMPLETE:
            status = "complete"
        elif line == UNSATISFIABLE:
            status = "unsatisfiable"
        elif line == UNKNOWN:
            status = "unknown"
        else:
            match = _ASSIGNMENT.match(line)
            if match:
                current[match[1]] = _parsed(match[2])
    return solutions, status


def _parsed(text: str) -> Any:
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    array = re.match(r"^array\d+d\((.*)\[(.*)\]\)$", text, re.S)
    if array:
        return [_parsed(v) for v in array[2].split(",") if v.strip()]
    if re.match(r"^-?\d+$", text):
        return int(text)
    return text


__all__ = ["COMPLETE", "SEPARATOR", "UNKNOWN", "UNSATISFIABLE", "read_solutions",
           "solution_text"]
