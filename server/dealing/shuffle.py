"""The shuffle: Fisher–Yates driven by a CSPRNG (``secrets.randbelow``), injectable for tests."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

__all__ = ["RandBelow", "TokenBytes", "shuffle", "shuffled_deck"]

RandBelow = Callable[[int], int]
"""``randbelow(n)`` returns an int in ``0..n-1``; :func:`secrets.randbelow` in production."""
TokenBytes = Callable[[int], bytes]
"""``token_bytes(n)`` returns ``n`` random bytes; :func:`secrets.token_bytes` in production."""


def shuffle(cards: Iterable[int], *, randbelow: RandBelow = secrets.randbelow) -> list[int]:
    """A new list holding ``cards`` in a uniformly random order (Fisher–Yates, Durstenfeld).

    For ``i`` from the last index down to 1, swap item ``i`` with item ``randbelow(i + 1)``;
    ``randbelow`` is called with ``n, n - 1, ..., 2``. Raises ValueError if ``randbelow``
    returns a value out of range (a broken source must not deal a biased deck).
    """
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = randbelow(i + 1)
        if not 0 <= j <= i:
            raise ValueError(f"randbelow({i + 1}) returned {j}")
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(*, randbelow: RandBelow = secrets.randbelow) -> list[int]:
    """The 52 cards (0..51, see :mod:`server.engine.cards`) shuffled by :func:`shuffle`."""
    return shuffle(range(52), randbelow=randbelow)
