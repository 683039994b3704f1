"""The `dominoes` kind: counts with known values, decoding and printing, and
the kind through csp's command line on the `algx` backend."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from csp_example import dominoes

import csp  # noqa: E402
from csp import InputError, problems  # noqa: E402

HERE = Path(__file__).resolve().parent
BOARDS = HERE.parent / "examples" / "boards.txt"


def board(rows: int, columns: int) -> dominoes.Board:
    [found] = dominoes.parse("\n".join("." * columns for _ in range(rows)))
    return found


@pytest.mark.parametrize("rows,columns,tilings", [
    (2, 2, 2), (3, 4, 11), (4, 4, 36), (6, 6, 6728),  # OEIS A004003 for n x n
    (1, 3, 0), (3, 3, 0),
])
def test_counts(rows: int, columns: int, tilings: int) -> None:
    xc = dominoes.declare(board(rows, columns))
    for backend in ("algx", "dlx"):
        result = csp.count(xc, backend)
        assert (result.count, result.status) == (tilings, csp.Status.COMPLETE), backend


def test_two_by_n_is_fibonacci() -> None:
    fibonacci = [1, 2]
    for n in range(1, 13):
        assert csp.count(dominoes.declare(board(2, n)), "algx").count == fibonacci[n - 1]
        fibonacci.append(fibonacci[-1] + fibonacci[-2])


def test_every_tiling_is_checked_and_printed() -> None:
    b = board(3, 4)
    xc = dominoes.declare(b)
    drawings = set()
    for solution in csp.solutions(xc, "algx"):
        assert xc.check(solution) == []
        answer = dominoes.decode(b, solution, xc)
        assert sorted(cell for domino in answer for cell in domino) == sorted(b.free)
        drawing = dominoes.format(b, answer)
        assert all(drawing.count(letter) == 2 for letter in "abcdef")
        drawings.add(drawing)
    assert len(drawings) == 11


def test_blocked_cells_and_bad_boards() -> None:
    items = list(dominoes.parse("#..#\n....\n\n..\n.x\n\n...\n..\n"))
    good, bad_char, ragged = items
    assert csp.count(dominoes.declare(good), "algx").count == 1  # one way round the notch
    assert isinstance(bad_char, InputError) and bad_char.line == 5
    assert isinstance(ragged, InputError) and "first row" in str(ragged) and ragged.line == 8
    [blocked] = dominoes.parse("##\n")
    with pytest.raises(InputError, match="no free cell"):
        dominoes.declare(blocked)


def test_the_kind_is_found_by_its_entry_point() -> None:
    assert problems.get("dominoes") is dominoes.KIND
    assert "dominoes" in problems.names() and "dominoes" not in problems.broken()
    assert "algx" in csp.backends.available()


def csp_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "csp.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_csp_solve_counts_on_algx() -> None:
    done = csp_command("solve", "dominoes", str(BOARDS), "--backend", "algx", "--count")
    # The last board has no tiling: exit status 1 ("no solution"), after every count.
    assert done.returncode == 1, done.stderr
    counts = [int(word) for line in done.stdout.splitlines() for word in line.split()
              if word.isdigit()]
    assert counts[:4] == [2, 11, 36, 0], done.stdout


def test_csp_solve_prints_a_tiling() -> None:
    done = csp_command("solve", "dominoes", str(BOARDS), "--backend", "algx")
    assert done.returncode == 1, done.stderr  # the last board has no tiling
    assert "aa\nbb" in done.stdout or "ab\nab" in done.stdout, done.stdout
    assert done.stdout.rstrip().endswith("no solution"), done.stdout


def test_csp_crosscheck_agrees_with_dlx(tmp_path: Path) -> None:
    xc = dominoes.declare(board(4, 4))
    path = tmp_path / "dominoes4.xc"
    xc.write(path)
    done = csp_command("crosscheck", str(path), "--backends", "algx,dlx")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all backends agree: 36 solutions" in done.stdout
    report = csp.crosscheck(xc, backends=["algx", "dlx"])
    assert report.agree, str(report)
