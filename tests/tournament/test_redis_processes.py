"""One tournament across two ``python -m server`` processes sharing a real Redis, one of them
killed with SIGKILL in the middle: the other takes the director and the dead process's tables
over, every player is moved back to his seat, no chip is lost and the tournament finishes."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from bots.client import Bot
from bots.strategies import CallingStation, RandomLegal, TightAggressive
from server.tournament.redis_store import RedisTableStore
from tests.integration.wsclient import ROOT, Server

CONFIG = Path(__file__).parent / "configs" / "processes_200.toml"
PLAYERS = 200
STACK = 3000
TID = "duo"


def metric(server: Server, name: str) -> int:
    status, body = server.get("/metrics", timeout=2.0)
    assert status == 200
    found = re.search(rf"^{name} (\d+)$", body.decode(), re.MULTILINE)
    assert found is not None, name
    return int(found.group(1))


async def until(predicate: object, timeout: float, what: str) -> None:
    """Poll ``predicate()`` (a plain callable) until true; fail after ``timeout`` seconds."""
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


def mixed_bots(urls: list[str], players: int) -> list[Bot]:
    """``players`` bots of three strategies, bot i on ``urls[i % n]`` and knowing them all."""
    strategies = [RandomLegal, TightAggressive, CallingStation]
    bots = []
    for i in range(players):
        kind = strategies[i % 3]
        strategy = kind(random.Random(i)) if kind is RandomLegal else kind()
        url = urls[i % len(urls)]
        bots.append(Bot(url, strategy, nickname=f"bot{i}", rng=random.Random(i), urls=urls))
    return bots


async def register_and_play(bots: list[Bot], tid: str) -> list[asyncio.Task[Any]]:
    """Connect and register every bot, then let each play the tournament in a task."""
    for bot in bots:
        await bot.connect()
    await asyncio.gather(*(bot.register(tid) for bot in bots))
    return [asyncio.create_task(bot.play_tournament()) for bot in bots]


async def until_every_process_plays(cluster: list[Server], hands: int) -> None:
    """Every process runs tables (the friends table aside) and has played ``hands`` hands."""

    def busy() -> bool:
        return all(
            metric(s, "brasseur_tables") >= 2 and metric(s, "brasseur_hands_total") >= hands
            for s in cluster
        )

    await until(busy, 30, "hands on every process")


@pytest.fixture
def cluster(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[list[Server]]:
    """The tournament recorded in Redis (the CLI), then two server processes on it."""
    created = subprocess.run(
        [
            *(sys.executable, "-m", "server", "tournament", "create", str(CONFIG), "--id", TID),
            *("--redis", redis_url, "--redis-prefix", redis_prefix),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert created.returncode == 0, created.stderr
    assert "director=" in created.stdout
    servers = [
        Server(
            tmp_path / name,
            clock_speed=30,
            redis=redis_url,
            redis_prefix=redis_prefix,
            process_id=name,
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
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{redis_prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.mark.asyncio
async def test_a_killed_process_is_taken_over_and_the_tournament_finishes(
    cluster: list[Server], redis_url: str, redis_prefix: str
) -> None:
    client = redis.Redis.from_url(redis_url)
    bots = mixed_bots([s.url for s in cluster], PLAYERS)
    try:
        playing = await register_and_play(bots, TID)
        await until_every_process_plays(cluster, 20)
        await asyncio.sleep(1.0)  # hands in progress everywhere
        holder = client.get(f"{redis_prefix}:t:{TID}:lease")
        assert holder is not None
        victim = cluster[["a", "b"].index(holder.decode())]
        survivor = cluster[1 - cluster.index(victim)]
        victim.kill()  # the director and half of the tables die with it

        try:
            done = await asyncio.wait_for(asyncio.gather(*playing), 75)
        except TimeoutError:
            state = survivor.get(f"/api/tournaments/{TID}")[1].decode()
            pytest.fail(f"the tournament did not finish: {state}\n{survivor.stderr()[-5000:]}")
        assert all(done), "every bot busted or saw the end"

        def results() -> bool:
            return survivor.get(f"/api/tournaments/{TID}/results.json")[0] == 200

        await until(results, 20, "the results")
        doc = survivor.get_json(f"/api/tournaments/{TID}/results.json")
    finally:
        for bot in bots:
            await bot.close()

    rows = doc["results"]
    assert len(rows) == PLAYERS
    assert len({r["player_id"] for r in rows}) == PLAYERS
    places = [r["place"] for r in rows]
    # one winner; players busted in one hand with the same stack share a place (cdc 1.10)
    assert places.count(1) == 1
    assert all(p == 1 + sum(q < p for q in places) for p in places), sorted(places)
    winner = next(r for r in rows if r["place"] == 1)
    assert winner["name"] in {b.nickname for b in bots}
    assert client.get(f"{redis_prefix}:t:{TID}:results.json") is not None

    # no chip lost: every hand ends with the chips it started with (a hand cut by the kill
    # is cancelled with the start-of-hand stacks), and the winner holds them all
    store = RedisTableStore(client, f"{redis_prefix}:t:{TID}")
    tables = store.tables()
    assert tables
    hands = 0
    everything = False
    first_played: dict[str, int] = {}
    """Each table's first hand played to its end (a hand cut by the kill is cancelled, and
    the table may be broken before it deals again: that hand has no record)."""
    for table in tables:
        starts: dict[int, dict[str, int]] = {}
        for _seq, kind, payload in store.events_after(table, 0, limit=-1):
            if kind == "hand_start":
                starts[payload["hand"]] = payload["stacks"]
            elif kind == "hand_end" and payload["hand"] in starts:
                start = starts[payload["hand"]]
                end = payload["stacks"]
                assert sum(end.get(s, 0) for s in start) == sum(start.values()), (table, payload)
                hands += 1
                if not payload.get("cancelled"):
                    first_played.setdefault(table, payload["hand"])
                if sorted(end.values())[-1] == PLAYERS * STACK:
                    everything = True
    assert hands > 50
    assert everything, "the winner ends with every chip"
    # the hand records are in Redis too: any process serves them (public tournament tables)
    # even for a table the dead process ran
    assert len(first_played) >= len(tables) // 2
    for table, hand in first_played.items():
        status, body = survivor.get(f"/api/hands/{table}/{hand}.json")
        assert status == 200, (table, hand, body[:200])
        record = json.loads(body)
        assert record["table"] == table and record["hand"] == hand and record["signature"]
    client.close()
    # the survivor directs and runs the tables it took over
    log = survivor.stderr()
    assert f"{survivor.data.name} directs" in log and "runs here now" in log, log[-3000:]
