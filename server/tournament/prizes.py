"""Payouts and league points by place (pure).

Ties: players who tie (cdc 1.10, 2.7) occupy a block of places; they share the prizes of the
whole block equally (cdc 2.7: "partage du prizepool du dernier payé"), the indivisible units
going to the first of them in the order given; they all take the best place of the block and
its points.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .config import PointsScheme, PointsSchemeKind

__all__ = ["payout_amounts", "points_by_place", "share_block", "tour_des_potes_points"]


def payout_amounts(pool: int, percents: Sequence[Fraction]) -> tuple[int, ...]:
    """Prizes of places 1..n: ``pool x percent`` rounded down, the remainder to the winner."""
    amounts = [int(pool * p / 100) for p in percents]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return tuple(amounts)


def share_block(amounts: Sequence[int], best_place: int, count: int) -> list[int]:
    """Each tied player's share of the prizes of places ``best_place .. best_place+count-1``."""
    total = sum(amounts[p - 1] for p in range(best_place, best_place + count) if p <= len(amounts))
    each, extra = divmod(total, count)
    return [each + (1 if i < extra else 0) for i in range(count)]


def tour_des_potes_points(entrants: int, final_table_size: int) -> tuple[int, ...]:
    """fpc part B, "Attribution des points": points of places 1..entrants.

    Counting from the first eliminated (place ``entrants``) upwards, each place adds 1 point
    for the first half of the field, 2 from the second half up to the bubble, 3 at the final
    table; podium bonus 1, 3, 6 for 3rd, 2nd, 1st. With 40 entrants and a final table of 9:
    40th 1, 21st 20, 20th 22, 10th 42, 9th 45, 3rd 64, 2nd 69, 1st 75 (the worked example).
    Where the first half reaches into the final table (small fields), the final table's step
    wins (the rulebook does not say).
    """
    points = [0] * (entrants + 1)
    running = 0
    for k, place in enumerate(range(entrants, 0, -1), start=1):
        if place <= final_table_size:
            step = 3
        elif k <= entrants // 2:
            step = 1
        else:
            step = 2
        running += step
        points[place] = running
    for place, bonus in ((3, 1), (2, 3), (1, 6)):
        if place <= entrants:
            points[place] += bonus
    return tuple(points[1:])


def points_by_place(
    scheme: PointsScheme | None, entrants: int, final_table_size: int
) -> tuple[int, ...]:
    """League points of places 1..entrants (zeros without a scheme or a table row)."""
    if scheme is None:
        return (0,) * entrants
    if scheme.kind is PointsSchemeKind.TOUR_DES_POTES:
        return tour_des_potes_points(entrants, final_table_size)
    row = scheme.table.get(entrants, ())
    return tuple(row[i] if i < len(row) else 0 for i in range(entrants))
