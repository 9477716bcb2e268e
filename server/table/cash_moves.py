"""A cash table's part of a move between the tables of a room (server.cash.moves): a player
leaving for another table, a player arriving from one, a change asked of the host.

The gateway decides who moves where (server.gateway.cash_room) and tells each table; the
source table frees the seat and saves the stack as ``moved_out`` before anything else (its
``Transfer`` effect follows that write), the target saves it as ``moved_in`` with the seat.
A crash between the two writes leaves the stack written out of the source to the player's
name: no chip is created, none is lost, and he buys in again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.cash import Arrival, CashError, Entry, Refusal
from server.cash.moves import MoveKind
from server.table import commands as c
from server.table.cash import cash_of
from server.table.cash_desk import DeskTable
from server.table.seats import SeatState

__all__ = ["MOVE_HANDLERS", "ask_change", "move_in", "move_out"]


def move_out(t: DeskTable, cmd: c.MoveOut, now: float) -> None:
    """Free ``cmd.seat`` for the move: at once between hands, else when the hand he is
    dealt in ends (he plays it out: nothing of it is folded for him)."""
    cash = cash_of(t)
    state = t.seats.get(cmd.seat)
    if state is None or state.player != cmd.player or state.leaving:
        raise ProtocolError(ErrorCode.BAD_SEAT, "nobody to move in this seat")
    if state.stack <= 0 and not state.moving:
        raise CashError(Refusal.BELOW_MIN, "a busted player has no stack to move")
    if cmd.seat in cash.moving:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"{state.name} is moving already")
    cash.moving[cmd.seat] = cmd
    if isinstance(t.requests.get(cmd.seat), c.AskChange):
        del t.requests[cmd.seat]  # agreed: the change asked is this move
    if t.in_hand() and cmd.seat in t.start_stacks:
        state.moving = True
        t.host_says(f"{state.name} moves to {cmd.to_name} after this hand")
        return
    t.remove_player(c.RemovePlayer(seat=cmd.seat, player=cmd.player, status="left"), now)


def move_in(t: DeskTable, cmd: c.MoveIn, now: float) -> None:
    """Seat a player from another table of the room with his stack, at a free seat drawn at
    random (one the waiting list or a request holds excepted)."""
    cash = cash_of(t)
    if cmd.stack <= 0:
        raise CashError(Refusal.BELOW_MIN, "nothing to bring: a move carries chips")
    if any(s.player == cmd.player for s in t.seats.values()):
        raise ProtocolError(ErrorCode.SEAT_TAKEN, "he already sits at this table")
    held = set(cash.waiting.offered) | set(t.requests)
    free = [s for s in range(1, t.config.max_seats + 1) if s not in t.seats and s not in held]
    if not free:
        # filled between the gateway's check and now: his stack left the other table to his
        # name (its ledger), nothing was written here
        t.host_says(f"no free seat for {cmd.name}: his chips stay cashed out to him")
        raise CashError(Refusal.TABLE_FULL, "the table filled up: your chips are cashed out")
    seat = free[t.randbelow(len(free))]
    cash.book.move_in(cmd.player, cmd.name, cmd.stack, cmd.source, now, hand=t.hand_no)
    kind = MoveKind(cmd.kind)
    if kind is MoveKind.CHANGE:
        cash.arrivals[seat] = Arrival.RETURN if cmd.seat_fee else Arrival.NEW
    else:
        cash.arrivals[seat] = Arrival.MOVED
        if cash.rules.entry is Entry.SEAT_FEE:
            cash.wait_button.add(seat)
    t.host_says(f"{cmd.name} comes from another table with {cmd.stack}")
    if cmd.conn is not None and cmd.conn.player == cmd.player:
        sit = c.Sit(conn=cmd.conn, seat=seat, name=cmd.name, approved=True)
        t.sit_with(now, sit, cmd.stack)
        return
    state = t.seats[seat] = SeatState(
        seat=seat,
        player=cmd.player,
        name=cmd.name,
        stack=cmd.stack,
        time_bank=t.config.time_bank_seconds,
    )
    state.bank_at_start = state.time_bank
    t.seat_event(state, "seated")
    t.out.save_snapshot()


def ask_change(t: DeskTable, cmd: c.AskChange, now: float) -> None:
    """casino cash: the supervisor must agree to a table change; the host sees the request
    (a ``seat_request`` with ``to``) and answers with ``host`` ``move``, or ``refuse`` (the
    player is told). Kept in memory with the sit requests: a restart forgets it."""
    state = t.need_seat(cmd.conn)
    t.requests[state.seat] = cmd  # the host agrees (``move``) or refuses (``refuse``)
    request = m.SeatRequest(table=t.table, seat=state.seat, player=state.name, to=cmd.to)
    t.out.send_all(request)
    t.host_says(f"{state.name} asks to change to {cmd.to_name}")


MOVE_HANDLERS: dict[type[Any], Callable[[DeskTable, Any, float], None]] = {
    c.MoveOut: move_out,
    c.MoveIn: move_in,
    c.AskChange: ask_change,
}
"""The table's handlers of a cash room's moves (merged into the table's handlers)."""
