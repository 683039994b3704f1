"""The functions and globals the bitmask kernel takes natively, lowered to its
arrays: `Element` and `Count` compared with a variable or an int,
`GlobalCardinality`, `Regular`, `Circuit` and `Connected` (each kernel
module's docstring states its entries and parameters).

Offsets into `params` written here are absolute (the position of the
constraint's parameters plus the offset within them), as the kernel reads
them.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from csp.backends.bitmask.layout import (
    CIRCUIT,
    CONNECTED,
    COUNT,
    ELEMENT,
    LINEAR,
    OP_EQ,
    OP_GE,
    OP_LE,
    OP_NE,
    REGULAR,
)
from csp.constraints import Constraint
from csp.decompose import deterministic
from csp.expressions import Comparison, Count, Element
from csp.global_constraints import Circuit, Connected, GlobalCardinality, Regular
from csp.model import Model

if TYPE_CHECKING:
    from csp.backends.bitmask.compile import _Builder

KINDS = frozenset({"Element", "Count", "GlobalCardinality", "Regular", "Circuit", "Connected"})
"""The kinds lowered here: capabilities of the bitmask backend."""

COUNT_OPS = {"==": (OP_EQ, 0), "!=": (OP_NE, 0), "<=": (OP_LE, 0), "<": (OP_LE, 1),
             ">=": (OP_GE, 0), ">": (OP_GE, -1)}
"""`count op k` as `(count + shift) op' k` with op' one of ==, !=, <=, >=."""
TESTS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
         ">": operator.gt, ">=": operator.ge}
MAX_VALUES = 64


def takes(c: Constraint) -> bool:
    """Whether `c` is lowered here."""
    if isinstance(c, Comparison):
        return isinstance(c.left, (Element, Count)) and c.kinds() <= KINDS
    return isinstance(c, (GlobalCardinality, Regular, Circuit, Connected))


def add(b: _Builder, c: Constraint) -> None:
    if isinstance(c, Comparison):
        (element if isinstance(c.left, Element) else count)(b, c)
    elif isinstance(c, GlobalCardinality):
        cardinality(b, c)
    elif isinstance(c, Regular):
        regular(b, c)
    elif isinstance(c, Circuit):
        circuit(b, c)
    elif isinstance(c, Connected):
        connected(b, c)


def _maps(b: _Builder, base: int, maps: list[list[int]]) -> list[int]:
    """The absolute offsets of `maps` laid out after their offsets, from `base`,
    then the maps."""
    offsets, at = [], base + len(maps)
    for m in maps:
        offsets.append(at)
        at += len(m)
    return offsets + [k for m in maps for k in m]


def _bits(b: _Builder, x: int, test) -> int:
    """The mask of x's values that pass `test`."""
    mask = 0
    for k, value in enumerate(b.layout[x]):
        if test(value):
            mask |= 1 << k
    return mask - (1 << 64) if mask >= 1 << 63 else mask


# -- Element and Count ---------------------------------------------------------------------


def element(b: _Builder, c: Comparison) -> None:
    f: Element = c.left
    array = [b.operand(a) for a in f.array]
    n = len(array)
    i = b.operand(f.index)
    b.dom0[i] &= _bits(b, i, lambda j: 0 <= j < n)
    if c.op == "==":
        y = b.operand(c.right)
    else:  # y = array[index], a hidden variable, compared
        y = b.hidden(_element_values(b, array, i, c), f"the value of {f.describe()}")
        if not isinstance(c.right, int):
            b.compare_variables(y, c.op, b.operand(c.right))
    maps = [[b.bit_of[y].get(v, -1) for v in b.layout[a]] for a in array]
    b._emit(ELEMENT, [i, y, *array], [n, *_maps(b, len(b.params) + 1, maps)])


def _element_values(b: _Builder, array: list[int], i: int, c: Comparison) -> list[int]:
    """The values `array[i]` may take (those that pass the comparison, if with an int)."""
    positions = [j for k, j in enumerate(b.layout[i]) if (b.dom0[i] >> k) & 1]
    values = set().union(*(b.layout[array[j]] for j in positions)) if positions else set()
    if isinstance(c.right, int):
        test = TESTS[c.op]
        values = {v for v in values if test(v, c.right)}
    return sorted(values)


def count(b: _Builder, c: Comparison) -> None:
    f: Count = c.left
    xs = [b.operand(x) for x in f.items]
    t = b.operand(f.target)
    k = b.operand(c.right)
    op, shift = COUNT_OPS[c.op]
    _count(b, xs, t, k, op, shift)


