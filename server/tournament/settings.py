"""The server's part of a tournament's TOML: its ``[server]`` table (table timings, the
automatic start, the rail)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import ConfigError
from .lobby import RAIL_MODES

__all__ = ["HostSettings"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HostSettings:
    """Table timings of a tournament (the ``[server]`` table of its TOML, else defaults)."""

    action_seconds: float = 30.0
    time_bank_seconds: float = 60.0
    cut_seconds: float = 8.0
    next_hand_seconds: float = 3.0
    showdown_seconds: float = 2.0
    start_when_registered: int = 0
    """Start by itself once this many players registered (0: the director starts it)."""
    hard_stop: str = ""
    """A time of day, ``HH:MM``, at which a tournament in play is stopped and its players
    still in ranked by their chips (fpc part C: 23:45; server.tournament.hard_stop); empty:
    none."""
    hard_stop_zone: str = "Europe/Paris"
    spectators: str = "live"
    """The rail: ``live`` or ``commentary`` (server.tournament.lobby.RAIL_MODES); the
    director may change it on the console."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HostSettings:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if known.get("spectators", "live") not in RAIL_MODES:
            raise ConfigError(f"[server] spectators: one of {', '.join(RAIL_MODES)}")
        settings = cls(**known)
        if settings.hard_stop:
            from .hard_stop import parse_stop

            parse_stop(settings.hard_stop, settings.hard_stop_zone)  # ConfigError if none
        return settings
