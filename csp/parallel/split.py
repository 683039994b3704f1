"""Cutting a search tree into subproblems, each named by a *key*: a tuple of
ints, so that a checkpoint can write it and read it back.

Three splitters, chosen by what the backend declares:

- `PrefixSplitter`: a backend with the `split` capability cuts its own tree;
  a key is a prefix of its search (option indices of its exact cover);
- `ValueSplitter`: a problem that reaches the backend as a `Model` is cut on
  the values of its variables with the fewest values; a key is a tuple of
  (variable number, value) pairs, flattened;
- `CoverSplitter`: an `ExactCover` on a backend that does not split is cut
  as Algorithm X would branch; a key is a tuple of chosen options.

Each splitter says how to count below a key (`count`) and how to cut a key one
level deeper (`children`: None when it cannot be cut). The subtrees below a
key's children partition the subtree below the key, so counts add up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from typing import Any

from csp import dispatch
from csp.backends.base import OUTSIDE, Backend
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result

Key = tuple[int, ...]


def prefixes(plan: dispatch.Plan, target_pieces: int) -> list[tuple[Hashable, ...]]:
    """Prefixes of `plan`'s own search tree (a `SPLIT` backend) whose subtrees
    partition its solutions: the shallowest level with at least `target_pieces`.

    Levels with one choice (a sudoku's forced cells) do not count: the split
    goes deeper until the tree branches. Each level costs at most the nodes
    above it, fewer than `target_pieces` per level until the last.
    """
    splitter: Any = plan.backend
    found: list[tuple[Hashable, ...]] = [()]
    depth = 0
    while len(found) < target_pieces:
        depth += 1
        found = [tuple(prefix) for prefix in splitter.split(plan.target, (), depth)]
        if not found or max(len(prefix) for prefix in found) < depth:
            break  # every branch ended above this depth: nothing deeper to split
    return found


def count_below(plan: dispatch.Plan, prefix: Sequence[Hashable],
                time_limit: float | None = None) -> Result:
    """The solutions of `plan` that extend `prefix` (a `SPLIT` backend)."""
    splitter: Any = plan.backend
    result = dispatch.checked(splitter.count_chosen(plan.target, prefix, time_limit=time_limit,
                                                    **plan.memo), plan.name)
    result.backend = plan.name
    return result


class Splitter:
    """The common part: the plan, and the first cut."""

    kind = "?"

    def __init__(self, plan: dispatch.Plan) -> None:
        self.plan = plan

    @property
    def backend(self) -> Backend:
        return self.plan.backend

    @property
    def outside(self) -> bool:
        """Whether the backend's solver runs outside the process (`OUTSIDE`):
        each subproblem then pays the solver's start (a JVM takes about a
        second), so the tree is cut into few pieces and never deeper."""
        return OUTSIDE in self.backend.capabilities

    def first(self, target: int) -> list[Key]:
        """At least `target` keys (where the tree allows) partitioning the tree."""
        keys: list[Key] = [()]
        while len(keys) < target:
            deeper: list[Key] = []
            for key in keys:
                found = self.children(key)
                deeper.extend([key] if found is None else found)
            if deeper == keys:
                break  # nothing left to cut
            keys = deeper
        return keys

    def children(self, key: Key) -> list[Key] | None:
        raise NotImplementedError

    def count(self, key: Key, time_limit: float | None) -> Result:
        raise NotImplementedError

    def _count_plan(self, plan: dispatch.Plan, time_limit: float | None) -> Result:
        """Count a subproblem's own plan with the memo settings of the whole."""
        plan.memo = self.plan.memo
        return plan.count(time_limit=time_limit)

    def fingerprint(self) -> str:
        """A digest of the problem as the backend gets it and of the way it is
        cut: a checkpoint of another problem or splitting does not match."""
        digest = hashlib.sha256()
        digest.update(f"{self.kind}|{self.plan.name}|".encode())
        digest.update(describe(self.plan.target).encode())
        return digest.hexdigest()[:32]


class PrefixSplitter(Splitter):
    """A `split` backend's own search tree: a key is a prefix of its search."""

    kind = "prefix"

    def first(self, target: int) -> list[Key]:
        return [tuple(int(k) for k in prefix)  # type: ignore[call-overload]
                for prefix in prefixes(self.plan, target)]

    def children(self, key: Key) -> list[Key] | None:
        splitter: Any = self.plan.backend
        found = [tuple(int(k) for k in prefix)
                 for prefix in splitter.split(self.plan.target, key, len(key) + 1)]
        # A prefix that is already a solution (or a dead end) cuts no further.
        if not found or all(len(prefix) <= len(key) for prefix in found):
            return None
        return found

    def count(self, key: Key, time_limit: float | None) -> Result:
        return count_below(self.plan, key, time_limit)


