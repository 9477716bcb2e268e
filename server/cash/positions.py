"""The button and blinds of a casino cash table: no dead button, they simply move.

casino cash: « La règle du bouton mort ne s'applique pas en Cash Game. » The big blind
advances to the next player dealt in after the last big blind (as in every game: nobody
pays it twice in a row, nobody is skipped); the small blind is the player dealt in just
before it and the button the one before him, so the button is always on a player (no dead
button, no dead small blind): when a blind's player is gone the dealer may deal twice,
and a player coming back between the button and the big blind does not make anyone pay
again. Heads-up the button posts the small blind (cdc 4.4, as everywhere). The fpc cash
section keeps its own rules (fpc 17-2 to 17-4, the profile's ``missing_blind``), so this
is the casino's cash games only. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.engine.positions import Positions, first_positions

__all__ = ["moving_positions"]


def moving_positions(
    last: Positions | None, players: Iterable[int], max_seats: int, first: int
) -> Positions:
    """The positions of the next hand among ``players`` (the seats dealt in); ``first`` is
    the button of the table's first hand (``last`` is None)."""
    seats = sorted(set(players))
    if len(seats) < 2:
        raise ValueError("two players are needed")
    if last is None:
        return first_positions(first if first in seats else seats[0], seats, max_seats)
    clockwise = [
        s
        for k in range(1, max_seats + 1)
        if (s := (last.big_blind - 1 + k) % max_seats + 1) in seats
    ]
    big_blind = clockwise[0]
    if len(seats) == 2:
        return Positions(button=clockwise[1], sb_slot=clockwise[1], big_blind=big_blind)
    return Positions(button=clockwise[-2], sb_slot=clockwise[-1], big_blind=big_blind)
