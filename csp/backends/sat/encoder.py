"""A `Model`'s constraints as clauses over its one-hot literals: the core
kinds, logic and the truth of a constraint as a literal (see
`csp.backends.sat.cnf` for the encodings, `csp.backends.sat.globals` for the
global constraints and functions taken natively)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from csp.backends.sat import diagram
from csp.backends.sat.clauses import Cnf, Group, Unsatisfiable
from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table
from csp.expressions import OPERATORS
from csp.logic import And, Iff, Implies, Logic, Not, Or, Xor

NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
"""`not (a op b)` is `a NEGATED[op] b`."""


class TooLarge(Exception):
    """An encoding over the bounds of `csp.backends.sat.cnf` (refused before
    solving by `refusal`, which says why)."""


class Encoder:
    """Writes a model's constraints into `cnf`, given the one-hot literals
    of its variables (`value_literal[name][value]`)."""

    def __init__(self, cnf: Cnf, value_literal: dict[Hashable, Group], limit: int,
                 native: Callable[[Encoder, Constraint], bool] = lambda enc, c: False) -> None:
        self.cnf = cnf
        self.value_literal = value_literal
        self.limit = limit  # the most transitions of a layered diagram
        self.native = native  # encodes the other kinds it takes (`globals.post`)
        self._truths: dict[int, tuple[Constraint, int]] = {}

    # -- operands ----------------------------------------------------------------------

    def operand(self, e: Any) -> Group:
        """Like `group`, for an expression's operand: an int is a constant
        there (a constraint's operands hold `Variable`s, never names)."""
        if isinstance(e, int) and not isinstance(e, bool):
            return {e: self.cnf.true}
        return self.value_literal[e.name]

    # -- constraints that must hold ----------------------------------------------------

    def post(self, c: Constraint) -> None:
        if isinstance(c, AllDifferent):
            self.all_different([self.value_literal[x] for x in c.scope])
        elif isinstance(c, Linear):
            self.linear(c.weights, c.op, c.rhs, [self.value_literal[x] for x in c.scope])
        elif isinstance(c, Table):  # a Relation too: its tuples are expanded
            self.table(c, [self.value_literal[x] for x in c.scope])
        elif isinstance(c, Compare):
            self.compare(*self._sides(c), c.op)
        elif isinstance(c, Logic):
            self.logic(c)
        elif not self.native(self, c):  # dispatch gives only the kinds the backend declares
            raise TypeError(f"sat cannot encode {c.describe()}")

    def _sides(self, c: Compare) -> tuple[Group, Group]:
        x = self.value_literal[c.scope[0]]
        if c.constant is not None:
            return x, {c.constant: self.cnf.true}
        return x, self.value_literal[c.scope[1]]

    def all_different(self, literals: list[Group]) -> None:
        by_value: dict[int, list[int]] = {}
        for values in literals:
            for v, lit in values.items():
                by_value.setdefault(v, []).append(lit)
        if len(by_value) < len(literals):
            raise Unsatisfiable  # more variables than values between them
        for group in by_value.values():
            if len(by_value) == len(literals):
                self.cnf.exactly_one(group)
            else:
                self.cnf.at_most_one(group)

    def compare(self, x: Group, y: Group, op: str, guard: Sequence[int] = ()) -> None:
        """`x op y` holds (where the literals `guard` are all true)."""
        check = OPERATORS[op]
        unless = [-g for g in guard]
        if op == "==":  # each value implies the same value, both ways
            for v in x.keys() | y.keys():
                if v in x and v in y:
                    self.cnf.add([*unless, -x[v], y[v]])
                    self.cnf.add([*unless, x[v], -y[v]])
                else:
                    self.cnf.add([*unless, -(x[v] if v in x else y[v])])
            return
        if op == "!=":
            for v in x.keys() & y.keys():
                self.cnf.add([*unless, -x[v], -y[v]])
            return
        for v, lit in x.items():
            self.cnf.add([*unless, -lit, *(w_lit for w, w_lit in y.items() if check(v, w))])

    def linear(self, weights: Sequence[int], op: str, rhs: int, groups: list[Group]) -> None:
        """`sum(w * x) op rhs` holds (op one of == != <= >=)."""
        kept = diagram.layers([sorted(g) for g in groups], _summing(weights), 0,
                              accept=_accepts(op, rhs), limit=self.limit)
        if kept is None:  # refused before solving (`SATBackend.refuses`)
            raise TooLarge(f"a sum of {len(groups)} variables")
        diagram.post(self.cnf, groups, kept, _summing(weights))

    def table(self, c: Table, literals: list[Group]) -> None:
        cnf = self.cnf
        if c.forbidden:
            for row in c.tuples:
                if all(v in values for v, values in zip(row, literals)):
                    cnf.add([-values[v] for v, values in zip(row, literals)])
            return
        rows = [row for row in c.tuples
                if all(v in values for v, values in zip(row, literals))]
        if not rows:
            raise Unsatisfiable
        if len(literals) == 1:
            allowed = {row[0] for row in rows}
            cnf.clauses.extend([-lit] for v, lit in literals[0].items() if v not in allowed)
            return
        # One selector per row; the variables' values decide it (rows differ),
        # so "at least one" is enough.
        selectors = [cnf.new() for _ in rows]
        cnf.clauses.append(selectors)
        having: list[dict[int, list[int]]] = [{} for _ in literals]
        for selector, row in zip(selectors, rows):
            for i, v in enumerate(row):
                cnf.clauses.append([-selector, literals[i][v]])
                having[i].setdefault(v, []).append(selector)
        for i, values in enumerate(literals):
            for v, lit in values.items():
                cnf.clauses.append([-lit, *having[i].get(v, [])])  # no row has it: false

    # -- logic --------------------------------------------------------------------------

    def logic(self, c: Constraint, holds: bool = True) -> None:
        """`c` holds (or, `holds=False`, does not): at the top, clauses of the
        operands' literals, and no literal for `c` itself."""
        if isinstance(c, Compare):
            self.compare(*self._sides(c), c.op if holds else NEGATED[c.op])
        elif isinstance(c, Linear):
            op, rhs = (c.op, c.rhs) if holds else _negated(c.op, c.rhs)
            self.linear(c.weights, op, rhs, [self.value_literal[x] for x in c.scope])
        elif isinstance(c, Not):
            self.logic(c.args[0], not holds)
        elif isinstance(c, And) and holds or isinstance(c, Or) and not holds:
            for a in c.args:
                self.logic(a, holds)
        elif isinstance(c, Or):
            self.cnf.add([self.literal(a) for a in c.args])
        elif isinstance(c, And):
            self.cnf.add([-self.literal(a) for a in c.args])
        elif isinstance(c, Implies) and holds:
            self.cnf.add([-self.literal(c.args[0]), self.literal(c.args[1])])
        elif isinstance(c, Implies):
            self.logic(c.args[0], True)
            self.logic(c.args[1], False)
        elif isinstance(c, Iff):
            left, right = (self.literal(x) for x in c.args)
            self.cnf.equivalent(left, right if holds else -right)
        else:
            literal = self.literal(c)
            self.cnf.add([literal if holds else -literal])

    def literal(self, c: Constraint) -> int:
        """A literal equal to the truth of `c` (a `Compare`, a `Linear` or
        logic over them), a function of the variables' literals."""
        known = self._truths.get(id(c))
        if known is not None:
            return known[1]
        literal = self._literal(c)
        self._truths[id(c)] = (c, literal)  # keeps c, so that its id stays its own
        return literal

    def _literal(self, c: Constraint) -> int:
        cnf = self.cnf
        if isinstance(c, Compare):
            x, y = self._sides(c)
            equal = self.equal(x, y)
            return equal if c.op == "==" else -equal
        if isinstance(c, Linear):
            return self.linear_literal(c.weights, c.op, c.rhs,
                                       [self.value_literal[x] for x in c.scope])
        if isinstance(c, Not):
            return -self.literal(c.args[0])
        if isinstance(c, Or):
            return cnf.any_of([self.literal(a) for a in c.args])
        if isinstance(c, And):
            return cnf.all_of([self.literal(a) for a in c.args])
        if isinstance(c, Implies):
            return cnf.any_of([-self.literal(c.args[0]), self.literal(c.args[1])])
        if isinstance(c, Iff):
            return self.parity([self.literal(a) for a in c.args], odd=False)
        if isinstance(c, Xor):
            return self.parity([self.literal(a) for a in c.args], odd=True)
        raise TypeError(f"sat cannot take the truth of {c.describe()}")

    def equal(self, x: Group, y: Group) -> int:
        """A literal true exactly when the variables of `x` and `y` are equal."""
        common = x.keys() & y.keys()
        if not common:
            return -self.cnf.true
        if len(x) == 1 and len(y) == 1:
            return self.cnf.true
        if len(y) == 1 or len(x) == 1:  # a constant, or a variable of one value
            (v, lit), = (y if len(y) == 1 else x).items()
            other = x if len(y) == 1 else y
            return self.cnf.all_of([lit, other[v]])
        e = self.cnf.new()
        for v in x.keys() | y.keys():
            for mine, theirs in ((x, y), (y, x)):
                if v in mine:
                    self.cnf.add([-e, -mine[v], *([theirs[v]] if v in theirs else [])])
        for v in common:
            self.cnf.add([-x[v], -y[v], e])
        return e

    def related(self, x: Group, op: str, y: Group) -> int:
        """A literal true exactly when `x op y` (any of == != < <= > >=)."""
        if op in ("==", "!="):
            equal = self.equal(x, y)
            return equal if op == "==" else -equal
        check = OPERATORS[op]
        if len(y) == 1 or len(x) == 1:
            (c, lit), = (y if len(y) == 1 else x).items()
            other = x if len(y) == 1 else y
            fits = [v_lit for v, v_lit in other.items()
                    if (check(v, c) if len(y) == 1 else check(c, v))]
            return self.cnf.all_of([lit, self.cnf.any_of(fits)])
        e = self.cnf.new()
        for v, lit in x.items():
            self.cnf.add([-e, -lit, *(w_lit for w, w_lit in y.items() if check(v, w))])
            self.cnf.add([e, -lit, *(w_lit for w, w_lit in y.items() if not check(v, w))])
        return e

    def parity(self, literals: list[int], *, odd: bool) -> int:
        """A literal true exactly when an odd (`odd=False`: even) number of
        `literals` are: a chain of defined two-input xors."""
        acc = -self.cnf.true
        for literal in literals:
            acc = self._xor(acc, literal)
        return acc if odd else -acc

    def _xor(self, a: int, b: int) -> int:
        true = self.cnf.true
        if abs(a) == true:
            return -b if a == true else b
        e = self.cnf.new()
        self.cnf.clauses.extend(([-e, a, b], [-e, -a, -b], [e, -a, b], [e, a, -b]))
        return e

    def linear_literal(self, weights: Sequence[int], op: str, rhs: int,
                       groups: Sequence[Group]) -> int:
        """A literal true exactly when `sum(w * x) op rhs`: the sum's diagram
        with every reachable partial sum, its acceptance as the literal."""
        literal = diagram.reified(self.cnf, groups, [sorted(g) for g in groups],
                                  _summing(weights), 0, _accepts(op, rhs), self.limit)
        if literal is None:
            raise TooLarge(f"a reified sum of {len(groups)} variables")
        return literal


def _summing(weights: Sequence[int]) -> diagram.Step:
    return lambda k, s, v: s + weights[k] * v  # type: ignore[operator]


def _accepts(op: str, rhs: int) -> Callable[[Any], bool]:
    check = OPERATORS[op]
    return lambda s: check(s, rhs)


def _negated(op: str, rhs: int) -> tuple[str, int]:
    return {"==": ("!=", rhs), "!=": ("==", rhs), "<=": (">=", rhs + 1),
            ">=": ("<=", rhs - 1)}[op]


__all__ = ["NEGATED", "Encoder", "TooLarge"]
