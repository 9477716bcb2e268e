"""Acceptance: a real server killed right after each store write of a hand, restarted on the
same data (``BRASSEUR_CRASH_AFTER=KIND[:N]``, server/table/actor.py: ``os._exit(137)`` right
after the N-th successful write holding an event of kind KIND).

At each crash point: no half-applied hand in the store (a hand is whole: its ``hand_end``
with its record and its busted seats, or cancelled with every bet returned), no sequence
gap, every player logs back in with the newest seat token he received, play goes on, and
no chip is created or lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from server.store import Store

from .wsclient import OPEN, TABLE, Player, Server, Strategy, WsClient, passive

STACK = 10_000
OPTIONS = {"next_hand_seconds": 0.3}
"""FAST timings, with a pause between hands long enough for three players to sit before the
first deal."""

Event = tuple[int, str, dict[str, Any]]


# ---------------------------------------------------------------------- helpers


@contextlib.contextmanager
def environ(**values: str) -> Iterator[None]:
    """Extra environment for the server processes started inside (Popen copies it)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass
class Stored:
    """What the table's store holds (read with the server stopped or dead)."""

    events: list[Event]
    records: dict[int, dict[str, Any]]
    snapshot: tuple[int, int, dict[str, Any]] | None

    @classmethod
    def read(cls, server: Server) -> Stored:
        with Store(server.data / "brasseur.sqlite") as store:
            events = store.events_after(TABLE, 0, limit=1_000_000)
            hands = {p["hand"] for _, k, p in events if k in ("hand_start", "hand_end")}
            records = {h: r for h in hands if (r := store.hand_record(TABLE, h)) is not None}
            assert {r["hand"] for r in store.hand_records(TABLE)} <= set(records), "stray record"
            return cls(events, records, store.last_snapshot(TABLE))

    @property
    def players(self) -> int:
        return sum(1 for _, k, p in self.events if k == "seat" and p["status"] == "seated")

    def seats(self) -> set[int]:
        assert self.snapshot is not None
        return {s["seat"] for s in self.snapshot[2]["seats"]}

    def chips(self) -> int:
        assert self.snapshot is not None
        return sum(s["stack"] for s in self.snapshot[2]["seats"])

    def hands(self, kind: str) -> list[dict[str, Any]]:
        return [p for _, k, p in self.events if k == kind]


def problems(stored: Stored) -> list[str]:
    """Everything wrong with the stored log: a sequence gap, or a hand not whole. The last
    hand may be in play (no ``hand_end``, no record yet)."""
    out: list[str] = []
    seqs = [seq for seq, _, _ in stored.events]
    if seqs != list(range(1, len(seqs) + 1)):
        out.append(f"seqs are not 1..{len(seqs)}: {seqs}")
    events = stored.events
    starts = [i for i, (_, kind, _) in enumerate(events) if kind == "hand_start"]
    ended: set[int] = set()
    for j, i in enumerate(starts):
        segment = events[i : starts[j + 1] if j + 1 < len(starts) else len(events)]
        start = segment[0][2]
        hand = start["hand"]
        record = stored.records.get(hand)
        ends = [(k, p) for k, (_, kind, p) in enumerate(segment) if kind == "hand_end"]
        if not ends:
            if record is not None:
                out.append(f"hand {hand}: a record without hand_end")
            if j + 1 < len(starts):
                out.append(f"hand {hand}: never ended, the next one started")
            continue
        if [p["hand"] for _, p in ends] != [hand]:
            out.append(f"hand {hand}: hand_end events {[p for _, p in ends]}")
            continue
        at, end = ends[0]
        ended.add(hand)
        if end["cancelled"]:
            if record is not None:
                out.append(f"hand {hand}: cancelled but has a record")
            returned = {s: end["stacks"].get(s) for s in start["stacks"]}
            if returned != start["stacks"]:
                out.append(f"hand {hand}: cancelled with {returned}, started {start['stacks']}")
            continue
        if record is None:
            out.append(f"hand {hand}: hand_end without its record")
        elif record["final_stacks"] != end["stacks"]:
            out.append(f"hand {hand}: record {record['final_stacks']} vs {end['stacks']}")
        if sum(end["stacks"].values()) != sum(start["stacks"].values()):
            out.append(f"hand {hand}: chips {start['stacks']} -> {end['stacks']}")
        busted = {int(s) for s, v in end["stacks"].items() if v == 0}
        announced = {
            p["seat"] for _, kind, p in segment[at:] if kind == "seat" and p["status"] == "busted"
        }
        if busted != announced:
            out.append(f"hand {hand}: busted {busted}, seat events for {announced}")
    stray = set(stored.records) - ended
    if stray:
        out.append(f"records of hands that never ended: {sorted(stray)}")
    return out


