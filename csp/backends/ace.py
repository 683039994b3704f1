"""The `ace` backend: ACE, the XCSP3 competitions' solver (Java), on the
model written as XCSP3 (`csp.io.xcsp3.write`).

ACE is the jar pycsp3 ships (`pycsp3/solvers/ace/ACE-*.jar`; found without
importing pycsp3, whose import registers an exit hook in the caller's
process) run by a Java runtime (Debian `default-jre-headless`):
`java -jar ACE.jar FILE.xml -s=all -xe -xc=false -npc -jl=0 -t=MS`, one JVM
per search. It runs from the backend's child process
(`csp.backends.forked`, `csp.backends.program`): Ctrl-C, a closed search
or an overrun time limit kill the JVM with it.

Its output is read exactly:

- a solution is a line `v <instantiation ...> <list> x y z[] </list>
  <values> ... </values>` (`-xe`: each as it is found; `-xc=false`: no
  compressed runs; an array's undeclared cell is `*`);
- `d FOUND SOLUTIONS N` is its count, with thousands separators ("1,366");
- the count is complete only on the line `d COMPLETE EXPLORATION` itself:
  `d INCOMPLETE EXPLORATION` contains that string;
- anything else (no such line, a count that differs from the solutions it
  listed, an exit without an answer) is a `SolverFailed` with its last lines.

ACE leaves out a variable that no constraint mentions (it would multiply
every count by its domain's size): each of its solutions stands for every
combination of those variables' values, which this backend lists (and
multiplies its count by).

ACE 2.6 miscounts `nValues` compared with an int (17,685 or 20,722
solutions, depending on restarts, for a problem with 10,800): the writer
says `NValue` as a sum of truths instead. It rejects a non-deterministic
automaton: `Regular` reaches it decomposed (`Connected` too: XCSP3 has no
word for it).

>>> from csp import AllDifferent, Model
>>> m = Model()
>>> x = m.vars("abc", range(3))
>>> _ = m.add(AllDifferent(x[:2]))
>>> AceBackend().count(m).count  # c is in no constraint: 6 x 3
18
"""

from __future__ import annotations

import glob
import hashlib
import importlib.util
import itertools
import math
import os
import re
import shutil
import tempfile
import time
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from csp._cache import cache_home
from csp.backends.base import CONSTRAINT_KINDS, OUTSIDE
from csp.backends.forked import ModelInChild, Outbox
from csp.backends.program import Program
from csp.model import Model
from csp.result import Status

KINDS = frozenset({"Logic", "SumNotEqual", "Intension", "Count", "NValue",
                   "Minimum", "Maximum", "Times", "AllEqual",
                   "AllDifferentExcept", "Increasing", "Decreasing", "Lex", "GlobalCardinality",
                   "Circuit", "Inverse"})
"""The kinds beyond the core that ACE takes as XCSP3 says them (`Regular`
and `Connected` reach it decomposed: see the module). `Abs` and `Mod` reach
it decomposed too: ACE 2.6 stops on an internal check (`Kit.control`, "!
ERROR") building its binary primitives for `eq(abs(x),y)` where `y` may be
negative and for `mod(x,k)` with `k < 0`; `Element` too: ACE refuses an
index whose domain reaches past the array ("unimplemented case for element
with an index (variable) with a bad value"), where csp's is merely false;
`Div` too: ACE stops ("! ERROR: 2 vs 3") on the floor division's tree
`x // y == x`."""

BOUND = (1 << 31) - 1
"""ACE keeps values in Java ints."""

JAVA = "java"
JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss64m")
"""One core's collector (the machine's others stay free), the quick
compiler only (ACE's searches are short next to the JVM's start), and a
deep stack (ACE recurses on large instances). With a class-data archive
(`archive`) the JVM starts in 0.5 s of CPU instead of 1.1 s
(bench/RESULTS.md, issue 24)."""

ARCHIVE_SECONDS = 30.0
"""How long the JVM may take to exit once ACE has answered (it writes its
class-data archive then, the first time)."""

GRACE = 1.0
"""Seconds ACE may run past its time limit (its own stop, the JVM's exit)
before the child kills it (the caller kills the child a second later)."""

