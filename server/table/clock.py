"""Injected time: the table actor never reads the system clock itself.

``RealClock`` for the server; ``FakeClock`` for tests, which move time forward with
``advance`` instead of sleeping (STYLE.md 7).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import UTC, datetime
from typing import Protocol

__all__ = ["Clock", "FakeClock", "RealClock"]


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def wall(self) -> str:
        """UTC wall time, ISO 8601 (for hand records)."""
        ...

    async def sleep_until(self, when: float) -> None: ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    async def sleep_until(self, when: float) -> None:
        delay = when - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)


class FakeClock:
    """Time stands still until a test calls :meth:`advance`."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> str:
        return datetime.fromtimestamp(1_790_000_000 + self._now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._timers, (when, next(self._ids), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking every sleeper whose time has come, in order."""
        target = self._now + seconds
        while self._timers and self._timers[0][0] <= target:
            when, _, future = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
            for _ in range(5):
                await asyncio.sleep(0)
        self._now = target
        for _ in range(5):
            await asyncio.sleep(0)
