"""A benchmark worker: `python -m csp.bench.worker`, a JSON job on standard input.

Jobs: `{"mode": "measure", "solver", "instances": [names], "specs":
{name: spec}, "repeat", "time_limit"}` (an instance with a spec is the user's,
built by `csp.bench.files.build`; the others are found by name) prints one
JSON line per event (`start`, `record`, `done`);
`{"mode": "startup", "solver"}` prints one `record` of one-time costs. Only
this module's own lines go to standard output: everything else a solver
prints is sent to standard error.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def main() -> int:
    job = json.loads(sys.stdin.read())
    # Keep the protocol's channel clean: solvers (and the C libraries under them)
    # may print; their output goes to stderr, ours to the saved stdout.
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message, default=str) + "\n")
        channel.flush()

    from csp.bench import runner, solvers

    solver = solvers.by_name(job["solver"])
    if job["mode"] == "startup":
        send({"event": "record", "record": runner.startup_in_process(solver)})
        return 0
    from csp.bench import files, instances

    specs = job.get("specs", {})
    runner.warm_up(solver)
    for name in job["instances"]:
        send({"event": "start", "instance": name})
        instance = files.build(specs[name]) if name in specs else instances.get(name)
        records = runner.measure(solver, instance, repeat=job["repeat"],
                                 time_limit=job["time_limit"],
                                 on_run=lambda k: send({"event": "run", "run": k}))
        for record in records:
            send({"event": "record", "record": record})
        send({"event": "done", "instance": name})
    return 0


if __name__ == "__main__":
    sys.exit(main())
