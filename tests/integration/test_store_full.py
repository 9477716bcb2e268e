"""Acceptance: a real server whose SQLite store runs out of space halts its table visibly
(players told, commands refused, health and metrics degraded) and resumes by itself once
there is room again, with no sequence gap and every hand whole.

The full disk is a page limit (``BRASSEUR_TEST_DB_MAX_PAGES``, ``PRAGMA max_page_count``); the
space comes back through ``BRASSEUR_TEST_DB_MAX_PAGES_FILE``, which the server re-reads every
second (server/__main__.py).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from server.dealing import Signer
from server.store import Store, StoreUnavailable, TableWrite
from server.table.actor import TableActor, TablePhase
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer

from ..table.helpers import RecordingClient, seat_players, settle
from .test_crash_points import STACK, Stored, environ, problems, shutdown
from .wsclient import TABLE, Player, Server, WsClient, join, seed_tables, table_config

BUDGET = 8
"""Pages the store may grow by: a heads-up hand takes about 3, so it fills within 2-4 hands."""


def pages(db: Path) -> int:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(connection.execute("PRAGMA page_count").fetchone()[0])
    finally:
        connection.close()


def metric(server: Server, name: str) -> int:
    status, body = server.get("/metrics")
    assert status == 200
    found = re.search(rf"^{name} (\d+)$", body.decode(), re.M)
    assert found is not None, (name, body)
    return int(found.group(1))


def notices(client: WsClient | RecordingClient, kind: str) -> list[m.Notice]:
    return [x for x in client.of(m.Notice) if x.kind == kind]


async def until(check: Callable[[], bool], timeout: float) -> None:
    """Poll ``check()`` until it is true."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not true within {timeout} s"
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_a_full_store_halts_the_table_visibly_and_it_resumes_when_space_returns(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    seed_tables(data, table_config())
    db = data / "brasseur.sqlite"
    limit_file = tmp_path / "max-pages"
    server = Server(data, next_hand_seconds=0.2)
    with environ(
        BRASSEUR_TEST_DB_MAX_PAGES=str(pages(db) + BUDGET),
        BRASSEUR_TEST_DB_MAX_PAGES_FILE=str(limit_file),
    ):
        server.start()
    try:
        players = [await join(server.port, server.invite, s, f"p{s}") for s in (1, 2)]
        for seat, client in enumerate(players, start=1):
            Player(client, seed=seat)
        first, second = players

        # the store fills up: every player is told, the table stops
        halted = await first.wait_type(m.Notice, 30, kind="table_halted")
        await second.wait_type(m.Notice, 5, kind="table_halted")
        assert halted.table == TABLE
        mark = len(first.messages)
        hand = max([x.hand for x in first.of(m.HandStart)], default=1)
        await first.send(m.Act(table=TABLE, hand=hand, verb="call", id=first.next_id()))
        refused = await first.wait_type(m.Error, 5, since=mark)
        assert refused.code == "table_halted", refused
        mark = len(second.messages)
        await second.send(m.Chat(table=TABLE, text="still there?", id=second.next_id()))
        refused = await second.wait_type(m.Error, 5, since=mark)
        assert refused.code == "table_halted", refused
        status, body = server.get("/healthz")
        assert status == 503, body
        text = body.decode()
        assert re.match(rf"^degraded: table {TABLE} halted since \d+s: .*full", text), text
        assert metric(server, "brasseur_tables_halted") == 1
        assert metric(server, "brasseur_store_failures_total") > 0
        ended_before = len(first.of(m.HandEnd))

        # space comes back: the table resumes by itself, where it stopped
        limit_file.write_text("none\n")
        await first.wait_type(m.Notice, 12, kind="table_resumed")
        await second.wait_type(m.Notice, 5, kind="table_resumed")
        status, body = server.get("/healthz")
        assert (status, body) == (200, b"ok\n")
        assert metric(server, "brasseur_tables_halted") == 0

        # play goes on: two more hands to their end
        await until(lambda: len(first.of(m.HandEnd)) >= ended_before + 2, 20)
        for client in players:
            assert not client.gaps and not client.duplicates, (client.gaps, client.duplicates)
            assert not client.failures, client.failures
    finally:
        await shutdown(server)

    stored = Stored.read(server)
    assert problems(stored) == []  # seqs 1..N, every hand whole
    assert stored.chips() == STACK * stored.players


class FillableStore:
    """An in-memory store whose writes fail while ``full`` (as SQLITE_FULL does)."""

    def __init__(self) -> None:
        self.store = Store(":memory:")
        self.full = False
        self.attempts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def write(self, table: str, batch: TableWrite) -> None:
        self.attempts += 1
        if self.full:
            raise StoreUnavailable("database or disk is full")
        self.store.write(table, batch)


@pytest.mark.asyncio
async def test_failed_retries_back_off_and_the_resume_is_announced_once() -> None:
    store = FillableStore()
    clock = FakeClock()
    actor = TableActor(
        TableConfig(table_id="t1"), clock, CsprngDealer(Signer.generate()), store=store
    )
    task = actor.start()
    clients = await seat_players(actor, 2)
    store.full = True
    await clock.advance(actor.config.next_hand_seconds)  # the hand's opening write fails
    await settle()
    assert actor.phase is TablePhase.HALTED and store.attempts == 3  # 2 seatings, 1 failure
    await clock.advance(7.6)  # retries 0.5, 1, 2 and 4 s after each failure
    retries = store.attempts - 3
    store.full = False
    await clock.advance(10.0)
    await settle()
    assert actor.phase is not TablePhase.HALTED and actor.halted_since is None
    resumed = [len(notices(c, "table_resumed")) for c in clients]
    await actor.stop()
    await task
    store.store.close()
    assert (retries, resumed) == (4, [1, 1])
