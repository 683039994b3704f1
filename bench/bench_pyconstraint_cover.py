"""python-constraint on exact covers: taken directly (a variable per primary
item, issue 14) against the 0/1 model it got before (one Boolean per option,
sums), on the 100-square word cover of tests/data and on small queens.

    python bench/bench_pyconstraint_cover.py [--time-limit S]

Both ways run in this one process, one after the other; the figures are
seconds of one run each (the machine is shared: compare them as ratios).
"""

from __future__ import annotations

import sys
from pathlib import Path

import csp
from csp import reformulate
from csp.backends.pyconstraint import PythonConstraintBackend
from csp.bench.measure import timed
from csp.bench.script import Report, arguments
from csp.model import Model

ROOT = Path(__file__).resolve().parents[1]


def queens(n: int) -> csp.ExactCover:
    xc = csp.ExactCover([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
                        [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)])
    for i in range(n):
        for j in range(n):
            xc.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return xc


def counted(problem: object, limit: float) -> str:
    seconds, result = timed(lambda: PythonConstraintBackend().count(
        problem, time_limit=limit), "wall")
    return f"{result.count} {result.status.value} {seconds:.2f}s"


def main() -> None:
    limit = arguments(__doc__, repeat=None, time_limit=120.0).parse_args().time_limit
    instances = {"word squares 4x4 (100)": csp.ExactCover.read(
        ROOT / "tests" / "data" / "wordsquare" / "squares4-100.xc")}
    instances.update({f"queens {n} (cover)": queens(n) for n in (6, 8)})
    report = Report()
    report.table(["instance", "direct", "as a 0/1 model"])
    for name, xc in instances.items():
        lowered, _ = reformulate.lower(xc, Model)
        report.row([name, counted(xc, limit), counted(lowered, limit)])


if __name__ == "__main__":
    sys.exit(main())
