"""A `Model` as FlatZinc (`format`, `write`).

The model is first rewritten by `csp.decompose` into the constraints
FlatZinc says directly (its auxiliary variables are defined, so counts are
unchanged), then each constraint is one builtin:

- `Compare` and `Linear` as `int_eq`, `int_ne`, `int_lin_eq`/`le`/`ne`;
- logic as `bool_clause`, `array_bool_and`/`or`/`xor`, `bool_eq`, ... over
  boolean literals, each comparison inside it reified (`int_eq_reif`,
  `int_lin_le_reif`, ...) into a `var bool` introduced for it;
- a comparison `f == y` of a function as `int_times`, `int_div` (rounding
  towards zero, as `Div(..., rounding="zero")`), `int_mod`, `int_abs`,
  `array_int_minimum`/`maximum`, `array_var_int_element` (1-based: the index
  plus one), `nvalue`;
- `AllDifferent` as `all_different_int`, `Table` as `table_int`, a
  deterministic `Regular` over symbols from 1 as `regular`,
  `GlobalCardinality` as `global_cardinality` (or `_closed`): the names of
  csp's own solver library (`dialect="csp"`, what `csp.io.flatzinc.read`
  reads); `dialect="gecode"` writes Gecode's names for the three last
  (`gecode_table_int`, `gecode_regular`, `gecode_global_cardinality`), as
  Gecode's `fzn-gecode` reads them.

Every variable of the model is an `output_var`, named as in the model where
the name is an identifier, else `X_CSP_k` with a `csp_name("...")`
annotation that `read` takes back (an int name stays an int). The
variables the writer or the decomposition introduce are marked
`var_is_introduced`.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Hashable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Compare, Constraint, Linear, Table, Term
from csp.errors import InputError
from csp.expressions import Abs, Comparison, Div, Element, Maximum, Minimum, Mod, NValue, Times
from csp.global_constraints import GlobalCardinality, Regular
from csp.io.folding import fresh_names
from csp.logic import And, Iff, Implies, Not, Or, Xor
from csp.model import Model

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
KEYWORDS = {"ann", "annotation", "any", "array", "bool", "case", "constraint", "diff",
            "div", "else", "elseif", "endif", "enum", "false", "float", "function", "if",
            "in", "include", "int", "intersect", "let", "list", "maximize", "minimize", "mod",
            "not", "of", "op", "opt", "output", "par", "predicate", "record", "satisfy",
            "set", "solve", "string", "subset", "superset", "symdiff", "test", "then",
            "true", "tuple", "type", "union", "var", "where", "xor"}
DIALECTS = {"csp": {"table": "table_int", "regular": "regular",
                    "cardinality": "global_cardinality"},
            "gecode": {"table": "gecode_table_int", "regular": "gecode_regular",
                       "cardinality": "gecode_global_cardinality"}}
ALLOWED_TUPLES = 100_000
"""A forbidden table over at most this many tuples is written as the ones it
allows (FlatZinc's tables allow); a larger one as a clause per tuple."""
CAPABILITIES = frozenset({"Compare", "Sum", "SumNotEqual", "AllDifferent", "Table", "Logic",
                          "Element", "Minimum", "Maximum", "NValue", "Abs", "Times", "Div",
                          "Mod", "Regular", "GlobalCardinality"})


def names(model: Model) -> dict[Hashable, str]:
    """The FlatZinc identifier of each variable of `model` (see the module)."""
    out: dict[Hashable, str] = {}
    fresh = fresh_names("X_CSP_", {n for n in model.variables if _keeps(n)})
    for name in model.variables:
        out[name] = name if _keeps(name) else next(fresh)  # type: ignore[assignment]
    return out


def _keeps(name: Hashable) -> bool:
    return isinstance(name, str) and bool(IDENTIFIER.match(name)) and name not in KEYWORDS \
        and not name.startswith(("X_CSP_", "X_INTRODUCED_"))


def format(model: Model, *, dialect: str = "csp") -> str:
    """The FlatZinc text of `model`."""
    if dialect not in DIALECTS:
        raise InputError(f"unknown FlatZinc dialect {dialect!r}: csp or gecode")
    from csp.decompose import adapt
    from csp.dispatch import taker

    takes = taker(CAPABILITIES)
    flat, _ = adapt(model, lambda c: takes(c) and _writable(c), tables=True)
    return _Writer(model, flat, DIALECTS[dialect]).text()


def write(model: Model, path: str | os.PathLike[str], *, dialect: str = "csp"
          ) -> dict[Hashable, str]:
    """Write `model` to `path` as FlatZinc; return each variable's identifier."""
    text = format(model, dialect=dialect)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return names(model)


def _writable(c: Constraint) -> bool:
    """Whether a constraint the capabilities admit has a builtin as it is."""
    if isinstance(c, Comparison):
        f = c.left
        if c.op != "==" or isinstance(f, (Div, Mod)) and f.rounding != "zero":
            return False
        return not isinstance(f, NValue) or all(isinstance(a, Term) for a in f.args)
    if isinstance(c, Regular):
        symbols = {s for _, s, _ in c.transitions}
        successors: dict[Any, int] = {}
        for q, s, _ in c.transitions:
            successors[(q, s)] = successors.get((q, s), 0) + 1
        return all(s >= 1 for s in symbols) and all(n == 1 for n in successors.values())
    return True


class _Writer:
    def __init__(self, model: Model, flat: Model, dialect: dict[str, str]) -> None:
        self.model, self.flat, self.dialect = model, flat, dialect
        self.ids = names(flat)
        self.lines: list[str] = []
        self.introduced: list[str] = []
        self.count = 0
        self.booleans: dict[Hashable, str] = {}

    def text(self) -> str:
        declared = []
        for name, variable in self.flat.variables.items():
            declared.append(self._declaration(name, variable.domain,
                                              name not in self.model.variables))
        for c in self.flat.constraints:
            self.constraint(c)
        return "\n".join(declared + self.introduced + self.lines + ["solve satisfy;", ""])

    def _declaration(self, name: Hashable, domain: Sequence[int], introduced: bool) -> str:
        if not domain:
            raise InputError(f"the variable {name!r} has an empty domain, which FlatZinc "
                             "cannot declare", token=name)
        notes = " :: var_is_introduced" if introduced else " :: output_var"
        if self.ids[name] != name and not introduced:
            shown = name if isinstance(name, int) and not isinstance(name, bool) else \
                json.dumps(str(name))
            notes += f" :: csp_name({shown})"
        return f"var {_domain(domain)}: {self.ids[name]}{notes};"

    # -- names and literals ---------------------------------------------------------------

    def id(self, v: Any) -> str:
        return self.ids[v.name if isinstance(v, Term) else v]

    def term(self, v: Any) -> str:
        return str(v) if isinstance(v, int) else self.id(v)

    def fresh(self, kind: str) -> str:
        self.count += 1
        name = f"X_INTRODUCED_{self.count}_"
        self.introduced.append(f"var {kind}: {name} :: var_is_introduced :: is_defined_var;")
        return name

    def post(self, name: str, *args: str) -> None:
        self.lines.append(f"constraint {name}({', '.join(args)});")

    # -- constraints -----------------------------------------------------------------------

    def constraint(self, c: Constraint) -> None:
        if isinstance(c, Compare):
            right = str(c.constant) if c.constant is not None else self.id(c.scope[1])
            self.post("int_eq" if c.op == "==" else "int_ne", self.id(c.scope[0]), right)
        elif isinstance(c, Linear):
            self.post(*self._linear(c))
        elif isinstance(c, (And, Or, Not, Xor, Iff, Implies)):
            self._logic(c)
        elif isinstance(c, AllDifferent):
            self.post("all_different_int", _array(self.id(v) for v in c.scope))
        elif isinstance(c, Table):
            self._table(c)
        elif isinstance(c, Comparison):
            self._function(c)
        elif isinstance(c, Regular):
            self._regular(c)
        elif isinstance(c, GlobalCardinality):
            closed = "_closed" if c.closed else ""
            self.post(self.dialect["cardinality"] + closed,
                      _array(self.id(v) for v in c.variables), _array(map(str, c.values)),
                      _array(str(k) if fixed else self.id(k)
                             for k, fixed in zip(c.counts, c.fixed)))
        else:
            raise InputError(f"{c.describe()}: no FlatZinc form (this is a bug of the writer)")

    def _linear(self, c: Linear, reified: str | None = None) -> list[str]:
        weights, op, rhs = list(c.weights), c.op, c.rhs
        if op == ">=":
            weights, op, rhs = [-w for w in weights], "<=", -rhs
        name = {"==": "int_lin_eq", "<=": "int_lin_le", "!=": "int_lin_ne"}[op]
        args = [_array(map(str, weights)), _array(self.id(v) for v in c.scope), str(rhs)]
        if reified is not None:
            return [name + "_reif", *args, reified]
        return [name, *args]

    def _table(self, c: Table) -> None:
        domains = [self.flat.variables[v].domain for v in c.scope]
        if c.forbidden and math.prod(len(d) for d in domains) > ALLOWED_TUPLES:
            for row in c.tuples:  # a clause per forbidden tuple: some value differs
                literals = []
                for v, x in zip(c.scope, row):
                    b = self.fresh("bool")
                    self.post("int_ne_reif", self.id(v), str(x), b)
                    literals.append(b)
                self.post("bool_clause", _array(literals), "[]")
            return
        rows = c.allowed(domains) if c.forbidden else c.tuples
        if not c.scope:
            # A constant (a constraint over fixed values, tabled): Gecode
            # takes a table over no variable as true, allowing nothing or not.
            if not rows:
                self.post("bool_eq", "true", "false")
            return
        flat = [str(x) for row in rows for x in row]
        self.post(self.dialect["table"], _array(self.id(v) for v in c.scope), _array(flat))

    def _regular(self, c: Regular) -> None:
        states = {q: k + 1 for k, q in enumerate(_states(c))}
        symbols = max(s for _, s, _ in c.transitions)
        table = [0] * (len(states) * symbols)
        for q, s, r in c.transitions:
            table[(states[q] - 1) * symbols + s - 1] = states[r]
        accepting = sorted(states[q] for q in c.accepting if q in states)
        self.post(self.dialect["regular"], _array(self.id(v) for v in c.scope),
                  str(len(states)), str(symbols), _array(map(str, table)),
                  str(states[c.start]), "{" + ", ".join(map(str, accepting)) + "}")

    def _function(self, c: Comparison) -> None:
        f, result = c.left, self.term(c.right)
        args = [self.term(a) for a in f.args]
        if isinstance(f, Times):
            self.post("int_times", args[0], args[1], result)
        elif isinstance(f, Div):
            self.post("int_div", args[0], args[1], result)
        elif isinstance(f, Mod):
            self.post("int_mod", args[0], args[1], result)
        elif isinstance(f, Abs):
            self.post("int_abs", args[0], result)
        elif isinstance(f, (Minimum, Maximum)):
            kind = "minimum" if isinstance(f, Minimum) else "maximum"
            self.post(f"array_int_{kind}", result, _array(args))
        elif isinstance(f, NValue):
            self.post("nvalue", result, _array(args))
        elif isinstance(f, Element):
            index = f.index
            if isinstance(index, int):
                position = str(index + 1)
            else:
                domain = index.domain
                position = self.fresh(f"{domain[0] + 1}..{domain[-1] + 1}")
                self.post("int_lin_eq", "[1, -1]", f"[{position}, {self.id(index)}]", "1")
            self.post("array_var_int_element", position, _array(args[:-1]), result)
        else:
            raise InputError(f"{c.describe()}: no FlatZinc form")

    # -- logic -------------------------------------------------------------------------------

    def _logic(self, c: Constraint) -> None:
        """Post logic as it holds at the top: no literal for the whole."""
        if isinstance(c, And):
            for part in c.args:
                self.constraint(part)
        elif isinstance(c, Or):
            self.post("bool_clause", _array(self.literal(a) for a in c.args), "[]")
        elif isinstance(c, Not):
            self.post("bool_eq", self.literal(c.args[0]), "false")
        elif isinstance(c, Implies):
            self.post("bool_clause", _array([self.literal(c.args[1])]),
                      _array([self.literal(c.args[0])]))
        elif isinstance(c, Iff):
            self.post("bool_eq", self.literal(c.args[0]), self.literal(c.args[1]))
        elif isinstance(c, Xor):
            self.post("array_bool_xor", _array(self.literal(a) for a in c.args))

    def literal(self, c: Constraint) -> str:
        """A `var bool` that holds exactly when `c` does."""
        if isinstance(c, Compare) and c.op == "==" and c.constant == 1 and \
                set(self.flat.variables[c.scope[0]].domain) <= {0, 1}:
            return self._boolean(c.scope[0])
        b = self.fresh("bool")
        if isinstance(c, Compare):
            right = str(c.constant) if c.constant is not None else self.id(c.scope[1])
            self.post("int_eq_reif" if c.op == "==" else "int_ne_reif", self.id(c.scope[0]),
                      right, b)
        elif isinstance(c, Linear):
            self.post(*self._linear(c, b))
        elif isinstance(c, And):
            self.post("array_bool_and", _array(self.literal(a) for a in c.args), b)
        elif isinstance(c, Or):
            self.post("array_bool_or", _array(self.literal(a) for a in c.args), b)
        elif isinstance(c, Not):
            self.post("bool_not", self.literal(c.args[0]), b)
        elif isinstance(c, Implies):
            self.post("bool_le_reif", self.literal(c.args[0]), self.literal(c.args[1]), b)
        elif isinstance(c, Iff):
            self.post("bool_eq_reif", self.literal(c.args[0]), self.literal(c.args[1]), b)
        elif isinstance(c, Xor):  # b is the parity: an odd number of the operands, b, true
            self.post("array_bool_xor", _array([*(self.literal(a) for a in c.args), b, "true"]))
        else:
            raise InputError(f"{c.describe()}: no FlatZinc form inside logic")
        return b

    def _boolean(self, name: Hashable) -> str:
        """The `var bool` of a 0/1 variable of the model (`bool2int`)."""
        if name not in self.booleans:
            b = self.fresh("bool")
            self.post("bool2int", b, self.id(name))
            self.booleans[name] = b
        return self.booleans[name]


def _states(c: Regular) -> list[Hashable]:
    seen: dict[Hashable, None] = {c.start: None}
    for q, _, r in c.transitions:
        seen.setdefault(q, None)
        seen.setdefault(r, None)
    return list(seen)


def _array(items: Any) -> str:
    return "[" + ", ".join(items) + "]"


def _domain(values: Sequence[int]) -> str:
    if values[-1] - values[0] + 1 == len(values):
        return f"{values[0]}..{values[-1]}"
    return "{" + ", ".join(map(str, values)) + "}"


__all__ = ["CAPABILITIES", "DIALECTS", "format", "names", "write"]
