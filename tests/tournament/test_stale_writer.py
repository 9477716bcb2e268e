"""Fencing on the real Redis: a table actor paused past its ownership writes nothing.

Actor A (one process) recovers a table (``recover()`` claims it: A's epoch is stamped on its
writes) and plays; actor B (another process, the same store) takes it over (claims: the epoch
moves on). A, paused meanwhile, then gets a timer or a command: its write is refused
(``StaleWriter``) whatever its sequence numbers, A closes its table, and the stored log is
exactly B's. (The old defect: the stale check was "seq greater than the last stored", so a
paused A appended a ``clock_event`` after the takeover.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis

from protocol import messages as m
from server.dealing import Signer
from server.store import StaleWriter, StoreError, TableWrite
from server.table import commands as tc
from server.table.actor import TableActor, TablePhase
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from server.tournament.redis_store import RedisTableStore

from ..table.helpers import RecordingClient, seat_players, settle

TABLE = "t1"


class WatchedStore(RedisTableStore):
    """The Redis store, remembering the outcome of every write (None: written)."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        super().__init__(client, prefix)
        self.outcomes: list[tuple[TableWrite, StoreError | None]] = []

    def write(self, table: str, batch: TableWrite) -> None:
        try:
            super().write(table, batch)
        except StoreError as exc:
            self.outcomes.append((batch, exc))
            raise
        self.outcomes.append((batch, None))


class Process:
    """A table actor as one server process builds it: its own connection, store, clock."""

    def __init__(self, redis_url: str, prefix: str) -> None:
        self.connection = redis.Redis.from_url(redis_url)
        self.store = WatchedStore(self.connection, prefix)
        self.clock = FakeClock()
        self.actor = TableActor(
            TableConfig(table_id=TABLE), self.clock, CsprngDealer(Signer.generate()), self.store
        )
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.actor.recover()  # claims the table: its epoch fences every older owner
        self.task = self.actor.start()

    async def deal(self) -> None:
        """Open a hand and let the cut time out (a random cut): betting starts."""
        actor = self.actor
        await self.clock.advance(actor.config.next_hand_seconds)
        await settle()
        assert actor.phase is TablePhase.CUT
        await self.clock.advance(actor.config.cut_seconds)
        await settle()
        assert actor.phase is TablePhase.BETTING

    def act(self, clients: list[RecordingClient], verb: str) -> None:
        actor = self.actor
        assert actor.hand is not None
        menu = actor.hand.menu()
        assert menu is not None
        client = clients[int(menu.player) - 1]
        actor.post(tc.Declare(conn=actor.conn(client), hand=actor.hand_no, verb=verb), client)

    async def play_out(self, clients: list[RecordingClient], verb: str) -> None:
        ended = self.actor.hand_ended
        while self.actor.phase is TablePhase.BETTING:
            self.act(clients, verb)
            await settle()
        await asyncio.wait_for(ended.wait(), 5)

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            await self.actor.stop()
        self.connection.close()


@pytest.fixture
def cleanup(redis_url: str, redis_prefix: str) -> Iterator[None]:
    yield
    with redis.Redis.from_url(redis_url) as client:
        keys = list(client.scan_iter(match=f"{redis_prefix}:*"))
        if keys:
            client.delete(*keys)


@pytest.mark.asyncio
@pytest.mark.parametrize("paused", ["mid_hand", "between_hands"])
@pytest.mark.usefixtures("cleanup")
async def test_a_paused_owner_writes_nothing_after_the_takeover(
    redis_url: str, redis_prefix: str, paused: str
) -> None:
    a = Process(redis_url, redis_prefix)
    a.start()
    epoch_a = a.actor.core.out.epoch
    clients = await seat_players(a.actor, 3)
    await a.deal()
    await a.play_out(clients, "fold")  # a first hand, played to its end
    await a.deal()
    if paused == "mid_hand":
        a.act(clients, "call")  # chips in the pot
        await settle()
        assert a.actor.phase is TablePhase.BETTING
    else:
        await a.play_out(clients, "fold")
    assert a.store.outcomes and all(error is None for _, error in a.store.outcomes)
    assert {batch.epoch for batch, _ in a.store.outcomes} == {epoch_a}
    received = [len(c.received) for c in clients]
    seq_a = a.actor.seq

    # A is paused (no timer fires, no command comes); B takes the table over
    b = Process(redis_url, redis_prefix)
    b.start()
    epoch_b = b.actor.core.out.epoch
    assert epoch_a is not None and epoch_b == epoch_a + 1
    if paused == "mid_hand":
        # the hand cut by the takeover is cancelled with every bet returned (cdc 5.4): B's
        # first write, with B's epoch
        assert [batch.epoch for batch, _ in b.store.outcomes] == [epoch_b]
        assert b.actor.seq == seq_a + 1
    else:
        # nothing to write: A's next seq still follows the stored ones, only the epoch
        # stops A
        assert b.store.outcomes == [] and b.actor.seq == seq_a
    stored = b.store.events_after(TABLE, 0)
    assert [e[0] for e in stored] == list(range(1, b.actor.seq + 1))

    # A wakes up: its action clock runs out (mid-hand), or a player chats (between hands)
    before = len(a.store.outcomes)
    if paused == "mid_hand":
        await a.clock.advance(a.actor.config.action_seconds)  # a clock_event (bank) to write
    else:
        a.actor.post(tc.Chat(conn=a.actor.conn(clients[0]), text="still here?"), clients[0])
    await settle()
    refused = a.store.outcomes[before:]
    assert len(refused) == 1, refused
    batch, error = refused[0]
    assert isinstance(error, StaleWriter), error
    assert batch.epoch == epoch_a and error.current == epoch_b
    if paused == "between_hands":
        assert batch.first_seq == len(stored) + 1  # it follows the stored seqs: still refused
    assert a.actor.closed  # A stops: its table closes
    assert a.task is not None
    await asyncio.wait_for(a.task, 5)
    assert [len(c.received) for c in clients] == received  # nothing refused went out
    assert b.store.events_after(TABLE, 0) == stored  # not one event of A after the takeover
    await a.clock.advance(60.0)  # and nothing more, ever
    assert len(a.store.outcomes) == before + 1

    # B plays on: the players come back to B, a hand is dealt and played to its end
    again = [RecordingClient(pid=f"p{k}") for k in (1, 2, 3)]
    for client in again:
        b.actor.post(tc.Watch(conn=b.actor.conn(client)), client)
    await settle()
    await b.deal()
    await b.play_out(again, "fold")
    ends = again[0].of(m.HandEnd)
    assert ends and not ends[-1].cancelled
    assert all(error is None for _, error in b.store.outcomes)
    assert {batch.epoch for batch, _ in b.store.outcomes} == {epoch_b}
    log = b.store.events_after(TABLE, 0)
    assert log[: len(stored)] == stored
    # every event after A's last write is one of B's writes
    written_by_b = [(seq, kind) for batch, _ in b.store.outcomes for seq, kind, _ in batch.events]
    assert [(seq, kind) for seq, kind, _ in log[seq_a:]] == written_by_b
    assert [e[0] for e in log] == list(range(1, b.actor.seq + 1))  # one log, no gap
    total = 3 * b.actor.config.starting_stack
    assert sum(s.stack for s in b.actor.seats.values()) == total
    await b.close()
    await a.close()
