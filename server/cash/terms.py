"""The game a cash table deals and its betting structure, as a client names them (issue 31).

A cash table's terms are its :class:`~server.cash.rules.CashRules`; the game (hold'em or
five-card draw) and the structure (no-limit, pot-limit) are two of them. This module reads
them from the wire with stable refusal codes (``cash.game``, ``cash.structure``) and says
when chips may not go from one table to another: fpc « Les caves sont spécifiques à chaque
jeu », so a table change, a balancing or a merge stays within one game. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.cash.book import CashError, Refusal
from server.cash.rules import CashRules
from server.engine.setup import Game, Structure

__all__ = ["GAMES", "STRUCTURES", "Terms", "cash_terms", "game_refusal"]

GAMES = tuple(g.value for g in Game)
"""The games a cash table deals, as named on the wire."""
STRUCTURES = tuple(s.value for s in Structure)
"""The betting structures, as named on the wire."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Terms:
    """A cash table's game and betting structure."""

    game: Game = Game.HOLDEM
    structure: Structure = Structure.NO_LIMIT

    def changes(self) -> dict[str, str]:
        """The :func:`~server.cash.rules.cash_rules` changes that make these terms (none for
        hold'em no-limit: a hold'em table's stored settings stay as they were)."""
        out: dict[str, str] = {}
        if self.game is not Game.HOLDEM:
            out["game"] = self.game.value
        if self.structure is not Structure.NO_LIMIT:
            out["structure"] = self.structure.value
        return out


def cash_terms(game: str = "", structure: str = "") -> Terms:
    """The terms a client names: ``game`` ``holdem`` or ``draw`` (empty: hold'em),
    ``structure`` ``no_limit`` or ``pot_limit`` (empty: no-limit, the fpc's games' and the
    project's default for draw, whose section does not say). Raises :class:`CashError`
    ``cash.game`` or ``cash.structure`` for another value."""
    try:
        chosen = Game(game or Game.HOLDEM.value)
    except ValueError:
        raise CashError(Refusal.GAME, f"game: {' or '.join(GAMES)}") from None
    try:
        betting = Structure(structure or Structure.NO_LIMIT.value)
    except ValueError:
        raise CashError(Refusal.STRUCTURE, f"structure: {' or '.join(STRUCTURES)}") from None
    return Terms(game=chosen, structure=betting)


def game_refusal(source: CashRules, target: CashRules) -> tuple[Refusal, str] | None:
    """Why a player's chips may not go from a table of ``source`` rules to one of
    ``target`` rules (a change, a balancing, a merge; a new table joining a room), or None.
    fpc: « Les caves sont spécifiques à chaque jeu » — chips bought for one game are never
    played at another. The structure may differ (the same game's chips)."""
    if source.game is not target.game:
        return Refusal.GAME, f"chips of {source.game.value} stay at {source.game.value} tables"
    return None
