"""The asyncio shell of one table: inbox, one timer, store then send.

All the table's logic is in the pure :class:`~server.table.table.Table`; this shell only
moves commands in and carries effects out, in order: a store write first, then what it lets
go out. A failed write stops the effects there and hands the rest back to the table, which
halts visibly (health, metrics, clients told) and retries by itself. Sends never block: each
connection's ``deliver`` queues into a bounded queue (the gateway drops a client that does
not read).

Test-only crash points: ``BRASSEUR_CRASH_AFTER=KIND[:N]`` ends the process (``os._exit``)
right after the N-th successful store write containing an event of that kind (``hand_start``,
``action``, ``hand_end``, ``seat``...), to test recovery from a kill at each write of a hand.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from server.cash import CashRules, Ledger
from server.engine import Hand
from server.store.batch import SequenceError, StaleWriter, StoreError, TableWrite
from server.table import commands as c
from server.table.clock import Cancellable, Clock
from server.table.config import TableConfig
from server.table.dealer import Dealer
from server.table.effects import (
    Deliver,
    DirectorAllIn,
    DirectorReady,
    Effect,
    GrantSeat,
    Halted,
    HandFinished,
    Kick,
    ReportHand,
    Resumed,
    Transfer,
    Write,
)
from server.table.outbox import RECENT_EVENTS
from server.table.phases import TablePhase
from server.table.policy import DirectedPolicy
from server.table.report import HandEnded
from server.table.seats import SeatState
from server.table.table import Table

__all__ = ["Client", "Directed", "Store", "TableActor", "TablePhase"]

log = logging.getLogger("brasseur.table")


class Client(Protocol):
    """A connection as the table sees it (implemented by the gateway and by tests)."""

    cid: str
    pid: str | None

    def deliver(self, data: bytes) -> None: ...

    def kick(self, code: str, reason: str) -> None: ...


class Store(Protocol):
    def last_seq(self, table: str) -> int: ...

    def last_snapshot(self, table: str) -> tuple[int, int, dict[str, Any]] | None: ...

    def hand_record(self, table: str, hand: int) -> dict[str, Any] | None: ...

    def claim(self, table: str) -> int: ...

    def events_after(
        self, table: str, seq: int, limit: int = 10_000
    ) -> list[tuple[int, str, dict[str, Any]]]: ...

    def write(self, table: str, batch: TableWrite) -> None: ...


class Directed(Protocol):
    """The tournament side of a table (server.tournament.host): told when the table is ready
    to deal, when an all-in is called hand-for-hand, and when a hand ends."""

    def ready(self, table: TableActor) -> None: ...

    def allin(self, table: TableActor) -> None: ...

    def hand_ended(self, table: TableActor, report: HandEnded) -> None: ...


def _crash_point() -> tuple[str, int] | None:
    spec = os.environ.get("BRASSEUR_CRASH_AFTER", "")
    if not spec:
        return None
    kind, _, count = spec.partition(":")
    return kind, int(count or 1)


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
        self.clock = clock
        self.store = store
        self.on_hand_end = on_hand_end
        self.core = Table(config, dealer, randbelow, wall=clock.wall)
        self.director: Directed | None = None
        self.grant: Callable[[Client, GrantSeat], None] | None = None
        """Issues the seat token once the seat is saved (the gateway); None: no token."""
        self.transfer: Callable[[TableActor, Transfer], None] | None = None
        """Seats a cash player at the room's other table once his move out is saved (the
        gateway); None: the move stays a cash-out in this table's ledger."""
        self.settled: Callable[[TableActor, c.Command | None], None] | None = None
        """Told after each command the table handled, its effects carried out (the write
        made), and after each burst's timers (None): a league's cash season keeps its
        capital with the ledger (server.league_service.capital). A failure there is logged,
        never the table's."""
        self.clients: dict[str, Client] = {}
        self.inbox: asyncio.Queue[tuple[c.Command, Client | None]] = asyncio.Queue()
        self.hand_ended = asyncio.Event()
        self.halted_since: float | None = None
        self._idle = False
        self._task: asyncio.Task[None] | None = None
        self._timer: Cancellable | None = None
        self._armed_at: float | None = None
        self._crash = _crash_point()

    # ------------------------------------------------------------------ the table's state

    def direct(self, director: Directed) -> None:
        """Make this a director-driven (tournament) table (before it starts)."""
        self.director = director
        self.core.policy = DirectedPolicy()

    @property
    def phase(self) -> TablePhase:
        return self.core.phase

    @property
    def closed(self) -> bool:
        return self.core.closed

    @property
    def hand(self) -> Hand | None:
        return self.core.hand

    @property
    def hand_no(self) -> int:
        return self.core.hand_no

    @property
    def seats(self) -> dict[int, SeatState]:
        return self.core.seats

    @property
    def hands_played(self) -> int:
        return self.core.hands_played

    @property
    def private_holes(self) -> list[dict[str, Any]]:
        return self.core.private_holes

    @property
    def seq(self) -> int:
        return self.core.seq

    def snapshot_for(self, seat: int | None) -> dict[str, Any]:
        return self.core.view(seat)

    @property
    def store_failures(self) -> int:
        """Store writes that failed since the table started (health, metrics)."""
        return self.core.store_failures

    @property
    def halt_reason(self) -> str:
        """Why the table is halted ("" when it is not)."""
        return self.core.halt_reason

    @property
    def watched(self) -> bool:
        """Someone (a player or a spectator) follows the table now."""
        return bool(self.core.watchers)

    @property
    def blinds(self) -> tuple[int, int]:
        return self.core.blinds.sb, self.core.blinds.bb

    @property
    def big_blind_seat(self) -> int | None:
        """The seat of the last hand's big blind (None before any hand)."""
        positions = self.core.positions
        return None if positions is None else positions.big_blind

    def cash_rules(self) -> CashRules | None:
        """A cash table's rules (None at any other table)."""
        cash = self.core.cash
        return None if cash is None else cash.rules

    def moving_seats(self) -> frozenset[int]:
        """The seats of a cash table whose players are moving to another table of the room."""
        cash = self.core.cash
        return frozenset() if cash is None else frozenset(cash.moving)

    def closing_ledger(self, now: float) -> Ledger | None:
        """A cash table's ledger as it closes for good: the stacks still on it written cashed
        out to their players (None at any other table)."""
        ledger = self.ledger()
        if ledger is None:
            return None
        seats = [(s.player, s.name, s.stack) for s in self.core.seats.values()]
        return ledger.closed(seats, now, self.core.hand_no)

    def ledger(self) -> Ledger | None:
        """A cash table's ledger (None at any other table): read it, never change it."""
        cash = self.core.cash
        return None if cash is None else cash.book.ledger

    def stacks(self) -> dict[str, int]:
        """Each seated player's chips now, by player id."""
        return {state.player: state.stack for state in self.core.seats.values()}

    def asks_seat(self, player: str) -> bool:
        """``player`` asked for a seat that waits for the host's answer."""
        return any(r.conn.player == player for r in self.core.requests.values())

    @staticmethod
    def conn(client: Client) -> c.Conn:
        return c.Conn(client.cid, client.pid)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self.run(), name=f"table-{self.table}")
        self._task.add_done_callback(self._ended)
        return self._task

    def _ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("table %s: its loop failed, the table stopped", self.table, exc_info=exc)

    @property
    def stopped(self) -> bool:
        """The run loop has ended: the table was closed, or a bug stopped it (logged)."""
        return self._task is not None and self._task.done()

    def retry_now(self) -> None:
        """The store works again (the owner saw it): a halted table retries its write at once
        rather than at the end of its backoff (up to 10 s)."""
        if self.phase is TablePhase.HALTED and self.core.timers.retry is not None:
            self.core.timers.retry = min(self.core.timers.retry, self.clock.now())
            self.inbox.put_nowait((_TICK, None))

    async def stop(self) -> None:
        self.post(c.CloseTable())
        if self._task is not None:
            await self._task

    def post(self, command: c.Command, client: Client | None = None) -> None:
        """Queue a command for the table (the only way in, with ``submit``)."""
        self.inbox.put_nowait((command, client))

    def submit(self, command: c.Command, client: Client | None = None) -> None:
        """A command from a client's connection: handled at once when the table is idle (its
        run loop waits on an empty inbox), else queued behind the others. The same single
        writer (handling is synchronous and never re-entered), minus the event-loop turn a
        queued command waits."""
        if not self._idle or not self.inbox.empty():
            self.post(command, client)
            return
        self._idle = False
        try:
            self._handle(command, client)
            self._after_burst()
        finally:
            self._idle = True
        if self.closed:
            self.inbox.put_nowait((c.CloseTable(), None))  # wake the run loop so that it ends

    def submit_message(self, client: Client, message: Any) -> None:
        """A decoded client message for this table (raises ProtocolError if it is not a
        table command)."""
        self.submit(c.from_message(self.conn(client), message), client)

    async def run(self) -> None:
        """Process the inbox in bursts; one scheduled wake-up for the nearest deadline."""
        self._run_effects(self.core.tick(self.clock.now()))
        self._arm()
        while not self.closed:
            self._idle = True
            try:
                item = await self.inbox.get()
            finally:
                self._idle = False
            while True:
                if item[0] is not _TICK:
                    self._handle(*item)
                if self.closed:
                    break
                try:
                    item = self.inbox.get_nowait()
                except asyncio.QueueEmpty:
                    break
            self._after_burst()
        if self._timer is not None:
            self._timer.cancel()

    def recover(self) -> None:
        """Come back from the store after a restart (or a takeover): claim the table (its
        epoch fences any older owner), then restore its last snapshot (cdc 5.4)."""
        store = self.store
        if store is None:
            return
        self.core.out.epoch = store.claim(self.table)
        self.core.out.seq = last_seq = store.last_seq(self.table)
        # the last events back in memory, read once (bounded): players reconnecting after a
        # restart get what they missed, not a snapshot
        self.core.out.recent = store.events_after(
            self.table, max(0, last_seq - RECENT_EVENTS), RECENT_EVENTS
        )
        last = store.last_snapshot(self.table)
        if last is None:
            return
        hand, _seq, data = last
        record = store.hand_record(self.table, hand) if data.get("in_hand", True) else None
        self.core.now = self.clock.now()  # a leaver of the cut hand is paid out now
        self.core.restore(data, record)
        self._run_effects(self.core.flush())

    # ------------------------------------------------------------------ in and out

    def _handle(self, command: c.Command, client: Client | None) -> None:
        if client is not None:
            self.clients[client.cid] = client
        effects = self.core.handle(command, self.clock.now())
        if isinstance(command, (c.Gone, c.Leave)) and command.conn.cid not in self.core.watchers:
            self.clients.pop(command.conn.cid, None)
        self._run_effects(effects)
        self._settled(command)

    def _after_burst(self) -> None:
        self._run_effects(self.core.tick(self.clock.now()))
        self._settled(None)
        self._arm()

    def _settled(self, command: c.Command | None) -> None:
        if self.settled is None:
            return
        try:
            self.settled(self, command)
        except Exception:
            log.exception("table %s: what follows its ledger failed", self.table)

    def _run_effects(self, effects: list[Effect]) -> None:
        for i, effect in enumerate(effects):
            if type(effect) is Deliver:
                for cid in effect.cids:
                    client = self.clients.get(cid)
                    if client is not None:
                        client.deliver(effect.frame)
            elif type(effect) is Write:
                if not self._write(effects, i):
                    break
            else:
                self._other(effect)
        if self.core.internal_errors:
            for text in self.core.internal_errors:
                log.error("table %s: %s", self.table, text)
            self.core.internal_errors.clear()

    def _write(self, effects: list[Effect], i: int) -> bool:
        """Carry out the write ``effects[i]``; False if the rest must not go out."""
        batch = effects[i]
        assert isinstance(batch, Write)
        if self.store is None:
            return True
        try:
            self.store.write(self.table, batch.batch)
        except (StaleWriter, SequenceError) as exc:
            log.error("table %s: %s: another process owns it now, stopping", self.table, exc)
            self._run_effects(self.core.stale())
            return False
        except StoreError as exc:
            log.error("table %s: store write failed, halting: %s", self.table, exc)
            self._run_effects(self.core.write_failed(effects[i:], self.clock.now(), str(exc)))
            return False
        if self._crash is not None:
            self._count_crash_point(batch.batch)
        return True

    def _count_crash_point(self, batch: TableWrite) -> None:
        assert self._crash is not None
        kind, count = self._crash
        if any(k == kind for _, k, _ in batch.events):
            count -= 1
            self._crash = (kind, count)
            if count <= 0:
                os._exit(137)  # a kill right after this write (test hook)

    def _other(self, effect: Effect) -> None:
        if isinstance(effect, (ReportHand, DirectorReady, DirectorAllIn)):
            if self.director is not None:
                self._to_director(self.director, effect)
        elif isinstance(effect, (Kick, GrantSeat)):
            self._to_client(effect)
        elif type(effect) is HandFinished:
            self.hand_ended.set()
            self.hand_ended = asyncio.Event()
            if self.on_hand_end is not None:
                self.on_hand_end(self)
        elif type(effect) is Halted:
            if self.halted_since is None:
                self.halted_since = self.clock.now()
        elif type(effect) is Transfer:
            self._transfer(effect)
        elif type(effect) is Resumed:
            log.warning("table %s: store works again, resumed", self.table)
            self.halted_since = None

    def _transfer(self, effect: Transfer) -> None:
        if self.transfer is not None:
            self.transfer(self, effect)
        else:
            log.error("table %s: %s moved out with no room to go to", self.table, effect.name)

    def _to_client(self, effect: Kick | GrantSeat) -> None:
        if isinstance(effect, Kick):
            client = self.clients.pop(effect.cid, None)
            if client is not None:
                client.kick(effect.code, effect.reason)
            return
        granted = self.clients.get(effect.cid)
        if granted is not None and self.grant is not None:
            self.grant(granted, effect)

    def _to_director(
        self, director: Directed, effect: ReportHand | DirectorReady | DirectorAllIn
    ) -> None:
        if isinstance(effect, ReportHand):
            director.hand_ended(self, effect.report)
        elif isinstance(effect, DirectorReady):
            director.ready(self)
        else:
            director.allin(self)

    # ------------------------------------------------------------------ the timer

    def _arm(self) -> None:
        """Schedule one wake-up at the nearest deadline (replacing an older one)."""
        deadline = self.core.next_deadline()
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
        self.inbox.put_nowait((_TICK, None))


_TICK: Any = object()
"""Inbox marker of a timer wake-up (the timers themselves are the pure table's)."""
