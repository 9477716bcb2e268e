"""Button and blinds from one hand to the next: the dead-button rule (pure).

tda 31: "the big blind always advances; the small blind and the button adjust". With seats
as positions (empty seats included), from hand h to h+1:

- big blind: the first seat after the last big blind holding a player who is dealt in;
- small blind slot: the last big blind's seat — a small blind is posted only if someone
  dealt in sits there (cdc 4.3: the SB busted or moved means no SB, "dead small blind");
- button: the last small blind slot, even if empty (cdc 4.3: "bouton mort").

Heads-up (cdc 4.4, tda 33): the big blind still advances, and the other player takes the
button and posts the small blind, so nobody pays the big blind twice in a row.

Newcomers (cdc 2.3, tda 7, casino): a player dealt in for the first time at this table waits
while their seat is strictly between the button and the big blind — except at the small blind
slot, which is the last big blind's seat (cdc 2.3: he may then play and post the SB).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Positions", "first_positions", "next_positions", "waits_as_newcomer"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Positions:
    button: int
    """Seat of the button (may be an empty seat: dead button)."""
    sb_slot: int
    """Seat of the small blind slot (a SB is posted only if a player dealt in sits there)."""
    big_blind: int


def _after(seat: int, seats: Iterable[int], max_seats: int) -> list[int]:
    """Seats from ``seats`` in clockwise order, starting with the first one after ``seat``."""
    chosen = set(seats)
    return [s for k in range(1, max_seats + 1) if (s := (seat - 1 + k) % max_seats + 1) in chosen]


def first_positions(button: int, players: Iterable[int], max_seats: int) -> Positions:
    """The first hand: the button is drawn (cdc 2.1); SB and BB are the next two players.
    Heads-up the button posts the small blind (cdc 4.4)."""
    seats = sorted(set(players))
    if len(seats) < 2:
        raise ValueError("two players are needed")
    if button not in seats:
        raise ValueError("the first button must be a player")
    order = _after(button, seats, max_seats)
    if len(seats) == 2:
        return Positions(button=button, sb_slot=button, big_blind=order[0])
    return Positions(button=button, sb_slot=order[0], big_blind=order[1])


def next_positions(last: Positions, players: Iterable[int], max_seats: int) -> Positions:
    """Positions of the next hand given the seats of the players dealt in (dead button)."""
    seats = sorted(set(players))
    if len(seats) < 2:
        raise ValueError("two players are needed")
    big_blind = _after(last.big_blind, seats, max_seats)[0]
    if len(seats) == 2:
        other = next(s for s in seats if s != big_blind)
        return Positions(button=other, sb_slot=other, big_blind=big_blind)
    sb_slot = last.big_blind
    button = last.sb_slot
    if last.sb_slot == last.button:
        # leaving heads-up (a player joined): the button goes to the seat before the SB slot
        button = (sb_slot - 2) % max_seats + 1
    return Positions(button=button, sb_slot=sb_slot, big_blind=big_blind)


def waits_as_newcomer(seat: int, positions: Positions, max_seats: int) -> bool:
    """True if a player new to the table must wait for the button to pass (tda 7)."""
    if seat in (positions.sb_slot, positions.button, positions.big_blind):
        return False
    between = []
    for k in range(1, max_seats):
        s = (positions.button - 1 + k) % max_seats + 1
        if s == positions.big_blind:
            break
        between.append(s)
    return seat in between
