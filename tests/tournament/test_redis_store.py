"""RedisTableStore on a real Redis: the SQLite store's semantics, and a table taken over by a
new actor (another process) at its last completed hand."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from protocol import messages as m
from server.dealing import Signer
from server.store import Store
from server.table import commands as tc
from server.table.actor import TableActor, TablePhase
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from server.tournament.redis_store import RedisTableStore

from ..table.helpers import RecordingClient, seat_players, send, settle

Event = tuple[int, str, dict[str, Any]]


@pytest.fixture
def client(redis_url: str, redis_prefix: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    keys = list(client.scan_iter(match=f"{redis_prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def store(client: redis.Redis, redis_prefix: str) -> RedisTableStore:
    return RedisTableStore(client, redis_prefix)


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "brasseur.db") as store:
        yield store


# -- same results as the SQLite store --------------------------------------------------------

SNAPSHOT: dict[str, Any] = {
    "hand": 7,
    "in_hand": True,
    "cancelled": False,
    "positions": (3, 4, 5),  # a tuple comes back as a list
    "replay": None,
    "dealt_in": [1, 3, 4],
    "seats": [
        {"seat": 1, "pid": "p1", "name": "Zoé ♠", "stack": 9_500, "time_bank": 12.5, "new": False},
        {"seat": 3, "pid": "p3", "name": "Ana", "stack": 10_500, "time_bank": 60.0, "new": True},
    ],
    "by_seat": {1: "int keys become strings", "2": "string keys stay"},
    "big": 2**53 + 1,
    "ratio": 0.1,
}
RECORD: dict[str, Any] = {
    "hand": 7,
    "final_stacks": {1: 0, 3: 20_000},  # the actor reads them back with str keys
    "board": ["Ah", "Kd", "2c", "7s", "7h"],
    "pots": [{"amount": 400, "shares": [(3, 400)]}],
}
EVENTS: list[Event] = [
    (1, "seat", {"seat": 1, "status": "seated"}),
    (2, "hand_start", {"hand": 1, "stacks": {1: 10_000}}),
    (4, "hole", {"seat": 1, "cards": ("Ah", "Kd")}),
    (9, "chat_event", {"seat": None, "player": "Zoé", "text": "gg ♥ \u2028 \"'"}),
]


def test_same_results_as_the_sqlite_store(store: RedisTableStore, sqlite: Store) -> None:
    for s in (store, sqlite):
        assert s.last_seq("t1") == 0
        assert s.last_snapshot("t1") is None
        assert s.hand_record("t1", 7) is None
        assert s.events_after("t1", 0) == []
        s.append_events("t1", EVENTS[:2])
        s.append_events("t1", [])  # nothing to do
        s.append_events("t1", EVENTS[2:])
        s.save_snapshot("t1", 7, 4, SNAPSHOT)
        s.save_hand_record("t1", 7, RECORD)
        s.append_events("t2", [(1, "seat", {"seat": 2})])
    assert store.last_snapshot("t1") == sqlite.last_snapshot("t1")
    snapshot = store.last_snapshot("t1")
    assert snapshot is not None
    hand, seq, data = snapshot
    assert (hand, seq) == (7, 4)
    assert data["positions"] == [3, 4, 5]
    assert data["by_seat"] == {"1": "int keys become strings", "2": "string keys stay"}
    assert data["big"] == 2**53 + 1 and type(data["ratio"]) is float
    assert data["seats"][0]["name"] == "Zoé ♠"
    assert store.hand_record("t1", 7) == sqlite.hand_record("t1", 7)
    assert store.hand_record("t1", 7) == {
        "hand": 7,
        "final_stacks": {"1": 0, "3": 20_000},
        "board": ["Ah", "Kd", "2c", "7s", "7h"],
        "pots": [{"amount": 400, "shares": [[3, 400]]}],
    }
    assert store.hand_record("t1", 8) == sqlite.hand_record("t1", 8) is None
    for table in ("t1", "t2", "t3"):
        assert store.last_seq(table) == sqlite.last_seq(table)
        for after in (-1, 0, 1, 2, 3, 4, 8, 9, 10):
            for limit in (-1, 0, 1, 2, 10_000):
                assert store.events_after(table, after, limit) == sqlite.events_after(
                    table, after, limit
                ), (table, after, limit)
    assert store.events_after("t1", 0)[2] == (4, "hole", {"seat": 1, "cards": ["Ah", "Kd"]})
    assert store.events_after("t1", 1)[0] == (2, "hand_start", {"hand": 1, "stacks": {"1": 10_000}})


def test_snapshots_and_records_are_replaced_and_the_highest_hand_wins(
    store: RedisTableStore, sqlite: Store
) -> None:
    for s in (store, sqlite):
        s.save_snapshot("t1", 3, 30, {"v": "hand 3"})
        s.save_snapshot("t1", 5, 50, {"v": "hand 5"})
        s.save_snapshot("t1", 4, 40, {"v": "hand 4, saved late"})  # never the last one
        s.save_snapshot("t1", 5, 55, {"v": "hand 5 again"})  # replayed: replaced
        s.save_hand_record("t1", 5, {"v": 1})
        s.save_hand_record("t1", 5, {"v": 2})
    assert store.last_snapshot("t1") == sqlite.last_snapshot("t1") == (5, 55, {"v": "hand 5 again"})
    assert store.hand_record("t1", 5) == sqlite.hand_record("t1", 5) == {"v": 2}


@pytest.mark.parametrize(
    "batch",
    [
        [(3, "again", {})],  # equal to the last stored one
        [(2, "older", {})],
        [(4, "ok", {}), (4, "repeated", {})],
        [(5, "ok", {}), (4, "back", {})],
        [(0, "zero", {})],
        [(True, "bool", {})],  # not an int
    ],
)
def test_non_increasing_seq_is_refused_and_nothing_written(
    store: RedisTableStore, sqlite: Store, batch: list[Event]
) -> None:
    for s in (store, sqlite):
        s.append_events("t1", [(1, "a", {}), (2, "b", {}), (3, "c", {})])
        with pytest.raises(ValueError, match="strictly increasing"):
            s.append_events("t1", batch)
        assert s.last_seq("t1") == 3
        assert [e[0] for e in s.events_after("t1", 0)] == [1, 2, 3]


def test_bad_payloads_raise_type_error_and_nothing_written(
    store: RedisTableStore, sqlite: Store
) -> None:
    bads: list[Any] = [[], "text", {"x": object()}]
    for s in (store, sqlite):
        for bad in bads:
            with pytest.raises(TypeError):
                s.append_events("t1", [(1, "a", {}), (2, "b", bad)])
            with pytest.raises(TypeError):
                s.save_snapshot("t1", 1, 0, bad)
            with pytest.raises(TypeError):
                s.save_hand_record("t1", 1, bad)
        assert s.last_seq("t1") == 0 and s.events_after("t1", 0) == []
        assert s.last_snapshot("t1") is None and s.hand_record("t1", 1) is None
    assert store.tables() == []


# -- Redis specifics -------------------------------------------------------------------------


def test_only_the_last_max_events_are_kept(client: redis.Redis, redis_prefix: str) -> None:
    store = RedisTableStore(client, redis_prefix, max_events=5)
    for first in range(1, 13, 3):  # batches of 3, seq 1..12
        store.append_events("t1", [(s, "e", {"n": s}) for s in range(first, first + 3)])
    assert store.last_seq("t1") == 12  # kept when the events are trimmed
    assert store.events_after("t1", 0) == [(s, "e", {"n": s}) for s in range(8, 13)]
    assert [e[0] for e in store.events_after("t1", 9)] == [10, 11, 12]
    assert [e[0] for e in store.events_after("t1", 0, limit=2)] == [8, 9]
    assert store.events_after("t1", 12) == []
    assert client.zcard(f"{redis_prefix}:table:t1:events") == 5
    with pytest.raises(ValueError, match="strictly increasing"):
        store.append_events("t1", [(12, "again", {})])
    store.append_events("t1", [(20, "later", {})])
    assert [e[0] for e in store.events_after("t1", 0)] == [9, 10, 11, 12, 20]
    with pytest.raises(ValueError):
        RedisTableStore(client, redis_prefix, max_events=0)


def test_tables_delete_table_and_prefixes(
    client: redis.Redis, store: RedisTableStore, redis_prefix: str
) -> None:
    store.append_events("events-only", [(1, "seat", {})])
    for table in ("t2", "t1:a"):
        store.append_events(table, [(1, "seat", {}), (2, "hand_start", {})])
        store.save_snapshot(table, 1, 2, {"table": table})
        store.save_hand_record(table, 1, {"table": table})
    assert store.tables() == ["t1:a", "t2"]  # the ones having a snapshot
    other = RedisTableStore(client, f"{redis_prefix}:other")
    assert other.tables() == [] and other.last_seq("t2") == 0 and other.last_snapshot("t2") is None
    store.delete_table("t2")
    assert store.tables() == ["t1:a"]
    assert store.last_seq("t2") == 0 and store.events_after("t2", 0) == []
    assert store.last_snapshot("t2") is None and store.hand_record("t2", 1) is None
    assert store.last_snapshot("t1:a") == (1, 2, {"table": "t1:a"})
    assert store.last_seq("events-only") == 1
    store.delete_table("never-existed")  # nothing to do
    store.delete_table("t1:a")
    store.delete_table("events-only")
    assert store.tables() == []
    assert list(client.scan_iter(match=f"{redis_prefix}:*")) == []


def test_decode_responses_client_reads_the_same(
    redis_url: str, store: RedisTableStore, redis_prefix: str
) -> None:
    store.append_events("t1", EVENTS)
    store.save_snapshot("t1", 7, 4, SNAPSHOT)
    store.save_hand_record("t1", 7, RECORD)
    with redis.Redis.from_url(redis_url, decode_responses=True) as text_client:
        text = RedisTableStore(text_client, redis_prefix)
        assert text.events_after("t1", 0) == store.events_after("t1", 0)
        assert text.last_snapshot("t1") == store.last_snapshot("t1")
        assert text.hand_record("t1", 7) == store.hand_record("t1", 7)
        assert text.last_seq("t1") == 9 and text.tables() == ["t1"]


def test_two_writers_never_interleave_their_events(
    redis_url: str, store: RedisTableStore, redis_prefix: str
) -> None:
    """A process that still believes it runs the table cannot append next to the new one."""
    store.append_events("t1", [(1, "a", {}), (2, "b", {})])
    with redis.Redis.from_url(redis_url) as other_client:
        other = RedisTableStore(other_client, redis_prefix)
        other.append_events("t1", [(3, "new owner", {})])
        with pytest.raises(ValueError, match="strictly increasing"):
            store.append_events("t1", [(3, "old owner", {})])
    assert store.events_after("t1", 0) == [(1, "a", {}), (2, "b", {}), (3, "new owner", {})]


# -- a table taken over by another process ---------------------------------------------------


def new_actor(redis_url: str, prefix: str) -> tuple[TableActor, FakeClock, redis.Redis]:
    """A table actor as a fresh process would build it: its own Redis connection and store."""
    connection = redis.Redis.from_url(redis_url)
    clock = FakeClock()
    actor = TableActor(
        TableConfig(table_id="t1"),
        clock,
        CsprngDealer(Signer.generate()),
        store=RedisTableStore(connection, prefix),
    )
    return actor, clock, connection


async def start_hand(actor: TableActor, clock: FakeClock) -> None:
    await clock.advance(actor.config.next_hand_seconds)
    await settle()
    phase = actor.phase
    assert phase is TablePhase.CUT
    await clock.advance(actor.config.cut_seconds)  # nobody cuts: a random cut
    await settle()
    assert actor.phase is TablePhase.BETTING


def act(actor: TableActor, clients: list[RecordingClient], verb: str) -> None:
    assert actor.hand is not None
    menu = actor.hand.menu()
    assert menu is not None
    seat = int(menu.player)
    send(actor, clients[seat - 1], m.Act(table="t1", hand=actor.hand_no, verb=verb))


async def play_out(actor: TableActor, clients: list[RecordingClient], verb: str) -> None:
    """Every player to act answers ``verb`` until the hand is over."""
    ended = actor.hand_ended
    while actor.phase is TablePhase.BETTING:
        act(actor, clients, verb)
        await settle()
    await asyncio.wait_for(ended.wait(), 5)


async def abandon(task: asyncio.Task[None]) -> None:
    """The process running the actor dies: nothing more runs, nothing is cleaned up."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def stacks(actor: TableActor) -> dict[int, int]:
    return {seat: state.stack for seat, state in actor.seats.items()}


