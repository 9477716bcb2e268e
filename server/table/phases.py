"""A table's phases and the allowed transitions, in one table (STYLE.md 2)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TRANSITIONS", "TablePhase"]


class TablePhase(StrEnum):
    WAITING = "waiting"
    """Fewer players present than needed to deal."""
    CUT = "cut"
    """The deck is committed; waiting for the cut from the player on the dealer's right."""
    BETTING = "betting"
    SHOWDOWN = "showdown"
    BETWEEN = "between"
    """The pot was awarded; the next hand starts after a short pause (cdc 3.1)."""
    CLOSED = "closed"


TRANSITIONS: dict[TablePhase, frozenset[TablePhase]] = {
    TablePhase.WAITING: frozenset({TablePhase.CUT, TablePhase.CLOSED}),
    TablePhase.CUT: frozenset({TablePhase.BETTING, TablePhase.BETWEEN, TablePhase.CLOSED}),
    TablePhase.BETTING: frozenset({TablePhase.SHOWDOWN, TablePhase.BETWEEN, TablePhase.CLOSED}),
    TablePhase.SHOWDOWN: frozenset({TablePhase.BETWEEN, TablePhase.CLOSED}),
    TablePhase.BETWEEN: frozenset({TablePhase.CUT, TablePhase.WAITING, TablePhase.CLOSED}),
    TablePhase.CLOSED: frozenset(),
}