def _count(b: _Builder, xs: list[int], t: int, k: int, op: int, shift: int) -> None:
    maps = [[b.bit_of[x].get(v, -1) for v in b.layout[t]] for x in xs]
    b._emit(COUNT, [t, k, *xs], [len(xs), op, shift, *_maps(b, len(b.params) + 3, maps)])


def cardinality(b: _Builder, c: GlobalCardinality) -> None:
    """One count per value; with `closed`, the variables within the values;
    and the counts' sum (at most the number of variables, all of them if
    closed), which the counts alone do not see."""
    xs = [b.index[name] for name in c.variables]
    var_counts: dict[int, int] = {}
    fixed_total = 0
    for value, counted, fixed in zip(c.values, c.counts, c.fixed):
        k = b.constant(counted) if fixed else b.index[counted]
        _count(b, xs, b.constant(value), k, OP_EQ, 0)
        if fixed:
            fixed_total += counted
        else:
            var_counts[k] = var_counts.get(k, 0) + 1
    if c.closed:
        allowed = set(c.values)
        for x in xs:
            b.dom0[x] &= _bits(b, x, allowed.__contains__)
    if var_counts:
        op = OP_EQ if c.closed else OP_LE
        b._emit(LINEAR, list(var_counts), [op, len(xs) - fixed_total, *var_counts.values()])


# -- Regular, Circuit, Connected -----------------------------------------------------------


def regular(b: _Builder, c: Regular) -> None:
    scope = [b.index[name] for name in c.scope]
    if not scope:
        b.feasible &= c.start in c.accepting
        return
    start, accepting, transitions = deterministic(c, [b.layout[x] for x in scope])
    states = 1 + max([start, *(max(q, r) for q, _, r in transitions)])
    symbols = sorted({symbol for _, symbol, _ in transitions})
    number = {symbol: k for k, symbol in enumerate(symbols)}
    delta = [-1] * (states * len(symbols))
    for q, symbol, r in transitions:
        delta[q * len(symbols) + number[symbol]] = r
    final = set(accepting)
    tables = [*(int(q in final) for q in range(states)), *delta]
    maps = [[number.get(v, -1) for v in b.layout[x]] for x in scope]
    base = len(b.params) + 3
    offsets = _maps(b, base + len(tables), maps)
    n = len(scope)
    b._emit(REGULAR, scope, [states, len(symbols), start, *offsets[:n], *tables, *offsets[n:]])
    b.need_scratch((n + 1) * states)


def circuit(b: _Builder, c: Circuit) -> None:
    scope = [b.index[name] for name in c.scope]
    n = len(scope)
    for node, x in enumerate(scope):  # no node is its own successor, but a lone one
        b.dom0[x] &= _bits(b, x, (lambda j, node=node: j != node) if n > 1 else (0).__eq__)
    if n > 1:
        b._all_different(scope)
        b._emit(CIRCUIT, scope, [])
        b.need_scratch(2 * n)


def connected(b: _Builder, c: Connected) -> None:
    scope = [b.index[name] for name in c.scope]
    n = len(scope)
    if n <= 1:
        return
    ones = [_bits(b, x, (1).__eq__) for x in scope]
    around = c.neighbours()
    base = len(b.params) + 1 + n  # the neighbour lists' offsets start here
    starts, at = [], base + n + 1
    for nodes in around:
        starts.append(at)
        at += len(nodes)
    starts.append(at)
    b._emit(CONNECTED, scope, [n, *ones, *starts, *(j for nodes in around for j in nodes)])
    b.need_scratch(7 * n)


# -- what cannot fit -----------------------------------------------------------------------


def too_large(model: Model) -> str | None:
    """Why a hidden variable of this model would not fit in a mask, or None:
    the value of an `Element` compared otherwise than by `==`."""
    domains: dict[Hashable, Sequence[int]] = {name: v.domain for name, v in
                                              model.variables.items()}
    for c in model.constraints:
        if isinstance(c, Comparison) and isinstance(c.left, Element) and c.op != "==":
            f: Element = c.left
            n = len(f.array)
            index = [f.index] if isinstance(f.index, int) else domains[f.index.name]
            values: set[int] = set()
            for j in index:
                if 0 <= j < n:
                    a = f.array[j]
                    values.update([a] if isinstance(a, int) else domains[a.name])
            if isinstance(c.right, int):
                values = {v for v in values if TESTS[c.op](v, c.right)}
            if len(values) > MAX_VALUES:
                return (f"{c.describe()}: its value may take {len(values)} values; the "
                        f"bitmask backend keeps one in a 64-bit mask")
    return None
