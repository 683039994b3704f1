"""The solvers a benchmark runs: csp's backends and the peers, behind one surface.

Each `Solver` takes an instance's problems in the form it prefers, turns them
into its own input once (`prepare`, timed apart as the preparation), then
counts (`count`, the timed part, which includes building the solver's own
search structure from that input, as it would for any user). The peers are
driven through their own best API:

- `xcover`: `xcover.algorithm_c` (numba, Algorithm C) over the uint32 arrays
  that `xcover.covers` would build, so its string handling is not timed; it
  yields solutions, which are counted one by one;
- `miniexact`: the SWIG binding (`miniexacts_x`, Algorithm X with secondary
  items, or `miniexacts_c`, Algorithm C, when there are colours); `solve()`
  returns 10 per solution and 20 at the end;
- `exact-cover`: `exact_cover.get_solution_count` over a 0/1 matrix. It has
  only primary items, so each secondary item gets one extra option holding that
  item alone: every solution of the original extends in exactly one way (each
  uncovered secondary item by its own option), so the counts are equal. It
  cannot express colours: such instances are reported as "cannot express".

An instance that is only a CSP (kakuro) reaches the exact-cover peers as csp's
own lowering to exact cover (`csp.reformulate`, timed as preparation): the
same exact cover that `dlx` solves there.

The CSP peers run twice over:

- as csp's `cpsat` and `python-constraint` backends (`BackendSolver`): the
  timed part is what a csp user pays, csp's translation of the model into
  the package's objects included (only a lowering of the form is `prepare`);
- as peers, `ortools` and `python-constraint2`, through their own API: the
  package's model (a `CpModel`; a `constraint.Problem`) is built in
  `prepare` (by csp's translation, as a user would write it: csp's code
  is not timed), and the timed part is the package's solve alone:
  `CpSolver.solve` enumerating with a callback that counts; counting
  `Problem.getSolutionIter()`. python-constraint2 runs on the CSP instances
  only (an exact cover reaches it only through csp's lowering, which the
  `python-constraint` backend row times); CP-SAT takes an exact cover as
  Booleans directly.

>>> names = [s.name for s in all_solvers()]
>>> names[:2], "xcover" in names, "python-constraint2" in names
(['dlx', 'bitmask'], True, True)
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

from csp.exactcover import ExactCover
from csp.model import Model


@dataclass
class Outcome:
    """What one timed count returned."""

    counts: list[int]
    status: str = "COMPLETE"
    """COMPLETE, or TIME_LIMIT when a puzzle was cut short (its count is a lower bound)."""
    nodes: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)


class Cannot(Exception):
    """The solver cannot express this instance (reported, not a failure)."""


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except (metadata.PackageNotFoundError, ValueError):  # ValueError: no name given
        return "?"


class Solver:
    """The surface the runner uses; see the subclasses."""

    name: str = "?"
    kind: str = "peer"  # "backend" or "peer"
    distribution: str = ""
    modules: tuple[str, ...] = ()
    """What a user imports to use it (the import cost is measured on these)."""
    numba: bool = False
    """Compiled by numba on first use (the JIT cost is measured apart)."""
    forms: tuple[str, ...] = ("exact-cover",)
    """The forms it takes, preferred first."""

    def unavailable(self) -> str | None:
        for module in self.modules:
            try:
                importlib.import_module(module)
            except ImportError as err:
                return f"{self.name} is not installed ({err}); pip install 'csp-workbench[peers]'"
        return None

    def version(self) -> str:
        return _version(self.distribution)

    def form_for(self, forms: tuple[str, ...]) -> str:
        """The instance form it runs on; `Cannot` if none."""
        for form in self.forms:
            if form in forms:
                return form
        raise Cannot(f"{self.name} takes {' or '.join(self.forms)}; the instance is "
                     f"{' / '.join(forms)}")

    def prepare(self, problems: list[Any]) -> Any:
        return problems

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        raise NotImplementedError


class BackendSolver(Solver):
    """A csp backend; a form it does not take is lowered in `prepare`."""

    kind = "backend"
    distribution = "csp-workbench"

    def __init__(self, name: str) -> None:
        self.name = name
        from csp import backends

        entry = backends.entry(name)
        self.modules = ("csp", entry.module) + ((entry.requires,) if entry.requires else ())
        # the built-ins that are compiled: their first run in a process loads the cache
        self.numba = entry.module in ("csp.backends.dlx", "csp.backends.bitmask")
        native = backends.native_form(name)
        other = "model" if native == "exact-cover" else "exact-cover"
        self.forms = (native, other)

    def unavailable(self) -> str | None:
        from csp import backends
        from csp.errors import BackendUnavailable

        try:
            backends.get(self.name)
        except BackendUnavailable as err:
            return str(err)
        return None

    def version(self) -> str:
        import csp
        from csp import backends

        entry = backends.entry(self.name)
        if entry.distribution is not None:  # a plug-in: its own distribution's version
            return f"{entry.distribution} {_version(entry.distribution)}"
        extra = entry.dependency
        return csp.__version__ + (f" ({extra} {_version(extra)})" if extra else "")

    def prepare(self, problems: list[Any]) -> Any:
        from csp import backends, dispatch
        from csp.bench.instances import UpToSymmetry
        from csp.errors import InputError

        backend = backends.get(self.name)
        out: list[Any] = []
        for problem in problems:
            if isinstance(problem, UpToSymmetry):
                out.append(problem)
                continue
            try:
                out.append(dispatch.prepare(problem, backend))
            except (InputError, ValueError) as err:
                raise Cannot(f"lowering for {self.name} failed: {err}") from err
        return backend, out

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        from csp.bench.instances import UpToSymmetry
        from csp.solve import count

        backend, problems = prepared
        outcome = Outcome([])
        nodes: int | None = 0
        started = time.perf_counter()
        for problem in problems:
            left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter()
                                                                          - started))
            if isinstance(problem, UpToSymmetry):
                result = count(problem.problem, self.name, time_limit=left,
                               up_to_symmetry=problem.group)
            else:
                result = problem.count(time_limit=left)
            outcome.counts.append(result.count)
            if result.stats.nodes is None:
                nodes = None
            elif nodes is not None:
                nodes += result.stats.nodes
            for key in ("failures", "updates"):
                value = getattr(result.stats, key)
                if value is not None:
                    outcome.stats[key] = outcome.stats.get(key, 0) + value
            if result.status.value != "COMPLETE":
                outcome.status = result.status.value
                break
        outcome.nodes = nodes
        return outcome


def _flat(xc: ExactCover) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    from csp.bench.instances import UpToSymmetry

    if isinstance(xc, UpToSymmetry):
        raise Cannot("it does not count up to symmetry")
    if isinstance(xc, Model):
        # a CSP-only instance: the peer gets csp's exact-cover lowering, the same
        # problem `dlx` solves on it (a bijection on solutions: the counts agree)
        from csp import reformulate
        from csp.errors import InputError

        try:
            xc, _ = reformulate.lower(xc, ExactCover)
        except (InputError, ValueError) as err:
            raise Cannot(f"csp's lowering to exact cover failed: {err}") from err
    arrays = xc.arrays()
    return arrays["start"], arrays["items"], arrays["colours"], xc.n_primary, xc.n_items


class XcoverSolver(Solver):
    name = "xcover"
    forms = ("exact-cover", "model")
    distribution = "xcover"
    modules = ("xcover",)
    numba = True

    def prepare(self, problems: list[ExactCover]) -> Any:
        out = []
        for xc in problems:
            start, items, colours, n_primary, n_items = _flat(xc)
            out.append((items.astype(np.uint32), start.astype(np.uint32),
                        colours.astype(np.uint32), np.uint32(n_items),
                        np.uint32(n_items - n_primary)))
        return out

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        from xcover import algorithm_c

        outcome = Outcome([])
        started = time.perf_counter()
        for args in prepared:
            found, cut = _count(algorithm_c(*args), started, time_limit)
            outcome.counts.append(found)
            if cut:
                outcome.status = "TIME_LIMIT"
                break
        return outcome


class MiniexactSolver(Solver):
    name = "miniexact"
    forms = ("exact-cover", "model")
    distribution = "miniexact"
    modules = ("miniexact",)

    def prepare(self, problems: list[ExactCover]) -> Any:
        out = []
        for xc in problems:
            start, items, colours, n_primary, n_items = _flat(xc)
            options = [(items[start[k]:start[k + 1]] + 1).tolist()
                       for k in range(len(start) - 1)]
            tints = None
            if colours.any():
                tints = [colours[start[k]:start[k + 1]].tolist() for k in range(len(start) - 1)]
            out.append((n_primary, n_items, int(colours.max(initial=0)), options, tints))
        return out

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        import miniexact

        outcome = Outcome([])
        started = time.perf_counter()
        for n_primary, n_items, n_colours, options, tints in prepared:
            solver = miniexact.miniexacts_c() if tints is not None else miniexact.miniexacts_x()
            for i in range(n_primary):
                solver.primary(f"p{i}")
            for i in range(n_primary, n_items):
                solver.secondary(f"s{i}")
            colour = [0] + [solver.color(f"c{c}") for c in range(1, n_colours + 1)]
            if tints is None:
                for option in options:
                    solver.add(option)
            else:
                for option, tint in zip(options, tints):
                    for item, c in zip(option, tint):
                        solver.add(item, colour[c])
                    solver.add(0)
            found, cut = _count(_miniexact_solutions(solver), started, time_limit)
            outcome.counts.append(found)
            if cut:
                outcome.status = "TIME_LIMIT"
                break
        return outcome


def _miniexact_solutions(solver: Any) -> Iterator[None]:
    # solve() returns 10 for each solution and 20 at the end
    while solver.solve() == 10:
        yield None


def _count(solutions: Iterator[Any], started: float, time_limit: float | None
           ) -> tuple[int, bool]:
    """Count a peer's solutions until they end or the time limit passes: (count, cut)."""
    found = 0
    for _ in solutions:
        found += 1
        # the clock is read only every 1024 solutions: it costs more than a solution
        if (time_limit is not None and not found & 1023
                and time.perf_counter() - started > time_limit):
            return found, True
    return found, False


