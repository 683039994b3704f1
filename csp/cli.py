"""The `csp` command line: one subcommand per module in `csp.commands`.

Every subcommand module has `add_parser(subparsers)` and `run(args) -> int`.
Bad input is printed as one clear line on stderr with a non-zero exit, never
a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from csp.errors import BackendUnavailable, InputError

COMMANDS = ("xc", "solve", "generate", "rate", "list", "crosscheck", "fuzz", "bench", "fzn",
            "minizinc-config")
"""Subcommands, in the order `--help` lists them; each is the module of its
name under `csp.commands` (`-` spelled `_`)."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the whole command line; with `command`, of that
    subcommand only (all a run of it parses: the other subcommands' modules,
    and what they import, are left alone)."""
    from csp.commands._common import CommandParser

    parser = argparse.ArgumentParser(
        prog="csp",
        description="Declare a combinatorial problem once; solve, count and cross-check it.",
    )
    from csp import __version__

    parser.add_argument("--version", action="version", version=f"csp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    for name in COMMANDS if command is None else (command,):
        try:
            module = importlib.import_module(f"csp.commands.{name.replace('-', '_')}")
        except ModuleNotFoundError as err:
            if err.name != f"csp.commands.{name.replace('-', '_')}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except (InputError, BackendUnavailable) as err:
        print(f"csp: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("csp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
