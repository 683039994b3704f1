"""What the subcommands share: reading input files, progress lines, limits."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from csp.io.text import decode_text, read_bounded, read_text_file
from csp.result import Stats, Status

EXIT_NO_SOLUTION = 1
"""`csp solve` and `csp xc`: the search finished and found no solution."""
EXIT_BAD_INPUT = 2
EXIT_TIME_LIMIT = 3
"""The time limit stopped a search before it finished: the answer is partial."""
EXIT_INTERRUPTED = 130
_SERIOUSNESS = (0, EXIT_NO_SOLUTION, EXIT_TIME_LIMIT, EXIT_BAD_INPUT, EXIT_INTERRUPTED)


def exit_status(status: Status, count: int) -> int:
    """The exit status of `csp solve` and `csp xc` for a search that ended
    with `status` after `count` solutions: 0 (solved, or stopped by --limit),
    1 no solution, 3 time limit, 130 interrupted.

    >>> exit_status(Status.COMPLETE, 0), exit_status(Status.TIME_LIMIT, 5)
    (1, 3)
    """
    if status is Status.INTERRUPTED:
        return EXIT_INTERRUPTED
    if status is Status.TIME_LIMIT:
        return EXIT_TIME_LIMIT
    return EXIT_NO_SOLUTION if status is Status.COMPLETE and count == 0 else 0


def most_serious(codes: list[int]) -> int:
    """Of several exit statuses, the one to report: 130, then 2, 3, 1, 0."""
    return max(codes, key=_SERIOUSNESS.index, default=0)


def read_input(path: str) -> tuple[str, str]:
    """The text of `path` (`-` = standard input) and a name for messages.

    The read is bounded and a device such as `/dev/zero` is refused (see
    `read_text_file`); a byte-order mark at the start of any line is dropped
    (`cat a.txt b.txt` leaves b's in the middle).
    """
    if path == "-":
        raw = read_bounded(sys.stdin.buffer, "<stdin>")
        return decode_text(raw, "<stdin>"), "<stdin>"
    return read_text_file(path), path


class CommandParser(argparse.ArgumentParser):
    """A subcommand's parser whose costly help texts are written only when its
    help is shown: naming every backend reads the plug-ins' entry points, and
    describing every puzzle kind imports them all; a run needs neither."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.later: list[Callable[[], None]] = []

    def format_help(self) -> str:
        while self.later:
            self.later.pop(0)()
        return super().format_help()


def help_later(parser: argparse.ArgumentParser, fill: Callable[[], None]) -> None:
    """Call `fill` (it sets help texts) when `parser` shows its help, or at
    once if `parser` is a plain `ArgumentParser`."""
    if isinstance(parser, CommandParser):
        parser.later.append(fill)
    else:
        fill()


def backends_help(parser: argparse.ArgumentParser, action: argparse.Action, text: str) -> None:
    """The help of `action` is `text` with `{backends}` replaced by every known
    backend's name, plug-ins included (read when the help is shown)."""
    from csp import backends

    def fill() -> None:
        action.help = text.format(backends=", ".join(backends.known()))

    action.help = text.format(backends=", ".join(backends.BUILTIN_NAMES))
    help_later(parser, fill)


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """`--format` for a command that reads an exact cover (see `csp.io.covers`)."""
    from csp.io.covers import FORMATS

    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="knuth; dimacs (a `p xc`/`p xcc` header, options of item "
                        "numbers ended by 0); matrix (0/1 rows, text or .npy); auto "
                        "(default): .npy is a matrix, a `p xc` header dimacs, else knuth")


def read_cover_input(args: argparse.Namespace) -> Any:
    """The exact cover of `args.file` (`-` = standard input) in `args.format`;
    what is dropped in reading (an option without a primary item) is said on stderr."""
    from csp.io.covers import read_cover

    text, source = (None, args.file) if args.file.endswith(".npy") else read_input(args.file)
    return read_cover(source, args.format, text=text, warn=warn)


def warn(message: str) -> None:
    """Say on stderr what reading an input dropped or changed."""
    print(f"csp: warning: {message}", file=sys.stderr)


def backend_list(text: str | None) -> list[str] | None:
    """The names of a `--backends a,b,c` option (None if not given), each
    known and available: an unknown or missing one is an error (exit 2)."""
    if text is None:
        return None
    from csp import backends
    from csp.errors import InputError

    names = backends.parse_names(text)
    if not names:
        raise InputError("--backends: no backend named")
    for name in names:
        backends.get(name)
    return names


def positive_int(text: str) -> int:
    """argparse type: an int >= 0."""
    return _at_least(text, 0)


def solution_limit(text: str) -> int:
    """argparse type of a search's `--limit`: a number of solutions >= 1 (a
    limit of 0 would end every search before it starts)."""
    return _at_least(text, 1)


