"""A lease in Redis: at most one process at a time directs a tournament (or runs a table).

The holder writes its ``owner`` id under ``key`` with a time to live and renews it every
``ttl / 3``; a process that dies (or is cut off from Redis) stops renewing, the key expires
and another process acquires it. Each acquisition increments ``{key}:epoch``, a fencing token
the new holder can stamp on what it writes.

A holder paused longer than the ttl (a GC pause, a frozen VM) may still believe it holds the
lease while another process does. :meth:`Lease.set_if_holder` closes that gap for the shared
state: it writes only if the lease key holds our owner id, checked and written in one Lua
script, so a director that lost its lease can never overwrite the new holder's state.

    lease = Lease(client, "brasseur:t42:director", owner=f"{host}:{pid}")
    task = asyncio.create_task(lease.run(on_acquired=start_directing, on_lost=stop_directing))
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["LUA_IF_OWNER", "Lease"]

log = logging.getLogger(__name__)

_ACQUIRE: Final = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('incr', KEYS[2])
end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return tonumber(redis.call('get', KEYS[2]) or '0')
end
return -1
"""
"""KEYS: lease key, epoch key. ARGV: owner, ttl (ms). The new epoch when acquired, the current
one when we already held it, -1 when someone else holds it. SET NX and INCR in one script: no
moment where the lease is taken but the epoch not yet moved."""

_RENEW: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
"""KEYS: lease key. ARGV: owner, ttl (ms). Compare-and-pexpire: 1 if still ours."""

_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
"""KEYS: lease key. ARGV: owner. Compare-and-delete: never deletes another holder's lease."""

LUA_IF_OWNER: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[2], ARGV[2])
  return 1
else
  return 0
end
"""
"""Fenced write. KEYS: lease key, key to write. ARGV: owner, value. Sets ``KEYS[2]`` to
``ARGV[2]`` only while the lease ``KEYS[1]`` holds ``ARGV[1]``, atomically (Redis runs a
script alone); 1 if written, 0 if the lease is someone else's or expired."""

Callback = Callable[[], Awaitable[None]]


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class Lease:
    """The lease ``key`` in Redis, held by ``owner`` for ``ttl_ms`` after each renewal.

    ``held`` is what we last learnt: True after a successful :meth:`acquire` or
    :meth:`renew`, False after a failed renewal or a :meth:`release`. ``epoch`` is the fencing
    token of our current (or last) tenure, None before the first acquisition.
    """

    def __init__(self, client: aioredis.Redis, key: str, owner: str, ttl_ms: int = 3000) -> None:
        if ttl_ms < 1:
            raise ValueError(f"ttl_ms must be positive, got {ttl_ms}")
        self.client = client
        self.key = key
        self.epoch_key = f"{key}:epoch"
        self.owner = owner
        self.ttl_ms = ttl_ms
        self.held = False
        self.epoch: int | None = None
        self.valid_until = 0.0
        """``time.monotonic()`` before which the lease is surely still ours (measured from
        before the last successful acquire or renew was sent)."""
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._if_owner = client.register_script(LUA_IF_OWNER)

    async def acquire(self) -> bool:
        """Take the lease if free (``SET key owner NX PX ttl`` then ``INCR key:epoch``, in one
        script). True if we hold it now, including when we already held it (then renewed)."""
        sent = time.monotonic()
        epoch = int(
            await self._acquire(keys=[self.key, self.epoch_key], args=[self.owner, self.ttl_ms])
        )
        if epoch < 0:
            self.held = False
            return False
        self.held = True
        self.epoch = epoch
        self.valid_until = sent + self.ttl_ms / 1000
        return True

    async def renew(self) -> bool:
        """Push the expiry back by ``ttl_ms`` if the lease is still ours. False means we lost
        it (expired, maybe taken by another owner): ``held`` becomes False."""
        sent = time.monotonic()
        ok = bool(await self._renew(keys=[self.key], args=[self.owner, self.ttl_ms]))
        self.held = ok
        if ok:
            self.valid_until = sent + self.ttl_ms / 1000
        return ok

    async def release(self) -> None:
        """Give the lease up at once if it is ours (never deletes another owner's lease)."""
        await self._release(keys=[self.key], args=[self.owner])
        self.held = False
        self.valid_until = 0.0

    async def holder(self) -> str | None:
        """The owner holding the lease now, None if nobody does."""
        raw = await self.client.get(self.key)
        return None if raw is None else _text(raw)

    async def set_if_holder(self, key: str, value: bytes) -> bool:
        """``SET key value`` only while the lease is ours, atomically (:data:`LUA_IF_OWNER`).
        False (nothing written) if another owner holds it or it expired."""
        return bool(await self._if_owner(keys=[self.key, key], args=[self.owner, value]))

    async def run(
        self,
        on_acquired: Callback | None = None,
        on_lost: Callback | None = None,
        interval: float | None = None,
    ) -> None:
        """Hold the lease for as long as the task runs: while not held, try to acquire it
        every ``interval`` seconds (default ``ttl / 3``) and await ``on_acquired`` once it is
        ours; while held, renew it every ``interval`` and await ``on_lost`` when that fails.

        A Redis error counts as a loss only once ``valid_until`` has passed (the lease may
        have expired meanwhile). Runs until cancelled; the lease is not released on
        cancellation (a killed process never releases either: it expires).
        """
        period = self.ttl_ms / 3000 if interval is None else interval
        while True:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                # a cancellation that redis-py swallowed whole (caught mid-command and not
                # raised again): the request still stands, and a cancelled holder stops
                raise asyncio.CancelledError
            try:
                if not self.held:
                    if await self.acquire() and on_acquired is not None:
                        await on_acquired()
                elif not await self.renew() and on_lost is not None:
                    await on_lost()
            except RedisError as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # redis-py may turn a cancellation mid-command into a connection error:
                    # a cancelled holder stops (it used to loop on, renewing forever)
                    raise asyncio.CancelledError from exc
                log.warning("lease %s (%s): %s", self.key, self.owner, exc)
                if self.held and time.monotonic() >= self.valid_until:
                    self.held = False
                    if on_lost is not None:
                        await on_lost()
            await asyncio.sleep(period)
