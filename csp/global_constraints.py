"""The global constraints of the field beyond `AllDifferent`: cardinality,
equality and order, automata, circuits, channelling and connectivity.

The integer-valued globals (`Element`, `Count`, `NValue`, `Minimum`,
`Maximum`, `Abs`) are functions, compared like variables
(`Count(xs, 3) >= 2`): see `csp.expressions`. Each constraint here is its own
kind (`GlobalCardinality`, ...), a capability a model backend may declare;
the dispatch layer decomposes it for the others (`csp.decompose`, which cites
the decomposition used).

>>> from csp import Model
>>> m = Model()
>>> xs = m.vars("abc", range(3))
>>> m.add(Increasing(xs, strict=True))
Increasing(a, b, c; strict)
>>> m.add(Regular(xs, [(0, 0, 1), (1, 1, 2), (2, 2, 2)], 0, [2]))
Regular(a, b, c; 3 states)
>>> m.check({"a": 0, "b": 1, "c": 2})
[]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from csp.constraints import Constraint, _integer, _is_int, _name
from csp.errors import InputError, refuse_string


class _OverVariables(Constraint):
    """A constraint over a list of variables (no repeats)."""

    def __init__(self, variables: Iterable[Any]) -> None:
        refuse_string(variables, f"the variables of {self.kind}")
        super().__init__(variables)

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        seen: set[Hashable] = set()
        for name in self.scope:
            if name in seen:
                raise InputError(f"variable {name!r} appears twice in {self.describe()}",
                                 token=name)
            seen.add(name)


class AllEqual(_OverVariables):
    """The variables all take the same value."""

    kind = "AllEqual"

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        return len({assignment[v] for v in self.scope}) <= 1


class AllDifferentExcept(_OverVariables):
    """The variables take pairwise different values, but for the values of
    `values`, which may repeat (XCSP3's allDifferent with except, CPMpy's
    `AllDifferentExceptN`; `values=[0]` is MiniZinc's `alldifferent_except_0`).

    Args:
        variables: the variables (or their names).
        values: the values that may repeat.

    >>> AllDifferentExcept(["a", "b", "c"], [0]).holds({"a": 0, "b": 0, "c": 1})
    True
    """

    kind = "AllDifferentExcept"

    def __init__(self, variables: Iterable[Any], values: Iterable[int]) -> None:
        super().__init__(variables)
        refuse_string(values, "the excepted values of AllDifferentExcept")
        self.excepted = frozenset(_integer(v, "excepted value") for v in values)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        taken = [assignment[v] for v in self.scope if assignment[v] not in self.excepted]
        return len(taken) == len(set(taken))

    def describe(self) -> str:
        return f"{super().describe()[:-1]}; except {sorted(self.excepted)})"


class Increasing(_OverVariables):
    """Each variable is at most (with `strict=True`: less than) the next.

    Args:
        variables: the variables (or their names), in order.
        strict: each is less than the next, not only at most it.

    >>> Increasing(["a", "b"], strict=True).holds({"a": 1, "b": 1})
    False
    """

    kind = "Increasing"

    def __init__(self, variables: Iterable[Any], *, strict: bool = False) -> None:
        super().__init__(variables)
        self.strict = bool(strict)

    def order(self) -> tuple[Hashable, ...]:
        """The scope in increasing order."""
        return self.scope

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        values = [assignment[v] for v in self.order()]
        gap = 1 if self.strict else 0
        return all(b - a >= gap for a, b in zip(values, values[1:]))

    def describe(self) -> str:
        return f"{super().describe()[:-1]}{'; strict' if self.strict else ''})"


class Decreasing(Increasing):
    """Each variable is at least (with `strict=True`: greater than) the next:
    an `Increasing` read backwards (`order()`)."""

    kind = "Decreasing"

    def order(self) -> tuple[Hashable, ...]:
        return self.scope[::-1]


class LexLess(Constraint):
    """The tuple `a` comes strictly before `b` in lexicographic order
    (`LexLessEq`: or equals it). Both have the same length; a variable may
    appear in both.

    Args:
        a: the first tuple's variables (or names).
        b: the second tuple's, as many.

    Raises:
        InputError: tuples of different lengths.
    """

    kind = "Lex"
    strict = True

    def __init__(self, a: Iterable[Any], b: Iterable[Any]) -> None:
        refuse_string(a, "the first tuple of a lex constraint")
        refuse_string(b, "the second tuple of a lex constraint")
        self.a = [_name(v) for v in a]
        self.b = [_name(v) for v in b]
        if len(self.a) != len(self.b):
            raise InputError(f"{type(self).__name__}: the tuples have {len(self.a)} and "
                             f"{len(self.b)} variables; they must be as long")
        super().__init__(_distinct(self.a + self.b))

    def _bind(self, model: Any) -> None:
        self.a = [model._resolve(v, self) for v in self.a]
        self.b = [model._resolve(v, self) for v in self.b]
        self.scope = tuple(_distinct(self.a + self.b))

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        a, b = [assignment[v] for v in self.a], [assignment[v] for v in self.b]
        return a < b if self.strict else a <= b

    def describe(self) -> str:
        return (f"{type(self).__name__}([{', '.join(map(str, self.a))}], "
                f"[{', '.join(map(str, self.b))}])")


class LexLessEq(LexLess):
    """The tuple `a` comes before `b` in lexicographic order, or equals it."""

    strict = False


class GlobalCardinality(_OverVariables):
    """`counts[i]` (an int or a variable) of the variables take `values[i]`
    (MiniZinc's `global_cardinality`, XCSP3's `cardinality`). With
    `closed=True` no variable takes a value outside `values`.

    Args:
        variables: the variables (or their names) counted.
        values: the values counted, each once.
        counts: per value, how many variables take it (an int or a variable).
        closed: no variable takes a value outside `values`.

    Raises:
        InputError: as many counts as values, not; a value twice.

    >>> GlobalCardinality(["a", "b", "c"], [1, 2], [2, 1]).holds({"a": 1, "b": 2, "c": 1})
    True
    """

    kind = "GlobalCardinality"

    def __init__(self, variables: Iterable[Any], values: Iterable[int],
                 counts: Iterable[Any], *, closed: bool = False) -> None:
        super().__init__(variables)
        refuse_string(values, "the values of GlobalCardinality")
        refuse_string(counts, "the counts of GlobalCardinality")
        self.values = [_integer(v, "GlobalCardinality value") for v in values]
        if len(set(self.values)) != len(self.values):
            raise InputError(f"GlobalCardinality: a value appears twice in {self.values}")
        counts = list(counts)
        self.fixed = [_is_int(c) for c in counts]
        """Which counts are ints (the others are variables, whatever their names)."""
        self.counts: list[Any] = [_integer(c, "GlobalCardinality count") if fixed else _name(c)
                                  for c, fixed in zip(counts, self.fixed)]
        if len(self.counts) != len(self.values):
            raise InputError(f"GlobalCardinality has {len(self.values)} values but "
                             f"{len(self.counts)} counts")
        self.variables = self.scope
        self.closed = bool(closed)
        extra = [c for c, fixed in zip(self.counts, self.fixed) if not fixed]
        self.scope = tuple(self.scope) + tuple(extra)

    def _bind(self, model: Any) -> None:
        self.variables = tuple(model._resolve(v, self) for v in self.variables)
        self.counts = [c if fixed else model._resolve(c, self)
                       for c, fixed in zip(self.counts, self.fixed)]
        self.scope = tuple(_distinct(list(self.variables)
                                     + [c for c, fixed in zip(self.counts, self.fixed)
                                        if not fixed]))
        if len(set(self.variables)) != len(self.variables):
            raise InputError(f"a variable appears twice in {self.describe()}")

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        values = [assignment[v] for v in self.variables]
        counts = [c if fixed else assignment[c] for c, fixed in zip(self.counts, self.fixed)]
        if self.closed and not set(values) <= set(self.values):
            return False
        return all(values.count(v) == k for v, k in zip(self.values, counts))

    def describe(self) -> str:
        names = ", ".join(map(str, self.variables[:6])) + (", ..." if len(self.variables) > 6
                                                           else "")
        return f"GlobalCardinality({names}; {len(self.values)} values)"


class Regular(_OverVariables):
    """The sequence of the variables' values is a word of the automaton:
    `transitions` are (state, symbol, state) triples (a DFA, or an NFA where
    a state has several successors on one symbol), from state `start`,
    accepted in a state of `accepting`. States are any hashable names.

    Every state `start` and `accepting` name must appear in a transition
    (unless there are no variables): an unknown one is an `InputError`.

    Args:
        variables: the variables (or their names), the word's letters in order.
        transitions: `(state, symbol, state)` triples.
        start: the initial state.
        accepting: the accepting states.

    Raises:
        InputError: a transition that is not a triple, or an unknown state.

    >>> ab = [("s", 0, "t"), ("t", 1, "s")]  # 0 1 0 1 ...
    >>> Regular(["a", "b"], ab, "s", ["s"]).holds({"a": 0, "b": 1})
    True
    """

    kind = "Regular"

    def __init__(self, variables: Iterable[Any], transitions: Iterable[Sequence[Any]],
                 start: Hashable, accepting: Iterable[Hashable]) -> None:
        super().__init__(variables)
        refuse_string(transitions, "the transitions of Regular")
        self.transitions: list[tuple[Hashable, int, Hashable]] = []
        for triple in transitions:
            triple = tuple(triple)
            if len(triple) != 3:
                raise InputError(f"Regular: the transition {triple!r} is not a (state, "
                                 "symbol, state) triple")
            q, symbol, r = triple
            self.transitions.append((q, _integer(symbol, f"Regular transition {triple!r}:"),
                                     r))
        self.start = start
        refuse_string(accepting, "the accepting states of Regular")
        self.accepting = frozenset(accepting)
        states = self.states()
        if self.scope:
            if start not in states:
                raise InputError(f"Regular: the start state {start!r} appears in no "
                                 "transition", token=start)
            unknown = sorted(map(repr, self.accepting - states))
            if unknown:
                raise InputError(f"Regular: the accepting state {unknown[0]} appears in no "
                                 "transition", token=unknown[0])

    def states(self) -> set[Hashable]:
        return {q for q, _, _ in self.transitions} | {r for _, _, r in self.transitions}

    def successors(self) -> dict[tuple[Hashable, int], list[Hashable]]:
        table: dict[tuple[Hashable, int], list[Hashable]] = {}
        for q, symbol, r in self.transitions:
            table.setdefault((q, symbol), []).append(r)
        return table

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        table = self.successors()
        current = {self.start}
        for v in self.scope:
            value = assignment[v]
            current = {r for q in current for r in table.get((q, value), ())}
            if not current:
                return False
        return bool(current & self.accepting)

    def describe(self) -> str:
        return f"{super().describe()[:-1]}; {len(self.states() | {self.start})} states)"


class Circuit(_OverVariables):
    """`successors[i]` is the node after node i on one circuit through every
    node (0-based, successor form: XCSP3's and CPMpy's `circuit`; MiniZinc's
    is 1-based). A value outside 0..n-1 in a domain is an `InputError`."""

    kind = "Circuit"

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        n = len(self.scope)
        for name in self.scope:
            outside = [v for v in model.variables[name].domain if not 0 <= v < n]
            if outside:
                raise InputError(f"{self.describe()}: the domain of {name!r} holds {outside[0]}, "
                                 f"outside the nodes 0..{n - 1} (Circuit is 0-based, in "
                                 "successor form)", token=name)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        succ = [assignment[v] for v in self.scope]
        n = len(succ)
        if sorted(succ) != list(range(n)):
            return False
        node, steps = 0, 0
        while True:
            node = succ[node]
            steps += 1
            if node == 0:
                return steps == n


class Inverse(Constraint):
    """`f[i] == j` exactly when `g[j] == i` (0-based; `f` and `g` as long):
    two permutations, each the other's inverse (MiniZinc's `inverse`, XCSP3's
    `channel`). A value outside 0..n-1 in a domain is an `InputError`.

    Args:
        f: the first array's variables (or names).
        g: the second's, as many.

    Raises:
        InputError: arrays of different lengths.
    """

    kind = "Inverse"

    def __init__(self, f: Iterable[Any], g: Iterable[Any]) -> None:
        refuse_string(f, "the first array of Inverse")
        refuse_string(g, "the second array of Inverse")
        self.f = [_name(v) for v in f]
        self.g = [_name(v) for v in g]
        if len(self.f) != len(self.g):
            raise InputError(f"Inverse: the arrays have {len(self.f)} and {len(self.g)} "
                             "variables; they must be as long")
        super().__init__(self.f + self.g)

    def _bind(self, model: Any) -> None:
        self.f = [model._resolve(v, self) for v in self.f]
        self.g = [model._resolve(v, self) for v in self.g]
        self.scope = tuple(self.f + self.g)
        if len(set(self.scope)) != len(self.scope):
            raise InputError(f"a variable appears twice in {self.describe()}")
        n = len(self.f)
        for name in self.scope:
            outside = [v for v in model.variables[name].domain if not 0 <= v < n]
            if outside:
                raise InputError(f"{self.describe()}: the domain of {name!r} holds {outside[0]}, "
                                 f"outside 0..{n - 1} (Inverse is 0-based)", token=name)

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        f = [assignment[v] for v in self.f]
        g = [assignment[v] for v in self.g]
        n = len(f)
        return all(0 <= f[i] < n and g[f[i]] == i for i in range(n)) and \
            all(0 <= g[j] < n and f[g[j]] == j for j in range(n))


class Connected(_OverVariables):
    """The nodes whose boolean variable is 1 form a connected subgraph of the
    graph whose `edges` are pairs of positions in `variables` (no node, or
    one, is connected). `csp.grid` gives the edges of a grid's cells
    (hitori's and nurikabe's unshaded cells).

    Args:
        variables: one boolean variable (or name) per node.
        edges: pairs of positions in `variables`.

    Raises:
        InputError: an edge that is not a pair of positions.

    >>> Connected(["a", "b", "c"], [(0, 1), (1, 2)]).holds({"a": 1, "b": 0, "c": 1})
    False
    """

    kind = "Connected"

    def __init__(self, variables: Iterable[Any], edges: Iterable[tuple[int, int]]) -> None:
        super().__init__(variables)
        n = len(self.scope)
        self.edges: list[tuple[int, int]] = []
        for edge in edges:
            i, j = (_integer(e, "Connected edge end") for e in edge)
            if not (0 <= i < n and 0 <= j < n) or i == j:
                raise InputError(f"Connected: the edge {tuple(edge)!r} does not join two of "
                                 f"the {n} nodes (positions 0..{n - 1})", token=edge)
            self.edges.append((i, j))

    def _bind(self, model: Any) -> None:
        super()._bind(model)
        for name in self.scope:
            if not set(model.variables[name].domain) <= {0, 1}:
                raise InputError(f"{self.describe()}: {name!r} is not a boolean (its domain is "
                                 "not within {0, 1})", token=name)

    def neighbours(self) -> list[list[int]]:
        adjacent: list[list[int]] = [[] for _ in self.scope]
        for i, j in self.edges:
            adjacent[i].append(j)
            adjacent[j].append(i)
        return adjacent

    def holds(self, assignment: Mapping[Hashable, int]) -> bool:
        on = [assignment[v] == 1 for v in self.scope]
        nodes = [i for i, x in enumerate(on) if x]
        if len(nodes) <= 1:
            return True
        adjacent = self.neighbours()
        seen = {nodes[0]}
        queue = deque([nodes[0]])
        while queue:
            i = queue.popleft()
            for j in adjacent[i]:
                if on[j] and j not in seen:
                    seen.add(j)
                    queue.append(j)
        return len(seen) == len(nodes)

    def describe(self) -> str:
        return f"{super().describe()[:-1]}; {len(self.edges)} edges)"


def _distinct(names: Iterable[Any]) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for name in names:
        key = name.variable.name if hasattr(name, "variable") else name
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out


GLOBALS: tuple[type[Constraint], ...] = (AllEqual, AllDifferentExcept, Increasing, Decreasing,
                                         LexLess, LexLessEq, GlobalCardinality, Regular,
                                         Circuit, Inverse, Connected)

__all__ = ["AllDifferentExcept", "AllEqual", "Circuit", "Connected", "Decreasing",
           "GlobalCardinality", "Increasing", "Inverse", "LexLess", "LexLessEq", "Regular"]
