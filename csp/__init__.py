"""csp: declare a combinatorial problem once; solve, count, enumerate and
cross-check it with interchangeable backends.

Two forms of problem:

- `ExactCover`: primary and secondary items, options, colours (Knuth's XCC);
- `Model`: variables with finite integer domains, and constraints.

>>> import csp
>>> xc = csp.ExactCover(primary=["a", "b"])
>>> for items in (["a"], ["b"], ["a", "b"]):
...     _ = xc.add_option(items)
>>> sorted(csp.solutions(xc))
[(0, 1), (2,)]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from csp import backends, dispatch
from csp.backends.base import Search
from csp.constraints import AllDifferent, Compare, Constraint, Linear, Relation, Sum, Table
from csp.crosscheck import CrosscheckReport, crosscheck
from csp.errors import BackendUnavailable, InputError
from csp.exactcover import ExactCover
from csp.expressions import (
    Abs,
    Comparison,
    Count,
    Div,
    Element,
    Maximum,
    Minimum,
    Mod,
    NValue,
)
from csp.family import family, solve_family
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Connected,
    Decreasing,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    LexLessEq,
    Regular,
)
from csp.logic import And, Iff, Implies, Not, Or, Xor
from csp.model import Assignment, Model, Variable
from csp.result import Result, Stats, Status
from csp.solve import count, solutions, solve, zdd

if TYPE_CHECKING:
    from csp import parallel, problems, symmetry
    from csp.generation import generate
    from csp.rating import rate
    from csp.symmetry import Group

__version__ = "0.1.0"

_LATER = {"parallel": "csp.parallel", "problems": "csp.problems", "symmetry": "csp.symmetry",
          "Group": "csp.symmetry", "generate": "csp.generation", "rate": "csp.rating"}
"""What `import csp` leaves to its first use: a run that counts one exact cover
never pays for the process pool, the puzzle library or the symmetry groups.
(`crosscheck`, `family` and `solve` stay eager: each is also a submodule's
name, and importing the submodule later would shadow the function.)"""


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module 'csp' has no attribute {name!r}")
    loaded = importlib.import_module(module)
    value = loaded if module == f"csp.{name}" else getattr(loaded, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LATER))

__all__ = [
    "Abs",
    "AllDifferent",
    "AllDifferentExcept",
    "AllEqual",
    "And",
    "Assignment",
    "BackendUnavailable",
    "Circuit",
    "Compare",
    "Comparison",
    "Connected",
    "Constraint",
    "Count",
    "CrosscheckReport",
    "Decreasing",
    "Div",
    "Element",
    "ExactCover",
    "GlobalCardinality",
    "Group",
    "Iff",
    "Implies",
    "Increasing",
    "InputError",
    "Inverse",
    "LexLess",
    "LexLessEq",
    "Linear",
    "Maximum",
    "Minimum",
    "Mod",
    "Model",
    "NValue",
    "Not",
    "Or",
    "Regular",
    "Relation",
    "Result",
    "Search",
    "Stats",
    "Status",
    "Sum",
    "Table",
    "Variable",
    "Xor",
    "backends",
    "count",
    "dispatch",
    "family",
    "generate",
    "parallel",
    "problems",
    "rate",
    "symmetry",
    "crosscheck",
    "solutions",
    "solve",
    "solve_family",
    "zdd",
]
