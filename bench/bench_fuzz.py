"""Benchmark (measured correctness): random models of the whole model
language on every backend, against brute force on the small ones.

The models are `csp fuzz`'s (`csp.fuzz.models`: every kind of
`ALL_CONSTRAINT_KINDS`, logic nested in logic, reification, constraints as
0/1 in sums, int variable names); each runs on every available backend but
portfolios (dlx, bitmask, cpsat, sat, python-constraint, and plug-ins),
every solution verified by the checkers, the backends compared with each
other and, where the domains' product is at most 4,096, with brute force.
The campaign is `csp.fuzz.fuzz` itself, cut into `--jobs` consecutive
slices of instance indices run side by side (`start=`), so any instance
replays alone with the command a finding prints. Every disagreement is
shrunk and written into `--out`; the campaign goes on (`keep_going`).

    python bench/bench_fuzz.py                          # 10,000 models, seed 1022, 2 jobs
    python bench/bench_fuzz.py --models 500 --seed 7 --jobs 1

Exit status 1 if any disagreement was found.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from csp import backends
from csp.bench import measure
from csp.fuzz import FuzzReport, Verdict, fuzz
from csp.fuzz.models import KIND_TAGS


def _slice(seed: int, start: int, count: int, time_limit: float, out: str,
           engines: list[str]) -> tuple[FuzzReport, list[str]]:
    """A slice of the campaign, and a line per instance that did not agree."""
    notes: list[str] = []

    def noted(index: int, form: str, verdict: Verdict) -> None:
        if verdict.outcome != "agree":
            what = (f"timed out: {', '.join(verdict.timed_out)}" if verdict.timed_out
                    else "; ".join(verdict.why))
            notes.append(f"instance {index}: {verdict.outcome} ({what})")

    report = fuzz(engines, seed=seed, start=start, instances=count, forms=("model",),
                  time_limit=time_limit, out=out, keep_going=True, on_instance=noted)
    return report, notes


def merged(parts: list[FuzzReport]) -> FuzzReport:
    """The reports of consecutive slices as one."""
    first = parts[0]
    total = FuzzReport(first.seed, first.backends, campaign_forms=first.campaign_forms,
                       per_backend={name: Counter() for name in first.backends})
    for part in parts:
        total.instances += part.instances
        total.outcomes.update(part.outcomes)
        total.forms.update(part.forms)
        total.kinds.update(part.kinds)
        total.brute_forced += part.brute_forced
        total.findings += part.findings
        total.interrupted |= part.interrupted
        for name, counts in part.per_backend.items():
            total.per_backend[name].update(counts)
        total.elapsed = max(total.elapsed, part.elapsed)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1022)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=30.0,
                        help="seconds per backend and model (past it: inconclusive)")
    parser.add_argument("--out", default="csp-fuzz")
    parser.add_argument("--backends", type=backends.parse_names, default=None,
                        help="backends, comma-separated (default: every available one; "
                             "ace starts a JVM per model, about 0.5 s)")
    args = parser.parse_args()
    engines = args.backends or backends.engines()
    print(f"backends: {', '.join(engines)}")
    print(measure.header(f"seed {args.seed}, {args.models:,} models, {args.jobs} jobs"),
          flush=True)
    size = -(-args.models // args.jobs)
    slices = [(start, min(size, args.models - start)) for start in range(0, args.models, size)]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(pool.map(_slice, *zip(*[(args.seed, start, count, args.time_limit,
                                              args.out, engines)
                                             for start, count in slices])))
    report = merged([part for part, _ in done])
    report.elapsed = time.perf_counter() - began
    print(report.summary())
    for _, notes in done:
        for line in notes:
            print(line)
    print(measure.table(("kind or feature", "models"),
                        [(tag, f"{report.kinds[tag]:,}") for tag in KIND_TAGS]))
    for finding in report.findings:
        print(f"DISAGREEMENT at instance {finding.index}: {', '.join(finding.suspects)}; "
              f"{finding.files[0]}; replay: {finding.replay}")
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    return 1 if report.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
