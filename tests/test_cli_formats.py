"""The command line on the field's instances: `csp solve FILE.xml|FILE.fzn`,
`csp fzn` (FlatZinc's conventions), `csp minizinc-config` with Debian's
minizinc, `csp crosscheck` and `csp bench` on directories of mixed formats,
and golden records that grow."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from csp.cli import main

TESTS = Path(__file__).resolve().parent
XCSP3 = TESTS / "data" / "xcsp3"
FZN = TESTS / "data" / "flatzinc"
MZN = TESTS / "data" / "minizinc"
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples"
HAS_PYCSP3 = importlib.util.find_spec("pycsp3") is not None
needs_pycsp3 = pytest.mark.skipif(not HAS_PYCSP3, reason="XCSP3 needs pycsp3 (xcsp3 extra)")


@needs_pycsp3
def test_solve_an_xcsp3_instance(capsys: pytest.CaptureFixture[str]) -> None:
    queens = str(XCSP3 / "Queens-0008-m1.xml.lzma")
    assert main(["solve", queens]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<instantiation> <list> q[0] q[1]") and out.count("\n") == 1
    assert main(["solve", queens, "--count", "--backend", "cpsat"]) == 0
    assert capsys.readouterr().out == "92\n"
    assert main(["solve", str(XCSP3 / "testExtension3.xml.lzma")]) == 1
    assert capsys.readouterr().out == "no solution\n"
    assert main(["solve", str(XCSP3 / "testObjective1.xml.lzma")]) == 2
    assert "has an objective" in capsys.readouterr().err
    assert main(["solve", str(XCSP3 / "testObjective1.xml.lzma"), "--ignore-objective",
                 "--limit", "2", "--backend", "cpsat"]) == 0
    assert capsys.readouterr().out.count("<instantiation>") == 2
    assert main(["solve", queens, "--count", "--time-limit", "0"]) == 3


def test_solve_a_flatzinc_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    costas = str(FZN / "costas-array-6.fzn")
    assert main(["solve", costas, "--all", "--backend", "cpsat"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "58 solutions" and out[0].startswith("costas = array1d(1..6, [")
    renamed = tmp_path / "costas.txt"
    renamed.write_text(Path(costas).read_text())
    assert main(["solve", str(renamed), "--format", "flatzinc", "--count"]) == 0
    assert capsys.readouterr().out == "58\n"
    assert main(["solve", str(renamed), "--count"]) == 2
    assert "--format xcsp3 or flatzinc for another name" in capsys.readouterr().err
    assert main(["solve", "sudoku", costas, "--format", "flatzinc"]) == 2


def _fzn(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["fzn", *args])
    return code, capsys.readouterr().out.splitlines()


def test_fzn_follows_flatzinc_conventions(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    costas = str(FZN / "costas-array-6.fzn")
    code, out = _fzn(["-a", costas], capsys)
    assert code == 0 and out.count("----------") == 58 and out[-1] == "=========="
    code, out = _fzn(["-n", "3", costas, "--backend", "cpsat"], capsys)
    assert out.count("----------") == 3 and "==========" not in out
    code, out = _fzn([costas], capsys)
    assert out[-1] == "----------" and len(out) == 2
    golfers = str(FZN / "golfers-golfers_2_2_3.fzn")  # printed variables: a projection
    code, out = _fzn(["-a", golfers, "--backend", "cpsat"], capsys)
    assert out.count("----------") == 48 and out[-1] == "=========="
    unsat = tmp_path / "unsat.fzn"
    unsat.write_text("var 1..2: x :: output_var;\nconstraint int_eq(x, 3);\nsolve satisfy;\n")
    assert _fzn(["-a", str(unsat)], capsys) == (0, ["=====UNSATISFIABLE====="])
    code, out = _fzn(["-a", "-t", "0", costas], capsys)
    assert code == 0 and out == ["=====UNKNOWN====="]
    code, out = _fzn(["-s", str(FZN / "eq20.fzn")], capsys)
    assert "%%%mzn-stat: solutions=1" in out
    bad = tmp_path / "bad.fzn"
    bad.write_text("var 1..2: x\nsolve satisfy;\n")
    assert main(["fzn", str(bad)]) == 2
    assert "line 2: expected ';'" in capsys.readouterr().err


def test_fzn_csp_is_the_fzn_command(capsys: pytest.CaptureFixture[str]) -> None:
    from csp.commands.fzn import main as fzn_csp

    assert fzn_csp(["-a", str(FZN / "latin-squares-03.fzn")]) == 0
    assert capsys.readouterr().out.count("----------") == 12
    assert fzn_csp([str(FZN / "nosuch.fzn")]) == 2


def _wrapper(tmp_path: Path) -> Path:
    """An executable that runs this checkout's `fzn-csp` (the console script
    is only there once csp is installed)."""
    script = tmp_path / "fzn-csp"
    script.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -c "
                      "\"import sys; from csp.commands.fzn import main; sys.exit(main())\" "
                      "\"$@\"\n")
    script.chmod(0o755)
    return script


def test_minizinc_config_prints_a_solver_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["minizinc-config", "--executable", str(_wrapper(tmp_path))]) == 0
    config = json.loads(capsys.readouterr().out)
    assert config["id"] == "org.csp-workbench.csp" and config["name"] == "csp"
    assert Path(config["mznlib"], "fzn_all_different_int.mzn").exists()
    assert "-a" in config["stdFlags"] and config["executable"].endswith("fzn-csp")
    assert main(["minizinc-config", "--executable", str(tmp_path / "nothing")]) == 2


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
@pytest.mark.parametrize("model, solutions", [("queens.mzn", 92), ("glob.mzn", 18)])
def test_minizinc_runs_csp_as_a_solver(tmp_path: Path, model: str, solutions: int) -> None:
    from csp.commands.minizinc_config import configuration

    solvers = tmp_path / "solvers"
    solvers.mkdir()
    (solvers / "csp.msc").write_text(json.dumps(configuration(str(_wrapper(tmp_path)))))
    env = dict(os.environ, MZN_SOLVER_PATH=str(solvers))
    done = subprocess.run(["minizinc", "--solver", "csp", str(MZN / model), "-a"], env=env,
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines.count("----------") == solutions and lines[-1] == "=========="
    if model == "queens.mzn":
        assert lines[0].startswith("q = [")
        flat = subprocess.run(["minizinc", "--solver", "csp", "-c", str(MZN / model), "-o",
                               str(tmp_path / "q.fzn")], env=env, capture_output=True,
                              text=True, timeout=600, cwd=tmp_path)
        assert flat.returncode == 0  # csp's library keeps the global all-different
        assert "fzn_all_different_int(" in (tmp_path / "q.fzn").read_text()


# -- collections of instances -----------------------------------------------------------


@needs_pycsp3
def test_crosscheck_and_bench_a_mixed_directory(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for name in ("Queens-0008-m1.xml.lzma", "Zebra.xml.lzma"):
        shutil.copy(XCSP3 / name, mixed)
    shutil.copy(FZN / "costas-array-6.fzn", mixed)
    shutil.copy(EXAMPLES / "tiny.xc", mixed)
    assert main(["crosscheck", str(mixed), "--backends", "cpsat,bitmask"]) == 0
    out = capsys.readouterr().out
    assert "Queens-0008-m1.xml.lzma  agree  92 solutions" in out
    assert "costas-array-6.fzn  agree  58 solutions" in out and "4 agree" in out
    shutil.copy(XCSP3 / "testObjective1.xml.lzma", mixed)
    assert main(["crosscheck", str(mixed), "--backends", "cpsat,bitmask"]) == 2
    capsys.readouterr()
    assert main(["bench", str(mixed), "--backends", "cpsat", "--time-limit", "20",
                 "--repeat", "0", "--no-startup", "--out", str(tmp_path / "out")]) == 2
    report = capsys.readouterr().out
    assert "Zebra.xml.lzma" in report and "costas-array-6.fzn" in report


def test_records_grow_with_the_collection(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "covers"
    folder.mkdir()
    shutil.copy(EXAMPLES / "tiny.xc", folder)
    shutil.copy(FZN / "eq20.fzn", folder)
    golden = tmp_path / "golden.json"
    fast = "cpsat,python-constraint"
    assert main(["crosscheck", str(folder), "--backends", fast, "--record", str(golden)]) == 0
    shutil.copy(FZN / "magicseq-005.fzn", folder)  # a new instance: new, not a drift
    capsys.readouterr()
    assert main(["crosscheck", str(folder), "--backends", fast, "--against", str(golden)]) == 0
    out = capsys.readouterr().out
    assert "new: magicseq-005.fzn" in out and "0 drifts from" in out and "1 new instance" in out
    assert main(["crosscheck", str(folder), "--backends", fast, "--against", str(golden),
                 "--update"]) == 0
    assert "magicseq-005.fzn" in json.loads(golden.read_text())["instances"]
    capsys.readouterr()
    # a changed instance under the same name is its own drift
    (folder / "eq20.fzn").write_text((FZN / "bibd-03_03_01.fzn").read_text())
    (folder / "magicseq-005.fzn").unlink()
    assert main(["crosscheck", str(folder), "--backends", fast, "--against", str(golden)]) == 1
    out = capsys.readouterr().out
    assert "drift: eq20.fzn: changed was" in out
    assert "drift: magicseq-005.fzn: missing was recorded, now not run" in out
    # a record of other instances altogether is refused
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(FZN / "knights-08_04.fzn", other)
    assert main(["crosscheck", str(other), "--backends", fast, "--against", str(golden)]) == 2
    assert main(["crosscheck", str(other), "--update"]) == 2


def test_a_record_of_another_form_compares_counts(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "sudoku.txt"
    puzzles.write_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n")
    golden = tmp_path / "golden.json"
    assert main(["crosscheck", str(puzzles), "--kind", "sudoku", "--form", "exact-cover",
                 "--backends", "dlx,cpsat", "--record", str(golden)]) == 0
    capsys.readouterr()
    assert main(["crosscheck", str(puzzles), "--kind", "sudoku", "--form", "model",
                 "--backends", "cpsat,bitmask", "--against", str(golden)]) == 0
    assert "0 drifts" in capsys.readouterr().out
    record = json.loads(golden.read_text())
    record["instances"]["sudoku.txt#1"]["count"] = 2
    golden.write_text(json.dumps(record))
    assert main(["crosscheck", str(puzzles), "--kind", "sudoku", "--form", "model",
                 "--backends", "cpsat,bitmask", "--against", str(golden)]) == 1
    assert "drift: sudoku.txt#1: count was 2, now 1" in capsys.readouterr().out
