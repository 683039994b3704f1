"""Compile a `Model` into the flat int64 arrays the bitmask kernel runs on.

Glossary:

- a variable's *mask* has bit k set when `domain[k]` (its k-th smallest value)
  is still possible, so a domain holds at most 64 values;
- a constraint's *entries* are the positions of its scope, numbered across all
  constraints (`cstart[c]..cstart[c+1]` in `cvars`);
- all-different and subset-sum constraints reason in a *common* value space,
  the sorted union of their variables' values: an entry maps a variable's mask
  into it by a shift (`cshift >= 0`, when the variable's values are consecutive
  in the union, as for sudoku and kakuro) or bit by bit through `tmap`.

Unary constraints (`x == 3`, `x != 3`) are applied to the initial masks here
and cost nothing during search; so are the givens of a large all-different,
which then leave it (`_Builder._without_givens`).

Logic is lowered by `compile_logic` (clauses, parities, reified sums and
equalities over literals), the functions and globals by `compile_globals`.
Both may declare *hidden* variables (`_Builder.hidden`): a constant of the
model as a variable of one value, the truth of a nested formula, the value
of an `Element` compared otherwise than by `==`. Each is a function of the
declared variables, so counts do not change; solutions leave them out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from csp.backends.bitmask import compile_globals, compile_logic
from csp.backends.bitmask.layout import (
    ALLDIFF,
    LINEAR,
    NOGOOD,
    NOTEQUAL,
    OP_EQ,
    OP_GE,
    OP_LE,
    OP_NE,
    SUBSETSUM,
    TABLE,
    Problem,
    incidence,
)
from csp.constraints import (
    MAX_RELATION_TUPLES,
    AllDifferent,
    Compare,
    Constraint,
    Linear,
    Table,
    Term,
)
from csp.errors import InputError
from csp.logic import Logic
from csp.model import Model

MAX_VALUES = 64
"""The most values a variable may have: one bit each in a 64-bit mask."""
SUBSET_MAX_VALUES = 16
"""A sum over all-different variables with at most this many values in their
union gets a table of all value subsets (2**16 rows at most), as kakuro solvers do."""
FORBIDDEN_EXPAND = 1 << 16
"""A forbidden-tuples table over a smaller domain product becomes an allowed one."""
MAGNITUDE_LIMIT = 1 << 62
"""Sums whose terms could exceed this (in absolute value) would overflow int64."""

OP_CODES = {"==": OP_EQ, "<=": OP_LE, ">=": OP_GE, "!=": OP_NE}
OTHER_BACKENDS = "dlx, cpsat or python-constraint"

_OVERLAPS: dict[tuple, tuple[list[int], list[int], list[int], list[int]]] = {}
"""The overlaps of recently compiled structures of all-differents (a few kept)."""


@dataclass
class Compiled:
    """A model as kernel arrays, plus what is needed to read solutions back."""

    problem: Problem
    names: list[Hashable]
    """The declared variables, the first of the kernel's (hidden ones follow)."""
    values: list[tuple[int, ...]]
    feasible: bool
    """False when a constraint over no variable is already violated."""


KEEP_GIVENS = 16
"""An all-different of at most this many variables keeps its givens (see
`_Builder._without_givens`): scanning a few more cells costs its searches
less than taking them out costs the compiling of each puzzle, whose
all-differents then share no structure with another puzzle's (9x9 sudokus
compiled one by one: 0.39 against 0.72 ms each, bench/RESULTS.md, stop 57)."""


