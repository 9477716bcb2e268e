"""The PokerStars text of a five-card draw hand (fpc « LE FIVE-CARD DRAW », issue 31).

:mod:`.export` writes a hold'em hand; for a record with ``"game": "draw"`` it takes from here
what the five-card-draw layout writes differently (docs/protocol.md, "Hand histories")::

    PokerStars Hand #N:  5 Card Draw No Limit (50/100) - <date>    (Pot Limit: "5 Card Draw
    ...                                                             Pot Limit")
    *** DEALING HANDS ***
    Dealt to ana [2c 3d 4h 9s Kd]           (the hero's five cards as dealt)
    ...the first betting round...
    *** FIRST DRAW ***
    bob: stands pat
    cid: discards 3 cards                   (another player: how many, as everyone saw)
    ana: discards 2 cards and draws [5s 6c] (the hero: the cards he was dealt)
    Dealt to ana [2c 3d 4h] [5s 6c]         (his hand after the draw: kept, then drawn)
    ...the betting round after the draw, the show down and the summary as in hold'em,
    ``folded before the Draw`` / ``folded after the Draw``.

The count of each draw is the record's ``draws`` (the slots of the discards: public); the
hero's own cards come from his export only (``hole``: the five dealt, and ``drawn``:
``{seat: {"discarded": [...], "received": [...]}}``, or, when he showed his hand, what his
five cards dealt and his five shown differ by). Nobody else's discards are ever written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

__all__ = ["DRAW_STREETS", "draw_lines", "fold_text", "game_name", "is_draw"]

DRAW_STREETS: Final = ("preflop", "draw")
"""The betting rounds of a draw record's actions: before the draw, after it."""


def is_draw(record: Mapping[str, Any]) -> bool:
    return record.get("game") == "draw"


def game_name(record: Mapping[str, Any]) -> str:
    """``Hold'em No Limit`` (a record without ``game`` or ``structure``), ``5 Card Draw No
    Limit``, ``5 Card Draw Pot Limit``."""
    limit = "Pot Limit" if record.get("structure") == "pot_limit" else "No Limit"
    return f"5 Card Draw {limit}" if is_draw(record) else f"Hold'em {limit}"


def fold_text(street: str) -> str:
    """The summary of a seat that folded on ``street`` (``preflop`` or ``draw``)."""
    return " folded before the Draw" if street == "preflop" else " folded after the Draw"


def _cards(cards: Iterable[str]) -> str:
    return " ".join(cards)


def _plural(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _hero_draw(
    record: Mapping[str, Any],
    *,
    seat: int,
    dealt: list[str] | None,
    shown: list[str] | None,
    card: Callable[[object], str],
) -> tuple[list[str], list[str]] | None:
    """The hero's discarded and received cards, if his export knows them."""
    drawn = (record.get("drawn") or {}).get(str(seat))
    if isinstance(drawn, Mapping):
        return [card(c) for c in drawn.get("discarded") or []], [
            card(c) for c in drawn.get("received") or []
        ]
    if dealt and shown:
        return [c for c in dealt if c not in shown], [c for c in shown if c not in dealt]
    return None


def draw_lines(
    record: Mapping[str, Any],
    *,
    name: Callable[[int], str],
    hero_seat: int | None,
    dealt: list[str] | None,
    shown: list[str] | None,
    card: Callable[[object], str],
) -> list[str]:
    """``*** FIRST DRAW ***`` and a line per draw, in turn; the hero's with his cards when
    his export knows them (``dealt``: his five as dealt, ``shown``: as shown). Empty when
    nobody drew (everyone but one folded before the draw)."""
    draws = record.get("draws") or []
    if not draws:
        return []
    lines = ["*** FIRST DRAW ***"]
    for entry in draws:
        seat = int(entry["seat"])
        count = len(entry.get("discarded") or [])
        if count == 0:
            lines.append(f"{name(seat)}: stands pat")
            continue
        mine = None
        if seat == hero_seat:
            mine = _hero_draw(record, seat=seat, dealt=dealt, shown=shown, card=card)
        if mine is None or len(mine[0]) != count or len(mine[1]) != count:
            lines.append(f"{name(seat)}: discards {_plural(count)}")
            continue
        discarded, received = mine
        lines.append(f"{name(seat)}: discards {_plural(count)} and draws [{_cards(received)}]")
        if dealt:
            kept = [c for c in dealt if c not in discarded]
            lines.append(f"Dealt to {name(seat)} [{_cards(kept)}] [{_cards(received)}]")
    return lines
