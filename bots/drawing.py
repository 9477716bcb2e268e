"""Five-card draw for bots: what a simple player keeps and discards, and how strong five
cards are. Pure functions over card names as dealt (``"Ah"``, ``"Td"``).

The draw is the textbook one (keep what makes a hand, draw to the rest): stand pat on a
straight or better, keep trips, two pair or a pair and draw to them, keep four to a flush or
to a straight and draw one, otherwise keep the highest card and draw four.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum

__all__ = ["HandClass", "discards", "hand_class", "pair_rank"]

RANKS = "23456789TJQKA"
"""Card ranks, lowest first."""


class HandClass(IntEnum):
    """The category of five cards, weakest first (standard high hands)."""

    HIGH_CARD = 0
    """No pair."""
    PAIR = 1
    """One pair."""
    TWO_PAIR = 2
    """Two pairs."""
    TRIPS = 3
    """Three of a kind."""
    STRAIGHT = 4
    """Five ranks in a row (the ace plays low in A-2-3-4-5)."""
    FLUSH = 5
    """Five cards of one suit."""
    FULL_HOUSE = 6
    """Three of a kind and a pair."""
    QUADS = 7
    """Four of a kind."""
    STRAIGHT_FLUSH = 8
    """A straight of one suit."""


def _rank(card: str) -> int:
    return RANKS.index(card[0].upper())


def _straight(ranks: set[int]) -> bool:
    """Whether five distinct ranks run in a row (the wheel included)."""
    if len(ranks) != 5:
        return False
    return max(ranks) - min(ranks) == 4 or ranks == {12, 0, 1, 2, 3}


def hand_class(cards: Sequence[str]) -> HandClass:
    """The category of five cards (fewer: pairs and trips only)."""
    counts = sorted(Counter(_rank(c) for c in cards).values(), reverse=True)
    flush = len(cards) == 5 and len({c[1] for c in cards}) == 1
    straight = len(cards) == 5 and _straight({_rank(c) for c in cards})
    if straight and flush:
        return HandClass.STRAIGHT_FLUSH
    if counts[0] == 4:
        return HandClass.QUADS
    if counts[:2] == [3, 2]:
        return HandClass.FULL_HOUSE
    if flush:
        return HandClass.FLUSH
    if straight:
        return HandClass.STRAIGHT
    if counts[0] == 3:
        return HandClass.TRIPS
    if counts[:2] == [2, 2]:
        return HandClass.TWO_PAIR
    return HandClass.PAIR if counts[0] == 2 else HandClass.HIGH_CARD


def pair_rank(cards: Sequence[str]) -> int | None:
    """The rank index of the highest pair (or better) among ``cards`` (None: no pair)."""
    paired = [r for r, n in Counter(_rank(c) for c in cards).items() if n >= 2]
    return max(paired) if paired else None


def _four_to_a_flush(cards: Sequence[str]) -> tuple[str, ...] | None:
    suit, n = Counter(c[1] for c in cards).most_common(1)[0]
    if n != 4:
        return None
    return tuple(c for c in cards if c[1] != suit)


def _four_to_a_straight(cards: Sequence[str]) -> tuple[str, ...] | None:
    """The one card to throw from four ranks within a straight's span, if any."""
    ranks = {_rank(c) for c in cards}
    for low in range(-1, 9):  # -1: the wheel, the ace playing low
        window = {(r % 13) for r in range(low, low + 5)}
        inside = ranks & window
        if len(inside) == 4:
            out = [c for c in cards if _rank(c) not in window]
            if len(out) == 1:
                return tuple(out)
    return None


def discards(cards: Sequence[str]) -> tuple[str, ...]:
    """The cards a simple player throws from his five (``()``: he stands pat)."""
    made = hand_class(cards)
    if made >= HandClass.STRAIGHT:
        return ()
    counts = Counter(_rank(c) for c in cards)
    if made >= HandClass.PAIR:
        # trips, two pair, a pair: keep the matched cards, draw to them
        return tuple(c for c in cards if counts[_rank(c)] == 1)
    draw = _four_to_a_flush(cards) or _four_to_a_straight(cards)
    if draw is not None:
        return draw
    best = max(cards, key=_rank)
    return tuple(c for c in cards if c != best)
