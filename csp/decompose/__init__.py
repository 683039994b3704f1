"""Decompositions: a model whose constraints a backend does not all take,
rewritten into constraints it does, with the same solutions.

`adapt(model, takes)` keeps every constraint the backend takes (`takes(c)`)
and rewrites the others, recursively, until every piece is taken:

1. a constraint over a small domain product (at most `DECOMPOSE_TUPLES`
   tuples) becomes the `Table` of its allowed tuples, where the backend takes
   tables: the strongest form (a table propagator is arc consistent);
2. otherwise the standard decomposition of its kind (below), which may
   declare *auxiliary variables*;
3. otherwise it is refused before solving with an `InputError` naming it.

Every auxiliary variable is *defined*: a total function of the variables
before it (a partial sum, the truth of a constraint, the state of an
automaton after a prefix, a distance in a graph). So each solution of the
rewritten model extends exactly one solution of the declared model: counts
are unchanged, and decoding a solution only drops the auxiliaries. Where a
decomposition's auxiliaries are not functions of the declared variables alone
(`Circuit`'s order, `Connected`'s distances are, but only once the
constraint holds) it cannot be reified, and a reification of it is refused.

The decompositions, by kind:

- logic (`And`, `Or`, `Not`, `Implies`, `Xor`, `Iff`): each operand that is
  not a literal becomes a boolean variable equal to its truth (its
  *reification*); a clause is then a sum of literals at least 1, `Xor` a sum
  equal to an odd number (`sum(l) - 2k == 1`, `k` a defined auxiliary), an
  equivalence an equality. Reifying a linear constraint uses the big-M
  inequalities with M taken from the domains' bounds (the textbook
  formulation, e.g. Williams, *Model Building in Mathematical Programming*);
- a function compared with something (`Element`, `Count`, `NValue`,
  `Minimum`, `Maximum`, `Abs`, `x * y`, `//`, `%`): its value becomes a
  defined auxiliary where the comparison is not `==`; `Element` over
  variables becomes one implication per index (`index == i -> array[i] ==
  value`, the decomposition MiniZinc's std library uses); `Count` a sum of
  reified equalities; `NValue` a sum over the values of "some variable takes
  it"; `Minimum` a lower bound on every operand and a clause "some operand
  equals it"; `Abs` the same over `x` and `-x`; products and divisions a
  table of their operands;
- `GlobalCardinality`: one `Count` per value (closed: every variable in the
  values); `AllEqual`: equalities; `AllDifferentExcept`: pairwise tables or
  clauses; `Increasing`/`Decreasing`: inequalities between neighbours;
  `LexLess`/`LexLessEq`: the decomposition with prefix-equality booleans
  (Frisch et al., "Global constraints for lexicographic orderings", 2002);
- `Regular`: the automaton made deterministic (subset construction) and
  complete (a dead state), and one state variable per position, each a table
  of the transitions (Pesant, "A regular language membership constraint",
  2004, as MiniZinc decomposes it);
- `Circuit`: all-different successors, no node its own successor, and an
  order variable per node that grows by one along the circuit from node 0
  (which rules out sub-tours: the classic MTZ-style decomposition);
- `Inverse`: one table per pair (i, j) for `f[i] == j <-> g[j] == i`;
- `Connected`: each node's distance from the first selected node within the
  selected nodes (a shortest-path fixpoint, unique), every selected node at a
  finite distance.
"""

from __future__ import annotations

from collections.abc import Callable

from csp.constraints import AllDifferent, Constraint, Linear
from csp.decompose.arithmetic import comparison, not_equal
from csp.decompose.builder import (
    DECOMPOSE_TUPLES,
    FUNCTION_TUPLES,
    MAX_AUX_VALUES,
    Auxiliary,
    Decomposer,
    copied,
)
from csp.decompose.globals import (
    all_different,
    all_different_except,
    all_equal,
    cardinality,
    circuit,
    connected,
    deterministic,
    increasing,
    inverse,
    lex,
    regular,
)
from csp.decompose.logic import logic, negation, reification
from csp.errors import InputError
from csp.expressions import Comparison
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Circuit,
    Connected,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    Regular,
)
from csp.logic import Logic
from csp.model import Model

TABLE_FIRST = True
"""Whether a constraint over a small domain product becomes a `Table` before
its decomposition is tried (tests switch it off to exercise every
decomposition on small models)."""

RULES: tuple[tuple[type, Callable[..., list[Constraint]]], ...] = (
    (Logic, logic),
    (Comparison, comparison),
    (Linear, not_equal),
    (AllDifferent, all_different),
    (AllEqual, all_equal),
    (AllDifferentExcept, all_different_except),
    (Increasing, increasing),
    (LexLess, lex),
    (GlobalCardinality, cardinality),
    (Regular, regular),
    (Circuit, circuit),
    (Inverse, inverse),
    (Connected, connected),
)
"""The decomposition of each kind of constraint."""


def decompose(c: Constraint, b: Decomposer) -> list[Constraint]:
    """Constraints that hold exactly when `c` does (their auxiliaries defined
    through `b`)."""
    for kind, rule in RULES:
        if isinstance(c, kind):
            return rule(c, b)
    raise InputError(f"{c.describe()}: no decomposition of a {type(c).__name__} is known; "
                     "use a backend that takes it")


def adapt(model: Model, takes: Callable[[Constraint], bool], *, tables: bool
          ) -> tuple[Model, bool]:
    """`model` rewritten so that `takes` accepts every constraint (see the
    module), and whether it declares auxiliary variables. `tables`: whether
    small constraints may become `Table`s. An `InputError` (naming the
    constraint) if one cannot be rewritten."""
    builder = Decomposer(model, takes, tables, decompose, reification, TABLE_FIRST)
    for number, c in enumerate(model.constraints, start=1):
        if takes(c):
            builder.target.constraints.append(c)  # its scope is names: it binds as it is
            continue
        try:
            builder.emit(copied(c, builder.target))
        except InputError as err:
            raise InputError(f"constraint {number} ({c.describe()}): {err.message}",
                             token=err.token) from None
    return builder.target, builder.numbered > 0


__all__ = ["DECOMPOSE_TUPLES", "FUNCTION_TUPLES", "MAX_AUX_VALUES", "RULES", "TABLE_FIRST",
           "Auxiliary", "Decomposer", "adapt", "decompose", "deterministic", "negation",
           "reification"]
