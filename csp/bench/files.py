"""The user's own instances for `csp bench`: exact covers in Knuth's format
and the field's instances, XCSP3 and FlatZinc (by their names: `.xml`,
`.xml.lzma`, `.fzn`), a file or every file of a directory, one instance per
file; and puzzle files
of any kind (`csp.problems.Kind`, plug-ins included: one instance per puzzle,
named `FILE#N` for the N-th).

Their counts are not known beforehand (`expected` is `(None,)`): a run is
judged by its status alone, and the backends' counts are compared with one
another (`csp.bench.solved.disagreements`). Each instance carries a `spec`, a
small JSON object from which a worker process builds it again.

A file that cannot be read or parsed, or a bad puzzle, is appended to
`skipped` as (what, why) and the others are kept; a path that does not exist
is an `InputError`.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "one.xc").write_text("a b\\na\\nb\\n")
>>> _ = (folder / "two.xc").write_text("a\\nb\\n")
>>> skipped = []
>>> [Path(i.name).name for i in exact_covers(str(folder), skipped)]
['one.xc']
>>> [(Path(what).name, why) for what, why in skipped]
[('two.xc', 'line 2: unknown item b in option')]
>>> [i.name for i in puzzles("queens", str(folder / "one.xc"), skipped)]
[]
>>> skipped[1:]  # doctest: +ELLIPSIS
[('/.../one.xc#1', "line 1: 'a b' is not a board size (a positive integer)"), ...]
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from csp.bench.instances import Instance, UpToSymmetry
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.io.instances import detect, model_of, read_instance
from csp.io.text import read_text_file

Skipped = list[tuple[str, str]]


def exact_covers(path: str, skipped: Skipped) -> list[Instance]:
    """One instance per exact cover, XCSP3 or FlatZinc file: `path` itself,
    or every file of the directory `path` (not its subdirectories; names
    starting with `.` are left out), in name order."""
    where = Path(path)
    if where.is_dir():
        files = sorted(p for p in where.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            raise InputError(f"no file in the directory {path}")
    elif where.exists():
        files = [where]
    else:
        raise InputError(f"no such file or directory: {path}")
    out = []
    for file in files:
        fmt = detect(file)
        spec = {"xc": str(file)} if fmt is None else {"instance": str(file), "format": fmt}
        try:
            _problem(spec)  # read it now: a bad file is reported before any run
        except InputError as err:
            skipped.append((str(file), _why(err)))
            continue
        out.append(build(spec))
    return out


def puzzles(kind_name: str, path: str, skipped: Skipped) -> list[Instance]:
    """One instance per puzzle of the file `path`, of kind `kind_name`."""
    from csp import problems

    problems.get(kind_name)  # an unknown kind is an error of the whole command
    if not Path(path).exists():
        raise InputError(f"no such file: {path}")
    try:
        items = _puzzles(kind_name, path)
    except InputError as err:
        skipped.append((path, _why(err)))
        return []
    if not items:
        skipped.append((path, f"no {kind_name} puzzle in it"))
    out = []
    for k, item in enumerate(items):
        if isinstance(item, InputError):
            skipped.append((f"{path}#{k + 1}", _why(item)))
            continue
        out.append(build({"kind": kind_name, "file": path, "puzzle": k}))
    return out


def build(spec: dict[str, Any]) -> Instance:
    """The instance that `spec` describes: `{"xc": FILE}`, `{"instance": FILE,
    "format": xcsp3 or flatzinc}` or `{"kind": KIND, "file": FILE, "puzzle": K}`
    (K counted from 0)."""
    if "xc" in spec:
        return Instance(spec["xc"], "exact cover", ("exact-cover",), (None,),
                        lambda form: [_exact_cover(spec)], spec["xc"], spec=spec)
    if "instance" in spec:
        return Instance(spec["instance"], spec["format"], ("model",), (None,),
                        lambda form: [_problem(spec)], spec["instance"], spec=spec)
    from csp import problems

    kind = problems.get(spec["kind"])
    k = int(spec["puzzle"])

    def declare(form: str) -> list[Any]:
        puzzle = _puzzles(kind.name, spec["file"])[k]
        problem = kind.declare(puzzle, form)
        if kind.up_to_symmetry and kind.symmetry is not None:
            return [UpToSymmetry(problem, kind.symmetry(puzzle, problem))]
        return [problem]

    return Instance(f"{spec['file']}#{k + 1}", kind.name, kind.forms, (None,), declare,
                    spec["file"], spec=spec)


def _why(err: InputError) -> str:
    """The error without its file's name (the report names the file)."""
    return str(InputError(err.message, line=err.line))


def _problem(spec: dict[str, Any]) -> Any:
    if "xc" in spec:
        return _exact_cover(spec)
    return _instance(spec["instance"], spec["format"])


@functools.lru_cache(maxsize=8)
def _instance(path: str, fmt: str) -> Any:
    """The model of an instance file, read once per process."""
    return model_of(read_instance(path, fmt, warn=lambda message: None))


def _exact_cover(spec: dict[str, Any]) -> ExactCover:
    return ExactCover.from_text(read_text_file(spec["xc"]), source=spec["xc"])


@functools.lru_cache(maxsize=8)
def _puzzles(kind_name: str, path: str) -> list[Any]:
    """Every item of a puzzle file, read once per process (a worker builds its
    puzzles one by one)."""
    from csp import problems

    return problems.read(problems.get(kind_name), read_text_file(path))
