"""The button and blinds of a casino cash table: no dead button, the button simply moves.

casino cash: « La règle du bouton mort ne s'applique pas en Cash Game. » Before each hand the
button moves to the next player dealt in after the last button: it never stays on an empty
seat, nor on the same player twice in a row while another player is dealt in (the dealt-twice
of a dead button is exactly what the book rules out). The small and the big blind are the
first and second players dealt in after the button, so when a seat empties a player may pass
over a blind (a moving button; shared/specs/session-format.md, "Button movement in casino
cash"). Heads-up the button posts the small blind (cdc 4.4, as everywhere). The fpc cash
section keeps its own rules (fpc 17-2 to 17-4, the profile's ``missing_blind``), so this is
the casino's cash games only. Pure.
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
    # casino cash: « La règle du bouton mort ne s'applique pas en Cash Game »: the button
    # moves to the next player dealt in after the last button, the blinds follow it
    clockwise = [
        s for k in range(1, max_seats + 1) if (s := (last.button - 1 + k) % max_seats + 1) in seats
    ]
    button = clockwise[0]
    if len(seats) == 2:
        return Positions(button=button, sb_slot=button, big_blind=clockwise[1])
    return Positions(button=button, sb_slot=clockwise[1], big_blind=clockwise[2])
