"""Random small problems for fuzzing, kept as plain data (*specs*).

A spec is a frozen description that builds the problem (`build()`), writes
it out (`text()`: Knuth's format; `source()`: a Python snippet) and lists
the smaller specs a shrinker may try (`smaller()`). Keeping the instance as
data, not as an `ExactCover` or a `Model`, is what makes shrinking simple: a
smaller spec is the same spec with one thing left out.

Every instance comes from its own `random.Random`, seeded by the campaign's
seed and the instance's index, so `instance(seed, i)` is the same instance
on every machine and any one of them can be replayed alone.

>>> form, spec = instance(7, 0)
>>> form == instance(7, 0)[0] and spec == instance(7, 0)[1]
True
>>> cover = random_cover(random.Random(1))
>>> type(cover.build()).__name__, cover.build().to_text() == cover.text()
('ExactCover', True)
>>> model = random_model(random.Random(1))
>>> type(model.build()).__name__
'Model'
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, replace

from csp.exactcover import ExactCover
from csp.model import Model

FORMS = ("exact-cover", "model")
"""The two forms of a problem, as the rest of csp names them."""

COLOURS = ("red", "green", "blue")

Entry = tuple[str, "str | None"]
"""An item of an option, with its colour (None: uncoloured)."""


def instance(seed: int, index: int,
             forms: Sequence[str] = FORMS) -> tuple[str, CoverSpec | ModelSpec]:
    """Instance `index` of the campaign `seed`: its form and its spec."""
    rng = random.Random(f"csp-fuzz:{seed}:{index}")  # a str seed is hashed the same everywhere
    form = forms[int(rng.random() * len(forms))]  # one draw, however many forms
    return form, random_cover(rng) if form == "exact-cover" else random_model(rng)


# -- exact covers ----------------------------------------------------------------------


@dataclass(frozen=True)
class CoverSpec:
    """An exact cover with colours and multiplicities: item names, options as
    (item, colour) lists, and `bounds` (item, least, most) of some primary
    items (Knuth's DLX3: covered between least and most times)."""

    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    options: tuple[tuple[Entry, ...], ...]
    bounds: tuple[tuple[str, int, int], ...] = ()

    def build(self) -> ExactCover:
        xc = ExactCover(self.primary, self.secondary,
                        bounds={item: (least, most) for item, least, most in self.bounds})
        for option in self.options:
            xc.add_option([name if colour is None else (name, colour) for name, colour in option])
        return xc

    def text(self) -> str:
        """The cover in Knuth's format (what `csp xc` and `csp crosscheck` read)."""
        return self.build().to_text()

    def size(self) -> str:
        return (f"{len(self.primary)}+{len(self.secondary)} items, "
                f"{len(self.options)} options")

    def smaller(self) -> Iterator[CoverSpec]:
        """Every simplification, the largest cuts first: options (by halves,
        then one by one), items, an item of one option, a colour, a bound."""
        for keep in _cuts(len(self.options)):
            yield replace(self, options=tuple(self.options[k] for k in keep))
        if len(self.primary) > 1:
            for item in self.primary:
                yield self._without_item(item)
        for item in self.secondary:
            yield self._without_item(item)
        for k, option in enumerate(self.options):
            for j in range(len(option)):
                rest = option[:j] + option[j + 1:]
                if any(name in self.primary for name, _ in rest):
                    yield self._with_option(k, rest)
        for k, option in enumerate(self.options):
            for j, (name, colour) in enumerate(option):
                if colour is not None:
                    yield self._with_option(k, option[:j] + ((name, None),) + option[j + 1:])
        for k in range(len(self.bounds)):
            yield replace(self, bounds=self.bounds[:k] + self.bounds[k + 1:])

    def _without_item(self, item: str) -> CoverSpec:
        options = []
        for option in self.options:
            rest = tuple(entry for entry in option if entry[0] != item)
            if any(name in self.primary and name != item for name, _ in rest):
                options.append(rest)  # an option left without a primary item goes
        return CoverSpec(tuple(i for i in self.primary if i != item),
                         tuple(i for i in self.secondary if i != item), tuple(options),
                         tuple(bound for bound in self.bounds if bound[0] != item))

    def _with_option(self, k: int, option: tuple[Entry, ...]) -> CoverSpec:
        return replace(self, options=self.options[:k] + (option,) + self.options[k + 1:])


def random_cover(rng: random.Random) -> CoverSpec:
    """A small random exact cover: 1-6 primary items, 0-3 secondary ones
    (coloured or not), 1-10 options of 1-3 primary and 0-3 secondary items;
    one cover in three has bounds on one or two primary items."""
    primary = [f"p{i}" for i in range(rng.randint(1, 6))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 3))]
    options = []
    for _ in range(rng.randint(1, 10)):
        entries: list[Entry] = [(name, None) for name in
                                rng.sample(primary, rng.randint(1, min(3, len(primary))))]
        for name in rng.sample(secondary, rng.randint(0, len(secondary))):
            entries.append((name, rng.choice((None, *COLOURS))))
        options.append(tuple(entries))
    # Drawn last, so that the rest of the instance is that of the seed without bounds.
    bounds = []
    if rng.random() < 1 / 3:
        for item in rng.sample(primary, min(len(primary), rng.randint(1, 2))):
            least, most = sorted((rng.randint(0, 3), rng.randint(1, 3)))
            if (least, most) != (1, 1):
                bounds.append((item, least, most))
    return CoverSpec(tuple(primary), tuple(secondary), tuple(options), tuple(bounds))


