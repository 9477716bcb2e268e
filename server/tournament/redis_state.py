"""The Redis coordinator's state: the director's state in ``P:director`` and the batches of
the decisions stream (see :mod:`server.tournament.redis_coordinator`), as versioned msgpack.

No pickle: :data:`CODEC` (:mod:`server.tournament.statecodec`) writes only the classes listed
here and loads only them, without running code named by the data, so whoever can write to
Redis cannot run code in the server processes. Each value is an envelope
``{"format": "brasseur-director-state", "version": STATE_VERSION, "schema": <fingerprint of
the registered classes' names and fields>, "state": ...}``; :func:`load` refuses a state of
another version or schema (a deploy of a server whose director's state has another shape,
mid-tournament) or a pickle of an older server with a :class:`StateVersionError` saying what
to do, and never loads it half-way.

Not stored: the tournament's configuration (every process parses the same TOML; referenced
by name and replaced by the process's own on load) and the director's random source (a new
``secrets.SystemRandom``).

Changing the state: adding, removing or renaming a field of a registered class changes the
schema (a running tournament must then be finished by the version that started it); a class
or enum new in the state is added to :data:`CODEC` below (the dump refuses an unregistered
one, :class:`StateEncodeError`, and ``tests/tournament/test_redis_state_codec.py`` checks a
real tournament's state goes through).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from server.engine.positions import MissingBlind, Positions
from server.engine.setup import AnteFormat, Blinds
from server.table.report import Bust, HandEnded

from . import decisions as d
from .clock import TournamentClock
from .config import Level, TournamentConfig
from .coordinator import DirectorLoop
from .director import Director
from .floor import _Entry, _Status, _Table
from .lifecycle import Phase, PhaseEvent
from .rules import HandForHandTrigger
from .seating import SeatClass
from .statecodec import Codec, StateEncodeError, StateError, StateVersionError

__all__ = [
    "CODEC",
    "FORMAT",
    "STATE_VERSION",
    "Directing",
    "StateEncodeError",
    "StateError",
    "StateVersionError",
    "decision_batch",
    "dump",
    "load",
]

FORMAT: Final = "brasseur-director-state"
STATE_VERSION: Final = 1
"""Version 1: the first msgpack state (the servers before it pickled the state). Raise it when
the encoding changes; a change of the classes' shape is caught by the schema fingerprint."""


# ---------------------------------------------------------------------- the director's state


@dataclass
class Directing:
    """What the lease holder keeps in ``P:director``."""

    loop: DirectorLoop
    last_report: str = "0-0"
    """Id of the last report applied (the next holder reads after it)."""
    directory: dict[int, str] = field(default_factory=dict)
    """Table -> process running it."""
    adopting: dict[int, str] = field(default_factory=dict)
    """Tables given to a process that has not reported what it recovered yet."""


def decision_batch(
    decisions: list[d.Instruction] | None = None,
    directory: dict[int, str] | None = None,
    state: dict[str, Any] | None = None,
    sync: dict[int, dict[int, list[Any]] | None] | None = None,
    adopt: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One entry of the decisions stream, applied by every process in this order: the
    directory changes, the lobby state, the decisions, the seatings of recovered tables,
    and the tables to take over."""
    return {
        "directory": directory or {},
        "state": state,
        "decisions": decisions or [],
        "sync": sync or {},
        "adopt": adopt or {},
    }


# ---------------------------------------------------------------------- the registry

_DECISIONS: Final = (
    d.Registered,
    d.Refused,
    d.Unregistered,
    d.TableAssignment,
    d.LevelChange,
    d.Break,
    d.Deal,
    d.Wait,
    d.ShowdownHold,
    d.ShowdownReveal,
    d.MovePlayer,
    d.SeatDraw,
    d.BreakTable,
    d.FinalTable,
    d.HandForHand,
    d.ChipRaceLine,
    d.ChipRace,
    d.Eliminated,
    d.RemovePlayer,
    d.Rebought,
    d.BountyAwarded,
    d.RegistrationClosed,
    d.Result,
    d.Finished,
    d.Adjusted,
    d.TableNote,
    d.ConsoleRefused,
    d.SpectatorMode,
)

CODEC: Final = Codec(
    format=FORMAT,
    version=STATE_VERSION,
    classes=(
        Directing,
        _Table,
        _Entry,
        Level,
        Blinds,
        Positions,
        Bust,
        HandEnded,
        *_DECISIONS,
    ),
    plain={
        DirectorLoop: (
            "director",
            "names",
            "adjust",
            "moves",
            "log",
            "started",
            "finished",
            "eliminated",
            "calls",
            "next_call",
        ),
        Director: (
            "config",
            "rules",
            "phase",
            "clock",
            "_rng",
            "_track_presence",
            "_tables",
            "_by_count",
            "_open",
            "_entries",
            "_all",
            "_alive",
            "_entry_count",
            "_first_entries",
            "_reentries",
            "_rebuys",
            "_registration_open",
            "_late_until_index",
            "_no_show_index",
            "_no_show_done",
            "_pending",
            "_next_place",
            "_prize_pool",
            "_payouts",
            "_points",
            "_hfh",
            "_round",
            "_round_tables",
            "_round_busts",
            "_final_pending",
            "_final_formed",
            "_stopping",
            "_breaking",
            "_order",
            "_waiting",
            "_busy",
            "_dealt",
            "_next_table_id",
            "_results",
            "_paused",
            "_races",
        ),
        TournamentClock: ("levels", "index", "running", "last", "_left", "_ends"),
    },
    enums=(
        Phase,
        PhaseEvent,
        _Status,
        d.WaitReason,
        d.RefusalReason,
        d.RemovalReason,
        HandForHandTrigger,
        AnteFormat,
        MissingBlind,
        SeatClass,
    ),
)
"""Every class the director's state and the decision batches may hold (the configuration
aside): its name and field names make the schema fingerprint."""


# ---------------------------------------------------------------------- dump / load


def _refs(config: TournamentConfig) -> dict[str, object]:
    return {"config": config, "rules": config.rules, "levels": config.levels}


def dump(value: Any, config: TournamentConfig, rng: object = None) -> bytes:
    """``value`` (a :class:`Directing`, a :func:`decision_batch`) as versioned msgpack; the
    configuration ``config`` and the random source ``rng`` are written as references.
    Raises :class:`StateEncodeError` if it holds an unregistered class (a bug)."""
    return CODEC.pack(value, {**_refs(config), "rng": rng})


def load(data: bytes, config: TournamentConfig) -> Any:
    """What :func:`dump` wrote, with this process's ``config`` and a new random source.
    Raises :class:`StateVersionError` for a state written by another server version (another
    format version or schema, or a pickle), :class:`StateError` for a malformed one: the
    message says what was found, what this server reads, and what to do."""
    return CODEC.unpack(data, {**_refs(config), "rng": secrets.SystemRandom()})
