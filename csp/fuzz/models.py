"""Random small models for fuzzing, as plain data (specs): every kind of
constraint of the model language (`csp.backends.base.ALL_CONSTRAINT_KINDS`),
logic nested in logic, reification (`b == (c)`), constraints counting 0/1
in sums, and variables named by strs, ints and tuples.

A `ModelSpec` writes itself as a Python snippet (`source()`) and is built by
running it, so what is tested is what a finding shows; `smaller()` lists its
simplifications, down to one constraint and inside it (a connective replaced
by one of its operands, an operand or a variable left out).

>>> import random
>>> spec = random_model(random.Random(3))
>>> type(spec.build()).__name__
'Model'
>>> set(kinds(spec.build())) <= set(KIND_TAGS)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from csp.model import Model

Operand = Any
"""A variable's identifier in the snippet (a str) or an int."""

IMPORTS = ("AllDifferent, AllDifferentExcept, AllEqual, And, Circuit, Connected, Count, "
           "Decreasing, Div, Element, GlobalCardinality, Iff, Implies, Increasing, Inverse, "
           "LexLess, LexLessEq, Maximum, Minimum, Mod, Model, NValue, Not, Or, Regular, "
           "Relation, Sum, Table, Xor")

OPS = ("==", "!=", "<", "<=", ">", ">=")
CONNECTIVES = ("And", "Or", "Not", "Implies", "Xor", "Iff")


@dataclass(frozen=True)
class VarSpec:
    """A variable: the identifier the snippet gives it, its name in the model
    (a str, an int or a tuple: names of every kind reach the backends), its
    domain, and whether it is declared with `m.bool`."""

    ident: str
    name: Hashable
    domain: tuple[int, ...]
    boolean: bool = False

    def source(self) -> str:
        if self.boolean:
            return f"{self.ident} = m.bool({self.name!r})"
        return f"{self.ident} = m.var({self.name!r}, {list(self.domain)})"