class ValueSplitter(Splitter):
    """A model cut on values: a key is (variable number, value, ...) pairs."""

    kind = "values"

    def __init__(self, plan: dispatch.Plan) -> None:
        super().__init__(plan)
        model = plan.target
        assert isinstance(model, Model)
        self.names = list(model.variables)

    def _fixed(self, key: Key) -> dict[Hashable, int]:
        return {self.names[key[i]]: key[i + 1] for i in range(0, len(key), 2)}

    def children(self, key: Key) -> list[Key] | None:
        model = self.plan.target
        assert isinstance(model, Model)
        fixed = {key[i] for i in range(0, len(key), 2)}
        # The variable with the fewest values, as a search would branch; givens
        # (a single value) are no branch.
        free = [(len(model.variables[name].domain), number)
                for number, name in enumerate(self.names)
                if number not in fixed and len(model.variables[name].domain) > 1]
        if not free:
            return None
        _, number = min(free)
        return [key + (number, value) for value in model.variables[self.names[number]].domain]

    def count(self, key: Key, time_limit: float | None) -> Result:
        model = self.plan.target
        assert isinstance(model, Model)
        restricted = restrict(model, self._fixed(key))
        return self._count_plan(dispatch.prepare(restricted, self.plan.backend), time_limit)


class CoverSplitter(Splitter):
    """An exact cover cut as Algorithm X branches: on the uncovered primary
    item with the fewest options left; a key is the options chosen."""

    kind = "cover"

    def __init__(self, plan: dispatch.Plan) -> None:
        super().__init__(plan)
        xc = plan.target
        assert isinstance(xc, ExactCover)
        arrays = xc.arrays()
        start, items, colours = arrays["start"], arrays["items"], arrays["colours"]
        self.n_primary = xc.n_primary
        self.entries = [dict(zip(items[start[k]:start[k + 1]].tolist(),
                                 colours[start[k]:start[k + 1]].tolist()))
                        for k in range(xc.n_options)]
        self.by_item: list[list[int]] = [[] for _ in range(xc.n_primary)]
        for k, entry in enumerate(self.entries):
            for item in entry:
                if item < xc.n_primary:
                    self.by_item[item].append(k)

    def _fits(self, k: int, taken: dict[int, int]) -> bool:
        return all(item not in taken or (colour and taken[item] == colour)
                   for item, colour in self.entries[k].items())

    def children(self, key: Key) -> list[Key] | None:
        xc = self.plan.target
        assert isinstance(xc, ExactCover)
        if xc.bounds:
            return None  # a cover with multiplicities is counted whole
        taken: dict[int, int] = {}
        for k in key:
            taken.update(self.entries[k])
        open_items = [i for i in range(self.n_primary) if i not in taken]
        if not open_items:
            return None  # a solution already
        options = {i: [k for k in self.by_item[i] if self._fits(k, taken)] for i in open_items}
        item = min(open_items, key=lambda i: len(options[i]))
        return [key + (k,) for k in options[item]]

    def count(self, key: Key, time_limit: float | None) -> Result:
        xc = self.plan.target
        assert isinstance(xc, ExactCover)
        return self._count_plan(dispatch.prepare(forced(xc, key), self.plan.backend),
                                time_limit)


def splitter_for(plan: dispatch.Plan) -> Splitter:
    """The splitter a plan's backend allows: its own search if it declares `split`
    (and the problem has no multiplicities)."""
    if dispatch.splits(plan):
        return PrefixSplitter(plan)
    if isinstance(plan.target, Model):
        return ValueSplitter(plan)
    return CoverSplitter(plan)


def restrict(model: Model, fixed: dict[Hashable, int]) -> Model:
    """A copy of `model` with the variables of `fixed` reduced to one value."""
    copy = Model(model.name)
    for name, variable in model.variables.items():
        copy.var(name, [fixed[name]] if name in fixed else variable.domain)
    for constraint in model.constraints:
        copy.constraints.append(constraint)  # scopes are names: they bind as they are
    return copy


def forced(xc: ExactCover, prefix: Key) -> ExactCover:
    """`xc` with the options of `prefix` chosen: they and the options compatible
    with them (the items they cover are covered by them alone)."""
    taken: dict[Hashable, Hashable] = {}
    for k in prefix:
        taken.update(dict(xc.option(k)))
    sub = ExactCover(xc.primary, xc.secondary, name=xc.name, bounds=xc.bounds)
    chosen = set(prefix)
    for k in range(xc.n_options):
        option = xc.option(k)
        if k in chosen or all(item not in taken or (colour is not None and taken[item] == colour)
                              for item, colour in option):
            sub.add_option([item if colour is None else (item, colour) for item, colour in option])
    return sub


def describe(problem: Any) -> str:
    """The problem as a canonical text, for its fingerprint."""
    if isinstance(problem, ExactCover):
        arrays = problem.arrays()
        parts = [str(problem.n_primary), str(problem.n_items)]
        parts += [",".join(map(str, arrays[k].tolist())) for k in ("start", "items", "colours")]
        parts.append(repr(problem.colours))
        if problem.bounds:
            parts.append(repr(sorted(problem.bounds.items(), key=repr)))
        return "|".join(parts)
    lines = [repr((name, variable.domain)) for name, variable in problem.variables.items()]
    for constraint in problem.constraints:
        fields = {k: v for k, v in vars(constraint).items()
                  if k not in ("model", "predicate", "_set", "_left", "_right")}
        lines.append(repr((type(constraint).__name__, sorted(fields.items(), key=str))))
    return "\n".join(lines)


__all__ = ["CoverSplitter", "Key", "PrefixSplitter", "Splitter", "ValueSplitter", "describe",
           "forced", "restrict", "splitter_for"]
