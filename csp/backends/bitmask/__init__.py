"""The `bitmask` backend: propagation search over bitmask domains, compiled.

Each domain is a 64-bit mask over the variable's own sorted values; all-different
(naked and hidden singles), sums (subset tables for all-different digits as in
kakuro, bounds otherwise), tables (supports), disequalities, and the model
language's logic, `Element`, `Count`, `GlobalCardinality`, `Regular`, `Circuit`
and `Connected` (see `kernel`) shrink the masks to
a fixpoint after every decision, and the unassigned variable with the fewest
candidates is filled next, smallest value first. After 100 failures (then
1.5 times more each time) the search restarts from the root, keeping the
explored subtrees as nogoods and the failure weights (`learn`). A search
that reaches 1,000 failures without a solution restarts learning from its
conflicts (`analyze`; `LEARN_AFTER`).

>>> from csp import AllDifferent, Model, Sum
>>> m = Model()
>>> xs = [m.var(f"x{i}", range(1, 4)) for i in range(3)]
>>> _ = m.add(AllDifferent(xs))
>>> _ = m.add(Sum(xs[:2]) == 3)
>>> search = BitmaskBackend().solutions(m)
>>> list(search), search.status.value
([{'x0': 1, 'x1': 2, 'x2': 3}, {'x0': 2, 'x1': 1, 'x2': 3}], 'COMPLETE')
>>> BitmaskBackend().count(m).count
2
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar

import numpy as np

from csp.backends import by_name
from csp.backends.base import (
    CONSTRAINT_KINDS,
    FAMILY,
    LOGIC,
    PAUSED,
    SLICED,
    Progress,
    SlicedSearch,
)
from csp.backends.bitmask import compile_globals, family, kernel, layout, learn
from csp.backends.bitmask.compile import MAX_VALUES, Compiled, compile_model
from csp.errors import BadOption
from csp.model import Assignment, Model
from csp.result import Result, Stats, Status


class BitmaskSearch(SlicedSearch):
    """One propagation search over its own state arrays."""

    backend = "bitmask"

    def __init__(self, problem: Model, options: kernel.Options = kernel.DEFAULT_OPTIONS,
                 compiled: Compiled | None = None, state: kernel.State | None = None,
                 **limits) -> None:
        """`compiled` and `state`: the problem already compiled, and a fresh
        state of its own to search from (`Prepared`)."""
        super().__init__(**limits)
        self.problem = problem
        self.compiled: Compiled = compile_model(problem) if compiled is None else compiled
        self.arrays = self.compiled.problem  # grows by the nogoods of restarts
        options = for_the_job(options, self.limit)
        self.options = options
        self.state = learn.start_state(self.arrays, options) if state is None else state
        self.cutoff = options.restarts
        # The solutions at the last restart, and the failures at the first
        # restart that saw the latest of them (learning waits from there,
        # unless solutions are rare: `quiet_from`).
        self._solutions = 0
        self._solution_seen_at = 0
        if not self.compiled.feasible:
            self.state.st[layout.PHASE] = layout.PHASE_DONE

    def _advance(self, count_only: bool, budget: int) -> int:
        stop = int(self.state.st[layout.NODES]) + budget
        while True:
            left = max(1, stop - int(self.state.st[layout.NODES]))
            event = int(kernel.search(self.arrays, self.state, count_only, left))
            if event != layout.RESTART:
                return event
            self.cutoff = int(self.cutoff * learn.GROWTH) + 1
            solutions = int(self.state.st[layout.SOLUTIONS])
            failures = int(self.state.st[layout.FAILURES])
            if solutions != self._solutions:  # (seen at restarts: see `learn`)
                self._solutions = solutions
                self._solution_seen_at = failures
            quiet_from = learn.quiet_from(self.options, failures, solutions,
                                          self._solution_seen_at)
            self.arrays, self.state = learn.restart(self.arrays, self.state, self.cutoff,
                                                    self.options, quiet_from)

    def _solution(self) -> Assignment:
        compiled = self.compiled
        return Assignment(
            (name, values[int(mask).bit_length() - 1] if mask > 0 else values[63])
            for name, values, mask in zip(compiled.names, compiled.values, self.state.dom)
        )

    def _measure(self, stats: Stats) -> None:
        st = self.state.st
        stats.solutions = int(st[layout.SOLUTIONS])
        stats.nodes = int(st[layout.NODES])
        stats.failures = int(st[layout.FAILURES])
        stats.extra["propagations"] = int(st[layout.PROPAGATIONS])
        stats.extra["strong"] = int(st[layout.STRONG])
        stats.extra["restarts"] = int(st[layout.RESTARTS])
        stats.extra["conflicts"] = int(st[layout.CONFLICTS])
        stats.extra["learned"] = int(st[layout.LEARNED])
        stats.extra["backjumps"] = int(st[layout.BACKJUMPS])
        stats.extra["minimised"] = int(st[layout.MINIMISED])
        stats.extra["deleted"] = int(st[layout.DELETED])
        stats.extra["nogoods"] = len(self.arrays.kind) - len(self.compiled.problem.kind)


PROOF_MARGIN = 200
"""Learning's restarts when the search must prove that no other solution is
left (a count, every solution, or `limit` >= 2 as a uniqueness check): as
Glucose's, when the last ~32 clauses' LBD is over 200 % of the last
~4,096's; a search for a first solution (`limit=1`) restarts at Luby's
sequence. A proof gains by staying where its clauses are good, as the SAT
literature found for unsatisfiable instances (Audemard and Simon, CP 2012;
Oh, SAT 2015); a quasigroup's first solution needs Luby's frequent
restarts. Chosen on the tuning sets, counted (bench/RESULTS.md, stop 45):
the blanked sudokus in PAR2 64.1 s at 200 %, 71.2 s at 160 %, 80.3 s at
140 % and 179.7 s with Luby's; the 8 counted 30x30 quasigroups that learn
and finish in 20 s, 18.2 s in all at 200 % against 27.9 s with Luby's.
First solutions of quasigroups took twice the timeouts with them (122.8 s
-> 214.9 s PAR2 at 140 %, set B, stop 44)."""


def for_the_job(options: kernel.Options, limit: int | None) -> kernel.Options:
    """`options` with learning's restarts and phase saving chosen for a
    search of at most `limit` solutions (None: all), where the user left them
    to the backend (`restart_margin=None`, `phase=None`): for a first
    solution (`limit=1`), Luby's restarts (0) and phase saving; for a proof
    that no other solution is left, PROOF_MARGIN and no phase saving
    (PROOF_PHASE).

    >>> both = BitmaskBackend().options
    >>> for_the_job(both, None).restart_margin, for_the_job(both, 1).restart_margin
    (200, 0)
    >>> for_the_job(both, None).phase, for_the_job(both, 1).phase
    (False, True)
    >>> job = for_the_job(BitmaskBackend(restart_margin=0, phase=True).options, None)
    >>> job.restart_margin, job.phase
    (0, True)
    """
    first = limit == 1
    if options.restart_margin is None:
        options = options._replace(restart_margin=0 if first else PROOF_MARGIN)
    if options.phase is None:
        options = options._replace(phase=first or PROOF_PHASE)
    return options


PROOF_PHASE = False
"""Phase saving when the search must prove that no other solution is left:
off. A decision then tries its variable's values in order, not the value
the variable last had. Phase saving brings a search back to where it was
before a restart or backjump, which finds a first solution sooner (the
quasigroups' tuning set: 111 s with it, 193 s without, stop 33). But in a
count most of the work comes after the first solution (three quarters on
the counted quasigroups, stop 49), and there the saved values lead back
towards the solutions already found. Chosen on the tuning sets, counted
(bench/RESULTS.md, stop 49): the 20 counted quasigroups of the second half
that learn, 30 s each, PAR2 367.6 s with it and 302.9 s without (4 and 3
timeouts; the 16 both finish, 127.6 s and 98.1 s, faster on 14); the
first counted half, 20 s each, the 37 both finish 42.4 s with it and 37.7 s
without (PAR2 162.4 s and 157.7 s); the blanked sudokus the same (PAR2
143.5 s and 145.6 s, 2 % fewer conflicts without)."""


LEARN_AFTER = 1_000
"""Learning starts (at a restart) after this many failures without a
solution: a search that propagation settles sooner, as a 9x9 sudoku or a
kakuro, never pays for it, and one that finds solutions often stays plain
(the failures are counted since the last solution: clauses did not pay
there). 10,000 until stop 63, chosen at stop 35 on first solutions (300,
1,000, 3,000 and 10,000 gave 156, 138, 93 and 85 s PAR2). Since then a
conflict has become about half as dear (bench/RESULTS.md, stops 57 and 59),
and on all four counted tuning sets 1,000 now takes less time than 10,000:
the quasigroups' first half 0.67x (the 38 that finish), the second 0.92x,
the two blanked-sudoku sets 0.88x and 0.86x (stop 63). Of `csp bench
--suite full`, only the searches that already learned start sooner: the
25x25 sudokus in 0.69x the time; the pentominoes and the word square time
out at 20 s either way, with more solutions found."""
LEARN_RARE = 20
"""Solutions are rare once the search has failed this many times per
solution found (or more): learning's wait (`LEARN_AFTER`) then counts the
failures from the start rather than since the last solution. A search that
finds solutions often stays plain, as before: 12 to 14 queens fail 4 to 6
times a solution, the lattice 5 (`csp bench --suite full`). A count whose
solutions are spread through a long search learns: on the first counted
half of the quasigroup tuning set the 37 instances that finish took 0.81x
the time (13.8 s against 16.7 and 17.4; 50: 14.6 s), and the second half
the same within noise (57.6 s against 55.7; bench/RESULTS.md, stop 58)."""
CLAUSES_LAST = True
"""Learning: the learned clauses are propagated once the constraints'
queues are empty, not first whenever a narrowing was made. Either order
reaches the same fixpoint at a node that does not fail; at one that does,
the constraints usually find the conflict, and every clause watch visited
before it was work lost. Chosen on the tuning sets (bench/RESULTS.md, stop
59): a conflict of the second counted quasigroup half 175 -> 109 us, for
more conflicts, the 17 instances that finish 0.75x the time (each faster);
the first counted half 0.85x (the 37 that finish), and one more finishes;
the blanked sudokus the same (PAR2 37.6 s either way) and the second sudoku
set 1.05x. Clauses after the singles but before the matching did worse on
the quasigroups (0.85x and 0.88x)."""
IMPLIED = False
"""Learning: whether each learned clause loses its literals x = k that
another of its literals implies through the model, y != k with y beside x
in an all-different or x != b (`minimise.drop_implied`: binary
minimisation, over the model's implications rather than binary clauses).
A third of a counted quasigroup's literals go, and each shorter clause is
as strong or stronger. Off by default: on the tuning sets (bench/RESULTS.md,
stop 61) the sudokus took 0.92x and 0.94x the time with 9-10 % fewer
conflicts and the counted quasigroups the same (0.98x and 1.04x), but
reported on the issue's 36x36 minimal4 it made 1.7x the conflicts (107.5 s
against 59.7 s, 3.6x CP-SAT's time instead of 2.0x)."""
RESTARTS = 100
"""The default first restart cutoff, in failures: 30 and 1,000 did worse on
the 25x25 and 36x36 sudokus (bench/RESULTS.md)."""
REDUCE_FIRST = 4000
"""Learning: the clauses at the database's first reduction (or a quarter of
the database, if fewer). Chosen on the tuning half and 25 balanced
quasigroups with holes: 16,384 (a quarter of the largest database, before)
left the watch lists so long that a conflict cost twice as much, and 2,000
or 8,000 did worse (bench/RESULTS.md)."""
REDUCE_GROW = 0
"""... and how many more at each next one (0: half as many again; 1,000
more each time did as well)."""


class BitmaskBackend:
    """Bitmask-domain propagation search: the native backend for `Model`."""

    name: ClassVar[str] = "bitmask"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model,)
    capabilities: ClassVar[frozenset[str]] = (CONSTRAINT_KINDS | compile_globals.KINDS
                                              | {LOGIC, "SumNotEqual", FAMILY, SLICED})

    WDEG: ClassVar[dict[str, int]] = {"off": layout.WDEG_OFF, "ties": layout.WDEG_TIES,
                                      "ratio": layout.WDEG_RATIO}

    def __init__(self, *, matching: bool = True, locked: bool = True, probe: bool = True,
                 wdeg: str = "ties", places: bool = True, restarts: int = RESTARTS,
                 defer: bool = True, counts: bool = True, last: bool = False,
                 learn: bool = True, learn_after: int = LEARN_AFTER,
                 learn_rare: int = LEARN_RARE,
                 learn_restart: int = 100, restart_margin: int | None = None,
                 max_clauses: int | None = None, max_literals: int | None = None,
                 activity: bool = True, minimise: bool = False, phase: bool | None = None,
                 reduce_first: int | None = None, reduce_grow: int | None = None,
                 value_activity: bool = True, clauses_last: bool = CLAUSES_LAST,
                 implied: bool = IMPLIED) -> None:
        """Each technique can be switched off, to measure what it brings:
        `matching` (all-different by matching), `locked` (intersections of
        all-differents), `probe` (failed-value probing at the root), `wdeg`
        (variable choice: "off" fewest values, "ties" fewest values with ties
        by failures, "ratio" least values per failure weight) and `places`
        (branching on the places of a value when they are fewer); `restarts`:
        restart after that many failures (then 1.5 times more each time),
        keeping the explored subtrees as nogoods (0: never restart; a
        puzzle settled in fewer failures, as a 9x9 sudoku, never restarts);
        `defer`: an all-different's matching and intersections wait until the
        singles of every constraint have settled (False: they run right after
        its singles, each time); `counts`: the places of each value in each
        all-different are counted as domains shrink, so that a narrowing wakes
        an all-different's singles only when it fixes a cell or leaves a value
        one place (or none) there, and otherwise only its deferred strong
        reasoning (False: every narrowing wakes the singles); `last`:
        last-conflict reasoning, the choice (a variable, or a value's places)
        whose decision failed last is branched on again, before the usual
        choice, until a decision on it succeeds (off by default: more nodes
        in all on the large sudokus, bench/RESULTS.md 17c); `learn`: learn a
        clause from each conflict, backjump, branch by activity and restart
        (docs/explanation/bitmask.md), from `learn_after` failures on (0:
        from the first; else the search is the plain one until then, and
        learning starts at a restart there, once even with `restarts=0`,
        unless a solution was found by then; the failures are counted since
        the last solution while solutions are frequent, and from the start
        once they are rare: `learn_rare` failures or more per solution so
        far, LEARN_RARE; 0: always since the last solution),
        restarting every `learn_restart` conflicts times Luby's sequence
        (0: never) with `restart_margin=0`, or, with a percentage, when the
        literal block distance of its last ~32 clauses is over
        `restart_margin` % of the last ~4,096's, at least `learn_restart`
        conflicts apart (Glucose's restarts; None: chosen by the job,
        `for_the_job`: Glucose's at PROOF_MARGIN % when all solutions are
        counted or a uniqueness check must prove there is no other, Luby's
        for a first solution, bench/RESULTS.md, stop 45), in a database of at most
        `max_clauses` clauses and `max_literals` literals (None: to the
        problem's size, 4 clauses of 64 literals per value of each
        variable, at most 65,536 clauses and
        4,194,304 literals); `activity`: with learning, branch by the
        variables' activity in conflicts (False: by failure weights);
        `minimise`: with learning, drop from each learned clause the literals
        that its other literals imply through their explanations (off by
        default: on the large sudokus it drops few literals for much time,
        bench/RESULTS.md); `phase`: with learning, a variable's decision
        tries first the value it last had (phase saving), so that restarts
        and backjumps come back to where the search was (None: chosen by
        the job, `for_the_job`: on for a first solution, off when the search
        must prove there is no other, PROOF_PHASE); `value_activity`: with
        learning and without phase saving, a variable's decision tries first
        its value least active in conflicts, the one whose x = k the fewest
        recent learned clauses deny (False: its values in order; 0.86 and 0.75
        times the time on two sudoku tuning sets, the quasigroups' the same,
        bench/RESULTS.md, stop 55); `clauses_last`: with learning, the
        learned clauses are propagated once the constraints have settled
        (False: first, each time a narrowing is made; the same fixpoint, but
        most conflicts are the constraints', and the clauses' watches visited
        before one are work lost: CLAUSES_LAST); `implied`: with learning,
        a learned clause's x = k is dropped where another of its literals
        implies it through an all-different (y != k, y beside x) or x's own
        domain (x != b): IMPLIED; `reduce_first`:
        the database is first reduced (its worst half deleted) at that many
        clauses (or a quarter of the database, if fewer), then at
        `reduce_grow` more each time (None: REDUCE_FIRST, and half as many
        again each time). Solution
        counts do not depend on them; nodes and time do."""
        if wdeg not in self.WDEG:
            raise ValueError(f"wdeg must be one of {', '.join(self.WDEG)}, not {wdeg!r}")
        switches = {"matching": matching, "locked": locked, "probe": probe, "places": places,
                    "defer": defer, "counts": counts, "last": last, "learn": learn,
                    "activity": activity, "minimise": minimise, "phase": phase,
                    "value_activity": value_activity, "clauses_last": clauses_last,
                    "implied": implied}
        for name, value in switches.items():
            if value is None and name in _BY_THE_JOB:
                continue  # (the job's choice: `for_the_job`)
            # A truthy string such as "no" would silently switch a technique on.
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be True or False"
                                f"{' or None' if name in _BY_THE_JOB else ''}, not {value!r}")
        counts_ = {"restarts": (restarts, 0), "learn_after": (learn_after, 0),
                   "learn_rare": (learn_rare, 0),
                   "learn_restart": (learn_restart, 0), "max_clauses": (max_clauses, 16),
                   "max_literals": (max_literals, 64), "reduce_first": (reduce_first, 16),
                   "reduce_grow": (reduce_grow, 1), "restart_margin": (restart_margin, 0)}
        for name, (number, least) in counts_.items():
            if number is None and name.startswith(("max_", "reduce_", "restart_")):
                continue  # (to the problem's size, the tuned default, or the job's)
            if isinstance(number, bool) or not isinstance(number, int) or number < least:
                raise ValueError(f"{name} must be a whole number >= {least}, not {number!r}")
        if restart_margin is not None and 0 < restart_margin < 100:
            # (under 100 %, the search would restart at nearly every chance)
            raise ValueError(f"restart_margin must be None (by the job), 0 (Luby's restarts) "
                             f"or a percentage >= 100, not {restart_margin!r}")
        self.options = kernel.Options(matching, locked, probe, self.WDEG[wdeg], places, restarts,
                                      defer, counts, last, learn, learn_after, learn_restart,
                                      max_clauses or 0, max_literals or 0, activity, minimise,
                                      phase, reduce_first or REDUCE_FIRST,
                                      reduce_grow or REDUCE_GROW, restart_margin,
                                      value_activity, learn_rare, clauses_last, implied)

    def configured(self, options: str) -> BitmaskBackend:
        """This backend with `options`, for `backends.get("bitmask:OPTIONS")`
        and the command line's `--backend` / `--backends`: the keyword
        arguments of `BitmaskBackend`, separated by colons, a bare name
        switching a technique on. Its name is the whole spec, so results and
        bench tables tell the configurations apart.

        >>> from csp import backends
        >>> learning = backends.get("bitmask:learn:learn_after=500")
        >>> learning.name, learning.options.learn, learning.options.learn_after
        ('bitmask:learn:learn_after=500', True, 500)
        >>> backends.get("bitmask:learn=maybe")
        Traceback (most recent call last):
        ...
        csp.errors.BadOption: bitmask:learn=maybe: learn takes true or false, not 'maybe'
        """
        spec = f"bitmask:{options}"
        defaults = {name: param.default for name, param
                    in inspect.signature(BitmaskBackend.__init__).parameters.items()
                    if param.kind is inspect.Parameter.KEYWORD_ONLY}
        chosen: dict[str, object] = {}
        for word in (word.strip() for word in options.split(":")):
            if not word:
                continue
            key, equals, text = word.partition("=")
            key = key.strip().replace("-", "_")
            if key not in defaults:
                raise BadOption(f"{spec}: no option {key!r}; bitmask's options: "
                                f"{', '.join(defaults)}")
            chosen[key] = _option_value(spec, key, defaults[key], text.strip() if equals else None)
        try:
            backend = type("BitmaskBackend", (BitmaskBackend,),
                           {"name": spec, "__reduce__": by_name})(**chosen)
        except (TypeError, ValueError) as err:
            raise BadOption(f"{spec}: {err}") from None
        return backend

    def refuses(self, problem: Model) -> str | None:
        """Why this backend cannot take `problem` (None if it can): a domain that
        does not fit in one 64-bit mask, its own or that of a hidden variable."""
        for name, variable in problem.variables.items():
            if len(variable.domain) > MAX_VALUES:
                return (f"variable {name!r} has {len(variable.domain)} values; the bitmask "
                        f"backend takes at most {MAX_VALUES} per variable")
        return compile_globals.too_large(problem)

    def solutions(self, problem: Model, *, limit: int | None = None,
                  time_limit: float | None = None,
                  progress: Progress | None = None) -> BitmaskSearch:
        return BitmaskSearch(problem, self.options, limit=limit, time_limit=time_limit,
                             progress=progress)

    def count(self, problem: Model, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return BitmaskSearch(problem, self.options, time_limit=time_limit,
                             progress=progress).count()


    def solve_family(self, problem: Model, givens: Sequence[Mapping[object, Sequence[int]]], *,
                   count: bool = False, progress: Progress | None = None
                   ) -> Iterator[Result]:
        """Each puzzle `problem` with the domains `givens[j]` (`{name: values}`)
        fixed, solved in one compiled loop over the model compiled once: its
        first solution (`count`: its number of solutions), in order."""
        compiled = compile_model(problem)
        p = compiled.problem
        position = [{v: i for i, v in enumerate(values)} for values in compiled.values]
        index = {name: i for i, name in enumerate(compiled.names)}
        fixed_var: list[int] = []
        fixed_mask: list[int] = []
        starts = [0]
        for fixed in givens:
            for name, values in fixed.items():
                x = index[name]
                fixed_var.append(x)
                fixed_mask.append(_mask(position[x], values))
            starts.append(len(fixed_var))
        fresh = kernel.new_state(p)
        if not compiled.feasible:
            fresh.st[layout.PHASE] = layout.PHASE_DONE
        state = kernel.new_state(p)
        where = np.zeros(family.BATCH_SIZE, dtype=np.int64)
        out = np.zeros((len(givens), family.OUT_SIZE), dtype=np.int64)
        found = np.zeros((len(givens), max(len(p.dom0), 1)), dtype=np.int64)  # hidden too
        arrays = (np.asarray(starts, dtype=np.int64), np.asarray(fixed_var, dtype=np.int64),
                  np.asarray(fixed_mask, dtype=np.int64))
        done = 0
        clock = time.perf_counter()
        while done < len(givens):
            now = family.solve_batch(p, state, fresh, *arrays, count, where, out, found,
                                    BATCH_BUDGET)
            seconds = (time.perf_counter() - clock) / max(now - done, 1)
            for j in range(done, now):
                yield _family_result(compiled, out[j], found[j], count, seconds)
            done = now
            clock = time.perf_counter()
            if progress is not None:
                progress(Stats(solutions=int(out[:done, family.OUT_SOLUTIONS].sum()),
                               nodes=int(out[:done, family.OUT_NODES].sum())))


class Prepared:
    """A model compiled once and searched many times, each time with some of
    its domains cut: a blank grid and each puzzle's givens, as a generator
    checks thousands of puzzles of one shape (`csp.generation`). A search
    here finds what one over `csp.family.with_givens(model, fixed)` finds,
    without compiling again (for a one-value cut, the layout is the same:
    `compile._layout`).

    >>> from csp import AllDifferent, Model
    >>> m = Model()
    >>> xs = [m.var(f"x{i}", range(1, 4)) for i in range(3)]
    >>> _ = m.add(AllDifferent(xs))
    >>> blank = Prepared(m)
    >>> blank.solutions({"x0": 2}, limit=5).count().count, blank.solutions({}).count().count
    (2, 6)
    """

    def __init__(self, model: Model, backend: BitmaskBackend | None = None) -> None:
        self.model = model
        self.options = (backend or BitmaskBackend()).options
        self.compiled = compile_model(model)
        # Each variable's index and the bit of each of its values.
        self.bits = {name: (x, {v: _mask({v: k}, [v]) for k, v in enumerate(values)})
                     for x, (name, values) in enumerate(zip(self.compiled.names,
                                                            self.compiled.values))}
        self.fresh: dict[kernel.Options, kernel.State] = {}

    def solutions(self, fixed: Mapping[object, int | Sequence[int]], *,
                  backend: BitmaskBackend | None = None, limit: int | None = None,
                  time_limit: float | None = None) -> BitmaskSearch:
        """A search of the model with each variable of `fixed` cut to its
        value (or values), with `backend`'s techniques (None: those given
        when prepared)."""
        options = for_the_job(self.options if backend is None else backend.options, limit)
        if options not in self.fresh:
            self.fresh[options] = learn.start_state(self.compiled.problem, options)
        state = kernel.State(*(array.copy() for array in self.fresh[options]))
        dom = state.dom
        for name, values in fixed.items():
            x, bit = self.bits[name]
            if isinstance(values, (int, np.integer)):
                dom[x] &= bit.get(values, 0)  # a value outside the domain: no bit
            else:
                mask = 0
                for v in values:
                    mask |= bit.get(v, 0)
                dom[x] &= mask
        return BitmaskSearch(self.model, options, self.compiled, state, limit=limit,
                             time_limit=time_limit)


BATCH_BUDGET = 1 << 16
"""Decisions per call of the family kernel (a decision may cost a propagation
of every constraint): Ctrl-C and progress are served while a collection is solved."""


def _mask(position: dict[int, int], values: Sequence[int]) -> int:
    """The int64 mask of `values` in a variable's layout (bit 63 is the sign)."""
    mask = 0
    for v in values:
        mask |= 1 << position[v]
    return mask - (1 << 64) if mask >= 1 << 63 else mask


def _family_result(compiled: Compiled, out: np.ndarray, found: np.ndarray, count: bool,
                   seconds: float) -> Result:
    solutions = int(out[family.OUT_SOLUTIONS])
    stats = Stats(solutions=solutions, nodes=int(out[family.OUT_NODES]),
                  failures=int(out[family.OUT_FAILURES]), time=seconds)
    solution = None
    if solutions and not count:
        solution = Assignment(zip(compiled.names, map(tuple.__getitem__, compiled.values,
                                                      found.tolist())))
    exhausted = int(out[family.OUT_DONE]) == 1
    return Result(solutions, Status.COMPLETE if exhausted else Status.SOLUTION_LIMIT, stats,
                  "bitmask", solution)


__all__ = ["MAX_VALUES", "PAUSED", "BitmaskBackend", "BitmaskSearch", "Prepared"]


_TRUE, _FALSE = ("true", "on", "yes", "1"), ("false", "off", "no", "0")
_BY_THE_JOB = ("phase",)
"""The switches whose default, None, leaves them to the job (`for_the_job`)."""


def _option_value(spec: str, key: str, default: object, text: str | None) -> object:
    """The value of option `key` written `text` (None: the bare name, which
    switches a technique on), of the type of its default."""
    if isinstance(default, bool) or key in _BY_THE_JOB:
        if text is None or text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise BadOption(f"{spec}: {key} takes true or false, not {text!r}")
    if text is None:
        raise BadOption(f"{spec}: {key} takes a value, as in {key}={default or 1000}")
    if default is None or isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise BadOption(f"{spec}: {key} takes a whole number, not {text!r}") from None
    return text
