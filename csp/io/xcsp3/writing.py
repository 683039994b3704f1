"""A `Model` as an XCSP3 instance (`format`, `write`).

Variables keep their names where XCSP3 can: a name that is an identifier
(`x`, `row_3`) is a `<var>`, names of the form `x[3][4]` are the cells of an
`<array>` named `x`; any other name (an int, a tuple, `my var`) becomes
`v_1`, `v_2`, ... (`names(model)` gives the map, to read a solver's
solutions back). Each constraint is written as XCSP3's constraint of the
same meaning (`AllDifferent` an `allDifferent`, `Linear` a `sum`, `Table` an
`extension`, `Regular` a `regular`, `Inverse` a `channel`, a comparison of
`Element` an `element`, ...), and a logic or arithmetic constraint as an
`intension` tree:

- `//` and `%` (Python's, rounding down) in terms of XCSP3's `div` and `mod`
  (rounding towards zero: the remainder is `((a mod b) + b) mod b`);
  `Div(..., rounding="zero")` as `div`;
- `Element` inside an expression as a chain of `if`, the comparison holding
  only where its index is in range (the relational semantics);
- `Count` and `NValue` inside an expression as sums of truths, and
  `NValue` always so (ACE 2.6 miscounts `nValues` with `(eq, k)`);
  `Minimum`/`Maximum` compared with `!=` as "less or greater" (ACE takes
  no `ne` condition on them, nor on a tree it reads as one);
- a constraint inside logic as its tree (`AllDifferent` an n-ary `ne`,
  `Table` a disjunction of its tuples, ...);
- `Circuit` as XCSP3's `circuit` (a subcircuit there) with every node kept
  off its own loop.

`Connected` has no XCSP3 form, nor has `Regular` or `Circuit` inside logic:
writing them is an `InputError`.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Expression, Linear, Table, Term
from csp.errors import InputError
from csp.expressions import (
    OPERATORS,
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
    Decreasing,
    GlobalCardinality,
    Increasing,
    Inverse,
    LexLess,
    Regular,
)
from csp.io.folding import fresh_names
from csp.logic import And, Iff, Implies, Not, Or, Xor
from csp.model import Model

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
CELL = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)((?:\[\d+\])+)$")
FOLD_TUPLES = 256
"""`format(fold=True)` tries every tuple of a constraint over two variables
or more where there are at most this many."""
FOLD_VALUES = 4096
"""... and every value of a constraint over one variable, up to this many."""
OPS = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def names(model: Model) -> dict[Hashable, str]:
    """The XCSP3 id of each variable of `model` (see the module)."""
    out: dict[Hashable, str] = {}
    arrays: dict[str, set[int]] = {}
    plain = {name for name in model.variables if isinstance(name, str) and IDENTIFIER.match(name)}
    for name in model.variables:
        cell = CELL.match(name) if isinstance(name, str) else None
        if cell:
            arrays.setdefault(cell[1], set()).add(cell[2].count("["))
    arrays = {a: dims for a, dims in arrays.items() if len(dims) == 1 and a not in plain}
    fresh = fresh_names("v_", set(plain) | set(arrays))
    for name in model.variables:
        cell = CELL.match(name) if isinstance(name, str) else None
        kept = name in plain or (cell is not None and cell[1] in arrays)
        out[name] = name if kept else next(fresh)  # type: ignore[assignment]
    return out


def format(model: Model, *, common_domains: bool = False, fold: bool = False) -> str:
    """The XCSP3 text of `model`. With `common_domains`, the variables that
    all-different constraints (or either side of a channel) link are
    declared over the union of their domains, each one's own domain kept by
    a unary table: ACE 2.6 fails on an all-different over different domains
    (an index out of bounds in the tables it makes of it: "ERROR" and no
    answer), and on a channel's ("pb with" the element constraints it
    makes).

    With `fold`, the degenerate constraints are written in forms ACE 2.6
    takes, each exactly, found by trying every tuple of the constraint's
    variables where there are few (`FOLD_TUPLES`, `FOLD_VALUES` for one
    free variable): one that the domains decide (no tuple satisfies it, or
    every one does) as that constant; one with a single free variable (of
    more than one value), or with a fixed one in its scope, as the table of
    its free variables' values that satisfy it. ACE stops on such forms ("a
    constraint with only conflicts", a lex of a list with itself, an
    all-equal of one variable, "pb with" a channel or a division with a
    fixed operand). Also with `fold`, a `Count` leaves out the variables that
    cannot take its value (ACE stops on a count of none), counts and
    cardinalities are trees (ACE stops on a count of one variable, of a
    variable's value, with (ne, 0), or on a cardinality of a value fewer
    than two variables can take), and a product
    `x * y` is written `mul(x,y,1)`: ACE 2.6 counts `x * y >= k` wrong where
    a factor may be negative (4 solutions of `ge(mul(a,b),-3)` over a in
    {3, 4} and b in {-2, -1}, where 1 holds) and stops on `x * y == k` and
    on `x * y >= z`; it reads the product of three as it is. And a lex
    leaves out the places where a variable meets itself, a comparison of a
    minimum or maximum is written as comparisons of its variables
    (`_extremum`), a table that allows nothing is the constant, and a tree
    in which a variable occurs twice (ACE: "! ERROR: 2 vs 3") is the table
    of its supports where it has few tuples (bench/RESULTS.md, issue 24)."""
    ids = names(model)
    widened = _common_domains(model) if common_domains else {}
    lines = ['<instance format="XCSP3" type="CSP">', "  <variables>"]
    lines += _variables(model, ids, widened)
    lines += ["  </variables>", "  <constraints>"]
    lines += [f"    <extension> <list> {ids[name]} </list> <supports> "
              f"{domain_text(model.variables[name].domain)} </supports> </extension>"
              for name in widened]
    writer = _Writer(model, ids, fold=fold)
    for constraint in model.constraints:
        lines += ["    " + text for text in writer.constraint(constraint)]
    lines += ["  </constraints>", "</instance>", ""]
    return "\n".join(lines)


def write(model: Model, path: str | os.PathLike[str], *,
          common_domains: bool = False, fold: bool = False) -> dict[Hashable, str]:
    """Write `model` to `path` as XCSP3 (`format`); return the id of each
    variable."""
    text = format(model, common_domains=common_domains, fold=fold)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return names(model)


def _common_domains(model: Model) -> dict[Hashable, tuple[int, ...]]:
    """Variable -> the union of the domains of the variables all-different
    constraints (and channels' sides) link it to (transitively), where that differs from its own."""
    parent: dict[Hashable, Hashable] = {}

    def root(x: Hashable) -> Hashable:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    lists: list[Sequence[Hashable]] = [c.scope for c in model.constraints
                                       if isinstance(c, (AllDifferent, AllDifferentExcept))]
    lists += [xs for c in model.constraints if isinstance(c, Inverse) for xs in (c.f, c.g)]
    for scope in lists:
        names_ = [x.name if isinstance(x, Term) else x for x in scope]
        for name in names_:
            parent.setdefault(name, name)
        for name in names_[1:]:
            parent[root(name)] = root(names_[0])
    groups: dict[Hashable, set[int]] = {}
    for name in parent:
        groups.setdefault(root(name), set()).update(model.variables[name].domain)
    out = {}
    for name in parent:
        union = tuple(sorted(groups[root(name)]))
        if union != tuple(model.variables[name].domain):
            out[name] = union
    return out


def domain_text(values: Sequence[int]) -> str:
    """`values` (sorted) as XCSP3 writes a domain: intervals `a..b` and values.

    >>> domain_text([1, 2, 3, 5, 7, 8])
    '1..3 5 7..8'
    """
    parts = []
    k = 0
    while k < len(values):
        j = k
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(str(values[k]) if j == k else f"{values[k]}..{values[j]}")
        k = j + 1
    return " ".join(parts)


def _variables(model: Model, ids: dict[Hashable, str],
               widened: dict[Hashable, tuple[int, ...]]) -> list[str]:
    out = []
    cells: dict[str, list[tuple[tuple[int, ...], str, tuple[int, ...]]]] = {}
    order: list[tuple[str, str]] = []
    for name, variable in model.variables.items():
        xid = ids[name]
        cell = CELL.match(xid)
        if cell:
            if cell[1] not in cells:
                order.append(("array", cell[1]))
                cells[cell[1]] = []
            index = tuple(int(i) for i in re.findall(r"\d+", cell[2]))
            cells[cell[1]].append((index, xid, widened.get(name, variable.domain)))
        else:
            order.append(("var", xid))
    by_id = {ids[name]: widened.get(name, v.domain) for name, v in model.variables.items()}
    empty = [name for name, v in model.variables.items() if not v.domain]
    if empty:
        raise InputError(f"the variable {empty[0]!r} has an empty domain, which XCSP3 cannot "
                         "declare", token=empty[0])
    for what, xid in order:
        if what == "var":
            out.append(f'    <var id="{xid}"> {domain_text(by_id[xid])} </var>')
            continue
        members = cells[xid]
        size = [max(index[d] for index, _, _ in members) + 1 for d in range(len(members[0][0]))]
        sizes = "".join(f"[{n}]" for n in size)
        domains = {domain for _, _, domain in members}
        full = len(members) == _product(size)
        if full and len(domains) == 1:
            out.append(f'    <array id="{xid}" size="{sizes}"> '
                       f'{domain_text(members[0][2])} </array>')
            continue
        out.append(f'    <array id="{xid}" size="{sizes}">')
        grouped: dict[tuple[int, ...], list[str]] = {}
        for _, cid, domain in members:
            grouped.setdefault(domain, []).append(cid)
        for domain, cids in grouped.items():
            out.append(f'      <domain for="{" ".join(cids)}"> {domain_text(domain)} </domain>')
        out.append("    </array>")
    return out


def negation(tree: str) -> str:
    """`not(tree)`, folded where `tree` is a constant."""
    return {"0": "1", "1": "0"}.get(tree, f"not({tree})")


def connective(name: str, args: list[str]) -> str:
    """The tree of `name` (and, or, xor, iff) over `args`, with constant
    operands folded away: ACE stops on a constant that reaches it ("Constraint
    with only conflicts"), and XCSP3's connectives take two operands or more.

    >>> connective("or", ["0", "eq(x,1)"]), connective("and", ["1", "0"])
    ('eq(x,1)', '0')
    >>> connective("xor", ["1", "eq(x,1)"]), connective("iff", ["0", "eq(x,1)"])
    ('not(eq(x,1))', 'not(eq(x,1))')
    """
    if name == "iff":  # a chain of equivalences: all true or all false
        if len(set(args)) <= 1:
            return "1"
        if "0" in args and "1" in args:
            return "0"
        if "1" in args:
            return connective("and", [a for a in args if a != "1"])
        if "0" in args:
            return connective("and", [negation(a) for a in args if a != "0"])
        return f"iff({','.join(args)})"
    unit, zero = {"and": ("1", "0"), "or": ("0", "1"), "xor": ("0", None)}[name]
    if zero is not None and zero in args:
        return zero
    odd = name == "xor" and args.count("1") % 2 == 1
    rest = [a for a in args if a not in ("0", "1")]
    tree = unit if not rest else rest[0] if len(rest) == 1 else f"{name}({','.join(rest)})"
    return negation(tree) if odd else tree


def _product(values: Iterable[int]) -> int:
    total = 1
    for v in values:
        total *= v
    return total


class _Writer:
    """Constraints as XCSP3 elements, and expressions as its trees."""

    def __init__(self, model: Model, ids: dict[Hashable, str], *, fold: bool = False) -> None:
        self.model = model
        self.ids = ids
        self.fold = fold

    def id(self, v: Any) -> str:
        name = v.name if isinstance(v, Term) else v
        return self.ids[name]

    def refs(self, items: Iterable[Any]) -> str:
        return " ".join(self.id(v) for v in items)

    # -- constraints as elements ------------------------------------------------------------

    def constraint(self, c: Constraint) -> list[str]:
        if not c.scope:  # a constant (an empty all-different, sum, ...): ACE stops on it
            return [] if c.holds({}) else self.never()
        if self.fold:
            decided = self._decided(c)
            if decided is not None:
                return decided
        for kind, write in self._globals():
            if isinstance(c, kind):
                return write(c)
        if isinstance(c, Comparison) and isinstance(c.left, Function) and c.left.plain() \
                and _plain(c.right):
            special = self._function(c)
            if special is not None:
                return special
        truth = self.truth(c)
        if truth == "1":  # an empty And, say: it always holds
            return []
        if truth == "0":
            return self.never()
        return self._intension(c, truth)

    def _intension(self, c: Constraint, truth: str) -> list[str]:
        """`c` as the tree `truth`; with `fold`, as the table of its supports
        where a variable occurs twice in the tree (ACE: "! ERROR: 2 vs 3")
        and it has few tuples."""
        if self.fold and _repeats(truth, set(self.ids.values())):
            table = self._decided(c, every=True)
            if table is not None:
                return table
        return [f"<intension> {truth} </intension>"]

    def never(self) -> list[str]:
        """A constraint that never holds. ACE stops on a constant, or on a
        comparison it tables with no support ("Constraint with only
        conflicts"); an equation with no solution it reads as it is."""
        if not self.model.variables:
            return ["<intension> 0 </intension>"]
        v = self.id(next(iter(self.model.variables)))
        return [f"<intension> eq({v},add({v},1)) </intension>"]

    def _decided(self, c: Constraint, every: bool = False) -> list[str] | None:
        """`c` over its free variables (those of more than one value) as the
        table of their values that satisfy it, where a fixed variable is in
        its scope or it has one free variable, and as the constant it is
        where its domains decide it; None where it has too many tuples to
        try, or none of that applies (see `format`'s `fold`)."""
        scope = list(dict.fromkeys(x.name if isinstance(x, Term) else x for x in c.scope))
        domains = [self.model.variables[name].domain for name in scope]
        free = [k for k, d in enumerate(domains) if len(d) > 1]
        tuples = _product(len(d) for d in domains)
        if tuples > (FOLD_VALUES if len(free) <= 1 else FOLD_TUPLES):
            return None
        held = {tuple(values[k] for k in free) for values in itertools.product(*domains)
                if c.holds(dict(zip(scope, values)))}
        if len(held) == tuples:
            return []
        if not held:
            return self.never()
        if len(free) == len(scope) > 1 and not every:
            return None  # not degenerate: ACE reads it as it is
        xs = self.refs(scope[k] for k in free)
        rows = " ".join(str(t[0]) for t in sorted(held)) if len(free) == 1 else \
            "".join(f"({','.join(map(str, t))})" for t in sorted(held))
        return [f"<extension> <list> {xs} </list> <supports> {rows} </supports> </extension>"]

    def _globals(self) -> list[tuple[type, Callable[[Any], list[str]]]]:
        return [(AllDifferentExcept, self._all_different_except),
                (AllDifferent, lambda c: [f"<allDifferent> {self.refs(c.scope)} </allDifferent>"]),
                (Linear, self._sum), (Table, self._table),
                (AllEqual, lambda c: [f"<allEqual> {self.refs(c.scope)} </allEqual>"]),
                (Increasing, self._ordered), (LexLess, self._lex),
                (GlobalCardinality, self._cardinality), (Regular, self._regular),
                (Circuit, self._circuit), (Inverse, self._channel)]

    def _all_different_except(self, c: AllDifferentExcept) -> list[str]:
        return [f"<allDifferent> <list> {self.refs(c.scope)} </list> "
                f"<except> {' '.join(map(str, sorted(c.excepted)))} </except> </allDifferent>"]

    def _sum(self, c: Linear) -> list[str]:
        terms = [(x, w) for x, w in zip(c.scope, c.weights) if w != 0]  # ACE stops on a 0
        if not terms:
            return [] if OPERATORS[c.op](0, c.rhs) else self.constraint(Or([]))
        scope, weights = [x for x, _ in terms], [w for _, w in terms]
        coeffs = "" if all(w == 1 for w in weights) else \
            f" <coeffs> {' '.join(map(str, weights))} </coeffs>"
        return [f"<sum> <list> {self.refs(scope)} </list>{coeffs} "
                f"<condition> ({OPS[c.op]},{c.rhs}) </condition> </sum>"]

    def _table(self, c: Table) -> list[str]:
        tag = "conflicts" if c.forbidden else "supports"
        tuples = list(c.tuples)
        if self.fold:  # ACE stops on a table that allows nothing
            domains = [set(self.model.variables[x].domain) for x in c.scope]
            tuples = [t for t in tuples if all(v in d for v, d in zip(t, domains))]
            everything = _product(len(d) for d in domains)
            if not c.forbidden and not tuples or c.forbidden and len(set(tuples)) == everything:
                return self.never()
        if len(c.scope) == 1:
            rows = " ".join(str(t[0]) for t in tuples)
        else:
            rows = "".join(f"({','.join(map(str, t))})" for t in tuples)
        return [f"<extension> <list> {self.refs(c.scope)} </list> <{tag}> {rows} </{tag}> "
                "</extension>"]

    def _ordered(self, c: Increasing) -> list[str]:
        up = not isinstance(c, Decreasing)
        op = ("lt" if c.strict else "le") if up else ("gt" if c.strict else "ge")
        return [f"<ordered> <list> {self.refs(c.scope)} </list> <operator> {op} </operator> "
                "</ordered>"]

    def _lex(self, c: LexLess) -> list[str]:
        op = "lt" if c.strict else "le"
        pairs = list(zip(c.a, c.b))
        if self.fold:  # a variable against itself is equal there: ACE stops on it
            pairs = [(x, y) for x, y in pairs if self.id(x) != self.id(y)]
            if not pairs:
                return self.never() if c.strict else []
            if len(pairs) == 1:
                return [f"<intension> {op}({self.id(pairs[0][0])},{self.id(pairs[0][1])}) "
                        "</intension>"]
        a, b = [x for x, _ in pairs], [y for _, y in pairs]
        return [f"<lex> <list> {self.refs(a)} </list> <list> {self.refs(b)} </list> "
                f"<operator> {op} </operator> </lex>"]

    def _cardinality(self, c: GlobalCardinality) -> list[str]:
        if self.fold:  # ACE stops on a value fewer than two variables can take
            return self._intension(c, self.truth(c))
        # XCSP3's occurs are all integers or all variables: one cardinality each
        xs = self.refs(c.variables)
        out = []
        for fixed in (True, False):
            pairs = [(v, k) for v, k, f in zip(c.values, c.counts, c.fixed) if f == fixed]
            if not pairs:
                continue
            closed = ' closed="true"' if c.closed and len(pairs) == len(c.values) else ""
            occurs = " ".join(str(k) if fixed else self.id(k) for _, k in pairs)
            out.append(f"<cardinality> <list> {xs} </list> <values{closed}> "
                       f"{' '.join(str(v) for v, _ in pairs)} </values> <occurs> {occurs} "
                       "</occurs> </cardinality>")
        if c.closed and len(out) > 1:
            out += [f"<intension> {_member(self.id(x), c.values)} </intension>"
                    for x in c.variables]
        return out

    def _regular(self, c: Regular) -> list[str]:
        states = {q: f"q{k}" for k, q in enumerate(_ordered_states(c))}
        transitions = "".join(f"({states[q]},{v},{states[r]})" for q, v, r in c.transitions)
        final = " ".join(states[q] for q in sorted(c.accepting, key=str) if q in states)
        start = states.get(c.start, "q_start")
        return [f"<regular> <list> {self.refs(c.scope)} </list> <transitions> {transitions} "
                f"</transitions> <start> {start} </start> <final> {final} </final> </regular>"]

    def _circuit(self, c: Circuit) -> list[str]:
        out = [f"<circuit> {self.refs(c.scope)} </circuit>"]
        for i, x in enumerate(c.scope):  # XCSP3's circuit lets a node loop (off the circuit)
            if i in self.model.variables[x].domain:
                out.append(f"<intension> ne({self.id(x)},{i}) </intension>")
        return out

    def _channel(self, c: Inverse) -> list[str]:
        return [f"<channel> <list> {self.refs(c.f)} </list> <list> {self.refs(c.g)} </list> "
                "</channel>"]

    def _function(self, c: Comparison) -> list[str] | None:
        f = c.left
        condition = f"<condition> ({OPS[c.op]},{self.operand(c.right)}) </condition>"
        uniform = all(isinstance(a, Term) for a in f.args[:-1]) or \
            all(_is_int(a) for a in f.args[:-1])
        if isinstance(f, Element) and uniform and isinstance(f.index, Term):
            return [f"<element> <list> {' '.join(self.operand(a) for a in f.array)} </list> "
                    f"<index> {self.id(f.index)} </index> {condition} </element>"]
        if isinstance(f, Count) and all(isinstance(a, Term) for a in f.items):
            reach = set(self._values(f.target))
            items = [a for a in f.items if not self.fold or reach & set(self._values(a))]
            if not items:  # no variable can take the value: the count is 0
                if _is_int(c.right):
                    return [] if OPERATORS[c.op](0, c.right) else self.never()
                return [f"<intension> {OPS[c.op]}(0,{self.id(c.right)}) </intension>"]
            if self.fold:
                return None  # ACE stops on counts of one, of a variable, (ne, 0): a tree
            return [f"<count> <list> {self.refs(items)} </list> <values> "
                    f"{self.operand(f.target)} </values> {condition} </count>"]
        # ACE 2.6 takes minimum and maximum with no ne condition, and miscounts
        # nValues with (eq, k): those are written as intension trees.
        extremum = isinstance(f, (Minimum, Maximum)) and all(isinstance(a, Term) for a in f.args)
        if extremum and self.fold:
            least = isinstance(f, Minimum)
            tree = _extremum(least, c.op, [self.id(a) for a in f.args], self.operand(c.right))
            return [] if tree == "1" else self.never() if tree == "0" else \
                self._intension(c, tree)
        if extremum and c.op != "!=":
            tag = "minimum" if isinstance(f, Minimum) else "maximum"
            return [f"<{tag}> <list> {self.refs(f.args)} </list> {condition} </{tag}>"]
        return None

    # -- trees ---------------------------------------------------------------------------------

    def operand(self, v: Any) -> str:
        return str(v) if _is_int(v) else self.id(v)

    def truth(self, c: Constraint) -> str:
        """The XCSP3 tree of constraint `c` (a predicate)."""
        if isinstance(c, Compare):
            right = c.constant if c.constant is not None else self.id(c.scope[1])
            return f"{OPS[c.op]}({self.id(c.scope[0])},{right})"
        if isinstance(c, Linear):
            return f"{OPS[c.op]}({self._weighted(c.scope, c.weights)},{c.rhs})"
        if isinstance(c, Comparison):
            guards = [f"ge({self.integer(e.index)},0),lt({self.integer(e.index)},{len(e.array)})"
                      for e in _elements(c.left) + _elements(c.right)]
            left, right = self.integer(c.left), self.integer(c.right)
            test = f"{OPS[c.op]}({left},{right})"
            if c.op == "!=" and isinstance(c.left, (Minimum, Maximum)):
                test = f"or(lt({left},{right}),gt({left},{right}))"  # ACE: no ne on them
            return f"and({','.join(guards)},{test})" if guards else test
        if isinstance(c, (And, Or, Xor, Iff)):
            name = {And: "and", Or: "or", Xor: "xor", Iff: "iff"}[type(c)]
            return connective(name, [self.truth(a) for a in c.args])
        if isinstance(c, Not):
            return negation(self.truth(c.args[0]))
        if isinstance(c, Implies):
            a, b = self.truth(c.args[0]), self.truth(c.args[1])
            if {a, b} & {"0", "1"}:
                return connective("or", [negation(a), b])
            return f"imp({a},{b})"
        return self._global_truth(c)

    def _global_truth(self, c: Constraint) -> str:
        if isinstance(c, AllDifferentExcept):
            xs = [self.id(v) for v in c.scope]
            pairs = [f"or(ne({a},{b}),{_member(a, c.excepted)})"
                     for i, a in enumerate(xs) for b in xs[i + 1:]]
            return _all(pairs)
        if isinstance(c, AllDifferent):
            return f"ne({self.refs(c.scope).replace(' ', ',')})" if len(c.scope) > 1 else "1"
        if isinstance(c, AllEqual):
            return f"eq({self.refs(c.scope).replace(' ', ',')})" if len(c.scope) > 1 else "1"
        if isinstance(c, Table):
            rows = [_all([f"eq({self.id(v)},{x})" for v, x in zip(c.scope, t)])
                    for t in c.tuples]
            inside = _any(rows)
            return f"not({inside})" if c.forbidden else inside
        if isinstance(c, Increasing):
            xs = [self.id(v) for v in c.order()]
            op = "lt" if c.strict else "le"
            return _all([f"{op}({a},{b})" for a, b in zip(xs, xs[1:])])
        if isinstance(c, LexLess):
            a, b = [self.id(v) for v in c.a], [self.id(v) for v in c.b]
            options = [_all([f"eq({x},{y})" for x, y in zip(a[:k], b[:k])] + [f"lt({a[k]},{b[k]})"])
                       for k in range(len(a))]
            if not c.strict:
                options.append(_all([f"eq({x},{y})" for x, y in zip(a, b)]))
            return _any(options)
        if isinstance(c, GlobalCardinality):
            xs = [self.id(v) for v in c.variables]
            parts = [f"eq({_sum_of([f'eq({x},{v})' for x in xs])},"
                     f"{k if fixed else self.id(k)})"
                     for v, k, fixed in zip(c.values, c.counts, c.fixed)]
            if c.closed:
                parts += [_member(x, c.values) for x in xs]
            return _all(parts)
        raise InputError(f"{c.describe()}: XCSP3 has no form of this constraint inside a "
                         "logical or arithmetic expression")

    def _weighted(self, scope: Sequence[Any], weights: Sequence[int]) -> str:
        terms = [self.id(v) if w == 1 else f"mul({w},{self.id(v)})"
                 for v, w in zip(scope, weights)]
        return terms[0] if len(terms) == 1 else f"add({','.join(terms)})"

    def integer(self, e: Any) -> str:
        """The XCSP3 tree of an integer expression."""
        if _is_int(e):
            return str(e)
        if isinstance(e, Term):
            return self.id(e)
        if isinstance(e, Expression):
            terms = [self.integer(a) if w == 1 else f"mul({w},{self.integer(a)})"
                     for a, w in e.terms.items() if w != 0]
            if e.constant or not terms:
                terms.append(str(e.constant))
            return terms[0] if len(terms) == 1 else f"add({','.join(terms)})"
        if isinstance(e, Constraint):
            return self.truth(e)
        if isinstance(e, Function):
            return self._function_tree(e)
        return self.id(e)  # a variable's name

    def _function_tree(self, f: Function) -> str:
        args = [self.integer(a) for a in f.args]
        if isinstance(f, Times):  # ACE 2.6's x * y: see `format`'s `fold`
            return f"mul({args[0]},{args[1]}{',1' if self.fold else ''})"
        if isinstance(f, (Div, Mod)):
            return _division(f, args[0], args[1])
        if isinstance(f, Abs):
            return f"abs({args[0]})"
        if isinstance(f, (Minimum, Maximum)):
            name = "min" if isinstance(f, Minimum) else "max"
            return args[0] if len(args) == 1 else f"{name}({','.join(args)})"
        if isinstance(f, Count):
            return _sum_of([f"eq({a},{args[-1]})" for a in args[:-1]])
        if isinstance(f, NValue):
            values = sorted({v for a in f.args for v in self._values(a)})
            return _sum_of([_any([f"eq({a},{v})" for a in args]) for v in values])
        if isinstance(f, Element):
            chain = args[-2]  # out of range is guarded by the comparison
            for k in range(len(args) - 3, -1, -1):
                chain = f"if(eq({args[-1]},{k}),{args[k]},{chain})"
            return chain
        raise InputError(f"{f.describe()}: no XCSP3 form")

    def _values(self, e: Any) -> list[int]:
        if _is_int(e):
            return [e]
        if isinstance(e, Term):
            return list(e.domain)  # type: ignore[attr-defined]
        raise InputError(f"NValue of the expression {e!r}: XCSP3 can say it over variables only")


def _division(f: Div | Mod, a: str, b: str) -> str:
    if f.rounding == "zero":
        return f"{'div' if isinstance(f, Div) else 'mod'}({a},{b})"
    # Python's rounds down. Its remainder, from XCSP3's (which has the sign
    # of the dividend): ((a mod b) + b) mod b; then the quotient is exact.
    remainder = f"mod(add(mod({a},{b}),{b}),{b})"
    return f"div(sub({a},{remainder}),{b})" if isinstance(f, Div) else remainder


def _elements(e: Any) -> list[Element]:
    found: list[Element] = []
    if isinstance(e, Element):
        found.append(e)
    if isinstance(e, Expression):
        for atom in e.terms:
            found += _elements(atom)
    elif isinstance(e, Function):
        for arg in e.args:
            found += _elements(arg)
    return found


def _repeats(tree: str, ids: set[str]) -> bool:
    """Whether a variable occurs twice or more in `tree`.

    >>> _repeats("eq(add(x,y),x)", {"x", "y"}), _repeats("eq(add(x,y),z[1])", {"x", "y", "z[1]"})
    (True, False)
    """
    seen = [t for t in re.findall(r"[A-Za-z][A-Za-z0-9_]*(?:\[\d+\])*", tree) if t in ids]
    return len(seen) != len(set(seen))


def _extremum(least: bool, op: str, xs: list[str], k: str) -> str:
    """`min(xs) op k` (`max` unless `least`) as comparisons of each of `xs`
    with `k`: exact, and what ACE 2.6 takes (it stops, "unsound sentinels",
    on a minimum one of whose variables cannot meet its condition).

    >>> _extremum(True, "<=", ["a", "b"], "2"), _extremum(False, ">", ["a", "b"], "2")
    ('or(le(a,2),le(b,2))', 'or(gt(a,2),gt(b,2))')
    >>> _extremum(False, "==", ["a", "b"], "k"), _extremum(True, "!=", ["a"], "k")
    ('and(and(le(a,k),le(b,k)),or(eq(a,k),eq(b,k)))', 'or(lt(a,k),gt(a,k))')
    >>> _extremum(True, "==", ["a", "k"], "k"), _extremum(True, ">", ["a", "k"], "k")
    ('ge(a,k)', '0')
    """
    rel = OPS[op]
    below, above = ("lt", "le"), ("gt", "ge")
    if not least:  # max(xs) < k: every x < k; max(xs) > k: some x > k
        below, above = above, below

    def compare(rel: str, x: str) -> str:  # x against itself is decided
        return ("1" if rel in ("eq", "le", "ge") else "0") if x == k else f"{rel}({x},{k})"

    def some(rel: str) -> str:
        return connective("or", [compare(rel, x) for x in xs])

    def every(rel: str) -> str:
        return connective("and", [compare(rel, x) for x in xs])

    if rel in below:  # min(xs) < k: some x < k
        return some(rel)
    if rel in above:  # min(xs) > k: every x > k
        return every(rel)
    if rel == "eq":
        return connective("and", [every(above[1]), some("eq")])
    return connective("or", [some(below[0]), every(above[0])])  # ne


def _member(x: str, values: Iterable[int]) -> str:
    chosen = sorted(values)
    if not chosen:
        return "0"
    return f"in({x},set({','.join(map(str, chosen))}))"


def _all(parts: list[str]) -> str:
    return "1" if not parts else parts[0] if len(parts) == 1 else f"and({','.join(parts)})"


def _any(parts: list[str]) -> str:
    return "0" if not parts else parts[0] if len(parts) == 1 else f"or({','.join(parts)})"


def _sum_of(parts: list[str]) -> str:
    return "0" if not parts else parts[0] if len(parts) == 1 else f"add({','.join(parts)})"


def _ordered_states(c: Regular) -> list[Hashable]:
    seen: dict[Hashable, None] = {c.start: None}
    for q, _, r in c.transitions:
        seen.setdefault(q, None)
        seen.setdefault(r, None)
    for q in c.accepting:
        seen.setdefault(q, None)
    return list(seen)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _plain(v: Any) -> bool:
    return _is_int(v) or isinstance(v, Term)


__all__ = ["domain_text", "format", "names", "write"]
