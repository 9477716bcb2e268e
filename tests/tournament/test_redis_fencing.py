"""RedisTableStore.write on a real Redis: one atomic script, fenced by the table's owner epoch.

A process that took a table over (claim) makes every write of the earlier owners fail with
StaleWriter, even when their sequence numbers would follow; a refused write writes nothing; a
Redis that is down or too slow raises StoreUnavailable and the same batch succeeds later."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.retry import Retry

from server.store import (
    SequenceError,
    StaleWriter,
    Store,
    StoreError,
    StoreUnavailable,
    TableWrite,
)
from server.tournament.lease import Lease
from server.tournament.redis_store import RedisTableStore

from ..redis_server import RedisServer

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
def other(redis_url: str, redis_prefix: str) -> Iterator[RedisTableStore]:
    """The same tables seen by another process: its own connection."""
    with redis.Redis.from_url(redis_url) as connection:
        yield RedisTableStore(connection, redis_prefix)


def events(first: int, count: int, tag: str = "") -> tuple[Event, ...]:
    return tuple(
        (s, "e", {"n": s, "tag": tag, "é": [1, None]}) for s in range(first, first + count)
    )


def dump(client: redis.Redis, prefix: str) -> dict[bytes, bytes | None]:
    """Every key under ``prefix`` with its serialised value (DUMP): equal iff nothing moved."""
    return {key: client.dump(key) for key in sorted(client.scan_iter(match=f"{prefix}:*"))}


def full_batch(first: int, hand: int, epoch: int | None, tag: str = "") -> TableWrite:
    return TableWrite(
        events=events(first, 3, tag),
        snapshot=(hand + 1, first + 2, {"hand": hand + 1, "tag": tag}),
        record=(hand, {"hand": hand, "tag": tag}),
        epoch=epoch,
    )


# -- the write --------------------------------------------------------------------------------


def test_write_stores_what_the_older_methods_and_sqlite_store(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str, tmp_path: Path
) -> None:
    batches = [
        TableWrite(events=events(1, 2), snapshot=(1, 0, {"hand": 1, "by_seat": {1: "a"}})),
        TableWrite(events=events(3, 3), record=(1, {"hand": 1, "won": (3, 400)})),
        TableWrite(snapshot=(2, 5, {"hand": 2})),  # no events
        TableWrite(record=(2, {"hand": 2})),
        TableWrite(snapshot=(1, 9, {"hand": 1, "late": True})),  # a lower hand: ignored
        TableWrite(),
    ]
    with Store(tmp_path / "brasseur.db") as sqlite:
        for batch in batches:
            store.write("t1", batch)
            sqlite.write("t1", batch)
        assert store.last_seq("t1") == sqlite.last_seq("t1") == 5
        assert store.events_after("t1", 0) == sqlite.events_after("t1", 0)
        assert store.hand_records("t1") == sqlite.hand_records("t1")
        assert store.hand_record("t1", 1) == {"hand": 1, "won": [3, 400]}
    assert store.last_snapshot("t1") == (2, 5, {"hand": 2})
    assert store.tables() == ["t1"]
    store.write("t2", TableWrite(events=events(1, 1)))  # no snapshot: not listed
    assert store.tables() == ["t1"]
    # the members are those of append_events, byte for byte
    store.append_events("t3", list(events(1, 5)))
    assert client.zrange(f"{redis_prefix}:table:t1:events", 0, -1) == client.zrange(
        f"{redis_prefix}:table:t3:events", 0, -1
    )
    store.append_events("t1", list(events(6, 1)))  # the older method follows on
    store.write("t1", TableWrite(events=events(7, 1)))
    assert store.last_seq("t1") == 7


def test_write_trims_to_max_events(client: redis.Redis, redis_prefix: str) -> None:
    store = RedisTableStore(client, redis_prefix, max_events=4)
    for first in range(1, 10, 3):
        store.write("t1", TableWrite(events=events(first, 3)))
    assert [e[0] for e in store.events_after("t1", 0)] == [6, 7, 8, 9]
    assert store.last_seq("t1") == 9


@pytest.mark.parametrize("first", [5, 3, 1, 2])  # a gap, equal, below, overlapping
def test_seqs_must_follow_and_a_refusal_writes_nothing(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str, first: int
) -> None:
    epoch = store.claim("t1")
    store.write("t1", full_batch(1, 1, epoch))
    before = dump(client, redis_prefix)
    with pytest.raises(SequenceError, match="does not follow 3") as refused:
        store.write("t1", full_batch(first, 5, epoch, tag="other"))
    assert refused.value.stored == 3
    assert dump(client, redis_prefix) == before


def test_the_retry_of_a_stored_batch_is_accepted_and_writes_nothing(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    epoch = store.claim("t1")
    batch = full_batch(1, 1, epoch)
    store.write("t1", batch)
    store.write("t1", TableWrite(events=events(4, 1), record=(1, {"v": 2}), epoch=epoch))
    before = dump(client, redis_prefix)
    store.write("t1", batch)  # its reply was lost, say: retried as is
    store.write("t1", TableWrite(events=events(2, 2), epoch=epoch))  # a part of it too
    assert dump(client, redis_prefix) == before
    assert store.hand_record("t1", 1) == {"v": 2}


def test_a_batch_that_is_not_json_writes_nothing(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    store.write("t1", full_batch(1, 1, None))
    before = dump(client, redis_prefix)
    for bad in (
        TableWrite(events=events(4, 1), record=(2, {"x": object()})),
        TableWrite(events=events(4, 1), snapshot=(3, 4, {"x": {1}})),
        TableWrite(events=((4, "e", {"x": object()}),), record=(2, {})),
        TableWrite(events=((4, "e", ["not", "a", "dict"]),)),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            store.write("t1", bad)
    assert dump(client, redis_prefix) == before


def test_a_key_of_another_type_fails_before_anything_is_written(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    """What would make the script fail midway (WRONGTYPE on the last key it writes) is checked
    before the first write: the events and the snapshot are not written either."""
    store.write("t1", TableWrite(events=events(1, 1)))
    client.set(f"{redis_prefix}:table:t1:records", "not a hash")
    before = dump(client, redis_prefix)
    with pytest.raises(StoreError, match="records holds another type"):
        store.write("t1", full_batch(2, 1, None))
    assert dump(client, redis_prefix) == before


@pytest.mark.parametrize("name", ["epoch", "last_seq", "events", "snapshot", "tables", "records"])
def test_any_key_of_another_type_fails_the_batch_with_nothing_written(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str, name: str
) -> None:
    """Issue 32 checks only the keys written without being read first (the tables set, the
    records hash); every other key of another type still fails the batch before its first
    write (a read raises WRONGTYPE, or it is the first write): nothing is written."""
    epoch = store.claim("t1")  # a fenced write: the epoch is read, and must be sure
    store.write("t1", TableWrite(events=events(1, 1), epoch=epoch))
    key = f"{redis_prefix}:tables" if name == "tables" else f"{redis_prefix}:table:t1:{name}"
    client.delete(key)
    client.rpush(key, "a list: of no type the store uses")
    before = dump(client, redis_prefix)
    with pytest.raises(StoreError):
        store.write("t1", full_batch(2, 1, epoch))
    assert dump(client, redis_prefix) == before


# -- fencing ----------------------------------------------------------------------------------


def test_the_old_owner_of_a_table_taken_over_can_never_write_again(
    store: RedisTableStore, other: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    a, b = store, other  # two processes
    assert a.epoch("t1") == 0
    epoch_a = a.claim("t1")
    assert epoch_a == 1 == a.epoch("t1")
    a.write("t1", full_batch(1, 1, epoch_a, "a"))
    epoch_b = b.claim("t1")
    assert epoch_b == 2
    before = dump(client, redis_prefix)
    # A's next batch follows the stored seqs (B has written nothing yet: the burned-seq case
    # the seq check alone let through), yet it is refused
    with pytest.raises(StaleWriter, match="epoch 1 is not the owner epoch 2") as stale:
        a.write("t1", full_batch(4, 2, epoch_a, "a"))
    assert (stale.value.epoch, stale.value.current) == (1, 2)
    with pytest.raises(StaleWriter):  # the retry of its own stored batch: refused too
        a.write("t1", full_batch(1, 1, epoch_a, "a"))
    with pytest.raises(StaleWriter):  # even one that would be a SequenceError
        a.write("t1", full_batch(9, 2, epoch_a, "a"))
    assert dump(client, redis_prefix) == before
    b.write("t1", full_batch(4, 2, epoch_b, "b"))
    assert b.last_seq("t1") == 6
    assert [e[2]["tag"] for e in b.events_after("t1", 0)] == ["a"] * 3 + ["b"] * 3
    with pytest.raises(StaleWriter):
        a.write("t1", full_batch(7, 3, epoch_a, "a"))
    with pytest.raises(StaleWriter):  # an epoch from the future is no better
        b.write("t1", full_batch(7, 3, epoch_b + 1, "b"))
    assert b.last_seq("t1") == 6
    # unfenced writes are not checked (the older methods neither)
    b.write("t1", TableWrite(events=events(7, 1)))
    assert b.last_seq("t1") == 7
    # the tables are fenced one by one
    assert a.claim("t2") == 1 and b.epoch("t2") == 1
    a.write("t2", full_batch(1, 1, 1))


def test_a_paused_process_resuming_after_a_takeover_is_refused(
    store: RedisTableStore, other: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    a, b = store, other
    epoch_a = a.claim("t1")
    a.write("t1", full_batch(1, 1, epoch_a))
    next_batch = full_batch(4, 2, epoch_a)  # built by A just before it froze
    # ... A is paused: it does not run. B takes the table over and recovers it, and has not
    # written anything yet when A wakes up.
    epoch_b = b.claim("t1")
    assert b.last_seq("t1") == 3 and b.last_snapshot("t1") == (2, 3, {"hand": 2, "tag": ""})
    before = dump(client, redis_prefix)
    with pytest.raises(StaleWriter):
        a.write("t1", next_batch)
    assert dump(client, redis_prefix) == before
    b.write("t1", full_batch(4, 2, epoch_b, "b"))
    assert b.hand_record("t1", 2) == {"hand": 2, "tag": "b"}


@pytest.mark.asyncio
async def test_a_lease_on_the_table_key_hands_out_the_same_epochs(
    redis_url: str, store: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    """A table lease on ``{prefix}:table:t`` increments the epoch that write() checks: a holder
    paused past its ttl whose lease was taken is fenced off with its ``lease.epoch``."""
    key = f"{redis_prefix}:table:t1"
    aio = aioredis.Redis.from_url(redis_url)
    try:
        a = Lease(aio, key, "a", ttl_ms=100)
        b = Lease(aio, key, "b", ttl_ms=5000)
        assert await a.acquire() and a.epoch == 1
        assert a.epoch is not None
        store.write("t1", full_batch(1, 1, a.epoch))
        await asyncio.sleep(0.2)  # A paused past its ttl: no renewal
        assert await b.acquire() and b.epoch == 2 == store.epoch("t1")
        with pytest.raises(StaleWriter):
            store.write("t1", full_batch(4, 2, a.epoch))
        assert store.claim("t1") == 3  # and claim() after a lease goes on from it
    finally:
        await aio.aclose()


def test_delete_table_deletes_the_epoch(
    store: RedisTableStore, client: redis.Redis, redis_prefix: str
) -> None:
    store.write("t1", full_batch(1, 1, store.claim("t1")))
    store.delete_table("t1")
    assert store.epoch("t1") == 0
    assert list(client.scan_iter(match=f"{redis_prefix}:*")) == []


# -- Redis down, too slow, out of memory ------------------------------------------------------


_BUSY = """
local t = redis.call('time')
local stop = t[1] * 1000000 + t[2] + ARGV[1] * 1000
repeat t = redis.call('time') until t[1] * 1000000 + t[2] >= stop
return 1
"""
"""Keeps Redis busy for ARGV[1] ms (no other client is served meanwhile)."""


def fast_client(server: RedisServer, timeout: float = 0.3) -> redis.Redis:
    """No retries and short timeouts: the errors come at once."""
    return redis.Redis.from_url(
        server.url,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
    )


def test_a_stopped_redis_raises_store_unavailable() -> None:
    with RedisServer() as server, fast_client(server) as connection:
        store = RedisTableStore(connection, "p")
        epoch = store.claim("t1")
        store.write("t1", full_batch(1, 1, epoch))
        server.stop()
        start = time.monotonic()
        with pytest.raises(StoreUnavailable) as down:
            store.write("t1", full_batch(4, 2, epoch))
        assert isinstance(down.value.__cause__, redis.ConnectionError)
        with pytest.raises(StoreUnavailable):
            store.claim("t1")
        assert time.monotonic() - start < 2


def test_out_of_memory_and_timeouts_raise_store_unavailable_and_the_batch_is_retried() -> None:
    with RedisServer() as server, fast_client(server, timeout=0.1) as connection:
        admin = redis.Redis.from_url(server.url)
        store = RedisTableStore(connection, "p")
        epoch = store.claim("t1")
        store.write("t1", full_batch(1, 1, epoch))
        batch = full_batch(4, 2, epoch)
        before = dump(admin, "p")
        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)
        with pytest.raises(StoreUnavailable, match="maxmemory") as oom:
            store.write("t1", batch)  # refused at the script's first write: nothing written
        assert isinstance(oom.value.__cause__, redis.exceptions.OutOfMemoryError)
        assert dump(admin, "p") == before
        admin.config_set("maxmemory", 0)
        # Redis busy (another client's long script): the client times out, but Redis runs
        # the write once it is free: the caller saw an error, the batch is stored. The retry
        # of the same batch is accepted, without writing it twice.
        busy = threading.Thread(target=admin.eval, args=(_BUSY, 0, 500))
        busy.start()
        with fast_client(server, timeout=0.05) as probe:
            while True:  # until the script runs
                try:
                    probe.ping()
                except redis.TimeoutError:
                    break
        with pytest.raises(StoreUnavailable) as slow:
            store.write("t1", batch)
        assert isinstance(slow.value.__cause__, redis.TimeoutError)
        busy.join()
        assert store.last_seq("t1") == 6  # it was written after all
        after = dump(admin, "p")
        store.write("t1", batch)
        assert dump(admin, "p") == after
        assert [e[0] for e in store.events_after("t1", 0)] == [1, 2, 3, 4, 5, 6]
        assert store.hand_record("t1", 2) == {"hand": 2, "tag": ""}
        # not written this time (the command is dropped with its closed connection)
        admin.client_pause(300, all=True)
        with pytest.raises(StoreUnavailable):
            store.write("t1", full_batch(7, 3, epoch))
        time.sleep(0.4)
        assert store.last_seq("t1") in (6, 9)
        store.write("t1", full_batch(7, 3, epoch))  # either way, the retry is right
        assert store.last_seq("t1") == 9
        admin.close()


# -- what a hand costs in Redis commands (issue 32) -------------------------------------------


def command_calls(client: redis.Redis) -> dict[str, int]:
    stats = client.info("commandstats")
    return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}


def test_a_hand_costs_four_commands_a_stored_step_and_four_more_at_its_end(
    store: RedisTableStore, client: redis.Redis
) -> None:
    """A table stores each step of a hand (the deal, each action with its clock) as one batch
    before anyone sees it, and at the hand's end its record and the next hand's snapshot. On
    a real Redis, counted by ``INFO commandstats`` (the script's own commands included): a step
    is the script, one MGET (epoch and last seq), one ZADD, one SET (last seq); the end adds
    the snapshot's read and write, the record's type check and write. A table already in the
    tables set is not checked or added again (it was five commands a hand). Twenty steps, the
    mean of a nine-handed hand in the live bench, cost 84 commands: the floor of this layout
    (the epoch is the table lease's key, apart from the log)."""
    epoch = store.claim("t1")
    store.write("t1", full_batch(1, 1, epoch))  # the table's first hand: it joins the set
    steps, seq = 20, 4
    before = command_calls(client)
    for step in range(steps - 1):
        store.write("t1", TableWrite(events=events(seq, 2, f"s{step}"), epoch=epoch))
        seq += 2
    store.write("t1", full_batch(seq, 2, epoch))
    after = command_calls(client)
    spent = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    spent.pop("info", None)
    assert spent == {
        "evalsha": steps,
        "mget": steps,
        "zadd": steps,
        "set": steps,
        "hget": 1,
        "hset": 2,
        "type": 1,
    }, spent
    assert sum(spent.values()) == 4 * steps + 4 == 84
    assert store.last_seq("t1") == seq + 2
    assert store.last_snapshot("t1") == (3, seq + 2, {"hand": 3, "tag": ""})
    assert store.tables() == ["t1"]