class ExactCoverSolver(Solver):
    name = "exact-cover"
    forms = ("exact-cover", "model")
    distribution = "exact-cover"
    modules = ("exact_cover",)

    def prepare(self, problems: list[ExactCover]) -> Any:
        out = []
        for xc in problems:
            start, items, colours, n_primary, n_items = _flat(xc)
            if colours.any():
                raise Cannot("exact-cover has no colours")
            n_secondary = n_items - n_primary
            matrix = np.zeros((len(start) - 1 + n_secondary, n_items), dtype=np.bool_)
            rows = np.repeat(np.arange(len(start) - 1), np.diff(start))
            matrix[rows, items] = True
            # one slack option per secondary item: see the module docstring
            slack = np.arange(n_secondary)
            matrix[len(start) - 1 + slack, n_primary + slack] = True
            out.append(matrix)
        return out

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        from exact_cover import get_solution_count

        return Outcome([int(get_solution_count(matrix)) for matrix in prepared])


def _no_symmetry(problem: Any) -> Any:
    from csp.bench.instances import UpToSymmetry

    if isinstance(problem, UpToSymmetry):
        raise Cannot("it does not count up to symmetry")
    return problem


def cpsat_counter() -> Any:
    """A CP-SAT solution callback whose `found` counts the solutions the
    solver shows it (ortools is optional: imported on the call)."""
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    return Counter()


