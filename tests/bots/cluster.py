"""A tournament played by the load tester over several ``python -m server`` processes on one
real Redis (the failover tests of issue 11 and issue 27)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from bench.live_cluster import Cluster
from bench.tournament_live import Settings, config_text
from bots.launch import ROOT


@contextlib.contextmanager
def tournament_cluster(
    root: Path, redis_url: str, prefix: str, tid: str, processes: int, players: int
) -> Iterator[Cluster]:
    """``processes`` servers sharing the tournament ``tid`` for ``players``; its keys are
    deleted at the end."""
    # the session's Redis keeps no files: the servers are told it is fine for a test
    env = {"BRASSEUR_ALLOW_VOLATILE_REDIS": "1"}
    cluster = Cluster(root, redis_url, prefix, processes, clock_speed=30, env=env)
    settings = Settings(players=players, processes=processes, table_size=6, level_minutes=2)
    cluster.create(tid, config_text(settings))
    try:
        yield cluster.start()
    finally:
        cluster.stop()
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def until(predicate: object, timeout: float, what: str) -> None:
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def load_tester(
    cluster: Cluster, tid: str, players: int, duration: int, stall: int, out: Path
) -> subprocess.Popen[bytes]:
    """``python -m bots.loadtest --tournament`` over every process of ``cluster``, in a
    process of its own; its report is ``out/report.json``, its log ``out/loadtest.log``."""
    command = [sys.executable, "-m", "bots.loadtest", "--tournament", tid]
    for url in cluster.urls:
        command += ["--url", url]
    command += ["--players", str(players), "--duration", str(duration)]
    command += ["--stall-seconds", str(stall), "--report", str(out / "report.json"), "--quiet"]
    with (out / "loadtest.log").open("wb") as log:
        return subprocess.Popen(command, cwd=ROOT, stderr=log)
