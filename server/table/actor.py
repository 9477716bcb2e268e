"""One asyncio actor per table: the only writer of its table.

Commands arrive on the inbox (from the gateway), go through the rules engine, and the
resulting table events are numbered, appended to the store *before* anyone sees them, then
rendered per recipient: a player sees only their own hole cards; spectators see the table one
hand behind and never live hole cards. Timers (action clock, time bank, "Time" calls, the cut,
the showdown, the next deal) come from an injected :class:`~server.table.clock.Clock`.

Table phases and their transitions live in one table (:data:`TRANSITIONS`, STYLE.md 2).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol import messages as m
from protocol.codec import encode
from protocol.errors import ErrorCode, ProtocolError
from server.engine import (
    Act,
    AnteFormat,
    Blinds,
    Form,
    Hand,
    HandSetup,
    Menu,
    Muck,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    Show,
    Verb,
    card_name,
    load_profile,
)
from server.engine import events as ev
from server.table.clock import Cancellable, Clock
from server.table.config import TableConfig
from server.table.dealer import Dealer, DealtHand
from server.table.phases import TRANSITIONS, TablePhase
from server.table.positions import Positions, first_positions, next_positions, waits_as_newcomer
from server.table.translate import HandLog
from server.table.views import render, table_view

__all__ = [
    "Client",
    "Directed",
    "Directive",
    "HandReport",
    "SeatState",
    "TableActor",
    "TablePhase",
]

log = logging.getLogger("brasseur.table")

RECENT_EVENTS = 800
"""Events kept in memory per table for resyncs and spectators (some 20 hands); older ones
are read back from the store. At 1,000 tables, keeping 4,000 made most of the process's
memory and of the objects the garbage collector walks."""


class Client(Protocol):
    """A connection as the table sees it (implemented by the gateway and by tests)."""

    cid: str
    pid: str | None

    def deliver(self, data: bytes) -> None: ...

    def kick(self, code: str, reason: str) -> None: ...


@dataclass
class SeatState:
    seat: int
    pid: str
    name: str
    stack: int
    time_bank: float
    sitting_out: bool = False
    connected: bool = False
    new: bool = True
    """Never dealt in at this table yet (newcomer rules, tda 7)."""
    leaving: bool = False
    """Left during a hand: removed when it ends."""
    client: Client | None = None


@dataclass
class Watcher:
    client: Client
    seat: int | None
    delivered: int = 0
    """Last sequence number delivered (spectators lag one hand behind)."""


class Store(Protocol):
    def last_seq(self, table: str) -> int: ...

    def last_snapshot(self, table: str) -> tuple[int, int, dict[str, Any]] | None: ...

    def hand_record(self, table: str, hand: int) -> dict[str, Any] | None: ...

    def append_events(self, table: str, events: list[tuple[int, str, dict[str, Any]]]) -> None: ...

    def events_after(
        self, table: str, seq: int, limit: int = 10_000
    ) -> list[tuple[int, str, dict[str, Any]]]: ...

    def save_snapshot(self, table: str, hand: int, seq: int, snapshot: dict[str, Any]) -> None: ...

    def save_hand_record(self, table: str, hand: int, record: dict[str, Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class Directive:
    """A tournament director's go for the next hand (server.tournament.decisions.Deal)."""

    hand_no: int
    blinds: Blinds
    positions: Positions
    hand_for_hand: bool = False
    level: int = 0


@dataclass(frozen=True, slots=True)
class HandReport:
    """What a tournament table tells its director at the end of a hand."""

    hand_no: int
    positions: Positions
    stacks: dict[int, tuple[str, int]]
    """Seat -> (player, stack) of everyone holding chips at the table (dealt in or not)."""
    busts: tuple[tuple[str, int, int, tuple[str, ...]], ...]
    """(player, seat, start-of-hand stack, eliminated by), best ranked first (cdc 1.10)."""
    cancelled: bool = False


class Directed(Protocol):
    """The tournament side of a table (server.tournament.host): told when the table is ready
    to deal, when an all-in is called hand-for-hand, and when a hand ends."""

    def ready(self, table: TableActor) -> None: ...

    def allin(self, table: TableActor) -> None: ...

    def hand_ended(self, table: TableActor, report: HandReport) -> None: ...


@dataclass
class _Timers:
    action: float | None = None
    action_started: float = 0.0
    bank: bool = False
    time_called: bool = False
    cut: float | None = None
    showdown: float | None = None
    next_hand: float | None = None
    extra: dict[str, float] = field(default_factory=dict)


