"""Logic (`csp.logic`) for the bitmask kernel: clauses, parities and reified
constraints over *literals* (see `csp.backends.bitmask.clauses`).

A literal is (variable, mask): "the variable takes a value of the mask". A
comparison with a constant (`x == 3`, `x != 3`, a boolean `b`) is one for
free, and so is its negation. Any other operand gets a hidden boolean
variable equal to its truth (Tseitin's encoding, with both directions, so
that the boolean is a function of the declared variables and counts do not
change):

- `x == y` and `x != y` between variables: a reified equality;
- a `Linear` (==, !=, <=, >=): a reified sum (`reified`);
- `And`, `Or`, `Implies`: clauses; `Xor`, `Iff`: a parity.

At the top level a formula is *posted* (it must hold) with no boolean of its
own where it can be: `And` posts each operand, `Or` and `Implies` are one
clause, `Xor` one parity, `Iff` with a literal on one side defines the other
side by that literal (`b == (x + y <= 3)` is one reified sum over `b`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from csp.backends.bitmask.layout import (
    CLAUSE,
    OP_EQ,
    OP_GE,
    OP_LE,
    OP_NE,
    PARITY,
    REIFIED_EQUAL,
    REIFIED_LINEAR,
)
from csp.constraints import Compare, Constraint, Linear
from csp.errors import InputError
from csp.logic import And, Iff, Implies, Not, Or, Xor

if TYPE_CHECKING:
    from csp.backends.bitmask.compile import _Builder

Literal = tuple[int, int]
"""(variable, mask): the variable takes a value of the mask (a signed int64)."""

OPS = {"==": OP_EQ, "<=": OP_LE, ">=": OP_GE, "!=": OP_NE}


class Lowering:
    """Logic lowered into one builder's arrays (see the module)."""

    def __init__(self, builder: _Builder) -> None:
        self.b = builder
        self.truths: dict[int, tuple[Constraint, Literal]] = {}  # id -> (formula, literal)

    # -- literals -------------------------------------------------------------------------

    def negate(self, literal: Literal) -> Literal:
        x, m = literal
        return x, _full(len(self.b.layout[x])) & ~m

    def direct(self, f: Constraint) -> Literal | None:
        """The literal that `f` is, if it is one (no hidden variable needed)."""
        if isinstance(f, Compare) and f.constant is not None:
            x = self.b.index[f.scope[0]]
            k = self.b.bit_of[x].get(f.constant)
            literal = (x, 0 if k is None else _bit(k))
            return literal if f.op == "==" else self.negate(literal)
        if isinstance(f, Not):
            inner = self.direct(f.args[0])
            return None if inner is None else self.negate(inner)
        return None

    def literal(self, f: Constraint) -> Literal:
        """A literal equal to the truth of `f` (a hidden boolean if need be)."""
        found = self.direct(f)
        if found is not None:
            return found
        if isinstance(f, Not):
            return self.negate(self.literal(f.args[0]))
        known = self.truths.get(id(f))
        if known is not None:
            return known[1]
        truth = (self.b.hidden((0, 1), f"the truth of {f.describe()}"), _bit(1))
        self.truths[id(f)] = (f, truth)  # (keeps f alive: its id stays its own)
        self.define(f, truth)
        return truth

    # -- formulas -------------------------------------------------------------------------

    def define(self, f: Constraint, literal: Literal) -> None:
        """Constrain `literal` to equal the truth of `f`."""
        if isinstance(f, Compare):
            if f.constant is not None:
                self.equivalent(literal, self.literal(f))
            else:
                x, y = (self.b.index[name] for name in f.scope)
                self.reified_equal(literal if f.op == "==" else self.negate(literal), x, y)
        elif isinstance(f, Linear):
            self.reified_linear(f, literal)
        elif isinstance(f, Not):
            self.define(f.args[0], self.negate(literal))
        elif isinstance(f, And):  # literal -> each part; all parts -> literal
            parts = [self.literal(a) for a in f.args]
            for part in parts:
                self.clause([self.negate(literal), part])
            self.clause([literal, *map(self.negate, parts)])
        elif isinstance(f, (Or, Implies)):  # literal -> some part; each part -> literal
            parts = self.disjuncts(f)
            self.clause([self.negate(literal), *parts])
            for part in parts:
                self.clause([literal, self.negate(part)])
        elif isinstance(f, Xor):  # literal = the parity of the parts
            self.parity([literal, *(self.literal(a) for a in f.args)], odd=False)
        elif isinstance(f, Iff):  # literal = (left == right)
            self.parity([literal, *(self.literal(a) for a in f.args)], odd=True)
        else:
            raise InputError(f"the bitmask backend takes {f.describe()} inside logic only "
                             "decomposed: the dispatch layer should have done it")

    def disjuncts(self, f: Or | Implies) -> list[Literal]:
        if isinstance(f, Implies):
            return [self.negate(self.literal(f.args[0])), self.literal(f.args[1])]
        return [self.literal(a) for a in f.args]

    def post(self, f: Constraint) -> None:
        """Constrain `f` to hold."""
        literal = self.direct(f)
        if literal is not None:
            self.clause([literal])
        elif isinstance(f, (Compare, Linear)):
            self.b.add(f, [])
        elif isinstance(f, Not) and isinstance(f.args[0], (Compare, Linear)):
            self.b.add(_negation(f.args[0]), [])
        elif isinstance(f, Not):
            self.clause([self.negate(self.literal(f.args[0]))])
        elif isinstance(f, And):
            for part in f.args:
                self.post(part)
        elif isinstance(f, (Or, Implies)):
            self.clause(self.disjuncts(f))
        elif isinstance(f, Xor):
            self.parity([self.literal(a) for a in f.args], odd=True)
        elif isinstance(f, Iff):
            left, right = f.args
            if self.direct(left) is None and self.direct(right) is not None:
                left, right = right, left
            self.define(right, self.literal(left))
        else:
            raise InputError(f"the bitmask backend takes {f.describe()} inside logic only "
                             "decomposed: the dispatch layer should have done it")

    # -- what the kernel gets -------------------------------------------------------------

    def equivalent(self, a: Literal, b: Literal) -> None:
        self.clause([self.negate(a), b])
        self.clause([a, self.negate(b)])

    def clause(self, literals: list[Literal]) -> None:
        """At least one literal holds: literals of one variable merge (their
        masks' union); those true or false from the start are settled here."""
        merged: dict[int, int] = {}
        for x, m in literals:
            merged[x] = merged.get(x, 0) | m
        kept = []
        for x, m in merged.items():
            d = self.b.dom0[x]
            if d & ~m == 0:
                return  # true already
            if d & m != 0:
                kept.append((x, m))
        if not kept:
            self.b.feasible = False
        elif len(kept) == 1:
            x, m = kept[0]
            self.b.dom0[x] &= m
        else:
            self.b._emit(CLAUSE, [x for x, _ in kept], [m for _, m in kept])

    def parity(self, literals: list[Literal], *, odd: bool) -> None:
        """An odd (even) number of the literals hold: literals of one variable
        merge (x in S xor x in T is x in the symmetric difference)."""
        merged: dict[int, int] = {}
        for x, m in literals:
            merged[x] = merged.get(x, 0) ^ m
        kept = []
        for x, m in merged.items():
            d = self.b.dom0[x]
            if d & ~m == 0:
                odd = not odd
            elif d & m != 0:
                kept.append((x, m))
        if not kept:
            self.b.feasible &= not odd
        elif len(kept) == 1:
            literal = kept[0] if odd else self.negate(kept[0])
            self.b.dom0[literal[0]] &= literal[1]
        else:
            self.b._emit(PARITY, [x for x, _ in kept], [int(odd), *(m for _, m in kept)])

    def reified_linear(self, c: Linear, literal: Literal) -> None:
        weights, scope = self.b.terms(c, [self.b.index[name] for name in c.scope])
        if not scope:  # a constant truth
            holds = {"==": 0 == c.rhs, "!=": 0 != c.rhs, "<=": 0 <= c.rhs, ">=": 0 >= c.rhs}
            self.clause([literal if holds[c.op] else self.negate(literal)])
            return
        x, m = literal
        self.b._emit(REIFIED_LINEAR, [x, *scope], [OPS[c.op], c.rhs, m, *weights])

    def reified_equal(self, literal: Literal, x: int, y: int) -> None:
        layout, bit_of = self.b.layout, self.b.bit_of
        map_xy = [bit_of[y].get(v, -1) for v in layout[x]]
        map_yx = [bit_of[x].get(v, -1) for v in layout[y]]
        self.b._emit(REIFIED_EQUAL, [literal[0], x, y],
                     [literal[1], len(map_xy), len(map_yx), *map_xy, *map_yx])


def _negation(c: Compare | Linear) -> Constraint:
    """The comparison that holds exactly when `c` does not."""
    if isinstance(c, Compare):
        flipped = "!=" if c.op == "==" else "=="
        right: Any = c.constant if c.constant is not None else c.scope[1]
        negated = Compare(c.scope[0], flipped, right)
        negated.scope = c.scope  # names already resolved (a name may be an int)
        negated.constant = c.constant
        return negated
    op, rhs = {"==": ("!=", c.rhs), "!=": ("==", c.rhs), "<=": (">=", c.rhs + 1),
               ">=": ("<=", c.rhs - 1)}[c.op]
    return Linear(c.scope, c.weights, op, rhs)


def _bit(k: int) -> int:
    """Bit k as a signed int64 (bit 63 is the sign bit)."""
    return -(1 << 63) if k == 63 else 1 << k


def _full(n: int) -> int:
    """The mask of n values, as a signed int64 (all 64 bits is -1)."""
    return -1 if n == 64 else (1 << n) - 1
