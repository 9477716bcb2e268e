"""Brasseur's tournament director: pure policy (sans I/O), driven by a coordinator.

Typical use::

    config = TournamentConfig.load("tour_des_potes.toml")
    director = Director(config, secrets.SystemRandom(), now=time.time())
    director.register("p1", "Alice", now)          # -> [Registered(...)]
    director.start(now)                             # -> [LevelChange, TableAssignment, ...]
    director.ready(table_id, now)                   # -> [ChipRace?, Deal] or [Wait]
    director.hand_ended(HandEnded(...), now)        # -> Eliminated, MovePlayer, BreakTable...
"""

from .config import BountySpec, Level, PointsScheme, PointsSchemeKind, TournamentConfig, Window
from .decisions import (
    BountyAwarded,
    Break,
    BreakTable,
    Bust,
    ChipRace,
    ChipRaceLine,
    Deal,
    Decision,
    Eliminated,
    FinalTable,
    Finished,
    HandEnded,
    HandForHand,
    LevelChange,
    MovePlayer,
    Rebought,
    RefusalReason,
    Refused,
    Registered,
    RegistrationClosed,
    RemovalReason,
    RemovePlayer,
    Result,
    SeatDraw,
    ShowdownHold,
    ShowdownReveal,
    TableAssignment,
    Unregistered,
    Wait,
    WaitReason,
)
from .director import Director
from .errors import ConfigError, DirectorError, PhaseError, ReportError
from .lifecycle import Phase
from .results import results_csv, results_json
from .rules import TournamentRules, load_rules

__all__ = [
    "BountyAwarded",
    "BountySpec",
    "Break",
    "BreakTable",
    "Bust",
    "ChipRace",
    "ChipRaceLine",
    "ConfigError",
    "Deal",
    "Decision",
    "Director",
    "DirectorError",
    "Eliminated",
    "FinalTable",
    "Finished",
    "HandEnded",
    "HandForHand",
    "Level",
    "LevelChange",
    "MovePlayer",
    "Phase",
    "PhaseError",
    "PointsScheme",
    "PointsSchemeKind",
    "Rebought",
    "RefusalReason",
    "Refused",
    "Registered",
    "RegistrationClosed",
    "RemovalReason",
    "RemovePlayer",
    "ReportError",
    "Result",
    "SeatDraw",
    "ShowdownHold",
    "ShowdownReveal",
    "TableAssignment",
    "TournamentConfig",
    "TournamentRules",
    "Unregistered",
    "Wait",
    "WaitReason",
    "Window",
    "load_rules",
    "results_csv",
    "results_json",
]
