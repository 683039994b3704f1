"""A checkpoint: a journal of the subproblems a parallel count has finished.

One JSON object per line, appended and flushed as each subproblem finishes,
so that a crash, a kill or Ctrl-C loses at most the subproblems running then:

- the header: `{"csp-checkpoint": 1, "fingerprint": ..., "backend": ...,
  "splitter": ..., "keys": [...]}` (the problem's digest and the first cut);
- `{"split": key, "into": [keys]}`: a subproblem cut further while counting;
- `{"done": key, "count": n, "nodes": ..., "time": s}`: a finished subproblem.

Reading it back replays the cuts and removes what is done: what is left is
exactly what is missing, and nothing is counted twice. A half-written last
line (the process died while writing it) is ignored; any other damage, or a
header of another problem or splitting, is refused naming the file.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "count.ckpt"
>>> journal = Journal.start(path, "abc", "dlx", "prefix", [(0,), (1,)])
>>> journal.split((1,), [(1, 2), (1, 3)])
>>> journal.done((0,), 5, nodes=10, time=0.1)
>>> journal.close()
>>> state = Journal.read(path, "abc", "dlx", "prefix")
>>> state.left, state.count
([(1, 2), (1, 3)], 5)
>>> import shutil; shutil.rmtree(path.parent)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from csp.errors import InputError

Key = tuple[int, ...]

FORMAT = 1


@dataclass
class State:
    """What a checkpoint says: the subproblems left, and what is counted."""

    left: list[Key]
    count: int = 0
    nodes: int | None = 0
    time: float = 0.0
    done: int = 0
    notes: list[str] = field(default_factory=list)


class Journal:
    """An open checkpoint, appended to as subproblems finish."""

    def __init__(self, path: Path, stream: IO[str]) -> None:
        self.path = path
        self.stream = stream

    @classmethod
    def start(cls, path: Path, fingerprint: str, backend: str, splitter: str,
              keys: list[Key]) -> Journal:
        """A new checkpoint at `path` (refused if a file is there already)."""
        try:
            stream = open(path, "x", encoding="utf-8")  # noqa: SIM115 - kept open to append
        except FileExistsError:
            raise InputError(f"checkpoint {path} exists already") from None
        except OSError as err:
            raise InputError(f"cannot write the checkpoint {path}: {err.strerror}") from None
        journal = cls(path, stream)
        journal._write({"csp-checkpoint": FORMAT, "fingerprint": fingerprint,
                        "backend": backend, "splitter": splitter,
                        "keys": [list(k) for k in keys]})
        return journal

    @classmethod
    def resume(cls, path: Path) -> Journal:
        """The checkpoint at `path`, open to append (after `read` checked it)."""
        with open(path, "rb+") as raw:
            data = raw.read()
            if data and not data.endswith(b"\n"):
                # the half-written last line: cut it so that appends start clean
                raw.truncate(data.rfind(b"\n") + 1)
        return cls(path, open(path, "a", encoding="utf-8"))  # noqa: SIM115

    def split(self, key: Key, into: list[Key]) -> None:
        self._write({"split": list(key), "into": [list(k) for k in into]})

    def done(self, key: Key, count: int, *, nodes: int | None, time: float) -> None:
        self._write({"done": list(key), "count": count, "nodes": nodes, "time": round(time, 6)})

    def close(self) -> None:
        self.stream.close()

    def _write(self, record: dict[str, Any]) -> None:
        self.stream.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.stream.flush()
        os.fsync(self.stream.fileno())  # on disk before the next subproblem is trusted to it

    @staticmethod
    def read(path: Path, fingerprint: str, backend: str, splitter: str) -> State:
        """What the checkpoint at `path` says is left; `InputError` naming the
        file if it is not a checkpoint of this problem, backend and splitting."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read the checkpoint {path}: {err}") from None
        lines = text.split("\n")
        records = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                records.append((number, json.loads(line)))
            except json.JSONDecodeError:
                if not records:
                    raise InputError(f"{path} is not a csp checkpoint") from None
                if number == len(lines):  # the last line, half written: ignored
                    continue
                raise InputError(f"checkpoint {path}: line {number} is damaged") from None
        if not records or not isinstance(records[0][1], dict) or \
                records[0][1].get("csp-checkpoint") != FORMAT:
            raise InputError(f"{path} is not a csp checkpoint")
        header = records[0][1]
        if (header.get("backend"), header.get("splitter")) != (backend, splitter):
            raise InputError(f"checkpoint {path} was counted on {header.get('backend')} "
                             f"({header.get('splitter')} splitting), not {backend} "
                             f"({splitter} splitting)")
        if header.get("fingerprint") != fingerprint:
            raise InputError(f"checkpoint {path} is of another problem (or another "
                             "declaration of it); give a new checkpoint file")
        return _replay(path, header, records[1:])


def _replay(path: Path, header: dict[str, Any], records: list[tuple[int, Any]]) -> State:
    frontier: dict[Key, None] = {tuple(k): None for k in header["keys"]}  # ordered set
    state = State(left=[])
    try:
        for number, record in records:
            if "split" in record:
                key = tuple(record["split"])
                if key not in frontier:
                    raise InputError(f"checkpoint {path}: line {number} cuts a subproblem "
                                     "that is not open")
                del frontier[key]
                frontier.update({tuple(k): None for k in record["into"]})
            elif "done" in record:
                key = tuple(record["done"])
                if key not in frontier:
                    raise InputError(f"checkpoint {path}: line {number} finishes a subproblem "
                                     "that is not open (counted twice?)")
                del frontier[key]
                state.count += int(record["count"])
                state.done += 1
                state.time += float(record.get("time", 0.0))
                nodes = record.get("nodes")
                state.nodes = None if nodes is None or state.nodes is None else state.nodes + nodes
            else:
                raise InputError(f"checkpoint {path}: line {number} is not a checkpoint record")
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(f"checkpoint {path}: a damaged record ({err})") from None
    state.left = list(frontier)
    return state


__all__ = ["Journal", "State"]
