"""The host's controls of a friends or cash table (issue 14, "a host's table").

The creator of a table holds its ``host`` token (``table_created``); with it he may, by a
``host`` message the gateway turns into a :class:`~server.table.commands.HostOrder`:

- **approve** or **refuse** a player asking to sit (a table created with ``approval``: a
  ``sit`` waits, announced by a ``seat_request`` notice to everyone watching, until the host
  answers; refused, the player gets ``host_refused`` and nothing else changes);
- **pause** and **resume** (the hand in play ends; no new hand is dealt meanwhile);
- **remove** a player (his stack goes back to him: a cash-out in a cash table's ledger,
  ``by`` the host; during his hand he is folded at his turn and removed at its end);
- change the **blinds** (from the next hand) and a cash table's **limits**;
- **close** the table.

Every order is said at the table (a ``chat_event`` from ``host``), so that everyone sees
what the host did: pure, like the rest of the table.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Any, Protocol

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.engine import Blinds
from server.table import commands as c
from server.table.cash import CashState
from server.table.phases import TablePhase
from server.table.policy import DealingTable, apply_next_blinds
from server.table.seats import SeatState

__all__ = ["HostOp", "HostTable", "apply_next_blinds", "ask_host", "host_order"]


class HostTable(DealingTable, Protocol):
    """What the host's orders ask of the table (the table satisfies it; this module never
    imports it)."""

    paused: bool

    @property
    def cash(self) -> CashState | None: ...
    def in_hand(self) -> bool: ...
    def error(
        self, cid: str, code: str, message: str, ref: int | None, rule: str | None = None
    ) -> None: ...
    def dispatch(self, cmd: c.Command, now: float) -> None:
        """Handle a command as if it came now (an approved request, replayed)."""

    def remove_player(self, cmd: c.RemovePlayer, now: float) -> None: ...
    def close_table(self) -> None: ...


class HostOp(StrEnum):
    """What a host may order."""

    APPROVE = "approve"
    """Seat the player who asked for ``seat``."""
    REFUSE = "refuse"
    """Turn down the player who asked for ``seat``."""
    PAUSE = "pause"
    """No new hand until ``resume`` (the hand in play ends)."""
    RESUME = "resume"
    REMOVE = "remove"
    """Stand the player of ``seat`` up; his stack goes back to him."""
    BLINDS = "blinds"
    """New blinds ``sb``/``bb``, from the next hand."""
    LIMITS = "limits"
    """A cash table's buy-in limits ``low``..``high``."""
    CLOSE = "close"
    """Close the table for good (a cash table's players are cashed out first)."""


def ask_host(t: HostTable, cmd: c.Sit | c.BuyIn) -> bool:
    """A table that asks its host keeps a ``sit`` waiting (True) until he answers."""
    if cmd.approved or not t.config.extra.get("approval"):
        return False
    if cmd.conn.player is None:
        raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
    if cmd.seat in t.seats or not 1 <= cmd.seat <= t.config.max_seats:
        raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {cmd.seat} is not free")
    other = t.requests.get(cmd.seat)
    if other is not None and other.conn.player != cmd.conn.player:
        raise ProtocolError(ErrorCode.SEAT_TAKEN, f"someone asked for seat {cmd.seat} first")
    t.requests[cmd.seat] = cmd
    buy_in = cmd.amount if isinstance(cmd, c.BuyIn) else None
    request = m.SeatRequest(table=t.table, seat=cmd.seat, player=cmd.name, buy_in=buy_in)
    t.out.send_all(request)  # the host is among the watchers: he answers with host
    return True


def host_order(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    """Carry out a host's order (see the module docstring); a refused one changes nothing."""
    try:
        op = HostOp(cmd.op)
    except ValueError:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"unknown host op {cmd.op!r}") from None
    _ORDERS[op](t, cmd, now)


