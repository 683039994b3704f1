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

from csp import backends, dispatch, parallel, problems, symmetry
from csp.backends.base import Search
from csp.constraints import AllDifferent, Compare, Constraint, Linear, Relation, Sum, Table
from csp.crosscheck import CrosscheckReport, crosscheck
from csp.errors import BackendUnavailable, InputError
from csp.exactcover import ExactCover
from csp.family import family, solve_many
from csp.model import Assignment, Model, Variable
from csp.result import Result, Stats, Status
from csp.solve import count, solutions, solve
from csp.symmetry import Group

__version__ = "0.1.0"

__all__ = [
    "AllDifferent",
    "Assignment",
    "BackendUnavailable",
    "Compare",
    "Constraint",
    "CrosscheckReport",
    "ExactCover",
    "Group",
    "InputError",
    "Linear",
    "Model",
    "Relation",
    "Result",
    "Search",
    "Stats",
    "Status",
    "Sum",
    "Table",
    "Variable",
    "backends",
    "count",
    "dispatch",
    "family",
    "parallel",
    "problems",
    "symmetry",
    "crosscheck",
    "solutions",
    "solve",
    "solve_many",
]