_FOUND = re.compile(r"^d FOUND SOLUTIONS\s+([\d,]+)\s*$")
_RUN_SOLUTIONS = re.compile(r"\bsols:([\d,]+)")
_SOLUTION = re.compile(r"<list>(.*?)</list>\s*<values>(.*?)</values>")
_ARRAY = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)((?:\[\])+)$")
_UNDECLARED = object()
"""An array's cell that no variable is (ACE prints `*` for it); not None,
which may name a variable."""


def jar() -> str | None:
    """ACE's jar in the installed pycsp3 (the newest there), or None."""
    spec = importlib.util.find_spec("pycsp3")  # found, not imported (see the module)
    if spec is None or not spec.submodule_search_locations:
        return None
    for place in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(place, "solvers", "ace", "ACE-*.jar")))
        if found:
            return found[-1]
    return None


def archive(location: str, *, create: bool) -> tuple[list[str], str | None]:
    """The JVM options that load ACE's classes from a class-data archive in
    csp's cache (`~/.cache/csp/ace`), made (if `create`) by a run that finds
    none; and the file that run writes (kept once it ends well), or None.

    Only a search without a time limit makes the archive: the JVM writes it
    as it exits, after ACE's answer, which a time limit must not wait for."""
    java = shutil.which(JAVA)
    place = _cache_dir()
    if java is None or place is None:
        return [], None
    java = os.path.realpath(java)
    key = hashlib.sha256(f"{java}:{os.stat(java).st_mtime_ns}:{location}:"
                         f"{os.stat(location).st_mtime_ns}".encode()).hexdigest()[:16]
    path = os.path.join(place, f"{os.path.basename(location)}-{key}.jsa")
    if os.path.exists(path):
        return [f"-XX:SharedArchiveFile={path}", "-Xshare:auto"], None
    if not create:
        return [], None
    fresh = f"{path}.{os.getpid()}"
    return [f"-XX:ArchiveClassesAtExit={fresh}"], fresh


def _cache_dir() -> str | None:
    home = cache_home()
    if home is None:
        return None
    place = str(home / "ace")
    try:
        os.makedirs(place, exist_ok=True)
    except OSError:
        return None
    return place if os.access(place, os.W_OK) else None


def refusal(m: Model) -> str | None:
    """Why ACE cannot take `m` (a value past a Java int), or None."""
    for name, v in m.variables.items():
        if v.domain and max(-v.domain[0], v.domain[-1]) > BOUND:
            return f"variable {name!r} has a value beyond ACE's 32-bit ints"
    return None


class Reader:
    """ACE's solutions in the model's terms: its `<list>` read by the ids
    the XCSP3 writer gave, every free variable's values multiplied in."""

    def __init__(self, m: Model, ids: dict[Hashable, str],
                 used: set[Hashable] | None = None) -> None:
        self.names = list(m.variables)
        self.by_id = {xid: name for name, xid in ids.items()}
        if used is None:
            used = {x for c in m.constraints for x in _scope_names(c)}
        self.free = [k for k, name in enumerate(self.names) if name not in used]
        self.free_domains = [m.variables[self.names[k]].domain for k in self.free]
        self.multiplier = math.prod(len(d) for d in self.free_domains)
        self.position = {name: k for k, name in enumerate(self.names)}
        self.arrays: dict[str, list[tuple[tuple[int, ...], Hashable]]] = {}
        for xid, name in self.by_id.items():
            cell = re.match(r"^([A-Za-z][A-Za-z0-9_]*)((?:\[\d+\])+)$", xid)
            if cell:
                index = tuple(int(i) for i in re.findall(r"\d+", cell[2]))
                self.arrays.setdefault(cell[1], []).append((index, name))
        self._order: dict[str, list[Any]] = {}

    def _cells(self, array: str) -> list[Any]:
        """The names of an array's cells in row-major order (`_UNDECLARED` for a hole)."""
        if array not in self._order:
            members = self.arrays[array]
            size = [max(index[d] for index, _ in members) + 1 for d in range(len(members[0][0]))]
            at = dict(members)
            self._order[array] = [at.get(index, _UNDECLARED) for index in
                                  itertools.product(*(range(n) for n in size))]
        return self._order[array]

    def read(self, line: str) -> list[tuple[int, ...]]:
        """The model's solutions one `v` line stands for (values in the
        model's variable order)."""
        match = _SOLUTION.search(line)
        if match is None:
            raise ValueError(f"no <list> and <values> in {line[:200]!r}")
        names: list[Any] = []
        for token in match[1].split():
            array = _ARRAY.match(token)
            if array:
                names += self._cells(array[1])
            elif token in self.by_id:
                names.append(self.by_id[token])
            else:
                raise ValueError(f"unknown variable {token!r} in ACE's solution")
        values = match[2].split()
        if len(values) != len(names):
            raise ValueError(f"{len(values)} values for {len(names)} variables")
        out: list[int | None] = [None] * len(self.names)
        for name, value in zip(names, values):
            if name is _UNDECLARED:
                if value != "*":
                    raise ValueError(f"the value {value!r} for an undeclared cell")
                continue
            out[self.position[name]] = int(value)
        missing = [self.names[k] for k, v in enumerate(out) if v is None and k not in self.free]
        if missing:
            raise ValueError(f"no value for {missing[0]!r}")
        solutions: list[tuple[int, ...]] = []
        for combination in itertools.product(*self.free_domains):
            for k, value in zip(self.free, combination):
                out[k] = value
            solutions.append(tuple(out))  # type: ignore[arg-type]
        return solutions