@dataclass(frozen=True)
class ConstraintSpec:
    """One constraint, of a kind of `KINDS`.

    `scope` holds the operands in the order the kind reads them (variables'
    identifiers, and ints where the kind takes constants: an `Element`'s
    array, a `Count`'s value); `op` and `rhs` compare (`rhs` an int or an
    identifier); `children` are the operands of logic and of 0/1 sums; `data`
    is the rest of what a kind needs (excepted values, an automaton, edges,
    a connective's name).
    """

    kind: str
    scope: tuple[Operand, ...] = ()
    op: str = "=="
    weights: tuple[int, ...] = ()
    rhs: Operand = 0
    rows: tuple[tuple[int, ...], ...] = ()
    constant: int | None = None
    predicate: str = ""
    data: tuple[Any, ...] = ()
    flag: bool = False
    children: tuple[ConstraintSpec, ...] = ()

    def source(self) -> str:
        """The constraint as Python, over the snippet's identifiers."""
        k = self.kind
        xs = f"[{', '.join(map(str, self.scope))}]"
        if k in ("AllDifferent", "AllEqual"):
            return f"{k}({xs})"
        if k == "Sum":
            return f"Sum({xs}, {list(self.weights)}) {self.op} {self.rhs}"
        if k == "Expression":
            return f"{_linear(self.weights, self.scope)} {self.op} {self.rhs}"
        if k in ("Table", "Forbidden"):
            forbidden = ", forbidden=True" if k == "Forbidden" else ""
            return f"Table({xs}, {list(self.rows)}{forbidden})"
        if k == "Relation":
            return f"Relation({xs}, {self.predicate})"
        if k == "Compare":
            right = self.scope[1] if self.constant is None else str(self.constant)
            return f"{self.scope[0]} {self.op} {right}"
        return self._language()

    def _language(self) -> str:
        k = self.kind
        xs = f"[{', '.join(map(str, self.scope))}]"
        compared = f"{self.op} {self.rhs}"
        if k in ("Element", "Count"):  # the array or items, then the index or value
            return f"{k}([{', '.join(map(str, self.scope[:-1]))}], {self.scope[-1]}) {compared}"
        if k in ("NValue", "Minimum", "Maximum"):
            return f"{k}({xs}) {compared}"
        if k == "Abs":
            return f"abs({self.scope[0]}) {compared}"
        if k == "Times":
            return f"{self.scope[0]} * {self.scope[1]} {compared}"
        if k in ("Div", "Mod"):
            rounding = ', rounding="zero"' if self.flag else ""
            return f"{k}({self.scope[0]}, {self.scope[1]}{rounding}) {compared}"
        if k == "Arith":
            a, b, c, d = self.scope
            return f"abs({a} - {b}) + {c} * {d} {compared}"
        if k == "Sum01":
            terms = [f"({child.source()})" for child in self.children] + list(self.scope)
            return f"Sum([{', '.join(terms)}], {list(self.weights)}) {compared}"
        if k == "AllDifferentExcept":
            return f"AllDifferentExcept({xs}, {list(self.data)})"
        if k in ("Increasing", "Decreasing"):
            return f"{k}({xs}, strict={self.flag})"
        if k == "Lex":
            half = len(self.scope) // 2
            name = "LexLess" if self.flag else "LexLessEq"
            return (f"{name}([{', '.join(self.scope[:half])}], "
                    f"[{', '.join(self.scope[half:])}])")
        if k == "GlobalCardinality":
            values, counts = self.data
            return (f"GlobalCardinality({xs}, {list(values)}, [{', '.join(map(str, counts))}], "
                    f"closed={self.flag})")
        if k == "Regular":
            transitions, start, accepting = self.data
            return f"Regular({xs}, {list(transitions)}, {start}, {list(accepting)})"
        if k in ("Circuit", "Inverse"):
            if k == "Circuit":
                return f"Circuit({xs})"
            half = len(self.scope) // 2
            return (f"Inverse([{', '.join(self.scope[:half])}], "
                    f"[{', '.join(self.scope[half:])}])")
        if k == "Connected":
            return f"Connected({xs}, {list(self.data)})"
        if k == "Bool":
            return str(self.scope[0])
        if k == "Reify":
            return f"{self.scope[0]} == ({self.children[0].source()})"
        if k == "Logic":
            return self._connective()
        raise ValueError(f"unknown kind {k!r}")

    def _connective(self) -> str:
        name = self.data[0]
        parts = [child.source() for child in self.children]
        if self.flag and name in ("And", "Or", "Xor", "Not") and parts:  # the operators
            if name == "Not":
                return f"~({parts[0]})"
            symbol = {"And": " & ", "Or": " | ", "Xor": " ^ "}[name]
            return symbol.join(f"({p})" for p in parts) if len(parts) > 1 else \
                f"{name}([{parts[0]}])"
        if name in ("Not",):
            return f"Not({parts[0]})"
        if name in ("Implies", "Iff"):
            return f"{name}({parts[0]}, {parts[1]})"
        return f"{name}([{', '.join(parts)}])"

    def identifiers(self) -> set[str]:
        """Every variable this constraint names (its children's included)."""
        found = {x for x in self.scope if isinstance(x, str)}
        if isinstance(self.rhs, str):
            found.add(self.rhs)
        if self.kind == "GlobalCardinality":
            found |= {x for x in self.data[1] if isinstance(x, str)}
        for child in self.children:
            found |= child.identifiers()
        return found

    def without(self, ident: str) -> ConstraintSpec | None:
        """This constraint with variable `ident` left out (None: nothing
        sensible left, the constraint goes)."""
        if ident not in self.identifiers():
            return self
        if self.kind in ("Reify", "Logic", "Sum01"):
            return self._without_in_children(ident)
        if self.kind not in LISTS or ident == self.rhs or (
                self.kind == "GlobalCardinality" and ident in self.data[1]):
            return None
        fixed = {"Element": 1, "Count": 1}.get(self.kind, 0)  # the index, the value
        j = self.scope.index(ident)
        if j >= len(self.scope) - fixed:
            return None
        scope = self.scope[:j] + self.scope[j + 1:]
        if len(scope) <= fixed:
            return None
        weights = self.weights[:j] + self.weights[j + 1:] if self.weights else ()
        rows = tuple(sorted({row[:j] + row[j + 1:] for row in self.rows}))
        return replace(self, scope=scope, weights=weights, rows=rows).without(ident)

    def _without_in_children(self, ident: str) -> ConstraintSpec | None:
        children = [c.without(ident) for c in self.children]
        if self.kind == "Reify":
            if ident in self.scope or children[0] is None:
                return None
            return replace(self, children=(children[0],))
        if self.kind == "Logic":
            if None in children and self.data[0] in ("Not", "Implies", "Iff"):
                return None
            kept = tuple(c for c in children if c is not None)
            return replace(self, children=kept) if kept else None
        n = len(self.children)  # a 0/1 sum: constraints, then variables, each weighed
        terms = [(c, w) for c, w in zip(children, self.weights[:n]) if c is not None]
        plain = [(x, w) for x, w in zip(self.scope, self.weights[n:]) if x != ident]
        if not terms and not plain:
            return None
        return replace(self, children=tuple(c for c, _ in terms),
                       scope=tuple(x for x, _ in plain),
                       weights=tuple(w for _, w in terms) + tuple(w for _, w in plain))

    def simpler(self) -> Iterator[ConstraintSpec]:
        """Simplifications inside this constraint: a connective or a 0/1 sum
        replaced by one of its operands, an operand left out, recursively."""
        for child in self.children:
            if child.kind != "Bool":
                yield child
        n = len(self.children)
        if n > 1 and (self.kind == "Sum01" or self.data[:1] in (("And",), ("Or",), ("Xor",))):
            for j in range(n):
                weights = self.weights[:j] + self.weights[j + 1:] if self.weights else ()
                yield replace(self, children=self.children[:j] + self.children[j + 1:],
                              weights=weights)
        for j, child in enumerate(self.children):
            for smaller in child.simpler():
                yield replace(self, children=self.children[:j] + (smaller,)
                              + self.children[j + 1:])