class TableActor:
    def __init__(
        self,
        config: TableConfig,
        clock: Clock,
        dealer: Dealer,
        store: Store | None = None,
        randbelow: Callable[[int], int] = secrets.randbelow,
        on_hand_end: Callable[[TableActor], None] | None = None,
    ) -> None:
        self.config = config
        self.table = config.table_id
        self.profile = load_profile(config.profile)
        self.clock = clock
        self.dealer = dealer
        self.store = store
        self.randbelow = randbelow
        self.on_hand_end = on_hand_end
        self.blinds = Blinds(
            sb=config.sb, bb=config.bb, ante=config.ante, ante_format=AnteFormat(config.ante_format)
        )
        """The blinds of the next hand (a tournament's director sets them with every deal)."""
        self.director: Directed | None = None
        """A tournament table: seats, deals and stacks come from the director (see
        :class:`Directed`); a friends table deals by itself."""
        self.directive: Directive | None = None
        self.awaiting_deal = False
        self.hold_button: set[str] = set()
        self.dead_hands: dict[str, int] = {}
        """Player -> hands still to be dealt dead (a penalty, cdc 11.1)."""
        self.between_ops: list[tuple[str, Any]] = []
        """Director operations that wait for the hand to end (stack adjustments)."""
        self.held: list[ev.Event] | None = None
        """Hand-for-hand: the rest of an all-in hand, face down until every table has
        finished (cdc 2.7)."""
        self.waiting_reason = ""
        self.hand_for_hand = False
        self.private_holes: list[dict[str, Any]] = []
        """Every hole card of the last hands, for the director only (cdc 10.6: folded hands
        may be looked at for a collusion check). In memory, never sent to a player."""
        self.inbox: asyncio.Queue[tuple[str, Client | None, Any]] = asyncio.Queue()
        self._idle = False
        """The run loop waits on an empty inbox and nothing is being handled (see submit)."""
        self.seats: dict[int, SeatState] = {}
        self.watchers: dict[str, Watcher] = {}
        self.phase = TablePhase.WAITING
        self.seq = 0
        self.hand_no = 0
        self.positions: Positions | None = None
        self.replay_positions: Positions | None = None
        self.hand: Hand | None = None
        self.dealt: DealtHand | None = None
        self.hand_start_seq = 0
        self.start_stacks: dict[int, int] = {}
        self.timers = _Timers()
        self.held_chat: list[tuple[int | None, str, str]] = []
        self.hand_ended = asyncio.Event()
        self.hands_played = 0
        self._task: asyncio.Task[None] | None = None
        self._recent: list[tuple[int, str, dict[str, Any]]] = []
        self.dealt_in: list[int] = []
        self._timer: Cancellable | None = None
        self._armed_at: float | None = None
        self.cancelled_hand = False
        self._acting_seat = -1
        self.log: HandLog | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self.run(), name=f"table-{self.table}")
        return self._task

    async def stop(self) -> None:
        self.post("close", None, None)
        if self._task is not None:
            await self._task

    def post(self, kind: str, client: Client | None, payload: Any) -> None:
        """Queue a command for the actor (the only way in, with ``submit``)."""
        self.inbox.put_nowait((kind, client, payload))

    def submit(self, kind: str, client: Client | None, payload: Any) -> None:
        """A command from a client's connection: handled at once when the table is idle
        (its run loop waits on an empty inbox), else queued behind the others. It is the
        same single writer, since the handling is synchronous and never re-entered; it saves
        the event-loop turn a queued command waits before the table task runs, which is
        what an action's latency is made of on a busy process."""
        if not self._idle or not self.inbox.empty():
            self.post(kind, client, payload)
            return
        self._idle = False
        try:
            self._process((kind, client, payload))
            self._after_burst()
        finally:
            self._idle = True
        if self.closed:
            self.post("tick", None, None)  # wake the run loop so that it ends

    def _goto(self, phase: TablePhase) -> None:
        if phase not in TRANSITIONS[self.phase]:
            raise RuntimeError(f"table {self.table}: {self.phase} -> {phase} is not allowed")
        self.phase = phase

    async def run(self) -> None:
        """Process the inbox in bursts; timers come in as ``tick`` items (one scheduled
        callback for the nearest deadline, never a task per message)."""
        self._maybe_schedule_deal()
        self._arm()
        while self.phase is not TablePhase.CLOSED:
            self._idle = True
            try:
                item = await self.inbox.get()
            finally:
                self._idle = False
            while True:
                self._process(item)
                if self.closed:
                    break
                try:
                    item = self.inbox.get_nowait()
                except asyncio.QueueEmpty:
                    break
            self._after_burst()
        if self._timer is not None:
            self._timer.cancel()

    def _after_burst(self) -> None:
        try:
            self._fire_timers()
        except Exception:
            log.exception("table %s: error in timers", self.table)
        self._arm()

    @property
    def closed(self) -> bool:
        return self.phase is TablePhase.CLOSED

    def _process(self, item: tuple[str, Client | None, Any]) -> None:
        if item[0] == "tick":
            return
        try:
            self._handle(*item)
        except Exception:  # a bug must not take the table down
            log.exception("table %s: error handling %s", self.table, item[0])
            if item[1] is not None:
                self._error(item[1], ErrorCode.INTERNAL, "internal error", None)

    def _arm(self) -> None:
        """Schedule one wake-up at the nearest deadline (replacing an older one)."""
        deadline = self._next_deadline()
        if deadline == self._armed_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed_at = deadline
        if deadline is not None:
            self._timer = self.clock.call_at(deadline, self._tick)

    def _tick(self) -> None:
        self._armed_at = None
        self._timer = None
        self.inbox.put_nowait(("tick", None, None))

    def recover(self) -> None:
        """Come back from the store after a restart, at the last completed hand. A hand cut
        by a crash is cancelled with every bet returned and replayed (cdc 5.4)."""
        store = self.store
        if store is None:
            return
        self.seq = store.last_seq(self.table)
        last = store.last_snapshot(self.table)
        if last is None:
            return
        hand, _seq, data = last
        self.hand_no = hand
        for entry in data["seats"]:
            self.seats[entry["seat"]] = SeatState(
                seat=entry["seat"],
                pid=entry["pid"],
                name=entry["name"],
                stack=entry["stack"],
                time_bank=entry["time_bank"],
                new=entry["new"],
                sitting_out=entry["sitting_out"],
            )

        def pos(value: list[int] | None) -> Positions | None:
            if not value:
                return None
            return Positions(button=value[0], sb_slot=value[1], big_blind=value[2])

        self.positions = pos(data.get("positions"))
        self.replay_positions = pos(data.get("replay"))
        self.cancelled_hand = bool(data.get("cancelled"))
        if not data.get("in_hand", True):
            return
        record = store.hand_record(self.table, hand)
        if record is not None:  # the hand ended just before the crash
            for seat, stack in record["final_stacks"].items():
                state = self.seats.get(int(seat))
                if state is not None:
                    state.stack = stack
                    if stack == 0:
                        del self.seats[int(seat)]
            self._save_snapshot()
            return
        self.replay_positions = self.positions
        if not self.cancelled_hand:
            self.cancelled_hand = True
            stacks = {str(s.seat): s.stack for s in self.seats.values()}
            self._emit(
                [("hand_end", {"hand": hand, "stacks": stacks, "record": "", "cancelled": True})]
            )
        self._save_snapshot()

    # ------------------------------------------------------------------ inbox

    def _handle(self, kind: str, client: Client | None, payload: Any) -> None:
        if kind == "close":
            self.phase = TablePhase.CLOSED
        elif kind == "watch":
            assert client is not None
            self._watch(client, payload)
        elif kind == "sit":
            assert client is not None
            seat, pid, name, token = payload
            try:
                self._sit(client, seat, pid, name)
            except ProtocolError as exc:
                self._error(client, exc.code, exc.message, None)
                return
            if token:
                client.deliver(encode(m.Seated(table=self.table, seat=seat, token=token)))
        elif kind == "rejoin":
            assert client is not None
            seat, token = payload
            state = self.seats.get(seat)
            if state is None or state.pid != client.pid:
                self._error(client, ErrorCode.NOT_SEATED, "you no longer hold this seat", None)
                return
            client.deliver(encode(m.Seated(table=self.table, seat=seat, token=token)))
        elif kind == "gone":
            assert client is not None
            self._gone(client)
        elif kind == "msg":
            assert client is not None
            self._command(client, payload)
        elif kind.startswith("t_") or kind == "attach":
            self._directed(kind, client, payload)

    def _watch(self, client: Client, last_seq: int | None) -> None:
        seat = self._seat_of(client)
        watcher = self.watchers.get(client.cid)
        if watcher is None:
            watcher = self.watchers[client.cid] = Watcher(client=client, seat=seat)
        watcher.seat = seat
        self._resync(watcher, last_seq)
        if seat is not None:
            self._connect(seat, client)

    def _sit(self, client: Client, seat: int, pid: str, name: str) -> None:
        """Seat a player (the gateway checked the token). Takes over an older connection."""
        current = self.seats.get(seat)
        if current is not None and current.pid != pid:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        if any(s.pid == pid and s.seat != seat for s in self.seats.values()):
            raise ProtocolError(ErrorCode.SEAT_TAKEN, "you already sit at this table")
        if not 1 <= seat <= self.config.max_seats:
            raise ProtocolError(ErrorCode.BAD_SEAT, "no such seat")
        seated = current is None
        if current is None:
            current = self.seats[seat] = SeatState(
                seat=seat,
                pid=pid,
                name=name,
                stack=self.config.starting_stack,
                time_bank=self.config.time_bank_seconds,
            )
        client.pid = pid
        watcher = self.watchers.get(client.cid) or Watcher(client=client, seat=seat)
        watcher.seat = seat
        self.watchers[client.cid] = watcher
        self._resync(watcher, None)  # the snapshot first, then the events after it
        if seated:
            self._emit([("seat", self._seat_payload(current, "seated"))])
            self._save_snapshot()  # a crash must not cost anyone their seat
        self._connect(seat, client)
        self._maybe_schedule_deal()

    def _connect(self, seat: int, client: Client) -> None:
        state = self.seats[seat]
        old = state.client
        if old is not None and old.cid != client.cid:
            # one live connection per seat: the newer login takes over (ONLINE_RULES)
            self.watchers.pop(old.cid, None)
            old.kick(ErrorCode.REPLACED, "this seat was opened from another connection")
        state.client = client
        hand = self.hand
        if self.phase is TablePhase.BETTING and hand is not None:
            menu = hand.menu()
            if menu is not None and int(menu.player) == seat:
                self._send_turn(menu)  # a player back mid-hand gets their options again
        if not state.connected:
            state.connected = True
            self._emit([("seat", self._seat_payload(state, "connected"))])
        self._maybe_schedule_deal()

    def _gone(self, client: Client) -> None:
        watcher = self.watchers.pop(client.cid, None)
        if watcher is None or watcher.seat is None:
            return
        state = self.seats.get(watcher.seat)
        if state is not None and state.client is client:
            state.client = None
            state.connected = False  # does not fold by itself: the action clock runs
            self._emit([("seat", self._seat_payload(state, "disconnected"))])

    def _leave(self, client: Client, seat: int | None) -> None:
        """Stop watching; a seated player leaves with their chips, at once between hands,
        else when the hand ends (their turns meanwhile are checked or folded)."""
        self.watchers.pop(client.cid, None)
        if seat is None:
            return
        state = self.seats[seat]
        if self.director is not None:
            # a tournament seat is the director's: leaving the table only stops watching it
            # (the seat stays and is blinded, cdc 1.8); an abandon is announced to the
            # director (``abandon``, cdc 1.9)
            if state.client is client:
                state.client = None
                state.connected = False
                self._emit([("seat", self._seat_payload(state, "disconnected"))])
            return
        hand = self.hand
        in_hand = (
            hand is not None
            and self._in_hand()
            and str(seat) in hand.index
            and not hand.folded[hand.index[str(seat)]]
        )
        state.client = None
        state.connected = False
        if in_hand:
            state.leaving = True
            state.sitting_out = True
            self._emit([("seat", self._seat_payload(state, "leaving"))])
            self._fold_leaver()
            return
        del self.seats[seat]
        self._emit([("seat", self._seat_payload(state, "left"))])
        self._save_snapshot()

    def _fold_leaver(self) -> None:
        hand = self.hand
        if self.phase is not TablePhase.BETTING or hand is None:
            return
        menu = hand.menu()
        if menu is not None and self.seats[int(menu.player)].leaving:
            self.timers.action = None
            self._acting_seat = -1
            self._after_engine(hand.timeout(menu.player), acted=hand.index[menu.player])

    def _seat_of(self, client: Client) -> int | None:
        if client.pid is None:
            return None
        for state in self.seats.values():
            if state.pid == client.pid:
                return state.seat
        return None

    def _seat_payload(self, state: SeatState, status: str) -> dict[str, Any]:
        stack = state.stack
        hand = self.hand
        playing = self.phase in (TablePhase.BETTING, TablePhase.SHOWDOWN)
        if hand is not None and playing and str(state.seat) in hand.index:
            # chips behind, live (at the cut self.hand is still the previous hand)
            stack = hand.stack[hand.index[str(state.seat)]]
        return {"seat": state.seat, "player": state.name, "stack": stack, "status": status}

    # ------------------------------------------------------------------ commands

    def _command(self, client: Client, message: m.Message) -> None:
        ref = getattr(message, "id", None)
        try:
            self._dispatch(client, message)
        except ProtocolError as exc:
            self._error(client, exc.code, exc.message, ref)
        except RuleError as exc:
            self._error(client, f"rule.{exc.code.value}", exc.message, ref, exc.rule)

    def _dispatch(self, client: Client, message: m.Message) -> None:
        seat = self._seat_of(client)
        if isinstance(message, m.Chat):
            self._chat(seat, client, message.text)
            return
        if isinstance(message, m.LeaveTable):
            self._leave(client, seat)
            return
        if isinstance(message, m.Resync):
            watcher = self.watchers.get(client.cid)
            if watcher is None:
                raise ProtocolError(ErrorCode.NOT_SEATED, "join the table first")
            self._resync(watcher, message.last_seq)
            return
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        state = self.seats[seat]
        if isinstance(message, m.SitOut):
            state.sitting_out = True
            self._emit([("seat", self._seat_payload(state, "sitting_out"))])
            return
        if isinstance(message, m.SitIn):
            state.sitting_out = False
            self._emit([("seat", self._seat_payload(state, "sitting_in"))])
            self._maybe_schedule_deal()
            return
        hand_no = getattr(message, "hand", None)
        if hand_no is not None and hand_no != self.hand_no:
            raise ProtocolError(ErrorCode.STALE_HAND, f"hand {hand_no} is not being played")
        if isinstance(message, m.Cut):
            self._cut(seat, message.position)
        elif isinstance(message, m.Act):
            self._act(seat, message)
        elif isinstance(message, m.CallClock):
            self._call_clock(seat)
        elif isinstance(message, m.UseTimeBank):
            self._use_bank(seat)
        elif isinstance(message, (m.Show, m.Muck)):
            self._show_or_muck(seat, isinstance(message, m.Show))
        else:
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"{message.TYPE} is not a table command")

    def _act(self, seat: int, message: m.Act) -> None:
        if self.phase is not TablePhase.BETTING or self.hand is None:
            raise ProtocolError(ErrorCode.STALE_HAND, "no betting round in progress")
        try:
            say = None
            if message.verb is not None:
                say = Say(
                    verb=Verb(message.verb),
                    amount=message.amount,
                    form=Form(message.form or "total"),
                )
        except ValueError:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "unknown verb or form") from None
        before = self.hand.to_act
        events = self.hand.act(Act(player=str(seat), say=say, chips=message.chips))
        self._after_engine(events, acted=before)

    def _cut(self, seat: int, position: int) -> None:
        if self.phase is not TablePhase.CUT or self.dealt is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "no cut is awaited")
        if seat != self.dealt.cutter:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "the player on the dealer's right cuts")
        self._deal(position)

    def _call_clock(self, seat: int) -> None:
        hand = self.hand
        if self.phase is not TablePhase.BETTING or hand is None or hand.to_act < 0:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "nobody is thinking")
        if self.timers.time_called:
            raise ProtocolError(ErrorCode.TOO_EARLY, "the Time is already called")
        waited = self.clock.now() - self.timers.action_started
        if waited < self.config.time_call_after:
            raise ProtocolError(
                ErrorCode.TOO_EARLY,
                f"the Time may be called after {self.config.time_call_after:.0f} s "
                f"({self.profile.cite('dead_hand')}; cdc 3.5)",
            )
        self.timers.time_called = True
        total = float(self.profile.time_seconds)
        self.timers.action = self.clock.now() + total
        target = int(hand.names[hand.to_act])
        self._emit(
            [
                (
                    "clock_event",
                    {
                        "hand": self.hand_no,
                        "seat": target,
                        "kind": "time",
                        "remaining_ms": int(total * 1000),
                        "countdown_ms": self.profile.time_countdown * 1000,
                    },
                )
            ]
        )

    def _use_bank(self, seat: int) -> None:
        hand = self.hand
        if self.phase is not TablePhase.BETTING or hand is None or hand.to_act < 0:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "not your turn")
        if int(hand.names[hand.to_act]) != seat:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "not your turn")
        self._start_bank(seat)

    def _start_bank(self, seat: int) -> bool:
        state = self.seats[seat]
        if self.timers.bank or self.timers.time_called or state.time_bank <= 0:
            return False
        assert self.timers.action is not None
        self.timers.bank = True
        remaining = max(0.0, self.timers.action - self.clock.now()) + state.time_bank
        state.time_bank = 0.0
        self.timers.action = self.clock.now() + remaining
        self._emit(
            [
                (
                    "clock_event",
                    {
                        "hand": self.hand_no,
                        "seat": seat,
                        "kind": "bank",
                        "remaining_ms": int(remaining * 1000),
                    },
                )
            ]
        )
        return True

    def _show_or_muck(self, seat: int, show: bool) -> None:
        hand = self.hand
        if hand is None or hand.phase not in (Phase.SHOWDOWN, Phase.FINISHED):
            raise ProtocolError(
                ErrorCode.SHOW_REFUSED,
                "cards are shown only at showdown or after the hand (cdc 11.3-11.5, ONLINE_RULES)",
            )
        player = str(seat)
        finished = hand.phase is Phase.FINISHED
        events = hand.show(Show(player=player)) if show else hand.muck(Muck(player=player))
        if finished:  # cdc 10.1: shown after the hand, which is already over
            out, _ = self.log.translate(events, lambda p: 0) if self.log else ([], [])
            self._emit(out)
            return
        self._after_engine(events, acted=-1)

    def _chat(self, seat: int | None, client: Client, text: str) -> None:
        """One player to a hand (cdc 11.3-11.4, tda 62): while a hand is played, table chat
        waits for the pot to be awarded, except between the two players of a heads-up pot,
        who may talk to influence each other (ligue 3.5; never to reveal their cards)."""
        name = self.seats[seat].name if seat is not None else (client.pid or "spectator")
        hand = self.hand
        if hand is not None and self._in_hand():
            live = [int(p) for i, p in enumerate(hand.names) if not hand.folded[i]]
            if not (len(live) == 2 and seat in live):
                self.held_chat.append((seat, name, text))
                notice = m.Notice(
                    table=self.table,
                    kind="chat_held",
                    text="held until the hand ends",
                    rule="cdc-11.3",
                )
                client.deliver(encode(notice))
                return
        self._emit([("chat_event", {"seat": seat, "player": name, "text": text})])

    def _error(
        self, client: Client, code: str, message: str, ref: int | None, rule: str | None = None
    ) -> None:
        client.deliver(
            encode(
                m.Error(
                    code=str(code),
                    message=message[:500],
                    rule=rule or None,
                    ref=ref,
                    table=self.table,
                )
            )
        )

    # ------------------------------------------------------------------ tournament

    def _directed(self, kind: str, client: Client | None, payload: Any) -> None:
        """Commands from the tournament host (never from a connection directly)."""
        if kind == "attach":  # a registered player's connection, to the seat he holds
            assert client is not None
            seat = self._seat_of(client)
            if seat is None:
                watcher = self.watchers.setdefault(client.cid, Watcher(client=client, seat=None))
                self._resync(watcher, payload)
                return
            watcher = self.watchers.get(client.cid) or Watcher(client=client, seat=seat)
            watcher.seat = seat
            self.watchers[client.cid] = watcher
            self._resync(watcher, payload)
            self._connect(seat, client)
        elif kind == "t_seat":
            seat, pid, name, stack, waits = payload
            if seat in self.seats:
                log.error("table %s: seat %s is taken, %s not seated", self.table, seat, pid)
                return
            state = self.seats[seat] = SeatState(
                seat=seat,
                pid=pid,
                name=name,
                stack=stack,
                time_bank=self.config.time_bank_seconds,
            )
            if waits:
                self.hold_button.add(pid)
            self._emit([("seat", self._seat_payload(state, "seated"))])
            self._save_snapshot()
        elif kind == "t_remove":
            seat, pid, status = payload
            leaving = self.seats.get(seat)
            if leaving is None or leaving.pid != pid:
                return
            state = leaving
            if self._in_hand() and seat in self.start_stacks:
                # removed during his hand (an abandon, cdc 1.9, or a disqualification): his
                # hand is folded at his turn (dealt dead if the cards are not out yet) and
                # the seat is freed when the hand ends; the director no longer counts him
                state.leaving = True
                state.sitting_out = True
                self.hold_button.discard(pid)
                self._emit([("seat", self._seat_payload(state, "leaving"))])
                self._fold_leaver()
                return
            del self.seats[seat]
            self.hold_button.discard(pid)
            for cid, watcher in list(self.watchers.items()):
                if watcher.seat == seat:
                    del self.watchers[cid]
            self._emit([("seat", self._seat_payload(state, status))])
            self._save_snapshot()
        elif kind == "t_stack":
            if self._in_hand():
                self.between_ops.append((kind, payload))
                return
            self._set_stack(*payload)
        elif kind == "t_deal":
            self.directive = payload
            self.awaiting_deal = False
            if self.phase in (TablePhase.WAITING, TablePhase.BETWEEN):
                self._start_hand()
        elif kind == "t_wait":
            self.waiting_reason = str(payload)
            self.awaiting_deal = True
        elif kind == "t_reveal":
            held, self.held = self.held, None
            if held is not None and self.hand is not None:
                # revealed: the rest of the hand is played face up (held again, the all-in
                # would be reported again and revealed again, forever)
                self.hand_for_hand = False
                self._after_engine(held, acted=-1)
        elif kind == "t_note":
            self._emit([("chat_event", {"seat": None, "player": "director", "text": payload})])
        elif kind == "t_penalty":
            pid, hands = payload
            self.dead_hands[pid] = self.dead_hands.get(pid, 0) + hands
        elif kind == "t_close":
            for watcher in list(self.watchers.values()):
                if watcher.seat is not None:
                    self.watchers.pop(watcher.client.cid, None)
            self.seats.clear()
            self.phase = TablePhase.CLOSED

    def _set_stack(self, seat: int, pid: str, amount: int, note: str, relative: bool) -> None:
        state = self.seats.get(seat)
        if state is None or state.pid != pid:
            log.error("table %s: no %s in seat %s for a stack change", self.table, pid, seat)
            return
        state.stack = state.stack + amount if relative else amount
        payload = self._seat_payload(state, "stack")
        self._emit([("seat", payload)])
        if note:
            self._emit([("chat_event", {"seat": None, "player": "director", "text": note})])
        self._save_snapshot()

    def _directed_dealt_in(self, players: list[int], positions: Positions) -> list[int]:
        """Seats dealt in at a tournament table: a newcomer (moved or late) waits while
        strictly between the button and the big blind (tda 7); a ``waits_for_button`` arrival
        also on the button and the small blind (ligue art. 3, tda 10-A)."""
        max_seats = self.config.max_seats
        out = []
        for s in players:
            state = self.seats[s]
            if (
                state.pid in self.hold_button
                and (s - positions.button) % max_seats
                < (positions.big_blind - positions.button) % max_seats
            ):
                continue
            if (
                state.new
                and self.positions is not None
                and waits_as_newcomer(s, positions, max_seats)
            ):
                continue
            out.append(s)
        return out if len(out) >= 2 else players

    def _report(self, hand: Hand | None, stacks: dict[int, int], cancelled: bool) -> HandReport:
        assert self.positions is not None
        busts: list[tuple[str, int, int, tuple[str, ...]]] = []
        if hand is not None and not cancelled:
            takers: dict[str, set[str]] = {}
            for e in hand.events:
                if isinstance(e, ev.PotAwarded):
                    for p in e.eligible:
                        takers.setdefault(p, set()).update(w for w in e.winners if w != p)
                if isinstance(e, ev.HandEnded):
                    for player, start in e.busted:
                        seat = int(player)
                        by = tuple(sorted(self.seats[int(w)].pid for w in takers.get(player, ())))
                        busts.append((self.seats[seat].pid, seat, start, by))
        return HandReport(
            hand_no=self.hand_no,
            positions=self.positions,
            stacks={
                s.seat: (s.pid, stacks.get(s.seat, s.stack))
                for s in self.seats.values()
                if stacks.get(s.seat, s.stack) > 0
            },
            busts=tuple(busts),
            cancelled=cancelled,
        )

    # ------------------------------------------------------------------ dealing

    def _present(self, state: SeatState) -> bool:
        return state.connected and not state.sitting_out and state.stack > 0

    def _maybe_schedule_deal(self) -> None:
        if self.phase is not TablePhase.WAITING:
            return
        if self.director is not None:
            # a tournament deals when the director says so, present or not (cdc 1.8: absent
            # players are dealt in and blinded)
            if self.timers.next_hand is None and not self.awaiting_deal:
                self.timers.next_hand = self.clock.now() + self.config.next_hand_seconds
            return
        present = [s for s in self.seats.values() if self._present(s)]
        if len(present) >= self.config.min_players and self.timers.next_hand is None:
            self.timers.next_hand = self.clock.now() + self.config.next_hand_seconds

    def _start_hand(self) -> None:
        self.timers.next_hand = None
        if self.director is not None:
            self._start_directed_hand()
            return
        players = sorted(s.seat for s in self.seats.values() if s.stack > 0)
        present = [s for s in players if self._present(self.seats[s])]
        if len(present) < self.config.min_players or len(players) < 2:
            if self.phase is TablePhase.BETWEEN:
                self._goto(TablePhase.WAITING)
            return
        replaying = self.replay_positions is not None
        if self.replay_positions is not None:
            positions = self.replay_positions  # cdc 5.4: the cancelled hand is replayed
            self.replay_positions = None
        elif self.positions is None:
            positions = first_positions(
                present[self.randbelow(len(present))], players, self.config.max_seats
            )
        else:
            positions = next_positions(self.positions, players, self.config.max_seats)
        dealt_in = [
            s
            for s in players
            if not (
                self.seats[s].new
                and self.positions is not None
                and waits_as_newcomer(s, positions, self.config.max_seats)
            )
        ]
        veterans = [s for s in players if not self.seats[s].new]
        if len(veterans) <= 1 and not (replaying and len(dealt_in) >= 2):
            # at most one player left who played here: the game had stopped. If newcomers
            # waited for the button it would never pass and the table would stall, and the
            # last positions mean nothing to the newcomers (the small blind slot could even
            # fall after the big blind); start afresh as at a new table, with a button drawn
            # among the players present (cdc 2.1)
            button = present[self.randbelow(len(present))]
            positions = first_positions(button, players, self.config.max_seats)
            dealt_in = players
        elif len(dealt_in) == 2 and len(players) > 2 and self.positions is not None:
            # heads-up while a newcomer waits: the heads-up rule applies to the two dealt in
            # (cdc 4.4): the big blind advances, the other player is button and small blind
            positions = next_positions(self.positions, dealt_in, self.config.max_seats)
        self._open_hand(positions, dealt_in, self.hand_no + 1)

    def _start_directed_hand(self) -> None:
        directive = self.directive
        if directive is None:
            if not self.awaiting_deal and self.phase is not TablePhase.CLOSED:
                self.awaiting_deal = True
                if self.phase is TablePhase.BETWEEN:
                    self._goto(TablePhase.WAITING)
                assert self.director is not None
                self.director.ready(self)
            return
        self.directive = None
        self.waiting_reason = ""
        players = sorted(s.seat for s in self.seats.values() if s.stack > 0)
        if len(players) < 2:
            log.error("table %s: a deal with %s", self.table, players)
            return
        self.blinds = directive.blinds
        positions = directive.positions
        dealt_in = self._directed_dealt_in(players, positions)
        for s in dealt_in:
            self.hold_button.discard(self.seats[s].pid)
        self._open_hand(positions, dealt_in, directive.hand_no, directive.hand_for_hand)

    def _open_hand(
        self, positions: Positions, dealt_in: list[int], hand_no: int, hand_for_hand: bool = False
    ) -> None:
        self.hand_for_hand = hand_for_hand
        self.positions = positions
        self.hand_no = hand_no
        self.start_stacks = {s: self.seats[s].stack for s in dealt_in}
        self.dealt = self.dealer.new_hand(dealt_in, positions.button, self.config.max_seats)
        self._goto(TablePhase.CUT)
        self.dealt_in = dealt_in
        self.cancelled_hand = False
        self._save_snapshot()
        if len(dealt_in) == 2:
            sb_seat: int | None = positions.button  # heads-up: the button posts the SB
        else:
            sb_seat = positions.sb_slot if positions.sb_slot in dealt_in else None
        self.hand_start_seq = self.seq + 1
        self._emit(
            [
                (
                    "hand_start",
                    {
                        "hand": self.hand_no,
                        "button": positions.button,
                        "small_blind": sb_seat,
                        "big_blind": positions.big_blind,
                        "blinds": [self.blinds.sb, self.blinds.bb, self.blinds.ante],
                        "stacks": {str(s): self.seats[s].stack for s in dealt_in},
                        "commitment": self.dealt.root,
                    },
                ),
                (
                    "cut_prompt",
                    {
                        "hand": self.hand_no,
                        "seat": self.dealt.cutter,
                        "deadline_ms": int(self.config.cut_seconds * 1000),
                    },
                ),
            ]
        )
        self.timers.cut = self.clock.now() + self.config.cut_seconds

    def _save_snapshot(self) -> None:
        """What a restart needs to bring the table back (store.save_snapshot), saved when a
        hand starts, when it ends and whenever a seat changes. During a hand the players in
        it are saved with their start-of-hand stacks: a hand cut by a crash is cancelled
        with every bet returned (cdc 5.4)."""
        if self.store is None:
            return
        in_hand = self._in_hand()

        def pos(p: Positions | None) -> list[int] | None:
            return None if p is None else [p.button, p.sb_slot, p.big_blind]

        snapshot = {
            "hand": self.hand_no,
            "in_hand": in_hand,
            "cancelled": self.cancelled_hand,
            "positions": pos(self.positions),
            "replay": pos(self.replay_positions),
            "dealt_in": self.dealt_in if in_hand else [],
            "seats": [
                {
                    "seat": s.seat,
                    "pid": s.pid,
                    "name": s.name,
                    "stack": self.start_stacks.get(s.seat, s.stack) if in_hand else s.stack,
                    "time_bank": s.time_bank,
                    "new": s.new,
                    "sitting_out": s.sitting_out,
                }
                for s in self.seats.values()
                if not s.leaving
            ],
        }
        self.store.save_snapshot(self.table, self.hand_no, self.seq, snapshot)

    def _deal(self, cut: int) -> None:
        assert self.dealt is not None and self.positions is not None
        self.timers.cut = None
        dealt_in = sorted(self.start_stacks)
        present = [s for s in dealt_in if s in self.seats and self._present(self.seats[s])]
        if self.director is not None:
            present = [s for s in dealt_in if s in self.seats]
        if len(present) < 2:
            # everyone (or all but one) left before the deal: nothing was posted yet; the
            # hand is called off and dealt again when players are back (cdc 2.2)
            self._goto(TablePhase.BETWEEN)
            stacks = {str(s): self.seats[s].stack for s in dealt_in if s in self.seats}
            self._emit(
                [
                    (
                        "hand_end",
                        {"hand": self.hand_no, "stacks": stacks, "record": "", "cancelled": True},
                    )
                ]
            )
            self._save_snapshot()
            self.timers.next_hand = self.clock.now() + self.config.next_hand_seconds
            return
        self.dealt.cut(cut)
        for s in dealt_in:
            self.seats[s].new = False
        penalised = {self.seats[s].pid for s in dealt_in if self.dead_hands.get(self.seats[s].pid)}
        for pid in penalised:
            self.dead_hands[pid] -= 1  # cdc 11.1: a missed hand served
        dead = {
            s: not self._present(self.seats[s]) or self.seats[s].pid in penalised for s in dealt_in
        }
        if all(dead.values()):
            # nobody here (a tournament table whose players are still on their way from
            # another table or server): the hand is dealt live and played by the action
            # clock, every absent player checking or folding (an all-dead hand cannot be dealt)
            dead = dict.fromkeys(dealt_in, False)
        setup = HandSetup(
            profile=self.profile,
            blinds=self.blinds,
            seats=tuple(
                SeatSetup(player=str(s), seat=s, stack=self.seats[s].stack, dead=dead[s])
                for s in dealt_in
            ),
            button=self.positions.button,
            big_blind=self.positions.big_blind,
            hole={str(s): self.dealt.hole(s) for s in dealt_in},
            board=self.dealt.board(),
            denominations=self.config.denominations,
        )
        self.hand = Hand(setup)
        names = {s: self.seats[s].name for s in dealt_in}
        if self.director is not None:
            holes = {names[s]: [card_name(c) for c in self.dealt.hole(s)] for s in dealt_in}
            self.private_holes.append({"hand": self.hand_no, "holes": holes})
            del self.private_holes[:-50]
        self.log = HandLog(self.hand_no, self.start_stacks, names)
        self._goto(TablePhase.BETTING)
        self._after_engine(list(self.hand.events), acted=-1)

    # ------------------------------------------------------------------ engine -> table

    def _after_engine(self, events: list[ev.Event], acted: int) -> None:
        hand = self.hand
        assert hand is not None and self.log is not None
        if self.hand_for_hand and self.director is not None and self.held is None:
            face_up = next((k for k, e in enumerate(events) if isinstance(e, ev.FaceUp)), -1)
            if face_up >= 0:
                # cdc 2.7: hand-for-hand, all-in hands stay face down until every table has
                # finished its hand; the director reveals them (t_reveal)
                self.held = events[face_up:]
                events = events[:face_up]
                out, notices = self.log.translate(
                    events, lambda player: hand.committed[hand.index[player]]
                )
                for seat, kind, text, rule in notices:
                    self._notice(seat, kind, text, rule)
                if out:
                    self._emit(out)
                self.timers.action = None
                self._acting_seat = -1
                for watcher in list(self.watchers.values()):
                    watcher.client.deliver(
                        encode(
                            m.Notice(
                                table=self.table,
                                kind="hand_for_hand_hold",
                                text="all-in: hands stay face down until every table has "
                                "finished its hand",
                                rule="cdc-2.7",
                            )
                        )
                    )
                self.director.allin(self)
                return
        out, notices = self.log.translate(events, lambda player: hand.committed[hand.index[player]])
        for seat, kind, text, rule in notices:
            self._notice(seat, kind, text, rule)
        if out:
            self._emit(out)
        if any(isinstance(e, ev.Acted) for e in events):
            # a completed action passes the turn: the next decision gets its own clock and
            # its own ClockEvent, even by the same player (heads-up, the big blind closes
            # the preflop betting and speaks first on the flop)
            self._acting_seat = -1
        self._after_state_change()

    def _notice(self, seat: int, kind: str, text: str, rule: str) -> None:
        state = self.seats.get(seat)
        if state is not None and state.client is not None:
            state.client.deliver(
                encode(m.Notice(table=self.table, kind=kind, text=text[:500], rule=rule))
            )

    def _after_state_change(self) -> None:
        hand = self.hand
        assert hand is not None
        if hand.phase is Phase.FINISHED:
            self._end_hand(cancelled=False)
            return
        if hand.phase is Phase.SHOWDOWN:
            if self.phase is TablePhase.BETTING:
                self._goto(TablePhase.SHOWDOWN)
                self.timers.action = None
                self.timers.showdown = self.clock.now() + self.config.showdown_seconds
            return
        menu = hand.menu()
        if menu is None:
            return
        seat = int(menu.player)
        if self.seats[seat].leaving:
            self._fold_leaver()
            return
        self._send_turn(menu)
        if self.timers.action is None or self._acting_seat != seat:
            self._acting_seat = seat
            self.timers.action = self.clock.now() + self.config.action_seconds
            self.timers.action_started = self.clock.now()
            self.timers.bank = False
            self.timers.time_called = False
            self._emit(
                [
                    (
                        "clock_event",
                        {
                            "hand": self.hand_no,
                            "seat": seat,
                            "kind": "action",
                            "remaining_ms": int(self.config.action_seconds * 1000),
                        },
                    )
                ]
            )

    def _send_turn(self, menu: Menu) -> None:
        """Tell the player to act their legal options (private, not sequenced)."""
        state = self.seats.get(int(menu.player))
        if state is None or state.client is None:
            return
        remaining = 0.0
        if self.timers.action is not None:
            remaining = max(0.0, self.timers.action - self.clock.now())
        if self._acting_seat != int(menu.player):
            remaining = self.config.action_seconds
        state.client.deliver(
            encode(
                m.Turn(
                    table=self.table,
                    hand=self.hand_no,
                    seat=int(menu.player),
                    call=menu.call,
                    can_check=menu.can_check,
                    can_fold=menu.can_fold,
                    can_raise=menu.can_raise,
                    min_raise_to=menu.min_raise_to,
                    max_raise_to=menu.max_raise_to,
                    pending=menu.pending,
                    remaining_ms=int(remaining * 1000),
                )
            )
        )

    def _end_hand(self, cancelled: bool) -> None:
        hand = self.hand
        assert hand is not None
        self.timers.action = self.timers.showdown = None
        self._acting_seat = -1
        if cancelled:
            stacks = dict(self.start_stacks)
        else:
            stacks = {int(p): v for p, v in hand.stacks().items()}
        for seat, stack in stacks.items():
            state = self.seats[seat]
            state.stack = stack
            state.time_bank = min(
                self.config.time_bank_seconds, state.time_bank + self.config.time_bank_per_hand
            )
        record_ref = ""
        if not cancelled:
            record = self._hand_record(hand, stacks)
            if self.store is not None:
                self.store.save_hand_record(self.table, self.hand_no, record)
            record_ref = f"/api/hands/{self.table}/{self.hand_no}.json"
            self._send_hole_proofs(record)
        report = self._report(None if cancelled else hand, stacks, cancelled)
        events: list[tuple[str, dict[str, Any]]] = [
            (
                "hand_end",
                {
                    "hand": self.hand_no,
                    "stacks": {str(s): v for s, v in stacks.items()},
                    "record": record_ref,
                    "cancelled": cancelled,
                },
            ),
        ]
        for seat, stack in stacks.items():
            if stack == 0:
                state = self.seats.pop(seat)
                events.append(("seat", self._seat_payload(state, "busted")))
                for watcher in self.watchers.values():
                    if watcher.seat == seat:
                        watcher.seat = None  # a spectator now, never the next occupant's cards
        for state in [s for s in self.seats.values() if s.leaving]:
            del self.seats[state.seat]
            events.append(("seat", self._seat_payload(state, "left")))
            for watcher in self.watchers.values():
                if watcher.seat == state.seat:
                    watcher.seat = None  # a spectator now, never the next occupant's cards
        for chat_seat, name, text in self.held_chat:
            events.append(("chat_event", {"seat": chat_seat, "player": name, "text": text}))
        self.held_chat = []
        self._goto(TablePhase.BETWEEN)
        self._emit(events)
        ops, self.between_ops = self.between_ops, []
        for _kind, payload in ops:
            self._set_stack(*payload)
        self._save_snapshot()
        self._flush_spectators()
        self.hands_played += 1
        self.hand_ended.set()
        self.hand_ended = asyncio.Event()
        if self.on_hand_end is not None:
            self.on_hand_end(self)
        if self.director is not None:
            self.director.hand_ended(self, report)
            self._maybe_schedule_deal_after_hand()
        else:
            self.timers.next_hand = self.clock.now() + self.config.next_hand_seconds

    def _maybe_schedule_deal_after_hand(self) -> None:
        if self.phase is TablePhase.BETWEEN and not self.awaiting_deal:
            self.timers.next_hand = self.clock.now() + self.config.next_hand_seconds

    def _send_hole_proofs(self, record: dict[str, Any]) -> None:
        assert self.dealt is not None
        for seat in self.start_stacks:
            state = self.seats.get(seat)
            if state is None or state.client is None:
                continue
            proof = m.HoleProof(
                table=self.table,
                hand=self.hand_no,
                root=record["root"],
                cut=record["cut"],
                openings={"cards": self.dealt.hole_proof(seat)},
            )
            state.client.deliver(encode(proof))

    def _hand_record(self, hand: Hand, stacks: dict[int, int]) -> dict[str, Any]:
        assert self.dealt is not None and self.positions is not None and self.log is not None
        board = [card_name(c) for c in hand.board]
        record: dict[str, Any] = {
            "format": "brasseur-hand/1",
            "table": self.table,
            "table_name": self.config.name,
            "profile": self.profile.id,
            "started_at": self.clock.wall(),
            "tournament": None,
            "blinds": {
                "sb": self.blinds.sb,
                "bb": self.blinds.bb,
                "ante": self.blinds.ante,
                "ante_format": self.blinds.ante_format.value,
            },
            "max_seats": self.config.max_seats,
            "button": self.positions.button,
            **self.log.record(hand.events, board, stacks),
        }
        shown = [int(s) for s in record["shown"]]
        record.update(self.dealt.fairness(board_count=len(board), shown=shown))
        return self.dealer.sign(record)

    # ------------------------------------------------------------------ timers

    def _next_deadline(self) -> float | None:
        t = self.timers
        times = [x for x in (t.action, t.cut, t.showdown, t.next_hand) if x is not None]
        return min(times) if times else None

    def _fire_timers(self) -> None:
        now = self.clock.now()
        t = self.timers
        if t.next_hand is not None and now >= t.next_hand:
            self._start_hand()
        if t.cut is not None and now >= t.cut and self.phase is TablePhase.CUT:
            self._deal(self.randbelow(52))  # cdc 5.2 online: a random cut on timeout
        if t.showdown is not None and now >= t.showdown and self.hand is not None:
            t.showdown = None
            self._after_engine(self.hand.auto_showdown(), acted=-1)
        if t.action is not None and now >= t.action and self.hand is not None:
            self._action_expired()

    def _action_expired(self) -> None:
        hand = self.hand
        assert hand is not None
        menu = hand.menu()
        if menu is None:
            self.timers.action = None
            return
        seat = int(menu.player)
        state = self.seats.get(seat)
        connected = state is not None and state.connected
        # the bank serves a player thinking, not one who is gone (ONLINE_RULES: presence)
        if connected and not self.timers.time_called and self._start_bank(seat):
            return
        dead = self.timers.time_called
        self.timers.action = None
        self._acting_seat = -1
        events = hand.timeout(menu.player, dead=dead)
        self._after_engine(events, acted=hand.index[menu.player])

    # ------------------------------------------------------------------ output

    def _emit(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Number, store (before anyone sees them), then deliver per recipient."""
        batch = []
        for kind, data in items:
            self.seq += 1
            batch.append((self.seq, kind, data))
        if self.store is not None:
            self.store.append_events(self.table, batch)
        self._recent.extend(batch)
        if len(self._recent) > RECENT_EVENTS + RECENT_EVENTS // 2:
            del self._recent[:-RECENT_EVENTS]
        in_hand = self._in_hand()
        frames: dict[tuple[int, bool], bytes] = {}
        for watcher in list(self.watchers.values()):
            if watcher.seat is None:
                if not in_hand:  # spectators: one hand behind, caught up between hands
                    self._deliver(watcher, self._events_after(watcher.delivered), frames)
                continue
            self._deliver(watcher, batch, frames)

    def _in_hand(self) -> bool:
        return self.phase in (TablePhase.CUT, TablePhase.BETTING, TablePhase.SHOWDOWN)

    def _deliver(
        self,
        watcher: Watcher,
        batch: list[tuple[int, str, dict[str, Any]]],
        frames: dict[tuple[int, bool], bytes] | None = None,
    ) -> None:
        """Send the events of ``batch`` this watcher has not had. Every recipient gets the
        same bytes except a hole card's owner: ``frames`` encodes each view once."""
        if frames is None:
            frames = {}
        for seq, kind, data in batch:
            if seq <= watcher.delivered:
                continue
            owner = kind == "hole" and data["seat"] == watcher.seat
            frame = frames.get((seq, owner))
            if frame is None:
                frame = frames[(seq, owner)] = encode(self._render(watcher, seq, kind, data))
            watcher.client.deliver(frame)
            watcher.delivered = seq

    def _render(self, watcher: Watcher, seq: int, kind: str, data: dict[str, Any]) -> m.Message:
        return render(self.table, watcher.seat, seq, kind, data)

    def _flush_spectators(self) -> None:
        for watcher in list(self.watchers.values()):
            if watcher.seat is None:
                self._deliver(watcher, self._events_after(watcher.delivered))

    def _events_after(self, seq: int) -> list[tuple[int, str, dict[str, Any]]]:
        if self._recent and self._recent[0][0] <= seq + 1:
            return [e for e in self._recent if e[0] > seq]
        if self.store is not None:
            return self.store.events_after(self.table, seq)
        return [e for e in self._recent if e[0] > seq]

    def _resync(self, watcher: Watcher, last_seq: int | None) -> None:
        """Missed events if we have them all, else a snapshot (ARCHITECTURE: reconnect)."""
        limit = self.seq
        if watcher.seat is None and self._in_hand():
            limit = self.hand_start_seq - 1
        if last_seq is not None and last_seq <= limit:
            missed = [e for e in self._events_after(last_seq) if e[0] <= limit]
            if (missed and missed[0][0] == last_seq + 1) or (not missed and last_seq == limit):
                watcher.delivered = last_seq
                self._deliver(watcher, missed)
                return
        watcher.client.deliver(
            encode(m.Snapshot(table=self.table, seq=limit, state=self.snapshot_for(watcher.seat)))
        )
        watcher.delivered = limit

    def snapshot_for(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` may see it (spectators: as of the last completed hand)."""
        return table_view(self, seat)
