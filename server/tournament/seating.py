"""Where to seat a player arriving at a table, and the random draws (pure).

A table's *reference* positions are those of the hand in progress, or of the last hand played
if it is between hands: the arrival plays from the table's next hand, whose positions the
dead-button rule derives from the reference (:func:`server.engine.positions.next_positions`).

An empty seat is classified by what the arrival's next hand would make of it:

- ``BIG_BLIND``: he is the next big blind (cdc 2.3, tda 10-A: the ideal seat for a move);
- ``LIVE``: dealt in, and the big blind reaches him before the button does (he pays it first);
- ``WAITS``: strictly between the button and the big blind (tda 7, 9: "never between the small
  blind and the button"): the table makes him wait for the button to pass
  (:func:`server.engine.positions.waits_as_newcomer`);
- ``SMALL_BLIND`` / ``BUTTON``: the empty seat of the last big blind / small blind: he would be
  small blind or button before paying a big blind. cdc 2.3 allows it; tda 10-A and ligue
  art. 3 do not for a moved player. Only a last resort. Under fpc 17-3, 17-4 a hand without
  small blind names the next hand's button (its ``sb_slot``): that seat is ``BUTTON`` too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from enum import IntEnum
from typing import Protocol, TypeVar

from server.engine.positions import MissingBlind, Positions, next_positions, waits_as_newcomer

from .rules import SeatRule

__all__ = [
    "Rng",
    "SeatClass",
    "choose_seat",
    "classify",
    "clockwise_after",
    "deal_cards",
    "order_by_card",
    "shuffled",
]

T = TypeVar("T")


class Rng(Protocol):
    """What the director needs from its randomness (``random.Random``, ``SystemRandom``)."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...

    def shuffle(self, x: list[object]) -> None: ...


class SeatClass(IntEnum):
    """Ordered from the best seat for an arrival to the worst."""

    BIG_BLIND = 0
    LIVE = 1
    WAITS = 2
    SMALL_BLIND = 3
    BUTTON = 4


def clockwise_after(seat: int, max_seats: int) -> list[int]:
    """All seats clockwise, starting with the one after ``seat`` and ending with ``seat``."""
    return [(seat - 1 + k) % max_seats + 1 for k in range(1, max_seats + 1)]


def classify(
    seat: int,
    ref: Positions | None,
    occupied: Collection[int],
    max_seats: int,
    *,
    missing_blind: MissingBlind = MissingBlind.DEAD_BUTTON,
) -> SeatClass:
    """What the next hand makes of a newcomer at empty ``seat`` (see the module docstring),
    the positions moving by the profile's ``missing_blind`` rule. Under fpc 17-3, 17-4 the
    next button depends on whether a blind of the reference hand busts (the dealer deals
    again): the worst class over those outcomes."""
    if ref is None or len(occupied) < 1:
        return SeatClass.LIVE  # the table has not dealt yet: its first button is drawn
    players = [*occupied, seat]
    if missing_blind is MissingBlind.DEAD_BUTTON:
        return _class_at(seat, next_positions(ref, players, max_seats), max_seats)
    blinds = [s for s in (ref.sb_slot, ref.big_blind) if s in occupied]
    if not ref.small_blind:
        blinds = [s for s in blinds if s != ref.sb_slot]
    outcomes = [[], *([b] for b in blinds), blinds]
    return max(
        _class_at(
            seat, next_positions(ref, left, max_seats, missing_blind=missing_blind), max_seats
        )
        for gone in outcomes
        if len(left := [s for s in players if s not in gone]) >= 2
    )


def _class_at(seat: int, nxt: Positions, max_seats: int) -> SeatClass:
    if seat == nxt.big_blind:
        return SeatClass.BIG_BLIND
    if seat == nxt.button or (seat == nxt.sb_slot and not nxt.small_blind):
        return SeatClass.BUTTON  # fpc 17-3, 17-4: a hand without SB names the next button
    if seat == nxt.sb_slot:
        return SeatClass.SMALL_BLIND
    if waits_as_newcomer(seat, nxt, max_seats):
        return SeatClass.WAITS
    return SeatClass.LIVE


def choose_seat(
    rule: SeatRule,
    ref: Positions | None,
    occupied: Collection[int],
    max_seats: int,
    rng: Rng,
    *,
    missing_blind: MissingBlind = MissingBlind.DEAD_BUTTON,
) -> int | None:
    """The seat for one arrival under ``rule``; None if the table is full.

    ``NEXT_BIG_BLIND`` (cdc 2.3, tda 10-A, ligue art. 3): the first seat clockwise after the
    reference big blind where he is dealt in, i.e. where the big blind reaches him soonest.
    ``AFTER_BUTTON`` (ligue 6.22): the first such seat after the button. ``RANDOM`` (tda 7, 9):
    a random one, avoiding also the seats between the button and the small blind of the hand
    in progress (the letter of tda 7). Worse classes are used only when no better seat is
    empty; the caller then tells the table to hold the arrival until the button has passed.
    """
    empty = [s for s in range(1, max_seats + 1) if s not in occupied]
    if not empty:
        return None
    classes = {s: classify(s, ref, occupied, max_seats, missing_blind=missing_blind) for s in empty}
    best = min(max(c, SeatClass.LIVE) for c in classes.values())
    good = [s for s in empty if max(classes[s], SeatClass.LIVE) == best]
    if rule is SeatRule.RANDOM and ref is not None:
        # tda 7, 9, read literally: not between the small blind and the button of the hand in
        # progress either (with a dead button such a seat is dealt in behind the next button)
        literal = [s for s in good if not _strictly_between(s, ref.button, ref.sb_slot, max_seats)]
        good = literal or good
    if rule is SeatRule.RANDOM or ref is None:
        return good[rng.randrange(len(good))]
    start = ref.big_blind if rule is SeatRule.NEXT_BIG_BLIND else ref.button
    chosen = set(good)
    return next(s for s in clockwise_after(start, max_seats) if s in chosen)


def _strictly_between(seat: int, start: int, stop: int, max_seats: int) -> bool:
    return 0 < (seat - start) % max_seats < (stop - start) % max_seats


def shuffled(items: Iterable[T], rng: Rng) -> list[T]:
    out = list(items)
    rng.shuffle(out)  # type: ignore[arg-type]
    return out


def deal_cards(count: int, rng: Rng) -> list[int]:
    """``count`` cards (0..51, rank-major, suits c<d<h<s) from freshly shuffled decks; more
    than 52 uses several decks. The index order is the chip race order: rank, then
    spades > hearts > diamonds > clubs (cdc 3.2, tda 23-A)."""
    cards: list[int] = []
    while len(cards) < count:
        cards.extend(shuffled(range(52), rng))
    return cards[:count]


def order_by_card(players: Sequence[str], cards: Sequence[int], rng: Rng) -> list[str]:
    """Players sorted by their card, highest first; identical cards (several decks) redrawn."""
    keyed = [(cards[i], rng.randrange(1 << 30), p) for i, p in enumerate(players)]
    keyed.sort(reverse=True)
    return [p for _, _, p in keyed]
