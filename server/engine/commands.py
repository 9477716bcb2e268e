"""Commands: what players do, as typed frozen dataclasses (STYLE.md 3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Act", "AgreeRuns", "Draw", "Form", "Muck", "Say", "Show", "Verb"]


class Verb(StrEnum):
    """What a player says (the declaration channel)."""

    FOLD = "fold"
    """"Je passe", "je jette", fold."""
    CHECK = "check"
    """"Parole", check."""
    CALL = "call"
    """"Je suis", "payé", call."""
    BET = "bet"
    """"Je mise", bet (same sizing as raise)."""
    RAISE = "raise"
    """"Je relance", raise, with or without an amount."""
    ALLIN = "allin"
    """"Tapis", all-in."""
    POT = "pot"
    """"Le pot": not a no-limit declaration (cdc 9.15, tda 50-C); in pot limit, a raise to the
    largest amount allowed."""
    AMOUNT = "amount"
    """A bare number said alone: chips of that amount (tda 37-C)."""


class Form(StrEnum):
    """How the amount of a declaration is to be read."""

    TOTAL = "total"
    """"Raise 4000": to 4000 in total."""
    PLUS = "plus"
    """"Plus 4000" / "4000 de mieux": total or increment by profile (cdc 9.1, tda 43-B)."""
    ABBREVIATED = "abbreviated"
    """The number as spoken ("5" for 500 or 5000), read by profile (cdc 9.1, tda 52)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Say:
    """A verbal declaration."""

    verb: Verb
    amount: int | None = None
    form: Form = Form.TOTAL


@dataclass(frozen=True, slots=True, kw_only=True)
class Act:
    """One gesture of one player: a declaration, chips pushed in one motion, or both."""

    player: str
    say: Say | None = None
    chips: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Show:
    """Show one's hand at showdown (or after winning uncontested, cdc 10.1)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck:
    """Give up one's claim at showdown without showing (cdc 10.5)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AgreeRuns:
    """A player's answer to the offer to run the board more than once ("run it twice"):
    ``runs`` is how many runs he agrees to, 1 to refuse. Accepted only while the hand waits
    for it (:attr:`~server.engine.state.Phase.RUNS`, see :mod:`server.engine.runs`)."""

    player: str
    runs: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """Five-card draw: the player in turn to draw discards these cards (none: he stands pat)
    and is dealt as many from the stub (:mod:`server.engine.draw`)."""

    player: str
    discard: tuple[int, ...] = ()
