"""A tournament running in this server process: director, coordinator and host wired together.

``LiveTournament.local(...)`` is the default (in-memory coordinator). The Redis variant
(several processes) builds the same host with a
:class:`~server.tournament.redis_coordinator.RedisCoordinator`.
"""

from __future__ import annotations

import secrets
import tomllib
from typing import Any

from .config import TournamentConfig
from .coordinator import DirectorLoop, LocalCoordinator
from .director import Director
from .hard_stop import HardStop, parse_stop
from .host import HostSettings, TournamentHost

__all__ = ["LiveTournament", "load_tournament"]


def load_tournament(text: str) -> tuple[TournamentConfig, HostSettings]:
    """A tournament TOML: the director's configuration plus an optional ``[server]`` table
    (table timings, ``start_when_registered``). Raises ConfigError / TOMLDecodeError."""
    data = tomllib.loads(text)
    server = data.pop("server", {})
    return TournamentConfig.from_dict(data), HostSettings.from_dict(server)


def _host(
    tid: str, text: str, settings: HostSettings | None, services: dict[str, Any]
) -> TournamentHost:
    config, parsed = load_tournament(text)
    return TournamentHost(tid, config, settings or parsed, **services)


def _hard_stop(host: TournamentHost) -> None:
    """A ``[server] hard_stop``: its observer, which stops the tournament at that time."""
    settings = host.settings
    if not settings.hard_stop:
        return
    stop, zone = parse_stop(settings.hard_stop, settings.hard_stop_zone)

    def submit(kind: str, data: dict[str, Any]) -> None:
        if host.coordinator is not None:
            host.coordinator.submit(kind, data)

    host.observers.append(HardStop(stop, zone, submit).observe)


class LiveTournament:
    def __init__(self, tid: str, text: str, host: TournamentHost, coordinator: Any) -> None:
        self.tid = tid
        self.text = text
        self.host = host
        self.coordinator = coordinator

    @classmethod
    def local(
        cls, tid: str, text: str, *, settings: HostSettings | None = None, **services: Any
    ) -> LiveTournament:
        """The in-memory tournament of this process. ``services`` are the host's
        (:class:`~server.tournament.host.TournamentHost`: clock, dealer, store, auth,
        add_table, drop_table, persist)."""
        host = _host(tid, text, settings, services)
        director = Director(
            host.config, secrets.SystemRandom(), now=host.clock.now(), track_presence=True
        )
        coordinator = LocalCoordinator(DirectorLoop(director), host.clock, host.apply)
        host.coordinator = coordinator
        _hard_stop(host)
        return cls(tid, text, host, coordinator)

    @classmethod
    def redis(
        cls,
        tid: str,
        text: str,
        *,
        link: Any,
        settings: HostSettings | None = None,
        **services: Any,
    ) -> LiveTournament:
        """The tournament shared by every server process on the Redis of ``link`` (a
        :class:`~server.tournament.redis_coordinator.RedisLink`): its tables keep their
        snapshots in Redis, the director runs in the process holding its lease. Starts the
        coordinator's tasks: call it from the running event loop."""
        from .redis_coordinator import RedisCoordinator

        services = {**services, "store": None, "process": link.process, "url": link.ws_url}
        host = _host(tid, text, settings, services)
        coordinator = RedisCoordinator(link, tid, host.config, host, host.clock)
        host.ops.store = coordinator.store  # the tables opened here keep their log in Redis
        host.coordinator = coordinator
        _hard_stop(host)
        coordinator.start()
        return cls(tid, text, host, coordinator)

    def summary(self) -> dict[str, Any]:
        state = self.coordinator.state()
        return {
            "id": self.tid,
            "name": state.get("name"),
            "phase": state.get("phase"),
            "entries": state.get("entries"),
            "players_left": state.get("players_left"),
            "level": state.get("level"),
            "paused": state.get("paused"),
            # what a started tournament waits for (issue 29): late registration, until when
            "late_registration": state.get("late_registration"),
            "late_until_level": state.get("late_until_level"),
            "late_left": state.get("late_left"),
        }

    def close(self) -> None:
        close = getattr(self.coordinator, "close", None)
        if close is not None:
            close()
