"""The strategy interface: ``decide(view) -> Decision`` (or several motions, or nothing).

A :class:`Decision` is what a player does at a live table, through either or both channels:
a *declaration* (``verb``, ``amount``, ``form``) and/or *chips* pushed in one motion (a tuple of
chip denominations). The server's interpreter reads the gesture under the table's rules and the
resulting :class:`~protocol.messages.ActionEvent` says what it became.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol import messages as m

if TYPE_CHECKING:
    from .mirror import TableMirror

__all__ = ["Decision", "Strategy", "View", "chips_for"]


@dataclass(frozen=True, slots=True)
class Decision:
    verb: str | None = None
    """fold | check | call | bet | raise | allin (None: chips only)."""
    amount: int | None = None
    form: str | None = None
    """How ``amount`` reads: total (default) | plus | abbreviated."""
    chips: tuple[int, ...] | None = None
    """Chip denominations pushed in one motion."""

    @classmethod
    def fold(cls) -> Decision:
        return cls(verb="fold")

    @classmethod
    def check(cls) -> Decision:
        return cls(verb="check")

    @classmethod
    def call(cls) -> Decision:
        return cls(verb="call")

    @classmethod
    def raise_to(cls, total: int) -> Decision:
        """Bet or raise to ``total`` chips this street (the server reads bet and raise alike)."""
        return cls(verb="raise", amount=total, form="total")

    @classmethod
    def allin(cls) -> Decision:
        return cls(verb="allin")

    @classmethod
    def push(cls, *chips: int) -> Decision:
        """Chips only, in one motion, no word said."""
        return cls(chips=tuple(chips))


@dataclass(frozen=True, slots=True)
class View:
    """What a seated bot knows when it is asked to act (built from its table mirror)."""

    table: str
    hand: int
    seat: int
    hole: tuple[str, ...]
    board: tuple[str, ...]
    street: str
    stacks: Mapping[int, int]
    """Chips behind, per seat, right now."""
    bets: Mapping[int, int]
    """Chips in front of each seat this street."""
    pot: int
    """Everything put in this hand (earlier streets and this street's bets)."""
    in_hand: tuple[int, ...]
    """Seats dealt in and not folded."""
    button: int | None
    blinds: tuple[int, int, int]
    """small blind, big blind, ante."""
    denominations: tuple[int, ...]
    turn: m.Turn
    """The legal options the server sent (call, can_check, min/max raise-to, pending...)."""

    @property
    def my_stack(self) -> int:
        return self.stacks.get(self.seat, 0)

    @property
    def my_bet(self) -> int:
        return self.bets.get(self.seat, 0)


def chips_for(amount: int, denominations: Sequence[int]) -> tuple[int, ...]:
    """The fewest chips making ``amount`` (greedy on the table's denominations; may fall short
    if the amount is not a multiple of the smallest chip)."""
    out: list[int] = []
    rest = amount
    for d in sorted(denominations, reverse=True):
        while rest >= d and len(out) < 200:
            out.append(d)
            rest -= d
    return tuple(out)


class Strategy:
    """Subclass and override :meth:`decide`. ``expects_errors``: error replies are part of the
    strategy's test (the fuzzer) and are not counted as errors."""

    name = "strategy"
    expects_errors = False

    def decide(self, view: View) -> Decision | Sequence[Decision] | None:
        raise NotImplementedError

    def on_error(self, view: View | None, error: m.Error) -> Decision | Sequence[Decision] | None:
        """An act of ours was refused; return what to do instead (default: a safe legal act)."""
        if view is None:
            return None
        turn = view.turn
        if turn.pending == "amount":
            if turn.min_raise_to is not None:
                return Decision.raise_to(turn.min_raise_to)
            return Decision.allin()
        return Decision.check() if turn.can_check else Decision.call()

    def on_event(self, mirror: TableMirror, event: m.Message) -> Sequence[Decision]:
        """Called after every table event: gestures to send now, possibly out of turn."""
        return ()
