"""Both forms of problem as CNF: clauses over numbered Boolean literals.

A `Model` is encoded *one-hot* (the direct encoding): one literal per
(variable, value), exactly one true per variable. Then

- all-different is an at-most-one per value over the variables that have it,
  and an exactly-one per value when the variables have as many values between
  them as there are variables (a permutation: each value must be taken, the
  "hidden single" of a sudoku, which unit propagation then sees);
- a sum is a layered diagram of its partial sums: one literal per reachable
  partial sum after each variable, exactly one per layer, a clause per
  (state, value) transition; only the states from which the comparison can
  still hold are kept. Puzzle sums (kakuro, killer, magic squares) have a few
  dozen partial sums per layer. PySAT's pseudo-Boolean encoder (`pysat.pb`)
  would need the `pindakaas` package and sees the one-hot literals as
  independent Booleans; the diagram knows each variable takes one value;
- a table is a selector literal per allowed tuple (one of them true, each
  implying its values, each value implying one of the tuples that have it); a
  forbidden table is one clause per forbidden tuple;
- `x == y`, `x != y` and comparisons with a constant are clauses on the
  literals of the values.

An `ExactCover` is one literal per option: exactly one per primary item; per
secondary item, at most one among its uncoloured options and one literal per
colour, each colour literal true exactly when an option giving that colour
is chosen.

Every auxiliary literal is a function of the declared ones (`Cnf.declared`)
but the cardinality encodings' counters, which may take several values
where every literal they count is false (a sequential counter's is monotone,
not fixed): so solutions projected on the declared literals are solutions
of the problem, each once, and a model counter counts on those
(`csp.backends.ganak`).

>>> from csp import Model, Sum
>>> m = Model()
>>> x, y = m.var("x", range(3)), m.var("y", range(3))
>>> _ = m.add(Sum([x, y]) == 3)
>>> cnf = encode(m)
>>> from pysat.solvers import Solver
>>> with Solver(bootstrap_with=cnf.clauses) as solver:
...     sorted(tuple(cnf.read(set(model)).values())
...            for model in solver.enum_models())  # doctest: +SKIP
[(1, 2), (2, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table
from csp.exactcover import ExactCover
from csp.model import Assignment, Model

MAX_LITERALS = 2_000_000
"""The most one-hot literals (values over all variables) a model may need."""

MAX_TRANSITIONS = 1_000_000
"""The most (partial sum, value) transitions a sum's diagram may have: past
it the partial sums hardly collide (large weights), and the encoding would be
a table of the whole product."""

PAIRWISE = 6
"""Up to this many literals, at-most-one is every pair (no auxiliary
literals, the strongest propagation); above, a sequential counter."""


class Unsatisfiable(Exception):
    """Raised while encoding a problem shown to have no solution (an empty
    domain, a primary item no option covers, a table with no tuple left)."""


class Cnf:
    """Clauses, and how to read and block a solution from a model's literals."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.unsatisfiable = False
        self.read: Callable[[set[int]], Any] = lambda _: None
        """A solver's model (the set of its true literals) as a solution."""
        self.block: Callable[[set[int]], list[int]] = lambda _: []
        """The clause that excludes that solution (on the declared literals only)."""
        self.declared: list[int] = []
        """The declared literals (options; variables' values): a solution is
        the set of them that are true; every other literal is auxiliary."""

    def new(self) -> int:
        return self.pool.id(("aux", self.pool.top + 1))

    def at_most_one(self, literals: Sequence[int]) -> None:
        if len(literals) <= 1:
            return
        if len(literals) <= PAIRWISE:
            self.clauses.extend([-a, -b] for i, a in enumerate(literals)
                                for b in literals[i + 1:])
            return
        encoded = CardEnc.atmost(list(literals), bound=1, vpool=self.pool,
                                 encoding=EncType.seqcounter)
        self.clauses.extend(encoded.clauses)

    def exactly_one(self, literals: Sequence[int]) -> None:
        if not literals:
            raise Unsatisfiable
        self.clauses.append(list(literals))
        self.at_most_one(literals)


def encode(problem: ExactCover | Model) -> Cnf:
    """`problem` as CNF (`cnf.unsatisfiable` when that was seen while encoding)."""
    cnf = Cnf()
    try:
        if isinstance(problem, ExactCover):
            _exact_cover(cnf, problem)
        else:
            _model(cnf, problem)
    except Unsatisfiable:
        cnf.unsatisfiable = True
        cnf.clauses = []
    return cnf


# -- exact cover ------------------------------------------------------------------------


