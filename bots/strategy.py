"""The strategy interface: ``decide(view) -> Decision`` (or several motions, or nothing), and
at five-card draw ``draw(view) -> Decision`` for the player's draw.

A :class:`Decision` is what a player does at a live table, through either or both channels:
a *declaration* (``verb``, ``amount``, ``form``) and/or *chips* pushed in one motion (a tuple of
chip denominations). The server's interpreter reads the gesture under the table's rules and the
resulting :class:`~protocol.messages.ActionEvent` says what it became. A decision with
``discard`` is a draw instead (the cards thrown; none: standing pat), sent as a ``draw``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from protocol import messages as m

from .drawing import discards
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
    discard: tuple[str, ...] | None = None
    """Five-card draw: the cards thrown, as dealt (``()``: stand pat). A decision with a
    ``discard`` is sent as a ``draw`` (its betting fields are not sent)."""

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

    @classmethod
    def draw(cls, *cards: str) -> Decision:
        """Five-card draw: throw ``cards`` and be dealt as many (none: stand pat)."""
        return cls(discard=tuple(cards))

    @classmethod
    def stand_pat(cls) -> Decision:
        """Five-card draw: keep the five cards."""
        return cls(discard=())


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
    """The legal options the server sent (call, can_check, min/max raise-to, pending...;
    at five-card draw, ``draw``, ``max_discard`` and ``cards`` when it is the bot's draw)."""
    game: str = "holdem"
    """``holdem`` or ``draw`` (five-card draw: five cards in ``hole``, no board)."""
    drew: Mapping[int, int] = field(default_factory=dict)
    """Five-card draw: how many cards each seat drew this hand so far (0: stood pat)."""

    @property
    def my_stack(self) -> int:
        return self.stacks.get(self.seat, 0)

    @property
    def my_bet(self) -> int:
        return self.bets.get(self.seat, 0)

    @property
    def drawing(self) -> bool:
        """Five-card draw: the turn is the bot's draw (answer with :meth:`Decision.draw`)."""
        return bool(self.turn.draw)


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
    """Subclass and override :meth:`decide` (and, for five-card draw, :meth:`draw` if its
    default will not do). ``expects_errors``: error replies are part of the strategy's test
    (the fuzzer) and are not counted as errors."""

    name = "strategy"
    expects_errors = False

    def decide(self, view: View) -> Decision | Sequence[Decision] | None:
        raise NotImplementedError

    def draw(self, view: View) -> Decision | Sequence[Decision] | None:
        """Five-card draw: the bot's draw (``view.turn.draw``; its five cards are
        ``view.turn.cards``). Default: keep what makes a hand and draw to it
        (:func:`bots.drawing.discards`)."""
        return Decision.draw(*discards(view.turn.cards or view.hole))

    def on_error(self, view: View | None, error: m.Error) -> Decision | Sequence[Decision] | None:
        """An act or draw of ours was refused; return what to do instead (default: a safe
        legal act; at a draw, standing pat)."""
        if view is None:
            return None
        turn = view.turn
        if turn.draw:
            return Decision.stand_pat()
        if turn.pending == "amount":
            if turn.min_raise_to is not None:
                return Decision.raise_to(turn.min_raise_to)
            return Decision.allin()
        return Decision.check() if turn.can_check else Decision.call()

    def on_event(self, mirror: TableMirror, event: m.Message) -> Sequence[Decision]:
        """Called after every table event: gestures to send now, possibly out of turn."""
        return ()
