"""What one process reports to the director of a Redis tournament, in order, whatever Redis
does (:class:`ReportQueue`; see :mod:`server.tournament.redis_coordinator`).

A report (a table ready to deal, a hand's end, a registration...) goes into the stream
``P:reports`` at once when Redis answers: in Redis when :meth:`ReportQueue.submit` returns,
so a hand's end reported just before the process dies is not lost. While Redis cannot be
reached (restarting, too slow), reports wait here, in order, and a task writes them as soon
as it answers again. A report never raises into its caller: the caller is often a table's
loop, which a Redis error used to end, leaving the table frozen in a live process.

A report whose write timed out after Redis had added it may be added twice: the director
refuses the second one (a hand that is not in play, a table already dealing) with a warning.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Final

import msgpack
import redis
import redis.asyncio as aioredis

__all__ = ["ReportQueue"]

log = logging.getLogger("brasseur.tournament")

WAITING_MAX: Final = 100_000
"""Reports kept while Redis is away (tables halt without Redis, so few are made; a burst of
registrations is bounded by the gateway's rate limits)."""
RETRY_EVERY: Final = 0.2
"""Seconds between two tries to write the waiting reports."""


class ReportQueue:
    """The reports of process ``process`` to the stream ``key``, in the order submitted."""

    def __init__(
        self, sync: redis.Redis, aio: aioredis.Redis, key: str, process: str, tid: str
    ) -> None:
        self.sync = sync
        self.aio = aio
        self.key = key
        self.process = process
        self.tid = tid
        self._waiting: deque[bytes] = deque()
        self._task: asyncio.Task[None] | None = None
        self.dropped = 0
        """Reports dropped because WAITING_MAX were waiting already."""

    @property
    def waiting(self) -> int:
        """Reports waiting for Redis."""
        return len(self._waiting)

    def submit(self, kind: str, data: dict[str, Any]) -> None:
        """Report ``kind`` with ``data``: in Redis when this returns if Redis answers, else
        queued behind the reports already waiting (never raises a Redis error)."""
        packed = msgpack.packb([kind, data, self.process], use_bin_type=True)
        if not self._waiting:
            try:
                self.sync.xadd(self.key, {"r": packed})
                return
            except redis.RedisError as exc:
                log.warning(
                    "tournament %s: Redis takes no report now (%s): they wait here", self.tid, exc
                )
        if len(self._waiting) >= WAITING_MAX:
            self.dropped += 1
            log.error("tournament %s: %s reports waiting: %s dropped", self.tid, WAITING_MAX, kind)
            return
        self._waiting.append(packed)
        self._wake()

    def _wake(self) -> None:
        if self._task is not None and not self._task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a test): flush() delivers them
        self._task = loop.create_task(self.flush(), name=f"tournament-{self.tid}-reports")

    async def flush(self) -> None:
        """Write the waiting reports, oldest first, retrying until Redis takes them all."""
        sent = 0
        while self._waiting:
            try:
                await self.aio.xadd(self.key, {"r": self._waiting[0]})
            except redis.RedisError:
                await asyncio.sleep(RETRY_EVERY)
                continue
            self._waiting.popleft()
            sent += 1
        if sent:
            log.warning("tournament %s: Redis is back: %s waiting reports sent", self.tid, sent)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
