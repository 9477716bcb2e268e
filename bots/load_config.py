"""What a load test runs: :class:`LoadConfig`, read by the table load test
(:mod:`bots.loadtest`) and its tournament mode (:mod:`bots.loadtest_tournament`), which both
import it from here (neither imports the other's caller)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LoadConfig"]


@dataclass(frozen=True)
class LoadConfig:
    url: str
    """The server (the first one, with ``urls``)."""
    tables: int = 10
    players: int = 6
    duration: float = 20.0
    strategy: str = "mix"
    processes: int = 1
    action_seconds: int = 10
    sb: int = 50
    bb: int = 100
    starting_stack: int = 10_000
    ramp: int = 100
    """Connections being opened at once, per process."""
    setup_timeout: float = 300.0
    seed: int | None = None
    compression: str | None = None
    trace: int = 0
    """Messages each bot keeps to show around its first violations (0: none)."""
    stall_seconds: float = 0.0
    """A table silent this long is reported stuck (``table_stalled``); 0: 3 x action clock,
    at least 30 s (the bots act at once, so only a stuck table is silent that long). In
    tournament mode only if given: breaks and hand-for-hand waits are silent too."""
    tournament: str | None = None
    """Tournament mode: register ``players`` bots for this tournament (``tables`` unused)."""
    director: str | None = None
    """The director's token: start the tournament once every bot is registered."""
    run_tag: str = ""
    """Part of every tournament nickname, so that two runs never share a name."""
    leave_busted: bool = True
    """Tournament mode: a bot that busted closes its connection (as most players leave)."""
    urls: tuple[str, ...] = ()
    """Every server process of the deployment (tournament mode: the bots spread over them and
    reconnect to another one when theirs dies); ``url`` is added first if missing."""

    @property
    def servers(self) -> tuple[str, ...]:
        return (self.url, *(u for u in self.urls if u != self.url))

    @property
    def units(self) -> int:
        """What is split across processes: tables, or entrants in tournament mode."""
        return self.players if self.tournament else self.tables
