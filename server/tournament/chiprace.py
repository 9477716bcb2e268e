"""Colour-up and chip race at one table (cdc 3.2, tda 23, casino, ligue 6.25, fpc 21), pure.

Stacks are amounts; when the chips of value ``removed`` leave play, a stack is exchanged
exactly for the next denomination ``new`` as far as it goes; what is left (``stack % new``,
in chips of ``removed``) are the player's *odd chips*. Then, by profile:

- ``half_up`` (cdc 3.2) / ``up`` (casino): the table's odd chips are worth
  ``round(total / new)`` new chips (from 50 %) or the total rounded up; each player with odd
  chips receives one card per odd chip, dealt from seat 1; the best cards (rank, then
  spades > hearts > diamonds > clubs) win one new chip each, one at most per player;
- ``player_up`` (ligue 6.25, fpc 21-2): no race; every player with odd chips gets a new chip.

Nobody is eliminated by the race: under ``extra_chip`` (cdc 3.2, tda 23-A) a player who lost
his last chip gets one chip of the smallest value still in play on top; under ``first_chip``
(casino) a player left without chips by the colour-up receives the first new chip before the
draw.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.cards import card_name

from .decisions import ChipRaceLine
from .rules import ChipRaceGuard, ChipRaceRounding
from .seating import Rng, deal_cards, order_by_card

__all__ = ["chip_race"]


def _count(total: int, new: int, rounding: ChipRaceRounding) -> int:
    whole, rest = divmod(total, new)
    if rounding is ChipRaceRounding.UP:
        return whole + (1 if rest else 0)
    return whole + (1 if 2 * rest >= new else 0)  # cdc 3.2: up from 50 %


def chip_race(
    stacks: Sequence[tuple[int, str, int]],
    *,
    removed: int,
    new: int,
    rounding: ChipRaceRounding,
    guard: ChipRaceGuard,
    rng: Rng,
) -> tuple[ChipRaceLine, ...]:
    """Race the ``(seat, player, stack)`` of one table. Returns one line per player, in seat
    order, with the cards shown (the race's cards come from ``rng``)."""
    seated = sorted(stacks)
    odd = {p: (stack % new) // removed for _, p, stack in seated}
    base = {p: stack - stack % new for _, p, stack in seated}
    winners: set[str] = set()
    cards: dict[str, tuple[int, ...]] = {p: () for _, p, _ in seated}
    if rounding is ChipRaceRounding.PLAYER_UP:
        winners = {p for p, n in odd.items() if n}  # ligue 6.25, fpc 21-2
    else:
        count = _count(sum(odd.values()) * removed, new, rounding)
        racers = [p for _, p, _ in seated if odd[p]]
        if guard is ChipRaceGuard.FIRST_CHIP:
            # casino: a player without chips after the colour-up receives the first new chip
            for p in racers:
                if base[p] == 0 and count > 0:
                    winners.add(p)
                    count -= 1
            racers = [p for p in racers if p not in winners]
        # cdc 3.2, tda 23-A: one card per odd chip, from seat 1 onwards
        dealt = deal_cards(sum(odd[p] for p in racers), rng)
        pos = 0
        for p in racers:
            cards[p] = tuple(dealt[pos : pos + odd[p]])
            pos += odd[p]
        best = [max(cards[p]) for p in racers]
        winners.update(order_by_card(racers, best, rng)[: max(count, 0)])
    smallest = new
    lines = []
    for seat, p, stack in seated:
        after = base[p] + (new if p in winners else 0)
        bonus = after == 0  # cdc 3.2, tda 23-A: nobody is raced out
        if bonus:
            after = smallest
        lines.append(
            ChipRaceLine(
                seat=seat,
                player_id=p,
                stack_before=stack,
                odd_chips=odd[p],
                cards=tuple(card_name(c) for c in cards[p]),
                won=p in winners,
                bonus_chip=bonus,
                stack_after=after,
            )
        )
    return tuple(lines)
