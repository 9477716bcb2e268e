"""A table's settings (a friends table, a cash table or a tournament table)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from server.engine import DEFAULT_DENOMINATIONS

__all__ = ["TableConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    table_id: str
    name: str = "Brasseur"
    profile: str = "cdc"
    sb: int = 50
    bb: int = 100
    ante: int = 0
    ante_format: str = "none"
    max_seats: int = 9
    starting_stack: int = 10_000
    denominations: tuple[int, ...] = DEFAULT_DENOMINATIONS
    action_seconds: float = 30.0
    """The per-action clock."""
    time_bank_seconds: float = 60.0
    """Each player's time bank at the start."""
    time_bank_per_hand: float = 2.0
    """Seconds added to every time bank after each hand (up to the starting bank)."""
    time_call_after: float = 60.0
    """The Time may be called once the player has thought this long (cdc 3.5: >= 1 min)."""
    cut_seconds: float = 8.0
    showdown_seconds: float = 2.0
    next_hand_seconds: float = 3.0
    min_players: int = 2
    """Players present needed to deal (cdc 2.2: 3 at a tournament's start, 2 after a break)."""
    cash: dict[str, Any] | None = None
    """A cash table: the changes its host made to the profile's cash rules
    (:func:`server.cash.cash_rules` keywords: limits, rake, runs); ``None``: not a cash table."""
    run_it: int = 1
    """A friends table's "run it twice" (2) or three times (3): the board is run that many
    times when exactly two players are all-in before the turn and both agree (fpc
    multi-bordes, offered to friends as the issue asks). A cash table takes its runs from
    ``cash``; a tournament table deals one run."""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["denominations"] = list(self.denominations)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        data = dict(data)
        data["denominations"] = tuple(data.get("denominations", DEFAULT_DENOMINATIONS))
        return cls(**data)
