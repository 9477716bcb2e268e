"""The tournament clock: one for the whole tournament, driven by injected times (pure).

It can be stopped (hand-for-hand, cdc 2.7) and advanced by hand (2 minutes per hand-for-hand
hand). The last level of the structure never ends. While running, the clock keeps the
absolute time the level ends (no drift from repeated subtraction); while stopped, the time
left in the level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .config import Level

__all__ = ["TournamentClock"]


class TournamentClock:
    def __init__(self, levels: Sequence[Level]) -> None:
        self.levels = tuple(levels)
        self.index = 0
        self.running = False
        self.last = 0.0
        self._left = self._duration(0)
        """Seconds left in the level while stopped."""
        self._ends = math.inf
        """Absolute end of the level while running."""

    def _duration(self, index: int) -> float:
        if index >= len(self.levels) - 1:
            return math.inf
        return self.levels[index].minutes * 60.0

    @property
    def level(self) -> Level:
        return self.levels[self.index]

    @property
    def remaining(self) -> float:
        return self._ends - self.last if self.running else self._left

    def start(self, now: float) -> None:
        self.running = True
        self.last = now
        self._ends = now + self._left

    def advance(self, now: float) -> list[int]:
        """Run the clock to ``now``; returns the indices of the levels entered, in order."""
        self.last = max(self.last, now)
        entered: list[int] = []
        while self.running and self.last >= self._ends:
            self.index += 1
            self._ends += self._duration(self.index)
            entered.append(self.index)
        return entered

    def stop(self, now: float) -> list[int]:
        entered = self.advance(now)
        if self.running:
            self.running = False
            self._left = self._ends - self.last
        return entered

    def resume(self, now: float) -> None:
        if not self.running:
            self.last = max(self.last, now)
            self.running = True
            self._ends = self.last + self._left

    def add(self, seconds: float) -> list[int]:
        """Advance by ``seconds`` whether running or not (cdc 2.7: 2 minutes per hand)."""
        if self.running:
            self._ends -= seconds
            return self.advance(self.last)
        entered: list[int] = []
        self._left -= seconds
        while self._left <= 0:
            self.index += 1
            self._left += self._duration(self.index)
            entered.append(self.index)
        return entered

    def level_ends_at(self) -> float | None:
        if not self.running or math.isinf(self._ends):
            return None
        return self._ends
