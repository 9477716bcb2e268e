"""Button and blinds from one hand to the next (pure).

Two rules, chosen by the profile's ``missing_blind`` (:class:`MissingBlind`).

**Dead button** (``DEAD_BUTTON``: cdc 4.3, tda 31, ligue, casino). tda 31: "the big blind
always advances; the small blind and the button adjust". With seats as positions (empty seats
included), from hand h to h+1:

- big blind: the first seat after the last big blind holding a player who is dealt in;
- small blind slot: the last big blind's seat — a small blind is posted only if someone
  dealt in sits there (cdc 4.3: the SB busted or moved means no SB, "dead small blind");
- button: the last small blind slot, even if empty (cdc 4.3: "bouton mort").

**Same dealer** (``SAME_DEALER``: fpc 17-3, 17-4). fpc 17-3: "Si le joueur petite blind est
déplacé par le logiciel ou vient d'être éliminé, il n'y en a pas et le donneur distribue deux
fois, personne ne paie la petite blind." fpc 17-4: "Si le joueur grosse blind est déplacé par
le logiciel ou vient d'être éliminé, le joueur en position dite « UTG » ou Grosse Blind +1
paye la grosse blind et deviendra petite blind le coup suivant. Le donneur distribue deux fois
de suite." So when the player who posted the small blind or the big blind at the last hand is
gone (busted or moved; both gone alike):

- the button stays where it was (the same dealer deals twice);
- nobody posts a small blind (``small_blind`` False), even if a player sits between the button
  and the big blind;
- the big blind advances to the first player after the last big blind (17-4: UTG);
- ``sb_slot`` names the player who takes the button at the next hand: the player of the last
  hand just before the new big blind (the last big blind, else the last small blind, else the
  dealer). A newcomer seated in between since is never chosen: the button must not reach him
  before the big blind does (cdc 2.3, fpc 17-2).

At the next hand play resumes: the last big blind posts the small blind ("deviendra petite
blind le coup suivant"), the big blind advances, and the button goes to the player just before
the small blind, ``sb_slot`` of the hand without small blind (if he has left since, the dealer
before him; if he has left too, the button is dead on the empty seat). Otherwise the hands
follow the dead-button rule, whose button is then a player.

Heads-up, both rules (cdc 4.4, tda 33, fpc 5-14, 5-15): the big blind still advances, and the
other player takes the button and posts the small blind, so nobody pays the big blind twice
in a row.

Newcomers, by the profile's ``newcomer`` rule (:class:`Newcomer`, :func:`newcomer_waits`):

- ``BLINDS_ADVANCE`` (cdc 2.3, tda 7, fpc 17-2, casino): a player dealt in for the first time
  at this table waits while their seat is strictly between the button and the big blind —
  except at the small blind slot when a small blind is posted there, which is the last big
  blind's seat (cdc 2.3: he may then play and post the SB), and on the button (cdc 2.3: « un
  joueur arrivant a une place précédemment occupée par le joueur de petite blinde [...] peut
  jouer immédiatement au bouton »).
- ``BUTTON_PASSES`` (ligue art. 3): he waits from the button up to the big blind: « il ne
  peut pas prendre la position de Brasseur. Il doit attendre le prochain jeu. Si la seule
  position disponible est le Small Blind, le joueur attendra au prochain tour », « La seule
  position où un joueur devra attendre la main suivante est la position SB ». The button and
  the blinds are then those of the hand without him (art. 2): a dead button on his seat, or
  no small blind (art. 2.1 « il y aura absence de SB pour cette donne »). At the big blind he
  plays (« il devra assumer sa position BB »). A tournament arrival the director holds
  (``waits_for_button``: tda 10-A, a moved player never the small blind) waits the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "MissingBlind",
    "Newcomer",
    "Positions",
    "first_positions",
    "newcomer_waits",
    "next_positions",
    "positions_from_list",
    "positions_to_list",
    "waits_as_newcomer",
]


class MissingBlind(StrEnum):
    """What the next hand does when a player who posted a blind is gone (busted, moved)."""

    DEAD_BUTTON = "dead_button"
    """The big blind advances, the small blind and the button follow, possibly onto empty
    seats (cdc 4.3, tda 31)."""
    SAME_DEALER = "same_dealer"
    """The button stays, no small blind, the big blind advances (fpc 17-3, 17-4)."""


class Newcomer(StrEnum):
    """Where a player new to the table (late, moved) waits instead of being dealt in."""

    BLINDS_ADVANCE = "blinds_advance"
    """He plays at once wherever the big blind still advances and nobody loses the button:
    he waits only strictly between the button and the big blind, except at a small blind
    slot where the small blind is posted (cdc 2.3, tda 7, fpc 17-2)."""
    BUTTON_PASSES = "button_passes"
    """He never takes the button nor the small blind: he waits from the button up to the big
    blind (ligue art. 3)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Positions:
    button: int
    """Seat of the button (may be an empty seat: dead button)."""
    sb_slot: int
    """Seat of the small blind slot (a SB is posted only if a player dealt in sits there and
    ``small_blind``). In a hand without small blind (fpc): the next hand's button."""
    big_blind: int
    small_blind: bool = True
    """False: nobody posts the small blind this hand although a player may sit at the small
    blind slot (fpc 17-3, 17-4: a blind's player is gone, the dealer deals twice)."""


