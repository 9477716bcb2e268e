"""Slowing down password guessing (pure: the clock is given).

Each key (a login, an address) may fail ``failures`` times within ``window`` seconds; after
that it waits ``lockout`` seconds, doubled at each further lockout up to ``max_lockout``. A
success clears the key. Kept in memory: a restart forgets it (the hashes stay slow)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["AttemptGuard"]


@dataclass(slots=True)
class _Key:
    fails: list[float] = field(default_factory=list)
    locked_until: float = 0.0
    lockouts: int = 0


@dataclass(slots=True)
class AttemptGuard:
    failures: int = 5
    window: float = 900.0
    lockout: float = 300.0
    max_lockout: float = 3600.0
    max_keys: int = 100_000
    """Keys remembered at most (the oldest forgotten first): bounded memory under a flood."""
    _keys: dict[str, _Key] = field(default_factory=dict)

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait before its next attempt (0: it may try now)."""
        entry = self._keys.get(key)
        return 0.0 if entry is None else max(0.0, entry.locked_until - now)

    def failed(self, key: str, now: float) -> None:
        entry = self._keys.pop(key, None) or _Key()
        self._keys[key] = entry  # the newest last: the oldest are forgotten first
        entry.fails = [t for t in entry.fails if t > now - self.window] + [now]
        if len(entry.fails) >= self.failures:
            entry.lockouts += 1
            delay = min(self.max_lockout, self.lockout * 2 ** (entry.lockouts - 1))
            entry.locked_until = now + delay
            entry.fails = []
        while len(self._keys) > self.max_keys:
            del self._keys[next(iter(self._keys))]

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)
