"""Cards as small integers, with their eval7 counterparts for hand ranking."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import eval7

__all__ = [
    "RANKS",
    "SUITS",
    "card_name",
    "eval_cards",
    "evaluate",
    "evaluate_with",
    "full_deck",
    "hand_type",
    "parse_card",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_INDEX = {r + s: i for i, (r, s) in enumerate((r, s) for r in RANKS for s in SUITS)}
_NAMES = list(_INDEX)
_EVAL7 = [eval7.Card(name) for name in _NAMES]


def parse_card(text: str) -> int:
    """Return the index (0..51) of a card written rank+suit, e.g. ``"As"`` or ``"Td"``.

    Raises ValueError for anything else.
    """
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"bad card {text!r}")
    key = text[0].upper() + text[1].lower()
    try:
        return _INDEX[key]
    except KeyError:
        raise ValueError(f"bad card {text!r}") from None


def card_name(card: int) -> str:
    return _NAMES[card]


def full_deck() -> list[int]:
    return list(range(52))


def evaluate(cards: Iterable[int]) -> int:
    """Rank of the best five-card hand among ``cards`` (higher is better), by eval7 (C)."""
    return int(eval7.evaluate([_EVAL7[c] for c in cards]))


def eval_cards(cards: Iterable[int]) -> list[object]:
    """The eval7 objects of some cards (e.g. the board, computed once per hand)."""
    return [_EVAL7[c] for c in cards]


def evaluate_with(hole: tuple[int, ...], board: list[object]) -> int:
    """Rank of ``hole`` with a board prepared by :func:`eval_cards` (five-card draw: an empty
    board, the five cards alone; eval7 ranks five cards as five of seven, A-2-3-4-5 a
    straight)."""
    if len(hole) == 2:
        return int(eval7.evaluate([_EVAL7[hole[0]], _EVAL7[hole[1]], *board]))
    return int(eval7.evaluate([*(_EVAL7[c] for c in hole), *board]))


def hand_type(value: int) -> str:
    """Human name of a hand value, e.g. ``"Two Pair"``."""
    return str(eval7.handtype(value))


def names(cards: Sequence[int]) -> list[str]:
    return [_NAMES[c] for c in cards]
