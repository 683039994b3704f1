"""`csp bench`: reproducible timings of every backend and of the peer packages
on instances with known answers.

- `csp.bench.instances`: the instances and suites (`tiny`, `quick`, `full`);
- `csp.bench.solvers`: csp's backends and the peers behind one surface;
- `csp.bench.runner`: measuring (each solver in its own worker process), one-time
  costs, the per-(instance, solver) summary;
- `csp.bench.files`: the user's own instances (exact-cover files and
  directories, puzzle files of any kind), whose counts are not known;
- `csp.bench.solved`: instances solved per solver, the virtual best, PAR-2,
  disagreements between solvers;
- `csp.bench.charts`: the cactus plot and the pairwise scatter (matplotlib);
- `csp.bench.report`: Markdown, CSV, JSON, the bar chart, and `compare`.

>>> from csp.bench import instances, runner, solvers
>>> bench = runner.run(instances.suite("tiny"), [solvers.by_name("dlx")], repeat=1,
...                    isolate=False, startup_costs=False)
>>> [(r["instance"], r["status"], r["count"]) for r in runner.summarise(bench.records)]
[('queens-6', 'ok', 4), ('word-square-3x3-20words', 'ok', 74)]
"""

from csp.bench.instances import Instance, suite
from csp.bench.runner import BenchRun, run, summarise

__all__ = ["BenchRun", "Instance", "run", "suite", "summarise"]
