"""Issue 28 on a real ``python -m server`` with real websocket clients: the rules between
hands that the session replay shows (tests/table/sessions/) hold at live tables too.

- ligue art. 3, a tournament table: « Lorsqu'un joueur est transféré de table, il ne peut pas
  prendre la position de Brasseur. Il doit attendre le prochain jeu »; « Ajout de joueurs :
  [...] même logique [...] Un nouvel arrivant ne doit jamais briser les positions SB et BB ».
- cdc 2.3, the same table under cdc: the newcomer « peut jouer immédiatement au bouton »
  (the tournament floor holds an arrival by the profile's newcomer rule, as the table does).
- casino, a cash table: « La règle du bouton mort ne s'applique pas en Cash Game. »
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_cash import CASH, RULES, sit
from .wsclient import ROOT, Player, Server, WsClient, always, table_config

TOURNAMENT = "ligue3"
CONFIG = """
name = "Ligue art. 3"
profile = "ligue"
starting_stack = 10000
denominations = [25, 100, 500, 1000]
table_size = 6
min_players = 6
late_registration_until_level = 1
late_entry_penalty = []

[server]
action_seconds = 2.0
cut_seconds = 0.3
next_hand_seconds = 2.0
showdown_seconds = 0.05
start_when_registered = 6

[[levels]]
sb = 50
bb = 100
minutes = 30
"""


def create_tournament(data: Path, profile: str = "ligue") -> None:
    data.mkdir(parents=True, exist_ok=True)
    config = data / "ligue3.toml"
    config.write_text(CONFIG.replace('profile = "ligue"', f'profile = "{profile}"'))
    command = [sys.executable, "-m", "server", "tournament", "create", str(config)]
    command += ["--id", TOURNAMENT, "--data", str(data)]
    subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)


async def register(server: Server, nickname: str, source: str) -> tuple[WsClient, m.Registered]:
    """A player registers by nickname (from ``source``: the server allows a few entries per
    address and hour)."""
    client = await WsClient.connect(server.port, nickname, source=source)
    assert isinstance(await client.hello(nickname=nickname), m.Welcome)
    await client.send(m.Register(tournament=TOURNAMENT, id=client.next_id()))
    registered = await client.wait_type(m.Registered, 10)
    return client, registered


def clockwise(after: int, seats: set[int], max_seats: int) -> list[int]:
    return [s for k in range(1, max_seats + 1) if (s := (after - 1 + k) % max_seats + 1) in seats]


@pytest.mark.asyncio
@pytest.mark.parametrize("profile", ["ligue", "cdc"])
async def test_a_newcomer_in_the_busted_small_blind_seat_on_a_live_tournament_table(
    tmp_path: Path, profile: str
) -> None:
    """ligue art. 3: he waits (not dealt in on the button); cdc 2.3: he plays at once there."""
    data = tmp_path / "data"
    create_tournament(data, profile)
    server = Server(data).start()
    try:
        entries = [
            await register(server, n, f"127.0.0.{2 + i // 3}") for i, n in enumerate("abcdef")
        ]
        players: dict[int, tuple[WsClient, m.Registered]] = {}
        table = ""
        for client, registered in entries:  # the sixth starts the tournament: one table
            moved = await client.wait_type(m.Moved, 15)
            client.seat, table = moved.seat, moved.table
            players[moved.seat] = (client, registered)
        for client, _ in players.values():
            Player(client, always("fold"), table=table)
        watcher = players[min(players)][0]
        # the first hand dealt to all six: its small blind abandons (ligue 6.23: his chips
        # are removed; for the positions he is eliminated, art. 2.2)
        first = await watcher.wait_for(
            lambda x: isinstance(x, m.HandStart) and x.table == table and len(x.stacks) == 6, 30
        )
        assert isinstance(first, m.HandStart) and first.small_blind is not None
        sb_client, sb_reg = players[first.small_blind]
        await sb_client.send(m.Abandon(tournament=TOURNAMENT, token=sb_reg.token))
        await watcher.wait_type(m.HandEnd, 15, table=table, hand=first.hand)
        await watcher.wait_for(
            lambda x: (
                isinstance(x, m.SeatEvent) and x.seat == first.small_blind and x.status == "left"
            ),
            15,
        )
        # a late arrival: the only free seat is the small blind's, where the button goes
        mark = len(watcher.messages)
        late, _ = await register(server, "newcomer", "127.0.0.5")
        moved = await late.wait_type(m.Moved, 10)
        assert moved.table == table and moved.seat == first.small_blind
        Player(late, always("fold"), table=table)
        nxt = await watcher.wait_type(m.HandStart, 15, since=mark, table=table)
        assert nxt.hand == first.hand + 1
        # ligue art. 2.2, cdc 4.3: the big blind advances, the button goes to the busted small
        # blind's seat
        others = set(players) - {first.small_blind}
        assert nxt.button == first.small_blind
        assert nxt.small_blind == first.big_blind
        assert nxt.big_blind == clockwise(first.big_blind, others, 6)[0]
        dealt = {int(s) for s in nxt.stacks}
        if profile == "cdc":
            # cdc 2.3: « peut jouer immédiatement au bouton »: dealt in, on the button
            assert dealt == others | {moved.seat}
            await late.wait_for(lambda x: isinstance(x, m.HoleCards) and x.hand == nxt.hand, 10)
            return
        # ligue art. 3: the newcomer there is not dealt in, the button is dead
        assert moved.seat not in dealt and dealt == others
        assert not any(isinstance(x, m.HoleCards) and x.hand == nxt.hand for x in late.messages)
        # the hand after, he is before the button: dealt in
        after = await watcher.wait_type(m.HandStart, 20, table=table, hand=nxt.hand + 1)
        assert moved.seat in {int(s) for s in after.stacks}
    finally:
        server.stop()


@pytest.mark.asyncio
async def test_casino_cash_button_moves_past_a_small_blind_who_cashed_out_on_a_live_table(
    launch: Launch,
) -> None:
    config = table_config(
        CASH, profile="casino", sb=25, bb=50, max_seats=6, cash=RULES, next_hand_seconds=1.5
    )
    server = launch(tables=(config,))
    clients = {s: await sit(server, f"p{s}", s, 1000) for s in (1, 2, 3, 4, 5)}
    for s, client in clients.items():
        Player(client, always("fold"), seed=s, table=CASH)
    # a hand dealt to all five, then its small blind cashes out
    first = await clients[1].wait_for(
        lambda x: isinstance(x, m.HandStart) and x.table == CASH and len(x.stacks) == 5, 30
    )
    assert isinstance(first, m.HandStart) and first.small_blind is not None
    leaver = first.small_blind
    await clients[leaver].send(m.LeaveTable(table=CASH))
    watcher = clients[next(s for s in clients if s != leaver)]
    nxt = await watcher.wait_type(m.HandStart, 20, table=CASH, hand=first.hand + 1)
    others = set(clients) - {leaver}
    assert {int(s) for s in nxt.stacks} == others
    # « La règle du bouton mort ne s'applique pas en Cash Game »: the button moves to the next
    # player after the last button (the old big blind, the small blind being gone), never
    # twice to the same player; the blinds are the next two players
    assert nxt.button == clockwise(first.button, others, 6)[0] == first.big_blind
    assert nxt.button != first.button
    assert [nxt.small_blind, nxt.big_blind] == clockwise(nxt.button, others, 6)[:2]
