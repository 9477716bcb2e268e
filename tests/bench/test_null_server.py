"""The NULL server that bench/server.py measures the real server against: its messages must
pass the bots' checks (a reference that broke the rules would not be the same work), and it
must send what a real hand ends with (blinds, shown hands, the pot, hole-card proofs)."""

from __future__ import annotations

import asyncio
import collections
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import Bot, CallingStation
from bots.launch import free_port
from bots.loadtest import LoadConfig, run

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--cut-seconds", "0.2", "--next-hand-seconds", "0.05", "--showdown-seconds", "0.05"]


@pytest.fixture
def null_url() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.null_server", "--port", str(port), *FAST],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the null server did not come up"
                time.sleep(0.05)
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_null_server_passes_the_bots_checks(null_url: str) -> None:
    report = run(LoadConfig(url=null_url, tables=3, players=6, duration=3), progress_out=None)
    assert report["hands"] > 0 and report["actions"] > 0
    assert report["errors_total"] == 0, report["errors"]
    assert report["violations_total"] == 0, report["violation_examples"]
    assert report["hands_cross_checked"] > 0


def test_the_null_server_ends_hands_as_the_real_server_does(null_url: str) -> None:
    async def play() -> collections.Counter[str]:
        seen: collections.Counter[str] = collections.Counter()
        bots = [Bot(null_url, CallingStation(), nickname=f"n{i}") for i in range(3)]
        bots[0].on_message = lambda msg: seen.update([msg.TYPE])
        await bots[0].connect()
        created = await bots[0].create_table(name="n")
        await bots[0].take_seat(created.table, 1, created.invite)
        for seat, bot in enumerate(bots[1:], 2):
            await bot.connect()
            await bot.take_seat(created.table, seat, created.invite)
        await asyncio.wait_for(bots[0].play(hands=3), 30)
        for bot in bots:
            await bot.close()
        return seen

    seen = asyncio.run(play())
    for kind in ("hand_start", "action", "shown", "pot", "hand_end", "hole_proof"):
        assert seen[kind] >= 3, (kind, seen)
