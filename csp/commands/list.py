"""`csp list`: the puzzle kinds `csp solve` reads, their formats and forms."""

from __future__ import annotations

import argparse

from csp import backends, problems


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("list", help="name the puzzle kinds, their formats and the backends",
                            description="Name the puzzle kinds of `csp solve KIND FILE`, the "
                            "input format of each, its declarations, and the backends.")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("puzzle kinds (csp solve KIND FILE):")
    for kind in problems.KINDS:
        module = problems.get(kind)
        large = getattr(module, "LARGE_FORM", None)
        forms = ", ".join(f"{f} (default)" if f == module.DEFAULT_FORM
                          else f"{f} (default from 25x25)" if f == large else f
                          for f in module.FORMS)
        print(f"  {kind:10} {module.DESCRIPTION}")
        print(f"  {'':10} declared as: {forms}")
    print(f"backends available: {', '.join(backends.available())}")
    return 0
