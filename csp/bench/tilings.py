"""Tilings with any number of copies of each tile, as exact covers: the
instances on which memoized counting pays (see `docs/how-to/memo.md`), with their
closed forms where the field has one.

An item per cell, an option per placement of a tile (every rotation); cells
are named "r,c" and listed in row-major order, so that `branch="first"`
sweeps the region row by row.

>>> dominoes(2, 3).n_options, domino_tilings(8, 8), aztec_tilings(3)
(7, 12988816, 64)
>>> len(aztec(2))
12
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal, localcontext

from csp import grid
from csp.exactcover import ExactCover

Cell = tuple[int, int]

DOMINO = ((0, 0), (0, 1))
I_TROMINO = ((0, 0), (0, 1), (0, 2))
L_TROMINO = ((0, 0), (1, 0), (1, 1))


def rectangle(m: int, n: int) -> list[Cell]:
    return [(r, c) for r in range(m) for c in range(n)]


def aztec(order: int) -> list[Cell]:
    """The Aztec diamond of `order`: the unit squares inside |x| + |y| <= order + 1."""
    return [(r, c) for r in range(-order, order) for c in range(-order, order)
            if abs(2 * r + 1) + abs(2 * c + 1) <= 2 * order]


def tiling(cells: Iterable[Cell], tiles: Sequence[Sequence[Cell]], *,
           name: str = "tiling") -> ExactCover:
    """Cover `cells` with copies of `tiles` (each in every rotation)."""
    region = sorted(cells)
    xc = ExactCover([_name(cell) for cell in region], name=name)
    seen: set[tuple[Cell, ...]] = set()
    for tile in tiles:
        for placed in grid.placements(tile, region):
            key = tuple(sorted((r, c) for r, c in placed))
            if key not in seen:
                seen.add(key)
                xc.add_option([_name(cell) for cell in key])
    return xc


def dominoes(m: int, n: int) -> ExactCover:
    return tiling(rectangle(m, n), [DOMINO], name=f"dominoes {m}x{n}")


def trominoes(m: int, n: int) -> ExactCover:
    """I and L trominoes (every rotation) on an m x n board."""
    return tiling(rectangle(m, n), [I_TROMINO, L_TROMINO], name=f"trominoes {m}x{n}")


def aztec_dominoes(order: int) -> ExactCover:
    return tiling(aztec(order), [DOMINO], name=f"aztec diamond {order}")


def side_coloured_dominoes(m: int, n: int, colours: str = "rb") -> ExactCover:
    """Domino tilings of an m x n board, each domino of one of `colours`, with
    dominoes side by side (across a vertical edge) of the same colour: a
    secondary item per vertical inner edge, which the dominoes on both sides
    colour with their own. A tiling counts len(colours) ** (its classes of
    side-by-side dominoes): the colours of the purified edges decide what is
    left, so a memo whose key forgets them miscounts."""
    edges = [f"h{r},{c}" for r in range(m) for c in range(n - 1)]
    xc = ExactCover([_name(cell) for cell in rectangle(m, n)], edges,
                    name=f"side-coloured dominoes {m}x{n}")
    for placed in grid.placements(DOMINO, rectangle(m, n)):
        a, b = sorted((r, c) for r, c in placed)
        sides = [f"h{r},{c + d}" for r, c in (a, b) for d in (-1, 0)
                 if 0 <= c + d < n - 1 and (r, c + 2 * d + 1) not in (a, b)]
        for colour in colours:
            xc.add_option([_name(a), _name(b), *((edge, colour) for edge in sides)])
    return xc


def domino_tilings(m: int, n: int) -> int:
    """Kasteleyn's and Temperley and Fisher's product for the domino tilings
    of an m x n board, evaluated with 80 digits and rounded:
    prod over j <= ceil(m/2), k <= ceil(n/2) of 4 cos^2(pi j/(m+1)) + 4 cos^2(pi k/(n+1))."""
    if m * n % 2:
        return 0
    with localcontext() as context:
        context.prec = 80
        pi = _pi()
        product = Decimal(1)
        for j in range(1, (m + 1) // 2 + 1):
            for k in range(1, (n + 1) // 2 + 1):
                a, b = _cos(pi * j / (m + 1)), _cos(pi * k / (n + 1))
                product *= 4 * a * a + 4 * b * b
        return int(product.to_integral_value())


def aztec_tilings(order: int) -> int:
    """Elkies, Kuperberg, Larsen and Propp: 2 ** (order (order + 1) / 2)."""
    return 2 ** (order * (order + 1) // 2)


def _name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _pi() -> Decimal:
    # The recipe of the decimal module's documentation.
    with localcontext() as context:
        context.prec += 2
        three = Decimal(3)
        lasts, t, s, n, na, d, da = Decimal(0), three, three, 1, 0, 0, 24
        while s != lasts:
            lasts = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
    return +s


def _cos(x: Decimal) -> Decimal:
    # The recipe of the decimal module's documentation (its Taylor series).
    with localcontext() as context:
        context.prec += 2
        i, lasts, s, fact, num, sign = 0, Decimal(0), Decimal(1), 1, Decimal(1), 1
        while s != lasts:
            lasts = s
            i += 2
            fact *= i * (i - 1)
            num *= x * x
            sign *= -1
            s += num / fact * sign
    return +s


__all__ = ["DOMINO", "I_TROMINO", "L_TROMINO", "aztec", "aztec_dominoes", "aztec_tilings",
           "domino_tilings", "dominoes", "rectangle", "side_coloured_dominoes", "tiling",
           "trominoes"]
