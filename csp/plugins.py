"""Plug-ins: the entry points of one group, read once, and why any was refused.

One loader serves both of csp's groups, `csp.backends` (`csp.backends`) and
`csp.problems` (`csp.problems`): it reads the installed distributions' entry
points on first use only (a run that names a built-in never reads them),
never lets broken metadata or a broken plug-in break `import csp`, and keeps,
per refused plug-in, a reason that names its distribution and entry point.
What a plug-in must be (a backend class, a `Kind` object) is its registry's
to check.

>>> group = PluginGroup("csp.no-such-group", "widget")
>>> group.read(), group.broken
([], {})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Plugin:
    """One entry point of a group, not loaded yet."""

    name: str
    value: str  # "module:attribute"
    distribution: str
    point: Any  # the importlib.metadata.EntryPoint
    noun: str  # what the group holds, for messages: "plug-in", "puzzle kind"

    @property
    def where(self) -> str:
        """The plug-in as a message names it: its name, distribution and entry point."""
        return (f"{self.noun} {self.name!r} of {self.distribution} "
                f"(entry point {self.name} = {self.value})")

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    @property
    def attribute(self) -> str:
        return self.value.partition(":")[2].strip()

    def load(self) -> Any:
        """The object the entry point names (it imports the plug-in)."""
        return self.point.load()


class PluginGroup:
    """The plug-ins of one entry-point group, and those refused, with why."""

    def __init__(self, group: str, noun: str) -> None:
        self.group = group
        self.noun = noun
        self.broken: dict[str, str] = {}
        """Refused plug-ins: name (or "name (distribution)" for a clash) -> the reason."""
        self._read = False

    def read(self) -> list[Plugin]:
        """The group's entry points, the first time it is called (then [] until
        `reload`); metadata that cannot be read is listed in `broken` as "?"."""
        if self._read:
            return []
        self._read = True
        try:
            from importlib import metadata  # here: a run on built-ins never reads them

            points = metadata.entry_points(group=self.group)
        except Exception as err:  # noqa: BLE001 - broken metadata must not break csp
            self.broken["?"] = f"the installed packages' entry points could not be read: {err}"
            return []
        return [Plugin(point.name, point.value,
                       getattr(point.dist, "name", None) or "an unknown distribution",
                       point, self.noun)
                for point in points]

    def clash(self, plugin: Plugin, holder: str) -> None:
        """Refuse `plugin`: its name is taken by `holder` (the first one holds;
        a clash never replaces a built-in silently)."""
        self.broken.setdefault(f"{plugin.name} ({plugin.distribution})",
                               f"{plugin.where}: the name {plugin.name!r} is taken by the "
                               f"{holder}")

    def refuse(self, plugin: Plugin, why: str) -> str:
        """Refuse `plugin` for `why`; returns the whole reason."""
        reason = f"{plugin.where}: {why}"
        self.broken[plugin.name] = reason
        return reason

    def reload(self) -> None:
        """Forget what was read: the next `read` reads the entry points again
        (after installing or removing a plug-in in a running process)."""
        self._read = False
        self.broken.clear()


__all__ = ["Plugin", "PluginGroup"]
