"""Symmetry groups of a problem, and counting or listing solutions up to them.

Glossary:

- *point*: what a symmetry permutes. For an `ExactCover` the points are its
  options (a solution is a set of options); for a `Model` they are its
  (variable, value) pairs, numbered in declaration order (a solution is the
  set of pairs it assigns).
- *symmetry*: a permutation of the points that maps the problem onto itself,
  hence solutions onto solutions. A `Group` is given by generators and closed
  under composition; each generator is validated.
- *canonical*: a solution is canonical when it is the lexicographically least
  of its images (its points as a sorted sequence, compared under the group's
  `rank` of points, by default the points' own numbers). Each class of
  equivalent solutions (an *orbit*) has exactly one canonical member, also
  when a solution is its own image -- dividing by the group's order would be
  wrong then.

>>> from csp import ExactCover
>>> xc = ExactCover(["a", "b"])
>>> for items in (["a"], ["b"], ["a", "b"]):
...     _ = xc.add_option(items)
>>> swap = induced(xc, {"a": "b", "b": "a"})   # the items a and b play the same role
>>> swap
[1, 0, 2]
>>> group = Group(xc, [swap])
>>> len(group), group.canonical((0, 1)), group.canonical((2,))
(2, (0, 1), (2,))
>>> count(xc, group).count            # {a}{b} and {ab}: two classes, each its own image
2

A problem carries its symmetry once declared: `declare(problem, generators)`
(or `Group(problem, generators).attach()`) sets `problem.symmetry`, which
`csp.count` and `csp.solutions` use with `up_to_symmetry=True`.

>>> import csp
>>> square = ExactCover.from_text("a b c d\\na b\\nc d\\na c\\nb d\\n")
>>> group = declare(square, [induced(square, {"b": "c", "c": "b"})])
>>> square.symmetry is group
True
>>> csp.count(square).count, csp.count(square, up_to_symmetry=True).count
(2, 1)

Pruning: with a backend that splits its own search (the `split` capability,
as `dlx` declares) the search tree is split at its first levels and each
partial solution is tested against every symmetry on what it already decides
(options chosen, options excluded); a branch whose every completion has a
smaller image is cut (`csp.symmetry.prune`). A `Model` gets
lex-leader constraints on its leading variables (a `Table` of the tuples that
can still start a canonical solution), which every backend propagates. In both
cases complete solutions are still tested exactly, so the answer does not
depend on the pruning, only the number of nodes does.

The package, one job a module: `group` (the group, canonical solutions),
`points` (what a symmetry permutes, and validating one), `generators`
(helpers that build them), `search` (counting and listing up to a group on
any backend), `walk` (the search that does it), `prune` (canonicity of
partial solutions, for a backend that splits).
"""

from csp.symmetry.generators import by_data, grid_symmetries, induced, relabel_values
from csp.symmetry.group import Group, declare
from csp.symmetry.points import Points
from csp.symmetry.search import count, lex_leader, solutions

__all__ = [
    "Group",
    "Points",
    "by_data",
    "count",
    "declare",
    "grid_symmetries",
    "induced",
    "lex_leader",
    "relabel_values",
    "solutions",
]
