"""`csp crosscheck` on collections (a directory, a puzzle file), golden records
and their drifts, the exit statuses of crosscheck, solve and xc, and the
100-square word cover that python-constraint now finishes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from budget import witnesses

import csp
from csp import backends, collection, records
from csp.backends.base import COUNTS_ONLY
from csp.cli import main
from csp.crosscheck import canonical, solution_hash

DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SQUARES = DATA / "wordsquare" / "squares4-100.xc"
FAST = "dlx,cpsat"


def words_of(path: Path) -> list[str]:
    line = next(line for line in path.read_text().splitlines() if line.startswith("| words:"))
    return line.split(":", 1)[1].split()


def brute_force_squares(words: list[str]) -> int:
    """Double word squares: rows of different words whose columns are words,
    the 8 words all different (rows chosen in turn, columns kept as prefixes)."""
    prefixes = {word[:k] for word in words for k in range(5)}
    squares: list[tuple[str, ...]] = [()]
    for _ in range(4):
        squares = [rows + (w,) for rows in squares for w in words if w not in rows
                   and all("".join(r[j] for r in rows) + w[j] in prefixes for j in range(4))]
    return sum(len(set(rows) | {"".join(r[j] for r in rows) for j in range(4)}) == 8
               for rows in squares)


def test_the_word_cover_has_100_squares_and_every_backend_finishes() -> None:
    assert brute_force_squares(words_of(SQUARES)) == 100
    xc = csp.ExactCover.read(SQUARES)
    # python-constraint takes it natively (a variable per row and column)
    result = csp.count(xc, "python-constraint", time_limit=60)
    assert (result.count, result.status) == (100, csp.Status.COMPLETE)
    report = csp.crosscheck(xc, backends=witnesses(xc), time_limit=120)
    assert report.verdict == "agree", str(report)
    assert {run.count for run in report.runs} == {100}
    listed = [run for run in report.runs  # a counter only (ganak) lists none
              if COUNTS_ONLY not in csp.backends.get(run.backend).capabilities]
    assert len({run.set_hash for run in listed}) == 1 and len(listed) >= 2


def test_python_constraint_counts_exact_covers_once(shared_data: Path) -> None:
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    from test_crosscheck import COLOURED, queens_xc

    for n in range(1, 9):
        expected = next(row["solutions"] for row in rows if row["n"] == n)
        found = list(csp.solutions(queens_xc(n), "python-constraint"))
        assert len(found) == len(set(found)) == expected
        assert all(queens_xc(n).check(s) == [] for s in found)
    assert list(csp.solutions(csp.ExactCover.from_text(COLOURED), "python-constraint")) == [(2, 3)]


def test_the_set_hash_ignores_order() -> None:
    xc = csp.ExactCover.from_text("a b\na\nb\na b\n")
    assert canonical(xc, (1, 0)) == canonical(xc, [0, 1]) == "0 1"
    m = csp.Model()
    m.var("y", [1, 2])
    m.var(("x", 1), [1, 2])
    assert solution_hash(m, {"y": 1, ("x", 1): 2}) == solution_hash(m, {("x", 1): 2, "y": 1})
    a = csp.crosscheck(xc, backends=["dlx", "cpsat"]).runs
    assert a[0].set_hash == a[1].set_hash != f"{0:064x}"


# -- collections -------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two good exact covers, one with a bad line, one unreadable (not UTF-8)."""
    where = tmp_path / "collection"
    where.mkdir()
    for name in ("tiny.xc", "queens8.xc"):
        (where / name).write_text((EXAMPLES / name).read_text())
    (where / "bad.xc").write_text("a b\na c\n")
    (where / "binary.xc").write_bytes(b"\xff\xfe\x00junk")
    return where


def test_a_directory_reports_each_bad_file_and_checks_the_rest(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crosscheck", str(folder), "--backends", FAST]) == 2
    out, err = capsys.readouterr()
    assert "bad.xc: line 2: unknown item c" in err and "binary.xc" in err
    assert "queens8.xc  agree  92 solutions" in out and "tiny.xc  agree  1 solution" in out
    table = out.splitlines()
    assert table[-1] == "4 instances: 2 agree, 2 bad -> bad"
    assert table[-3].split() == ["dlx", "2", "2", "0", "0", "0"]
    # the progress bar: on a terminal only, unless forced
    assert "instances" not in err
    assert main(["crosscheck", str(folder), "--backends", FAST, "--progress"]) == 2
    assert "] 4/4 instances" in capsys.readouterr().err


def test_every_puzzle_of_a_puzzle_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crosscheck", "--kind", "futoshiki", str(EXAMPLES / "futoshiki.txt"),
                 "--backends", "bitmask,cpsat", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "agree" and len(out["instances"]) >= 1
    assert all(i["name"].startswith("futoshiki.txt#") for i in out["instances"])
    assert main(["crosscheck", "--kind", "nosuch", str(EXAMPLES / "futoshiki.txt")]) == 2
    capsys.readouterr()
    # a bad puzzle is reported with its line, the others checked
    bad = tmp_path / "queens.txt"
    bad.write_text("4\nx\n5\n")
    assert main(["crosscheck", "--kind", "queens", str(bad), "--backends", FAST]) == 2
    out, err = capsys.readouterr()
    assert "queens.txt: line 2: 'x' is not a board size" in err
    assert "queens.txt#1  agree  2 solutions" in out and "queens.txt#3  agree  10" in out
    # a kind whose puzzle is on the command line
    assert main(["crosscheck", "--kind", "queens", "6", "--backends", "dlx,bitmask"]) == 0
    assert "all backends agree: 4 solutions" in capsys.readouterr().out


def test_a_time_limit_is_inconclusive_with_its_own_status(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crosscheck", str(EXAMPLES / "queens8.xc"), "--backends", FAST,
                 "--time-limit", "0"]) == 3
    out = capsys.readouterr().out
    assert "all backends agree" not in out and "inconclusive" in out
    # one backend alone compares nothing
    assert main(["crosscheck", str(EXAMPLES / "tiny.xc"), "--backends", "dlx"]) == 3
    assert "inconclusive: only dlx finished" in capsys.readouterr().out