LISTS = frozenset({"AllDifferent", "Sum", "Expression", "Table", "Forbidden", "Relation",
                   "AllEqual", "AllDifferentExcept", "Increasing", "Decreasing", "NValue",
                   "Minimum", "Maximum", "Element", "Count", "Regular", "GlobalCardinality"})
"""The kinds over a list of variables, any of which may be left out."""

KINDS = ("AllDifferent", "Sum", "Expression", "Table", "Forbidden", "Relation", "Compare",
         "Element", "Count", "NValue", "Minimum", "Maximum", "Abs", "Times", "Div", "Mod",
         "Arith", "Sum01", "AllEqual", "AllDifferentExcept", "Increasing", "Decreasing",
         "Lex", "GlobalCardinality", "Regular", "Circuit", "Inverse", "Connected", "Logic",
         "Reify")
"""Every kind of constraint a random model draws from (spec kinds: `Arith`
and `Sum01` are intensions, `Reify` is `b == (c)`)."""

KIND_TAGS = ("AllDifferent", "Sum", "SumNotEqual", "Table", "Compare", "Element", "Count",
             "NValue", "Minimum", "Maximum", "Abs", "Times", "Div", "Mod", "AllEqual",
             "AllDifferentExcept", "Increasing", "Decreasing", "Lex", "GlobalCardinality",
             "Regular", "Circuit", "Inverse", "Connected", "Logic", "Intension",
             "reification", "nested logic", "0/1 in a sum", "int name")
"""What `kinds` tallies: the capability kinds, and the features of the language."""

PREDICATES = (
    "lambda *t: sum(t) % {k} == 0",
    "lambda *t: max(t) - min(t) <= {k}",
    "lambda *t: sum(t) >= {k}",
)
"""The predicates of random `Relation`s, as source: the snippet must run alone."""