def _exact_cover(cnf: Cnf, xc: ExactCover) -> None:
    arrays = xc.arrays()
    start, items, colours = (arrays[k].tolist() for k in ("start", "items", "colours"))
    option = [cnf.pool.id(("option", k)) for k in range(xc.n_options)]
    covering: list[list[tuple[int, int]]] = [[] for _ in range(xc.n_items)]
    for k in range(xc.n_options):
        for p in range(start[k], start[k + 1]):
            covering[items[p]].append((k, colours[p]))
    for code in range(xc.n_primary):
        cnf.exactly_one([option[k] for k, _ in covering[code]])
    for code in range(xc.n_primary, xc.n_items):
        uncoloured = [option[k] for k, c in covering[code] if c == 0]
        by_colour: dict[int, list[int]] = {}
        for k, c in covering[code]:
            if c:
                by_colour.setdefault(c, []).append(option[k])
        literals = []
        for c, options in by_colour.items():
            if len(by_colour) == 1 and not uncoloured:
                break  # options of one colour only: they may all be chosen
            literal = cnf.pool.id(("colour", code, c))
            cnf.clauses.extend([-o, literal] for o in options)
            cnf.clauses.append([-literal, *options])
            literals.append(literal)
        cnf.at_most_one(uncoloured + literals)
    def read(true: set[int]) -> tuple[int, ...]:
        return tuple(k for k, literal in enumerate(option) if literal in true)

    def block(true: set[int]) -> list[int]:
        # Every option covers a primary item (ExactCover says so): another
        # solution cannot hold all of this one's options and more.
        return [-option[k] for k in range(xc.n_options) if option[k] in true]

    cnf.read, cnf.block, cnf.declared = read, block, option


# -- model ------------------------------------------------------------------------------


def _model(cnf: Cnf, m: Model) -> None:
    names = list(m.variables)
    domains = [m.variables[x].domain for x in names]
    value_literal: dict[Hashable, dict[int, int]] = {}
    for i, (x, domain) in enumerate(zip(names, domains)):
        literals = {v: cnf.pool.id(("value", i, v)) for v in domain}
        value_literal[x] = literals
        cnf.exactly_one(list(literals.values()))
    for c in m.constraints:
        _constraint(cnf, m, c, value_literal)

    def read(true: set[int]) -> Assignment:
        return Assignment((x, next(v for v, lit in value_literal[x].items() if lit in true))
                          for x in names)

    def block(true: set[int]) -> list[int]:
        return [-lit for x in names for lit in value_literal[x].values() if lit in true]

    cnf.read, cnf.block = read, block
    cnf.declared = [lit for x in names for lit in value_literal[x].values()]


def _constraint(cnf: Cnf, m: Model, c: Constraint,
                value_literal: dict[Hashable, dict[int, int]]) -> None:
    literals = [value_literal[x] for x in c.scope]
    if isinstance(c, AllDifferent):
        _all_different(cnf, literals)
    elif isinstance(c, Linear):
        _linear(cnf, c, literals)
    elif isinstance(c, Table):  # a Relation too: its tuples are expanded
        _table(cnf, c, literals)
    elif isinstance(c, Compare):
        _compare(cnf, c, literals)
    else:  # dispatch gives only the kinds the backend declares
        raise TypeError(f"sat cannot encode {c.describe()}")


def _all_different(cnf: Cnf, literals: list[dict[int, int]]) -> None:
    by_value: dict[int, list[int]] = {}
    for values in literals:
        for v, lit in values.items():
            by_value.setdefault(v, []).append(lit)
    if len(by_value) < len(literals):
        raise Unsatisfiable  # more variables than values between them
    for group in by_value.values():
        if len(by_value) == len(literals):
            cnf.exactly_one(group)
        else:
            cnf.at_most_one(group)


def _compare(cnf: Cnf, c: Compare, literals: list[dict[int, int]]) -> None:
    x = literals[0]
    if c.constant is not None:
        lit = x.get(c.constant)
        if c.op == "==":
            if lit is None:
                raise Unsatisfiable
            cnf.clauses.append([lit])
        elif lit is not None:
            cnf.clauses.append([-lit])
        return
    y = literals[1]
    if c.op == "!=":
        cnf.clauses.extend([-x[v], -y[v]] for v in x.keys() & y.keys())
        return
    for v in x.keys() | y.keys():
        if v in x and v in y:
            cnf.clauses.extend(([-x[v], y[v]], [x[v], -y[v]]))
        else:
            cnf.clauses.append([-(x[v] if v in x else y[v])])


