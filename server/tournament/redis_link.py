"""The Redis shared by the server processes of one deployment (:class:`RedisLink`), for the
Redis coordinator (:mod:`server.tournament.redis_coordinator`), and the check of its
persistence at start (:func:`persistence_verdict`, docs/operations.md "Redis").

A tournament's whole state lives in Redis (the director's state, the decisions, the tables'
events and snapshots): a Redis that restarts without persistence forgets it, and the
tournament cannot go on. So a process refuses, at start, a Redis with neither AOF nor RDB
snapshots, unless told that this is wanted (``--allow-volatile-redis``, a demo or a test).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sys
from dataclasses import dataclass
from typing import Any, Final, cast
from urllib.parse import urlsplit, urlunsplit

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

__all__ = [
    "Persistence",
    "RedisLink",
    "Verdict",
    "as_text",
    "persistence_verdict",
    "read_persistence",
    "shown_url",
    "stream_id",
]

log = logging.getLogger("brasseur.server")

SOCKET_TIMEOUT: Final = 2.0
"""Seconds a synchronous command may take (the tables write from the event loop: a Redis
that hangs must not freeze every table of the process for longer)."""
CONNECT_TIMEOUT: Final = 1.0
"""Seconds to open a connection to Redis."""
ASYNC_SOCKET_TIMEOUT: Final = 5.0
"""Seconds an asynchronous command may take (more than the longest blocking XREAD)."""


def shown_url(url: str) -> str:
    """``url`` without its password (for logs and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def as_text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def stream_id(raw: bytes | str) -> tuple[int, int]:
    ms, _, seq = as_text(raw).partition("-")
    return int(ms), int(seq or 0)


# ---------------------------------------------------------------------- persistence


@dataclass(frozen=True, slots=True, kw_only=True)
class Persistence:
    """What a Redis says of its persistence (``CONFIG GET``, else ``INFO persistence``)."""

    aof: bool | None
    """``appendonly yes``; None if it could not be read."""
    fsync: str = ""
    """``appendfsync``: always, everysec or no ("" if unknown)."""
    rdb: bool | None = None
    """RDB snapshots on (a non-empty ``save``); None if it could not be read."""
    eviction: str = ""
    """``maxmemory-policy`` when a ``maxmemory`` is set ("" if none or unknown)."""
    source: str = "config"
    """Where it was read: ``config``, ``info`` (CONFIG disabled) or ``none``."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether to run tournaments on this Redis: ``ok`` False means refuse to start, with
    ``message`` (one line) on stderr and exit status 2; a ``message`` with ``ok`` True is a
    warning to log."""

    ok: bool
    message: str = ""


_FIX: Final = (
    "set 'appendonly yes' and 'appendfsync everysec' (or 'always') in redis.conf, "
    "or pass --allow-volatile-redis (BRASSEUR_ALLOW_VOLATILE_REDIS=1) to run anyway"
)


def persistence_verdict(p: Persistence, allow_volatile: bool) -> Verdict:
    """Pure: may tournaments run on a Redis with persistence ``p`` (docs/operations.md)?

    AOF on: yes (a warning with ``appendfsync no``). RDB snapshots only: yes, with a warning
    (a restart loses what was written since the last snapshot). Neither: no, unless
    ``allow_volatile``. Not readable at all (CONFIG and INFO refused, as on some managed
    Redis): yes, with a warning saying it could not be checked.
    """
    warnings = []
    if p.eviction and p.eviction != "noeviction":
        warnings.append(
            f"maxmemory-policy is {p.eviction}: Redis may evict a tournament's keys when "
            "full; set 'maxmemory-policy noeviction'"
        )
    if p.aof:
        if p.fsync == "no":
            warnings.append(
                "appendfsync no: a machine crash can lose the last ~30 s of the tournaments "
                "(use appendfsync everysec or always)"
            )
        return Verdict(True, "; ".join(warnings))
    if p.aof is None and p.rdb is None:
        warnings.insert(
            0,
            "the Redis persistence could not be checked (CONFIG and INFO refused): make sure "
            "it has AOF on, or a Redis restart ends every running tournament",
        )
        return Verdict(True, "; ".join(warnings))
    if p.rdb:
        warnings.insert(
            0,
            "Redis has RDB snapshots but no AOF: a Redis restart loses what was written since "
            "the last snapshot (minutes of play) and stops the running tournaments; "
            "set 'appendonly yes'",
        )
        return Verdict(True, "; ".join(warnings))
    if p.aof is False and p.rdb is None:
        warnings.insert(
            0,
            "Redis has no AOF and its RDB snapshots could not be checked (CONFIG refused): "
            "a Redis restart may end every running tournament; set 'appendonly yes'",
        )
        return Verdict(True, "; ".join(warnings))
    if allow_volatile:
        warnings.insert(
            0,
            "Redis is volatile (no AOF, no RDB snapshots), allowed by --allow-volatile-redis: "
            "a Redis restart ends every running tournament",
        )
        return Verdict(True, "; ".join(warnings))
    return Verdict(
        False,
        "error: Redis has no persistence (appendonly no, no save rules): a Redis restart "
        f"would lose every running tournament; {_FIX}",
    )


def _config(client: redis.Redis, name: str) -> str | None:
    answer = cast(dict[bytes | str, bytes | str], client.config_get(name))
    values = {as_text(k): as_text(v) for k, v in answer.items()}
    return values.get(name)


def read_persistence(client: redis.Redis) -> Persistence:
    """Ask ``client``'s Redis about its persistence: ``CONFIG GET`` (appendonly, appendfsync,
    save, maxmemory, maxmemory-policy), else ``INFO persistence`` (``aof_enabled`` only) when
    CONFIG is refused. Raises ``redis.ConnectionError`` if Redis cannot be reached."""
    try:
        aof = _config(client, "appendonly")
        fsync = _config(client, "appendfsync") or ""
        save = _config(client, "save")
        maxmemory = _config(client, "maxmemory")
        policy = _config(client, "maxmemory-policy") or ""
    except redis.ResponseError:  # CONFIG disabled or renamed (managed Redis), or no ACL
        pass
    else:
        limited = maxmemory not in (None, "", "0")
        return Persistence(
            aof=None if aof is None else aof == "yes",
            fsync=fsync,
            rdb=None if save is None else bool(save.strip()),
            eviction=policy if limited else "",
        )
    try:
        info: dict[str, Any] = client.info("persistence")
    except redis.ResponseError:
        return Persistence(aof=None, source="none")
    enabled = info.get("aof_enabled")
    return Persistence(aof=None if enabled is None else bool(int(enabled)), source="info")


# ---------------------------------------------------------------------- the link


class RedisLink:
    """The Redis shared by the server processes of one deployment: its url, the key prefix,
    and this process's name and websocket url (where players are sent to reach its tables).

    ``client`` is synchronous (the tables' store, the reports), with short timeouts and one
    immediate retry on a broken connection (one a Redis restart closed is replaced at once,
    a timeout is not retried: it blocks the event loop); the
    coordinator's tasks use :meth:`async_client`.
    """

    def __init__(self, url: str, process: str, ws_url: str, prefix: str = "brasseur") -> None:
        self.url = url
        self.process = process or f"{socket.gethostname()}:{os.getpid()}"
        self.ws_url = ws_url
        self.prefix = prefix
        self.client = redis.Redis.from_url(
            url,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
        )

    def async_client(self, retry: bool = True) -> aioredis.Redis:
        """A new asyncio client of the same Redis (the coordinator's tasks). ``retry``: a
        command failing on a broken connection is sent again at once, once (only for
        commands that may safely run twice: a reply lost after Redis ran it is a repeat)."""
        retries = 1 if retry else 0
        return aioredis.Redis.from_url(
            self.url,
            socket_timeout=ASYNC_SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=AsyncRetry(NoBackoff(), retries, supported_errors=(redis.ConnectionError,)),
        )

    def check_persistence(self, allow_volatile: bool) -> Verdict:
        """:func:`persistence_verdict` of this Redis. A Redis that cannot be reached is a
        refusal too (the message says so)."""
        try:
            found = read_persistence(self.client)
        except redis.RedisError as exc:
            return Verdict(False, f"error: cannot reach Redis at {shown_url(self.url)}: {exc}")
        return persistence_verdict(found, allow_volatile)

    def require_persistence(self, allow_volatile: bool) -> None:
        """At start (``python -m server --redis``, ``tournament create --redis``): exit with
        status 2 and the reason in one line on stderr unless this Redis may run tournaments
        (:meth:`check_persistence`); log the verdict's warning if it has one."""
        verdict = self.check_persistence(allow_volatile)
        if not verdict.ok:
            print(verdict.message, file=sys.stderr, flush=True)
            self.close()
            raise SystemExit(2)
        if verdict.message:
            log.warning("Redis %s: %s", shown_url(self.url), verdict.message)

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

    def tournament_text(self, tid: str, finished: bool = False) -> str | None:
        """The TOML of the tournament ``tid`` if recorded (and, unless ``finished``, not
        finished), else None."""
        p = self.tournament_prefix(tid)
        pipe = self.client.pipeline(transaction=True)
        pipe.get(f"{p}:config")
        pipe.exists(f"{p}:results.json")
        toml, done = pipe.execute()
        if toml is None or (done and not finished):
            return None
        return as_text(toml)

    def token_secret(self) -> str:
        """The secret signing the players' tokens, the same in every process (hex)."""
        key = f"{self.prefix}:token_secret"
        self.client.set(key, secrets.token_hex(32), nx=True)
        return as_text(self.client.get(key) or b"")

    def close(self) -> None:
        self.client.close()
