"""Hand descriptions in PokerStars wording ("a pair of Aces", "a straight, Ten to Ace").

Pure Python over card strings (``"Ah"``, ``"Td"``): the best five of up to seven cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
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
    unique = sorted(set(ranks), reverse=True)
    top: int | None = None
    if len(unique) == 5:
        if unique[0] - unique[4] == 4:
            top = unique[0]
        elif unique == [12, 3, 2, 1, 0]:  # the wheel, Ace to Five
            top = 3
    if top is not None:
        return (_STRAIGHT_FLUSH if flush else _STRAIGHT, (top,))
    if flush:
        return (_FLUSH, tuple(ranks))
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
    first = ranks[0]
    if category == _STRAIGHT_FLUSH:
        if first == 12:
            return "a Royal Flush"
        return f"a straight flush, {_NAMES[first - 4] if first != 3 else 'Ace'} to {_NAMES[first]}"
    if category == _QUADS:
        return f"four of a kind, {_PLURALS[first]}"
    if category == _FULL:
        return f"a full house, {_PLURALS[first]} full of {_PLURALS[ranks[1]]}"
    if category == _FLUSH:
        return f"a flush, {_NAMES[first]} high"
    if category == _STRAIGHT:
        return f"a straight, {_NAMES[first - 4] if first != 3 else 'Ace'} to {_NAMES[first]}"
    if category == _TRIPS:
        return f"three of a kind, {_PLURALS[first]}"
    if category == _TWO_PAIR:
        return f"two pair, {_PLURALS[first]} and {_PLURALS[ranks[1]]}"
    if category == _PAIR:
        return f"a pair of {_PLURALS[first]}"
    return f"high card {_NAMES[first]}"
