"""Who shows and who mucks at a hand's showdown, and in what order (cdc 10, tda 15-18).

:class:`Showing` is that state alone, a frozen value: each step (the hands turned face up, a
hand shown, a hand mucked, the showing order set) is a new value that the
:class:`~server.engine.hand.Hand` keeps in place of the old one. It knows nothing of cards or
chips: the hand decides when a hand must be shown and what it wins (:mod:`.showdown`).
Players are the hand's indices.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Showing"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Showing:
    """The showing and mucking of one hand (see the module docstring)."""

    face_up: bool = False
    """Every live hand was turned face up: betting is over with an all-in (cdc 10.4,
    tda 15); none of them may be mucked."""
    shown: frozenset[int] = frozenset()
    mucked: frozenset[int] = frozenset()
    order: tuple[int, ...] = ()
    """The showing order once the showdown begins: the last aggressor of the last round
    first, else the first left of the button (cdc 10.5, tda 16)."""
    first: int = -1
    """The first to show (``order[0]``), or -1 before the showdown."""

    def turned_face_up(self, live: Iterable[int]) -> Showing:
        """Every live hand face up."""
        return Showing(
            face_up=True,
            shown=self.shown | frozenset(live),
            mucked=self.mucked,
            order=self.order,
            first=self.first,
        )

    def ordered(self, order: Iterable[int]) -> Showing:
        """The showdown begins: the showing order."""
        in_order = tuple(order)
        return Showing(
            face_up=self.face_up,
            shown=self.shown,
            mucked=self.mucked,
            order=in_order,
            first=in_order[0],
        )

    def showing(self, i: int) -> Showing:
        """Player i shows his hand (shown again after a muck: it is shown)."""
        return Showing(
            face_up=self.face_up,
            shown=self.shown | {i},
            mucked=self.mucked - {i},
            order=self.order,
            first=self.first,
        )

    def mucking(self, i: int) -> Showing:
        """Player i mucks his hand."""
        return Showing(
            face_up=self.face_up,
            shown=self.shown,
            mucked=self.mucked | {i},
            order=self.order,
            first=self.first,
        )

    def contenders(self, live: Iterable[int]) -> list[int]:
        """The live players who have not mucked."""
        mucked = self.mucked
        return [i for i in live if i not in mucked]
