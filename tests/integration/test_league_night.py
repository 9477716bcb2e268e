"""A night of Sit'n Gos on a real server (issue 15, fpc part C « LE SIT'N GO »: « L'attribution
des places (table et siège) s'effectue par le logiciel … sauf le premier mercredi du mois …
où les tables sont composées en fonction du classement général »; « Tous les Sit'n Go
commencent en même temps »; « de 6 joueurs (minimum) à 10 joueurs (maximum) »).

Twelve members register for the night (one registration, no table chosen); at its time the
night is split into two tables of six, each an event of the season with its own tournament,
started together; each member finds his table in the league's view and takes his seat there
(nobody else's); both tables are played to the end by SDK bots, the night is then finished,
and the season's standings score both tables with the book's points for six players."""

from __future__ import annotations

import asyncio
import time

import pytest

from bots.client import Bot
from bots.connection import BotError
from protocol import messages as m

from .conftest import Launch
from .test_league_season import login_bot
from .test_leagues import (
    answer,
    event_of,
    league_now,
    league_with_season,
    member_bot,
    wait_status,
)

LOGINS = tuple(f"m{i:02d}" for i in range(12))
BOOK = {1: 16, 2: 12, 3: 8, 4: 4, 5: 2, 6: 1}  # fpc part C: points for six players


@pytest.mark.asyncio
async def test_a_night_is_split_into_tables_played_and_scored(launch: Launch) -> None:
    server = launch(clock_speed=20, max_registrations_per_address=500)
    accounts: dict[str, m.Account] = {}
    for login in LOGINS:
        bot, account = await member_bot(server, login)
        accounts[login] = account
        await bot.close()
    owner = LOGINS[0]
    token = accounts[owner].token
    desk, made, sid = await league_with_season(server, accounts, owner, "fpc_sit_and_go")
    created = await answer(
        desk,
        m.LeagueEventCreate(
            member=token, league=made.league, season=sid, name="Mercredi", kind="sit_and_go",
            structure="fpc_sit_and_go", starts_at=int(time.time()) + 4, night=True,
            hard_stop="", id=20,
        ),
    )  # fmt: skip
    assert isinstance(created, m.League), created
    empty = await answer(
        desk,
        m.LeagueEventCreate(
            member=token, league=made.league, season=sid, name="Mercredi vide", kind="sit_and_go",
            structure="fpc_sit_and_go", starts_at=int(time.time()) + 4, night=True,
            hard_stop="", id=21,
        ),
    )  # fmt: skip
    assert isinstance(empty, m.League), empty
    night = event_of(created, "Mercredi")
    assert night["night"] == {"registered": 0, "tables": []}
    bots: dict[str, Bot] = {}
    for login in LOGINS:  # one registration for the night, no table chosen
        bot = await login_bot(server, login)
        got = await bot.request(
            m.Register(tournament=night["tournament"], id=5),
            lambda x: isinstance(x, m.Registered),
            10,
            ref=5,
        )
        assert isinstance(got, m.Registered) and got.token == ""
        bots[login] = bot
    view = await wait_status(desk, token, made.league, "Mercredi", "running", 20)
    tables = event_of(view, "Mercredi")["night"]["tables"]
    # a night nobody registered for does not start, and says why
    alone = event_of(await league_now(desk, token, made.league), "Mercredi vide")
    assert alone["status"] == "registering" and "nobody registered" in alone["note"], alone
    assert [len(t["players"]) for t in tables] == [6, 6]  # « de 6 à 10 joueurs »
    names = sorted(p for t in tables for p in t["players"])
    assert names == sorted(LOGINS)
    assert {event_of(view, t["name"])["status"] for t in tables} <= {"registering", "running"}

    # each member's table, from his own view; a seat at another table is refused
    mine: dict[str, str] = {}
    for login in LOGINS:
        own = event_of(await league_now(desk, accounts[login].token, made.league), "Mercredi")
        mine[login] = own["night"]["mine"]
    other = next(t["tournament"] for t in tables if t["tournament"] != mine[LOGINS[0]])
    with pytest.raises(BotError):
        await bots[LOGINS[0]].register(other, timeout=10)
    for bot in bots.values():
        await bot.close()
    players = []
    for login in LOGINS:
        bot = await login_bot(server, login)
        entered = await bot.register(mine[login], timeout=10)
        assert entered.player == f"m.{accounts[login].member}"
        players.append(bot)
    played = await asyncio.wait_for(asyncio.gather(*(b.play_tournament() for b in players)), 120)
    assert all(played)
    done = await wait_status(desk, token, made.league, "Mercredi", "finished", 30)
    assert all(event_of(done, t["name"])["status"] == "finished" for t in tables)
    doc = server.get_json(f"/api/leagues/{made.league}/seasons/{sid}/standings.json")
    points = {row["player_id"]: row["points"] for row in doc["standings"]}
    assert len(points) == 12
    for t in tables:
        results = server.get_json(f"/api/tournaments/{t['tournament']}/results.json")["results"]
        assert len(results) == 6
        for r in results:
            if sum(1 for x in results if x["place"] == r["place"]) == 1:
                assert points[r["player_id"].removeprefix("m.")] == BOOK[r["place"]]
    for bot in players:
        await bot.close()
    for log in server.data.glob("stderr-*.log"):
        assert "Traceback" not in log.read_text(), log.read_text()[-2000:]
