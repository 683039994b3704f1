"""Reading text input: a file, a pipe or a stream, as checked UTF-8 text.

Every reader of `csp` (Knuth's format, `p xc`, matrices, the puzzle kinds'
files, standard input) reads through here, so that each refuses the same way
what is not text: a device that never ends (`/dev/zero`), a binary file, an
input beyond `MAX_INPUT_BYTES`, bytes that are not UTF-8, each with an
`InputError` naming the source. A byte-order mark at the start of a line is
dropped. `warn` is how a reader reports what it drops (an option without a
primary item, as Knuth's programs do).
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Callable
from typing import BinaryIO

from csp.errors import InputError, InputWarning

Warn = Callable[[str], None]
"""Where a reader reports what it drops: a function of the message."""


def warn(message: str, sink: Warn | None, stacklevel: int = 3) -> None:
    """Report `message` to `sink`, or as an `InputWarning` when there is none."""
    if sink is None:
        warnings.warn(message, InputWarning, stacklevel=stacklevel)
    else:
        sink(message)


BOM = "\ufeff"
"""The byte-order mark some editors put at the start of a UTF-8 file."""

_LINE_START_BOMS = re.compile("^\ufeff+", re.MULTILINE)


def strip_boms(text: str) -> str:
    r"""`text` without byte-order marks at the start of its lines: `cat a.txt
    b.txt` keeps b's mark at the start of a line in the middle, where it would
    otherwise be read as a stray symbol.

    >>> strip_boms("\ufeffa b\n\ufeffc\nd \ufeffe\n")
    'a b\nc\nd \ufeffe\n'
    """
    return _LINE_START_BOMS.sub("", text)


MAX_INPUT_BYTES = 1 << 30
"""The most a reader takes in (1 GiB): far more than any problem that fits in
memory once declared, and a clear error, not an endless read, on a stream
without end such as `yes |`."""

_CHUNK = 1 << 20


def read_text_file(path: str) -> str:
    """The text of the file `path`, read as `decode_text` says.

    Regular files, pipes (`<(...)`, FIFOs), sockets and terminals are read; a
    device such as `/dev/zero` is refused before it is read, since it may never end.
    """
    try:
        with open(path, "rb") as handle:
            _check_readable_kind(handle.fileno(), path)
            raw = read_bounded(handle, path)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror}", source=path) from None
    return decode_text(raw, path)


def _check_readable_kind(fd: int, path: str) -> None:
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd):
        return
    raise InputError(f"cannot read {path}: not a regular file or a pipe", source=path)


def read_bounded(stream: BinaryIO, source: str) -> bytes:
    """All of a binary stream, in chunks, refusing a binary or an oversized input
    as soon as it shows (so that `cat /dev/zero |` fails at once, not out of memory)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(_CHUNK):
        if b"\0" in chunk:
            raise InputError("this is a binary file, not text", source=source)
        size += len(chunk)
        if size > MAX_INPUT_BYTES:
            raise InputError(f"the input is larger than {MAX_INPUT_BYTES >> 20} MiB",
                             source=source)
        chunks.append(chunk)
    return b"".join(chunks)


def decode_text(raw: bytes, source: str) -> str:
    """Bytes of a text file as str; a binary or non-UTF-8 file is an `InputError`.

    Byte-order marks at the start of a line are dropped: they are not part of
    the text (the first is the file's; later ones come from concatenated files).
    """
    if b"\0" in raw:
        raise InputError("this is a binary file, not text", source=source)
    try:
        return strip_boms(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start})", source=source) from None
