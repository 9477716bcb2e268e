"""The base of the leagues' Redis store (server.league.redis_store): its keys, its error
translation, and the running state of the events the league plays itself (a heads-up cup, a
night of Sit'n Gos), one JSON value each at ``L:state:<event>``, changed in ``WATCH``ed
transactions (:data:`~server.league.book.StateChange`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar, cast

import redis

from .book import LeagueStoreError, StateChange

__all__ = ["RedisStates"]

_T = TypeVar("_T")


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class RedisStates:
    """Keys under ``<prefix>:league``, Redis errors as :class:`LeagueStoreError`, the
    events' states."""

    _r: redis.Redis
    _p: str

    def _k(self, kind: str, key: str) -> str:
        return f"{self._p}:{kind}:{key}"

    @staticmethod
    def _call(do: Callable[[], _T]) -> _T:
        try:
            return do()
        except redis.RedisError as exc:
            raise LeagueStoreError(f"leagues: {exc}") from None

    def event_state(self, event: str) -> dict[str, Any] | None:
        """The running state of an event the league itself plays (a cup, a night of Sit'n
        Gos); None before anything is kept."""
        raw = self._call(lambda: self._r.get(self._k("state", event)))
        return None if raw is None else dict(json.loads(_text(raw)))

    def save_event_state(self, event: str, state: dict[str, Any]) -> None:
        """That state, whole, in one write (after each change)."""
        text = json.dumps(state)
        self._call(lambda: self._r.set(self._k("state", event), text))

    def change_event_state(self, event: str, change: StateChange) -> dict[str, Any] | None:
        """Read, change and write the event's state (:data:`StateChange`) under ``WATCH``:
        another process's write in between makes Redis refuse ours, and ``change`` is asked
        again on what it wrote. The state as stored after it."""
        key = self._k("state", event)

        def write(pipe: Any) -> dict[str, Any] | None:
            raw = pipe.get(key)
            new = change(None if raw is None else dict(json.loads(_text(raw))))
            pipe.multi()
            if new is None:
                return None if raw is None else dict(json.loads(_text(raw)))
            pipe.set(key, json.dumps(new))
            return new

        run: Any = write  # redis-py types the callable as returning None
        out = self._call(lambda: self._r.transaction(run, key, value_from_callable=True))
        return cast("dict[str, Any] | None", out)
