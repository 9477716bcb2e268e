"""Acceptance: a player downloads his own hand histories with his hole cards.

``GET /api/tables/<table>/hands.txt?t=<token>`` with a seat token of that friends table (or a
player token of the tournament, at one of its tables) gives, in every hand that player was
dealt in, a ``Dealt to <his name> [Xx Yy]`` line after ``*** HOLE CARDS ***``: exactly the
cards he received privately (the ``hole`` message) during play. Never another player's
unshown cards, never the cards of an earlier occupant of the same seat; an invite (or no
token at a public tournament table) shows nobody's; a forged token opens nothing;
``hands.json`` stays the signed records, whoever asks.

Real ``python -m server`` processes, real websocket clients, real SQLite files.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import (
    ROOT,
    TABLE,
    Player,
    Server,
    WsClient,
    hands_done,
    join,
    wait_hands,
)

BRACKETS = re.compile(r"\[([^\]]*)\]")
DATE = re.compile(
    r" - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d CES?T \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]$"
)
"""The header's date: Paris time, then US Eastern between brackets."""


def sometimes_fold(player: Player, rng: Any) -> tuple[str, int | None]:
    """Fold one decision in five, call or check otherwise: some hands end without a
    showdown, so some hole cards are never shown (a refused fold falls back to a call)."""
    return ("fold", None) if rng.random() < 0.2 else ("call", None)


def export(server: Server, table: str, token: str | None, fmt: str = "txt") -> tuple[int, str]:
    query = f"?t={quote(token, safe='')}" if token is not None else ""
    status, body = server.get(f"/api/tables/{table}/hands.{fmt}{query}")
    return status, body.decode()


def by_hand(text: str, table: str) -> dict[int, str]:
    """The export's hands by hand number (the PokerStars number is crc32(table)*10**7+hand)."""
    base = zlib.crc32(table.encode()) * 10**7
    hands: dict[int, str] = {}
    for block in re.split(r"\n\n+(?=PokerStars Hand #)", text.strip()):
        if not block:
            continue
        found = re.match(r"PokerStars Hand #(\d+): ", block)
        assert found, block[:200]
        number = int(found.group(1)) - base
        assert 0 < number < 10**7, found.group(0)
        hands[number] = block
    return hands


def dealt_lines(block: str) -> list[tuple[str, list[str]]]:
    return [
        (name, cards.split())
        for name, cards in re.findall(r"^Dealt to (.+) \[(.+)\]$", block, re.M)
    ]


def cards_in(block: str) -> set[str]:
    """Every card the hand's text shows (all cards are written between brackets)."""
    return {card for group in BRACKETS.findall(block) for card in group.split()}


def received(client: WsClient, table: str = TABLE) -> dict[int, list[str]]:
    """``hand -> cards`` of the private ``hole`` messages dealt to this connection's seat."""
    return {
        h.hand: list(h.cards)
        for h in client.of(m.HoleCards)
        if h.table == table and h.seat == client.seat and len(h.cards) == 2
    }


def merged(*holes: dict[int, list[str]]) -> dict[int, list[str]]:
    """``hand -> cards`` of several players, put together."""
    out: dict[int, list[str]] = {}
    for each in holes:
        for hand, cards in each.items():
            out.setdefault(hand, []).extend(cards)
    return out


def shown_cards(server: Server, table: str, token: str | None) -> dict[int, set[str]]:
    """``hand -> cards`` shown at showdown, from the signed records."""
    status, body = export(server, table, token, "json")
    assert status == 200, body[:200]
    return {
        int(r["hand"]): {c for cards in r["shown"].values() for c in cards}
        for r in json.loads(body)
    }


def check_own_export(
    text: str,
    table: str,
    name: str,
    mine: dict[int, list[str]],
    others: dict[int, list[str]],
    shown: dict[int, set[str]],
    upto: int | None = None,
) -> int:
    """The export of the player called ``name`` in the hands of ``mine``: in each hand he was
    dealt in, one ``Dealt to`` line, his, with his cards; none elsewhere; and never the cards
    of ``others`` (other players' private holes) that were not shown. Hands after ``upto``
    (dealt after what the clients saw) are not checked. Returns how many hands had his
    line."""
    hands = by_hand(text, table)
    assert hands, "an empty export"
    lines = 0
    for hand, block in hands.items():
        if upto is not None and hand > upto:
            continue
        dealt = dealt_lines(block)
        if hand in mine:
            assert dealt == [(name, mine[hand])], (hand, dealt, mine[hand])
            _, _, rest = block.partition("*** HOLE CARDS ***\n")
            assert rest.startswith(f"Dealt to {name} ["), block
            lines += 1
        else:
            assert dealt == [], (hand, dealt)
        hidden = set(others.get(hand, ())) - shown.get(hand, set())
        assert not hidden & cards_in(block), (hand, hidden, block)
    return lines