@pytest.mark.asyncio
async def test_another_actor_takes_the_table_over_at_its_last_completed_hand(
    redis_url: str, client: redis.Redis, redis_prefix: str
) -> None:
    first, clock, first_connection = new_actor(redis_url, redis_prefix)
    first.recover()  # nothing stored yet
    task = first.start()
    clients = await seat_players(first, 3)
    total = 3 * first.config.starting_stack
    await start_hand(first, clock)  # a first hand, played to the end
    await play_out(first, clients, "fold")
    await start_hand(first, clock)  # the second one is cut
    hand = first.hand_no
    assert hand == 2
    at_start = dict(first.core.start_stacks)
    assert sorted(at_start) == [1, 2, 3] and sum(at_start.values()) == total
    started = clients[0].of(m.HandStart)[-1]
    act(first, clients, "call")  # the first player to act puts chips in
    await settle()
    assert first.phase is TablePhase.BETTING
    assert first.hand is not None
    in_hand = {int(seat): stack for seat, stack in first.hand.stacks().items()}
    assert sum(in_hand.values()) < total  # blinds and the call in the pot
    called = clients[0].of(m.ActionEvent)[-1]
    assert called.action == "call" and called.added > 0
    last_seq = first.seq
    await abandon(task)  # the process dies mid-hand
    first_connection.close()

    second, _, second_connection = new_actor(redis_url, redis_prefix)
    second.recover()
    # the cut hand is cancelled with every bet returned (cdc 5.4)
    assert second.hand_no == hand
    assert stacks(second) == at_start and sum(stacks(second).values()) == total
    assert {s.player for s in second.seats.values()} == {"p1", "p2", "p3"}
    assert second.seq == last_seq + 1
    store = second.store
    assert store is not None
    (cancel,) = store.events_after("t1", last_seq)
    assert cancel == (
        last_seq + 1,
        "hand_end",
        {
            "hand": hand,
            "stacks": {str(s): v for s, v in at_start.items()},
            "record": "",
            "cancelled": True,
        },
    )
    assert store.hand_record("t1", hand) is None

    # recovered twice (the second process dies too before dealing): never cancelled twice;
    # the third process's claim fences the second one off (its epoch is no longer the owner's)
    second_connection.close()
    third, clock3, third_connection = new_actor(redis_url, redis_prefix)
    third.recover()
    assert third.seq == last_seq + 1 and stacks(third) == at_start
    store = third.store
    assert store is not None

    # the players come back and the new actor plays the hand again, to the end
    task2 = third.start()
    again = [RecordingClient(pid=f"p{k}") for k in (1, 2, 3)]
    for k, player in enumerate(again, start=1):
        third.post(tc.Sit(conn=tc.Conn(player.cid, f"p{k}"), seat=k, name=f"Player{k}"), player)
    await settle()
    await start_hand(third, clock3)
    replay = again[0].of(m.HandStart)[-1]
    assert replay.hand == hand + 1
    assert (replay.button, replay.small_blind, replay.big_blind) == (
        started.button,
        started.small_blind,
        started.big_blind,
    )
    await play_out(third, again, "fold")
    assert third.hands_played == 1
    assert sum(stacks(third).values()) == total
    end = again[0].of(m.HandEnd)[-1]
    assert end.hand == hand + 1 and not end.cancelled
    record = store.hand_record("t1", hand + 1)
    assert record is not None
    assert {int(s): v for s, v in record["final_stacks"].items()} == stacks(third)
    snapshot = store.last_snapshot("t1")
    assert snapshot is not None and snapshot[0] == hand + 1
    assert {e["seat"]: e["stack"] for e in snapshot[2]["seats"]} == stacks(third)
    seqs = [e[0] for e in store.events_after("t1", 0)]
    assert seqs == list(range(1, third.seq + 1))  # one log, no gap, no duplicate
    await third.stop()
    await task2
    third_connection.close()


@pytest.mark.asyncio
async def test_a_table_abandoned_between_hands_comes_back_with_the_final_stacks(
    redis_url: str, client: redis.Redis, redis_prefix: str
) -> None:
    first, clock, first_connection = new_actor(redis_url, redis_prefix)
    task = first.start()
    clients = await seat_players(first, 3)
    await start_hand(first, clock)
    await play_out(first, clients, "fold")
    after = stacks(first)
    assert after != first.core.start_stacks  # the blinds moved
    hand, last_seq = first.hand_no, first.seq
    await abandon(task)
    first_connection.close()

    second, _, second_connection = new_actor(redis_url, redis_prefix)
    second.recover()
    assert (second.hand_no, second.seq) == (hand, last_seq)  # nothing to cancel
    assert stacks(second) == after
    assert not second.core.cancelled_hand
    second_connection.close()
