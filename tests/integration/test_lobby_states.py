"""Issue 32: lobby states go only to those who asked for them. A player who registers or
follows with ``lobby`` false (the SDK's bots) gets ``tournament`` states without the lobby's
lists, and only when what is left changed; one who asked for the lobby (the default, the
page) still gets them whole. On a real server with real websocket clients."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from protocol import encode
from protocol import messages as m
from server.tournament.host import COMPACT_LEAVES_OUT, COMPACT_QUIET

from .test_rules_round3_live import TOURNAMENT, create_tournament
from .wsclient import Player, Server, WsClient, always


async def register(server: Server, nickname: str, source: str, lobby: bool) -> WsClient:
    client = await WsClient.connect(server.port, nickname, source=source)
    assert isinstance(await client.hello(nickname=nickname), m.Welcome)
    await client.send(m.Register(tournament=TOURNAMENT, lobby=lobby, id=client.next_id()))
    await client.wait_type(m.Registered, 10)
    return client


def states(client: WsClient) -> list[dict[str, object]]:
    return [x.state for x in client.messages if isinstance(x, m.TournamentState)]


def size(client: WsClient) -> int:
    return sum(len(encode(x)) for x in client.messages if isinstance(x, m.TournamentState))


@pytest.mark.asyncio
async def test_players_who_did_not_ask_for_the_lobby_get_small_states_only_when_changed(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    create_tournament(data, "cdc")
    server = Server(data).start()
    try:
        lean = [await register(server, f"lean{i}", f"127.0.0.{2 + i}", False) for i in range(3)]
        full = [await register(server, f"full{i}", f"127.0.0.{5 + i}", True) for i in range(3)]
        for client in lean + full:  # the sixth started it: each is told his seat
            moved = await client.wait_type(m.Moved, 15)
            client.seat = moved.seat
            Player(client, always("fold"), table=moved.table)
        await lean[0].wait_type(m.HandEnd, 30)
        await asyncio.sleep(1.5)  # the clock's seconds tick: more states
        for client in full:
            got = states(client)
            assert got and all(COMPACT_LEAVES_OUT & set(s) for s in got)
            assert any(s.get("players") for s in got)  # the lobby's lists are there
        for client in lean:
            got = states(client)
            assert got, "no state at all"
            assert not any(COMPACT_LEAVES_OUT & set(s) for s in got), got[-1].keys()
            # only changes, and not of the clocks or the counts alone
            quiet = [{k: v for k, v in x.items() if k not in COMPACT_QUIET} for x in got]
            assert all(a != b for a, b in itertools.pairwise(quiet)), quiet
            last = got[-1]
            you = last["you"]
            assert isinstance(you, dict) and you.get("table") and last["phase"] == "final_table"
        lean_bytes = sum(size(c) for c in lean)
        full_bytes = sum(size(c) for c in full)
        assert lean_bytes < full_bytes / 2, (lean_bytes, full_bytes)
        # a player who asks for the lobby again gets it whole
        token = next(x for x in lean[0].messages if isinstance(x, m.Registered)).token
        mark = len(lean[0].messages)
        await lean[0].send(m.FollowTournament(tournament=TOURNAMENT, token=token, lobby=True))
        again = await lean[0].wait_type(m.TournamentState, 10, since=mark)
        assert set(again.state) | {"results"} >= COMPACT_LEAVES_OUT
    finally:
        server.stop()