async def wait_records(server: Server, table: str, token: str, hands: int) -> None:
    """Until the table's export holds ``hands`` hands (records are written at hand end)."""
    for _ in range(100):
        status, text = export(server, table, token)
        if status == 200 and len(by_hand(text, table) if text.strip() else {}) >= hands:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError(f"{table}: fewer than {hands} hand records")


# ---------------------------------------------------------------------- a friends table


@pytest.mark.asyncio
async def test_each_player_exports_his_own_hole_cards_and_nobody_else_s(launch: Launch) -> None:
    server = launch()
    ana = await join(server.port, server.invite, 1, "ana")
    bob = await join(server.port, server.invite, 2, "bob")
    Player(ana, sometimes_fold, seed=11)
    Player(bob, sometimes_fold, seed=12)
    await wait_hands(ana, 4, timeout=15)

    # Ana leaves; Cleo, a stranger with the same invite, takes her seat and plays on
    await ana.send(m.LeaveTable(table=TABLE, id=99))
    left = await bob.wait_type(m.SeatEvent, 10, seat=1, status="left")
    ana_left = bob.messages.index(left) + 1
    ana_token = ana.seat_token
    assert ana_token is not None
    await ana.close()
    dealt_ana = received(ana)
    assert len(dealt_ana) >= 4
    cleo = await join(server.port, server.invite, 1, "cleo")
    Player(cleo, sometimes_fold, seed=13)
    await wait_hands(cleo, 3, timeout=15)
    # Cleo leaves too (at the end of her hand): Bob alone, no hand is dealt any more
    await cleo.send(m.LeaveTable(table=TABLE, id=99))
    await bob.wait_type(m.SeatEvent, 10, since=ana_left, seat=1, status="left")
    await bob.close()
    await cleo.close()
    dealt_bob, dealt_cleo = received(bob), received(cleo)
    assert len(dealt_cleo) >= 3
    assert not set(dealt_ana) & set(dealt_cleo)  # seat 1 was Ana's, then Cleo's
    bob_token, cleo_token = bob.seat_token, cleo.seat_token
    assert bob_token is not None and cleo_token is not None
    await wait_records(server, TABLE, server.invite, max(dealt_bob))

    shown = shown_cards(server, TABLE, server.invite)
    seat_one = merged(dealt_ana, dealt_cleo)
    # each player's export: his own cards in the hands he was dealt in, under his name; no
    # line in the others (Cleo's hands at Ana's old seat, Ana's before Cleo sat there)
    _, text = export(server, TABLE, ana_token)
    assert (
        check_own_export(text, TABLE, "ana", dealt_ana, merged(dealt_bob, dealt_cleo), shown) >= 4
    )
    _, text = export(server, TABLE, bob_token)
    assert check_own_export(text, TABLE, "bob", dealt_bob, seat_one, shown) >= 6
    _, text = export(server, TABLE, cleo_token)
    assert (
        check_own_export(text, TABLE, "cleo", dealt_cleo, merged(dealt_ana, dealt_bob), shown) >= 3
    )
    # at least one hand ended without a showdown: the check of unshown cards meant something
    assert [h for h in dealt_bob if h in seat_one and not shown.get(h)], "all went to showdown"

    # the invite opens the table's records, nobody's hole cards
    status, text = export(server, TABLE, server.invite)
    assert status == 200
    assert "Dealt to" not in text
    everyone = merged(dealt_bob, seat_one)
    for hand, block in by_hand(text, TABLE).items():
        hidden = set(everyone.get(hand, ())) - shown.get(hand, set())
        assert not hidden & cards_in(block), (hand, hidden)
    # hands.json: the signed records as they are, whichever token asks (no hole cards)
    records = export(server, TABLE, server.invite, "json")
    assert export(server, TABLE, ana_token, "json") == records
    assert export(server, TABLE, bob_token, "json") == records
    assert all("hole" not in r for r in json.loads(records[1]))

    # a forged or garbled token opens nothing
    body, _, signature = ana_token.partition(".")
    forged = body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    for bad in (forged, "garbage", ana_token[:-3], "é"):
        status, text = export(server, TABLE, bad)
        assert status == 403, (bad, status, text)
        assert text.startswith(("bad_token:", "token_expired:", "token_replayed:")), text
        assert "Dealt to" not in text
    status, _ = export(server, TABLE, None)
    assert status == 403


