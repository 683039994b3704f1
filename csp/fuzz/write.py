"""Writing a fuzzing finding: an exact cover in Knuth's format, a model as a
Python snippet that runs alone, each headed by the seed and the verdict.

The exact cover reads back with `csp crosscheck FILE` (its header lines are
comments of Knuth's format, `| ...`); the snippet builds the model as `m`
and, run as a script, cross-checks it on the backends that disagreed (exit
status 1 while they still do).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from csp.fuzz.generate import CoverSpec, ModelSpec


def cover_file(spec: CoverSpec, header: Sequence[str]) -> str:
    """The exact cover in Knuth's format, `header` as comment lines."""
    return "".join(f"| {line}\n" for line in header) + spec.text()


def model_file(spec: ModelSpec, header: Sequence[str], backends: Sequence[str]) -> str:
    """The model as a runnable Python snippet, `header` as comment lines."""
    lines = [f"# {line}" for line in header]
    lines.append("# A backend registered at run time (csp.backends.register) must be "
                 "registered before the crosscheck.")
    lines += ["import csp", spec.source().rstrip("\n"), "",
              'if __name__ == "__main__":',
              f"    report = csp.crosscheck(m, backends={list(backends)!r})",
              "    print(report)",
              "    raise SystemExit(0 if report.agree else 1)"]
    return "\n".join(lines) + "\n"


def write(out: Path, stem: str, spec: CoverSpec | ModelSpec, header: Sequence[str],
          backends: Sequence[str]) -> Path:
    """Write `spec` into directory `out` as `stem.xc` or `stem.py`; the path."""
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(spec, CoverSpec):
        path = out / f"{stem}.xc"
        text = cover_file(spec, header)
    else:
        path = out / f"{stem}.py"
        text = model_file(spec, header, backends)
    path.write_text(text, encoding="utf-8")
    return path
