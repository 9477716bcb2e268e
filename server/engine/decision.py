"""What a gesture becomes: the :class:`Decision` the interpreter hands to the betting.

Kept apart from :mod:`.interpret` so that the rule arithmetic (:mod:`.raises`) can build
decisions without importing the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Decision", "Kind"]


class Kind(Enum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"
    PEND_RAISE = "pend_raise"
    """A bet or raise was declared; its amount is still to come (cdc 9.3, tda 38-B)."""
    PEND_CHECK = "pend_check"
    """Check facing a bet: the player must call or fold, no raise (cdc 9.4)."""
    PEND_COMMIT = "pend_commit"
    """An undersized chip goes in; the player must call or fold (cdc 9.12)."""
    PEND_BET = "pend_bet"
    """Chips below the big blind with no bet to face go in; the player must bring his bet up
    to the big blind or fold, the chips staying in the pot (ligue 6 intro)."""


@dataclass(frozen=True, slots=True)
class Decision:
    kind: Kind
    to: int = 0
    rule: str = ""
    note: str = ""
