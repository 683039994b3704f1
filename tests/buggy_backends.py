"""Backends with bugs, for the tests that show csp finds them: dancing
links that loses the second solution whenever there are two or more, and
dancing links blind to colours.

`tests/test_fuzz.py` fuzzes it; `tests/test_testing_plugin.py` copies this
file next to a user's test file, as a module of their own."""

from __future__ import annotations

from typing import Any, ClassVar

from csp.backends.base import Search
from csp.backends.dlx import DLXBackend
from csp.exactcover import ExactCover


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
