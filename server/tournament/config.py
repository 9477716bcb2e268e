"""A tournament's configuration file (TOML): structure, registration, payouts, points, bounties.

Example (the fpc "Tour des Potes", abridged; full files in ``server/tournament/examples``)::

    name = "Tour des Potes"
    profile = "fpc"
    starting_stack = 20000
    denominations = [25, 100, 500, 1000, 5000]
    table_size = 9

    [[levels]]
    sb = 25
    bb = 50
    ante = 50
    ante_format = "big_blind"
    minutes = 25

    [[levels]]
    break = true
    minutes = 10
    chip_race = 25          # the 25 chips leave play at the start of this level

    [points]
    scheme = "tour_des_potes"

Top-level keys: ``name``, ``profile``, ``starting_stack``, ``denominations``, ``table_size``,
``min_players``, ``max_entries``, ``late_registration_until_level``, ``late_entry_penalty``
(an integer for "from level 1", or ``[[from_level, chips], ...]``), ``final_table_size``,
``buy_in``, ``prize_pool`` (fixed), ``hand_for_hand_minutes``; tables ``[[levels]]``,
``[reentry]`` / ``[rebuy]`` (``until_level``, ``max``, ``stack``, ``price``),
``[[payouts]]`` (``entrants = [min, max]``, ``percents = [...]``), ``[points]``
(``scheme = "tour_des_potes" | "sit_and_go" | "table"``, ``[points.table]`` for the last),
``[[bounties]]`` (``kind``, ``players``, ``chips``, ``plus_blind``, ``points``) and ``[rules]``
(overrides of any :class:`~server.tournament.rules.TournamentRules` value).
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from server.engine.setup import AnteFormat, Blinds

from .errors import ConfigError
from .rules import TournamentRules, _convert, load_rules

__all__ = [
    "BountySpec",
    "Level",
    "PayoutBracket",
    "PlusBlind",
    "PointsScheme",
    "PointsSchemeKind",
    "TournamentConfig",
    "Window",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One entry of the structure: a level of play or a break."""

    index: int
    """Position in the structure (0-based, breaks included)."""
    number: int | None
    """Level number as printed (1-based, breaks not counted); None for a break."""
    blinds: Blinds | None
    """None for a break."""
    minutes: float
    chip_race: int | None = None
    """The denomination removed at the start of this level (cdc 3.2, tda 23)."""

    @property
    def is_break(self) -> bool:
        return self.blinds is None


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """A re-entry or rebuy window: until the end of ``until_level``, at most ``max`` times."""

    until_level: int
    max: int
    stack: int
    price: int = 0
    wait_seconds: int = 15
    """Rebuy only: how long a table waits before its next deal for a busted player who may
    rebuy (tda 26: announced before the next hand, he never misses one). Online the
    announcement is a click: 0 deals at once, as a live dealer who does not wait."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutBracket:
    min_entrants: int
    max_entrants: int
    percents: tuple[Fraction, ...]
    """Percent of the prize pool for places 1, 2, ..."""


class PointsSchemeKind(StrEnum):
    TOUR_DES_POTES = "tour_des_potes"
    """fpc part B: 1 point per place for the first half of the eliminated, 2 up to the bubble,
    3 at the final table, podium bonus 1/3/6."""
    SIT_AND_GO = "sit_and_go"
    """fpc part C, "Sit'n Go": the points table for 6 to 10 players."""
    TABLE = "table"
    """An organiser's table: points by place for each number of entrants."""


# fpc part C ("LE SIT'N GO"), points by place for 6..10 players.
SIT_AND_GO_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        10: (20, 16, 12, 8, 6, 5, 4, 3, 2, 1),
        9: (19, 15, 11, 7, 5, 4, 3, 2, 1),
        8: (18, 14, 10, 6, 4, 3, 2, 1),
        7: (17, 13, 9, 5, 3, 2, 1),
        6: (16, 12, 8, 4, 2, 1),
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class PointsScheme:
    kind: PointsSchemeKind
    table: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))


