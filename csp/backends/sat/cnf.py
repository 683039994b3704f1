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
  literals of the values;
- logic (`csp.logic`) is clauses over the *truth literals* of its operands:
  a `Compare` with a constant is a one-hot literal, `x == y` a defined
  literal (true exactly when some value is both's), a `Linear` the
  acceptance of its diagram kept whole (every reachable partial sum, its
  final states split into accepted and not), nested logic a Tseitin
  variable per connective (`Xor` a chain of two-input xors). At the top,
  `And` is its operands posted, `Or` one clause, `Not` its operand posted
  negated (a negated sum is a sum), so only nested logic needs literals;
- the globals of `csp.backends.sat.globals` (`Count`, `Element`,
  `GlobalCardinality`, `Regular`, `AllEqual`, `AllDifferentExcept`,
  `Increasing`, `Decreasing`, `Inverse`) as that module says.

An `ExactCover` is one literal per option: exactly one per primary item; per
secondary item, at most one among its uncoloured options and one literal per
colour, each colour literal true exactly when an option giving that colour
is chosen.

Every auxiliary literal (partial sums, automaton states, tuple selectors,
colours, truth literals, Tseitin variables, the cardinality encodings'
counters) is a function of the declared literals, so that solutions
projected on the declared ones are solutions of the problem, each once; and
blocking a solution on the literals of some variables only (`over=`) finds
each of their assignments that extends to a solution once: projection.

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

from collections.abc import Hashable, Sequence

from csp.backends.sat import diagram
from csp.backends.sat.clauses import PAIRWISE, Cnf, Unsatisfiable
from csp.backends.sat.encoder import Encoder, TooLarge, _accepts, _summing
from csp.backends.sat.globals import automaton, post
from csp.constraints import Constraint, Linear
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.global_constraints import Regular
from csp.logic import Logic
from csp.model import Assignment, Model

MAX_LITERALS = 2_000_000
"""The most one-hot literals (values over all variables) a model may need."""

MAX_TRANSITIONS = 1_000_000
"""The most (state, value) transitions a layered diagram (a sum's, an
automaton's) may have: past it the partial sums hardly collide (large
weights), and the encoding would be a table of the whole product."""


def encode(problem: ExactCover | Model, over: Sequence[Hashable] | None = None) -> Cnf:
    """`problem` as CNF (`cnf.unsatisfiable` when that was seen while
    encoding). With `over` (a model's variable names), solutions are read
    and blocked on those variables only: their distinct assignments."""
    cnf = Cnf()
    try:
        if isinstance(problem, ExactCover):
            _exact_cover(cnf, problem)
        else:
            _model(cnf, problem, over)
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


def _model(cnf: Cnf, m: Model, over: Sequence[Hashable] | None) -> None:
    names = list(m.variables)
    value_literal: dict[Hashable, dict[int, int]] = {}
    for i, x in enumerate(names):
        literals = {v: cnf.pool.id(("value", i, v)) for v in m.variables[x].domain}
        value_literal[x] = literals
        cnf.exactly_one(list(literals.values()))
    encoder = Encoder(cnf, value_literal, MAX_TRANSITIONS, post)
    for c in m.constraints:
        try:
            encoder.post(c)
        except TooLarge as err:  # refused before solving (`refusal`)
            raise ValueError(f"{c.describe()}: {err}") from None
    shown = names if over is None else list(over)
    for name in shown:
        if name not in value_literal:
            raise InputError(f"over=: {name!r} is not a variable of this model", token=name)

    def read(true: set[int]) -> Assignment:
        return Assignment((x, next(v for v, lit in value_literal[x].items() if lit in true))
                          for x in shown)

    def block(true: set[int]) -> list[int]:
        return [-lit for x in shown for lit in value_literal[x].values() if lit in true]

    cnf.read, cnf.block = read, block
    cnf.declared = [lit for x in names for lit in value_literal[x].values()]


def sum_layers(c: Linear, domains: Sequence[Sequence[int]]) -> list[list[int]] | str:
    """The partial sums of `c` that can still end satisfying it, after each of
    its variables (the last layer: the accepted totals), or why the diagram
    is too large for `MAX_TRANSITIONS`."""
    kept = diagram.layers(domains, _summing(c.weights), 0, accept=_accepts(c.op, c.rhs),
                          limit=MAX_TRANSITIONS)
    if kept is None:
        return (f"{c.describe()} has over {MAX_TRANSITIONS:,} (partial sum, value) "
                "transitions in sat's encoding of sums")
    return [sorted(layer) for layer in kept]  # type: ignore[arg-type]


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
        why = _too_large(m, c)
        if why is not None:
            return why
    return None


def _too_large(m: Model, c: Constraint, nested: bool = False) -> str | None:
    """Why the diagram of `c` (or of a sum inside it) is too large, or None."""
    if isinstance(c, Logic):
        return next((why for a in c.args if (why := _too_large(m, a, True))), None)
    domains = [m.variables[x].domain for x in c.scope]
    if isinstance(c, Linear):
        accept = None if nested else _accepts(c.op, c.rhs)  # a reified sum keeps every state
        if diagram.layers(domains, _summing(c.weights), 0, accept=accept,
                          limit=MAX_TRANSITIONS) is None:
            return (f"{c.describe()} has over {MAX_TRANSITIONS:,} (partial sum, value) "
                    "transitions in sat's encoding of sums")
    if isinstance(c, Regular) and c.scope:
        if diagram.layers(domains, automaton(c), frozenset({c.start}),
                          limit=MAX_TRANSITIONS) is None:
            return (f"{c.describe()} has over {MAX_TRANSITIONS:,} (states, value) "
                    "transitions in sat's encoding of automata")
    return None


__all__ = ["PAIRWISE", "Cnf", "MAX_LITERALS", "MAX_TRANSITIONS", "Unsatisfiable", "encode",
           "refusal", "sum_layers"]