# ---------------------------------------------------------------------- a tournament table

TOURNAMENT = "hh"
CONFIG = """
name = "Hand histories"
profile = "cdc"
starting_stack = 10000
denominations = [25, 100, 500, 1000]
table_size = 6
min_players = 2
buy_in = 20

[server]
action_seconds = 2.0
cut_seconds = 0.3
next_hand_seconds = 0.05
showdown_seconds = 0.05
start_when_registered = 2

[[levels]]
sb = 50
bb = 100
minutes = 30
"""


def create_tournament(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    config = data / "hh.toml"
    config.write_text(CONFIG)
    command = [sys.executable, "-m", "server", "tournament", "create", str(config)]
    command += ["--id", TOURNAMENT, "--data", str(data)]
    subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)


async def register(server: Server, nickname: str) -> tuple[WsClient, m.Registered]:
    client = await WsClient.connect(server.port, nickname)
    assert isinstance(await client.hello(nickname=nickname), m.Welcome)
    await client.send(m.Register(tournament=TOURNAMENT, id=client.next_id()))
    registered = await client.wait_type(m.Registered, 10)
    return client, registered


@pytest.mark.asyncio
async def test_a_tournament_player_exports_his_own_hands_with_his_player_token(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    create_tournament(data)
    server = Server(data).start()
    clients: list[WsClient] = []
    try:
        ana, ana_reg = await register(server, "ana")
        bob, bob_reg = await register(server, "bob")
        clients += [ana, bob]
        players = {}
        for client in (ana, bob):
            moved = await client.wait_type(m.Moved, 10)
            client.seat = moved.seat
            players[client.name] = Player(
                client, sometimes_fold, seed=len(players), table=moved.table
            )
        table = players["ana"].table
        assert players["bob"].table == table and table.startswith(f"{TOURNAMENT}-")
        await wait_hands(ana, 3, timeout=15, table=table)
        await wait_hands(bob, 3, timeout=5, table=table)
        # the tables go on dealing (a tournament seat stays): checked up to the last hand
        # both players saw end, whose hole cards they both received
        upto = min(hands_done(c, table)[-1].hand for c in (ana, bob))
        dealt_ana, dealt_bob = received(ana, table), received(bob, table)
        assert {h for h in dealt_ana if h <= upto} == set(range(1, upto + 1))
        assert {h for h in dealt_bob if h <= upto} == set(range(1, upto + 1))
        await wait_records(server, table, ana_reg.token, upto)

        shown = shown_cards(server, table, None)
        _, text = export(server, table, ana_reg.token)
        assert check_own_export(text, table, "ana", dealt_ana, dealt_bob, shown, upto) >= 3
        # the header of a tournament hand: its id (crc32 of a name), buy-in and level
        tid = zlib.crc32(TOURNAMENT.encode())
        number = table.rsplit("-", 1)[1]
        for block in by_hand(text, table).values():
            head, where = block.splitlines()[:2]
            assert head.startswith("PokerStars Hand #"), head
            assert f": Tournament #{tid}, 20+0 Hold'em No Limit - Level I (50/100) - " in head
            assert DATE.search(head), head
            assert where.startswith(f"Table '{tid} {number}' 6-max Seat #"), where
        _, text = export(server, table, bob_reg.token)
        assert check_own_export(text, table, "bob", dealt_bob, dealt_ana, shown, upto) >= 3
        # a public table: without a token, nobody's hole cards
        status, text = export(server, table, None)
        assert status == 200 and by_hand(text, table)
        assert "Dealt to" not in text
        # the records say which tournament
        status, body = export(server, table, None, "json")
        assert status == 200
        for record in json.loads(body):
            assert record["tournament"] == {
                "id": TOURNAMENT,
                "name": "Hand histories",
                "buyin": 20,
                "level": 1,
                "table_number": int(number),
            }
        # a player token of the tournament opens no other table's cards; a forged one nothing
        status, _ = export(server, TABLE, ana_reg.token)
        assert status == 403
        body, _, signature = ana_reg.token.partition(".")
        forged = ("y" if signature[0] == "x" else "x") + signature[1:]  # never the same token
        status, _ = export(server, table, f"{body}.{forged}")
        assert status == 403
    finally:
        for client in clients:
            await client.close()
        server.stop()
    assert "Traceback" not in server.stderr()
