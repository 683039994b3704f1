"""Canonicity checked on partial solutions, for a backend that splits its search.

A backend with the `SPLIT` capability reports the partial solutions of its
first levels (`split`) and searches below one of them (`choose`,
`count_chosen`). Each partial solution is tested against every symmetry on
what it already decides (options chosen, options excluded): a branch whose
every completion has a smaller image is cut, one whose every completion is
canonical is counted inside the backend, and complete solutions are still
tested exactly, so the answer never depends on the pruning.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

import numpy as np

from csp.backends.base import Search
from csp.dispatch import Plan, checked
from csp.exactcover import ExactCover
from csp.symmetry.group import ACCEPT, IN, MAYBE, OUT, REJECT, Group
from csp.symmetry.walk import Counted, UpToSymmetry

DEFAULT_DEPTH = 4
"""How many levels of the search tree are checked for canonicity."""


def pruned(plan: Plan, group: Group, depth: int | None, count_only: bool
           ) -> Callable[[UpToSymmetry], Generator[Any, None, None]]:
    """Explore the first `depth` levels one at a time (`split`), testing each
    partial solution on what it decides (`Group.verdict`): a rejected one is
    cut, an accepted one is counted inside the kernel, the others are expanded
    one level more, or below `depth` enumerated and tested one by one."""
    xc = plan.target
    assert isinstance(xc, ExactCover)  # the caller's condition (csp.symmetry.search)
    splitter: Any = plan.backend  # declares SPLIT: see csp.backends.base.Splitting
    max_depth = DEFAULT_DEPTH if depth is None else depth
    arrays = xc.arrays()
    start = arrays["start"]
    items = arrays["items"].astype(np.int64)
    colours = arrays["colours"].astype(np.int64)
    n_primary = xc.n_primary

    def state_of(prefix: Sequence[int]) -> tuple[np.ndarray, bool]:
        # Which options a partial solution keeps possible, and whether it is complete.
        taken = np.full(xc.n_items, -1, dtype=np.int64)  # -1 free, 0 taken, c > 0 colour c
        for k in prefix:
            lo, hi = start[k], start[k + 1]
            taken[items[lo:hi]] = colours[lo:hi]
        t = taken[items]
        blocked = (t == 0) | ((t > 0) & (colours != t))
        state = np.where(np.logical_or.reduceat(blocked, start[:-1]), OUT, MAYBE)
        state = state.astype(np.int8)
        state[list(prefix)] = IN
        return state, bool((taken[:n_primary] >= 0).all())

    def walk(owner: UpToSymmetry) -> Generator[Any, None, None]:
        def below(prefix: Sequence[int]) -> Search:
            return owner.sub(splitter.choose(xc, prefix, time_limit=owner.remaining()))

        stack: list[tuple[int, ...]] = [()]
        while stack:
            prefix = stack.pop()
            search = owner.sub(splitter.split(xc, prefix, len(prefix) + 1,
                                              time_limit=owner.remaining()))
            children = [tuple(child) for child in search]
            if not owner.finish_sub(search):
                return
            deeper = []
            for child in children:
                state, complete = state_of(child)
                if complete:
                    owner.stats.extra["raw_solutions"] += 1
                    if group._is_canonical(np.asarray(child)):
                        yield child
                    continue
                verdict = group.verdict(state)
                if verdict == REJECT:
                    owner.stats.extra["pruned"] += 1
                elif verdict == ACCEPT and count_only:
                    counted = checked(splitter.count_chosen(xc, child,
                                                            time_limit=owner.remaining()),
                                      plan.name)
                    owner.stats.extra["raw_solutions"] += counted.count
                    if not owner.finish_sub(counted):
                        return
                    yield Counted(counted.count)
                elif len(child) < max_depth:
                    deeper.append(child)
                else:
                    sub = below(child)
                    for solution in sub:
                        owner.stats.extra["raw_solutions"] += 1
                        if verdict == ACCEPT or group._is_canonical(np.asarray(solution)):
                            yield solution
                    if not owner.finish_sub(sub):
                        return
            stack.extend(reversed(deeper))  # popped in the search's order


    return walk