class OrtoolsSolver(Solver):
    """OR-Tools CP-SAT through its own API: the `CpModel` is built in prep."""

    name = "ortools"
    forms = ("model", "exact-cover")
    distribution = "ortools"
    modules = ("ortools.sat.python.cp_model",)

    def prepare(self, problems: list[Any]) -> Any:
        from csp.backends.cpsat import compile_problem

        # None: infeasible as declared (an empty domain, an uncoverable item)
        return [compile_problem(_no_symmetry(problem)).model for problem in problems]

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        from ortools.sat.python import cp_model

        from csp.backends.cpsat import ENUMERATION

        outcome = Outcome([], nodes=0)
        started = time.perf_counter()
        for model in prepared:
            if model is None:
                outcome.counts.append(0)
                continue
            solver = cp_model.CpSolver()
            # As csp's cpsat backend enumerates (one worker: more have been
            # seen to miss solutions).
            for key, value in ENUMERATION.items():
                setattr(solver.parameters, key, value)
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - started)
                solver.parameters.max_time_in_seconds = max(1e-3, left)
            counter = cpsat_counter()
            status = solver.solve(model, counter)
            outcome.counts.append(counter.found)
            outcome.nodes = (outcome.nodes or 0) + solver.num_branches
            if status == cp_model.MODEL_INVALID:
                raise ValueError(f"CP-SAT: invalid model: {model.validate()}")
            if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                outcome.status = "TIME_LIMIT"  # FEASIBLE or UNKNOWN: stopped by the limit
                break
        return outcome


