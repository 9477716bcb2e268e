"""A cash table's desk: buy-ins, rebuys and top-ups, the waiting list, the option (casino and
fpc cash).

Handlers of the cash commands on the pure table: each checks with the table's
:class:`~server.cash.CashBook` (a refusal raises :class:`~server.cash.CashError` with its
stable ``cash.*`` code and changes nothing), then moves the chips and writes the ledger in the
same write as the seats (the snapshot carries both).
"""

from __future__ import annotations

from typing import Protocol

from protocol.errors import ErrorCode, ProtocolError
from server.cash import Arrival, CashError, Ledger, Refusal
from server.table import commands as c
from server.table.cash import cash_of, offer, open_now
from server.table.hosting import HostTable, ask_host
from server.table.policy import DealingTable
from server.table.seats import SeatState

__all__ = [
    "DeskTable",
    "add_chips",
    "buy_in",
    "join_waiting_list",
    "ledger_of",
    "refuse_seat",
    "take_option",
]


class DeskTable(HostTable, Protocol):
    """What the desk (and a room's moves, :mod:`server.table.cash_moves`) asks of the table
    besides the host's part: its seats by connection, seating a player (the table satisfies
    it; this module never imports it)."""

    @property
    def start_stacks(self) -> dict[int, int]: ...
    def seat_of(self, conn: c.Conn) -> int | None: ...
    def need_seat(self, conn: c.Conn) -> SeatState: ...
    def sit_with(self, now: float, cmd: c.Sit, stack: int) -> None: ...


def buy_in(t: DeskTable, cmd: c.BuyIn, now: float) -> None:
    """Sit with a buy-in (the seat token follows the saved seat, as for any seat)."""
    cash = cash_of(t)
    player = cmd.conn.player
    if player is None:
        raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
    if cmd.option and not cash.rules.option:
        raise CashError(Refusal.OPTION, _NO_OPTION)
    if not open_now(t, cash, now):
        # fpc cash: « Les tables ouvrent à partir de 20h00 et ferment à 23h30 précise »
        raise CashError(Refusal.CLOSED, f"the tables are open {cash.rules.hours} only")
    _members_only(t, player)
    refused = cash.book.refusal(player, cmd.amount, 0, now, capital=cmd.capital)
    if refused is None and ask_host(t, cmd):
        return  # a table that asks its host: the buy-in waits for him
    stale = _free_seat(t, cmd, player)
    refused = cash.book.refusal(player, cmd.amount, 0, now, capital=cmd.capital)
    if refused is not None:
        raise CashError(*refused)
    if stale is not None:
        _release(t, stale, now)
    arrival = Arrival.RETURN if cash.book.owes_return_fee(player) else Arrival.NEW
    cash.book.buy_in(
        player, cmd.name, cmd.amount, 0, now, hand=t.hand_no, capital=cmd.capital, hold=cmd.hold
    )
    if not cash.waiting.accept(cmd.seat, player):
        cash.waiting.leave(player)
    cash.arrivals[cmd.seat] = arrival
    if cmd.option:
        # casino cash: « il est possible de rentrer sur la table directement en option »: he
        # waits to be first after the big blind (server.table.cash._waits), whatever
        # wait_for_bb says, and the option he posts then is his seat fee
        cash.enter_option.add(cmd.seat)
    elif cmd.wait_for_bb:
        cash.wait_bb.add(cmd.seat)
    sit = c.Sit(conn=cmd.conn, seat=cmd.seat, name=cmd.name, ref=cmd.ref, approved=True)
    t.sit_with(now, sit, cmd.amount)


def _members_only(t: DeskTable, player: str) -> None:
    """A table of a league's cash season seats members only (one person, one capital): a
    member's identity is ``m.<member id>`` (server.gateway.accounts), never a guest's."""
    if t.config.extra.get("season") and not player.startswith("m."):
        raise CashError(Refusal.MEMBERS, "log in with your member account to play here")


def _free_seat(t: DeskTable, cmd: c.BuyIn, player: str) -> SeatState | None:
    """Refuse a seat that is not free to ``player`` (taken, offered to another on the
    waiting list, players waiting before him); returns an unclaimed occupant to release."""
    cash = cash_of(t)
    stale = _unclaimed(t, cmd.seat, player)
    if (cmd.seat in t.seats and stale is None) or not 1 <= cmd.seat <= t.config.max_seats:
        raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {cmd.seat} is not free")
    offered = cash.waiting.offered.get(cmd.seat)
    if offered is not None and offered != player:
        raise CashError(Refusal.WAITING_LIST, "this seat is offered to the next on the list")
    if offered is None and cash.waiting and player not in cash.waiting.names[:1]:
        raise CashError(Refusal.WAITING_LIST, "players are waiting: join the waiting list")
    if any(s.player == player for s in t.seats.values()):
        raise ProtocolError(ErrorCode.SEAT_TAKEN, "you already sit at this table")
    return stale


