"""Slowing down password guessing (pure: the clock is given).

Every guess is *counted before it is checked*: :meth:`GuessGuard.take` spends one token of
each of its keys at once (all of them or none) before the hash runs, and a guess that
turns out right gets its tokens back (:meth:`GuessGuard.refund`). So requests in flight
are counted, and no concurrency gets more guesses than the tokens allow.

Keys are token buckets, never a hard lock: a key of kind ``k`` holds ``capacity[k]`` tokens
and gets ``capacity[k]`` back per ``period`` (an hour), one at a time. A stranger who keeps a
login's bucket empty only slows that login down; the member still gets in through a bucket
of his own (docs/accounts.md, "Guessing"):

- ``login:<login>`` and ``address:<address>`` together: a guess from anywhere;
- ``trusted:<login>``: a guess from a connection that holds one of this member's session
  tokens (current, or ended by a newer password), or from an address where one of his
  connections holds his valid session; strangers elsewhere never touch it;
- ``member:<id>``: the current password asked by a password change (a stolen session does
  not guess it either).

Guesses checked for one login in any ``T`` seconds are therefore at most
``capacity * (1 + T / period)`` per kind (:meth:`GuessGuard.bound`), whatever the number of
connections, addresses and requests in flight. Kept in memory, per process.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["GUESS_KINDS", "GuessGuard"]

HOUR = 3600.0
GUESS_KINDS = ("login", "address", "trusted", "member")


@dataclass(slots=True)
class GuessGuard:
    capacity: Mapping[str, int]
    """Tokens per kind of key (:data:`GUESS_KINDS`); 0 or absent: that kind is unlimited."""
    period: float = HOUR
    """Seconds in which a key's whole capacity comes back."""
    most_keys: int = 100_000
    """Keys remembered at most: full buckets are forgotten first, then the fullest (a drained
    key, the one an attacker would like forgotten, goes last)."""
    _level: dict[str, tuple[float, float]] = field(default_factory=dict)

    def _capacity(self, key: str) -> int:
        return self.capacity.get(key.split(":", 1)[0], 0)

    def level(self, key: str, now: float) -> float:
        """Tokens ``key`` holds at ``now``."""
        cap = self._capacity(key)
        tokens, at = self._level.get(key, (float(cap), now))
        return min(float(cap), tokens + max(0.0, now - at) * cap / self.period)

    def take(self, keys: tuple[str, ...], now: float) -> float:
        """Spend one token of every key and answer 0; or, when one of them has none, spend
        nothing and answer the seconds until all of them have one."""
        wait = 0.0
        for key in keys:
            cap = self._capacity(key)
            if cap > 0:
                wait = max(wait, (1.0 - self.level(key, now)) * self.period / cap)
        if wait > 0:
            return max(wait, 1e-6)
        for key in keys:
            if self._capacity(key) > 0:
                self._set(key, self.level(key, now) - 1.0, now)
        return 0.0

    def refund(self, keys: tuple[str, ...], now: float) -> None:
        """Give back the tokens of a guess that was right (or was never checked)."""
        for key in keys:
            cap = self._capacity(key)
            if cap > 0 and key in self._level:
                self._set(key, min(float(cap), self.level(key, now) + 1.0), now)

    def bound(self, kind: str, seconds: float) -> int:
        """Guesses one key of ``kind`` allows at most in any ``seconds``."""
        cap = self.capacity.get(kind, 0)
        return math.floor(cap * (1 + seconds / self.period))

    def _set(self, key: str, tokens: float, now: float) -> None:
        if key not in self._level and len(self._level) >= self.most_keys:
            self._prune(now)
        self._level[key] = (tokens, now)

    def _prune(self, now: float) -> None:
        for key in [k for k in self._level if self.level(k, now) >= self._capacity(k)]:
            del self._level[key]
        if len(self._level) >= self.most_keys:
            fullest = sorted(self._level, key=lambda k: -self.level(k, now) / self._capacity(k))
            for key in fullest[: len(self._level) - self.most_keys // 2]:
                del self._level[key]

    def __len__(self) -> int:
        return len(self._level)
