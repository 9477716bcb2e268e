"""Issue 11 acceptance: a load-test run where a server process is killed mid-tournament.

Three ``python -m server`` processes share a real Redis; the bots are the load tester's
(``python -m bots.loadtest --tournament ID --url A --url B --url C``, its own process), spread
over the three. Once hands are played on every process, the one holding the director's lease is
killed with SIGKILL: its bots reconnect to the others, the survivors take the director and the
dead process's tables over, every bot is put back on its seat, and the tournament finishes with
every player ranked exactly once and no chip lost.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bench.live_cluster import Cluster, audit_chips, check_results
from bench.tournament_live import STACK

from .cluster import load_tester, tournament_cluster, until

PLAYERS = 60
TID = "fo"


@pytest.fixture
def cluster(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[Cluster]:
    with tournament_cluster(tmp_path, redis_url, redis_prefix, TID, 3, PLAYERS) as running:
        yield running


def test_a_killed_process_every_bot_comes_back(
    cluster: Cluster, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    client = redis.Redis.from_url(redis_url)
    report_path = tmp_path / "report.json"
    loader = load_tester(cluster, TID, PLAYERS, 90, 30, tmp_path)
    try:
        # every process runs tables and has played hands
        def busy() -> bool:
            return all(
                cluster.metric("brasseur_tables", [s]) >= 2
                and cluster.metric("brasseur_hands_total", [s]) >= 5
                for s in cluster.servers
            )

        until(busy, 40, "hands on every process")
        holder = client.get(f"{cluster.tournament_prefix(TID)}:lease")
        assert holder is not None
        victim = cluster.servers[int(holder.decode().removeprefix("p"))]
        victim.kill()  # the director and a third of the tables die with it
        survivors = [s for s in cluster.servers if s is not victim]
        try:
            status = loader.wait(timeout=80)
        except subprocess.TimeoutExpired:
            state = cluster.get(f"/api/tournaments/{TID}")[1].decode()[:3000]
            pytest.fail(f"the tournament did not finish: {state}")
        assert report_path.exists(), (tmp_path / "loadtest.log").read_text()[-3000:]
        report = json.loads(report_path.read_text())

        def results() -> bool:
            return cluster.get(f"/api/tournaments/{TID}/results.json")[0] == 200

        until(results, 20, "the results")
        rows = json.loads(cluster.get(f"/api/tournaments/{TID}/results.json")[1])["results"]
        audit = audit_chips(client, cluster.tournament_prefix(TID))
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.wait(10)
        client.close()

    t = report["tournament"]
    # every bot came back: none lost for good, each busted or saw the end
    assert t["lost"] == 0, t["lost_names"]
    assert t["entrants"] == PLAYERS and t["busted"] == PLAYERS - 1 and t["finished"], t
    assert report["reconnects"] >= 1 and "connection_lost" not in report["errors"]
    assert report["violations_total"] == 0, report["violation_examples"]
    assert status == 0
    # every player ranked exactly once, one winner
    assert check_results(rows, PLAYERS) == []
    # no chip lost: every hand balanced, and the winner holds every chip
    assert audit.unbalanced == []
    assert audit.winner_chips == PLAYERS * STACK
    assert audit.hands > 50
    for server in survivors:
        assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
