"""A tournament running in this server process: director, coordinator and host wired together.

``LiveTournament.local(...)`` is the default (in-memory coordinator). The Redis variant
(several processes) builds the same host with a
:class:`~server.tournament.redis_coordinator.RedisCoordinator`.
"""

from __future__ import annotations

import secrets
import tomllib
from collections.abc import Callable
from typing import Any

from server.table.actor import Store, TableActor
from server.table.clock import Clock
from server.table.dealer import Dealer

from .config import TournamentConfig
from .coordinator import DirectorLoop, LocalCoordinator
from .director import Director
from .host import HostSettings, TournamentHost

__all__ = ["LiveTournament", "load_tournament"]


def load_tournament(text: str) -> tuple[TournamentConfig, HostSettings]:
    """A tournament TOML: the director's configuration plus an optional ``[server]`` table
    (table timings, ``start_when_registered``). Raises ConfigError / TOMLDecodeError."""
    data = tomllib.loads(text)
    server = data.pop("server", {})
    return TournamentConfig.from_dict(data), HostSettings.from_dict(server)


class LiveTournament:
    def __init__(self, tid: str, text: str, host: TournamentHost, coordinator: Any) -> None:
        self.tid = tid
        self.text = text
        self.host = host
        self.coordinator = coordinator

    @classmethod
    def local(
        cls,
        tid: str,
        text: str,
        *,
        clock: Clock,
        dealer: Callable[[], Dealer],
        store: Store | None,
        auth: Any,
        add_table: Callable[[TableActor], None],
        drop_table: Callable[[str], None],
        persist: Callable[[str, str], None],
        settings: HostSettings | None = None,
    ) -> LiveTournament:
        config, parsed = load_tournament(text)
        host = TournamentHost(
            tid,
            config,
            settings or parsed,
            clock=clock,
            dealer=dealer,
            store=store,
            auth=auth,
            add_table=add_table,
            drop_table=drop_table,
            persist=persist,
        )
        director = Director(config, secrets.SystemRandom(), now=clock.now(), track_presence=True)
        coordinator = LocalCoordinator(DirectorLoop(director), clock, host.apply)
        host.coordinator = coordinator
        return cls(tid, text, host, coordinator)

    @classmethod
    def redis(
        cls,
        tid: str,
        text: str,
        *,
        link: Any,
        clock: Clock,
        dealer: Callable[[], Dealer],
        auth: Any,
        add_table: Callable[[TableActor], None],
        drop_table: Callable[[str], None],
        persist: Callable[[str, str], None],
        settings: HostSettings | None = None,
    ) -> LiveTournament:
        """The tournament shared by every server process on the Redis of ``link`` (a
        :class:`~server.tournament.redis_coordinator.RedisLink`): its tables keep their
        snapshots in Redis, the director runs in the process holding its lease. Starts the
        coordinator's tasks: call it from the running event loop."""
        from .redis_coordinator import RedisCoordinator

        config, parsed = load_tournament(text)
        host = TournamentHost(
            tid,
            config,
            settings or parsed,
            clock=clock,
            dealer=dealer,
            store=None,
            auth=auth,
            add_table=add_table,
            drop_table=drop_table,
            persist=persist,
            process=link.process,
            url=link.ws_url,
        )
        coordinator = RedisCoordinator(link, tid, config, host, clock)
        host.store = coordinator.store
        host.coordinator = coordinator
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
        }

    def close(self) -> None:
        close = getattr(self.coordinator, "close", None)
        if close is not None:
            close()
