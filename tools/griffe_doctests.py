"""A griffe extension: the doctests of a docstring rendered as code.

The docstrings' examples are doctests (`>>>` lines and their output), run by
pytest; in Markdown they would be prose, their output read as links. Each run
of them, up to a blank line, is fenced as a `pycon` block before the
docstring is parsed.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """`text` with each run of doctest lines (from a `>>>` line to the next
    blank line) fenced as a pycon code block, at its indentation."""
    out: list[str] = []
    inside = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            inside = line[: len(line) - len(stripped)] or "\n"
            out.append(inside.strip("\n") + "```pycon")
        elif inside and not stripped:
            out.append(inside.strip("\n") + "```")
            inside = ""
        out.append(line)
    if inside:
        out.append(inside.strip("\n") + "```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)
