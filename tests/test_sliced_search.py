"""The sliced search driver (`csp.backends.base.SlicedSearch`): time limits
that are infinite, NaN or short against expensive nodes, the node budget, and
Ctrl-C outside the kernel.

A fake kernel whose nodes cost a known time stands in for an expensive model
(a bitmask search propagating a table of hundreds of thousands of tuples), so
that these tests are quick and do not depend on the machine's speed.
"""

from __future__ import annotations

import math
import time

import csp
from csp import ExactCover, Status
from csp.backends.base import EXHAUSTED, PAUSED, SlicedSearch
from csp.problems import queens
from csp.result import Stats


class FakeKernel(SlicedSearch):
    """A kernel of `total` nodes of `cost` seconds each and no solution."""

    backend = "fake"

    def __init__(self, cost: float, total: int = 1 << 62, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cost = cost
        self.total = total
        self.nodes = 0
        self.budgets: list[int] = []

    def _advance(self, count_only: bool, budget: int) -> int:
        self.budgets.append(budget)
        step = min(budget, self.total - self.nodes)
        if self.cost:
            time.sleep(self.cost * step)
        self.nodes += step
        return EXHAUSTED if self.nodes >= self.total else PAUSED

    def _measure(self, stats: Stats) -> None:
        stats.nodes = self.nodes


def queens_xc(n: int) -> ExactCover:
    return queens.declare(queens.Queens(n))


def test_an_infinite_time_limit_means_no_limit():
    xc = queens_xc(8)
    result = csp.count(xc, time_limit=math.inf)
    assert (result.count, result.status) == (92, Status.COMPLETE)
    search = csp.solutions(xc, time_limit=math.inf)
    assert len(list(search)) == 92 and search.status is Status.COMPLETE


def test_expensive_nodes_do_not_overshoot_a_short_time_limit():
    # 2 ms a node: a first slice of thousands of nodes would take seconds.
    search = FakeKernel(0.002, time_limit=0.3)
    result = search.count()
    assert result.status is Status.TIME_LIMIT
    assert result.stats.time < 0.6, search.budgets
    # every slice stays short, so that Ctrl-C is also answered promptly
    assert max(search.budgets) * search.cost < 0.15, search.budgets


def test_near_the_time_limit_a_slice_never_plans_past_it():
    # 5 ms a node and a 0.2 s limit: once the cost is measured, no slice is
    # given more nodes than the time that remains can pay for.
    search = FakeKernel(0.005, time_limit=0.2)
    search.count()
    assert search.status is Status.TIME_LIMIT
    assert search.stats.time < 0.2 + 0.1, search.budgets
    assert search.budgets[-1] * search.cost <= 0.2, search.budgets


def test_the_first_slice_is_small_and_cheap_nodes_grow_it_fast():
    search = FakeKernel(0.0, total=1 << 31)
    assert search.count().status is Status.COMPLETE
    assert search.budgets[0] <= 64
    # growth is geometric, so a fast kernel pays only a few extra returns
    assert len(search.budgets) < 40, search.budgets
    assert max(search.budgets) >= 1 << 24


def test_close_brings_the_statistics_up_to_date():
    search = csp.solutions(queens_xc(8), "dlx")
    next(search)
    search.close()
    assert search.status is Status.INTERRUPTED
    assert search.stats.solutions == 1 and search.stats.nodes > 0