class PlusBlind(StrEnum):
    NONE = "none"
    SB = "sb"
    """Plus the current small blind ("Kill the PVS": 2,500 chips + the small blind)."""
    BB = "bb"
    """Plus the current big blind (fpc Bounty: 10,000 chips + the big blind)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BountySpec:
    """A prize for eliminating one of ``players`` (fpc part B "Bounty", "Kill the PVS";
    part C: +2 points for eliminating the leader of the general ranking)."""

    kind: str
    players: frozenset[str]
    chips: int = 0
    plus_blind: PlusBlind = PlusBlind.NONE
    points: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentConfig:
    """Everything the director needs. Build with :meth:`from_toml` or :meth:`load`."""

    name: str
    profile: str
    rules: TournamentRules
    starting_stack: int
    denominations: tuple[int, ...]
    levels: tuple[Level, ...]
    table_size: int = 9
    min_players: int = 2
    max_entries: int = 0
    """0: no limit."""
    final_table_size: int = 9
    buy_in: int = 0
    prize_pool: int = 0
    """A fixed prize pool (0: entries x buy-in + rebuys x price)."""
    reentry: Window | None = None
    rebuy: Window | None = None
    payouts: tuple[PayoutBracket, ...] = ()
    points: PointsScheme | None = None
    bounties: tuple[BountySpec, ...] = ()
    hand_for_hand_minutes: float = 2.0
    """cdc 2.7: the clock advances exactly 2 minutes per hand-for-hand hand."""

    # ------------------------------------------------------------------ queries

    @property
    def late_registration_until_level(self) -> int:
        return self.rules.late_registration_until_level

    def penalty_at(self, level_number: int) -> int:
        """The late-entry penalty for a player entering during level ``level_number``."""
        chips = 0
        for from_level, amount in self.rules.late_entry_penalty:
            if level_number >= from_level:
                chips = amount
        return chips

    def denominations_at(self, index: int) -> tuple[int, ...]:
        """Denominations still in play once level ``index`` has started."""
        removed = {lv.chip_race for lv in self.levels[: index + 1] if lv.chip_race}
        return tuple(d for d in self.denominations if d not in removed)

    def payout_percents(self, entrants: int) -> tuple[Fraction, ...]:
        """The payout table for ``entrants`` (the bracket containing it, else the nearest
        bracket below; none: nobody is paid)."""
        best: PayoutBracket | None = None
        for bracket in self.payouts:
            if bracket.min_entrants <= entrants <= bracket.max_entrants:
                return bracket.percents
            if bracket.min_entrants <= entrants and (
                best is None or bracket.min_entrants > best.min_entrants
            ):
                best = bracket
        return best.percents if best else ()

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(cls, path: str | Path) -> TournamentConfig:
        return cls.from_toml(Path(path).read_text("utf-8"))

    @classmethod
    def from_toml(cls, text: str) -> TournamentConfig:
        """Parse and validate a configuration. Raises :class:`ConfigError`."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"TOML: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentConfig:
        try:
            return _build(data)
        except ConfigError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"tournament config: {type(exc).__name__}: {exc}") from None


_TOP = {
    "name",
    "profile",
    "starting_stack",
    "denominations",
    "table_size",
    "min_players",
    "max_entries",
    "late_registration_until_level",
    "late_entry_penalty",
    "final_table_size",
    "buy_in",
    "prize_pool",
    "hand_for_hand_minutes",
    "levels",
    "reentry",
    "rebuy",
    "payouts",
    "points",
    "bounties",
    "rules",
}


def _rules(profile: str, data: Mapping[str, Any]) -> TournamentRules:
    rules = load_rules(profile)
    overrides: dict[str, Any] = dict(data.get("rules", {}))
    if "late_registration_until_level" in data:
        overrides["late_registration_until_level"] = data["late_registration_until_level"]
    if "late_entry_penalty" in data:
        penalty = data["late_entry_penalty"]
        overrides["late_entry_penalty"] = [[1, penalty]] if isinstance(penalty, int) else penalty
    names = {f.name for f in dataclasses.fields(TournamentRules)} - {"profile", "citations"}
    unknown = set(overrides) - names
    if unknown:
        raise ConfigError(f"[rules]: unknown keys {sorted(unknown)}")
    if not overrides:
        return rules
    converted = {k: _convert(k, v) for k, v in overrides.items()}
    citations = dict(rules.citations)
    citations.update({k: "tournament configuration" for k in converted})
    return dataclasses.replace(rules, citations=MappingProxyType(citations), **converted)


