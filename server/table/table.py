"""The pure table: ``handle(command, now) -> effects``, ``tick(now)``, ``next_deadline()``.

Sans-I/O like the engine (STYLE.md 1, the websockets ``Protocol`` model): no asyncio, no
clock, no randomness inside (the dealer and ``randbelow`` are injected, ``now`` is passed in).
The shell (:mod:`server.table.actor`) carries out the effects in order: a store write first,
then what it lets go out. When a write fails the shell hands the rest back
(:meth:`Table.write_failed`): the table halts visibly, retries the same write with backoff,
and goes on by itself once it succeeds (no sequence gap, nothing lost, nothing sent twice).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any, ClassVar

from protocol.errors import ErrorCode, ProtocolError
from server.cash import CashError, Refusal
from server.engine import RuleError
from server.table import commands as c
from server.table.cash import CashPolicy, CashState
from server.table.cash_desk import add_chips, buy_in, join_waiting_list, refuse_seat, take_option
from server.table.cash_moves import MOVE_HANDLERS
from server.table.config import TableConfig
from server.table.dealer import Dealer
from server.table.effects import Deliver, Effect, GrantSeat, Halted, Kick, Resumed, Write
from server.table.hosting import ask_host, host_order
from server.table.phases import TablePhase, Trigger
from server.table.play import Play
from server.table.policy import DealingPolicy, DirectedPolicy, FriendsPolicy
from server.table.recovery import restore
from server.table.runs import agree
from server.table.seats import SeatState, Watcher

__all__ = ["Table"]

RESYNC_BURST = 3.0
RESYNC_EVERY = 2.0
"""Resyncs per connection: bursts of 3, then one every 2 seconds (a resync is a snapshot or
up to RECENT_EVENTS events: bounded, but not free)."""
RETRY_FIRST = 0.5
RETRY_MAX = 10.0
"""Backoff of the retries of a failed store write (seconds, doubling)."""
DEFERRED_MAX = 1000
"""Commands kept while halted (connections coming and going, the director's orders)."""

_KEPT_WHILE_HALTED: tuple[type[Any], ...] = (c.Gone, c.MoveOut, c.MoveIn)
"""Commands with a connection that a halted table keeps for its resumption (no client waits
for their answer); every other client command is refused at once (``table_halted``)."""


class Table(Play):
    def __init__(
        self,
        config: TableConfig,
        dealer: Dealer,
        randbelow: Callable[[int], int],
        *,
        wall: Callable[[], str],
        directed: bool = False,
        seq: int = 0,
    ) -> None:
        self.cash: CashState | None = None
        policy: DealingPolicy = DirectedPolicy() if directed else FriendsPolicy()
        if config.cash is not None and not directed:
            policy = CashPolicy()
            self.cash = CashState.for_table(config.profile, config.sb, config.bb, config.cash)
        super().__init__(config, dealer, policy, randbelow, wall=wall, seq=seq)
        self._stalled: list[Effect] = []
        self._deferred: list[c.Command] = []
        self._halted_from = TablePhase.WAITING
        self._halted_at = 0.0
        self._backoff = RETRY_FIRST
        self.store_failures = 0
        self.halt_reason = ""
        self._retrying: list[Effect] | None = None
        """The effects a retry adds after the stalled ones (Resumed, the notice): dropped
        if the retry fails too."""

    # ------------------------------------------------------------------ the interface

    def handle(self, cmd: c.Command, now: float) -> list[Effect]:
        """Apply one command; the effects to carry out, in order."""
        self.now = now
        self._retrying = None  # the last retry's effects all went out: resumed for good
        if self.phase is TablePhase.HALTED:
            self._while_halted(cmd)
        elif not self.closed:
            self._guarded(cmd, now)
        return self.flush()

    def tick(self, now: float) -> list[Effect]:
        """Fire the timers that are due."""
        self.now = now
        self._retrying = None
        if self.phase is TablePhase.HALTED:
            if self.timers.retry is not None and now >= self.timers.retry:
                return self._resume(now)
            return []
        if not self.closed:
            try:
                self.fire_timers(now)
                if self.phase is TablePhase.WAITING:
                    self.policy.schedule(self, now)
            except Exception:
                self.internal_errors.append(traceback.format_exc())
        return self.flush()

    def next_deadline(self) -> float | None:
        if self.closed:
            return None
        if self.phase is TablePhase.HALTED:
            return self.timers.retry
        times = self.timers.deadlines()
        return min(times) if times else None

    def flush(self) -> list[Effect]:
        return self.out.flush(self.snapshot)

    def write_failed(self, rest: list[Effect], now: float, error: str) -> list[Effect]:
        """The first effect of ``rest`` (a write) failed: halt, keep it and what follows it,
        and retry later with backoff. Clients are told with a stable code."""
        assert rest and isinstance(rest[0], Write)
        self.store_failures += 1
        self.halt_reason = error[:200]
        if self._retrying is not None:
            # the retry failed too: still halted (no second announcement), longer backoff
            added = {id(e) for e in self._retrying}
            rest = [e for e in rest if id(e) not in added]
            self._retrying = None
            # the deferred commands replayed by the retry moved the table on (a leaver's
            # hand folded, a hand ended): resume to where they led, not to where it halted
            self._halted_from, self._halted_at = self.phase, now
            self.phase = TablePhase.HALTED
            self._backoff = min(RETRY_MAX, self._backoff * 2)
            self._stalled = rest
            self.timers.retry = now + self._backoff
            return []
        if self.phase is not TablePhase.HALTED:
            self._halted_from = self.phase
            self._halted_at = now
            self.goto(Trigger.STORE_FAILED)
            self._backoff = RETRY_FIRST
        else:
            self._backoff = min(RETRY_MAX, self._backoff * 2)
        self._stalled = rest
        self.timers.retry = now + self._backoff
        self.notice_all(
            "table_halted",
            "the table's storage failed: play is halted and resumes by itself",
        )
        return [*self.out.flush(self.snapshot), Halted(error)]

    def stale(self) -> list[Effect]:
        """Another process owns this table now (its epoch is newer): stop, write nothing."""
        self.phase = TablePhase.CLOSED
        self._stalled = []
        return []

    # ------------------------------------------------------------------ halting

    def notice_all(self, kind: str, text: str) -> None:
        cids = tuple(self.watchers)
        if cids:
            from protocol import messages as m
            from protocol.codec import encode

            note = m.Notice(table=self.table, kind=kind, text=text, rule="")
            self.out.effect(Deliver(cids, encode(note)))

    def _while_halted(self, cmd: c.Command) -> None:
        """A halted table answers every client request at once with ``table_halted``
        (nothing changed, retry later): a rejoin, a sit with a buy-in, a leave, a rebuy are
        refused rather than kept unanswered until the store works again (issue 27: a rejoin
        kept so was granted, and its token rotated, after its connection had given up).
        Only what no client waits for is kept and applied on resuming: a connection gone,
        a room's move (chips in flight) and the director's orders."""
        conn = getattr(cmd, "conn", None)
        kept = conn is None or isinstance(cmd, _KEPT_WHILE_HALTED)
        if not kept or len(self._deferred) >= DEFERRED_MAX:
            if conn is not None:
                self.error(
                    conn.cid,
                    ErrorCode.TABLE_HALTED,
                    "the table is halted (storage failure): nothing was changed, retry later",
                    getattr(cmd, "ref", None),
                )
            return
        self._deferred.append(cmd)

    def _resume(self, now: float) -> list[Effect]:
        """Retry: the stalled effects go first (the same write, the same numbers); if it
        fails again the shell calls write_failed and the table stays halted."""
        stalled, self._stalled = self._stalled, []
        self.phase = self._halted_from
        self.timers.retry = None
        self.timers.shift(now - self._halted_at)
        self._halted_at = now  # a failed retry shifts the clocks from here only
        self.notice_all("table_resumed", "the table's storage works again: play resumes")
        resumed: list[Effect] = [Resumed(), *self.flush()]
        self._retrying = resumed
        deferred, self._deferred = self._deferred, []
        for cmd in deferred:
            self._guarded(cmd, now)
        return [*stalled, *resumed, *self.flush()]

    # ------------------------------------------------------------------ dispatch

    def _guarded(self, cmd: c.Command, now: float) -> None:
        conn = getattr(cmd, "conn", None)
        ref = getattr(cmd, "ref", None)
        try:
            self.dispatch(cmd, now)
        except ProtocolError as exc:
            if conn is not None:
                self.error(conn.cid, exc.code, exc.message, ref)
        except RuleError as exc:
            if conn is not None:
                self.error(conn.cid, f"rule.{exc.code.value}", exc.message, ref, exc.rule)
        except CashError as exc:
            if conn is not None:
                self.error(conn.cid, exc.code.value, exc.message, ref)
        except Exception:  # a bug must not take the table down
            self.internal_errors.append(traceback.format_exc())
            if conn is not None:
                self.error(conn.cid, ErrorCode.INTERNAL, "internal error", ref)

    def dispatch(self, cmd: c.Command, now: float) -> None:
        handler = self._HANDLERS.get(type(cmd))
        if handler is None:
            raise ProtocolError(ErrorCode.INTERNAL, f"{type(cmd).__name__} is not handled")
        handler(self, cmd, now)

    def _play(
        self,
        cmd: c.CutDeck | c.Declare | c.DrawCards | c.CallTime | c.UseBank | c.ShowCards,
        now: float,
    ) -> None:
        state = self.need_seat(cmd.conn)
        if cmd.hand != self.hand_no:
            raise ProtocolError(ErrorCode.STALE_HAND, f"hand {cmd.hand} is not being played")
        match cmd:
            case c.CutDeck():
                if self.phase is not TablePhase.CUT or self.dealt is None:
                    raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "no cut is awaited")
                if state.seat != self.dealt.cutter:
                    raise ProtocolError(
                        ErrorCode.NOT_YOUR_TURN, "the player on the dealer's right cuts"
                    )
                self.cut(now, cmd.position)
            case c.Declare():
                self.declare(now, state, cmd)
            case c.DrawCards():
                self.draw_cards(now, state, cmd)
            case c.CallTime():
                self.call_time(now, state, cmd)
            case c.UseBank():
                self.use_bank(now, state, cmd)
            case c.ShowCards():
                self.show_or_muck(now, state, cmd)

    # ------------------------------------------------------------------ connections

    def _watch(self, cmd: c.Watch | c.Attach, now: float) -> None:
        conn, last_seq = cmd.conn, cmd.last_seq
        seat = self.seat_of(conn)
        watcher = self.watchers.get(conn.cid)
        if watcher is None:
            watcher = self.watchers[conn.cid] = Watcher(cid=conn.cid, player=conn.player, seat=seat)
        watcher.player, watcher.seat = conn.player, seat
        self._catch_up(watcher, last_seq)
        if seat is not None:
            self._connect(now, self.seats[seat], conn.cid)

    def _catch_up(self, watcher: Watcher, last_seq: int | None) -> None:
        """Missed events if memory has them all, else one snapshot (ARCHITECTURE: reconnect)."""
        limit = self.out.seq if watcher.seat is not None else self.out.spectator_limit()
        if last_seq is None or last_seq > limit or last_seq < 0:
            watcher.delivered = -1  # a snapshot
        else:
            watcher.delivered = last_seq
        self.out.catch_up(watcher, limit, lambda: self.view(watcher.seat))

    def _sit(self, cmd: c.Sit, now: float) -> None:
        if self.cash is not None:
            raise CashError(Refusal.BUY_IN, "a cash table seats you with a buy-in")
        if not ask_host(self, cmd):  # a table that asks its host: the sit waits for him
            self.sit_with(now, cmd, self.config.starting_stack)

    def sit_with(self, now: float, cmd: c.Sit, stack: int) -> None:
        """Seat a player with ``stack`` (friends and cash tables). The seat token is issued by
        the gateway only once the seat is durably saved (GrantSeat follows the write); a
        refusal changes nothing."""
        player = cmd.conn.player
        if player is None:
            raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
        if self.policy.directed:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, "the director seats tournament players")
        if not 1 <= cmd.seat <= self.config.max_seats:
            raise ProtocolError(ErrorCode.BAD_SEAT, "no such seat")
        current = self.seats.get(cmd.seat)
        if current is not None and current.player != player and current.unclaimed:
            # a seat restored after a crash whose token may never have reached its player
            # (never dealt in, nobody back on it): the invite holder takes it again
            del self.seats[cmd.seat]
            self.seat_event(current, "left")
            current = None
        if current is not None and current.player != player:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {cmd.seat} is taken")
        if any(s.player == player and s.seat != cmd.seat for s in self.seats.values()):
            raise ProtocolError(ErrorCode.SEAT_TAKEN, "you already sit at this table")
        if current is None:
            current = self.seats[cmd.seat] = SeatState(
                seat=cmd.seat,
                player=player,
                name=cmd.name,
                stack=stack,
                time_bank=self.config.time_bank_seconds,
            )
            current.bank_at_start = current.time_bank
            seated = True
        else:
            seated = False
        watcher = self.watchers.get(cmd.conn.cid)
        if watcher is None:
            watcher = self.watchers[cmd.conn.cid] = Watcher(
                cid=cmd.conn.cid, player=player, seat=None
            )
        watcher.player, watcher.seat = player, cmd.seat
        if seated:
            watcher.delivered = self.out.seq + 1  # its own seated event is in its snapshot
            self.seat_event(current, "seated")
            self.out.save_snapshot()  # a crash must not cost anyone their seat
        # the snapshot includes the new seat and carries the seq of its own seated event
        self._catch_up(watcher, None)
        self.out.effect(
            GrantSeat(
                cid=cmd.conn.cid,
                table=self.table,
                seat=cmd.seat,
                player=player,
                name=cmd.name,
                ref=cmd.ref,
            )
        )
        self._connect(now, current, cmd.conn.cid)

    def _rejoin(self, cmd: c.Rejoin, now: float) -> None:
        state = self.seats.get(cmd.seat)
        if state is None or state.player != cmd.conn.player:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you no longer hold this seat")
        self.out.effect(
            GrantSeat(
                cid=cmd.conn.cid,
                table=self.table,
                seat=cmd.seat,
                player=state.player,
                name=state.name,
            )
        )

    def _connect(self, now: float, state: SeatState, cid: str) -> None:
        old = state.cid
        if old is not None and old != cid:
            # one live connection per seat: the newer login takes over (ONLINE_RULES)
            self.watchers.pop(old, None)
            self.out.effect(
                Kick(old, ErrorCode.REPLACED, "this seat was opened from another connection")
            )
        state.cid = cid
        state.unclaimed = False
        hand = self.hand
        if self.phase is TablePhase.BETTING and hand is not None:
            menu = hand.menu()
            if menu is not None and int(menu.player) == state.seat:
                self.send_turn(now, menu)  # a player back mid-hand gets his options again
        if not state.connected:
            state.connected = True
            self.seat_event(state, "connected")
        self.policy.schedule(self, now)

    def _gone(self, cmd: c.Gone, now: float) -> None:
        conn = cmd.conn
        watcher = self.watchers.pop(conn.cid, None)
        if watcher is None or watcher.seat is None:
            return
        state = self.seats.get(watcher.seat)
        if state is not None and state.cid == conn.cid:
            self._disconnect(state)

    def _disconnect(self, state: SeatState) -> None:
        state.cid = None
        state.connected = False  # does not fold by itself: the action clock runs
        self.seat_event(state, "disconnected")

    def _leave(self, cmd: c.Leave, now: float) -> None:
        """Stop watching; a seated player of a friends table leaves with his chips, at once
        between hands, else when the hand ends (his turns meanwhile are folded)."""
        conn = cmd.conn
        self.watchers.pop(conn.cid, None)
        seat = self.seat_of(conn)
        if seat is None:
            return
        state = self.seats[seat]
        if not self.policy.leaves_seat():
            # a tournament seat is the director's: leaving only stops watching it (the seat
            # stays and is blinded, cdc 1.8); an abandon is announced to the director (cdc 1.9)
            if state.cid == conn.cid:
                self._disconnect(state)
            return
        state.cid = None
        state.connected = False
        if self._in_the_hand(seat):
            state.leaving = True
            state.sitting_out = True
            self.seat_event(state, "leaving")
            # saved with the seat marked leaving: after a crash he leaves with his stack of
            # the hand's start, never forgotten, never dropped unpaid (issue 27)
            self.out.save_snapshot()
            self.fold_leaver(now)
            return
        del self.seats[seat]
        self.seat_event(state, "left")
        self.policy.on_left(self, state, now)
        self.out.save_snapshot()

    def _in_the_hand(self, seat: int) -> bool:
        """Dealt in the hand in play (folded or not): the seat is the hand's until it ends
        (its cards, its proof, its stack), so it is freed only then."""
        return self.in_hand() and seat in self.start_stacks

    def _resync(self, cmd: c.Resync, now: float) -> None:
        watcher = self.watchers.get(cmd.conn.cid)
        if watcher is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "join the table first")
        tokens = min(RESYNC_BURST, watcher.resyncs + (now - watcher.resynced_at) / RESYNC_EVERY)
        watcher.resynced_at = now
        if tokens < 1:
            watcher.resyncs = tokens
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many resyncs: wait a little")
        watcher.resyncs = tokens - 1
        self._catch_up(watcher, cmd.last_seq)

    def _chat(self, cmd: c.Chat, now: float) -> None:
        """One player to a hand (cdc 11.3-11.4, tda 62): while a hand is played, table chat
        waits for the pot to be awarded, except between the two players of a heads-up pot,
        who may talk to influence each other (ligue 3.5; never to reveal their cards)."""
        seat = self.seat_of(cmd.conn)
        name = self.seats[seat].name if seat is not None else (cmd.conn.player or "spectator")
        hand = self.hand
        if self.in_hand():
            live = (
                [int(p) for i, p in enumerate(hand.names) if not hand.folded[i]]
                if hand is not None and self.playing()
                else []
            )
            if not (len(live) == 2 and seat in live):
                key = cmd.conn.player or cmd.conn.cid
                self.hold_chat(key, cmd.conn.cid, seat, name, cmd.text)
                return
        self.say(seat, name, cmd.text)

    def _sit_out(self, now: float, state: SeatState, out: bool) -> None:
        """Sitting out takes effect at the next deal; asked during a hand it is applied and
        announced when the hand ends (a mid-hand announcement is a signal to the table)."""
        if self.in_hand():
            state.wants_out = out
            self.notice(state.cid, "sitting_out" if out else "sitting_in", "from the next hand")
            return
        state.wants_out = None
        if state.sitting_out != out:
            state.sitting_out = out
            self.seat_event(state, "sitting_out" if out else "sitting_in")
            self.out.save_snapshot()
        self.policy.schedule(self, now)

    def _sit_out_cmd(self, cmd: c.SitOut | c.SitIn, now: float) -> None:
        self._sit_out(now, self.need_seat(cmd.conn), isinstance(cmd, c.SitOut))

    def _close(self, cmd: c.CloseTable, now: float) -> None:
        self.close_table()

    def close_table(self) -> None:
        for watcher in list(self.watchers.values()):
            if watcher.seat is not None:
                self.watchers.pop(watcher.cid, None)
        self.seats.clear()
        self.goto(Trigger.CLOSE)

    # ------------------------------------------------------------------ the director

    def _set_stack(self, cmd: c.SetStack, now: float) -> None:
        if self.in_hand():
            self.between_ops.append(cmd)  # chips change between hands only
        else:
            self.apply_stack(cmd)

    def _next_deal(self, cmd: c.NextDeal, now: float) -> None:
        self.directive = cmd
        if self.phase in (TablePhase.WAITING, TablePhase.BETWEEN, TablePhase.AWAITING_DIRECTOR):
            self.timers.next_hand = None
            self.policy.start(self, now)

    def _hold_deal(self, cmd: c.HoldDeal, now: float) -> None:
        self.waiting_reason = cmd.reason or "wait"
        self.policy.schedule(self, now)

    def _table_note(self, cmd: c.TableNote, now: float) -> None:
        if self.in_hand():
            # held like chat: a note may carry a player's words (a call for the director),
            # which reach the table only after the hand (cdc 11.3)
            self.held_chat.items.append((None, "director", cmd.text))
        else:
            self.director_says(cmd.text)

    def _spectator_mode(self, cmd: c.SpectatorMode, now: float) -> None:
        """The director's choice for the rail. Back to live, spectators get at once what the
        commentary delay held back (the live hand's public events, never its cards)."""
        self.out.delayed = cmd.delayed
        self.out.catch_up_spectators(lambda: self.view(None))

    def _penalty(self, cmd: c.Penalty, now: float) -> None:
        for state in self.seats.values():
            if state.player == cmd.player:
                state.dead_hands += cmd.hands

    def _seat_player(self, cmd: c.SeatPlayer, now: float) -> None:
        if cmd.seat in self.seats:
            self.internal_errors.append(f"seat {cmd.seat} is taken, {cmd.player} not seated")
            return
        state = self.seats[cmd.seat] = SeatState(
            seat=cmd.seat,
            player=cmd.player,
            name=cmd.name,
            stack=cmd.stack,
            time_bank=self.config.time_bank_seconds,
            waits_for_button=cmd.waits,
        )
        state.bank_at_start = state.time_bank
        for watcher in self.watchers.values():
            if watcher.player == cmd.player and watcher.seat is None:
                watcher.seat = cmd.seat
                state.cid, state.connected = watcher.cid, True
        self.seat_event(state, "seated")
        self.out.save_snapshot()

    def remove_player(self, cmd: c.RemovePlayer, now: float) -> None:
        state = self.seats.get(cmd.seat)
        if state is None or state.player != cmd.player:
            return
        if self.in_hand() and cmd.seat in self.start_stacks:
            # removed during his hand (an abandon, cdc 1.9, or a disqualification): his hand
            # is folded at his turn (dealt dead if the cards are not out yet) and the seat is
            # freed when the hand ends; the director no longer counts him
            state.leaving = True
            state.sitting_out = True
            state.waits_for_button = False
            self.seat_event(state, "leaving")
            self.out.save_snapshot()
            self.fold_leaver(now)
            return
        del self.seats[cmd.seat]
        for cid, watcher in list(self.watchers.items()):
            if watcher.seat == cmd.seat:
                del self.watchers[cid]
        self.seat_event(state, cmd.status)
        self.policy.on_left(self, state, now)
        self.out.save_snapshot()

    def _reveal(self, cmd: c.Reveal, now: float) -> None:
        held, self.held = self.held, None
        if held is not None and self.hand is not None and self.phase is TablePhase.HELD:
            # revealed: the rest of the hand is played face up (held again, the all-in would
            # be reported again and revealed again, forever)
            self.hand_for_hand = False
            self.goto(Trigger.RELEASE)
            self.after_engine(now, held)

    def restore(self, data: dict[str, Any], record: dict[str, Any] | None) -> None:
        """Come back from the last snapshot after a restart (server.table.recovery)."""
        restore(self, data, record)

    def _run_it(self, cmd: c.RunIt, now: float) -> None:
        agree(self, now, self.need_seat(cmd.conn), cmd.hand, cmd.runs)

    _HANDLERS: ClassVar[dict[type[Any], Callable[[Table, Any, float], None]]] = {
        c.Watch: _watch,
        c.Attach: _watch,
        c.Sit: _sit,
        c.Rejoin: _rejoin,
        c.Gone: _gone,
        c.Leave: _leave,
        c.Resync: _resync,
        c.Chat: _chat,
        c.SitOut: _sit_out_cmd,
        c.SitIn: _sit_out_cmd,
        c.CutDeck: _play,
        c.Declare: _play,
        c.DrawCards: _play,
        c.CallTime: _play,
        c.UseBank: _play,
        c.ShowCards: _play,
        c.CloseTable: _close,
        c.SeatPlayer: _seat_player,
        c.RemovePlayer: remove_player,
        c.SetStack: _set_stack,
        c.NextDeal: _next_deal,
        c.HoldDeal: _hold_deal,
        c.Reveal: _reveal,
        c.TableNote: _table_note,
        c.Penalty: _penalty,
        c.SpectatorMode: _spectator_mode,
        c.BuyIn: buy_in,
        c.AddChips: add_chips,
        c.JoinWaitingList: join_waiting_list,
        c.RefuseSeat: refuse_seat,
        c.TakeOption: take_option,
        c.RunIt: _run_it,
        c.HostOrder: host_order,
        **MOVE_HANDLERS,
    }
    """One handler per command kind, each ``(table, command, now)`` (the exhaustiveness
    test checks every kind has one)."""