async def sit(server: Server, seat: int) -> WsClient:
    """A player sends hello and sit; the seat token comes (or not: a crash) later."""
    client = await WsClient.connect(server.port, f"p{seat}")
    welcome = await client.hello(server.invite, nickname=f"p{seat}")
    assert isinstance(welcome, m.Welcome), welcome
    await client.send(m.TakeSeat(table=TABLE, seat=seat, token=server.invite, id=client.next_id()))
    return client


async def seated_or_dead(client: WsClient, timeout: float = 5.0) -> bool:
    """True once ``seated`` came, False if the connection died first."""
    with contextlib.suppress(AssertionError):  # closed: the process died
        await client.wait_type(m.Seated, timeout)
        return True
    return False


async def shutdown(server: Server) -> None:
    """Close every connection, then stop the server (at once: no closing handshake waits)."""
    for client in list(OPEN):
        await client.close()
    server.stop()


async def died(server: Server, timeout: float = 20.0) -> int:
    assert server.proc is not None
    return await asyncio.to_thread(server.proc.wait, timeout)


def seen(client: WsClient) -> dict[int, str]:
    """Sequence numbers (and kinds) of the events this client received."""
    return {
        x.seq: x.TYPE
        for x in client.messages
        if getattr(x, "seq", None) is not None and not isinstance(x, m.Snapshot)
    }


@dataclass
class Crash:
    """One run: players sit and play until the hook ends the process."""

    server: Server
    clients: dict[int, WsClient] = field(default_factory=dict)
    """The last connection of each seat."""
    replaced: list[WsClient] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)
    """The newest seat token each player received before the kill."""
    older: dict[int, str] = field(default_factory=dict)
    """An older seat token of a player who logged in again before the kill."""
    at_crash: Stored | None = None

    async def play(
        self, strategy: Strategy, seats: tuple[int, ...], one_by_one: bool, relogin: bool
    ) -> None:
        for seat in seats:
            client = self.clients[seat] = await sit(self.server, seat)
            Player(client, strategy, seed=seat)
            if one_by_one and not await seated_or_dead(client):
                break
        if relogin:  # seat 1 logs in again: a new token, the first one is spent once used
            old = self.clients[1]
            assert await seated_or_dead(old) and old.seat_token is not None
            self.older[1] = old.seat_token
            client = await come_back(self.server, 1, old.seat_token, seqs=old.seqs)
            await client.wait_type(m.Seated, 5)
            await client.send(m.JoinTable(table=TABLE, last_seq=old.last_seq()))
            Player(client, strategy, seed=1)
            self.replaced.append(old)
            self.clients[1] = client
        assert await died(self.server) == 137, self.server.stderr()[-2000:]
        for client in self.clients.values():
            await asyncio.wait_for(client.closed.wait(), 5)
            if client.seat_token is not None:
                self.tokens[client.seat or 0] = client.seat_token
        self.at_crash = Stored.read(self.server)

    def seen(self) -> dict[int, str]:
        """Sequence numbers (and kinds) of the events the players received."""
        out: dict[int, str] = {}
        for client in [*self.replaced, *self.clients.values()]:
            out.update(seen(client))
        return out


async def come_back(
    server: Server, seat: int, token: str, seqs: dict[str, int] | None = None
) -> WsClient:
    """A new connection logged in with a seat token."""
    client = await WsClient.connect(server.port, f"p{seat}-again", seqs=seqs)
    welcome = await client.hello(token)
    assert isinstance(welcome, m.Welcome), welcome
    return client


async def crash_and_recover(
    tmp_path: Path,
    spec: str,
    strategy: Strategy = passive,
    seats: tuple[int, ...] = (1, 2, 3),
    one_by_one: bool = False,
    relogin: bool = False,
) -> tuple[Crash, Stored]:
    """Play until the crash point ``spec``, check the store, restart without the hook, bring
    every player back, play a hand more; the store at the end (server stopped)."""
    kind = spec.partition(":")[0]
    server = Server(tmp_path / "data", **OPTIONS)
    try:
        with environ(BRASSEUR_CRASH_AFTER=spec):
            server.start()
        run = Crash(server)
        await run.play(strategy, seats, one_by_one, relogin)
        stored = run.at_crash
        assert stored is not None

        # the crash came right after a write holding a `kind` event, never delivered
        delivered = run.seen()
        last_seen = max(delivered, default=0)
        unseen = [k for seq, k, _ in stored.events if seq > last_seen]
        assert kind in unseen, (spec, unseen)
        kinds = {seq: k for seq, k, _ in stored.events}
        for seq, wire in delivered.items():  # stored before anyone saw it
            assert kinds.get(seq) == wire, (seq, wire)
        # (a) no half-applied hand, (b) no gap, (d) chips conserved: at the crash
        assert problems(stored) == []
        assert stored.chips() == STACK * stored.players

        # restart on the same data, without the hook; everybody comes back
        server.start()
        hands_before = max((p["hand"] for p in stored.hands("hand_start")), default=0)
        again: dict[int, WsClient] = {}
        for seat, token in sorted(run.tokens.items()):
            client = await come_back(server, seat, token, seqs=run.clients[seat].seqs)
            answer = await client.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5)
            if seat in stored.seats():
                # (c) no locked-out player: the newest token before the kill still works
                assert isinstance(answer, m.Seated) and answer.seat == seat, (seat, answer)
                await client.send(m.JoinTable(table=TABLE, last_seq=run.clients[seat].last_seq()))
                Player(client, seed=seat)
                again[seat] = client
            else:  # busted in the hand whose end was the crash write
                assert isinstance(answer, m.Error) and answer.code == "not_seated", answer
                await client.close()
        for seat, token in run.older.items():  # the newest was used: an older one is spent
            client = await WsClient.connect(server.port, f"p{seat}-old-token")
            refused = await client.hello(token)
            assert isinstance(refused, m.Error) and refused.code == "token_replayed", refused
            await client.close()
        assert len(again) >= 2, "too few players left to play on"
        watcher = next(iter(again.values()))
        # play goes on: a hand dealt after the restart is played to its end
        await watcher.wait_for(
            lambda x: isinstance(x, m.HandEnd) and x.hand > hands_before and not x.cancelled, 20
        )
        for client in again.values():
            assert not client.gaps and not client.failures, (client.gaps, client.failures)
    finally:
        await shutdown(server)
    final = Stored.read(server)
    assert problems(final) == []
    assert final.chips() == STACK * final.players
    # the hand cut by the crash, if any, was cancelled once and only once
    cancelled = [p["hand"] for p in final.hands("hand_end") if p["cancelled"]]
    assert len(cancelled) == len(set(cancelled)), cancelled
    return run, final


