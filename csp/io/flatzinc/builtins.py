"""FlatZinc's builtin constraints as constraints of the model language.

The builtins are those of the FlatZinc specification (MiniZinc 2.6), with
their semantics: integers (`int_eq`, `int_lin_le`, `int_times`, `int_div`
rounding towards zero, `array_int_element` indexed from 1, ...), booleans
(`bool_clause`, `array_bool_and`, `bool2int`, ...), set membership over
constant sets (`set_in`), each with its reified form (`_reif`: `r` holds
exactly when the constraint does) and half-reified form (`_imp`: `r`
implies it). The globals a solver library may keep (MiniZinc calls them
with or without the `fzn_` prefix) map onto the model language's own:
`all_different_int`, `alldifferent_except_0`, `all_equal_int`, `table_int`,
`regular`, `global_cardinality` (and `_closed`), `increasing_int`,
`decreasing_int`, `lex_less_int`, `lex_lesseq_int`, `count_eq`, `nvalue`.

A builtin not here is an `InputError` naming it and its line (float and set
variables, for instance): nothing is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from csp.constraints import AllDifferent, Compare, Expression, Table, Term
from csp.errors import InputError
from csp.expressions import Abs, Count, Div, Element, Maximum, Minimum, Mod, NValue, Times
from csp.global_constraints import (
    AllDifferentExcept,
    AllEqual,
    Decreasing,
    GlobalCardinality,
    Increasing,
    LexLess,
    LexLessEq,
    Regular,
)
from csp.io.flatzinc.grammar import Call
from csp.io.folding import (
    LOGIC,
    Truth,
    add_folded,
    conjunction,
    disjunction,
    linear,
    negation,
    relation,
)

Args = list[Any]
Builtin = Callable[[Args], Any]


def truth(v: Any) -> Truth:
    """A boolean argument: a par bool, or a 0/1 variable as `v == 1`."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v != 0
    return Compare(v, "==", 1)


def number(v: Any) -> Any:
    return int(v) if isinstance(v, bool) else v


def _numbers(vs: Any) -> list[Any]:
    return [number(v) for v in vs]


def _reified(make: Builtin) -> Builtin:
    """`name_reif(args..., r)`: r holds exactly when name(args) does."""
    def reif(args: Args) -> Any:
        return LOGIC["iff"]([truth(args[-1]), _one(make(args[:-1]))])
    return reif


def _implied(make: Builtin) -> Builtin:
    """`name_imp(args..., r)`: r implies name(args)."""
    def imp(args: Args) -> Any:
        return LOGIC["imp"]([truth(args[-1]), _one(make(args[:-1]))])
    return imp


def _one(made: Any) -> Truth:
    return conjunction(made) if isinstance(made, list) else made


def _compare(op: str) -> Builtin:
    return lambda a: relation(number(a[0]), op, number(a[1]))


def _lin(op: str) -> Builtin:
    return lambda a: linear(a[0], _numbers(a[1]), op, number(a[2]))


def _element(a: Args) -> Truth:
    index, array, value = number(a[0]), _numbers(a[1]), number(a[2])
    low = index if isinstance(index, int) else min(index.domain, default=1)
    if isinstance(index, int):
        return relation(array[index - 1], "==", value) if 1 <= index <= len(array) else False
    if low >= 1:  # 1-based: a copy of the first entry at 0, which the index never takes
        return relation(Element([array[0], *array] if array else [0], index), "==", value)
    return relation(Element(array, Expression.of(index) - 1), "==", value)


def _clause(a: Args) -> Truth:
    return disjunction([truth(x) for x in a[0]] + [negation(truth(x)) for x in a[1]])