def _scope_names(c: Any) -> list[Hashable]:
    from csp.constraints import Term

    return [x.name if isinstance(x, Term) else x for x in c.scope]


def command(path: str, *, count_only: bool, limit: int | None, time_limit: float | None,
            jvm: Sequence[str] = ()) -> list[str]:
    """The command that runs ACE on the instance at `path`."""
    location = jar()
    assert location is not None
    out = [JAVA, *JVM_OPTIONS, *jvm, "-jar", location, path, "-npc", "-jl=0", "-xc=false",
           "-v=0", f"-s={'all' if limit is None else limit}"]
    if not count_only:
        out.append("-xe")
    if time_limit is not None:
        out.append(f"-t={max(1, int(time_limit * 1000))}")
    return out


def _search(outbox: Outbox, model: Model, limit: int | None, time_limit: float | None,
            count_only: bool) -> None:
    """The child: write the instance, run ACE, read its answer (see the module)."""
    from csp.io.xcsp3 import write

    if any(not v.domain for v in model.variables.values()):
        outbox.done(Status.COMPLETE, {"solutions": 0})
        return
    if not any(_scope_names(c) for c in model.constraints):
        # Nothing for ACE to do (it would leave every variable out, and stop
        # on "No variable in your model"): constants only, like an empty And.
        if all(c.holds({}) for c in model.constraints):
            _free_only(outbox, Reader(model, {}), limit, count_only)
        else:
            outbox.done(Status.COMPLETE, {"solutions": 0})
        return
    with tempfile.TemporaryDirectory(prefix="csp-ace-") as place:
        path = os.path.join(place, "model.xml")
        ids = write(model, path, common_domains=True, fold=True)
        # The variables the written constraints mention: the writer leaves
        # out what always holds (a sum's 0 coefficients, an empty And), and
        # ACE leaves out every variable no constraint mentions.
        reader = Reader(model, ids, _mentioned(path, ids))
        if reader.multiplier and len(reader.free) == len(reader.names):
            _free_only(outbox, reader, limit, count_only)
            return
        outer = None if limit is None else -(-limit // reader.multiplier)
        left = None if time_limit is None else time_limit - outbox.elapsed()
        if left is not None and left <= 0:
            outbox.done(Status.TIME_LIMIT, {"solutions": 0})
            return
        started = time.perf_counter()
        deadline = None if left is None else started + left + GRACE
        location = jar()
        assert location is not None
        jvm, fresh = archive(location, create=time_limit is None)
        program = Program(command(path, count_only=count_only, limit=outer, time_limit=left,
                                  jvm=jvm), deadline=deadline)
        try:
            _read(outbox, program, reader, limit, count_only, started, left)
        except ValueError as err:
            raise program.failure(f"unreadable output: {err}") from None
        finally:
            code = program.finish(wait=ARCHIVE_SECONDS if program.answered else 0.0)
            if fresh is not None and os.path.exists(fresh):
                if code == 0:
                    os.replace(fresh, fresh.rsplit(".", 1)[0])  # one rename: never half a file
                else:
                    os.unlink(fresh)


def _mentioned(path: str, ids: dict[Hashable, str]) -> set[Hashable]:
    """The variables whose ids the constraints of the XCSP3 file `path` name."""
    with open(path, encoding="utf-8") as text:
        constraints = text.read().split("<constraints>", 1)[-1]
    tokens = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*", constraints))
    return {name for name, xid in ids.items() if xid in tokens}


def _free_only(outbox: Outbox, reader: Reader, limit: int | None, count_only: bool) -> None:
    """A model without constraints: every combination of its domains."""
    started = time.perf_counter()
    if count_only:
        outbox.done(Status.COMPLETE, _figures(reader.multiplier, started))
        return
    sent = 0
    for solution in reader.read("<list></list> <values></values>"):
        if limit is not None and sent >= limit:
            outbox.done(Status.SOLUTION_LIMIT, _figures(sent, started))
            return
        outbox.solution(solution)
        sent += 1
    outbox.done(Status.COMPLETE, _figures(sent, started))


def _read(outbox: Outbox, program: Program, reader: Reader, limit: int | None,
          count_only: bool, started: float, left: float | None) -> None:
    sent = 0  # the model's solutions
    listed = 0  # ACE's solution lines
    found: int | None = None  # ACE's own count
    complete = incomplete = False
    for line in program.lines():
        if line.startswith("v ") and not count_only:
            listed += 1
            for solution in reader.read(line):
                outbox.solution(solution)
                sent += 1
                if limit is not None and sent >= limit:
                    outbox.done(Status.SOLUTION_LIMIT, _figures(sent, started))
                    return
        elif match := _FOUND.match(line):
            found = int(match[1].replace(",", ""))
        elif line == "d COMPLETE EXPLORATION":  # exactly: "d INCOMPLETE ..." contains it
            complete = True
            break  # ACE's last line (the JVM may then write its class archive)
        elif line == "d INCOMPLETE EXPLORATION":
            incomplete = True
            break
        elif count_only and (match := _RUN_SOLUTIONS.search(line)) and outbox.due():
            running = int(match[1].replace(",", "")) * reader.multiplier
            outbox.progress(_figures(running, started))
    if program.overran:
        outbox.done(Status.TIME_LIMIT, _figures(sent, started))
        return
    program.answered = complete or incomplete
    code = program.finish(wait=ARCHIVE_SECONDS if program.answered else 0.0)
    if found is None or not (complete or incomplete):
        raise program.failure("ACE ended without a complete answer")
    if not count_only and found != listed:
        raise program.failure(f"ACE counted {found} solutions but listed {listed}")
    total = found * reader.multiplier if count_only else sent
    if complete:
        status = Status.COMPLETE
    elif limit is not None and total >= limit:
        status = Status.SOLUTION_LIMIT
    elif left is not None and time.perf_counter() - started >= left * 0.9:
        status = Status.TIME_LIMIT
    else:
        raise program.failure(f"ACE stopped before the end (exit code {code}), "
                              "neither at a limit nor complete")
    outbox.done(status, _figures(total, started))


def _figures(solutions: int, started: float) -> dict[str, Any]:
    return {"solutions": solutions, "time": time.perf_counter() - started}


class AceBackend(ModelInChild):
    """ACE on XCSP3, a JVM per search in a child process; native form
    `Model`. It refuses a value past a Java int."""

    name: ClassVar[str] = "ace"
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS | KINDS | {OUTSIDE}
    grace: ClassVar[float] = 2 * GRACE
    work = staticmethod(_search)

    def refuses(self, problem: Model) -> str | None:
        """Why ACE cannot take `problem`, or None."""
        return refusal(problem)


__all__ = ["AceBackend", "KINDS", "Reader", "command", "jar"]
