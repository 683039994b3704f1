"""`csp bench` on the user's own instances: the solved table and the virtual
best, timeouts (unsolved, drawn at the limit), the charts with and without
matplotlib, bad input, and `--compare` judged against the noise.

Real data: examples/tiny.xc (1 solution), examples/queens8.xc and N queens
puzzle files, whose counts are in tests/data/nqueens/nqueens.json. No timing
thresholds: a timeout is forced by asking 13 queens (73,712 solutions) for
all of them within 50 ms, which no backend comes near.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from csp import backends
from csp.bench import charts, files, report, runner, solved, solvers
from csp.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _queens_counts(shared_data: Path) -> dict[int, int]:
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())
    rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
    return {int(r["n"]): int(r["solutions"]) for r in rows}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A directory of two exact covers in Knuth's format."""
    where = tmp_path / "instances"
    where.mkdir()
    for name in ("tiny.xc", "queens8.xc"):
        shutil.copy(EXAMPLES / name, where / name)
    return where


def _run(instances: list, names: list[str], time_limit: float = 30.0) -> runner.BenchRun:
    return runner.run(instances, [solvers.by_name(n) for n in names], suite=report.CUSTOM,
                      repeat=2, time_limit=time_limit, isolate=False, startup_costs=False,
                      command="test")


def test_solved_table_and_virtual_best_on_a_directory(folder: Path, shared_data: Path) -> None:
    skipped: list[tuple[str, str]] = []
    chosen = files.exact_covers(str(folder), skipped)
    assert [Path(i.name).name for i in chosen] == ["queens8.xc", "tiny.xc"] and not skipped
    bench = _run(chosen, ["dlx", "bitmask"])
    rows = runner.summarise(bench.records)
    counts = {(Path(r["instance"]).name, r["solver"]): r["count"] for r in rows}
    eight = _queens_counts(shared_data)[8]
    assert counts == {("queens8.xc", "dlx"): eight, ("queens8.xc", "bitmask"): eight,
                      ("tiny.xc", "dlx"): 1, ("tiny.xc", "bitmask"): 1}
    for row in rows:  # the spread of the runs: min <= q1 <= median <= q3 <= max
        assert row["runs"] == 2 and row["expected"] is None
        assert row["min"] <= row["q1"] <= row["median"] <= row["q3"] <= row["max"]
    table = {line["solver"]: line for line in solved.table(rows)}
    assert [line["solver"] for line in solved.table(rows)] == ["dlx", "bitmask", "VBS"]
    assert all(table[s]["solved"] == 2 and table[s]["timeout"] == 0 for s in table)
    best = [min(r["median"] for r in rows if r["instance"] == i.name) for i in chosen]
    assert table["VBS"]["time"] == pytest.approx(sum(best))
    assert table["dlx"]["fastest"] + table["bitmask"]["fastest"] >= 2
    assert not solved.disagreements(rows)
    text = report.markdown(bench)
    assert "# csp bench: your instances" in text
    assert "| VBS | 2/2 | 0 | 0 |" in text and "| dlx | 2/2 | 0 | 0 |" in text


def test_a_timeout_is_unsolved_and_drawn_at_the_limit(tmp_path: Path, shared_data: Path) -> None:
    pytest.importorskip("matplotlib")
    puzzles = tmp_path / "queens.txt"
    puzzles.write_text("6\n13\n")
    chosen = files.puzzles("queens", str(puzzles), [])
    assert [i.name for i in chosen] == [f"{puzzles}#1", f"{puzzles}#2"]
    bench = _run(chosen, ["dlx", "bitmask"], time_limit=0.05)
    rows = runner.summarise(bench.records)
    status = {(r["instance"][-1], r["solver"]): (r["status"], r["count"]) for r in rows}
    six = _queens_counts(shared_data)[6]
    assert status[("1", "dlx")] == ("ok", six) and status[("1", "bitmask")] == ("ok", six)
    assert {status[("2", s)][0] for s in ("dlx", "bitmask")} == {"timeout"}
    table = {line["solver"]: line for line in solved.table(rows)}
    assert (table["VBS"]["solved"], table["VBS"]["timeout"]) == (1, 1)
    assert table["dlx"]["par2"] == pytest.approx(table["dlx"]["time"] + 2 * 0.05)
    # the charts: the timeout is at the limit, not left out
    assert [k for _, k in charts.cactus_points(rows, "dlx")] == [1]
    points = charts.scatter_points(rows, "dlx", "bitmask", charts.cap(rows))
    assert points[1] == (f"{puzzles}#2", 0.05, 0.05, True, True)
    figure = charts.cactus_figure(rows, "t")
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "dlx: 1/2 solved, 1 timeout" in legend
    written = {p.name for p in report.write_all(bench, tmp_path / "out")}
    assert {"cactus.png", "scatter.png", "bench.png", "solved.csv"} <= written
    for name in ("cactus.png", "scatter.png", "bench.png"):
        assert (tmp_path / "out" / name).read_bytes()[:4] == b"\x89PNG"
    assert "| VBS | 1/2 | 1 | 0 |" in (tmp_path / "out" / "bench.md").read_text()
    data = json.loads((tmp_path / "out" / "bench.json").read_text())
    assert [line["solved"] for line in data["solved"]] == [1, 1, 1]