def _levels(raw: list[Mapping[str, Any]]) -> tuple[Level, ...]:
    levels: list[Level] = []
    number = 0
    for i, entry in enumerate(raw):
        extra = set(entry) - {"sb", "bb", "ante", "ante_format", "minutes", "break", "chip_race"}
        if extra:
            raise ConfigError(f"level {i + 1}: unknown keys {sorted(extra)}")
        minutes = float(entry["minutes"])
        if minutes <= 0:
            raise ConfigError(f"level {i + 1}: minutes must be positive")
        race = entry.get("chip_race")
        if entry.get("break", False):
            if {"sb", "bb", "ante"} & set(entry):
                raise ConfigError(f"level {i + 1}: a break has no blinds")
            levels.append(Level(index=i, number=None, blinds=None, minutes=minutes, chip_race=race))
            continue
        number += 1
        blinds = Blinds(
            sb=int(entry["sb"]),
            bb=int(entry["bb"]),
            ante=int(entry.get("ante", 0)),
            ante_format=AnteFormat(entry.get("ante_format", "none")),
        )
        if not 0 <= blinds.sb <= blinds.bb or blinds.bb <= 0 or blinds.ante < 0:
            raise ConfigError(f"level {number}: need 0 <= sb <= bb, bb > 0, ante >= 0")
        if blinds.ante and blinds.ante_format is AnteFormat.NONE:
            raise ConfigError(f"level {number}: an ante needs an ante_format")
        levels.append(Level(index=i, number=number, blinds=blinds, minutes=minutes, chip_race=race))
    if not levels or levels[0].is_break:
        raise ConfigError("the structure must start with a level of play")
    return tuple(levels)


def _check_chips(cfg: TournamentConfig) -> None:
    denoms = cfg.denominations
    if not denoms or list(denoms) != sorted(set(denoms)) or denoms[0] <= 0:
        raise ConfigError("denominations must be positive and strictly increasing")
    removed: list[int] = []
    for level in cfg.levels:
        if level.chip_race is not None:
            _check_chip_race(denoms, removed, level.chip_race)
            removed.append(level.chip_race)
        if level.blinds is not None:
            _check_payable(level, min(x for x in denoms if x not in removed))
    late = cfg.rules.late_registration_until_level
    for level in cfg.levels:
        if level.number is not None and level.number <= late:
            smallest = cfg.denominations_at(level.index)[0]
            if (cfg.starting_stack - cfg.penalty_at(level.number)) % smallest:
                raise ConfigError(f"late stack at level {level.number} not in chips of {smallest}")
    if cfg.starting_stack <= 0 or cfg.starting_stack % denoms[0]:
        raise ConfigError("starting_stack must be a positive multiple of the smallest chip")


def _check_chip_race(denoms: tuple[int, ...], removed: list[int], d: int) -> None:
    """Only the smallest chip in play can be raced off, for a multiple of it (cdc 3.2)."""
    remaining = [x for x in denoms if x not in removed and x != d]
    if d not in denoms or d in removed:
        raise ConfigError(f"chip race of {d}: not a denomination in play")
    if not remaining or d != min(x for x in denoms if x not in removed):
        raise ConfigError(f"chip race of {d}: only the smallest chip in play can go")
    if remaining[0] % d:
        raise ConfigError(f"chip race of {d}: {remaining[0]} is not a multiple of it")


def _check_payable(level: Level, smallest: int) -> None:
    assert level.blinds is not None
    b = level.blinds
    for amount in (b.sb, b.bb, b.ante):
        if amount % smallest:
            raise ConfigError(
                f"level {level.number}: {amount} cannot be paid in chips of {smallest}+"
            )


