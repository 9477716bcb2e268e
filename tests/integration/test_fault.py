"""Acceptance: kill -9 of the server in the middle of a hand, restart on the same data."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import TABLE, Player, Server, WsClient, hands_done, join, wait_hands


def read_log(server: Server) -> tuple[list[tuple[int, str, dict]], str]:
    """The table's event log and the integrity check, read-only (the server is stopped)."""
    path = server.data / "brasseur.sqlite"
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT seq, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (TABLE,)
        ).fetchall()
        (check,) = db.execute("PRAGMA integrity_check").fetchone()
    finally:
        db.close()
    return [(seq, kind, json.loads(payload)) for seq, kind, payload in rows], check


async def reconnect(server: Server, old: WsClient, name: str) -> WsClient:
    """Log in again with the latest seat token, then ask for what was missed."""
    client = await WsClient.connect(server.port, name, seqs=old.seqs)
    welcome = await client.hello(old.seat_token)
    assert isinstance(welcome, m.Welcome), welcome
    await client.wait_type(m.Seated, 3)
    await client.send(m.JoinTable(table=TABLE, last_seq=old.last_seq()))
    return client


@pytest.mark.asyncio
async def test_kill_9_mid_hand_cancels_the_hand_and_replays_it(launch: Launch) -> None:
    server = launch()
    seats = (1, 2, 3)
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in seats}
    target = 3
    bet = asyncio.Event()

    def bet_then_freeze(player: Player, rng: random.Random) -> tuple[str, int | None] | None:
        if player.hand < target:
            return "call", None
        if bet.is_set():
            return None  # nobody answers any more: the hand waits on its clock
        bet.set()
        return "raise", 400

    for s in seats:
        Player(clients[s], bet_then_freeze, seed=s)
    watch = clients[1]
    raised = await watch.wait_for(
        lambda x: (
            isinstance(x, m.ActionEvent)
            and x.hand == target
            and x.added > 0
            and not x.action.startswith("post")
        ),
        15,
    )
    server.kill()  # kill -9, bets in the pot
    assert isinstance(raised, m.ActionEvent)
    start = next(h for h in watch.of(m.HandStart) if h.hand == target)
    for client in clients.values():  # the connections die with the process
        await asyncio.wait_for(client.closed.wait(), 5)
    seen = {
        s: [
            (x.seq, x.TYPE)
            for x in c.messages
            if getattr(x, "seq", None) is not None and not isinstance(x, m.Snapshot)
        ]
        for s, c in clients.items()
    }

    # a second crash before anyone comes back: the hand must not be cancelled twice
    server.start()
    server.kill()
    server.start()
    again = {s: await reconnect(server, clients[s], f"p{s}-again") for s in seats}
    for s in seats:
        Player(again[s], seed=s)
    for s, client in again.items():
        await check_cancelled(client, clients[s], start, target)
    # the hand is dealt again: same button and blinds, same stacks
    replay = await again[1].wait_type(m.HandStart, 10, hand=target + 1)
    assert (replay.button, replay.small_blind, replay.big_blind) == (
        start.button,
        start.small_blind,
        start.big_blind,
    )
    assert replay.stacks == start.stacks
    await wait_hands(again[1], 3, timeout=20)
    for client in again.values():
        assert not client.gaps and not client.failures, client.gaps
    ends = [e for e in hands_done(again[1]) if not e.cancelled]
    assert ends and all(sum(e.stacks.values()) == 30_000 for e in ends)
    status, _ = server.get(f"/api/hands/{TABLE}/{target}.json?t={server.invite}")
    assert status == 404  # a cancelled hand has no record
    status, _ = server.get(f"/api/hands/{TABLE}/{target + 1}.json?t={server.invite}")
    assert status == 200
    for client in [*again.values()]:
        await client.close()
    server.stop()
    check_stored_log(server, seen, target)


async def check_cancelled(client: WsClient, old: WsClient, start: m.HandStart, target: int) -> None:
    """Back after the crash: the events missed come first, then the hand cut by the crash
    ends cancelled with every bet returned (cdc 5.4)."""
    first = await client.wait_for(lambda x: getattr(x, "seq", None) is not None, 5)
    assert not isinstance(first, m.Snapshot) and first.seq == old.last_seq() + 1
    cancelled = await client.wait_type(m.HandEnd, 5, hand=target)
    assert cancelled.cancelled and cancelled.record == ""
    assert cancelled.stacks == start.stacks  # every bet returned (cdc 5.4)


def check_stored_log(server: Server, seen: dict[int, list[tuple[int, str]]], target: int) -> None:
    """The event log is intact, holds every event the players saw before the crash, and
    the hand ``target`` was cancelled once."""
    log, check = read_log(server)
    assert check == "ok"
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    kinds = {seq: kind for seq, kind, _ in log}
    for s, events in seen.items():  # stored before anyone saw them
        for seq, kind in events:
            assert kinds.get(seq) == kind, (s, seq, kind)
    cancels = [p for _, kind, p in log if kind == "hand_end" and p.get("cancelled")]
    assert [p["hand"] for p in cancels] == [target]


@pytest.mark.asyncio
async def test_a_player_seated_during_the_interrupted_hand_keeps_the_seat(
    launch: Launch,
) -> None:
    server = launch()
    players = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2)}
    for s, client in players.items():
        # play the first hand, then sit still: the second hand waits on its clock
        Player(client, lambda p, rng: ("call", None) if p.hand < 2 else None, seed=s)
    await players[1].wait_type(m.ClockEvent, 10, hand=2)
    late = await join(server.port, server.invite, 5, "late")
    await late.wait_type(m.Seated, 3, seat=5)  # granted once the seat is stored
    server.kill()
    await asyncio.wait_for(late.closed.wait(), 5)
    server.start()
    back = await WsClient.connect(server.port, "late-again", seqs=late.seqs)
    assert isinstance(await back.hello(late.seat_token), m.Welcome)
    answer = await back.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 3)
    assert isinstance(answer, m.Seated), answer
