"""What the league service needs from the process around it, as protocols it defines (the
gateway satisfies them; the service never imports the gateway).

- :class:`Entrant`: a connection as the service sees it: who is there (a member or a
  guest), what it follows, and a way to answer it.
- :class:`Tournaments`: the tournaments this process runs (the gateway's), in memory or
  across processes with Redis.
"""

from __future__ import annotations

from typing import Any, Protocol

from server.tournament.live import LiveTournament

__all__ = ["Entrant", "Tournaments"]


class Entrant(Protocol):
    """A player's connection: the member it is logged in as (None: a guest), its nickname,
    the tournaments it follows and those it registered in (one entry per person)."""

    cid: str
    pid: str | None
    member: str | None
    nickname: str | None
    tournaments: set[str]
    registered: set[str]

    def deliver(self, data: bytes) -> None: ...

    def kick(self, code: str, reason: str) -> None: ...


class Tournaments(Protocol):
    """The tournaments of this process and, with ``--redis``, of every process."""

    @property
    def shared_by_processes(self) -> bool:
        """Several processes run the tournaments (``--redis``)."""
        ...

    def running(self, tid: str) -> LiveTournament | None:
        """``tid`` as this process runs it now (None: not here)."""
        ...

    def attach_tournament(self, tid: str) -> LiveTournament | None:
        """``tid`` run here, taken up from Redis if another process recorded it; None for
        no such tournament, or one finished."""
        ...

    def add_tournament(self, tid: str, text: str) -> LiveTournament:
        """Record a tournament (its TOML) and run it here."""
        ...

    def tournament_recorded(self, tid: str) -> bool:
        """``tid`` was ever recorded (running, finished, or cut by a restart)."""
        ...

    def tournament_shared(self, tid: str) -> bool:
        """``tid`` is recorded in Redis (every process runs it from its next start)."""
        ...

    def stored_results(self, tid: str) -> list[dict[str, Any]] | None:
        """The tournament's ``results.json`` rows, wherever they were written; None before
        it finished."""
        ...

    def director_token(self, tid: str) -> str:
        """The director's console token of ``tid`` (for the league's directors)."""
        ...
