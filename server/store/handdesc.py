"""Hand descriptions in PokerStars wording ("a pair of Aces", "a straight, Ten to Ace").

Pure Python over card strings (``"Ah"``, ``"Td"``): the best five of up to seven cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

__all__ = ["describe_hand"]

_RANKS = "23456789TJQKA"
_NAMES = [
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
]
_PLURALS = [n + "s" for n in _NAMES]
_PLURALS[4] = "Sixes"

_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _STRAIGHT_FLUSH = range(9)

Score = tuple[int, tuple[int, ...]]


def _parse(card: str) -> tuple[int, str]:
    rank, suit = card[:-1].upper(), card[-1:].lower()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in _RANKS or suit not in ("c", "d", "h", "s"):
        raise ValueError(f"bad card {card!r}")
    return _RANKS.index(rank), suit


def _score(cards: Sequence[tuple[int, str]]) -> Score:
    """(category, tie-break ranks) of exactly five (rank, suit) cards."""
    ranks = sorted((r for r, _ in cards), reverse=True)
    flush = len({s for _, s in cards}) == 1
    top = _straight_top(sorted(set(ranks), reverse=True))
    if top is not None:
        return (_STRAIGHT_FLUSH if flush else _STRAIGHT, (top,))
    if flush:
        return (_FLUSH, tuple(ranks))
    return _grouped(ranks)


def _straight_top(unique: list[int]) -> int | None:
    """The top rank of a straight of five distinct ranks (high first), or None."""
    if len(unique) == 5:
        if unique[0] - unique[4] == 4:
            return unique[0]
        if unique == [12, 3, 2, 1, 0]:  # the wheel, Ace to Five
            return 3
    return None


def _grouped(ranks: list[int]) -> Score:
    """The score of five ranks that make no straight and no flush: pairs, trips, quads."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = tuple(r for r, _ in groups)
    shape = [c for _, c in groups]
    if shape[0] == 4:
        return (_QUADS, order)
    if shape[:2] == [3, 2]:
        return (_FULL, order)
    if shape[0] == 3:
        return (_TRIPS, order)
    if shape[:2] == [2, 2]:
        return (_TWO_PAIR, order)
    if shape[0] == 2:
        return (_PAIR, order)
    return (_HIGH, order)


def describe_hand(cards: Sequence[str]) -> str:
    """PokerStars description of the best five-card hand among ``cards`` (5 to 7 cards);
    with fewer than five cards, the pair or high card they make.

    Raises ValueError on a malformed card.
    """
    parsed = [_parse(c) for c in cards]
    if not parsed:
        raise ValueError("no cards")
    if len(parsed) < 5:
        counts = Counter(r for r, _ in parsed)
        best = max(counts, key=lambda r: (counts[r], r))
        return f"a pair of {_PLURALS[best]}" if counts[best] >= 2 else f"high card {_NAMES[best]}"
    category, ranks = max(_score(five) for five in combinations(parsed, 5))
    return _DESCRIPTIONS[category](ranks)


def _straight_words(top: int) -> str:
    """``Ten to Ace``, ``Ace to Five``."""
    return f"{_NAMES[top - 4] if top != 3 else 'Ace'} to {_NAMES[top]}"


def _straight_flush(ranks: tuple[int, ...]) -> str:
    if ranks[0] == 12:
        return "a Royal Flush"
    return f"a straight flush, {_straight_words(ranks[0])}"


_DESCRIPTIONS: dict[int, Callable[[tuple[int, ...]], str]] = {
    _STRAIGHT_FLUSH: _straight_flush,
    _QUADS: lambda r: f"four of a kind, {_PLURALS[r[0]]}",
    _FULL: lambda r: f"a full house, {_PLURALS[r[0]]} full of {_PLURALS[r[1]]}",
    _FLUSH: lambda r: f"a flush, {_NAMES[r[0]]} high",
    _STRAIGHT: lambda r: f"a straight, {_straight_words(r[0])}",
    _TRIPS: lambda r: f"three of a kind, {_PLURALS[r[0]]}",
    _TWO_PAIR: lambda r: f"two pair, {_PLURALS[r[0]]} and {_PLURALS[r[1]]}",
    _PAIR: lambda r: f"a pair of {_PLURALS[r[0]]}",
    _HIGH: lambda r: f"high card {_NAMES[r[0]]}",
}
"""The words of each category, from its tie-break ranks (the highest first)."""