@dataclass(frozen=True)
class ModelSpec:
    """A model: variables and constraints, written and built as Python source."""

    variables: tuple[VarSpec, ...]
    constraints: tuple[ConstraintSpec, ...]

    def source(self) -> str:
        """The model as a Python snippet that builds it as `m`."""
        lines = [f"from csp import {IMPORTS}", "", 'm = Model("fuzz")']
        lines += [v.source() for v in self.variables]
        lines += [f"m.add({c.source()})" for c in self.constraints]
        return "\n".join(lines) + "\n"

    def build(self) -> Model:
        # Built by running its own snippet: what is tested is what is written.
        namespace: dict = {}
        exec(compile(self.source(), "<csp fuzz model>", "exec"), namespace)  # noqa: S102
        model: Model = namespace["m"]
        return model

    def size(self) -> str:
        return f"{len(self.variables)} variables, {len(self.constraints)} constraints"

    def smaller(self) -> Iterator[ModelSpec]:
        """Every simplification, the largest cuts first: constraints, inside a
        constraint, variables, values, table rows, a variable of one constraint."""
        for keep in _cuts(len(self.constraints)):
            yield replace(self, constraints=tuple(self.constraints[k] for k in keep))
        for k, c in enumerate(self.constraints):
            for simpler in c.simpler():
                yield self._with_constraint(k, simpler)
        used = set().union(*(c.identifiers() for c in self.constraints))
        for v in self.variables:
            if v.ident not in used:
                yield replace(self, variables=tuple(w for w in self.variables if w is not v))
        for v in self.variables:
            if v.ident in used:
                yield self._without_variable(v.ident)
        for k, v in enumerate(self.variables):
            if v.boolean:
                continue
            for value in v.domain:
                smaller = replace(v, domain=tuple(x for x in v.domain if x != value))
                yield replace(self, variables=self.variables[:k] + (smaller,)
                              + self.variables[k + 1:])
        for k, c in enumerate(self.constraints):
            for j in range(len(c.rows)):
                yield self._with_constraint(k, replace(c, rows=c.rows[:j] + c.rows[j + 1:]))
        for k, c in enumerate(self.constraints):
            for ident in sorted(c.identifiers()):
                smaller_c = c.without(ident)
                if smaller_c is not None and smaller_c != c:
                    yield self._with_constraint(k, smaller_c)

    def _without_variable(self, ident: str) -> ModelSpec:
        constraints = [c.without(ident) for c in self.constraints]
        return ModelSpec(tuple(v for v in self.variables if v.ident != ident),
                         tuple(c for c in constraints if c is not None))

    def _with_constraint(self, k: int, c: ConstraintSpec) -> ModelSpec:
        return replace(self, constraints=self.constraints[:k] + (c,) + self.constraints[k + 1:])


# -- drawing ---------------------------------------------------------------------------


