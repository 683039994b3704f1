"""Reading the grid layout of janko.at's puzzles, as the puzzlekit dataset
(SmilingWayne/PuzzleSolver, 80 kinds) transcribes them: a puzzle is a block
of lines (blocks separated by blank lines; `#` lines are comments), its
first line a few whole numbers (the rows and columns, and for some kinds
one more), then lines of cells separated by spaces. A kind reads the cells.

>>> [block] = blocks("2 3 1\\na a b\\nc c b\\n", "star battle", ("rows", "columns", "stars"))
>>> block.header, block.cells
((2, 3, 1), [['a', 'a', 'b'], ['c', 'c', 'b']])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from csp.errors import InputError
from csp.problems import paragraphs
from csp.problems._numbers import check_size, natural

MAX_SIDE = 100
"""The largest number of rows or columns read: janko.at's largest grids have 40."""


@dataclass
class Block:
    line: int
    header: tuple[int, ...]
    cells: list[list[str]]
    lines: list[int]
    """The line number of each row of `cells`."""

    def row(self, k: int, width: int, what: str) -> list[str]:
        """Row `k` of the cells, refused unless it has `width` of them."""
        if len(self.cells[k]) != width:
            raise InputError(f"{what} of the puzzle of line {self.line} has "
                             f"{len(self.cells[k])} cells, not {width}", line=self.lines[k],
                             token=" ".join(self.cells[k]))
        return self.cells[k]


def blocks(text: str, kind: str, header: tuple[str, ...]) -> Iterator[Block | InputError]:
    """Each block of `text`: its header's numbers (named by `header`) and its
    rows of cells; or the `InputError` of a block whose header is bad."""
    for block in paragraphs(text):
        (first, line), rows = block[0], block[1:]
        tokens = line.split()
        if len(tokens) != len(header):
            yield InputError(f"a {kind} starts with a line of {len(header)} numbers "
                             f"({', '.join(header)}); found {line!r}", line=first, token=line)
            continue
        try:
            values = tuple(natural(t, name) for t, name in zip(tokens, header))
            for value, name in zip(values[:2], header):
                check_size(value, MAX_SIDE, f"the number of {name}")
        except InputError as err:
            yield err.located(line=first)
            continue
        yield Block(first, values, [row.split() for _, row in rows], [n for n, _ in rows])


def expect_rows(block: Block, count: int, kind: str) -> None:
    """Refuse a block without exactly `count` rows of cells after its header."""
    if len(block.cells) != count:
        raise InputError(f"the {kind} of line {block.line} has {len(block.cells)} lines after "
                         f"its first, not {count}", line=block.line)


__all__ = ["Block", "blocks", "expect_rows"]