def _set_in(a: Args) -> Truth:
    x, values = number(a[0]), a[1]
    if isinstance(x, int):
        return x in values
    if isinstance(x, Term) and len(values) <= 64:
        return disjunction([Compare(x, "==", v) for v in sorted(values)
                            if v in x.domain])  # type: ignore[attr-defined]
    if isinstance(x, Term):
        return Table([x], [(v,) for v in values])
    return disjunction([relation(x, "==", v) for v in sorted(values)])


def _pow(a: Args) -> Truth:
    base, exponent, result = _numbers(a)
    if not isinstance(exponent, int):
        raise InputError("int_pow with a variable exponent is outside what csp takes")
    if exponent < 0:
        raise InputError(f"int_pow with the negative exponent {exponent}")
    value: Any = 1
    for _ in range(exponent):
        value = value * base if isinstance(value, int) and isinstance(base, int) else \
            (base if isinstance(value, int) and value == 1 else Times(value, base))
    return relation(value, "==", result)


def _table(a: Args) -> Truth:
    xs, flat = _numbers(a[0]), a[1]
    n = len(xs)
    if n == 0 or len(flat) % n:
        raise InputError(f"table_int: {len(flat)} values do not make tuples of {n}")
    rows = [tuple(flat[k:k + n]) for k in range(0, len(flat), n)]
    if all(isinstance(x, Term) for x in xs) and len({id(x) for x in xs}) == n:
        return Table(xs, rows)
    return disjunction([conjunction([relation(x, "==", v) for x, v in zip(xs, row)])
                        for row in rows])


def _regular(a: Args) -> Truth:
    xs, states, symbols, table, start, accepting = a
    if len(table) != states * symbols:
        raise InputError(f"regular: a transition table of {len(table)} entries for {states} "
                         f"states and {symbols} symbols")
    transitions = [(q, s, table[(q - 1) * symbols + (s - 1)])
                   for q in range(1, states + 1) for s in range(1, symbols + 1)
                   if table[(q - 1) * symbols + (s - 1)] != 0]
    live = {q for q, _, _ in transitions} | {r for _, _, r in transitions}
    if not transitions or start not in live or not set(accepting) & live:
        return not xs and start in set(accepting)
    return Regular(_numbers(xs), transitions, start, [q for q in accepting if q in live])


def _distinct(xs: list[Any]) -> bool:
    return all(isinstance(x, Term) for x in xs) and len({id(x) for x in xs}) == len(xs)


def _all_different(a: Args) -> Truth:
    xs = _numbers(a[0])
    if _distinct(xs):
        return AllDifferent(xs) if len(xs) > 1 else True
    return conjunction([relation(x, "!=", y) for i, x in enumerate(xs) for y in xs[i + 1:]])


def _except_0(a: Args) -> Truth:
    xs = _numbers(a[0])
    if _distinct(xs):
        return AllDifferentExcept(xs, [0]) if len(xs) > 1 else True
    return conjunction([disjunction([relation(x, "!=", y), relation(x, "==", 0)])
                        for i, x in enumerate(xs) for y in xs[i + 1:]])


def _all_equal(a: Args) -> Truth:
    xs = _numbers(a[0])
    if _distinct(xs) and len(xs) > 1:
        return AllEqual(xs)
    return conjunction([relation(x, "==", y) for x, y in zip(xs, xs[1:])])


def _ordered(kind: type, op: str) -> Builtin:
    def ordered(a: Args) -> Truth:
        xs = _numbers(a[0])
        if _distinct(xs) and len(xs) > 1:
            return kind(xs)
        return conjunction([relation(x, op, y) for x, y in zip(xs, xs[1:])])
    return ordered


def _lex(strict: bool) -> Builtin:
    def lex(a: Args) -> Truth:
        xs, ys = _numbers(a[0]), _numbers(a[1])
        if len(xs) == len(ys) and all(isinstance(v, Term) for v in xs + ys):
            return (LexLess if strict else LexLessEq)(xs, ys)
        options = [conjunction([relation(x, "==", y) for x, y in zip(xs[:k], ys[:k])]
                               + [relation(xs[k], "<", ys[k])])
                   for k in range(min(len(xs), len(ys)))]
        if len(xs) < len(ys) or not strict and len(xs) == len(ys):
            options.append(conjunction([relation(x, "==", y) for x, y in zip(xs, ys)]))
        return disjunction(options)
    return lex


