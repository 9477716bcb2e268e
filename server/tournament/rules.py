"""Tournament parameters per rule profile, as data with citations (``profiles.toml``).

The engine's :mod:`server.engine.profile` holds what differs inside a hand; this holds what
differs for the tournament director: balancing gaps, final table size, late registration,
chip race rounding, hand-for-hand triggers, seating of arrivals.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from server.engine.profile import PROFILE_IDS

from .errors import ConfigError

__all__ = [
    "BubbleRule",
    "ChipRaceGuard",
    "ChipRaceRounding",
    "HandForHandTrigger",
    "SeatRule",
    "TournamentRules",
    "load_rules",
]


class SeatRule(StrEnum):
    """Where a player arriving at a table (late entry, broken table) is seated."""

    RANDOM = "random"
    """A random seat among those where he is dealt in and reaches the BB before the button
    (tda 7, tda 9: never between the small blind and the button)."""
    NEXT_BIG_BLIND = "next_big_blind"
    """The seat where he pays the big blind soonest (cdc 2.3, 2.4)."""
    AFTER_BUTTON = "after_button"
    """The first such seat after the dealer button (ligue 6.22)."""


class ChipRaceRounding(StrEnum):
    """How many chips of the next denomination the leftovers are worth."""

    HALF_UP = "half_up"
    """A race for round(total / new chip), rounded up from 50 % (cdc 3.2)."""
    UP = "up"
    """A race for the total rounded up to a whole new chip (casino)."""
    PLAYER_UP = "player_up"
    """No race: every player with leftovers gets one new chip (ligue 6.25, fpc 21-2)."""


class ChipRaceGuard(StrEnum):
    """Nobody is eliminated by a chip race (cdc 3.2, tda 23-A, casino)."""

    EXTRA_CHIP = "extra_chip"
    """A player who lost his last chip gets one chip of the smallest value, on top (cdc 3.2)."""
    FIRST_CHIP = "first_chip"
    """A player left without chips receives the first new chip, before the draw (casino)."""


class HandForHandTrigger(StrEnum):
    MONEY = "money"
    """One elimination from the paid places (cdc 2.7, casino)."""
    FINAL_TABLE = "final_table"
    """One elimination from the final table (cdc 2.7, fpc 5-4)."""


class BubbleRule(StrEnum):
    """Players busted in the same hand-for-hand hand at different tables."""

    TIE = "tie"
    """They tie and share the prizes of their places (cdc 1.10, 2.7)."""
    START_STACK = "start_stack"
    """The bigger start-of-hand stack ranks better (fpc 4-4, casino)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRules:
    """One profile's tournament parameters. Build with :func:`load_rules`."""

    profile: str
    balance_gap_early: int
    balance_gap_late: int
    late_balancing_tables: int
    final_table_extra: int
    final_table_max: int
    late_registration_until_level: int
    late_entry_penalty: tuple[tuple[int, int], ...]
    """``(from_level, chips)`` pairs: the last pair whose level has started applies."""
    late_seat: SeatRule
    break_seat: SeatRule
    chip_race_rounding: ChipRaceRounding
    chip_race_guard: ChipRaceGuard
    hand_for_hand: tuple[HandForHandTrigger, ...]
    bubble_across_tables: BubbleRule
    no_show_removed_after_level: int
    min_players_to_start: int
    citations: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def final_table_size(self, table_size: int) -> int:
        """cdc 2.6, tda 11: the final table's number of players for tables of ``table_size``."""
        return min(table_size + self.final_table_extra, self.final_table_max)

    def cite(self, key: str) -> str:
        return self.citations.get(key, "")


_ENUMS: dict[str, type[StrEnum]] = {
    "late_seat": SeatRule,
    "break_seat": SeatRule,
    "chip_race_rounding": ChipRaceRounding,
    "chip_race_guard": ChipRaceGuard,
    "bubble_across_tables": BubbleRule,
}


def _convert(name: str, value: Any) -> Any:
    if name in _ENUMS:
        return _ENUMS[name](value)
    if name == "late_entry_penalty":
        return tuple((int(a), int(b)) for a, b in value)
    if name == "hand_for_hand":
        return tuple(HandForHandTrigger(v) for v in value)
    return value


def build_rules(profile: str, data: Mapping[str, Any]) -> TournamentRules:
    """Build rules from one ``[profile]`` table of ``{ value, cite }`` entries."""
    kwargs: dict[str, Any] = {"profile": profile}
    citations: dict[str, str] = {}
    names = {f.name for f in fields(TournamentRules)} - {"profile", "citations"}
    for name in names:
        entry = data.get(name)
        if not isinstance(entry, dict) or "value" not in entry or "cite" not in entry:
            raise ConfigError(f"tournament profile {profile}: {name} needs {{ value, cite }}")
        try:
            kwargs[name] = _convert(name, entry["value"])
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"tournament profile {profile}: bad {name}: {exc}") from None
        citations[name] = str(entry["cite"])
    unknown = set(data) - names
    if unknown:
        raise ConfigError(f"tournament profile {profile}: unknown keys {sorted(unknown)}")
    kwargs["citations"] = MappingProxyType(citations)
    return TournamentRules(**kwargs)


@cache
def load_rules(profile: str) -> TournamentRules:
    """The tournament parameters of a rule profile. Raises :class:`ConfigError` if unknown."""
    if profile not in PROFILE_IDS:
        raise ConfigError(f"unknown profile {profile!r}; expected one of {PROFILE_IDS}")
    text = resources.files(__package__).joinpath("profiles.toml").read_text("utf-8")
    return build_rules(profile, tomllib.loads(text)[profile])