def _at_least(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be >= {least}: {text}")
    return value


def seconds(text: str) -> float:
    """argparse type: a number of seconds >= 0 (`inf` included)."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text}")
    return value


def limit_seconds(text: str) -> float | None:
    """argparse type of a search's `--time-limit`: seconds, `inf` for no limit (None)."""
    value = seconds(text)
    return None if math.isinf(value) else value


class ProgressLine:
    """A live one-line progress report on stderr, shown only on a terminal."""

    def __init__(self, label: str = "") -> None:
        self.enabled = sys.stderr.isatty()
        self.label = label
        self.shown = False
        self.started = time.perf_counter()

    def __call__(self, stats: Stats) -> None:
        text = f"{self.label}solutions={stats.solutions:,}"
        if stats.nodes is not None:
            text += f" nodes={stats.nodes:,}"
        text += f" time={time.perf_counter() - self.started:.1f}s"
        self.show(text)

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        sys.stderr.write("\r" + text[:200] + "\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False

    @property
    def callback(self) -> Callable[[Stats], None] | None:
        return self if self.enabled else None


def worker_count(text: str) -> int:
    """argparse type of `--workers`: an int >= 1."""
    return _at_least(text, 1)


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    """`--workers`, `--scheduler` and `--checkpoint`, for counting in parallel."""
    group = parser.add_argument_group("counting in parallel (with --count)")
    group.add_argument("--workers", type=worker_count, metavar="N",
                       help="count on N local processes (default with --scheduler or "
                       "--checkpoint: one per core)")
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="count on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                       "tcp://127.0.0.1:8786 (pip install 'csp-workbench[distributed]')")
    group.add_argument("--checkpoint", metavar="FILE",
                       help="journal each finished subproblem in FILE; run the same command "
                       "again after a crash or Ctrl-C to count only what is missing")


def memory_size(text: str) -> int:
    """argparse type of `--memo-bytes`: a size such as 536870912, 512M or 2G."""
    from csp.errors import InputError
    from csp.memo import memo_size

    try:
        return memo_size(text)
    except InputError as err:
        raise argparse.ArgumentTypeError(err.message) from None


def add_memo_options(parser: argparse.ArgumentParser) -> None:
    """`--memo`, `--memo-bytes` and `--branch`, for counting with a memo."""
    group = parser.add_argument_group("counting with a memo (with --count; see "
                                      "docs/how-to/memo.md)")
    group.add_argument("--memo", choices=("auto", "on", "off"), default="auto",
                       help="keep the counts of subproblems met before (dlx): auto (the "
                       "default) keeps the memo while it pays, on, off")
    group.add_argument("--memo-bytes", type=memory_size, metavar="SIZE",
                       help="the memo's memory bound, e.g. 512M or 2G (default 1G; per worker)")
    group.add_argument("--branch", choices=("mrv", "first"),
                       help="the item to branch on: mrv (the fewest options, the default) or "
                       "first (the first item left in declared order: for tilings)")


def check_memo_options(args: argparse.Namespace) -> None:
    """Memo settings that a run cannot honour: without --count, or with --limit."""
    from csp.errors import InputError

    asked = args.memo == "on" or args.branch is not None or args.memo_bytes is not None
    if asked and not args.count:
        raise InputError("--memo, --memo-bytes and --branch go with --count")
    if (args.memo == "on" or args.branch is not None) and args.limit is not None:
        raise InputError("a memoized count adds whole subtrees at once: --memo on and "
                         "--branch do not go with --limit")


def memo_options(args: argparse.Namespace) -> dict[str, Any]:
    """The memo keywords of `csp.count` and `csp.parallel.count` from the options."""
    return {"memo": args.memo, "memo_bytes": args.memo_bytes, "branch": args.branch}


def wants_parallel(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None
               for name in ("workers", "scheduler", "checkpoint"))


def parallel_count(problem: Any, backend: str, args: argparse.Namespace,
                   progress: ProgressLine) -> Any:
    """Count `problem` as the parallel options say; the progress line shows the
    subproblems done and left, the solutions so far, the rate and the time left."""
    from csp import parallel

    def show(stats: Stats) -> None:
        extra = stats.extra
        eta = f" ~{extra['eta']:.0f}s left" if "eta" in extra else ""
        progress.show(f"subproblems {extra['subproblems_done']:,} done "
                      f"{extra['subproblems_left']:,} left solutions={stats.solutions:,} "
                      f"({extra['rate']:,.0f}/s) time={stats.time:.1f}s{eta}")

    try:
        return parallel.count(problem, backend, workers=args.workers,
                              scheduler=args.scheduler, time_limit=args.time_limit,
                              checkpoint=args.checkpoint,
                              progress=show if progress.enabled else None,
                              **(memo_options(args) if hasattr(args, "memo") else {}))
    finally:
        progress.clear()


class ProgressBar:
    """A progress bar of the puzzles (or instances: `unit`) done, on stderr;
    the caller shows it on a terminal only, unless told otherwise."""

    WIDTH = 30

    def __init__(self, total: int, unit: str = "puzzles") -> None:
        self.total = total
        self.unit = unit
        self.started = time.perf_counter()
        self.last = 0.0

    def show(self, done: int, *, force: bool = False) -> None:
        """Draw the bar (at most ten times a second unless `force`)."""
        now = time.perf_counter()
        if now - self.last < 0.1 and not force:
            return
        self.last = now
        filled = self.WIDTH * done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} "
                         f"{self.unit} {now - self.started:.1f}s\x1b[K")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def counted(count: int, status: Status | None, bare: bool = False) -> str:
    """"N solutions" (or N alone), with the status when the run did not finish."""
    text = str(count) if bare else f"{count} solution{'' if count == 1 else 's'}"
    if status not in (Status.COMPLETE, None):
        text += f" ({status})"
    return text
