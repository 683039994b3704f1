"""PyCSP3-models' satisfaction models, compiled to XCSP3 by pycsp3 and read by csp.

    python bench/bench_pycsp3_models.py MODELS_DIR [--out bench/results/pycsp3-models.json]

MODELS_DIR is a checkout of xcsp3team/PyCSP3-models. A satisfaction model
is a `.py` file that posts constraints with `satisfy(` and has no
`minimize(`/`maximize(`. Each is compiled offline, in its directory:

    python Model.py -data=DATA -output=NAME

with its smallest shipped data file (`.json` beside it or under `data/`), or,
for a model without data, small parameters tried in turn until one compiles:
the example of its documentation (`(7,7,3,3,1)`), then the same small number
for each `number` of its `-data=[number,...]` line (4, 5, 3, 6, 8, 2), then
`SEND,MORE,MONEY` for strings, and the small numbers for a placeholder
(`-data=<datafile.json>`) with no file shipped. The instance written is read by
`csp.io.xcsp3.read` (timed). A model counts as compiled when one data
compiles, as read when its instance is read.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import csp
from csp.io import xcsp3

GROUPS = ("academic", "crafted", "realistic", "recreational", "single")
NUMBERS = (4, 5, 3, 6, 8, 2, 10)


def models(root: Path) -> list[Path]:
    found = []
    for group in GROUPS:
        for path in sorted((root / group).rglob("*.py")):
            text = path.read_text(errors="replace")
            if "satisfy(" in text and "minimize(" not in text and "maximize(" not in text:
                found.append(path)
    return found


def data_choices(model: Path) -> list[str | None]:
    """The -data values to try, in order."""
    shipped = sorted((p for p in model.parent.rglob("*.json")), key=lambda p: p.stat().st_size)
    if shipped:
        return [str(p) for p in shipped[:1]]
    text = model.read_text(errors="replace")
    readme = model.parent / "README.md"
    if readme.exists():
        text += readme.read_text(errors="replace")
    usage = re.findall(rf"python {re.escape(model.name)} -data=(\S+)", text)
    if not usage:
        return [None]
    spec = usage[0]
    if spec == "number":
        return [str(n) for n in NUMBERS]
    if spec.startswith("[") and "number" in spec and "string" not in spec:
        k = spec.count("number")
        examples = [m for m in re.findall(r"\((\d+(?:\s*,\s*\d+)+)\)", text)
                    if m.count(",") == k - 1]
        return [f"[{e.replace(' ', '')}]" for e in examples[:2]] + \
            [f"[{','.join([str(n)] * k)}]" for n in NUMBERS]
    if "string" in spec:
        return ["[SEND,MORE,MONEY]"]
    if spec.startswith("<"):  # a placeholder (<datafile.json>) and no file: a size
        return [str(n) for n in NUMBERS]
    return [spec]


def compile_instance(model: Path, data: str | None, out: Path) -> str | None:
    command = [sys.executable, model.name] + ([f"-data={data}"] if data else []) + \
        [f"-output={out}"]
    try:
        done = subprocess.run(command, cwd=model.parent, capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return "compiling timed out"
    written = out.with_suffix(".xml")
    if not written.exists():
        lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        return (lines[-1] if lines else f"exit {done.returncode}")[:200]
    return None


def measure(model: Path, root: Path, work: Path) -> dict:
    row: dict = {"model": str(model.relative_to(root))}
    errors = []
    for data in data_choices(model):
        out = work / model.stem
        error = compile_instance(model, data, out)
        if error is None:
            row["data"] = data
            break
        errors.append(f"{data}: {error}")
    else:
        row["compile"] = {"error": errors[-1] if errors else "no data"}
        return row
    xml = out.with_suffix(".xml")
    row["compile"] = {"error": None, "bytes": xml.stat().st_size}
    started = time.process_time()
    try:
        model_read = xcsp3.read(xml, warn=lambda message: None)
        row["read"] = {"cpu": round(time.process_time() - started, 3),
                       "variables": len(model_read.variables),
                       "constraints": len(model_read.constraints)}
    except csp.InputError as err:
        row["read"] = {"error": str(err).replace(str(xml), xml.name)[:240]}
    xml.unlink()
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--out", default="bench/results/pycsp3-models.json")
    args = parser.parse_args()
    root = Path(args.root)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for model in models(root):
            row = measure(model, root, Path(work))
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    compiled = [r for r in rows if not r["compile"]["error"]]
    read = [r for r in compiled if "error" not in r["read"]]
    report = {"command": " ".join(["python bench/bench_pycsp3_models.py", *sys.argv[1:]]),
              "load": os.getloadavg()[0],
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "models": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(f"{len(rows)} satisfaction models: {len(compiled)} compile, {len(read)} are read\n")
    print("| model | data | refused by csp |\n|---|---|---|")
    for row in compiled:
        if "error" in row["read"]:
            print(f"| {row['model']} | {row.get('data')} | {row['read']['error'][:120]} |")
    print("\n| model | not compiled |\n|---|---|")
    for row in rows:
        if row["compile"]["error"]:
            print(f"| {row['model']} | {row['compile']['error'][:120]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