def _cardinality(closed: bool) -> Builtin:
    def cardinality(a: Args) -> Truth:
        xs, cover, counts = _numbers(a[0]), a[1], _numbers(a[2])
        if _distinct(xs) and len(set(cover)) == len(cover):
            return GlobalCardinality(xs, cover, counts, closed=closed)
        parts = [relation(Count(xs, v), "==", k) for v, k in zip(cover, counts)]
        if closed:
            parts += [disjunction([relation(x, "==", v) for v in cover]) for x in xs]
        return conjunction(parts)
    return cardinality


BUILTINS: dict[str, Builtin] = {
    "int_eq": _compare("=="), "int_ne": _compare("!="), "int_le": _compare("<="),
    "int_lt": _compare("<"),
    "int_lin_eq": _lin("=="), "int_lin_ne": _lin("!="), "int_lin_le": _lin("<="),
    "int_lin_lt": _lin("<"),
    "int_plus": lambda a: relation(Expression.of(number(a[0])) + number(a[1]), "==",
                                   number(a[2])),
    "int_minus": lambda a: relation(Expression.of(number(a[0])) - number(a[1]), "==",
                                    number(a[2])),
    "int_negate": lambda a: relation(-Expression.of(number(a[0])), "==", number(a[1])),
    "int_times": lambda a: relation(Times(number(a[0]), number(a[1])), "==", number(a[2])),
    "int_div": lambda a: relation(Div(number(a[0]), number(a[1]), rounding="zero"), "==",
                                  number(a[2])),
    "int_mod": lambda a: relation(Mod(number(a[0]), number(a[1]), rounding="zero"), "==",
                                  number(a[2])),
    "int_min": lambda a: relation(Minimum(_numbers(a[:2])), "==", number(a[2])),
    "int_max": lambda a: relation(Maximum(_numbers(a[:2])), "==", number(a[2])),
    "int_abs": lambda a: relation(Abs(number(a[0])), "==", number(a[1])),
    "int_pow": _pow,
    "array_int_element": _element, "array_var_int_element": _element,
    "array_bool_element": _element, "array_var_bool_element": _element,
    "array_int_maximum": lambda a: relation(Maximum(_numbers(a[1])), "==", number(a[0])),
    "array_int_minimum": lambda a: relation(Minimum(_numbers(a[1])), "==", number(a[0])),
    "set_in": _set_in,
    "bool_eq": lambda a: LOGIC["iff"]([truth(a[0]), truth(a[1])]),
    "bool_ne": lambda a: negation(LOGIC["iff"]([truth(a[0]), truth(a[1])])),
    "bool_le": lambda a: LOGIC["imp"]([truth(a[0]), truth(a[1])]),
    "bool_lt": lambda a: conjunction([negation(truth(a[0])), truth(a[1])]),
    "bool_not": lambda a: negation(LOGIC["iff"]([truth(a[0]), truth(a[1])])) if len(a) == 2
    else negation(truth(a[0])),
    "bool_and": lambda a: LOGIC["iff"]([truth(a[2]), conjunction([truth(a[0]), truth(a[1])])])
    if len(a) == 3 else conjunction([truth(a[0]), truth(a[1])]),
    "bool_or": lambda a: LOGIC["iff"]([truth(a[2]), disjunction([truth(a[0]), truth(a[1])])])
    if len(a) == 3 else disjunction([truth(a[0]), truth(a[1])]),
    "bool_xor": lambda a: LOGIC["iff"]([truth(a[2]), LOGIC["xor"]([truth(a[0]), truth(a[1])])])
    if len(a) == 3 else LOGIC["xor"]([truth(a[0]), truth(a[1])]),
    "bool_clause": _clause,
    "array_bool_and": lambda a: LOGIC["iff"]([truth(a[1]), conjunction([truth(x)
                                                                        for x in a[0]])]),
    "array_bool_or": lambda a: LOGIC["iff"]([truth(a[1]), disjunction([truth(x)
                                                                       for x in a[0]])]),
    "array_bool_xor": lambda a: LOGIC["xor"]([truth(x) for x in a[0]]),
    "bool2int": lambda a: relation(number(a[0]), "==", number(a[1])),
    "bool_lin_eq": _lin("=="), "bool_lin_le": _lin("<="),
    # globals a solver library may keep
    "all_different_int": _all_different, "alldifferent_except_0": _except_0,
    "all_equal_int": _all_equal, "table_int": _table, "table_bool": _table,
    "regular": _regular, "global_cardinality": _cardinality(False),
    "global_cardinality_closed": _cardinality(True),
    "increasing_int": _ordered(Increasing, "<="), "decreasing_int": _ordered(Decreasing, ">="),
    "lex_less_int": _lex(True), "lex_lesseq_int": _lex(False),
    "count_eq": lambda a: relation(Count(_numbers(a[0]), number(a[1])), "==", number(a[2])),
    "nvalue": lambda a: relation(NValue(_numbers(a[1])), "==", number(a[0])),
}
for _name in ["int_eq", "int_ne", "int_le", "int_lt", "int_lin_eq", "int_lin_ne", "int_lin_le",
              "int_lin_lt", "set_in", "bool_eq", "bool_le", "bool_lt", "bool_clause",
              "bool_lin_eq", "bool_lin_le"]:
    BUILTINS[f"{_name}_reif"] = _reified(BUILTINS[_name])
    BUILTINS[f"{_name}_imp"] = _implied(BUILTINS[_name])