def test_counts_that_differ_are_a_disagreement() -> None:
    rows = [{"instance": "x", "solver": "a", "status": "ok", "count": 92, "median": 1.0},
            {"instance": "x", "solver": "b", "status": "ok", "count": 91, "median": 1.0},
            {"instance": "y", "solver": "b", "status": "timeout", "count": 3, "median": None}]
    assert solved.disagreements(rows) == {"x": {"a": 92, "b": 91}}
    assert report.disagreements_text(rows)[2] == "- **x**: a counted 92, b counted 91"


def test_the_command_without_matplotlib_writes_the_tables(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes, bad files among good ones, no matplotlib."""
    (folder / "binary.xc").write_bytes(b"a b\0\n")
    (folder / "broken.xc").write_text("a b\na c\n")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    out = tmp_path / "out"
    code = main(["bench", str(folder), "--backends", "dlx", "--repeat", "1", "--no-startup",
                 "--time-limit", "30", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2  # the bad files: reported, the others were run
    assert f"not run: {folder / 'binary.xc'}: this is a binary file" in captured.err
    assert f"not run: {folder / 'broken.xc'}: line 2: unknown item c" in captured.err
    assert captured.err.count("matplotlib is not installed") == 1
    assert "| dlx | 2/2 | 0 | 0 |" in captured.out and "## Not run" in captured.out
    assert sorted(p.name for p in out.iterdir()) == ["bench.csv", "bench.json", "bench.md",
                                                     "solved.csv"]
    assert "dlx,2,2,0,0," in (out / "solved.csv").read_text()


def test_a_plugin_backend_on_a_plugin_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str],
                                           shared_data: Path) -> None:
    """The fake installed plug-in of test_plugins: its backend `dlx-again` on
    its kind `queens-again`, in a worker process that finds both by entry
    point; the run compared with a saved one (made here, in-process)."""
    from test_plugins import fake_distribution

    from csp import backends, problems

    (tmp_path / "site").mkdir()
    root = fake_distribution(tmp_path / "site")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    backends.reload()
    problems.reload()
    try:
        puzzles = tmp_path / "queens.txt"
        puzzles.write_text("6\n")
        saved = tmp_path / "old.json"
        report.write_json(_run(files.puzzles("queens-again", str(puzzles), []), ["dlx-again"]),
                          saved)
        code = main(["bench", "--kind", "queens-again", str(puzzles), "--backends", "dlx-again",
                     "--repeat", "2", "--no-startup", "--out", str(tmp_path / "out"),
                     "--compare", str(saved)])
        out = capsys.readouterr().out
        assert code == 0, out
        assert "| dlx-again | 1/1 | 0 | 0 |" in out
        six = _queens_counts(shared_data)[6]
        assert f"| {puzzles}#1 | dlx-again |" in out and f" | {six} | - | 1.00 | ok |" in out
        assert f"## Compared with {saved}" in out
        assert "(a change: medians more than 10% apart and the [min, max]" in out
    finally:
        monkeypatch.undo()
        for module in [m for m in sys.modules if m.startswith("fake_plugin")]:
            del sys.modules[module]
        backends.reload()
        problems.reload()


def test_the_paths_after_backends_are_paths(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # one argument of names: the PATH after it is an instance, not a backend
    code = main(["bench", "--backends", "dlx", str(EXAMPLES / "tiny.xc"), "--repeat", "1",
                 "--no-startup", "--out", str(tmp_path)])
    assert code == 0
    assert "tiny.xc" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["no-such-dir"], "no such file or directory: no-such-dir"),
    (["--kind", "queens", "no-such-file.txt"], "no such file: no-such-file.txt"),
    (["--kind", "no-such-kind", "x"], "unknown puzzle kind 'no-such-kind'"),
    (["EXAMPLES/tiny.xc", "--backends", "dlx,nope"], "unknown backend 'nope'"),
    (["--backends", "dlx", "cpsat", "EXAMPLES/tiny.xc"],
     "no such file or directory: cpsat (a backend's name: name the backends in one argument, "
     "with commas: --backends dlx,cpsat)"),
    (["EXAMPLES/tiny.xc", "--suite", "tiny"], "--suite and --only choose among"),
    (["--compare", "a", "b", "c"], "--compare takes OLD.json, or OLD.json NEW.json"),
    (["EXAMPLES/tiny.xc", "--compare", "EXAMPLES/tiny.xc"], "is not a csp bench JSON record"),
])
def test_bad_input_is_exit_2(argv: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = [word.replace("EXAMPLES", str(EXAMPLES)) for word in argv]
    assert main(["bench", *argv, "--no-startup"]) == 2
    assert message in capsys.readouterr().err


def test_a_directory_with_only_bad_files_is_exit_2(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.xc").write_text("a\nb\n")
    assert main(["bench", str(tmp_path), "--no-startup"]) == 2
    assert "nothing to run" in capsys.readouterr().err


def test_compare_flags_only_changes_beyond_the_noise() -> None:
    def row(median: float, low: float, high: float) -> dict:
        return {"instance": "i", "solver": "s", "status": "ok", "median": median,
                "min": low, "max": high, "runs": 5}

    assert report.change(row(1.0, 0.9, 1.1), row(2.0, 1.8, 2.2)) == "slower"
    assert report.change(row(1.0, 0.9, 1.1), row(0.5, 0.45, 0.55)) == "faster"
    assert report.change(row(1.0, 0.5, 2.0), row(1.5, 1.4, 1.6)) == "noise"  # inside the spread
    assert report.change(row(1.0, 0.9, 1.1), row(1.05, 1.0, 1.1)) == "same"
    one = {"median": 2.0, "runs": 1}  # no spread recorded: the threshold alone
    assert report.change({"median": 1.0, "runs": 1}, one) == "slower"


def test_the_charts_draw_what_cannot_be_expressed_and_each_solver_against_the_best(
        tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rows = [{"instance": i, "solver": s, "status": status, "median": t, "time_limit": 2}
            for i, s, status, t in [("a", "x", "ok", 0.5), ("a", "y", "ok", 0.1),
                                    ("a", "z", "cannot express", None),
                                    ("b", "x", "timeout", None), ("b", "y", "ok", 1.5),
                                    ("b", "z", "ok", 0.2)]]
    # z did not run on a: it is no point of z's panel, not a cross at the limit
    assert charts.against_best(rows, "z", charts.cap(rows)) == [("b", 1.5, 0.2, False, False)]
    figure = charts.scatter_figure(rows, "t")
    assert [ax.get_ylabel() for ax in figure.axes if ax.get_visible()] == [
        "x (s)", "y (s)", "z (s)"]
    # the virtual best is drawn first, behind every solver's curve
    cactus = charts.cactus_figure(rows, "t")
    labels = [t.get_text() for t in cactus.axes[0].get_legend().get_texts()]
    assert labels[0].startswith("virtual best (wide, behind)")


def test_csp_backends_virtual_best_against_the_field_solvers(tmp_path: Path) -> None:
    # Issues 23 and 24: beside a field solver (capability OUTSIDE), the table
    # has the virtual best of csp's in-process backends, to read against it.
    if "choco" not in backends.available():
        pytest.skip(backends.missing().get("choco", "choco is not available"))
    data = Path(__file__).parent / "data" / "xcsp3"
    for name in ("Queens-0008-m1.xml.lzma", "AllInterval-005.xml.lzma"):
        shutil.copy(data / name, tmp_path / name)
    chosen = files.exact_covers(str(tmp_path), [])
    bench = _run(chosen, ["cpsat", "bitmask", "choco"])
    rows = runner.summarise(bench.records)
    assert report.groups(rows) == {report.OWN: ["cpsat", "bitmask"]}
    table = {line["solver"]: line for line in solved.table(rows, report.groups(rows))}
    assert list(table) == ["cpsat", "bitmask", "choco", "VBS", report.OWN]
    assert table[report.OWN]["solved"] == 2
    own = [min(r["median"] for r in rows if r["instance"] == i.name and r["solver"] != "choco")
           for i in chosen]
    assert table[report.OWN]["time"] == pytest.approx(sum(own))
    known = json.loads((data / "counts.json").read_text())["instances"]
    for row in rows:  # every backend's count is the one ACE and Choco agreed on
        assert row["count"] == known[Path(row["instance"]).name]["count"], row
    assert f"| {report.OWN} | 2/2 |" in report.markdown(bench)


def test_a_refusal_at_the_count_is_a_cannot_and_the_report_is_written(
        shared_data: Path) -> None:
    # Issue 24: ganak counts without listing, and the lattice puzzles are
    # counted by listing their solutions: the refusal came at the count, was
    # an error without a time, and `csp bench --suite quick` died writing
    # its report (KeyError: 'time') after 13 minutes of runs.
    if "ganak" not in backends.available():
        pytest.skip(backends.missing().get("ganak", "ganak is not available"))
    from csp.bench import instances

    bench = _run([instances.get("lattice-first2")], ["dlx", "ganak"])
    rows = {row["solver"]: row for row in runner.summarise(bench.records)}
    assert rows["ganak"]["status"] == runner.CANNOT and "not list" in rows["ganak"]["note"]
    assert rows["dlx"]["status"] == runner.OK
    assert "| ganak | 0/1 |" in report.markdown(bench)
