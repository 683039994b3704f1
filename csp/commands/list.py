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
    for name, kind in problems.kinds().items():
        forms = ", ".join(f"{f} (default)" if f == kind.default_form
                          else f"{f} ({kind.form_notes[f]})" if f in kind.form_notes else f
                          for f in kind.forms)
        print(f"  {name:10} {kind.description}")
        print(f"  {'':10} declared as: {forms}")
        if kind.maker is not None:
            print(f"  {'':10} csp generate --size: {kind.maker.sizes}")
    for name, why in problems.broken().items():
        print(f"  {name:10} BROKEN: {why}")
    available = backends.available()
    print(f"backends available: {', '.join(available)}")
    for name in available:
        caveat = getattr(backends.get(name), "caveat", None)
        if caveat:
            print(f"  {name}: {caveat}")
    broken = backends.broken()
    for name, why in backends.missing().items():
        if name not in broken:
            print(f"backend {name} is not installed: {why}")
    for name, why in broken.items():
        print(f"backend {name} is broken: {why}")
    return 0