def _table(cnf: Cnf, c: Table, literals: list[dict[int, int]]) -> None:
    if c.forbidden:
        for row in c.tuples:
            if all(v in values for v, values in zip(row, literals)):
                cnf.clauses.append([-values[v] for v, values in zip(row, literals)])
        return
    rows = [row for row in c.tuples if all(v in values for v, values in zip(row, literals))]
    if not rows:
        raise Unsatisfiable
    if len(literals) == 1:
        allowed = {row[0] for row in rows}
        cnf.clauses.extend([-lit] for v, lit in literals[0].items() if v not in allowed)
        return
    # One selector per row; the variables' values decide it (rows differ), so
    # "at least one" is enough.
    selectors = [cnf.new() for _ in rows]
    cnf.clauses.append(selectors)
    having: list[dict[int, list[int]]] = [{} for _ in literals]
    for selector, row in zip(selectors, rows):
        for i, v in enumerate(row):
            cnf.clauses.append([-selector, literals[i][v]])
            having[i].setdefault(v, []).append(selector)
    for i, values in enumerate(literals):
        for v, lit in values.items():
            cnf.clauses.append([-lit, *having[i].get(v, [])])  # a value no row has: false


def sum_layers(c: Linear, domains: Sequence[Sequence[int]]) -> list[list[int]] | str:
    """The partial sums of `c` that can still end satisfying it, after each of
    its variables (the last layer: the accepted totals), or why the diagram
    is too large for `MAX_TRANSITIONS`."""
    layers: list[set[int]] = [{0}]
    transitions = 0
    for w, domain in zip(c.weights, domains):
        transitions += len(layers[-1]) * len(domain)
        if transitions > MAX_TRANSITIONS:
            return (f"{c.describe()} has over {MAX_TRANSITIONS:,} (partial sum, value) "
                    "transitions in sat's encoding of sums")
        layers.append({s + w * v for s in layers[-1] for v in domain})
    accept = {"==": lambda s: s == c.rhs, "!=": lambda s: s != c.rhs,
              "<=": lambda s: s <= c.rhs, ">=": lambda s: s >= c.rhs}[c.op]
    kept = [{s for s in layers[-1] if accept(s)}]
    for w, domain, layer in zip(reversed(c.weights), reversed(domains), reversed(layers[:-1])):
        after = kept[0]
        kept.insert(0, {s for s in layer if any(s + w * v in after for v in domain)})
    return [sorted(layer) for layer in kept]


def _linear(cnf: Cnf, c: Linear, literals: list[dict[int, int]]) -> None:
    layers = sum_layers(c, [sorted(values) for values in literals])
    if isinstance(layers, str):  # refused before solving (`SATBackend.refuses`)
        raise ValueError(layers)
    if not layers[-1]:
        raise Unsatisfiable
    last = len(literals)
    # state[k][s]: the sum of the first k terms is s (layer 0: the one state 0,
    # always true; the last layer: accepted, no literal needed).
    state: list[dict[int, int]] = [{} for _ in range(last + 1)]
    for k in range(1, last):
        state[k] = {s: cnf.new() for s in layers[k]}
        cnf.exactly_one(list(state[k].values()))
    for k, (w, values) in enumerate(zip(c.weights, literals)):
        into = set(layers[k + 1])
        for s in layers[k]:
            here = [] if k == 0 else [-state[k][s]]
            for v, lit in values.items():
                after = s + w * v
                if after not in into:
                    cnf.clauses.append([*here, -lit])  # a dead end
                elif k + 1 < last:
                    cnf.clauses.append([*here, -lit, state[k + 1][after]])
        if k + 1 < last:
            # A partial sum needs a predecessor and a value leading to it
            # (what makes values unsupported by any path false).
            steps = {w * v for v in values}
            before = set(layers[k])
            for after, lit in state[k + 1].items():
                cnf.clauses.append([-lit, *(lit_v for v, lit_v in values.items()
                                           if after - w * v in before)])
                if k > 0:
                    cnf.clauses.append([-lit, *(state[k][s] for s in layers[k]
                                                if after - s in steps)])


def refusal(m: Model) -> str | None:
    """Why `m` is too large for these encodings, or None."""
    total = 0
    for name, variable in m.variables.items():
        size = len(variable.domain)
        if size > MAX_LITERALS:
            return (f"variable {name!r} has {size:,} values, over the {MAX_LITERALS:,} "
                    "one-hot literals of sat's encoding")
        total += size
    if total > MAX_LITERALS:
        return (f"the variables have {total:,} values between them, over the "
                f"{MAX_LITERALS:,} one-hot literals of sat's encoding")
    for c in m.constraints:
        if isinstance(c, Linear):
            layers = sum_layers(c, [m.variables[x].domain for x in c.scope])
            if isinstance(layers, str):
                return layers
    return None


__all__ = ["Cnf", "MAX_LITERALS", "MAX_TRANSITIONS", "encode", "refusal", "sum_layers"]