def _window(name: str, raw: Mapping[str, Any] | None, start: int, late: int) -> Window | None:
    if raw is None:
        return None
    extra = set(raw) - {"until_level", "max", "stack", "price", "wait_seconds"}
    if extra:
        raise ConfigError(f"[{name}]: unknown keys {sorted(extra)}")
    window = Window(
        until_level=int(raw["until_level"]),
        max=int(raw.get("max", 1)),
        stack=int(raw.get("stack", start)),
        price=int(raw.get("price", 0)),
        wait_seconds=int(raw.get("wait_seconds", 15)),
    )
    if window.until_level > late:
        # places of busts are settled when registration closes (see Director)
        raise ConfigError(f"[{name}]: the window must close with late registration (level {late})")
    if window.max < 1 or window.stack <= 0 or not 0 <= window.wait_seconds <= 300:
        raise ConfigError(f"[{name}]: max >= 1, stack > 0 and 0 <= wait_seconds <= 300")
    return window


def _payouts(raw: list[Mapping[str, Any]]) -> tuple[PayoutBracket, ...]:
    out = []
    for entry in raw:
        lo, hi = (int(x) for x in entry["entrants"])
        percents = tuple(Fraction(str(p)) for p in entry["percents"])
        total = sum(percents, Fraction(0))
        if abs(total - 100) > Fraction(1, 1000) or any(p <= 0 for p in percents):
            raise ConfigError(f"payouts {lo}-{hi}: percents must be positive and sum to 100")
        if len(percents) > lo:
            raise ConfigError(f"payouts {lo}-{hi}: more paid places than entrants")
        out.append(PayoutBracket(min_entrants=lo, max_entrants=hi, percents=percents))
    return tuple(out)


def _points(raw: Mapping[str, Any] | None) -> PointsScheme | None:
    if raw is None:
        return None
    kind = PointsSchemeKind(raw["scheme"])
    if kind is PointsSchemeKind.SIT_AND_GO:
        return PointsScheme(kind=kind, table=SIT_AND_GO_POINTS)
    if kind is PointsSchemeKind.TABLE:
        table = {int(k): tuple(int(x) for x in v) for k, v in raw["table"].items()}
        return PointsScheme(kind=kind, table=MappingProxyType(table))
    return PointsScheme(kind=kind)


def _bounties(raw: list[Mapping[str, Any]]) -> tuple[BountySpec, ...]:
    return tuple(
        BountySpec(
            kind=str(b["kind"]),
            players=frozenset(str(p) for p in b.get("players", ())),
            chips=int(b.get("chips", 0)),
            plus_blind=PlusBlind(b.get("plus_blind", "none")),
            points=int(b.get("points", 0)),
        )
        for b in raw
    )


def _build(data: Mapping[str, Any]) -> TournamentConfig:
    unknown = set(data) - _TOP
    if unknown:
        raise ConfigError(f"unknown keys {sorted(unknown)}")
    profile = str(data.get("profile", "cdc"))
    rules = _rules(profile, data)
    start = int(data["starting_stack"])
    table_size = int(data.get("table_size", 9))
    if not 2 <= table_size <= 10:
        raise ConfigError("table_size must be 2..10")
    late = rules.late_registration_until_level
    cfg = TournamentConfig(
        name=str(data.get("name", "Brasseur")),
        profile=profile,
        rules=rules,
        starting_stack=start,
        denominations=tuple(int(d) for d in data.get("denominations", (25, 100, 500, 1000, 5000))),
        levels=_levels(list(data["levels"])),
        table_size=table_size,
        min_players=int(data.get("min_players", 2)),
        max_entries=int(data.get("max_entries", 0)),
        final_table_size=int(data.get("final_table_size", rules.final_table_size(table_size))),
        buy_in=int(data.get("buy_in", 0)),
        prize_pool=int(data.get("prize_pool", 0)),
        reentry=_window("reentry", data.get("reentry"), start, late),
        rebuy=_window("rebuy", data.get("rebuy"), start, late),
        payouts=_payouts(list(data.get("payouts", ()))),
        points=_points(data.get("points")),
        bounties=_bounties(list(data.get("bounties", ()))),
        hand_for_hand_minutes=float(data.get("hand_for_hand_minutes", 2.0)),
    )
    if cfg.min_players < 2:
        raise ConfigError("min_players must be at least 2")
    if not 2 <= cfg.final_table_size <= 10:
        raise ConfigError("final_table_size must be 2..10")
    _check_chips(cfg)
    return cfg