# -- models ------------------------------------------------------------------------------


@dataclass(frozen=True)
class VarSpec:
    """A variable: the identifier the snippet gives it, its name in the model
    (a str, an int or a tuple: names of every kind reach the backends) and
    its domain."""

    ident: str
    name: Hashable
    domain: tuple[int, ...]


@dataclass(frozen=True)
class ConstraintSpec:
    """One constraint, of a kind the model API offers.

    `kind` is one of `KINDS`; `scope` holds variables' identifiers; the other
    fields are read by the kinds that need them (weights, op and rhs by
    `Sum` and `Expression`; rows by the tables; constant by `Compare`
    against a value, predicate by `Relation`).
    """

    kind: str
    scope: tuple[str, ...]
    op: str = "=="
    weights: tuple[int, ...] = ()
    rhs: int = 0
    rows: tuple[tuple[int, ...], ...] = ()
    constant: int | None = None
    predicate: str = ""

    def source(self) -> str:
        """The constraint as Python, over the snippet's identifiers."""
        xs = f"[{', '.join(self.scope)}]"
        if self.kind == "AllDifferent":
            return f"AllDifferent({xs})"
        if self.kind == "Sum":
            return f"Sum({xs}, {list(self.weights)}) {self.op} {self.rhs}"
        if self.kind == "Expression":
            return f"{_linear(self.weights, self.scope)} {self.op} {self.rhs}"
        if self.kind in ("Table", "Forbidden"):
            forbidden = ", forbidden=True" if self.kind == "Forbidden" else ""
            return f"Table({xs}, {list(self.rows)}{forbidden})"
        if self.kind == "Relation":
            return f"Relation({xs}, {self.predicate})"
        right = self.scope[1] if self.constant is None else str(self.constant)
        return f"{self.scope[0]} {self.op} {right}"

    def without(self, ident: str) -> ConstraintSpec | None:
        """This constraint with variable `ident` left out (None: nothing left)."""
        if ident not in self.scope:
            return self
        j = self.scope.index(ident)
        scope = self.scope[:j] + self.scope[j + 1:]
        if not scope or (self.kind == "Compare" and self.constant is None):
            return None
        weights = self.weights[:j] + self.weights[j + 1:] if self.weights else ()
        rows = tuple(sorted({row[:j] + row[j + 1:] for row in self.rows}))
        return replace(self, scope=scope, weights=weights, rows=rows)


