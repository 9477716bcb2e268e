"""The streets of a hand: its betting rounds, in order, and their names on the wire.

A value of its own so that the parts of a hand (:mod:`.runs`, :mod:`.state`) can name a
street without importing each other.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["STREET_NAMES", "Street"]


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    DRAW = 4
    """Five-card draw: the betting round after the draw (the first one is ``PREFLOP``)."""


STREET_NAMES = ("preflop", "flop", "turn", "river", "draw")