def positions_to_list(p: Positions) -> list[int]:
    """``[button, sb_slot, big_blind]``, and a fourth ``0`` for a hand without small blind
    (snapshots and reports: the three-element form of older servers is kept)."""
    out = [p.button, p.sb_slot, p.big_blind]
    return out if p.small_blind else [*out, 0]


def positions_from_list(value: Iterable[Any]) -> Positions:
    """The positions of :func:`positions_to_list` (three or four integers)."""
    items = [int(x) for x in value]
    small_blind = len(items) < 4 or bool(items[3])
    return Positions(button=items[0], sb_slot=items[1], big_blind=items[2], small_blind=small_blind)


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


def next_positions(
    last: Positions,
    players: Iterable[int],
    max_seats: int,
    *,
    missing_blind: MissingBlind = MissingBlind.DEAD_BUTTON,
) -> Positions:
    """Positions of the next hand given the seats of the players dealt in, by the rule
    ``missing_blind`` (the dead button unless told otherwise; see the module docstring)."""
    seats = sorted(set(players))
    if len(seats) < 2:
        raise ValueError("two players are needed")
    big_blind = _after(last.big_blind, seats, max_seats)[0]
    if len(seats) == 2:
        other = next(s for s in seats if s != big_blind)
        return Positions(button=other, sb_slot=other, big_blind=big_blind)
    heads_up = last.small_blind and last.sb_slot == last.button
    if missing_blind is MissingBlind.SAME_DEALER and not heads_up:
        return _same_dealer(last, seats, max_seats, big_blind)
    sb_slot = last.big_blind
    button = last.sb_slot
    if heads_up:
        # leaving heads-up (a player joined): the button goes to the seat before the SB slot
        button = (sb_slot - 2) % max_seats + 1
    return Positions(button=button, sb_slot=sb_slot, big_blind=big_blind)


def _same_dealer(last: Positions, seats: list[int], max_seats: int, big_blind: int) -> Positions:
    """fpc 17-3, 17-4 (three players or more, the last hand not heads-up)."""
    sb_gone = last.small_blind and last.sb_slot not in seats
    if sb_gone or last.big_blind not in seats:
        # the same dealer deals again; nobody posts the small blind; the big blind advances.
        # The next button: the player of the last hand just before the big blind
        following = _first_present((last.big_blind, last.sb_slot, last.button), seats)
        return Positions(
            button=last.button, sb_slot=following, big_blind=big_blind, small_blind=False
        )
    # the last big blind posts the small blind; after a hand without small blind, the player
    # who was just before its big blind takes the button (he left: the one before him)
    candidates = (last.sb_slot,) if last.small_blind else (last.sb_slot, last.button)
    button = _first_present(candidates, seats)
    return Positions(button=button, sb_slot=last.big_blind, big_blind=big_blind)


def _first_present(candidates: tuple[int, ...], seats: list[int]) -> int:
    """The first of ``candidates`` where a player sits, else the last one (an empty seat:
    a dead button, never a newcomer's seat he has not paid for)."""
    return next((s for s in candidates if s in seats), candidates[-1])


def waits_as_newcomer(seat: int, positions: Positions, max_seats: int) -> bool:
    """True if a player new to the table must wait for the button to pass (tda 7)."""
    exempt = {positions.button, positions.big_blind}
    if positions.small_blind:
        exempt.add(positions.sb_slot)
    if seat in exempt:
        return False
    between = []
    for k in range(1, max_seats):
        s = (positions.button - 1 + k) % max_seats + 1
        if s == positions.big_blind:
            break
        between.append(s)
    return seat in between


def newcomer_waits(rule: Newcomer, seat: int, positions: Positions, max_seats: int) -> bool:
    """True if a newcomer at ``seat`` is not dealt in at a hand with these ``positions``
    under ``rule`` (see :class:`Newcomer`); the positions are those of the hand without him."""
    if rule is Newcomer.BUTTON_PASSES:
        # ligue art. 3: from the button (included) to the big blind (excluded)
        offset = (seat - positions.button) % max_seats
        return offset < (positions.big_blind - positions.button) % max_seats
    return waits_as_newcomer(seat, positions, max_seats)