class _Builder:
    def __init__(self, model: Model) -> None:
        self.model = model
        self.names = list(model.variables)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.values = [model.variables[name].domain for name in self.names]
        self.layout = list(_layout(self.values))  # (a copy: hidden variables join it)
        # Variables usually share a few distinct layouts: build their maps once.
        self.distinct: dict[tuple[int, ...], int] = {}
        self.domain_id = [self.distinct.setdefault(vs, len(self.distinct)) for vs in self.layout]
        self.shared = [{value: k for k, value in enumerate(vs)} for vs in self.distinct]
        self.bit_of = [self.shared[i] for i in self.domain_id]
        masks: dict[tuple[tuple[int, ...], int], int] = {}
        self.dom0 = [
            masks.setdefault((vs, i), _mask(self.bit_of[x][v] for v in vs))
            for x, (vs, i) in enumerate(zip(self.values, self.domain_id))
        ]
        self.placements: dict[tuple[int, int], tuple[int, list[int]]] = {}
        self.union_ids: dict[tuple[int, ...], int] = {}
        self.feasible = True
        self.kind: list[int] = []
        self.cvars: list[int] = []
        self.cstart = [0]
        self.cshift: list[int] = []
        self.ctoff: list[int] = []
        self.tmap: list[int] = []
        self.params: list[int] = []
        self.pstart = [0]
        self.sub_tables: dict[tuple[int, ...], int] = {}
        self.sub_first: list[int] = []
        self.sub_rowptr: list[int] = []
        self.sub_sum: list[np.ndarray] = []
        self.sub_mask: list[np.ndarray] = []
        self.n_sub_rows = 0
        self.alldiff_union: dict[int, tuple[int, ...]] = {}  # constraint -> its value space
        self.n_declared = len(self.names)
        self.constants: dict[int, int] = {}  # value -> its hidden variable
        self.scratch = 0  # the scratch the propagators need beyond the largest scope
        self.logic = compile_logic.Lowering(self)
        for name, vs in zip(self.names, self.values):
            if len(vs) > MAX_VALUES:
                raise InputError(
                    f"variable {name!r} has {len(vs)} values; the bitmask backend keeps a "
                    f"domain in one 64-bit mask and takes at most {MAX_VALUES} values per "
                    f"variable: use {OTHER_BACKENDS} for this model",
                    token=name,
                )

    # -- hidden variables ----------------------------------------------------------

    def hidden(self, values: Iterable[int], what: str) -> int:
        """A new variable over `values`, which no solution shows (see the module)."""
        layout = tuple(sorted(set(values)))
        if len(layout) > MAX_VALUES:
            raise InputError(f"the bitmask backend would need a variable of {len(layout)} "
                             f"values for {what}, over {MAX_VALUES}: use {OTHER_BACKENDS}")
        x = len(self.names)
        self.names.append(("hidden", x))
        self.values.append(layout)
        self.layout.append(layout)
        if layout not in self.distinct:
            self.distinct[layout] = len(self.distinct)
            self.shared.append({value: k for k, value in enumerate(layout)})
        self.domain_id.append(self.distinct[layout])
        self.bit_of.append(self.shared[self.domain_id[x]])
        self.dom0.append(_full(len(layout)))
        return x

    def constant(self, value: int) -> int:
        """A hidden variable whose one value is `value` (shared by every use)."""
        if value not in self.constants:
            self.constants[value] = self.hidden([value], f"the constant {value}")
        return self.constants[value]

    def operand(self, item: object) -> int:
        """The variable of an operand: a model's variable, or an int as a constant."""
        if isinstance(item, int):
            return self.constant(item)
        if isinstance(item, Term):
            return self.index[item.name]
        return self.index[item]

    def need_scratch(self, size: int) -> None:
        self.scratch = max(self.scratch, size)

    # -- constraints -------------------------------------------------------------

    def add(self, constraint: Constraint, all_different: list[frozenset[int]]) -> None:
        if isinstance(constraint, Logic):
            self.logic.post(constraint)
            return
        if compile_globals.takes(constraint):
            compile_globals.add(self, constraint)
            return
        scope = [self.index[name] for name in constraint.scope]
        if isinstance(constraint, Compare):
            self._compare(constraint, scope)
        elif isinstance(constraint, AllDifferent):
            self._all_different(scope)
        elif isinstance(constraint, Linear):
            self._linear(constraint, scope, all_different)
        elif isinstance(constraint, Table):
            self._table(constraint, scope)
        else:
            self._other(constraint, scope)

    def _compare(self, c: Compare, scope: list[int]) -> None:
        x = scope[0]
        if c.constant is not None:
            k = self.bit_of[x].get(c.constant)
            bit = 0 if k is None else _bit(k)
            self.dom0[x] &= bit if c.op == "==" else ~bit
            return
        self.compare_variables(x, c.op, scope[1])

    def compare_variables(self, x: int, op: str, y: int) -> None:
        """x op y between two variables, op one of == != < <= > >=."""
        if op == "!=":
            self._not_equal(x, y)
        elif op == "==":
            common = sorted(set(self.values[x]) & set(self.values[y]))
            self._allowed([x, y], [(self.bit_of[x][v], self.bit_of[y][v]) for v in common])
        else:
            code, rhs = {"<=": (OP_LE, 0), "<": (OP_LE, -1), ">=": (OP_GE, 0),
                         ">": (OP_GE, 1)}[op]
            self._emit(LINEAR, [x, y], [code, rhs, 1, -1])

    def _not_equal(self, x: int, y: int) -> None:
        map_xy = [self.bit_of[y].get(v, -1) for v in self.layout[x]]
        map_yx = [self.bit_of[x].get(v, -1) for v in self.layout[y]]
        self._emit(NOTEQUAL, [x, y], [len(map_xy), len(map_yx), *map_xy, *map_yx])

    def _all_different(self, scope: list[int]) -> None:
        scope = self._without_givens(scope)
        if len(scope) < 2:
            return
        if len({self.domain_id[v] for v in scope}) == 1:
            union = list(self.layout[scope[0]])
        else:
            union = sorted(set().union(*(self.layout[v] for v in scope)))
        if len(union) > MAX_VALUES:
            # No common 64-bit space: fall back to pairwise disequalities.
            for x, y in itertools.combinations(scope, 2):
                self._not_equal(x, y)
            return
        self.alldiff_union[len(self.kind)] = tuple(union)
        self._emit(ALLDIFF, scope, [len(union)], union)

    def _without_givens(self, scope: list[int]) -> list[int]:
        """An all-different's variables less its givens (one value each), whose
        values the others lose here, in their initial masks. The kernel then
        never reads the givens again: a 30x30 quasigroup with 315 holes keeps
        10 or 11 cells of 30 per row, and its singles, matching and
        explanations scan a third as many cells per run (bench/RESULTS.md,
        stop 57). Two givens of one value are left in: the root then fails.
        An all-different of at most KEEP_GIVENS variables keeps them all."""
        if len(scope) <= KEEP_GIVENS:
            return scope
        givens: dict[int, int] = {}  # given -> its value
        for x in scope:
            d = self.dom0[x]
            if d > 0 and d & (d - 1) == 0:
                givens[x] = self.layout[x][d.bit_length() - 1]
            elif d == _bit(63):
                givens[x] = self.layout[x][63]
        if not givens or len(set(givens.values())) < len(givens):
            return scope
        rest = [x for x in scope if x not in givens]
        for x in rest:
            bit_of = self.bit_of[x]
            for value in givens.values():
                k = bit_of.get(value)
                if k is not None:
                    self.dom0[x] &= ~_bit(k)
        return rest

    def terms(self, c: Linear, scope: list[int]) -> tuple[list[int], list[int]]:
        """The weights and variables of a sum's terms of weight other than 0
        (an `InputError` if they could overflow 64-bit arithmetic)."""
        terms = [(w, x) for w, x in zip(c.weights, scope) if w != 0]
        weights = [w for w, _ in terms]
        variables = [x for _, x in terms]
        size = abs(c.rhs) + sum(
            abs(w) * max((abs(v) for v in self.values[x]), default=0)
            for w, x in zip(weights, variables)
        )
        if size >= MAGNITUDE_LIMIT:
            raise InputError(f"{c.describe()}: its terms may reach {size}, beyond 64-bit "
                             "arithmetic; scale it down or use cpsat")
        return weights, variables

    def _linear(self, c: Linear, scope: list[int], all_different: list[frozenset[int]]) -> None:
        # Terms of weight 0 constrain nothing; a sum left empty is a constant test.
        weights, scope = self.terms(c, scope)
        if not scope:
            self.feasible &= _holds(0, c.op, c.rhs)
            return
        if c.op == "!=" and len(scope) == 1:  # w * x != rhs: a value less for x
            x, w = scope[0], weights[0]
            k = self.bit_of[x].get(c.rhs // w) if c.rhs % w == 0 else None
            if k is not None:
                self.dom0[x] &= ~_bit(k)
            return
        w = weights[0]
        union = sorted(set().union(*(self.layout[x] for x in scope)))
        if (
            c.op == "=="
            and len(scope) > 1
            and all(wi == w for wi in weights)
            and c.rhs % w == 0
            and len(union) <= SUBSET_MAX_VALUES
            and any(set(scope) <= group for group in all_different)
        ):
            table = self._subset_table(tuple(union))
            self._emit(SUBSETSUM, scope, [c.rhs // w, len(union), table, *union], union)
            return
        self._emit(LINEAR, scope, [OP_CODES[c.op], c.rhs, *weights])

    def _subset_table(self, union: tuple[int, ...]) -> int:
        if union not in self.sub_tables:
            sums, masks, rowptr = _subsets(union)
            self.sub_tables[union] = len(self.sub_first)
            self.sub_first.append(len(self.sub_rowptr))
            self.sub_rowptr.extend(int(r) + self.n_sub_rows for r in rowptr)
            self.sub_sum.append(sums)
            self.sub_mask.append(masks)
            self.n_sub_rows += len(sums)
        return self.sub_tables[union]

    def _table(self, c: Table, scope: list[int]) -> None:
        domains = [self.values[x] for x in scope]
        if c.forbidden and math.prod(len(d) for d in domains) > FORBIDDEN_EXPAND:
            rows = [r for r in (self._bits(scope, t) for t in c.tuples) if r is not None]
            if not scope:
                self.feasible &= not rows
            elif rows:
                self._emit(NOGOOD, scope, [len(rows), *itertools.chain(*rows)])
            return
        self._allowed(scope, [r for r in (self._bits(scope, t) for t in c.allowed(domains))
                              if r is not None])

    def _other(self, c: Constraint, scope: list[int]) -> None:
        # A constraint kind this backend has no propagator for: expand its checker.
        domains = [self.values[x] for x in scope]
        size = math.prod(len(d) for d in domains)
        if size > MAX_RELATION_TUPLES:
            raise InputError(f"the bitmask backend cannot take {c.describe()}: expanding it "
                             f"gives {size:,} tuples, over {MAX_RELATION_TUPLES:,}")
        rows = [
            tuple(self.bit_of[x][v] for x, v in zip(scope, t))
            for t in itertools.product(*domains)
            if c.holds(dict(zip(c.scope, t)))
        ]
        self._allowed(scope, rows)

    def _allowed(self, scope: list[int], rows: Sequence[tuple[int, ...]]) -> None:
        if not scope:
            self.feasible &= bool(rows)
            return
        self._emit(TABLE, scope, [len(rows), *itertools.chain(*rows)])

    def _bits(self, scope: list[int], values: Sequence[int]) -> tuple[int, ...] | None:
        bits = tuple(self.bit_of[x].get(v, -1) for x, v in zip(scope, values))
        return None if -1 in bits else bits

    def _emit(self, kind: int, scope: list[int], params: list[int],
              union: Sequence[int] | None = None) -> None:
        self.kind.append(kind)
        self.cvars.extend(scope)
        if union is None:
            self.cshift.extend([0] * len(scope))
            self.ctoff.extend([0] * len(scope))
        elif len({self.domain_id[x] for x in scope}) == 1 and len(union) == len(
                self.layout[scope[0]]):
            # One shared domain, which is the union: every shift is 0 (sudoku, kakuro).
            self.cshift.extend([0] * len(scope))
            self.ctoff.extend([0] * len(scope))
        else:
            union = tuple(union)
            uid = self.union_ids.setdefault(union, len(self.union_ids))
            for x in scope:
                shift, index = self._placement(x, union, uid)
                self.cshift.append(shift)
                if shift >= 0:
                    self.ctoff.append(0)
                else:
                    self.ctoff.append(len(self.tmap))
                    self.tmap.extend(index)
        self.cstart.append(len(self.cvars))
        self.params.extend(params)
        self.pstart.append(len(self.params))

    def _placement(self, x: int, union: tuple[int, ...], uid: int) -> tuple[int, list[int]]:
        """How x's bits map into `union` (numbered `uid`): (shift, []) or (-1, the bit
        of each value)."""
        key = (self.domain_id[x], uid)
        if key not in self.placements:
            position = {value: i for i, value in enumerate(union)}
            index = [position[v] for v in self.layout[x]]
            first = index[0] if index else 0
            if index == list(range(first, first + len(index))):
                self.placements[key] = (first, [])
            else:
                self.placements[key] = (-1, index)
        return self.placements[key]

    def overlaps(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Every ordered pair (A, B) of all-differents over one value space that
        share two or more variables, for the intersection reasoning: as CSR over
        A, with B and the shared positions of A and of B as bit masks.

        Puzzles of one kind share this structure (every 9x9 sudoku has the same
        rows, columns and boxes), so it is computed once per structure."""
        key = (len(self.kind), tuple(
            (c, tuple(self.cvars[self.cstart[c]:self.cstart[c + 1]]), union)
            for c, union in self.alldiff_union.items()))
        found = _OVERLAPS.get(key)
        if found is None:
            found = self._overlaps()
            if len(_OVERLAPS) >= 16:
                _OVERLAPS.pop(next(iter(_OVERLAPS)))
            _OVERLAPS[key] = found
        return found

    def _overlaps(self) -> tuple[list[int], list[int], list[int], list[int]]:
        position: dict[int, dict[int, int]] = {}  # constraint -> variable -> position
        by_var: dict[int, list[int]] = {}
        for c in self.alldiff_union:
            scope = self.cvars[self.cstart[c]:self.cstart[c + 1]]
            if len(scope) <= MAX_VALUES:
                position[c] = {x: i for i, x in enumerate(scope)}
                for x in scope:
                    by_var.setdefault(x, []).append(c)
        start = [0] * (len(self.kind) + 1)
        other: list[int] = []
        in_a: list[int] = []
        in_b: list[int] = []
        for c in range(len(self.kind)):
            if c in position:
                union = self.alldiff_union[c]
                shared: dict[int, list[int]] = {}
                for x in position[c]:
                    for d in by_var[x]:
                        if d != c and self.alldiff_union[d] == union:
                            shared.setdefault(d, []).append(x)
                for d, xs in shared.items():
                    if len(xs) < 2:
                        continue  # one shared variable: hidden singles already say it
                    other.append(d)
                    in_a.append(_mask(position[c][x] for x in xs))
                    in_b.append(_mask(position[d][x] for x in xs))
            start[c + 1] = len(other)
        return start, other, in_a, in_b

    # -- arrays --------------------------------------------------------------------

    def problem(self) -> Problem:
        n = len(self.names)
        vals = [v for vs in self.layout for v in vs]
        voff = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(vs) for vs in self.layout], out=voff[1:])
        cvars = np.asarray(self.cvars, dtype=np.int64)
        cstart = np.asarray(self.cstart, dtype=np.int64)
        kind = np.asarray(self.kind, dtype=np.int64)
        vcstart, vcons, vcnog, ventry = incidence(kind, cstart, cvars, n)
        arity = np.diff(cstart)

        def i64(xs) -> np.ndarray:
            return np.asarray(xs, dtype=np.int64).reshape(-1)

        sub_sum = np.concatenate(self.sub_sum) if self.sub_sum else np.zeros(0, np.int64)
        sub_mask = np.concatenate(self.sub_mask) if self.sub_mask else np.zeros(0, np.int64)
        lc_start, lc_other, lc_in_a, lc_in_b = self.overlaps()
        return Problem(
            vals=i64(vals),
            voff=voff,
            full=i64([_full(len(vs)) for vs in self.layout]),
            dom0=i64(self.dom0),
            kind=kind,
            cstart=cstart,
            cvars=cvars,
            cshift=i64(self.cshift),
            ctoff=i64(self.ctoff),
            tmap=i64(self.tmap),
            pstart=i64(self.pstart),
            params=i64(self.params),
            vcstart=vcstart,
            vcons=vcons,
            vcnog=vcnog,
            ventry=ventry,
            sub_first=i64(self.sub_first),
            sub_rowptr=i64(self.sub_rowptr),
            sub_sum=sub_sum.astype(np.int64),
            sub_mask=sub_mask.astype(np.int64),
            scratch_size=i64([max(int(arity.max()) if len(arity) else 0, self.scratch)]),
            alldiffs=i64([c for c, k in enumerate(self.kind)
                          if k == ALLDIFF and arity[c] <= MAX_VALUES]),
            lc_start=i64(lc_start),
            lc_other=i64(lc_other),
            lc_in_a=i64(lc_in_a),
            lc_in_b=i64(lc_in_b),
        )


def compile_model(model: Model) -> Compiled:
    """The kernel arrays of `model` (`InputError` if a domain exceeds 64 values)."""
    if not isinstance(model, Model):
        raise TypeError(f"the bitmask backend takes a Model, not {type(model).__name__}")
    builder = _Builder(model)
    index = builder.index
    all_different = [
        frozenset(index[name] for name in c.scope)
        for c in model.constraints
        if isinstance(c, AllDifferent)
    ]
    for constraint in model.constraints:
        builder.add(constraint, all_different)
    declared = builder.n_declared
    return Compiled(builder.problem(), builder.names[:declared], builder.layout[:declared],
                    builder.feasible)


@lru_cache(maxsize=64)
def _subsets(union: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every subset of `union` as a mask, sorted by (size, sum of its values),
    with `rowptr[r]` the first row of size r."""
    n = len(union)
    masks = np.arange(1 << n, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n)) & 1
    sizes = bits.sum(axis=1)
    sums = bits @ np.asarray(union, dtype=np.int64)
    order = np.lexsort((sums, sizes))
    rowptr = np.searchsorted(sizes[order], np.arange(n + 2))
    return sums[order], masks[order], rowptr


def _layout(domains: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The values each variable's mask bits stand for: its own values, except
    that a one-value domain (a given) takes the smallest larger declared domain
    that holds its value, its other values simply never set in its mask.

    Then a sudoku's givens and blanks share one layout, so all-differents need
    no bit maps and every puzzle of a kind compiles to the same structure.
    """
    distinct = sorted(set(domains), key=len)
    if len(distinct) <= 1 or len(distinct) > MAX_VALUES:
        return domains  # one layout already, or too many to compare cheaply
    wider: dict[tuple[int, ...], tuple[int, ...]] = {}
    for d in distinct:
        if len(d) == 1:
            value = d[0]
            wider[d] = next((e for e in distinct if len(e) > 1 and value in e), d)
    return [wider.get(d, d) for d in domains]


def _holds(total: int, op: str, rhs: int) -> bool:
    return {"==": total == rhs, "<=": total <= rhs, ">=": total >= rhs, "!=": total != rhs}[op]


def _mask(positions: Iterable[int]) -> int:
    """The positions as a signed int64 bit mask."""
    mask = 0
    for i in positions:
        mask |= _bit(i)
    return mask


def _bit(k: int) -> int:
    """Bit k as a signed int64 (bit 63 is the sign bit)."""
    return -(1 << 63) if k == 63 else 1 << k


def _full(n: int) -> int:
    """The mask of n values, as a signed int64 (all 64 bits is -1)."""
    return -1 if n == 64 else (1 << n) - 1
