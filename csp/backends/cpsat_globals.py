"""The model language beyond the core kinds, as CP-SAT constraints: logic and
reification, arithmetic, the functions and the globals CP-SAT has.

`cpsat` (`csp.backends.cpsat`) compiles all-different, sums, tables and
(in)equalities itself and hands every other constraint to a `Translator`:

- logic: a literal per operand (a boolean variable as it is; a `Compare` or a
  `Linear` reified with enforcement literals both ways), then CP-SAT's
  `bool_and`, `bool_or`, `bool_xor` and implications; nested logic reified the
  same way;
- a comparison of expressions: each function becomes a CP-SAT variable with
  its equality (`add_multiplication_equality`, `add_abs_equality`,
  `add_min_equality`, `add_max_equality`, `add_element`; counts as sums of
  reified equalities; division and remainder as `x == q * y + r` with the
  remainder's sign and size bounded, which gives both Python's floor
  semantics and the field's truncation); constraints inside count 0 or 1
  through their literal;
- `AllEqual`, `Increasing`, `Decreasing`: linear; `Regular`:
  `add_automaton` on the automaton made deterministic; `Circuit`:
  `add_circuit` with a literal per arc; `Inverse`: `add_inverse`.

The kinds CP-SAT has no constraint for (`GlobalCardinality`, `Lex`,
`AllDifferentExcept`, `Connected`) are decomposed by the dispatch layer into
ones it has. An `Element` index is confined to the array's range: only a
comparison that must hold reaches CP-SAT with one (inside logic, the
dispatch layer reifies it, out-of-range included, before).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ortools.sat.python import cp_model

from csp.constraints import Compare, Constraint, Expression, Linear, Term
from csp.decompose import deterministic
from csp.expressions import (
    Abs,
    Comparison,
    Count,
    Div,
    Element,
    Function,
    Maximum,
    Minimum,
    Mod,
    NValue,
    Times,
)
from csp.global_constraints import AllEqual, Circuit, Increasing, Inverse, Regular
from csp.logic import And, Iff, Implies, Logic, Not, Or, Xor

KINDS = frozenset({"Logic", "SumNotEqual", "Intension", "Element", "Count", "NValue", "Minimum",
                   "Maximum", "Abs", "Times", "Div", "Mod", "AllEqual", "Increasing",
                   "Decreasing", "Regular", "Circuit", "Inverse"})
"""The kinds beyond the core that `cpsat` takes as they are."""


class Translator:
    """Adds the constraints of a `Model` beyond the core kinds to a CP-SAT model.

    `value_of(name)` is the CP-SAT variable holding a variable's value;
    `literal_of(compare)` the literal of a `Compare` (the compiler's, which
    knows its rank encoding).
    """

    def __init__(self, model: cp_model.CpModel, domains: dict[Hashable, tuple[int, ...]],
                 value_of: Callable[[Hashable], Any],
                 compare: Callable[[Compare], Any]) -> None:
        self.model = model
        self.domains = domains
        self.value_of = value_of
        self.compare = compare  # the literal of a Compare

    # -- literals ---------------------------------------------------------------------

    def literal(self, c: Constraint) -> Any:
        """A CP-SAT literal equal to the truth of `c`."""
        if isinstance(c, Compare):
            return self.compare(c)
        if isinstance(c, Linear):
            b = self.model.new_bool_var("")
            total = self._sum(c.scope, c.weights)
            self.model.add(_relation(total, c.op, c.rhs)).only_enforce_if(b)
            self.model.add(_relation(total, _NEGATED[c.op], c.rhs)).only_enforce_if(b.Not())
            return b
        if isinstance(c, Logic):
            return self._reified_logic(c)
        raise ValueError(f"cpsat: {c.describe()} is not a literal")  # dispatch reifies others

    def _reified_logic(self, c: Logic) -> Any:
        b = self.model.new_bool_var("")
        if isinstance(c, Not):
            self.model.add(b == 1 - self.literal(c.args[0]))
            return b
        if isinstance(c, Implies):
            c = Or([Not(c.args[0]), c.args[1]])
        literals = [self.literal(a) for a in c.args]
        if isinstance(c, And):
            self.model.add_bool_and(literals).only_enforce_if(b)
            self.model.add_bool_or([x.Not() for x in literals]).only_enforce_if(b.Not())
        elif isinstance(c, Or):
            self.model.add_bool_or(literals).only_enforce_if(b)
            self.model.add_bool_and([x.Not() for x in literals]).only_enforce_if(b.Not())
        elif isinstance(c, Xor):
            self.model.add_bool_xor([*literals, b.Not()])
        elif isinstance(c, Iff):
            self.model.add_bool_xor([*literals, b])
        return b

    # -- constraints --------------------------------------------------------------------

    def add(self, c: Constraint) -> None:
        """Add constraint `c` (of a kind in `KINDS`)."""
        if isinstance(c, Logic):
            self._logic(c)
        elif isinstance(c, Linear):  # `!=`
            self.model.add(self._sum(c.scope, c.weights) != c.rhs)
        elif isinstance(c, Comparison):
            left = self.expression(c.left)
            right = self.expression(c.right)
            self.model.add(_relation(left, c.op, right))
        elif isinstance(c, AllEqual):
            first = self.value_of(c.scope[0])
            for name in c.scope[1:]:
                self.model.add(self.value_of(name) == first)
        elif isinstance(c, Increasing):
            order = [self.value_of(x) for x in c.order()]
            gap = 1 if c.strict else 0
            for a, b in zip(order, order[1:]):
                self.model.add(b - a >= gap)
        elif isinstance(c, Regular):
            self._regular(c)
        elif isinstance(c, Circuit):
            self._circuit(c)
        elif isinstance(c, Inverse):
            self.model.add_inverse([self.value_of(x) for x in c.f],
                                   [self.value_of(x) for x in c.g])
        else:
            raise ValueError(f"cpsat: {c.describe()} is not a kind it takes")

    def _logic(self, c: Logic) -> None:
        if isinstance(c, And):
            for a in c.args:
                self._require(a)
        elif isinstance(c, Or):
            self.model.add_bool_or([self.literal(a) for a in c.args])
        elif isinstance(c, Not):
            self.model.add(self.literal(c.args[0]) == 0)
        elif isinstance(c, Implies):
            self.model.add_implication(self.literal(c.args[0]), self.literal(c.args[1]))
        elif isinstance(c, Xor):
            self.model.add_bool_xor([self.literal(a) for a in c.args])
        elif isinstance(c, Iff):
            left, right = (self.literal(a) for a in c.args)
            self.model.add(left == right)

    def _require(self, c: Constraint) -> None:
        if isinstance(c, Logic):
            self._logic(c)
        else:
            self.model.add(self.literal(c) == 1)

    def _regular(self, c: Regular) -> None:
        xs = [self.value_of(x) for x in c.scope]
        if not xs:
            if c.start not in c.accepting:
                self.model.add_bool_or([])
            return
        start, accepting, transitions = deterministic(c, [self.domains[x] for x in c.scope])
        if not accepting:
            self.model.add_bool_or([])
            return
        self.model.add_automaton(xs, start, accepting, transitions)

    def _circuit(self, c: Circuit) -> None:
        n = len(c.scope)
        if n == 1:
            self.model.add(self.value_of(c.scope[0]) == 0)
            return
        arcs = []
        for i, name in enumerate(c.scope):
            x = self.value_of(name)
            self.model.add(x != i)  # every node is on the circuit: no skipping arc
            for j in self.domains[name]:
                if j != i:
                    lit = self.model.new_bool_var("")
                    self.model.add(x == j).only_enforce_if(lit)
                    self.model.add(x != j).only_enforce_if(lit.Not())
                    arcs.append((i, j, lit))
        if arcs:  # none: every node can only be its own successor, refused just above
            self.model.add_circuit(arcs)

    # -- expressions ----------------------------------------------------------------------

    def _sum(self, names: Sequence[Hashable], weights: Sequence[int]) -> Any:
        return cp_model.LinearExpr.weighted_sum([self.value_of(x) for x in names],
                                                list(weights))

    def expression(self, e: Any) -> Any:
        """`e` as a CP-SAT linear expression (functions become variables)."""
        if isinstance(e, int):
            return e
        if isinstance(e, Term):
            return self.value_of(e.name)
        if isinstance(e, Expression):
            total: Any = e.constant
            for atom, weight in e.terms.items():
                if weight:
                    total = total + weight * self.expression(atom)
            return total
        if isinstance(e, Constraint):
            return self.literal(e)
        if isinstance(e, Function):
            return self._function(e)
        return self.value_of(e)

    def bounds(self, e: Any) -> tuple[int, int]:
        """Bounds on the values of `e`."""
        if isinstance(e, int):
            return e, e
        if isinstance(e, Term):
            d = self.domains[e.name]
            return d[0], d[-1]
        if isinstance(e, Expression):
            low = high = e.constant
            for atom, w in e.terms.items():
                a, b = self.bounds(atom)
                low += min(w * a, w * b)
                high += max(w * a, w * b)
            return low, high
        if isinstance(e, Constraint):
            return 0, 1
        if isinstance(e, Function):
            return self._function_bounds(e)
        d = self.domains[e]
        return d[0], d[-1]

    def _function_bounds(self, f: Function) -> tuple[int, int]:
        spans = [self.bounds(a) for a in f.args]
        if isinstance(f, Times):
            (a, b), (c, d) = spans
            corners = [a * c, a * d, b * c, b * d]
            return min(corners), max(corners)
        if isinstance(f, (Div, Mod)):
            big = max(abs(spans[0][0]), abs(spans[0][1]))
            if isinstance(f, Mod):
                # |x % d| < |d|; towards zero it is also at most |x|, but a
                # floor remainder is not (-1 % 6 == 5).
                most = max(abs(spans[1][0]), abs(spans[1][1])) - 1
                big = min(big, most) if f.rounding == "zero" else most
            return -big, big
        if isinstance(f, Abs):
            a, b = spans[0]
            return (0 if a <= 0 <= b else min(abs(a), abs(b))), max(abs(a), abs(b))
        if isinstance(f, Minimum):
            return min(s[0] for s in spans), min(s[1] for s in spans)
        if isinstance(f, Maximum):
            return max(s[0] for s in spans), max(s[1] for s in spans)
        if isinstance(f, Element):
            inside = spans[:-1]
            return min(s[0] for s in inside), max(s[1] for s in inside)
        if isinstance(f, Count):
            return 0, len(f.args) - 1
        if isinstance(f, NValue):
            return 1, len(f.args)
        raise ValueError(f"cpsat: unknown function {f.describe()}")

    def _function(self, f: Function) -> Any:
        low, high = self._function_bounds(f)
        y = self.model.new_int_var(low, high, "")
        args = [self.expression(a) for a in f.args]
        if isinstance(f, Times):
            self.model.add_multiplication_equality(y, args)
        elif isinstance(f, (Div, Mod)):
            self._division(f, args, y)
        elif isinstance(f, Abs):
            self.model.add_abs_equality(y, args[0])
        elif isinstance(f, Minimum):
            self.model.add_min_equality(y, args)
        elif isinstance(f, Maximum):
            self.model.add_max_equality(y, args)
        elif isinstance(f, Element):
            index = args[-1]
            n = len(args) - 1
            self.model.add(index >= 0)
            self.model.add(index <= n - 1)
            self.model.add_element(index, args[:-1], y)
        elif isinstance(f, Count):
            target = args[-1]
            self.model.add(y == sum(self._equal(a, target) for a in args[:-1]))
        elif isinstance(f, NValue):
            self._nvalue(f, args, y)
        return y

    def _equal(self, a: Any, b: Any) -> Any:
        """A literal true exactly when expressions `a` and `b` are equal."""
        lit = self.model.new_bool_var("")
        self.model.add(a == b).only_enforce_if(lit)
        self.model.add(a != b).only_enforce_if(lit.Not())
        return lit

    def _division(self, f: Div | Mod, args: list[Any], y: Any) -> None:
        """`x == q * d + r` with |r| < |d| and r of the sign of d (floor) or of
        x (towards zero): q is the quotient, r the remainder."""
        (xl, xh), (dl, dh) = (self.bounds(a) for a in f.args)
        x, d = args
        big = max(abs(xl), abs(xh))
        dbig = max(abs(dl), abs(dh))
        q = y if isinstance(f, Div) else self.model.new_int_var(-big, big, "")
        rbig = min(big, dbig) if f.rounding == "zero" else dbig  # -1 // 6: r == 5
        r = y if isinstance(f, Mod) else self.model.new_int_var(-rbig, rbig, "")
        product = self.model.new_int_var(-big - dbig, big + dbig, "")
        self.model.add_multiplication_equality(product, [q, d])
        self.model.add(x == product + r)
        size_r = self.model.new_int_var(0, dbig, "")
        size_d = self.model.new_int_var(1, dbig, "")
        self.model.add_abs_equality(size_r, r)
        self.model.add_abs_equality(size_d, d)
        self.model.add(size_r < size_d)
        sign = d if f.rounding == "floor" else x  # the remainder has this one's sign, or is 0
        signed = self.model.new_int_var(-dbig * max(big, dbig), dbig * max(big, dbig), "")
        self.model.add_multiplication_equality(signed, [r, sign])
        self.model.add(signed >= 0)

    def _nvalue(self, f: NValue, args: list[Any], y: Any) -> None:
        spans = [self.bounds(a) for a in f.args]
        low, high = min(s[0] for s in spans), max(s[1] for s in spans)
        used = []
        for value in range(low, high + 1):
            takers = [self._equal(a, value) for a, s in zip(args, spans) if s[0] <= value <= s[1]]
            if not takers:
                continue
            u = self.model.new_bool_var("")
            self.model.add_max_equality(u, takers)
            used.append(u)
        self.model.add(y == sum(used))


_NEGATED = {"==": "!=", "!=": "==", "<=": ">", ">=": "<", "<": ">=", ">": "<="}


def _relation(left: Any, op: str, right: Any) -> Any:
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    if op == "<=":
        return left <= right
    if op == ">=":
        return left >= right
    if op == "<":
        return left < right
    return left > right


__all__ = ["KINDS", "Translator"]