KINDS = ("AllDifferent", "Sum", "Expression", "Table", "Forbidden", "Relation", "Compare")
"""Every kind of constraint a random model draws from."""

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
        lines = ["from csp import AllDifferent, Model, Relation, Sum, Table", "",
                 'm = Model("fuzz")']
        lines += [f"{v.ident} = m.var({v.name!r}, {list(v.domain)})" for v in self.variables]
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
        """Every simplification, the largest cuts first: constraints, variables,
        values, table rows, a variable of one constraint."""
        for keep in _cuts(len(self.constraints)):
            yield replace(self, constraints=tuple(self.constraints[k] for k in keep))
        for v in self.variables:
            yield self._without_variable(v.ident)
        for k, v in enumerate(self.variables):
            for value in v.domain:
                smaller = replace(v, domain=tuple(x for x in v.domain if x != value))
                yield replace(self, variables=self.variables[:k] + (smaller,)
                              + self.variables[k + 1:])
        for k, c in enumerate(self.constraints):
            for j in range(len(c.rows)):
                yield self._with_constraint(k, replace(c, rows=c.rows[:j] + c.rows[j + 1:]))
        for k, c in enumerate(self.constraints):
            if len(c.scope) > 1 and not (c.kind == "Compare" and c.constant is None):
                for ident in c.scope:
                    smaller_c = c.without(ident)
                    if smaller_c is not None:
                        yield self._with_constraint(k, smaller_c)

    def _without_variable(self, ident: str) -> ModelSpec:
        constraints = [c.without(ident) for c in self.constraints]
        return ModelSpec(tuple(v for v in self.variables if v.ident != ident),
                         tuple(c for c in constraints if c is not None))

    def _with_constraint(self, k: int, c: ConstraintSpec) -> ModelSpec:
        return replace(self, constraints=self.constraints[:k] + (c,) + self.constraints[k + 1:])


def random_model(rng: random.Random) -> ModelSpec:
    """A small random model: 1-5 variables with names of every kind and
    domains of up to 5 values around 0 (negative ones included; now and then
    an empty one), and 0-5 constraints of every kind in `KINDS`."""
    variables = []
    empty = rng.random() < 0.05
    for i in range(rng.randint(1, 5)):
        name: Hashable = rng.choice((f"x{i}", i, ("v", i)))
        low = rng.randint(-4, 2)
        size = 0 if empty and i == 0 else rng.randint(1, 5)
        domain = tuple(sorted(rng.sample(range(low, low + 6), size)))
        variables.append(VarSpec(f"v{i}", name, domain))
    idents = [v.ident for v in variables]
    constraints = [_random_constraint(rng, idents) for _ in range(rng.randint(0, 5))]
    return ModelSpec(tuple(variables), tuple(c for c in constraints if c is not None))


def _random_constraint(rng: random.Random, idents: list[str]) -> ConstraintSpec | None:
    kind = rng.choice(KINDS)
    scope = tuple(rng.sample(idents, rng.randint(1, min(3, len(idents)))))
    if kind == "AllDifferent":
        return ConstraintSpec(kind, scope)
    if kind in ("Sum", "Expression"):
        # An expression's weights are never 0: it would compare no variable.
        pick = (-3, -2, -1, 1, 2, 3) if kind == "Expression" else (-2, -1, 0, 1, 2, 3)
        weights = tuple(rng.choice(pick) for _ in scope)
        op = rng.choice(("==", "<=", ">=", "<", ">"))
        return ConstraintSpec(kind, scope, op, weights, rng.randint(-6, 8))
    if kind in ("Table", "Forbidden"):
        rows = {tuple(rng.randint(-4, 6) for _ in scope) for _ in range(rng.randint(0, 8))}
        return ConstraintSpec(kind, scope, rows=tuple(sorted(rows)))
    if kind == "Relation":
        predicate = rng.choice(PREDICATES).format(k=rng.randint(1, 3))
        return ConstraintSpec(kind, scope, predicate=predicate)
    op = rng.choice(("==", "!="))
    if len(idents) >= 2 and rng.random() < 0.5:
        return ConstraintSpec("Compare", tuple(rng.sample(idents, 2)), op)
    return ConstraintSpec("Compare", scope[:1], op, constant=rng.randint(-4, 6))


def _linear(weights: Sequence[int], scope: Sequence[str]) -> str:
    """`2 * v0 - v1 + 3 * v2`: a linear expression built with the operators."""
    text = ""
    for w, x in zip(weights, scope):
        term = x if abs(w) == 1 else f"{abs(w)} * {x}"
        text += (f"-{term}" if w < 0 else term) if not text else \
            (f" - {term}" if w < 0 else f" + {term}")
    return text


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
