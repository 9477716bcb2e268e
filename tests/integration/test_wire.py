"""What a real server puts on the wire, frame by frame, against docs/protocol.md.

A session on one server: three players at the friends table (the doc-built client, without
out-of-turn gestures), a spectator, a table created over the wire, a few refused frames, and
a tournament of three players registered by nickname, played a few hands, followed from the
lobby. Every frame any of them receives is decoded with plain msgpack and walked: not one
float anywhere (snapshots and the tournament's state included). Then, against the doc: each
message example names every field the server always sends with that message, the snapshot's
keys are exactly those of its table in the doc, the tournament state's keys are all named,
and a ``board`` event's pots are the snapshot's taken right after it (the next player asked
for one before acting). Also the HTTP route of a table's invite, with good and bad tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgpack
import pytest
import websockets

from ..protocol import docs
from .conftest import Launch
from .doc_client import DocClient
from .wsclient import ROOT

TID = "wire"
TOURNAMENT = """
name = "Wire"
profile = "cdc"
starting_stack = 3000
denominations = [25, 100, 500, 1000]
table_size = 6
min_players = 2
late_registration_until_level = 1

[[payouts]]
entrants = [2, 100]
percents = [100]

[server]
action_seconds = 2
time_bank_seconds = 0
cut_seconds = 0.5
next_hand_seconds = 0.1
showdown_seconds = 0.1
start_when_registered = 3

[[levels]]
sb = 25
bb = 50
minutes = 1

[[levels]]
sb = 50
bb = 100
minutes = 1
"""


def floats(value: Any, path: str = "") -> list[str]:
    """Where ``value`` holds a float (every nested map and list)."""
    if isinstance(value, float):
        return [f"{path}={value!r}"]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in floats(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [f for i, v in enumerate(value) for f in floats(v, f"{path}[{i}]")]
    return []


class Recorder:
    """Every frame received by every connection of the session, decoded by plain msgpack."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def add(self, msg: dict[str, Any]) -> None:
        self.frames.append(msg)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == kind]


