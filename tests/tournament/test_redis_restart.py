"""Redis restarts under a running tournament (docs/operations.md, "Redis").

A tournament over two ``python -m server`` processes on a real ``redis-server`` with AOF
(``appendfsync always``): the test kills Redis in the middle (``kill -9``) and starts it again
2 s later on the same port and directory. Every table halts on its failed writes and resumes
by itself, the director goes on where it stopped, no hand and no chip is lost and the
tournament finishes with every player ranked.

A Redis without persistence (no AOF, no RDB snapshots) is refused at start, with a one-line
reason, unless ``--allow-volatile-redis`` is given.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import msgpack
import pytest
import redis

from server.dealing import Signer
from server.table.clock import FakeClock
from server.table.dealer import CsprngDealer
from server.tokens import NonceBook, TokenAuthority
from server.tournament.host import TournamentHost
from server.tournament.live import load_tournament
from server.tournament.redis_coordinator import RedisCoordinator
from server.tournament.redis_link import (
    Persistence,
    RedisLink,
    persistence_verdict,
    read_persistence,
)
from server.tournament.redis_reports import ReportQueue
from server.tournament.redis_store import RedisTableStore
from server.tournament.redis_tables import TableKeeper
from tests.integration.wsclient import ROOT, Server

from ..redis_server import RedisServer, free_port
from .test_redis_processes import (
    metric,
    mixed_bots,
    register_and_play,
    until,
    until_every_process_plays,
)

CONFIG = Path(__file__).parent / "configs" / "restart_60.toml"
PLAYERS = 60
STACK = 3000
TID = "rr"
PREFIX = "restart"
DOWN = float(os.environ.get("TEST_REDIS_DOWN", "2.0"))
"""Seconds Redis stays down (more than the processes' heartbeat ttl, 3 s, works too)."""
RESUME_WITHIN = 15.0
"""Every table deals again within this many seconds of Redis being back."""


@pytest.fixture
def aof_redis() -> Iterator[RedisServer]:
    with RedisServer(appendfsync="always") as server:
        yield server


def create(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *(sys.executable, "-m", "server", "tournament", "create", str(CONFIG), "--id", TID),
            *("--redis", url, "--redis-prefix", PREFIX, *extra),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture
def cluster(tmp_path: Path, aof_redis: RedisServer) -> Iterator[list[Server]]:
    created = create(aof_redis.url)
    assert created.returncode == 0, created.stderr
    servers = [
        Server(
            tmp_path / name,
            clock_speed=30,
            redis=aof_redis.url,
            redis_prefix=PREFIX,
            process_id=name,
            # every bot comes from 127.0.0.1: no per-address limits (docs/operations.md)
            max_registrations_per_address=0,
            max_connections_per_address=0,
        )
        for name in ("a", "b")
    ]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def table_hands(store: RedisTableStore) -> dict[str, int]:
    """Table -> the hand of its last snapshot (saved at every hand's start and end)."""
    out = {}
    for table in store.tables():
        snap = store.last_snapshot(table)
        if snap is not None:
            out[table] = snap[0]
    return out


def open_tables(server: Server) -> set[str]:
    state = server.get_json(f"/api/tournaments/{TID}")
    return {name for name, _count in state.get("tables", [])}


@pytest.mark.asyncio
async def test_a_tournament_survives_a_redis_restart_with_aof(
    cluster: list[Server], aof_redis: RedisServer
) -> None:
    bots = mixed_bots([s.url for s in cluster], PLAYERS)
    client = redis.Redis.from_url(aof_redis.url)
    store = RedisTableStore(client, f"{PREFIX}:t:{TID}")
    try:
        playing = await register_and_play(bots, TID)
        await until_every_process_plays(cluster, 10)
        await asyncio.sleep(0.5)  # hands in progress everywhere
        before = table_hands(store)
        client.close()

        aof_redis.kill()
        await asyncio.sleep(DOWN)
        aof_redis.start()
        up = time.monotonic()

        # every table the director still runs deals a new hand (or is broken meanwhile)
        def dealing_again() -> bool:
            hands = table_hands(store)
            running = open_tables(cluster[0])
            return all(hands.get(t, 0) > n for t, n in before.items() if t in running)

        try:
            await until(dealing_again, RESUME_WITHIN, "every table dealing again")
        except AssertionError:
            logs = "\n".join(s.stderr()[-4000:] for s in cluster)
            pytest.fail(f"tables did not resume: {table_hands(store)} vs {before}\n{logs}")
        resumed = time.monotonic() - up
        print(f"\nRedis back up -> every table dealing again: {resumed:.2f} s")
        for server in cluster:
            assert metric(server, "brasseur_tables_halted") == 0
            assert server.healthy()

        try:
            done = await asyncio.wait_for(asyncio.gather(*playing), 90)
        except TimeoutError:
            state = cluster[0].get(f"/api/tournaments/{TID}")[1].decode()
            logs = "\n".join(s.stderr()[-4000:] for s in cluster)
            pytest.fail(f"the tournament did not finish: {state}\n{logs}")
        assert all(done), "every bot busted or saw the end"

        def results() -> bool:
            return cluster[0].get(f"/api/tournaments/{TID}/results.json")[0] == 200

        await until(results, 20, "the results")
        doc = cluster[0].get_json(f"/api/tournaments/{TID}/results.json")
    finally:
        for bot in bots:
            await bot.close()
        client.close()

    rows = doc["results"]
    assert len(rows) == PLAYERS
    assert len({r["player_id"] for r in rows}) == PLAYERS
    places = [r["place"] for r in rows]
    assert places.count(1) == 1
    assert all(p == 1 + sum(q < p for q in places) for p in places), sorted(places)

    # nothing lost: every hand of every table, before and after the restart, ends with the
    # chips it started with, hands are numbered without a gap, and the winner holds them all
    client = redis.Redis.from_url(aof_redis.url)
    store = RedisTableStore(client, f"{PREFIX}:t:{TID}")
    hands = 0
    everything = False
    for table in store.tables():
        starts: dict[int, dict[str, int]] = {}
        for _seq, event, payload in store.events_after(table, 0, limit=-1):
            if event == "hand_start":
                starts[payload["hand"]] = payload["stacks"]
            elif event == "hand_end" and payload["hand"] in starts:
                start = starts[payload["hand"]]
                end = payload["stacks"]
                assert sum(end.get(s, 0) for s in start) == sum(start.values()), (table, payload)
                hands += 1
                if sorted(end.values())[-1] == PLAYERS * STACK:
                    everything = True
        numbers = sorted(starts)
        assert numbers == list(range(numbers[0], numbers[-1] + 1)), (table, numbers)
    client.close()
    assert hands > 30
    assert everything, "the winner ends with every chip"
    logs = "\n".join(s.stderr() for s in cluster)
    assert "store works again, resumed" in logs  # the tables halted, then resumed by themselves
    assert "its loop failed" not in logs, "a table's loop ended on a Redis error"
    assert "taken over by" not in logs, "a live process was taken for dead"


# ---------------------------------------------------------------------- a volatile Redis


@pytest.fixture
def volatile_redis() -> Iterator[RedisServer]:
    with RedisServer(appendfsync=None) as server:
        yield server


def serve(tmp_path: Path, url: str, *extra: str, timeout: float = 20.0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "server", "--port", str(free_port())),
            *("--data", str(tmp_path / "data"), "--redis", url, "--redis-prefix", PREFIX, *extra),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_volatile_redis_is_refused_at_start(tmp_path: Path, volatile_redis: RedisServer) -> None:
    proc = serve(tmp_path, volatile_redis.url)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "no persistence" in lines[0] and "appendonly yes" in lines[0], err
    assert "--allow-volatile-redis" in lines[0], err

    created = create(volatile_redis.url)
    assert created.returncode == 2
    assert "appendonly yes" in created.stderr


def test_a_volatile_redis_is_accepted_when_allowed(
    tmp_path: Path, volatile_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create(volatile_redis.url, "--allow-volatile-redis")
    assert created.returncode == 0, created.stderr
    monkeypatch.setenv("BRASSEUR_ALLOW_VOLATILE_REDIS", "1")  # the flag's environment variable
    server = Server(tmp_path / "v", redis=volatile_redis.url, redis_prefix=PREFIX)
    try:
        server.start()
        assert server.healthy()
        assert "volatile" in server.stderr()
    finally:
        server.stop()


# ---------------------------------------------------------------------- the persistence check


@pytest.mark.parametrize(
    ("found", "allowed", "ok", "says"),
    [
        (Persistence(aof=True, fsync="always", rdb=False), False, True, ""),
        (Persistence(aof=True, fsync="everysec", rdb=True), False, True, ""),
        (Persistence(aof=True, fsync="no", rdb=False), False, True, "30 s"),
        (Persistence(aof=False, fsync="everysec", rdb=True), False, True, "no AOF"),
        (Persistence(aof=False, fsync="everysec", rdb=False), False, False, "no persistence"),
        (Persistence(aof=False, fsync="everysec", rdb=False), True, True, "volatile"),
        (Persistence(aof=False, source="info"), False, True, "could not be checked"),
        (Persistence(aof=None, source="none"), False, True, "could not be checked"),
        (Persistence(aof=True, rdb=False, eviction="allkeys-lru"), False, True, "noeviction"),
    ],
)
def test_the_persistence_verdicts(found: Persistence, allowed: bool, ok: bool, says: str) -> None:
    verdict = persistence_verdict(found, allowed)
    assert verdict.ok is ok
    assert says in verdict.message
    assert "\n" not in verdict.message
    if not ok:
        assert "appendonly yes" in verdict.message and "--allow-volatile-redis" in verdict.message


def test_the_persistence_of_a_real_redis() -> None:
    with RedisServer(appendfsync=None) as server, redis.Redis.from_url(server.url) as client:
        assert read_persistence(client) == Persistence(aof=False, fsync="everysec", rdb=False)
        client.config_set("save", "900 1")
        assert read_persistence(client).rdb is True
        client.config_set("appendonly", "yes")
        client.config_set("maxmemory", "100mb")
        found = read_persistence(client)
        assert found.aof is True and found.eviction == "noeviction"
        server.kill()  # no shutdown save


# ---------------------------------------------------------------------- reports and tables


@pytest.mark.asyncio
async def test_reports_wait_for_redis_in_order_and_never_raise(aof_redis: RedisServer) -> None:
    link = RedisLink(aof_redis.url, "p", "")
    aio = link.async_client()
    queue = ReportQueue(link.client, aio, "r", "p", "t")
    try:
        queue.submit("ready", {"table": 1})
        aof_redis.kill()
        queue.submit("ended", {"table": 1, "hand": 7})  # Redis down: kept, no error
        queue.submit("ready", {"table": 2})
        assert queue.waiting == 2
        await asyncio.sleep(0.3)  # the queue's task retries meanwhile
        aof_redis.start()
        queue.submit("present", {"player": "x"})  # behind the waiting ones
        await asyncio.wait_for(until_empty(queue), 10)
        entries = cast(list[tuple[bytes, dict[bytes, bytes]]], link.client.xrange("r"))
        got = [msgpack.unpackb(fields[b"r"], raw=False)[:2] for _id, fields in entries]
        assert got == [
            ["ready", {"table": 1}],
            ["ended", {"table": 1, "hand": 7}],
            ["ready", {"table": 2}],
            ["present", {"player": "x"}],
        ]
    finally:
        queue.close()
        await aio.aclose()
        link.close()


async def until_empty(queue: ReportQueue) -> None:
    while queue.waiting:
        await asyncio.sleep(0.05)


class StoppedActor:
    def __init__(self, name: str, stopped: bool) -> None:
        self.table = name
        self.stopped = stopped
        self.halted_since: float | None = None


class StubHost:
    def __init__(self) -> None:
        self.tables: dict[int, Any] = {1: StoppedActor("t-1", True), 2: StoppedActor("t-2", False)}
        self.directory = {1: "me", 2: "me"}
        self.dropped: list[str] = []

    def drop_table(self, name: str) -> None:
        self.dropped.append(name)


def test_a_table_stopped_in_a_live_process_is_given_back_to_the_director() -> None:
    host = StubHost()
    reports: list[tuple[str, dict[str, Any]]] = []
    keeper = TableKeeper(
        cast(Any, host), cast(Any, None), "me", "t", lambda k, d: reports.append((k, d))
    )
    keeper.check()
    assert reports == [("orphaned", {"tables": [1]})]  # taken over like a dead process's
    assert list(host.tables) == [2] and host.dropped == ["t-1"]
    keeper.check()
    assert len(reports) == 1


@pytest.mark.asyncio
async def test_a_director_never_starts_a_tournament_afresh_over_a_lost_state(
    aof_redis: RedisServer,
) -> None:
    text = CONFIG.read_text()
    link = RedisLink(aof_redis.url, "me", "ws://x/ws", prefix="lost")
    link.add_tournament(TID, text)
    cfg, settings = load_tournament(text)
    nonces: dict[str, str] = {}
    host = TournamentHost(
        TID,
        cfg,
        settings,
        clock=FakeClock(),
        dealer=lambda: CsprngDealer(Signer.generate()),
        store=None,
        auth=TokenAuthority(bytes(32), time.time, NonceBook(nonces.get, nonces.__setitem__)),
        add_table=lambda actor: None,
        drop_table=lambda name: None,
        persist=lambda key, value: None,
    )
    coordinator = RedisCoordinator(link, TID, cfg, host, host.clock)
    try:
        st, _pace = await coordinator._take_the_director()  # a new tournament: a new state
        assert st.loop.director.phase.value == "registering" and coordinator.failure is None
        link.client.set(f"lost:t:{TID}:director", b"\x93written by another version")
        with pytest.raises(asyncio.CancelledError):
            await coordinator._take_the_director()
        assert coordinator.failure is not None
        assert "cannot read the director's state" in coordinator.failure
        link.client.delete(f"lost:t:{TID}:director", f"lost:t:{TID}:config")  # a FLUSHALL
        with pytest.raises(asyncio.CancelledError):
            await coordinator._take_the_director()
        assert coordinator.failure is not None and "gone from Redis" in coordinator.failure
        assert coordinator.health() == [f"degraded: tournament {TID}: {coordinator.failure}"]
    finally:
        coordinator.close()
        await coordinator.aio.aclose()
        link.close()
