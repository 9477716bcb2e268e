"""Injected time: the table actor never reads the system clock itself.

``RealClock`` for the server; ``FakeClock`` for tests, which move time forward with
``advance`` instead of sleeping (STYLE.md 7).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

__all__ = ["AcceleratedClock", "Cancellable", "Clock", "FakeClock", "RealClock"]


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def wall(self) -> str:
        """UTC wall time, ISO 8601 (for hand records)."""
        ...

    async def sleep_until(self, when: float) -> None: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback`` (in the event loop) once ``now()`` reaches ``when``."""
        ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    async def sleep_until(self, when: float) -> None:
        delay = when - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.monotonic()), callback)


class AcceleratedClock(RealClock):
    """Real time run ``speed`` times faster (tournament tests and demos: a 20-minute level in
    20 seconds at 60x). Every timer of the tables and the director scales with it."""

    def __init__(self, speed: float) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = speed
        self._t0 = time.monotonic()

    def now(self) -> float:
        return self._t0 + (time.monotonic() - self._t0) * self.speed

    async def sleep_until(self, when: float) -> None:
        delay = (when - self.now()) / self.speed
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, (when - self.now()) / self.speed), callback)


class FakeClock:
    """Time stands still until a test calls :meth:`advance`."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._calls: list[tuple[float, int, _FakeHandle]] = []
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

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        handle = _FakeHandle(callback)
        heapq.heappush(self._calls, (when, next(self._ids), handle))
        return handle

    def _next_due(self, target: float) -> float | None:
        times = [t[0] for t in (self._timers[:1] + self._calls[:1]) if t[0] <= target]
        return min(times) if times else None

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking sleepers and running callbacks in time order."""
        target = self._now + seconds
        while (when := self._next_due(target)) is not None:
            self._now = max(self._now, when)
            while self._timers and self._timers[0][0] <= self._now:
                _, _, future = heapq.heappop(self._timers)
                if not future.done():
                    future.set_result(None)
            while self._calls and self._calls[0][0] <= self._now:
                _, _, handle = heapq.heappop(self._calls)
                handle.run()
            for _ in range(5):
                await asyncio.sleep(0)
        self._now = target
        for _ in range(5):
            await asyncio.sleep(0)


class _FakeHandle:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def run(self) -> None:
        if not self.cancelled:
            self.callback()