def test_the_library_api(folder: Path) -> None:
    found = list(collection.instances(folder))
    assert [i.name for i in found] == ["bad.xc", "binary.xc", "queens8.xc", "tiny.xc"]
    assert [i.error is None for i in found] == [False, False, True, True]
    seen: list[str] = []
    report = collection.check(found, ["dlx", "cpsat"], each=lambda o: seen.append(o.verdict))
    assert seen == ["bad", "bad", "agree", "agree"]
    assert report.per_backend()["cpsat"] == {"instances": 2, "agree": 2, "disagree": 0,
                                             "inconclusive": 0, "failed": 0}
    assert (report.verdict, report.exit_status) == ("bad", 2)


# -- golden records ------------------------------------------------------------------------


def test_record_then_against(folder: Path, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "bad.xc").unlink()
    (folder / "binary.xc").unlink()
    golden = tmp_path / "golden.json"
    assert main(["crosscheck", str(folder), "--backends", FAST, "--record", str(golden)]) == 0
    saved = json.loads(golden.read_text())
    assert saved["format"] == records.FORMAT
    assert saved["instances"]["queens8.xc"]["count"] == 92
    assert golden.read_text().splitlines()[3].startswith('    "queens8.xc": {"count": 92')
    # the same run, on other backends: no drift
    assert main(["crosscheck", str(folder), "--backends", "cpsat,python-constraint",
                 "--against", str(golden)]) == 0
    assert "0 drifts" in capsys.readouterr().out
    # a record that says otherwise: every drift is listed, exit 1
    entry = saved["instances"]["queens8.xc"]
    entry["count"], entry["solutions"] = 91, "0" * 64
    saved["instances"]["tiny.xc"]["status"] = "inconclusive"
    golden.write_text(json.dumps(saved))
    assert main(["crosscheck", str(folder), "--backends", FAST, "--against", str(golden)]) == 1
    out = capsys.readouterr().out
    assert "drift: queens8.xc: count was 91, now 92" in out
    assert "drift: queens8.xc: solutions was 000000000000..." in out
    assert "drift: tiny.xc: status was inconclusive, now agree" in out
    assert "3 drifts" in out


def test_a_bad_record_is_refused(folder: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    golden = tmp_path / "golden.json"
    tiny = str(folder / "tiny.xc")
    assert main(["crosscheck", tiny, "--backends", FAST, "--record", str(golden)]) == 0
    capsys.readouterr()
    cases: list[tuple[Any, str]] = [
        ("not json", "not JSON"),
        (json.dumps({"format": 1}), "is not a crosscheck record"),
        (golden.read_text().replace('"format": 1', '"format": 9'), "format 9"),
    ]
    for text, message in cases:
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        assert main(["crosscheck", tiny, "--against", str(bad)]) == 2
        assert message in capsys.readouterr().err
    # a record of other instances: other names, or another problem under the name
    assert main(["crosscheck", str(folder / "queens8.xc"), "--against", str(golden)]) == 2
    assert "other instances" in capsys.readouterr().err
    # another problem under a recorded name is a drift of its own (issue 23:
    # a collection changes), not a refused record
    (folder / "tiny.xc").write_text("a\na\n")
    assert main(["crosscheck", tiny, "--against", str(golden)]) == 1
    assert "drift: tiny.xc: changed was " in capsys.readouterr().out


# -- exit statuses of solve and xc -------------------------------------------------------


def test_solve_and_xc_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    none = tmp_path / "none.xc"
    none.write_text("a b\na\na b\n| b has an option that also covers a: one solution\n")
    assert main(["xc", str(none)]) == 0
    none.write_text("a b\na\n")  # b is never covered
    assert main(["xc", str(none)]) == 1
    assert main(["xc", str(none), "--count"]) == 1
    assert main(["xc", str(EXAMPLES / "queens8.xc"), "--count", "--time-limit", "0"]) == 3
    assert main(["solve", "queens", "3"]) == 1  # no 3 queens
    assert main(["solve", "queens", "8", "--count", "--time-limit", "0"]) == 3
    assert main(["solve", "queens", "8", "--limit", "2"]) == 0
    capsys.readouterr()


def test_ctrl_c_ends_the_collection_with_what_was_checked() -> None:
    from test_crosscheck import DroppingBackend, queens_xc

    class Interrupted(DroppingBackend):
        name = "interrupted"

        def solutions(self, problem: Any, **_: Any) -> Any:
            search = backends.get("dlx").solutions(problem)

            def interrupt(*args: Any) -> int:
                raise KeyboardInterrupt

            search._advance = interrupt
            return search

    found = [collection.Instance(f"queens {n}", queens_xc(n)) for n in (4, 5)]
    report = collection.check(found, ["dlx", Interrupted()])
    assert report.interrupted and [o.name for o in report.outcomes] == ["queens 4"]
    assert (report.verdict, report.exit_status) == ("interrupted", 130)
    # the record of an interrupted run compares what it checked
    golden = records.record(collection.check(found, ["dlx", "cpsat"]))
    assert records.drifts(golden, report) == [
        records.Drift("queens 4", "status", "agree", "interrupted")]
