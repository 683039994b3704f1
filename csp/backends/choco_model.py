"""A `Model` as a Choco model (pychoco), every kind of constraint by Choco's own.

Run in the `choco` backend's child process (`csp.backends.choco`): pychoco
is imported there. The map:

- a variable: an `intvar` over its domain (a bound pair where the domain is
  an interval), a `boolvar` where it is within {0, 1} (so that logic and
  `Connected` take it as it is);
- `AllDifferent`: `all_different` (arc consistency); `Sum`/`SumNotEqual`:
  `scalar`; `Table`: `table` (compact table; forbidden tuples: `table(...,
  feasible=False)`); `Compare`: `arithm`;
- `Logic`: each operand a `BoolVar` (a boolean variable as it is; a
  comparison or a sum reified, `Constraint.reify`), then `or_`, `and_`,
  negation views, parity by a sum and `mod`; nested logic reified the same
  way;
- a function compared with a variable or an int (the dispatch layer
  flattens any other expression into these, with defined auxiliary
  variables): its value is a new variable set by `times`, `div` and `mod`
  (truncating; floor division as `x == q*d + r` with `r` of the sign of
  `d`), `absolute`, `min`, `max`, `element`, `count`, `n_values`, compared
  by `arithm` (`NValue` by Choco's light at-most and at-least filterings:
  its default, "strong" one prunes solutions beside `all_different_except_0`);
- the globals: `all_equal`, `all_different_except_0` (on offset views for
  one excepted value; pairwise otherwise), `increasing`/`decreasing` (delta
  1 when strict), `lex_less`/`lex_less_eq`, `global_cardinality`,
  `regular` (the automaton made deterministic, over the values' ranks
  when they leave Choco's symbols 0..65535), `circuit`, `inverse_channeling`,
  and `Connected` as a node-induced graph variable whose nodes are the
  booleans, `graph_connected`.

Every auxiliary variable is a function of the declared ones, so Choco's
solutions are the model's, each once.

Choco aborts the process on an uncaught Java exception: every value it
gets is checked first (`refusal`, in the caller's process, before solving).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table, Term
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
from csp.logic import And, Iff, Implies, Logic, Not, Or, Xor
from csp.model import Model

BOUND = 21_474_836
"""Choco's `IntVar.MAX_INT_BOUND` (`Integer.MAX_VALUE / 100`): past it Choco
warns of "unexpected results" (its propagators compute in 32-bit ints)."""

INT32 = (1 << 31) - 1
"""A sum's partial sums must stay within a Java int."""

SYMBOLS = 65_535
"""Choco's automata take the symbols 0..65535."""

KINDS = frozenset({"Logic", "SumNotEqual", "Element", "Count", "NValue", "Minimum", "Maximum",
                   "Abs", "Times", "Div", "Mod", "AllEqual", "AllDifferentExcept", "Increasing",
                   "Decreasing", "Lex", "GlobalCardinality", "Regular", "Circuit", "Inverse",
                   "Connected"})
"""The kinds beyond the core that Choco takes as they are (an `Intension`,
any expression tree, reaches it flattened into these)."""

