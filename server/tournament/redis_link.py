"""The Redis shared by the server processes of one deployment (:class:`RedisLink`), for the
Redis coordinator (:mod:`server.tournament.redis_coordinator`)."""

from __future__ import annotations

import os
import secrets
import socket

import redis

__all__ = ["RedisLink", "as_text", "stream_id"]


def as_text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def stream_id(raw: bytes | str) -> tuple[int, int]:
    ms, _, seq = as_text(raw).partition("-")
    return int(ms), int(seq or 0)


class RedisLink:
    """The Redis shared by the server processes of one deployment: its url, the key prefix,
    and this process's name and websocket url (where players are sent to reach its tables)."""

    def __init__(self, url: str, process: str, ws_url: str, prefix: str = "brasseur") -> None:
        self.url = url
        self.process = process or f"{socket.gethostname()}:{os.getpid()}"
        self.ws_url = ws_url
        self.prefix = prefix
        self.client = redis.Redis.from_url(url)

    def tournament_prefix(self, tid: str) -> str:
        return f"{self.prefix}:t:{tid}"

    def add_tournament(self, tid: str, text: str) -> None:
        """Record a tournament (its TOML): every process runs it from its next start."""
        p = self.tournament_prefix(tid)
        pipe = self.client.pipeline(transaction=True)
        pipe.set(f"{p}:config", text)
        pipe.sadd(f"{self.prefix}:tournaments", tid)
        pipe.execute()

    def tournaments(self) -> list[tuple[str, str]]:
        """``(tid, toml)`` of the tournaments recorded and not finished."""
        out = []
        for raw in sorted(self.client.smembers(f"{self.prefix}:tournaments")):
            tid = as_text(raw)
            p = self.tournament_prefix(tid)
            toml = self.client.get(f"{p}:config")
            if toml is not None and not self.client.exists(f"{p}:results.json"):
                out.append((tid, as_text(toml)))
        return out

    def token_secret(self) -> str:
        """The secret signing the players' tokens, the same in every process (hex)."""
        key = f"{self.prefix}:token_secret"
        self.client.set(key, secrets.token_hex(32), nx=True)
        return as_text(self.client.get(key) or b"")

    def close(self) -> None:
        self.client.close()
