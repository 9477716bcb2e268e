"""A league's season end to end on a real server (issue 15's acceptance): four bots with
member accounts play three events of a season, the second a satellite into the third; after
each event the standings equal a hand computation with server/league/points.py and
standings.py, the satellite's winners are registered in its target by their tickets, and
everything survives a server restart between the events (and after the last).

- "Etape 1", a tournament, starts by itself at its time;
- "Satellite" (``per:2``: a seat per two entries, server/league/satellite.py) into "Finale",
  starts by itself at its time after the first restart;
- "Finale", a monthly for qualified players only (the top 1 of the season's standings, ligue
  PRÉAVIS note 1 "les joueurs classés") and the satellite's winners, comes back from the
  second restart with the ticket holders registered again, and is started from the
  director's console (its time is an hour away).

Every event plays the shipped Tour des Potes structure with every clock 400 times faster
(fpc 2-2, late registration to the end of level 2: an event ends 7.5 s after its start).
"""

from __future__ import annotations

import asyncio
import datetime
import sqlite3
import time
from typing import Any

import pytest

from bots.client import Bot
from bots.connection import BotError
from protocol import messages as m
from server.league.points import PlaceTable
from server.league.results import Entry, EventKind, EventResult
from server.league.satellite import (
    QualificationRule,
    SeatsPerEntries,
    issue_tickets,
    qualified_players,
)
from server.league.standings import SeasonRules, standings, standings_json

from .conftest import Launch
from .test_leagues import (
    PASSWORD,
    Shove,
    answer,
    event_of,
    guest,
    league_now,
    member_bot,
    wait_status,
)
from .wsclient import Server

CLOCK = 400
STRUCTURE = "tour_des_potes_bb_ante"
POINTS = (10, 6, 3, 1)
RULES = SeasonRules(points=PlaceTable(points=POINTS))
LOGINS = ("ana", "bob", "cat", "dan")
SEATS = "per:2"


async def login_bot(server: Server, login: str) -> Bot:
    """A bot of an existing account, on a new connection (after a restart)."""
    bot = Bot(f"ws://127.0.0.1:{server.port}/ws", Shove(), nickname=login, reconnect=False)
    await bot.connect()
    await bot.request(
        m.AccountLogin(login=login, password=PASSWORD, id=901),
        lambda x: isinstance(x, m.Account),
        30,
        ref=901,
    )
    return bot


async def play(bots: list[Bot]) -> None:
    played = await asyncio.wait_for(asyncio.gather(*(b.play_tournament() for b in bots)), 60)
    assert all(played)


def result_by_hand(server: Server, event: dict[str, Any], kind: EventKind) -> EventResult:
    """The event's result from its tournament's own results (``m.<member>`` -> member)."""
    rows = server.get_json(f"/api/tournaments/{event['tournament']}/results.json")["results"]
    return EventResult(
        event_id=event["id"],
        date=datetime.datetime.fromtimestamp(event["starts_at"], datetime.UTC).date(),
        kind=kind,
        entries=tuple(
            Entry(player_id=r["player_id"].removeprefix("m."), place=r["place"], entry=r["entry"])
            for r in rows
        ),
    )


def check_standings(server: Server, url: str, results: list[EventResult]) -> dict[str, Any]:
    doc: dict[str, Any] = server.get_json(f"{url}.json")
    assert doc["standings"] == standings_json(standings(RULES, results))
    assert doc["unscored"] == []
    return doc


async def close(bots: list[Bot]) -> None:
    for bot in bots:
        await bot.close()