_OPS = {"==": "=", "!=": "!=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}


class Infeasible(Exception):
    """Raised while building: the model has no solution (an empty domain, a
    table with no tuple within the domains, an automaton that accepts nothing)."""


def span(values: Sequence[int]) -> tuple[int, int]:
    return min(values), max(values)


def function_span(f: Function, spans: list[tuple[int, int]]) -> tuple[int, int]:
    """Bounds on the values of `f` whose operands lie within `spans`."""
    if isinstance(f, Times):
        (a, b), (c, d) = spans
        corners = [a * c, a * d, b * c, b * d]
        return min(corners), max(corners)
    if isinstance(f, (Div, Mod)):
        big = max(abs(spans[0][0]), abs(spans[0][1]))
        if isinstance(f, Mod):  # |r| < |d|; only a truncated remainder is within |x|
            below_d = max(max(abs(spans[1][0]), abs(spans[1][1])) - 1, 0)
            big = min(big, below_d) if f.rounding == "zero" else below_d
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
    raise ValueError(f"choco: unknown function {f.describe()}")


def refusal(m: Model) -> str | None:
    """Why Choco cannot take `m` (a value past `BOUND`, a sum past a Java
    int), or None. Checked in the caller's process: Choco would abort its own."""
    domains = {name: v.domain for name, v in m.variables.items()}
    for name, domain in domains.items():
        if domain and (domain[0] < -BOUND or domain[-1] > BOUND):
            value = domain[0] if domain[0] < -BOUND else domain[-1]
            return (f"variable {name!r} has the value {value}, beyond Choco's bound of "
                    f"+-{BOUND:,}")
    for c in m.constraints:
        if isinstance(c, Linear):
            total = abs(c.rhs) + sum(abs(w) * max(abs(domains[x][0]), abs(domains[x][-1]))
                                     for w, x in zip(c.weights, c.scope) if domains[x])
            if total > INT32:
                return f"{c.describe()} reaches {total:,}, beyond Choco's 32-bit ints"
        elif isinstance(c, Compare) and c.constant is not None and abs(c.constant) > INT32:
            return f"{c.describe()} compares with {c.constant}, beyond Choco's 32-bit ints"
        elif isinstance(c, Comparison) and isinstance(c.left, Function):
            operands = [*c.left.args, c.right]
            if any(isinstance(a, Term) and not domains[a.name] for a in operands):
                continue
            spans = [_operand_span(a, domains) for a in c.left.args]
            low, high = function_span(c.left, spans)
            right = _operand_span(c.right, domains)
            if max(abs(low), abs(high), abs(right[0]), abs(right[1])) > BOUND:
                return (f"{c.describe()} takes values up to {max(abs(low), abs(high)):,}, "
                        f"beyond Choco's bound of +-{BOUND:,}")
    return None


def _operand_span(a: Any, domains: dict[Hashable, tuple[int, ...]]) -> tuple[int, int]:
    """The bounds of an operand of a bound function: a `Variable` or an int."""
    if isinstance(a, Term):
        return span(domains[a.name])
    return a, a


class Builder:
    """Builds the Choco model of a `Model` (in the child: imports pychoco)."""

    def __init__(self, m: Model) -> None:
        from pychoco import Model as ChocoModel

        self.source = m
        self.model = ChocoModel()
        self.domains = {name: v.domain for name, v in m.variables.items()}
        self.vars: dict[Hashable, Any] = {}
        for name, domain in self.domains.items():
            self.vars[name] = self._variable(domain)
        self.names = list(self.domains)
        for c in m.constraints:
            self.add(c)

    # -- variables ------------------------------------------------------------------------

    def _variable(self, domain: Sequence[int]) -> Any:
        if not domain:
            raise Infeasible
        if set(domain) <= {0, 1}:
            return self.model.boolvar() if len(domain) == 2 else self.model.boolvar(
                bool(domain[0]))
        if domain[-1] - domain[0] + 1 == len(domain):
            return self.model.intvar(domain[0], domain[-1])
        return self.model.intvar(list(domain))

    def var(self, a: Any) -> Any:
        """An operand of a bound function (a `Variable` or an int) as a Choco variable."""
        if isinstance(a, Term):
            return self.vars[a.name]
        return self.model.intvar(a)

    def _new(self, low: int, high: int) -> Any:
        return self.model.intvar(low, high)

    def _span(self, a: Any) -> tuple[int, int]:
        return _operand_span(a, self.domains)

    # -- constraints ----------------------------------------------------------------------

    def add(self, c: Constraint) -> None:
        m = self.model
        if isinstance(c, AllDifferent):
            if len(c.scope) > 1:
                m.all_different([self.vars[x] for x in c.scope]).post()
        elif isinstance(c, Linear):
            m.scalar([self.vars[x] for x in c.scope], list(c.weights), _OPS[c.op], c.rhs).post()
        elif isinstance(c, Table):  # a Relation too: its tuples are expanded
            self._table(c)
        elif isinstance(c, Compare):
            right = c.constant if c.constant is not None else self.vars[c.scope[1]]
            m.arithm(self.vars[c.scope[0]], _OPS[c.op], right).post()
        elif isinstance(c, Logic):
            self._logic(c)
        elif isinstance(c, Comparison):
            self._comparison(c)
        else:
            self._global(c)

    def _table(self, c: Table) -> None:
        if not c.scope:  # a constant: Choco's tables need a variable
            if not c.holds({}):
                raise Infeasible
            return
        sets = [set(self.domains[x]) for x in c.scope]
        rows = [list(t) for t in c.tuples if all(v in s for v, s in zip(t, sets))]
        xs = [self.vars[x] for x in c.scope]
        if c.forbidden:
            if rows:
                self.model.table(xs, rows, feasible=False).post()
            return
        if not rows:
            raise Infeasible
        if len(xs) == 1:
            self.model.member(xs[0], [r[0] for r in rows]).post()
        else:
            self.model.table(xs, rows).post()

    # -- logic ------------------------------------------------------------------------------

    def literal(self, c: Constraint) -> Any:
        """A `BoolVar` equal to the truth of `c` (a comparison, a sum, logic)."""
        m = self.model
        if isinstance(c, Compare):
            x = self.vars[c.scope[0]]
            if c.constant is not None and type(x).__name__ == "BoolVar" and c.constant in (0, 1):
                holds = (c.constant == 1) == (c.op == "==")
                return x if holds else m.bool_not_view(x)
            right = c.constant if c.constant is not None else self.vars[c.scope[1]]
            return m.arithm(x, _OPS[c.op], right).reify()
        if isinstance(c, Linear):
            return m.scalar([self.vars[x] for x in c.scope], list(c.weights), _OPS[c.op],
                            c.rhs).reify()
        if isinstance(c, Logic):
            return self._reified(c)
        raise ValueError(f"choco: {c.describe()} is not a literal")  # dispatch reifies others

    def _reified(self, c: Logic) -> Any:
        m = self.model
        if isinstance(c, Not):
            return m.bool_not_view(self.literal(c.args[0]))
        if isinstance(c, Implies):
            return m.or_([m.bool_not_view(self.literal(c.args[0])),
                          self.literal(c.args[1])]).reify()
        literals = [self.literal(a) for a in c.args]
        if not literals:  # Choco refuses an empty and_/or_: an empty And holds, Or not
            return m.boolvar(isinstance(c, And))
        if isinstance(c, And):
            return m.and_(literals).reify()
        if isinstance(c, Or):
            return m.or_(literals).reify()
        if isinstance(c, Iff):
            return m.arithm(literals[0], "=", literals[1]).reify()
        assert isinstance(c, Xor)
        return m.arithm(self._parity(literals), "=", 1).reify()

    def _parity(self, literals: list[Any]) -> Any:
        """A variable equal to the number of true literals, mod 2."""
        m = self.model
        if not literals:  # no operand: even (Choco refuses an empty sum)
            return m.boolvar(False)
        total = self._new(0, len(literals))
        m.sum(literals, "=", total).post()
        odd = self._new(0, 1)
        m.mod(total, 2, odd).post()
        return odd

    def _logic(self, c: Logic) -> None:
        m = self.model
        if isinstance(c, And):
            for a in c.args:
                if isinstance(a, Logic):
                    self._logic(a)
                else:
                    m.arithm(self.literal(a), "=", 1).post()
        elif isinstance(c, Or):
            if not c.args:  # false (Choco refuses an empty or_)
                m.arithm(self._new(0, 0), "=", 1).post()
            else:
                m.or_([self.literal(a) for a in c.args]).post()
        elif isinstance(c, Not):
            m.arithm(self.literal(c.args[0]), "=", 0).post()
        elif isinstance(c, Implies):
            m.or_([m.bool_not_view(self.literal(c.args[0])), self.literal(c.args[1])]).post()
        elif isinstance(c, Iff):
            left, right = (self.literal(a) for a in c.args)
            m.arithm(left, "=", right).post()
        elif isinstance(c, Xor):
            m.arithm(self._parity([self.literal(a) for a in c.args]), "=", 1).post()

    # -- functions ---------------------------------------------------------------------------

    def _comparison(self, c: Comparison) -> None:
        f = c.left
        if not isinstance(f, Function):  # the dispatch layer flattens anything else
            raise ValueError(f"choco: {c.describe()} is not a function compared")
        value = self.function(f)
        right = self.vars[c.right.name] if isinstance(c.right, Term) else c.right
        self.model.arithm(value, _OPS[c.op], right).post()

    def function(self, f: Function) -> Any:
        """A new variable equal to `f` of its (plain) operands."""
        m = self.model
        spans = [self._span(a) for a in f.args]
        low, high = function_span(f, spans)
        y = self._new(low, high)
        args = [self.var(a) for a in f.args]
        if isinstance(f, Times):
            m.times(args[0], args[1], y).post()
        elif isinstance(f, Div) and f.rounding == "zero":
            m.div(args[0], args[1], y).post()
        elif isinstance(f, Mod) and f.rounding == "zero":
            m.mod(args[0], args[1], y).post()
        elif isinstance(f, (Div, Mod)):
            self._floor_division(f, spans, args, y)
        elif isinstance(f, Abs):
            m.absolute(y, args[0]).post()
        elif isinstance(f, Minimum):
            m.min(y, args).post()
        elif isinstance(f, Maximum):
            m.max(y, args).post()
        elif isinstance(f, Element):
            if any(isinstance(a, Term) for a in f.array):
                m.element(y, args[:-1], args[-1]).post()
            else:
                m.element(y, list(f.array), args[-1]).post()
        elif isinstance(f, Count):
            target = self.vars[f.target.name] if isinstance(f.target, Term) else f.target
            m.count(target, args[:-1], y).post()
        elif isinstance(f, NValue):
            # Not Choco's `n_values`: its "strong" at-most filtering reads the
            # model's all-differents and takes `all_different_except_0` for a
            # plain one (pychoco 0.4.0: x0 = 0, x1 in 0..2, x2 in 0..1 with
            # both constraints loses (0, 0, 0)). The light filtering is exact.
            m.at_most_n_values(args, y, False).post()
            m.at_least_n_values(args, y).post()
        return y

    def _floor_division(self, f: Div | Mod, spans: list[tuple[int, int]], args: list[Any],
                        y: Any) -> None:
        """`x == q * d + r` with |r| < |d| and r * d >= 0: Python's floor
        division (q) and remainder (r), whichever `f` asks for is `y`."""
        m = self.model
        (xl, xh), (dl, dh) = spans
        x, d = args
        big = max(abs(xl), abs(xh))
        dbig = max(abs(dl), abs(dh))
        q = y if isinstance(f, Div) else self._new(-big, big)
        r = y if isinstance(f, Mod) else self._new(-dbig, dbig)  # -1 % 6 == 5: not within |x|
        product = self._new(-big - dbig, big + dbig)
        m.times(q, d, product).post()
        m.scalar([product, r], [1, 1], "=", x).post()
        size_r, size_d = self._new(0, dbig), self._new(1, dbig)
        m.absolute(size_r, r).post()
        m.absolute(size_d, d).post()
        m.arithm(size_r, "<", size_d).post()
        signed = self._new(-dbig * dbig, dbig * dbig)
        m.times(r, d, signed).post()
        m.arithm(signed, ">=", 0).post()

    # -- globals ------------------------------------------------------------------------------

    def _global(self, c: Constraint) -> None:
        m = self.model
        xs = [self.vars[x] for x in c.scope]
        if isinstance(c, AllEqual):
            if len(xs) > 1:
                m.all_equal(xs).post()
        elif isinstance(c, AllDifferentExcept):
            self._all_different_except(c, xs)
        elif isinstance(c, Increasing):  # Decreasing too: its order() is reversed
            order = [self.vars[x] for x in c.order()]
            if len(order) > 1:
                m.increasing(order, 1 if c.strict else 0).post()
        elif isinstance(c, LexLess):
            a, b = [self.vars[x] for x in c.a], [self.vars[x] for x in c.b]
            if not a:
                if c.strict:
                    raise Infeasible  # the empty tuple is not less than itself
            elif c.strict:
                m.lex_less(a, b).post()
            else:
                m.lex_less_eq(a, b).post()
        elif isinstance(c, GlobalCardinality):
            variables = [self.vars[x] for x in c.variables]
            counts = [self.model.intvar(k) if fixed else self.vars[k]
                      for k, fixed in zip(c.counts, c.fixed)]
            m.global_cardinality(variables, list(c.values), counts, closed=c.closed).post()
        elif isinstance(c, Regular):
            self._regular(c, xs)
        elif isinstance(c, Circuit):
            if len(xs) == 1:
                m.arithm(xs[0], "=", 0).post()  # one node, its own successor
            else:
                m.circuit(xs).post()
        elif isinstance(c, Inverse):
            m.inverse_channeling([self.vars[x] for x in c.f], [self.vars[x] for x in c.g]
                                 ).post()
        elif isinstance(c, Connected):
            self._connected(c, xs)
        else:
            raise ValueError(f"choco: {c.describe()} is not a kind it takes")

    def _all_different_except(self, c: AllDifferentExcept, xs: list[Any]) -> None:
        m = self.model
        if len(xs) < 2:
            return
        if len(c.excepted) == 1:
            (value,) = c.excepted
            shifted = xs if value == 0 else [m.int_offset_view(x, -value) for x in xs]
            m.all_different_except_0(shifted).post()
            return
        excepted = sorted(c.excepted)
        for i in range(len(xs)):
            for j in range(i + 1, len(xs)):
                m.or_([m.arithm(xs[i], "!=", xs[j]),
                       m.member(xs[i], excepted)]).post()

    def _regular(self, c: Regular, xs: list[Any]) -> None:
        from pychoco.objects.automaton.finite_automaton import FiniteAutomaton

        if not xs:
            if c.start not in c.accepting:
                raise Infeasible
            return
        domains = [self.domains[x] for x in c.scope]
        start, accepting, transitions = deterministic(c, domains)
        if not accepting:
            raise Infeasible
        symbols = sorted({v for d in domains for v in d})
        if symbols[0] >= 0 and symbols[-1] <= SYMBOLS:
            code = {v: v for v in symbols}
            words = xs
        elif symbols[-1] - symbols[0] <= SYMBOLS:
            code = {v: v - symbols[0] for v in symbols}
            words = [self.model.int_offset_view(x, -symbols[0]) for x in xs]
        else:  # the values' ranks, each a function of its variable
            code = {v: k for k, v in enumerate(symbols)}
            words = []
            for x, d in zip(xs, domains):
                rank = self._new(0, len(symbols) - 1)
                self.model.table([x, rank], [[v, code[v]] for v in d]).post()
                words.append(rank)
        automaton = FiniteAutomaton()
        states: dict[int, int] = {}

        def state(q: int) -> int:
            if q not in states:
                states[q] = automaton.add_state()
            return states[q]

        automaton.set_initial_state(state(start))
        for q, symbol, r in transitions:
            automaton.add_transition(state(q), state(r), code[symbol])  # type: ignore[arg-type]
        automaton.set_final(*(state(q) for q in accepting))  # type: ignore[arg-type]
        self.model.regular(words, automaton).post()

    def _connected(self, c: Connected, xs: list[Any]) -> None:
        from pychoco.objects.graphs.undirected_graph import UndirectedGraph

        n = len(xs)
        if n < 2:
            return
        lower = UndirectedGraph(self.model, n)
        upper = UndirectedGraph(self.model, n)
        for i in range(n):
            upper.add_node(i)
        for i, j in c.edges:
            upper.add_edge(i, j)
        # (pychoco 0.4 annotates these arguments narrower than what it takes and runs)
        graph = self.model.node_induced_graphvar(lower, upper,  # type: ignore[arg-type]
                                                 "connected")
        self.model.graph_nodes_channeling(graph, xs).post()
        self.model.graph_connected(graph).post()


__all__ = ["BOUND", "KINDS", "Builder", "Infeasible", "function_span", "refusal"]