for _name in ["bool_and", "bool_or", "bool_xor"]:  # (a, b, r): r -> a op b
    BUILTINS[f"{_name}_imp"] = _implied(BUILTINS[_name])
BUILTINS["array_bool_and_imp"] = lambda a: LOGIC["imp"](
    [truth(a[1]), conjunction([truth(x) for x in a[0]])])
BUILTINS["array_bool_or_imp"] = lambda a: LOGIC["imp"](
    [truth(a[1]), disjunction([truth(x) for x in a[0]])])


_ALIASES = {"gecode_table_int": "table_int", "gecode_regular": "regular",
            "gecode_global_cardinality": "global_cardinality",
            "gecode_global_cardinality_closed": "global_cardinality_closed"}
"""Gecode's names of the globals it keeps (`fzn-gecode` reads these)."""


def post(builder: Any, call: Call) -> None:
    """Post the constraint of a FlatZinc call into the builder's model."""
    name = _ALIASES.get(call.name, call.name.removeprefix("fzn_").removeprefix("csp_"))
    make = BUILTINS.get(name)
    if make is None:
        kind = ("a float constraint" if name.startswith(("float_", "array_float"))
                else "a constraint on set variables" if name.startswith("set_")
                else "a builtin csp does not know")
        raise InputError(f"{call.name}: {kind} (csp takes the integer and boolean builtins "
                         "of FlatZinc; compile with -G std, or csp's solver library)",
                         line=call.line, token=call.name)
    args = [builder.value(arg, call) for arg in call.args]
    try:
        made = make(args)
        for part in made if isinstance(made, list) else [made]:
            add_folded(builder.model, part)
    except InputError as err:
        raise err.located(line=call.line) from None
    except (IndexError, TypeError, ValueError, AttributeError) as err:
        raise InputError(f"{call.name}: arguments it cannot take ({type(err).__name__}: "
                         f"{err})", line=call.line, token=call.name) from None




__all__ = ["BUILTINS", "post", "truth"]