@pytest.mark.asyncio
async def test_a_season_of_three_events_with_a_satellite_survives_restarts(
    launch: Launch,
) -> None:
    server = launch(clock_speed=CLOCK, max_registrations_per_address=100)
    bots: list[Bot] = []
    accounts: dict[str, m.Account] = {}
    for login in LOGINS:
        bot, account = await member_bot(server, login)
        bots.append(bot)
        accounts[login] = account
    ana = accounts["ana"]
    members = {accounts[x].member: x for x in LOGINS}
    desk = await guest(server, "ana-desk", ana.token)

    # the league, its members, a season, the first event and the final
    made = await answer(desk, m.LeagueCreate(member=ana.token, name="Les Potes", id=1))
    assert isinstance(made, m.League) and made.invite
    lid = made.league
    for n, login in enumerate(LOGINS[1:], start=2):
        joined = await answer(
            desk, m.LeagueJoin(member=accounts[login].token, invite=made.invite, id=n)
        )
        assert isinstance(joined, m.League) and joined.role == "member"
    points = "places:" + ",".join(map(str, POINTS))
    opened = await answer(
        desk, m.SeasonCreate(member=ana.token, league=lid, name="2026", points=points, id=5)
    )
    assert isinstance(opened, m.League)
    sid = opened.seasons[0]["id"]
    url = f"/api/leagues/{lid}/seasons/{sid}/standings"

    def create(name: str, starts_at: int, ref: int, **more: Any) -> m.LeagueEventCreate:
        return m.LeagueEventCreate(
            member=ana.token,
            league=lid,
            season=sid,
            name=name,
            structure=STRUCTURE,
            starts_at=starts_at,
            id=ref,
            **more,
        )

    got = await answer(
        desk, create("Finale", int(time.time()) + 3600, 6, kind="monthly", qualified_top=1)
    )
    assert isinstance(got, m.League), got
    got = await answer(desk, create("Etape 1", int(time.time()) + 4, 7))
    assert isinstance(got, m.League), got
    final, first = event_of(got, "Finale"), event_of(got, "Etape 1")
    assert (final["kind"], final["qualified_top"], final["qualified_season"]) == ("monthly", 1, sid)

    # 1. Etape 1: the four bots, on time
    for bot in bots:
        await bot.register(first["tournament"], timeout=10)
    await play(bots)
    await wait_status(desk, ana.token, lid, "Etape 1", "finished", 40)
    r1 = result_by_hand(server, first, EventKind.TOURNAMENT)
    assert {e.player_id for e in r1.entries} == set(members)
    doc = check_standings(server, url, [r1])
    assert doc["names"] == {member: login for member, login in members.items()}
    await close(bots)

    # restart: the standings as they were
    server.stop()
    server.start()
    assert check_standings(server, url, [r1]) == doc
    bots = [await login_bot(server, login) for login in LOGINS]
    desk = await guest(server, "ana-desk-2", ana.token)

    # 2. the satellite into the final, on time
    got = await answer(
        desk,
        create(
            "Satellite",
            int(time.time()) + 4,
            8,
            kind="satellite",
            satellite_of=final["id"],
            seats=SEATS,
        ),
    )
    assert isinstance(got, m.League), got
    sat = event_of(got, "Satellite")
    assert (sat["satellite_of"], sat["seats"]) == (final["id"], SEATS)
    for bot in bots:
        await bot.register(sat["tournament"], timeout=10)
    await play(bots)
    got = await wait_status(desk, ana.token, lid, "Satellite", "finished", 40)
    r2 = result_by_hand(server, sat, EventKind.SATELLITE)
    doc = check_standings(server, url, [r1, r2])
    # the tickets by hand: a seat per two entries, ties at the bubble sharing (cdc 2.7)
    plan = SeatsPerEntries(entries_per_seat=2).plan(r2.field_size)
    tickets = issue_tickets(
        r2, plan, target=final["id"], members=frozenset(members), names=doc["names"]
    )
    holders = {t.player_id for t in tickets if t.enters}
    assert len(holders) >= plan.seats == 2
    assert [(t["player_id"], t["seats"]) for t in doc["tickets"]] == [
        (t.player_id, str(t.seats)) for t in tickets
    ]
    # the winners are registered in the final, nobody else
    state = server.get_json(f"/api/tournaments/{final['tournament']}")
    assert sorted(state["registered"]) == sorted(members[p] for p in holders)
    assert state["entries"] == len(holders)
    assert event_of(got, "Finale")["tickets"] == len(holders)
    await close(bots)

    # restart: the final's tournament comes back without registrations; the tickets enter
    # their holders again, once each
    server.stop()
    server.start()
    assert check_standings(server, url, [r1, r2]) == doc
    state = server.get_json(f"/api/tournaments/{final['tournament']}")
    assert sorted(state["registered"]) == sorted(members[p] for p in holders)
    assert state["entries"] == len(holders) and state["phase"] == "registering"

    # 3. the final: the top 1 of the standings and the tickets' holders, nobody else
    rows = standings(RULES, [r1, r2])
    ranked = set(qualified_players(rows, QualificationRule(kind=EventKind.MONTHLY, top=1)))
    admitted = ranked | holders
    players: list[Bot] = []
    for login in LOGINS:
        member = accounts[login].member
        bot = await login_bot(server, login)
        if member in admitted:
            entered = await bot.register(final["tournament"], timeout=10)
            assert entered.player == f"m.{member}"  # a ticket's register: its own entry
            players.append(bot)
        else:
            with pytest.raises(BotError) as refused:
                await bot.register(final["tournament"], timeout=10)
            assert refused.value.code == "league.not_qualified"
            await bot.close()
    eve = await guest(server, "eve")
    account = await answer(eve, m.AccountRegister(login="eve", password=PASSWORD, id=50), 30)
    assert isinstance(account, m.Account)
    no = await answer(eve, m.Register(tournament=final["tournament"], id=51))
    # an account of no league: refused by the membership decision before qualification
    assert isinstance(no, m.Error) and no.code == "league.not_member"
    state = server.get_json(f"/api/tournaments/{final['tournament']}")
    assert state["entries"] == len(admitted)  # the tickets' holders entered once each

    desk = await guest(server, "ana-desk-3", ana.token)
    director = event_of(await league_now(desk, ana.token, lid), "Finale")["director"]
    await desk.send(m.Direct(tournament=final["tournament"], token=director, op="start"))
    await play(players)
    await wait_status(desk, ana.token, lid, "Finale", "finished", 40)
    r3 = result_by_hand(server, final, EventKind.MONTHLY)
    assert {e.player_id for e in r3.entries} == admitted
    doc = check_standings(server, url, [r1, r2, r3])
    await close(players)

    # and after the season: the same standings, each result and ticket stored once
    server.stop()
    server.start()
    assert check_standings(server, url, [r1, r2, r3]) == doc
    db = sqlite3.connect(server.data / "leagues.sqlite")
    try:
        assert db.execute("SELECT COUNT(*) FROM results").fetchone() == (3,)
        assert db.execute("SELECT COUNT(*) FROM tickets").fetchone() == (len(tickets),)
    finally:
        db.close()
    assert "Traceback" not in server.stderr()
