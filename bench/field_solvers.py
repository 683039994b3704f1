"""The field's solvers run on an instance file, for reference counts and
sat/unsat answers: ACE and Choco on XCSP3, Gecode on FlatZinc.

Each runs as its own process with a time limit, killed with its process
group when it overruns; its answer is read exactly:

- ACE (`java -jar <pycsp3>/solvers/ace/ACE-2.6.jar FILE -s=all -npc -jl=0
  -t=60s`): `d FOUND SOLUTIONS N` (thousands separators), and the count is
  complete only on the line `d COMPLETE EXPLORATION` itself ("d INCOMPLETE
  EXPLORATION" contains it);
- Choco (`java -cp <pycsp3>/solvers/choco/choco-parsers-4.10.15-beta.jar
  org.chocosolver.parser.xcsp.ChocoXCSP FILE -a -f -lvl INFO -limit=[60s]`:
  Choco's own XCSP3 parser, not csp's; pychoco has none): it prints
  `s SATISFIABLE` whether or not its limit stopped it, so the count is read
  from its last statistics line, complete when the search ran for less than
  the limit (only the limit stops it early);
- Gecode (`fzn-gecode -a -time MS FILE`): `==========` after the solutions
  when the search is complete, `=====UNSATISFIABLE=====`.

Used by bench/bench_xcsp3.py and bench/bench_flatzinc.py; never by the tests.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass


def pycsp3_dir() -> str:
    import importlib.util

    spec = importlib.util.find_spec("pycsp3")
    assert spec is not None and spec.origin is not None
    return os.path.dirname(spec.origin)


@dataclass
class Answer:
    solver: str
    count: int | None  # solutions found (None: not read)
    complete: bool  # the search ended: the count is the count
    time: float
    note: str = ""

    @property
    def status(self) -> str:
        if self.complete:
            return "unsat" if self.count == 0 else "complete"
        return "limit" if self.count is not None else "failed"


def run(command: list[str], limit: float) -> tuple[str, float, bool]:
    """stdout (and stderr) of `command`, its time, whether it was killed."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=limit + 10)
        killed = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        killed = True
    return out, time.perf_counter() - started, killed


def _found(out: str) -> int | None:
    counts = re.findall(r"^d FOUND SOLUTIONS\s+([\d,]+)\s*$", out, re.MULTILINE)
    return int(counts[-1].replace(",", "")) if counts else None


def ace(path: str, limit: float = 60) -> Answer:
    jar = os.path.join(pycsp3_dir(), "solvers", "ace", "ACE-2.6.jar")
    out, took, killed = run(["java", "-jar", jar, path, "-s=all", "-npc", "-jl=0",
                             f"-t={int(limit)}s"], limit)
    complete = not killed and re.search(r"^d COMPLETE EXPLORATION\s*$", out, re.MULTILINE) \
        is not None
    count = _found(out)
    if count is None and re.search(r"^s UNSATISFIABLE\s*$", out, re.MULTILINE):
        count = 0
    note = "" if count is not None else _last_error(out)
    return Answer("ace", count, complete and count is not None, took, note)


def choco(path: str, limit: float = 60) -> Answer:
    jar = os.path.join(pycsp3_dir(), "solvers", "choco", "choco-parsers-4.10.15-beta.jar")
    out, took, killed = run(["java", "-cp", jar, "org.chocosolver.parser.xcsp.ChocoXCSP", path,
                             "-a", "-f", "-lvl", "INFO", f"-limit=[{int(limit)}s]"], limit)
    # Choco prints "s SATISFIABLE" whether or not a limit stopped it, and no
    # word for a finished search: its last statistics line says how long the
    # search ran, and only the time limit stops it early.
    stats = re.findall(r"^Model\[.*\], ([\d,]+) Solutions, Resolution time ([\d.]+)s",
                       out, re.MULTILINE)
    count = int(stats[-1][0].replace(",", "")) if stats else None
    ran = float(stats[-1][1]) if stats else None
    complete = not killed and ran is not None and ran < 0.95 * limit and \
        "Exception" not in out
    note = "" if count is not None else _last_error(out)
    return Answer("choco", count, complete, took, note)


def gecode(path: str, limit: float = 60, all_solutions: bool = True) -> Answer:
    command = ["fzn-gecode"] + (["-a"] if all_solutions else []) + \
        ["-time", str(int(limit * 1000)), path]
    out, took, killed = run(command, limit)
    lines = out.splitlines()
    count = sum(1 for line in lines if line.strip() == "----------")
    unsat = "=====UNSATISFIABLE=====" in lines
    complete = not killed and (unsat or "==========" in lines or
                               (not all_solutions and count > 0))
    if "=====UNKNOWN=====" in lines:
        complete = False
    note = "" if (count or unsat) else _last_error(out)
    return Answer("gecode", count, complete, took, note)


def _last_error(out: str) -> str:
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    for line in lines:
        if "rror" in line or "xception" in line:
            return line[:160]
    return lines[-1][:160] if lines else "no output"
