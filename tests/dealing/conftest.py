"""Decks made from a seeded source, so a failing test can be replayed."""

from __future__ import annotations

import random

from server.dealing import Deck


def seeded_deck(seed: int) -> Deck:
    """A deck shuffled and salted from ``random.Random(seed)`` (tests only; never in play)."""
    rng = random.Random(seed)
    return Deck.shuffled(randbelow=rng.randrange, token_bytes=rng.randbytes)