def _unclaimed(t: DeskTable, seat: int, player: str) -> SeatState | None:
    """The seat's occupant when it is a seat restored after a crash that nobody came back to
    (never dealt in since; its seat token may never have reached its player), held by
    someone else than ``player``."""
    state = t.seats.get(seat)
    if state is None or not state.unclaimed or state.player == player:
        return None
    return state


def _release(t: DeskTable, state: SeatState, now: float) -> None:
    """Free an unclaimed seat for a new buy-in. Its stack is not lost: it is written cashed
    out to its owner's name, ``by`` the restart, in the ledger friends settle with (the
    friends tables' rule, where the invite holder takes such a seat again, cannot drop a
    stack that was bought). Its owner, back with a new connection, may take the seat again
    with a new buy-in the same way."""
    state.removed_by = "restart"
    t.remove_player(c.RemovePlayer(seat=state.seat, player=state.player, status="left"), now)


def add_chips(t: DeskTable, cmd: c.AddChips, now: float) -> None:
    """A rebuy or a top-up, between hands (casino: announced, within the maximum; fpc: only
    after a bust)."""
    cash = cash_of(t)
    state = t.need_seat(cmd.conn)
    if t.in_hand() and state.seat in t.start_stacks:
        raise CashError(Refusal.IN_HAND, "chips are added between hands")
    stack = state.stack
    cash.book.buy_in(
        state.player,
        state.name,
        cmd.amount,
        stack,
        now,
        hand=t.hand_no,
        capital=cmd.capital,
        hold=cmd.hold,
    )
    state.stack += cmd.amount
    if stack == 0:
        cash.arrivals[state.seat] = Arrival.REBOUGHT  # casino: « pas de droit de siège »
    t.seat_event(state, "stack")
    t.out.save_snapshot()
    t.policy.schedule(t, now)


_NO_OPTION = "this table has no option (casino cash: « L'option est autorisée en Cash Game »)"


def take_option(t: DeskTable, cmd: c.TakeOption, now: float) -> None:
    """A seated player's standing choice: post the option whenever he is the first player
    after the big blind (``on``), or never (off: an entry in option he still waits for is
    given up too; he comes in as any newcomer). Applied from the next deal: the seats that
    post it in a hand are fixed when it is dealt (``CashState.posting``). Refused with
    ``cash.option`` at a table without the option (fpc cash, ligue, a friends table)."""
    cash = t.cash
    if cash is None or not cash.rules.option:
        raise CashError(Refusal.OPTION, _NO_OPTION)
    state = t.need_seat(cmd.conn)
    if cmd.on:
        cash.straddles.add(state.seat)
        text = "you post the option when first after the big blind, from the next deal"
    else:
        cash.straddles.discard(state.seat)
        cash.enter_option.discard(state.seat)
        text = "no option from the next deal"
    t.notice(cmd.conn.cid, "option", text, "casino-option")
    t.out.save_snapshot()


def join_waiting_list(t: DeskTable, cmd: c.JoinWaitingList, now: float) -> None:
    cash = cash_of(t)
    player = cmd.conn.player
    if player is None:
        raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
    if t.seat_of(cmd.conn) is not None:
        raise ProtocolError(ErrorCode.SEAT_TAKEN, "you already sit at this table")
    watcher = t.watchers.get(cmd.conn.cid)
    if watcher is not None:
        watcher.player = player  # the seat offer goes to this person (server.table.cash.offer)
    place = cash.waiting.join(player)
    t.notice(cmd.conn.cid, "waiting_list", f"you are number {place} on the waiting list")
    for seat in range(1, t.config.max_seats + 1):
        if seat not in t.seats:
            offer(t, cash, seat)


def refuse_seat(t: DeskTable, cmd: c.RefuseSeat, now: float) -> None:
    """casino cash: « Si un joueur refuse un siège, son nom sera reporté en dernier »."""
    cash = cash_of(t)
    player = cmd.conn.player
    seat = next((s for s, p in cash.waiting.offered.items() if p == player), None)
    if player is None or seat is None:
        raise CashError(Refusal.WAITING_LIST, "no seat is offered to you")
    cash.waiting.refuse(seat, player)
    offer(t, cash, seat)


def ledger_of(t: DealingTable) -> Ledger:
    return cash_of(t).book.ledger
