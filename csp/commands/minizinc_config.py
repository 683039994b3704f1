"""`csp minizinc-config`: print the MiniZinc solver configuration of csp.

    csp minizinc-config > ~/.minizinc/solvers/csp.msc
    minizinc --solver csp queens.mzn -a

The configuration (`.msc`, JSON) names the solver `csp` (id
`org.csp-workbench.csp`), its executable (`fzn-csp`, the console script of
`csp fzn`, found beside the running `csp` or on the PATH; `--executable`
to give another), its solver library (`csp/io/flatzinc/mznlib`: the globals
csp takes as they are) and the standard flags it understands (-a, -n, -t,
-s, -f, -p, -r, -i), and one of its own: `minizinc --solver csp --backend
cpsat model.mzn` runs that csp backend.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from csp.errors import InputError

SOLVER_ID = "org.csp-workbench.csp"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "minizinc-config",
        help="print csp's MiniZinc solver configuration (.msc), for minizinc --solver csp",
        description="Print a MiniZinc solver configuration for csp on stdout: save it as "
        "~/.minizinc/solvers/csp.msc (or in a folder of MZN_SOLVER_PATH), then run "
        "`minizinc --solver csp model.mzn`.",
    )
    parser.add_argument("--executable", metavar="PATH",
                        help="the program MiniZinc runs on the FlatZinc (default: fzn-csp "
                        "beside csp, or on the PATH)")
    parser.add_argument("--name", default="csp", help="the solver's name (default: csp)")
    parser.set_defaults(run=run)


def mznlib() -> str:
    """The directory of csp's MiniZinc solver library."""
    return str(Path(__file__).resolve().parents[1] / "io" / "flatzinc" / "mznlib")


def executable(given: str | None) -> str:
    if given is not None:
        path = shutil.which(given) or given
        if not os.access(path, os.X_OK):
            raise InputError(f"--executable {given}: not an executable program")
        return os.path.abspath(path)
    beside = Path(sys.argv[0]).resolve().parent / "fzn-csp"
    if beside.exists():
        return str(beside)
    found = shutil.which("fzn-csp")
    if found is None:
        raise InputError("fzn-csp (the console script of `csp fzn`) is not installed beside "
                         "csp nor on the PATH: reinstall csp-workbench, or give --executable")
    return os.path.abspath(found)


def configuration(program: str, name: str = "csp") -> dict:
    from csp import __version__

    config = {
        "id": SOLVER_ID if name == "csp" else f"{SOLVER_ID}.{name}",
        "name": name,
        "description": "csp: any csp backend (dlx, bitmask, cpsat, sat, ...) on FlatZinc",
        "version": __version__,
        "mznlib": mznlib(),
        "executable": program,
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-n", "-t", "-s", "-f", "-p", "-r", "-i"],
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "extraFlags": [["--backend", "the csp backend (csp list)", "string", "auto"]],
    }
    return config


def run(args: argparse.Namespace) -> int:
    config = configuration(executable(args.executable), args.name)
    print(json.dumps(config, indent=2))
    return 0
