"""The `sat` backend: a CDCL SAT solver (Glucose 4.1, through PySAT).

Both forms are encoded as clauses (`csp.backends.sat.cnf`): a `Model`
one-hot with cardinality encodings from `pysat.card`, an `ExactCover` as one
literal per option. Solutions are enumerated and counted by *blocking
clauses*: after each solution, a clause over the declared literals only (the
variables' values, the options) excludes it, and the same solver, keeping
what it learned, looks for the next. That costs a solve per solution, so this
backend is for proving (a solution, or none) on hard problems, not for
counting millions.

It takes logic natively (`"Logic"`: clauses over the truth literals of the
operands, Tseitin variables for nested connectives) and the globals of
`csp.backends.sat.globals.NATIVE`. It projects (`PROJECTION`): with `over=`
(variable names), a solution is read and blocked on those variables' literals
only, so each of their assignments that extends to a solution comes once.

The solver runs in slices of a propagation budget (`solve_limited`), so that
between slices Python checks the time limit, reports progress and receives
Ctrl-C, as the compiled backends do (`SlicedSearch`).

Why Glucose: CaDiCaL 1.9.5, the stronger solver in PySAT, cannot be given a
budget or interrupted there (`NotImplementedError`), so a time limit or
Ctrl-C could not stop it; Glucose 4.1 can, and its incremental solving is
built for the many small solves of an enumeration.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> search = SATBackend().solutions(xc)
>>> list(search), search.status.value
([(0, 3)], 'COMPLETE')
>>> from csp import AllDifferent, Model
>>> m = Model()
>>> _ = m.add(AllDifferent([m.var(i, range(3)) for i in range(3)]))
>>> SATBackend().count(m).count
6
>>> SATBackend().count(m, over=[0]).count
3
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from pysat.solvers import Solver

from csp.backends.base import (
    COLOURS,
    CONSTRAINT_KINDS,
    EXHAUSTED,
    FOUND,
    LOGIC,
    PAUSED,
    PROJECTION,
    SLICED,
    Progress,
    SlicedSearch,
)
from csp.backends.sat.cnf import encode, refusal
from csp.backends.sat.globals import NATIVE
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Result, Stats

SOLVER = "glucose4"
"""PySAT's name of the solver: Glucose 4.1 (see the module's docstring)."""


class SATSearch(SlicedSearch):
    """One incremental solver, a blocking clause after each solution."""

    backend = "sat"

    def __init__(self, problem: ExactCover | Model, *, solver: str = SOLVER,
                 over: list[Hashable] | None = None, **limits: Any) -> None:
        super().__init__(**limits)
        if isinstance(problem, Model):
            why = refusal(problem)
            if why is not None:
                raise InputError(f"{why}; use bitmask, cpsat or dlx")
        elif over is not None:
            raise InputError("over= projects a model's solutions; this is an exact cover")
        self.cnf = encode(problem, over)
        self.solver: Solver | None = None
        if not self.cnf.unsatisfiable:
            self.solver = Solver(name=solver, bootstrap_with=self.cnf.clauses)
        self._count = 0
        self._true: set[int] = set()

    def _advance(self, count_only: bool, budget: int) -> int:
        solver = self.solver
        if solver is None:
            return EXHAUSTED
        start = self._propagations()
        while True:
            left = budget - (self._propagations() - start)
            if left <= 0:
                return PAUSED
            solver.prop_budget(left)
            # expect_interrupt: PySAT then leaves SIGINT to Python, which
            # raises KeyboardInterrupt when the slice returns (SlicedSearch).
            answer = solver.solve_limited(expect_interrupt=True)
            if answer is None:
                return PAUSED
            if answer is False:
                self._stop_solver()
                return EXHAUSTED
            true = {literal for literal in solver.get_model() if literal > 0}
            self._count += 1
            clause = self.cnf.block(true)
            if clause:
                solver.add_clause(clause)
            else:  # nothing to block on (no variables): the one solution
                self._stop_solver()
            if not count_only:
                self._true = true
                return FOUND
            if self.solver is None:
                return EXHAUSTED

    def _propagations(self) -> int:
        assert self.solver is not None
        return int(self.solver.accum_stats().get("propagations", 0))

    def _stop_solver(self) -> None:
        # Keep the last statistics: the solver's memory goes now.
        assert self.solver is not None
        self._last_stats = self.solver.accum_stats()
        self.solver.delete()
        self.solver = None

    def _solution(self) -> Any:
        return self.cnf.read(self._true)

    def _measure(self, stats: Stats) -> None:
        stats.solutions = self._count
        figures = (self.solver.accum_stats() if self.solver is not None
                   else getattr(self, "_last_stats", {}))
        stats.nodes = int(figures.get("decisions", 0))
        stats.failures = int(figures.get("conflicts", 0))
        stats.extra["propagations"] = int(figures.get("propagations", 0))
        stats.extra["restarts"] = int(figures.get("restarts", 0))
        stats.extra["clauses"] = len(self.cnf.clauses)

    def close(self) -> None:
        super().close()
        if self.solver is not None:
            self._stop_solver()


class SATBackend:
    """A SAT solver on a CNF encoding: both forms taken directly."""

    name: ClassVar[str] = "sat"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    capabilities: ClassVar[frozenset[str]] = (CONSTRAINT_KINDS | NATIVE
                                              | {LOGIC, "SumNotEqual", COLOURS, SLICED,
                                                 PROJECTION})

    def refuses(self, problem: ExactCover | Model) -> str | None:
        """Why this backend cannot take `problem` (None if it can): a model
        whose one-hot literals or sum diagrams would be too large."""
        return refusal(problem) if isinstance(problem, Model) else None

    def solutions(self, problem: ExactCover | Model, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None,
                  over: list[Hashable] | None = None) -> SATSearch:
        """The solutions (with `over`: the distinct assignments of those
        variables that extend to a solution)."""
        return SATSearch(problem, limit=limit, time_limit=time_limit, progress=progress,
                         over=over)

    def count(self, problem: ExactCover | Model, *, time_limit: float | None = None,
              progress: Progress | None = None, over: list[Hashable] | None = None
              ) -> Result:
        return SATSearch(problem, time_limit=time_limit, progress=progress,
                         over=over).count()


__all__ = ["SATBackend", "SATSearch", "SOLVER"]
