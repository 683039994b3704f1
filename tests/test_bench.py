"""`csp bench` end to end on a tiny suite: runner, count checks, writers, compare.

No timing thresholds: only that runs happen, counts are checked (a wrong one
is a failure, loudly), and the reports hold what they should.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import replace
from typing import Any

import bench_scripts
import pytest

from csp import AllDifferent, ExactCover, Model
from csp.bench import instances, report, runner, solvers
from csp.cli import main


def _tiny() -> list[instances.Instance]:
    return instances.suite("tiny")


@pytest.fixture(scope="module")
def bench() -> runner.BenchRun:
    return runner.run(_tiny(), [solvers.by_name("dlx")], suite="tiny", repeat=2,
                      isolate=False, startup_costs=False, command="test")


def test_runner_checks_every_count(bench: runner.BenchRun) -> None:
    rows = runner.summarise(bench.records)
    assert {(r["instance"], r["status"], r["count"]) for r in rows} == {
        ("queens-6", "ok", 4), ("word-square-3x3-20words", "ok", 74)}
    phases = [r["phase"] for r in bench.records if r["instance"] == "queens-6"]
    assert phases == ["first", "warm", "warm"]
    assert all(r["nodes"] > 0 for r in bench.records)
    assert not bench.failures


def test_a_wrong_count_is_a_failure() -> None:
    wrong = replace(instances.queens(6), expected=(5,))
    records = runner.measure(solvers.by_name("dlx"), wrong, repeat=1)
    assert [r["status"] for r in records] == ["WRONG"]  # no warm runs after a failure
    assert "counted 4, known answer 5" in records[0]["note"]
    bench = runner.BenchRun("t", "test", records=records)
    assert bench.failures
    text = report.markdown(bench)
    assert "## FAILURES" in text and "**WRONG**" in text
    assert "FAILURE: WRONG: dlx on queens-6" in report.failures_text(records)


def test_collections_are_checked_puzzle_by_puzzle() -> None:
    [q4] = instances.queens(4).problems("exact-cover")
    [q6] = instances.queens(6).problems("exact-cover")
    both = instances.Instance("pair", "queens", ("exact-cover",), (3, 4),
                              lambda form: [q4, q6])
    [first] = runner.measure(solvers.by_name("dlx"), both, repeat=0)
    assert first["status"] == "WRONG" and "puzzle 0: counted 2, known answer 3" in first["note"]


class _Cut(solvers.Solver):
    """A test double: a solver whose run is cut by the time limit with `counts`."""

    name = "cut"

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def count(self, prepared: Any, time_limit: float | None) -> solvers.Outcome:
        return solvers.Outcome(list(self.counts), "TIME_LIMIT")


def test_a_cut_run_that_already_counted_too_many_is_wrong() -> None:
    one = replace(instances.queens(6), expected=(4,))
    [record] = runner.measure(_Cut([5]), one, repeat=1)
    assert record["status"] == "WRONG"
    assert "puzzle 0: counted 5 before the time limit (TIME_LIMIT), known answer 4" \
        in record["note"]
    [record] = runner.measure(_Cut([3]), one, repeat=1)
    assert record["status"] == "timeout"  # a lower bound below the answer: inconclusive
    # In a collection, the puzzles before the cut one were counted completely.
    three = replace(one, expected=(4, 4, 4), build=lambda form: [None] * 3)
    assert runner.judge([4, 3, 2], "TIME_LIMIT", (4, 4, 4), 1.0)["status"] == "WRONG"
    assert runner.judge([4, 5], "TIME_LIMIT", (4, 4, 4), 1.0)["status"] == "WRONG"
    assert runner.judge([4, 4], "TIME_LIMIT", (4, 4, 4), 1.0)["status"] == "timeout"
    [record] = runner.measure(_Cut([4, 9]), three, repeat=1)
    assert record["status"] == "WRONG" and "puzzle 1: counted 9" in record["note"]


def test_an_instance_of_no_suite_runs_in_a_worker() -> None:
    # bench_dlx.py --small uses these 73 words: the worker must find them by name.
    inst = instances.word_squares(5, "abcd", 20)
    assert instances.get(inst.name).expected == (2136,)
    records = runner.measure_isolated(solvers.by_name("dlx"), [instances.queens(4)],
                                      repeat=0, time_limit=10)
    assert [r["status"] for r in records] == ["ok"]


def test_a_worker_that_dies_leaves_an_error_record_with_the_version() -> None:
    [q4] = instances.queens(4).problems("exact-cover")
    unknown = instances.Instance("in-no-catalogue", "queens", ("exact-cover",), (2,),
                                 lambda form: [q4])
    solver = solvers.by_name("dlx")
    [record] = runner.measure_isolated(solver, [unknown], repeat=0, time_limit=10)
    assert record["status"] == "error" and "unknown instance" in record["note"]
    assert record["version"] == solver.version()


def test_every_instance_of_bench_dlx_can_be_found_by_name(shared_data) -> None:
    script = bench_scripts.load("bench_dlx")
    for small in (True, False):
        for inst in script.lineup(small):
            assert instances.get(inst.name).expected == inst.expected


@pytest.mark.parametrize("name", ["ortools", "python-constraint2"])
def test_csp_peers_through_their_own_api(name: str) -> None:
    solver = solvers.by_name(name)
    if solver.unavailable():
        pytest.skip(solver.unavailable())
    assert solver.kind == "peer" and solver.name not in {"cpsat", "python-constraint"}
    for inst in (instances.queens(6), _two_models()):
        records = runner.measure(solver, inst, repeat=1)
        if name == "python-constraint2" and inst.forms == ("exact-cover",):
            # CSP instances only: an exact cover is not its own API's problem
            assert [r["status"] for r in records] == ["cannot express"], records
            continue
        assert [r["status"] for r in records] == ["ok", "ok"], records
        assert records[0]["prep_time"] > 0  # the package's model is built in prep


def _two_models() -> instances.Instance:
    """A CSP-only collection: 4 values for 3 variables, then 3 pigeons in 2 holes."""
    def build(form: str) -> list[Model]:
        out = []
        for n, holes in ((3, 4), (3, 2)):
            m = Model()
            m.add(AllDifferent([m.var(i, range(holes)) for i in range(n)]))
            out.append(m)
        return out

    return instances.Instance("two-models", "t", ("model",), (24, 0), build)


def test_python_constraint_peer_stops_at_its_time_limit() -> None:
    solver = solvers.by_name("python-constraint2")
    if solver.unavailable():
        pytest.skip(solver.unavailable())

    def pigeons(form: str) -> list[Model]:
        m = Model()
        m.add(AllDifferent([m.var(i, range(11)) for i in range(12)]))  # minutes in full
        return [m]

    inst = instances.Instance("pigeons-12", "t", ("model",), (0,), pigeons)
    started = time.perf_counter()
    [record] = runner.measure(solver, inst, repeat=1, time_limit=0.3)
    assert record["status"] == "timeout" and record["search_status"] == "TIME_LIMIT"
    assert time.perf_counter() - started < 5


def test_a_peer_that_cannot_express_colours_is_noted_not_failed() -> None:
    xc = ExactCover(["a"], ["x"])
    xc.add_option(["a", ("x", "red")])
    inst = instances.Instance("coloured", "t", ("exact-cover",), (1,), lambda form: [xc])
    solver = solvers.ExactCoverSolver()
    if solver.unavailable():
        pytest.skip(solver.unavailable())
    [record] = runner.measure(solver, inst)
    assert record["status"] == "cannot express"


@pytest.mark.parametrize("name", ["xcover", "miniexact", "exact-cover"])
def test_peers_agree_on_secondary_items(name: str) -> None:
    solver = solvers.by_name(name)
    if solver.unavailable():
        pytest.skip(solver.unavailable())
    records = runner.measure(solver, instances.queens(6), repeat=1)
    assert [r["status"] for r in records] == ["ok", "ok"]


def test_writers(bench: runner.BenchRun, tmp_path) -> None:
    written = report.write_all(bench, tmp_path)
    names = {p.name for p in written}
    assert {"bench.md", "bench.csv", "bench.json"} <= names
    text = (tmp_path / "bench.md").read_text()
    assert "| queens-6 |" in text and "nproc" not in text and "cores" in text
    with open(tmp_path / "bench.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(bench.records)
    assert {row["status"] for row in rows} == {"ok"}
    assert json.loads(rows[0]["parameters"])["time_limit"] == 60.0
    data = json.loads((tmp_path / "bench.json").read_text())
    assert data["machine"]["nproc"] >= 1 and data["machine"]["python"]
    assert len(data["records"]) == len(bench.records)
    assert {row["instance"] for row in data["summary"]} == {"queens-6",
                                                           "word-square-3x3-20words"}


def test_compare(bench: runner.BenchRun, tmp_path) -> None:
    old = bench.to_dict()
    # The runs' own times are too noisy on a shared machine (103 us to 2.9 ms
    # once, whose 3x overlaps): a fixed series, 3 times slower on queens-6.
    for row in old["summary"]:
        row.update(median=1e-3, min=0.9e-3, q1=0.95e-3, q3=1.05e-3, max=1.1e-3)
    new = json.loads(json.dumps(old))
    for row in new["summary"]:
        for key in ("median", "min", "q1", "q3", "max"):
            row[key] *= 3 if row["instance"] == "queens-6" else 1
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    text = report.compare(report.load(tmp_path / "old.json"), report.load(tmp_path / "new.json"))
    assert "| queens-6 | dlx |" in text and "slower" in text
    assert "0 faster, 1 slower, 1 about the same" in text


def test_command_compare(bench: runner.BenchRun, tmp_path, capsys) -> None:
    path = tmp_path / "run.json"
    report.write_json(bench, path)
    assert main(["bench", "--compare", str(path), str(path)]) == 0
    assert "2 about the same" in capsys.readouterr().out
    assert main(["bench", "--compare", str(path), str(tmp_path / "absent.json")]) == 2


@pytest.mark.parametrize("text", ["{}", "[]", '{"records": []}', '{"records": [{"x": 1}]}',
                                  '{"records": [], "summary": [{"instance": "q"}]}', "nope"])
def test_command_compare_refuses_what_is_not_a_bench_record(
        bench: runner.BenchRun, tmp_path, capsys, text: str) -> None:
    good, bad = tmp_path / "run.json", tmp_path / "bad.json"
    report.write_json(bench, good)
    bad.write_text(text)
    assert main(["bench", "--compare", str(good), str(bad)]) == 2
    assert main(["bench", "--compare", str(bad), str(good)]) == 2
    err = capsys.readouterr().err
    assert "not a csp bench JSON record" in err and "bad.json" in err


def test_command_runs_a_suite_in_workers(tmp_path, capsys) -> None:
    """The real path: worker processes, reports written, exit status 0."""
    code = main(["bench", "--suite", "tiny", "--backends", "dlx", "--repeat", "1",
                 "--no-startup", "--only", "queens-6", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "| queens-6 |" in out
    data = json.loads((tmp_path / "bench.json").read_text())
    assert [r["status"] for r in data["records"]] == ["ok", "ok"]


def test_word_list_is_deterministic() -> None:
    words = instances.word_list(3, "abcd", 96)
    assert len(words) == 20 and words == sorted(words)
    assert words == instances.word_list(3, "abcd", 96)


def test_suites_build_where_the_data_is(shared_data) -> None:
    skipped: list[tuple[str, str]] = []
    quick = instances.suite("quick", skipped)
    assert {"queens-8", "sudoku-38-solutions", "pentominoes-3x20"} <= {i.name for i in quick}
    for inst in quick:
        assert all(count >= 0 for count in inst.expected)


def test_png_chart(bench: runner.BenchRun, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    assert report.write_png(bench, tmp_path / "bench.png")
    assert (tmp_path / "bench.png").read_bytes()[:4] == b"\x89PNG"


def test_startup_probe_of_a_csp_only_peer_runs_on_the_model() -> None:
    solver = solvers.by_name("python-constraint2")
    if solver.unavailable():
        pytest.skip(solver.unavailable())
    record = runner.startup_in_process(solver)
    assert record["status"] == "ok" and record["probe"] == "queens-8"


def test_bench_cells_checks_both_engines_counts(tmp_path, shared_data) -> None:
    out = tmp_path / "cells.md"
    cells = bench_scripts.load("bench_cells")
    assert cells.main(["--repeat", "1", "--out", str(out), "queens-8"]) == 0
    [row] = [line for line in out.read_text().splitlines() if line.startswith("| queens-8")]
    assert row.split(" | ")[1] == "92"


def test_bench_cells_builds_compares_builds_of_the_c_kernel(capsys) -> None:
    from csp.backends.dlx import cells

    if cells.native is None:
        pytest.skip("the C kernel is not built here")
    built = cells.native.__file__
    assert bench_scripts.load("bench_cells_builds").main([built, built, "--repeat", "1",
                                               "--names", "queens-8", "kakuro-upto100cells"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert rows[1].startswith("| queens-8 | 947 | ") and rows[2].startswith("| kakuro-upto100cells")


def test_bench_dlx_engines_runs_the_three_engines_and_lowers_csps(tmp_path, shared_data) -> None:
    out = tmp_path / "engines.md"
    names = ["queens-8", "kakuro-upto100cells"]
    engines = bench_scripts.load("bench_dlx_engines")
    assert engines.main(["--repeat", "1", "--out", str(out), *names]) == 0
    rows = {line.split(" | ")[0][2:]: line.split(" | ")
            for line in out.read_text().splitlines() if line.startswith("| ")}
    assert rows["queens-8"][2] == "92" and rows["kakuro-upto100cells"][1] == "8"
    assert rows["queens-8"][-1] == "947 |"  # SSXCC's nodes on the cells engines


def test_bench_dlx_engines_exits_1_on_a_wrong_count(monkeypatch, shared_data) -> None:
    script = bench_scripts.load("bench_dlx_engines")
    wrong = replace(instances.get("queens-6"), expected=(5,))
    monkeypatch.setattr(script.instances, "get", lambda name: wrong)
    assert script.main(["--repeat", "1", "queens-6"]) == 1


def test_quiet_counts_a_reaped_child_as_ours_not_as_others() -> None:
    # csp.bench.quiet: the other processes' CPU is every CPU's busy time less
    # this process's and its reaped children's. A child burning 0.3 CPU
    # seconds, reaped within the block, is ours: it shows in both sums.
    import subprocess
    import sys

    from csp.bench import quiet
    burn = "import time\nwhile time.process_time() < 0.3:\n    pass\n"
    busy, ours = quiet._busy(), quiet._ours()
    with quiet.Others() as others:
        subprocess.run([sys.executable, "-c", burn], check=True)
    assert quiet._ours() - ours >= 0.3
    assert quiet._busy() - busy >= 0.3 - 2 / quiet.TICK  # /proc/stat counts in ticks
    assert others.cores >= 0.0


def test_a_scripts_header_names_the_checkout_it_measured() -> None:
    """With an editable install, a bench script run from another checkout
    imports the installed one: the header says which was measured."""
    from pathlib import Path

    import csp
    from csp.bench import measure

    line = measure.header("what")
    assert f"csp from {Path(csp.__file__).resolve().parent.parent};" in line
    assert line.startswith("machine: ") and line.endswith("; what")