def _request(t: HostTable, cmd: c.HostOrder) -> Any:
    request = t.requests.pop(cmd.seat or 0, None)
    if request is None:
        raise ProtocolError(ErrorCode.BAD_SEAT, "nobody asks for this seat")
    return request


def _approve(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    if isinstance(t.requests.get(cmd.seat or 0), c.AskChange):
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a table change is agreed with move")
    request = _request(t, cmd)
    t.host_says(f"{request.name} may sit at seat {request.seat}")
    t.dispatch(replace(request, approved=True), now)


def _refuse(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    request = _request(t, cmd)
    if isinstance(request, c.AskChange):
        # casino cash: « il devra obtenir l'accord du superviseur et avoir une raison
        # valable »: refused, he stays at his seat, and he is told
        state = t.seats.get(cmd.seat or 0)
        t.notice(request.conn.cid, "change_refused", "the host keeps you at this table")
        t.host_says(f"{state.name if state else 'the player'} stays at this table")
        return
    t.error(request.conn.cid, ErrorCode.HOST_REFUSED, "the host did not seat you", request.ref)


def _pause(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    if not t.paused:
        t.paused = True
        t.timers.next_hand = None
        t.host_says("the table is paused")


def _resume(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    if t.paused:
        t.paused = False
        t.host_says("the game resumes")
        if t.phase is TablePhase.BETWEEN and t.timers.next_hand is None:
            t.timers.next_hand = now + t.config.next_hand_seconds  # the deal it held back
        t.policy.schedule(t, now)


def _remove(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    state = t.seats.get(cmd.seat or 0)
    if state is None:
        raise ProtocolError(ErrorCode.BAD_SEAT, "nobody sits there")
    t.host_says(f"{state.name} is removed from the table")
    _stand_up(t, state, now)


def _blinds(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    sb, bb = cmd.sb, cmd.bb
    if sb is None or bb is None or not 0 < sb <= bb:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "blinds: 0 < sb <= bb")
    cash = t.cash
    if cash is not None:
        try:
            cash.with_blinds(t.config.profile, sb, bb, t.config.cash or {})
        except ValueError as exc:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"blinds: {exc}") from None
    t.next_blinds = Blinds(sb=sb, bb=bb, ante=t.blinds.ante, ante_format=t.blinds.ante_format)
    t.host_says(f"blinds {sb}/{bb} from the next hand")
    if not t.in_hand():
        apply_next_blinds(t)
    t.out.save_snapshot()


def _limits(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    cash = t.cash
    low, high = cmd.low, cmd.high
    if cash is None or low is None or high is None:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "limits: a cash table, low and high")
    rules = replace(cash.rules, min_buyin=low, max_buyin=high)
    try:
        rules.check()
    except ValueError as exc:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"limits: {exc}") from None
    cash.rules = cash.book.rules = rules
    t.host_says(f"buy-ins from {low} to {high}")
    t.out.save_snapshot()


def _close(t: HostTable, cmd: c.HostOrder, now: float) -> None:
    if t.in_hand():
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "close the table between hands (pause it)")
    t.host_says("the host closes the table")
    for state in list(t.seats.values()):
        _stand_up(t, state, now)
    t.out.save_snapshot()
    t.close_table()


def _stand_up(t: HostTable, state: SeatState, now: float) -> None:
    """The host stands a player up: between hands at once (a cash table writes his stack
    returned, ``by`` the host), during his hand when it ends (folded at his turn)."""
    state.removed_by = "host"
    t.remove_player(c.RemovePlayer(seat=state.seat, player=state.player, status="left"), now)


_ORDERS = {
    HostOp.APPROVE: _approve,
    HostOp.REFUSE: _refuse,
    HostOp.PAUSE: _pause,
    HostOp.RESUME: _resume,
    HostOp.REMOVE: _remove,
    HostOp.BLINDS: _blinds,
    HostOp.LIMITS: _limits,
    HostOp.CLOSE: _close,
}