class PythonConstraintSolver(Solver):
    """python-constraint2 through its own API: the `Problem` is built in prep."""

    name = "python-constraint2"
    # Only CSP instances: an exact cover reaches python-constraint only through
    # csp's lowering, which the `python-constraint` backend row already times
    # (and which ends in the time limit on every exact-cover instance of the suites).
    forms = ("model",)
    distribution = "python-constraint2"
    modules = ("constraint",)

    def prepare(self, problems: list[Any]) -> Any:
        from csp import reformulate
        from csp.backends.pyconstraint import _Clock, build
        from csp.model import Model

        out = []
        for problem in problems:
            m, _ = reformulate.lower(_no_symmetry(problem), Model)
            # The clock (a constraint that accepts everything) lets a run stop
            # at its time limit instead of being killed: see csp.backends.pyconstraint.
            clock = _Clock()
            out.append((build(m, clock), clock, bool(m.variables)))
        return out

    def count(self, prepared: Any, time_limit: float | None) -> Outcome:
        from csp.backends.pyconstraint import _OutOfTime

        outcome = Outcome([])
        started = time.perf_counter()

        def tick() -> None:
            if time_limit is not None and time.perf_counter() - started >= time_limit:
                raise _OutOfTime

        for problem, clock, has_variables in prepared:
            found = 0
            if problem is not None and not has_variables:
                found = 1  # python-constraint has no solution without variables; {} is one
            elif problem is not None:
                clock.tick = tick
                try:
                    for _ in problem.getSolutionIter():
                        found += 1
                except _OutOfTime:
                    outcome.status = "TIME_LIMIT"
            outcome.counts.append(found)
            if outcome.status != "COMPLETE":
                break
        return outcome


PEERS: tuple[type[Solver], ...] = (XcoverSolver, MiniexactSolver, ExactCoverSolver,
                                   OrtoolsSolver, PythonConstraintSolver)


def backend_solvers(names: list[str] | None = None) -> list[Solver]:
    from csp import backends

    return [BackendSolver(name) for name in (names or backends.known())]


def peer_solvers() -> list[Solver]:
    return [cls() for cls in PEERS]


def all_solvers() -> list[Solver]:
    return backend_solvers() + peer_solvers()


def by_name(name: str) -> Solver:
    from csp import backends

    if backends.is_known(name):
        return BackendSolver(name)
    for cls in PEERS:
        if cls.name == name:
            return cls()
    raise KeyError(f"unknown solver {name!r}")
