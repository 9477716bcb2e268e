"""A night of Sit'n Gos across two ``python -m server --redis`` processes (issue 15, "events
run across processes"; fpc part C « LE SIT'N GO »: « Tous les Sit'n Go commencent en même
temps », « de 6 joueurs (minimum) à 10 joueurs (maximum) »).

The night is made on ``a``; ``b`` takes it up without a restart (its sweep) and times it
too, so both reach its start together. Twelve members register on both processes at once:
all twelve are counted. At its time the two processes both try to compose the tables: they
are composed once (two tables of six, two events, not four). Each member takes his seat on
his own process, whichever process made his table's tournament; both tables are played to
the end and scored once: twelve rows in the standings, by the book's points for six."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from bots.client import Bot
from protocol import messages as m
from tests.integration.test_leagues import (
    PASSWORD,
    Shove,
    answer,
    event_of,
    guest,
    league_now,
    league_with_season,
    wait_status,
)
from tests.integration.wsclient import OPEN, Server

from .test_redis_cup import Spread, pair

__all__ = ["pair"]

LOGINS = tuple(f"n{i:02d}" for i in range(12))
BOOK = {1: 16, 2: 12, 3: 8, 4: 4, 5: 2, 6: 1}  # fpc part C: points for six players
AHEAD = 16  # seconds: more than the sweep (10 s) in which b takes the night up


async def seated_bot(server: Server, login: str, urls: list[str]) -> Bot:
    """A member's bot on ``server``; sent on to the process that runs his table (``moved``
    with its url), it reconnects there and follows his seat with his token."""
    bot = Bot(server.url, Shove(), nickname=login, urls=urls)
    await bot.connect()
    await bot.request(
        m.AccountLogin(login=login, password=PASSWORD, id=901),
        lambda x: isinstance(x, m.Account),
        30,
        ref=901,
    )
    return bot


@pytest.mark.asyncio
async def test_a_night_across_two_processes_is_composed_once_and_scored_once(
    pair: list[Server], redis_url: str, redis_prefix: str
) -> None:
    a, b = pair
    servers = {"a": a, "b": b}
    spread = Spread(servers, LOGINS)
    homes = spread.homes
    accounts = await spread.open_accounts()
    owner = accounts[LOGINS[0]]
    desk, made, sid = await league_with_season(a, accounts, LOGINS[0], "fpc_sit_and_go")
    created = await answer(
        desk,
        m.LeagueEventCreate(
            member=owner.token, league=made.league, season=sid, name="Mercredi",
            kind="sit_and_go", structure="fpc_sit_and_go", starts_at=int(time.time()) + AHEAD,
            night=True, hard_stop="", id=20,
        ),
    )  # fmt: skip
    assert isinstance(created, m.League), created
    night = event_of(created, "Mercredi")

    await spread.register_all(night["tournament"])
    desk_b = await guest(b, "desk-b", owner.token)
    seen = event_of(await league_now(desk_b, owner.token, made.league), "Mercredi")
    assert seen["night"]["registered"] == 12

    view = await wait_status(desk_b, owner.token, made.league, "Mercredi", "running", AHEAD + 20)
    tables = event_of(view, "Mercredi")["night"]["tables"]
    assert [len(t["players"]) for t in tables] == [6, 6]
    season_events = [e["name"] for s in view.seasons for e in s["events"]]
    assert len(season_events) == 3, season_events  # the night and its two tables, once

    mine: dict[str, str] = {}
    for login in LOGINS:
        own = await league_now(desk_b, accounts[login].token, made.league)
        mine[login] = event_of(own, "Mercredi")["night"]["mine"]
    players = [await seated_bot(servers[homes[x]], x, [a.url, b.url]) for x in LOGINS]
    try:
        for login, bot in zip(LOGINS, players, strict=True):
            entered = await bot.register(mine[login], timeout=20)
            assert entered.player == f"m.{accounts[login].member}"
        played = await asyncio.wait_for(
            asyncio.gather(*(bot.play_tournament() for bot in players)), 150
        )
        assert all(played)
    finally:
        for bot in players:
            await bot.close()
    done = await wait_status(desk, owner.token, made.league, "Mercredi", "finished", 40)
    assert all(event_of(done, t["name"])["status"] == "finished" for t in tables)
    doc = a.get_json(f"/api/leagues/{made.league}/seasons/{sid}/standings.json")
    assert doc == b.get_json(f"/api/leagues/{made.league}/seasons/{sid}/standings.json")
    points = {row["player_id"]: row["points"] for row in doc["standings"]}
    assert sorted(points) == sorted(accounts[x].member for x in LOGINS)
    for t in tables:
        results = a.get_json(f"/api/tournaments/{t['tournament']}/results.json")["results"]
        assert len(results) == 6
        for r in results:
            if sum(1 for x in results if x["place"] == r["place"]) == 1:
                assert points[r["player_id"].removeprefix("m.")] == BOOK[r["place"]]
    shared = redis.Redis.from_url(redis_url)
    try:
        assert shared.scard(f"{redis_prefix}:league:results:{sid}") == 2  # each table once
    finally:
        shared.close()
    for client in list(OPEN):
        await client.close()
    for server in pair:
        assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
