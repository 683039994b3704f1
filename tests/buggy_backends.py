"""Backends with bugs, for the tests that show csp finds them: dancing
links that loses the second solution whenever there are two or more, and
dancing links blind to colours; a SAT solver that reads `Xor` as `Or`.

`tests/test_fuzz.py` fuzzes it; `tests/test_testing_plugin.py` copies this
file next to a user's test file, as a module of their own."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from csp.backends.base import Search
from csp.backends.dlx import DLXBackend
from csp.backends.sat import SATBackend
from csp.exactcover import ExactCover
from csp.logic import Logic, Or, Xor
from csp.model import Model


class DroppingSearch(Search):
    """A search that loses the second solution it is given."""

    def __init__(self, inner: Search) -> None:
        super().__init__()
        self.inner, self.seen, self.stats = inner, 0, inner.stats

    def __next__(self) -> Any:
        while True:
            try:
                solution = next(self.inner)
            except StopIteration:
                self.status = self.inner.status
                raise
            self.seen += 1
            if self.seen != 2:
                return solution


class DropsOne(DLXBackend):
    """Dancing links that drops one solution when there are two or more."""

    name: ClassVar[str] = "drops-one"

    def solutions(self, problem: Any, **limits: Any) -> Search:
        return DroppingSearch(super().solutions(problem, **limits))


class ColourBlind(DLXBackend):
    """Dancing links that reads a coloured secondary item as uncoloured: it
    misses the solutions where two options agree on a colour."""

    name: ClassVar[str] = "colour-blind"

    def solutions(self, problem: Any, **limits: Any) -> Search:
        plain = ExactCover(problem.primary, problem.secondary, bounds=problem.bounds)
        for k in range(problem.n_options):
            plain.add_option([name for name, _colour in problem.option(k)])
        return super().solutions(plain, **limits)


class XorAsOr(SATBackend):
    """The SAT backend reading every `Xor` as an `Or`: wrong exactly where two
    operands of a Xor hold together."""

    name: ClassVar[str] = "xor-as-or"

    def solutions(self, problem: Any, **limits: Any) -> Search:
        return super().solutions(_xor_as_or(problem), **limits)

    def count(self, problem: Any, **limits: Any) -> Any:
        return super().count(_xor_as_or(problem), **limits)


def _xor_as_or(problem: Any) -> Any:
    if not isinstance(problem, Model):
        return problem

    def rewritten(c: Any) -> Any:
        if isinstance(c, Logic):
            args = [rewritten(a) for a in c.args]
            if isinstance(c, Xor):
                return Or(args)
            fresh = copy.copy(c)
            fresh.args = tuple(args)
            return fresh
        return c

    m = Model(problem.name)
    for name, variable in problem.variables.items():
        m.var(name, variable.domain)
    m.constraints = [rewritten(c) for c in problem.constraints]  # scopes are names
    return m