class _Draw:
    """The variables of a model being drawn, and the draws of its constraints."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.variables: list[VarSpec] = []
        self.base: list[str] = []  # the variables drawn first, shared by constraints
        self.booleans: list[str] = []

    def add(self, domain: Sequence[int], *, boolean: bool = False) -> str:
        i = len(self.variables)
        ident = f"v{i}"
        name: Hashable = self.rng.choice((f"x{i}", i, ("v", i)))
        self.variables.append(VarSpec(ident, name, (0, 1) if boolean else tuple(domain),
                                      boolean))
        if boolean:
            self.booleans.append(ident)
        return ident

    def domain(self, ident: str) -> tuple[int, ...]:
        return next(v.domain for v in self.variables if v.ident == ident)

    def some(self, least: int = 1, most: int = 3) -> tuple[str, ...]:
        most = min(most, len(self.base))
        return tuple(self.rng.sample(self.base, self.rng.randint(min(least, most), most)))

    def boolean(self) -> str:
        if self.booleans and self.rng.random() < 0.6:
            return self.rng.choice(self.booleans)
        return self.add((0, 1), boolean=True)

    def value(self) -> int:
        return self.rng.randint(-2, 3)

    def right(self) -> Operand:
        """A right-hand side: an int, or a variable now and then."""
        return self.rng.choice(self.base) if self.rng.random() < 0.4 else self.value()

    def constraint(self, depth: int = 0) -> ConstraintSpec:
        kinds = KINDS if depth < 2 else KINDS[:17]  # deep down: no logic, no globals
        kind = self.rng.choice(kinds)
        if depth and kind in ("Circuit", "Connected") and self.rng.random() < 0.8:
            kind = "Compare"  # not reifiable by decomposition: rarely inside logic
        return getattr(self, f"_{kind.lower()}", self._plain)(kind, depth)

    # -- the core kinds --------------------------------------------------------------

    def _plain(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        scope = self.some()
        if kind == "AllDifferent":
            return ConstraintSpec(kind, scope)
        if kind in ("Sum", "Expression"):
            # An expression's weights are never 0: it would compare no variable.
            pick = (-3, -2, -1, 1, 2, 3) if kind == "Expression" else (-2, -1, 0, 1, 2, 3)
            weights = tuple(rng.choice(pick) for _ in scope)
            op = rng.choice(("==", "<=", ">=", "<", ">", "!="))
            return ConstraintSpec(kind, scope, op, weights, rhs=rng.randint(-6, 8))
        if kind in ("Table", "Forbidden"):
            rows = {tuple(rng.randint(-3, 4) for _ in scope) for _ in range(rng.randint(0, 8))}
            return ConstraintSpec(kind, scope, rows=tuple(sorted(rows)))
        if kind == "Relation":
            predicate = rng.choice(PREDICATES).format(k=rng.randint(1, 3))
            return ConstraintSpec(kind, scope, predicate=predicate)
        op = rng.choice(("==", "!="))
        if len(self.base) >= 2 and rng.random() < 0.5:
            return ConstraintSpec("Compare", tuple(rng.sample(self.base, 2)), op)
        return ConstraintSpec("Compare", scope[:1], op, constant=self.value())

    # -- functions, compared -----------------------------------------------------------

    def _compared(self, kind: str, scope: tuple[Operand, ...], **more: Any) -> ConstraintSpec:
        return ConstraintSpec(kind, scope, self.rng.choice(OPS), rhs=self.right(), **more)

    def _element(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        n = rng.randint(2, 4)
        array = tuple(rng.choice(self.base) if rng.random() < 0.7 else self.value()
                      for _ in range(n))
        fits = [x for x in self.base if any(0 <= v < n for v in self.domain(x))]
        index: Operand = rng.choice(fits) if fits and rng.random() < 0.8 else rng.randrange(n)
        return self._compared(kind, (*array, index))

    def _count(self, kind: str, depth: int) -> ConstraintSpec:
        target: Operand = self.rng.choice(self.base) if self.rng.random() < 0.3 \
            else self.value()
        return self._compared(kind, (*self.some(1, 4), target))

    def _nvalue(self, kind: str, depth: int) -> ConstraintSpec:
        return self._compared(kind, self.some(1, 4))

    _minimum = _maximum = _nvalue

    def _abs(self, kind: str, depth: int) -> ConstraintSpec:
        return self._compared(kind, self.some(1, 1))

    def _times(self, kind: str, depth: int) -> ConstraintSpec:
        return self._compared(kind, (self.rng.choice(self.base), self.rng.choice(self.base)))

    def _div(self, kind: str, depth: int) -> ConstraintSpec:
        nonzero = [x for x in self.base if 0 not in self.domain(x)]
        divisor: Operand = self.rng.choice(nonzero) if nonzero and self.rng.random() < 0.7 \
            else self.rng.choice((-3, -2, -1, 1, 2, 3))
        return self._compared(kind, (self.rng.choice(self.base), divisor),
                              flag=self.rng.random() < 0.5)

    _mod = _div

    def _arith(self, kind: str, depth: int) -> ConstraintSpec:
        a, b = self.some(2, 2) if len(self.base) >= 2 else (self.base[0],) * 2
        if a == b:
            return self._abs("Abs", depth)
        scope = (a, b, self.rng.choice(self.base), self.rng.choice(self.base))
        return ConstraintSpec(kind, scope, self.rng.choice(OPS), rhs=self.rng.randint(-3, 6))

    def _sum01(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        children = tuple(self.constraint(depth + 1) for _ in range(rng.randint(1, 3)))
        scope = self.some(0, 2)
        weights = tuple(rng.choice((-2, -1, 1, 1, 2)) for _ in range(len(children) + len(scope)))
        return ConstraintSpec(kind, scope, rng.choice(OPS), weights, rhs=rng.randint(-2, 3),
                              children=children)

    # -- globals -------------------------------------------------------------------------

    def _allequal(self, kind: str, depth: int) -> ConstraintSpec:
        return ConstraintSpec("AllEqual", self.some(1, 3))

    def _alldifferentexcept(self, kind: str, depth: int) -> ConstraintSpec:
        excepted = tuple(sorted(set(self.rng.sample(range(-2, 3), self.rng.randint(1, 2)))))
        return ConstraintSpec(kind, self.some(1, 4), data=excepted)

    def _increasing(self, kind: str, depth: int) -> ConstraintSpec:
        return ConstraintSpec(kind, self.some(1, 3), flag=self.rng.random() < 0.5)

    _decreasing = _increasing

    def _lex(self, kind: str, depth: int) -> ConstraintSpec:
        n = self.rng.randint(1, min(3, len(self.base)))
        a = tuple(self.rng.sample(self.base, n))
        b = tuple(self.rng.sample(self.base, n))
        return ConstraintSpec(kind, a + b, flag=self.rng.random() < 0.5)

    def _globalcardinality(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        scope = self.some(1, 4)
        seen = sorted(set().union(*(self.domain(x) for x in scope)) | {self.value()})
        values = tuple(rng.sample(seen, rng.randint(1, min(3, len(seen)))))
        counts = tuple(rng.choice(self.base) if rng.random() < 0.3 else rng.randint(0, 2)
                       for _ in values)
        return ConstraintSpec(kind, scope, data=(values, counts), flag=rng.random() < 0.3)

    def _regular(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        scope = self.some(1, 4)
        symbols = sorted(set().union(*(self.domain(x) for x in scope))) or [0]
        states = rng.randint(1, 3)
        transitions = {(0, rng.choice(symbols), rng.randrange(states))}
        for _ in range(rng.randint(1, 7)):
            transitions.add((rng.randrange(states), rng.choice(symbols), rng.randrange(states)))
        named = sorted({q for q, _, _ in transitions} | {r for _, _, r in transitions})
        accepting = tuple(rng.sample(named, rng.randint(1, len(named))))
        return ConstraintSpec(kind, scope, data=(tuple(sorted(transitions)), 0,
                                                 tuple(sorted(accepting))))

    def _nodes(self, n: int) -> tuple[str, ...]:
        """`n` new variables over subsets of 0..n-1 (a circuit's, a permutation's)."""
        return tuple(self.add(sorted(self.rng.sample(range(n), self.rng.randint(
            max(1, n - 1), n)))) for _ in range(n))

    def _circuit(self, kind: str, depth: int) -> ConstraintSpec:
        return ConstraintSpec(kind, self._nodes(self.rng.randint(1, 4)))

    def _inverse(self, kind: str, depth: int) -> ConstraintSpec:
        n = self.rng.randint(1, 3)
        return ConstraintSpec(kind, self._nodes(n) + self._nodes(n))

    def _connected(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        nodes: list[str] = []
        for _ in range(rng.randint(2, 4)):
            b = self.boolean()
            if b not in nodes:
                nodes.append(b)
        pairs = [(i, j) for i in range(len(nodes)) for j in range(i + 1, len(nodes))]
        edges = tuple(rng.sample(pairs, rng.randint(0, len(pairs))))
        return ConstraintSpec(kind, tuple(nodes), data=edges)

    # -- logic ---------------------------------------------------------------------------

    def _operand(self, depth: int) -> ConstraintSpec:
        if self.rng.random() < 0.25:
            return ConstraintSpec("Bool", (self.boolean(),))
        return self.constraint(depth + 1)

    def _logic(self, kind: str, depth: int) -> ConstraintSpec:
        rng = self.rng
        name = rng.choice(CONNECTIVES)
        n = {"Not": 1, "Implies": 2, "Iff": 2}.get(name, rng.randint(0 if depth else 1, 3))
        children = tuple(self._operand(depth) for _ in range(n))
        return ConstraintSpec(kind, data=(name,), children=children,
                              flag=rng.random() < 0.5)

    def _reify(self, kind: str, depth: int) -> ConstraintSpec:
        return ConstraintSpec(kind, (self.boolean(),), children=(self.constraint(depth + 1),))


def random_model(rng: random.Random) -> ModelSpec:
    """A small random model: 1-4 variables with names of every kind and
    domains of up to 5 values around 0 (negative ones included; now and then
    an empty one), booleans and nodes (of circuits, permutations) as the
    constraints need them, and 0-4 constraints of every kind in `KINDS`."""
    draw = _Draw(rng)
    empty = rng.random() < 0.03
    for i in range(rng.randint(1, 4)):
        low = rng.randint(-3, 1)
        size = 0 if empty and i == 0 else rng.randint(1, 4 if i else 5)
        draw.base.append(draw.add(sorted(rng.sample(range(low, low + 6), size))))
    constraints = [draw.constraint() for _ in range(rng.randint(0, 4))]
    return ModelSpec(tuple(draw.variables), tuple(constraints))


# -- what a model holds ------------------------------------------------------------------


def kinds(model: Model) -> Counter[str]:
    """The kinds of the model's constraints, nested ones included, and the
    features of the language it uses (`KIND_TAGS`)."""
    from csp.constraints import Compare, Constraint
    from csp.expressions import Comparison
    from csp.logic import Iff, Logic

    found: Counter[str] = Counter()

    def walk(c: Constraint, inside: bool) -> None:
        found.update(c.kinds())
        if isinstance(c, Logic):
            if inside:
                found["nested logic"] += 1
            if isinstance(c, Iff) and any(isinstance(a, Compare) and a.constant == 1
                                          and model.variables[a.scope[0]].is_boolean
                                          for a in c.args):
                found["reification"] += 1
            for a in c.args:
                walk(a, True)
        elif isinstance(c, Comparison):
            atoms = getattr(c.left, "terms", {})
            inner = [a for a in atoms if isinstance(a, Constraint)]
            if inner:
                found["0/1 in a sum"] += 1
            for a in inner:
                walk(a, True)

    for c in model.constraints:
        walk(c, False)
    found["int name"] += any(isinstance(name, int) for name in model.variables)
    return Counter({tag: n for tag, n in found.items() if tag in KIND_TAGS and n})


def _cuts(n: int) -> Iterator[list[int]]:
    """The indices kept by each cut of `range(n)`: halves, quarters, ..., then
    one at a time (delta debugging's order, so a large instance shrinks fast)."""
    size = max(1, n // 2) if n else 0
    seen = set()
    while size >= 1:
        for start in range(0, n, size):
            keep = [k for k in range(n) if not start <= k < start + size]
            if tuple(keep) not in seen:
                seen.add(tuple(keep))
                yield keep
        size //= 2


def _linear(weights: Sequence[int], scope: Sequence[str]) -> str:
    """`2 * v0 - v1 + 3 * v2`: a linear expression built with the operators."""
    text = ""
    for w, x in zip(weights, scope):
        term = x if abs(w) == 1 else f"{abs(w)} * {x}"
        text += (f"-{term}" if w < 0 else term) if not text else \
            (f" - {term}" if w < 0 else f" + {term}")
    return text


__all__ = ["KINDS", "KIND_TAGS", "ConstraintSpec", "ModelSpec", "VarSpec", "kinds",
           "random_model"]
