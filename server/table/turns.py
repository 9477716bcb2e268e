"""Decisions: one id per decision a table opens, and whether the private ``turn`` that offers
it was sent (:class:`DecisionBook`, a value the table holds as ``decisions``; the table sends
the ``turn``, :meth:`server.table.play.Play.send_turn`).

A *decision* is what the player to act is asked to decide, with the options of the moment
(the engine's :class:`~server.engine.Menu`). It is new when another player is to act, when
a new street starts, or when the options change (a pending amount after "raise" said alone,
a call-or-fold restriction, cdc 9.3-9.4, 9.12; an opponent's fold out of turn that leaves
nobody to raise against); it stays the same when nothing the player may do changed (a
reconnection, a declaration recorded out of turn by someone else, cdc 9.3).

Each decision gets an id that increases strictly over the table's life: the table's
sequence number when it opened (or one more than the last id), so that a hand cut by a crash
and dealt again under the same number (cdc 5.4) never offers an id a client already
answered. ``turn`` is sent once per decision (and again, with the same id, to a player who
comes back while it is open); an ``act`` may name the decision it answers (``stale_decision``
otherwise). Pure, like the rest of the table: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from protocol.errors import ErrorCode, ProtocolError
from server.engine import DrawMenu, Menu
from server.engine import events as ev

__all__ = ["DecisionBook"]

DecisionKey = tuple[object, ...]


@dataclass(slots=True)
class DecisionBook:
    """The decisions of one table: the open one's id and what identifies it."""

    number: int = 0
    """The id of the latest decision (0: none yet in this process)."""
    key: DecisionKey | None = None
    """What makes the latest decision what it is: the table's steps so far and the options."""
    steps: int = 0
    """Moves that close a decision whatever the options: actions in turn (a timeout too),
    pending declarations (the same player, asked again) and streets dealt."""
    offered: int = 0
    """The id of the latest decision a ``turn`` was sent for."""

    def saw(self, events: Iterable[ev.Event]) -> None:
        """Count the moves among engine events that close the decision open before them."""
        for e in events:
            if isinstance(e, ev.Pending | ev.BoardDealt | ev.Drew) or (
                isinstance(e, ev.Acted) and not e.out_of_turn
            ):
                self.steps += 1

    def open(self, menu: Menu | DrawMenu, seq: int) -> int:
        """The id of the decision ``menu`` offers: the current one if nothing changed, else a
        new one, above every earlier id and at least the table's sequence number ``seq``.
        Five-card draw: a player's draw (a :class:`DrawMenu`) is a decision of its own."""
        key: DecisionKey
        if isinstance(menu, DrawMenu):
            key = (self.steps, menu.player, "draw", menu.max_discard)
        else:
            key = (
                self.steps,
                menu.player,
                menu.call,
                menu.can_check,
                menu.can_fold,
                menu.can_raise,
                menu.min_raise_to,
                menu.max_raise_to,
                menu.pending,
            )
        if key != self.key:
            self.key = key
            self.number = max(self.number + 1, seq)
        return self.number

    def to_offer(self, menu: Menu | DrawMenu, seq: int) -> int | None:
        """The id of the decision ``menu`` opens if its ``turn`` is still to be sent (it is
        then counted as sent), else None: a declaration recorded out of turn by someone else
        changes nothing of the decision offered."""
        decision = self.open(menu, seq)
        if decision == self.offered:
            return None
        self.offered = decision
        return decision

    def check(self, menu: Menu | DrawMenu | None, seat: int, decision: int, seq: int) -> None:
        """An ``act`` of ``seat`` naming ``decision``, ``menu`` the options open now (None:
        no decision is open). Raises ``stale_decision`` unless it is the decision open for
        this seat now; nothing changes either way."""
        if menu is None or int(menu.player) != seat:
            raise ProtocolError(ErrorCode.STALE_DECISION, "no decision of yours is open")
        if self.open(menu, seq) != decision:
            raise ProtocolError(
                ErrorCode.STALE_DECISION,
                f"decision {decision} is not the open one ({self.number})",
            )