def all_in_once(player: Player, rng: random.Random) -> tuple[str, int | None]:
    """Hand 1: seats 1 and 2 go all-in, seat 3 folds (one of them busts, unless they split);
    then everybody checks and calls."""
    if player.hand == 1:
        return ("fold", None) if player.seat == 3 else ("allin", None)
    return "call", None


# ---------------------------------------------------------------------- the crash points


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "spec",
    [
        "hand_start:1",  # the hand's opening write: snapshot, hand_start, cut_prompt
        "hole:1",  # the cut and the deal (the blinds are posted in the same write)
        "action:1",  # = the deal's write (post_sb, post_bb)
        "action:2",  # the first betting action
        "action:3",  # the second one
        "hand_end:2",  # the second hand's end: record, pots, hand_end, snapshot in one write
    ],
)
async def test_a_kill_right_after_each_write_of_a_hand(tmp_path: Path, spec: str) -> None:
    # before a late crash point, seat 1 logs in again: he must come back with the new token
    run, final = await crash_and_recover(tmp_path, spec, relogin=spec == "hand_end:2")
    assert run.at_crash is not None
    hand = max(p["hand"] for p in run.at_crash.hands("hand_start"))
    ends = {p["hand"]: p for p in final.hands("hand_end")}
    if spec.startswith("hand_end"):
        assert not ends[hand]["cancelled"]  # the hand had ended: nothing to cancel
    else:
        assert ends[hand]["cancelled"]  # cut by the crash: cancelled, bets returned


@pytest.mark.asyncio
async def test_a_kill_right_after_the_end_of_a_hand_with_a_bust(tmp_path: Path) -> None:
    """The hand's end with its pots, the bust and the snapshot is one write: after the kill
    the busted player's token finds no seat, and the others play on."""
    run, final = await crash_and_recover(tmp_path, "pot:1", all_in_once)
    assert run.at_crash is not None
    (end,) = [p for p in run.at_crash.hands("hand_end") if p["hand"] == 1]
    assert not end["cancelled"]
    busted = {int(s) for s, v in end["stacks"].items() if v == 0}
    assert busted <= {1, 2}
    assert run.at_crash.seats() == {1, 2, 3} - busted
    assert final.seats().isdisjoint(busted)


@pytest.mark.asyncio
async def test_a_kill_right_after_a_seating(tmp_path: Path) -> None:
    """seat:3 is the third player's sit (p1 and p2 got their tokens before): he never got
    his own; everyone else comes back and plays on."""
    run, _ = await crash_and_recover(tmp_path, "seat:3", one_by_one=True)
    assert sorted(run.tokens) == [1, 2]  # the third seat was saved, its token never sent
    assert run.at_crash is not None and run.at_crash.seats() == {1, 2, 3}


@pytest.mark.asyncio
async def test_a_player_whose_seat_token_was_lost_in_the_crash_can_sit_again(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "data", **OPTIONS)
    try:
        with environ(BRASSEUR_CRASH_AFTER="seat:2"):
            server.start()
        first = await sit(server, 1)
        assert await seated_or_dead(first)
        second = await sit(server, 2)
        assert not await seated_or_dead(second)  # the seat was written, then the kill
        assert await died(server) == 137
        server.start()
        again = await sit(server, 2)  # the same person, with the only link he has
        answer = await again.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5)
        assert isinstance(answer, m.Seated), answer
    finally:
        await shutdown(server)
