"""Five-card draw cash tables on a real server (issue 31): a league with a draw cash season,
two members play draw hands over websockets (each discards and draws, all in, until one has
lost his cave), cash out; both draw capitals and the draw season's standings follow, and
their hold'em capitals stay untouched. The draw's cards reach their owner only, and every
hand record the server serves verifies.

fpc LE FIVE-CARD DRAW: « Chaque adhérent se voit attribuer un capital de départ de 50 000
jetons … Ses gains et ses pertes feront évoluer son capital et ainsi donnera le classement
général »; « La cave est de 5 000 jetons »; « Les caves sont spécifiques à chaque jeu »."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol import messages as m
from protocol.verify import verify_record

from .conftest import Launch
from .test_league_cash import buy, member, standings
from .test_leagues import answer
from .wsclient import WsClient

CAVE = 5_000
CAPITAL = 50_000


class DrawPlayer:
    """Plays a draw seat from the wire: cuts, goes all in (or calls) at each bet, discards
    his first two cards at each draw, answering each ``turn``'s decision."""

    def __init__(self, client: WsClient, table: str) -> None:
        self.client = client
        self.table = table
        self.answered: set[int] = set()
        self.drawn: list[m.DrawnEvent] = []
        self.drew: list[m.DrewEvent] = []
        client.handler = self.on_message

    async def on_message(self, client: WsClient, msg: m.Message) -> None:
        if getattr(msg, "table", self.table) != self.table:
            return
        if isinstance(msg, m.CutPrompt) and msg.seat == client.seat:
            await client.send(m.Cut(table=self.table, hand=msg.hand, position=7))
        elif isinstance(msg, m.DrawnEvent):
            self.drawn.append(msg)
        elif isinstance(msg, m.DrewEvent):
            self.drew.append(msg)
        elif isinstance(msg, m.Turn) and msg.seat == client.seat:
            if msg.decision in self.answered:
                return
            self.answered.add(msg.decision)
            if msg.draw:
                assert msg.cards is not None and len(msg.cards) == 5
                draw = m.Draw(
                    table=self.table, hand=msg.hand, cards=msg.cards[:2], decision=msg.decision
                )
                await client.send(draw)
                return
            verb = "allin" if msg.can_raise else "call"
            act = m.Act(table=self.table, hand=msg.hand, verb=verb, decision=msg.decision)
            await client.send(act)


def capitals(server: Any, league: str, season: str) -> dict[str, int]:
    rows = standings(server, league, season)["standings"]
    return {r["name"]: r["capital"] for r in rows}


@pytest.mark.asyncio
async def test_two_members_play_draw_and_cash_out(launch: Launch) -> None:
    server = launch()
    ana, ana_account = await member(server, "ana")
    bob, bob_account = await member(server, "bob")
    made = await answer(ana, m.LeagueCreate(member=ana_account.token, name="Club", id=2))
    assert isinstance(made, m.League) and made.invite
    joined = await answer(bob, m.LeagueJoin(member=bob_account.token, invite=made.invite, id=3))
    assert isinstance(joined, m.League)

    async def season(name: str, **terms: str) -> dict[str, Any]:
        message = m.SeasonCreate(
            member=ana_account.token, league=made.league, name=name, points="capital",
            id=ana.next_id(), **terms,
        )  # fmt: skip
        league = await answer(ana, message)
        assert isinstance(league, m.League), league
        return league.seasons[-1]

    holdem = await season("Cash")
    draw = await season("Draw", game="draw")
    assert (draw["game"], draw["capital"]) == ("draw", CAPITAL)
    created = await answer(
        ana,
        m.CreateTable(
            name="Draw", profile="fpc", sb=50, bb=100, game="draw", max_seats=6,
            action_seconds=3, season=f"{made.league}/{draw['id']}", hours="always",
            id=ana.next_id(),
        ),
    )  # fmt: skip
    assert isinstance(created, m.TableCreated), created
    table = created.table
    # a room keeps one game (« Les caves sont spécifiques à chaque jeu »): a hold'em table may
    # not join the draw table's room; its listing names the game
    joining = await answer(
        ana,
        m.CreateTable(
            name="Holdem", profile="fpc", game="cash", max_seats=6, room=created.host,
            hours="always", id=ana.next_id(),
        ),
    )  # fmt: skip
    assert isinstance(joining, m.Error) and joining.code == "cash.game", joining
    room = server.get_json(f"/api/tables/{table}/room?t={created.invite}")
    assert [(t["game"], t["structure"]) for t in room["tables"]] == [("draw", "no_limit")]
    assert isinstance(await buy(ana, created, 1, CAVE), m.Seated)
    assert isinstance(await buy(bob, created, 2, CAVE), m.Seated)
    players = {"ana": DrawPlayer(ana, table), "bob": DrawPlayer(bob, table)}

    # all in every hand until one has lost his cave: the draw capitals follow the table
    for _ in range(600):
        rows = capitals(server, made.league, draw["id"])
        if sorted(rows.values()) == [CAPITAL - CAVE, CAPITAL + CAVE]:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"nobody lost his cave: {rows}")
    winner = max(rows, key=lambda name: rows[name])
    loser = min(rows, key=lambda name: rows[name])

    # everyone saw how many cards each drew; the cards drawn went to their owner only
    for name, player in players.items():
        assert player.drew and all(d.count == 2 for d in player.drew)
        seat = player.client.seat
        mine = [d for d in player.drawn if d.seat == seat]
        others = [d for d in player.drawn if d.seat != seat]
        assert mine and all(len(d.cards) == 5 and len(d.received) == 2 for d in mine), name
        assert others and all(not (d.cards or d.discarded or d.received) for d in others), name
    record = server.get_json(f"/api/hands/{table}/1.json?t={created.invite}")
    assert record["game"] == "draw" and verify_record(record) == []
    assert {a["street"] for a in record["actions"]} <= {"preflop", "draw"}

    # the winner cashes out his whole stack: his draw capital has it, hold'em untouched
    winner_client, loser_client = (ana, bob) if winner == "ana" else (bob, ana)
    seat = winner_client.seat
    mark = len(loser_client.messages)
    await winner_client.send(m.LeaveTable(table=table))
    left = await loser_client.wait_for(
        lambda x: isinstance(x, m.SeatEvent) and x.seat == seat and x.status == "left", 20, mark
    )
    assert isinstance(left, m.SeatEvent)
    for _ in range(100):
        if capitals(server, made.league, draw["id"]) == {
            winner: CAPITAL + CAVE,
            loser: CAPITAL - CAVE,
        }:
            break
        await asyncio.sleep(0.1)
    doc = standings(server, made.league, draw["id"])
    assert [(r["name"], r["capital"]) for r in doc["standings"]] == [
        (winner, CAPITAL + CAVE),
        (loser, CAPITAL - CAVE),
    ]
    assert standings(server, made.league, holdem["id"])["standings"] == []