class WirePlayer(DocClient):
    """The doc-built client, recording its frames; when its turn comes right after a
    ``board``, it asks for a snapshot before acting (nothing can change in between)."""

    def __init__(self, recorder: Recorder, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recorder = recorder
        self.after_board = False
        self.board_checks: list[tuple[Any, Any]] = []
        self.checking: Any = None

    async def on(self, msg: dict[str, Any]) -> None:
        self.recorder.add(msg)
        if msg["t"] == "board":
            self.after_board = True
        elif msg["t"] == "turn" and self.after_board:
            self.after_board = False
            self.checking = list(self.mirror.pots)
            await self.compare()
        elif msg["t"] == "snapshot" and self.checking is not None:
            pots = [(p["amount"], tuple(p["eligible"])) for p in msg["state"].get("pots", [])]
            self.board_checks.append((self.checking, pots))
            self.checking = None
        elif msg["t"] == "action":
            self.after_board = False
        await super().on(msg)


async def raw(url: str, recorder: Recorder) -> Any:
    ws = await websockets.connect(url, max_size=2**22, close_timeout=1)

    async def read() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for frame in ws:
                recorder.add(msgpack.unpackb(frame))

    ws.reader = asyncio.ensure_future(read())
    return ws


async def send(ws: Any, **message: Any) -> None:
    await ws.send(msgpack.packb(message))


async def tournament_player(url: str, name: str, recorder: Recorder, stop: asyncio.Event) -> int:
    """Register by nickname, follow every move, cut, check or call once per decision; the
    tournament hands seen end."""
    ws = await websockets.connect(url, max_size=2**22, close_timeout=1)
    ends, answered, table = 0, 0, ""
    await send(ws, t="hello", version=1, nickname=name)
    await send(ws, t="register", tournament=TID, id=1)
    try:
        while not stop.is_set():
            try:
                frame = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            msg = msgpack.unpackb(frame)
            recorder.add(msg)
            kind = msg["t"]
            if kind == "moved":
                table = msg["table"]
            elif kind == "cut_prompt" and msg.get("table") == table:
                await send(ws, t="cut", table=table, hand=msg["hand"], position=7)
            elif kind == "turn" and msg["decision"] != answered:
                answered = msg["decision"]
                verb = "check" if msg["can_check"] else "call"
                await send(ws, t="act", table=table, hand=msg["hand"], verb=verb, decision=answered)
            elif kind == "hand_end":
                ends += 1
    finally:
        await ws.close()
    return ends


def create_tournament(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    config = data.parent / "wire.toml"
    config.write_text(TOURNAMENT, encoding="utf-8")
    command = [sys.executable, "-m", "server", "tournament", "create", str(config)]
    subprocess.run(
        [*command, "--id", TID, "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    )


async def friends_session(url: str, invite: str, recorder: Recorder) -> list[WirePlayer]:
    rng = random.Random(5)
    players = [
        WirePlayer(
            recorder, url, "friends", invite, seat, random.Random(rng.random()), out_of_turn=0
        )
        for seat in (1, 2, 3)
    ]
    watcher = await raw(url, recorder)
    await send(watcher, t="hello", version=1, nickname="rail", token=invite)
    await send(watcher, t="join", table="friends")
    await send(watcher, t="ping", nonce=12)
    await watcher.send(msgpack.packb({"table": "friends"}))  # a map without "t"
    await send(watcher, t="chat", table="nowhere", text="hi")
    await send(watcher, t="create", name="Wire", action_seconds=5, id=3)
    # a cash table's snapshot carries its `cash` key (docs/cash.md)
    await send(watcher, t="create", name="Cash", game="cash", profile="casino", id=4)
    for _ in range(100):
        made = [f for f in recorder.of("table_created") if f.get("ref") == 4]
        if made:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("no cash table created")
    await send(watcher, t="join", table=made[0]["table"])
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    started = time.monotonic()
    while min(p.hands_ended for p in players) < 8:
        assert time.monotonic() - started < 60, [p.hands_ended for p in players]
        await asyncio.sleep(0.1)
    stop.set()
    await asyncio.gather(*tasks)
    await watcher.close()
    return players


@pytest.mark.asyncio
async def test_every_frame_is_integers_only_and_as_the_doc_says(
    launch: Launch, tmp_path: Path
) -> None:
    create_tournament(tmp_path / "data")
    server = launch(starting_stack=20_000, action_seconds=3, time_bank_seconds=1)
    recorder = Recorder()
    players = await friends_session(server.url, server.invite, recorder)

    lobby = await raw(server.url, recorder)
    await send(lobby, t="hello", version=1, nickname="lobby")
    await send(lobby, t="follow", tournament=TID)
    stop = asyncio.Event()
    entrants = [
        asyncio.create_task(tournament_player(server.url, f"t{k}", recorder, stop))
        for k in range(3)
    ]
    started = time.monotonic()

    def tournament_hands() -> int:
        return sum(1 for f in recorder.of("hand_end") if f["table"].startswith(f"{TID}-"))

    while tournament_hands() < 6 and time.monotonic() - started < 40:
        await asyncio.sleep(0.2)
    stop.set()
    seen = await asyncio.gather(*entrants)
    await lobby.close()
    assert sum(seen) >= 3, seen

    # integers only: not one float in any frame
    assert [f for msg in recorder.frames for f in floats(msg, msg["t"])] == []
    kinds = {f["t"] for f in recorder.frames}
    assert {"snapshot", "turn", "board", "tournament", "registered", "moved", "pong"} <= kinds
    assert {"table_created", "hole_proof", "clock_event", "hand_end", "error"} <= kinds
    codes = {e["code"] for e in recorder.of("error")}
    assert {"bad_frame", "unknown_table"} <= codes, codes

    # each doc example names every field the server always sends with its message
    real: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for frame in recorder.frames:
        real[frame["t"]].append(frame)
    for example in docs.json_examples():
        frames = real.get(example["t"])
        if not frames:
            continue
        always = set.intersection(*(set(f) for f in frames))
        assert always <= set(example), (example["t"], always - set(example))

    # the snapshot's keys are those of the doc's table, no more, no less (but for a Time
    # called while a snapshot is taken, which this game never does: tests/table/test_time_call)
    states = [f["state"] for f in recorder.of("snapshot")]
    keys = set().union(*(set(s) for s in states))
    assert keys <= docs.snapshot_keys(), keys - docs.snapshot_keys()
    assert docs.snapshot_keys() - keys <= {"time_called"}, docs.snapshot_keys() - keys
    menus = [s["menu"] for s in states if "menu" in s]
    assert menus and all(set(x) == set(menus[0]) for x in menus)
    assert {"decision", "call", "pending"} <= set(menus[0])
    assert any("thinking_ms" in s for s in states)

    # a board's pots are the snapshot's right after it; one pot when nobody is all-in
    checks = [c for p in players for c in p.board_checks]
    assert len(checks) >= 5
    assert [c for c in checks if c[0] != c[1]] == []
    for board in recorder.of("board"):
        assert board["pots"], board
        assert len(board["pots"]) == 1 or any(
            a["allin"] for a in recorder.of("action") if a["hand"] == board["hand"]
        )
    assert [m for p in players for m in p.mismatches] == []
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
    # every key of the tournament's state is named in the doc
    tournament_keys = set().union(*(set(f["state"]) for f in recorder.of("tournament")))
    assert tournament_keys <= docs.tournament_state_keys(), (
        tournament_keys - docs.tournament_state_keys()
    )


def get(server: Any, path: str, token: str | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), bytes(exc.read())


async def created(url: str, name: str) -> tuple[Any, dict[str, Any]]:
    recorder = Recorder()
    ws = await raw(url, recorder)
    await send(ws, t="hello", version=1, nickname=name)
    await send(ws, t="create", name=name, id=1)
    for _ in range(100):
        done = recorder.of("table_created")
        if done:
            ws.recorder = recorder
            return ws, done[0]
        await asyncio.sleep(0.05)
    raise AssertionError(recorder.frames)


@pytest.mark.asyncio
async def test_a_tables_creator_gets_its_invite_again_over_http(launch: Launch) -> None:
    server = launch()
    creator, first = await created(server.url, "ana")
    _other, second = await created(server.url, "bob")
    table, host = first["table"], first["host"]
    assert host and host != first["invite"]

    status, body = get(server, f"/api/tables/{table}/invite", host)
    assert status == 200, body
    answer = json.loads(body)
    assert set(answer) == {"table", "invite", "url"} and answer["table"] == table
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(answer["url"]).query)
    assert query == {"table": [table], "invite": [answer["invite"]]}
    status, body = get(server, f"/api/tables/{table}/invite?t={urllib.parse.quote(host)}")
    assert status == 200 and json.loads(body)["table"] == table

    # the invite it gives opens the table: a friend watches and sits with it
    recorder = Recorder()
    friend = await raw(server.url, recorder)
    await send(friend, t="hello", version=1, nickname="cy", token=answer["invite"])
    await send(friend, t="sit", table=table, seat=2, token=answer["invite"])
    for _ in range(100):
        if recorder.of("seated"):
            break
        await asyncio.sleep(0.05)
    seat_token = recorder.of("seated")[0]["token"]
    # a player seated there gets it too, with his newest seat token; not once he left
    assert get(server, f"/api/tables/{table}/invite", seat_token)[0] == 200
    await send(friend, t="leave", table=table)
    await asyncio.sleep(0.3)
    status, body = get(server, f"/api/tables/{table}/invite", seat_token)
    assert status == 403 and body.startswith(b"bad_token:"), body

    forged = host[:-2] + ("AA" if not host.endswith("AA") else "BB")
    refusals = {
        "no token": None,
        "forged": forged,
        "another table's host token": second["host"],
        "the invite itself": first["invite"],
        "garbage": "not.a-token",
    }
    for what, token in refusals.items():
        status, body = get(server, f"/api/tables/{table}/invite", token)
        assert status == 403, (what, status, body)
        assert body.split(b":")[0] in (b"bad_token", b"token_expired"), (what, body)
    status, body = get(server, f"/api/tables/{second['table']}/invite", host)
    assert status == 403, body
    for ws in (creator, _other, friend):
        await ws.close()
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
