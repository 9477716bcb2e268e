"""Issue 27, item 4: every server process is killed, one restarts 11 s later; the SDK's bots
retry for ``RECONNECT_SECONDS`` (120 s), so none may give up (``connection_lost``) and the
tournament plays to its end on the process that came back.

Two ``python -m server`` processes share a real Redis; the load tester's bots are spread
over both. Once hands are played on both, both are killed (SIGKILL); 11 s later the first is
started again on the same port and data: it takes the tournament up from Redis (the director,
every table), and every bot comes back to its seat there."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bench.live_cluster import Cluster, audit_chips, check_results
from bench.tournament_live import STACK

from .cluster import load_tester, tournament_cluster, until

PLAYERS = 24
TID = "rs"
DOWN_SECONDS = 11.0


@pytest.fixture
def cluster(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[Cluster]:
    with tournament_cluster(tmp_path, redis_url, redis_prefix, TID, 2, PLAYERS) as running:
        yield running


def test_every_process_killed_and_one_back_11_s_later_no_bot_gives_up(
    cluster: Cluster, redis_url: str, tmp_path: Path
) -> None:
    client = redis.Redis.from_url(redis_url)
    report_path = tmp_path / "report.json"
    loader = load_tester(cluster, TID, PLAYERS, 120, 45, tmp_path)
    try:

        def busy() -> bool:
            return all(cluster.metric("brasseur_hands_total", [s]) >= 3 for s in cluster.servers)

        until(busy, 60, "hands on every process")
        for server in cluster.servers:
            server.kill()
        time.sleep(DOWN_SECONDS)
        back = cluster.servers[0]
        back.start(60)
        try:
            status = loader.wait(timeout=150)
        except subprocess.TimeoutExpired:
            state = cluster.get(f"/api/tournaments/{TID}")[1].decode()[:3000]
            pytest.fail(f"the tournament did not finish: {state}")
        assert report_path.exists(), (tmp_path / "loadtest.log").read_text()[-3000:]
        report = json.loads(report_path.read_text())
        until(
            lambda: cluster.get(f"/api/tournaments/{TID}/results.json")[0] == 200,
            20,
            "the results",
        )
        rows = json.loads(cluster.get(f"/api/tournaments/{TID}/results.json")[1])["results"]
        audit = audit_chips(client, cluster.tournament_prefix(TID))
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.wait(10)
        client.close()
    t = report["tournament"]
    print("restart report:", report["reconnects"], report["errors"], t)
    # the bots of both processes came back (every one was cut off by the kill)
    assert report["reconnects"] >= PLAYERS // 2, report["reconnects"]
    assert t["lost"] == 0, (t["lost_names"], report["errors"])
    assert "connection_lost" not in report["errors"], report["errors"]
    assert t["entrants"] == PLAYERS and t["finished"], t
    # the load tester exits 1 on any invariant its bots saw broken: a `pots` one is issue 32's
    # (side pots said with nobody all-in, seen under load, open); any other fails this test
    assert set(report["violations"]) <= {"pots"}, report["violation_examples"]
    assert status == 0 or set(report["violations"]) == {"pots"}
    assert check_results(rows, PLAYERS) == []
    assert audit.unbalanced == []
    assert audit.winner_chips == PLAYERS * STACK
