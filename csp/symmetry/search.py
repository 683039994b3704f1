"""Counting and listing solutions up to symmetry, on any backend.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any

import numpy as np

from csp import dispatch
from csp.backends.base import Backend, Progress, Search
from csp.constraints import Table
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problem import Problem
from csp.result import Result
from csp.symmetry.group import IN, MAYBE, OUT, REJECT, Group
from csp.symmetry.prune import pruned
from csp.symmetry.walk import UpToSymmetry

Permutation = Sequence[int]

LEADER_TUPLES = 4096
"""The most tuples of the leading variables of a Model given a lex-leader table."""


def count(
    problem: Problem,
    group: Group,
    backend: str | Backend = "auto",
    *,
    prune: bool = True,
    depth: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Result:
    """The number of classes of equivalent solutions: canonical solutions.

    `stats.solutions` is that number; `stats.extra["raw_solutions"]` the
    solutions the search met (the canonical ones and those thrown away) and
    `stats.extra["pruned"]` the branches cut (0 without pruning).
    """
    search = solutions(problem, group, backend, prune=prune, depth=depth,
                       time_limit=time_limit, progress=progress, count_only=True)
    return search.result()


def solutions(
    problem: Problem,
    group: Group,
    backend: str | Backend = "auto",
    *,
    limit: int | None = None,
    prune: bool = True,
    depth: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    count_only: bool = False,
) -> Search:
    """A lazy iterator of the canonical solutions: one per class.

    A backend that splits its own search (the `SPLIT` capability) on an exact
    cover it takes as it is gets its partial solutions tested for canonicity
    (`csp.symmetry.prune`); any other gets every solution filtered, a Model
    with lex-leader constraints first.
    """
    if group.problem is not problem:
        raise InputError("the symmetry group was declared for another problem")
    plan = dispatch.prepare(problem, backend)
    if (prune and dispatch.splits(plan) and isinstance(problem, ExactCover)
            and plan.target is problem):
        walk = pruned(plan, group, depth, count_only)
    else:
        walk = _filtered(problem, group, plan.backend, prune)
    return UpToSymmetry(walk, plan.name, limit=limit, time_limit=time_limit,
                        progress=progress)


def _filtered(problem: Problem, group: Group, backend: Backend, prune: bool
              ) -> Callable[[UpToSymmetry], Generator[Any, None, None]]:
    """Every solution from any backend, keeping the canonical ones; a Model gets
    lex-leader constraints on its leading variables first (with `prune`)."""

    def walk(owner: UpToSymmetry) -> Generator[Any, None, None]:
        target = problem
        if prune and isinstance(problem, Model):
            target, cut = lex_leader(problem, group)
            owner.stats.extra["pruned"] = cut
        plan = dispatch.prepare(target, backend)
        search = owner.sub(plan.solutions(time_limit=owner.remaining()))
        points = group.points
        for solution in search:
            owner.stats.extra["raw_solutions"] += 1
            if group._is_canonical(points.encode(solution)):
                yield solution
        owner.finish_sub(search)

    return walk


def lex_leader(m: Model, group: Group, max_tuples: int = LEADER_TUPLES) -> tuple[Model, int]:
    """A copy of `m` with a lex-leader `Table` on its leading variables (those
    holding the lowest-ranked pairs, as many as keep the domain product within
    `max_tuples`): the tuples that may still start a canonical solution. Returns
    the copy and the number of tuples cut."""
    points = group.points
    first_rank: dict[Hashable, int] = {}
    for code, (name, _) in enumerate(points.pairs):
        first_rank[name] = min(first_rank.get(name, code), int(group.rank[code]))
    leading: list[Hashable] = []
    size = 1
    for name in sorted(m.variables, key=first_rank.__getitem__):
        domain = m.variables[name].domain
        if size * len(domain) > max_tuples:
            break
        leading.append(name)
        size *= len(domain)
    if len(group) == 1 or not leading:
        return m, 0
    base = np.full(points.n, MAYBE, dtype=np.int8)
    for name in leading:
        for value in m.variables[name].domain:
            base[points.code[(name, value)]] = OUT
    kept = []
    domains = [m.variables[name].domain for name in leading]
    for row in itertools.product(*domains):
        state = base.copy()
        for name, value in zip(leading, row):
            state[points.code[(name, value)]] = IN
        if group.verdict(state) != REJECT:
            kept.append(row)
    constrained = copy.copy(m)
    constrained.constraints = list(m.constraints)
    constrained.add(Table(leading, kept))
    return constrained, size - len(kept)
