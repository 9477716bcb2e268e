"""The Redis coordinator's state: the director's state pickled in ``P:director`` and the
batches of the decisions stream (see :mod:`server.tournament.redis_coordinator`).

The pickles are trusted: only the server processes of the deployment write these keys.
"""

from __future__ import annotations

import io
import pickle
import secrets
import types
from dataclasses import dataclass, field
from typing import Any

from .config import TournamentConfig
from .coordinator import DirectorLoop
from .decisions import Instruction

__all__ = ["Directing", "decision_batch", "dump", "load"]


# ---------------------------------------------------------------------- pickling


class _Pickler(pickle.Pickler):
    """The director's configuration is not pickled (every process parses the same TOML, and
    it holds read-only mapping proxies), nor its random source (re-created on load)."""

    def __init__(self, file: io.BytesIO, config: TournamentConfig, rng: object) -> None:
        super().__init__(file, protocol=5)
        self.config = config
        self.rng = rng

    def persistent_id(self, obj: Any) -> str | None:
        if obj is self.config:
            return "config"
        if obj is self.config.rules:
            return "rules"
        if self.rng is not None and obj is self.rng:
            return "rng"
        return None

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is types.MappingProxyType:
            return types.MappingProxyType, (dict(obj),)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, config: TournamentConfig) -> None:
        super().__init__(file)
        self.config = config

    def persistent_load(self, pid: Any) -> Any:
        if pid == "config":
            return self.config
        if pid == "rules":
            return self.config.rules
        if pid == "rng":
            return secrets.SystemRandom()
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def dump(value: Any, config: TournamentConfig, rng: object = None) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, config, rng).dump(value)
    return buf.getvalue()


def load(data: bytes, config: TournamentConfig) -> Any:
    return _Unpickler(io.BytesIO(data), config).load()


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
    decisions: list[Instruction] | None = None,
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
