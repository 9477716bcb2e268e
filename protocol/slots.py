"""Where each card of a hold'em deal comes from: its slot in the deal, its deck position once
cut (the construction of :mod:`protocol.verify`, which re-exports these names)."""

from __future__ import annotations

from typing import Final

__all__ = ["DECK_SIZE", "MAX_PLAYERS", "board_slots", "burn_slots", "deck_position", "hole_slots"]

DECK_SIZE: Final = 52
MAX_PLAYERS: Final = (DECK_SIZE - 8) // 2
"""Most players a hold'em deal fits: two cards each, then three burns and five board cards."""


def deck_position(cut: int, slot: int) -> int:
    """The deck position dealt at ``slot`` once ``cut`` is applied: ``(cut + slot) % 52``."""
    return (cut + slot) % DECK_SIZE


def _check_players(players: int) -> None:
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"a hold'em deal needs 2..{MAX_PLAYERS} players, not {players}")


def hole_slots(players: int) -> list[tuple[int, int]]:
    """Slots of each player's hole cards, first player = first left of the button.

    Cards go one at a time around the table, twice. Raises ValueError for fewer than two or
    more than :data:`MAX_PLAYERS` players.
    """
    _check_players(players)
    return [(i, players + i) for i in range(players)]


def burn_slots(players: int) -> tuple[int, int, int]:
    """Slots of the burn cards before the flop, the turn and the river (never opened)."""
    _check_players(players)
    base = 2 * players
    return (base, base + 4, base + 6)


def board_slots(players: int) -> tuple[int, int, int, int, int]:
    """Slots of the board cards: flop (three), turn, river."""
    _check_players(players)
    base = 2 * players
    return (base + 1, base + 2, base + 3, base + 5, base + 7)
