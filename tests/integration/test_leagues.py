"""Leagues on a real server (issue 15): two members with accounts, a league, a season with
points by place, an event scheduled a few seconds ahead that starts by itself, played by two
bots to the end; its standings equal a hand computation with server/league/points.py, and
everything survives a restart.

The event plays the shipped Tour des Potes structure (fpc part B: late registration to the end
of level 2, fpc 2-2) with every clock 400 times faster: once one bot is out, the tournament
ends when late registration closes (7.5 s of real time after the start).
"""

from __future__ import annotations

import asyncio
import csv
import datetime
import io
import json
import sqlite3
import time
from typing import Any

import pytest

from bots.client import Bot
from bots.strategy import Decision, Strategy, View
from protocol import messages as m
from server.league.points import PlaceTable
from server.league.results import Entry, EventKind, EventResult
from server.league.standings import SeasonRules, standings, standings_json

from .conftest import Launch
from .wsclient import Server, WsClient

PASSWORD = "la bonne main 2026"
CLOCK = 400
STRUCTURE = "tour_des_potes_bb_ante"  # docs/tournaments/, min_players 2 (the default)
POINTS = (10, 6)


class Shove(Strategy):
    """All in, every time: a heads-up ends in a few hands."""

    name = "shove"

    def decide(self, view: View) -> Decision:
        return Decision.allin()


async def answer(client: WsClient, message: m.Message, timeout: float = 10) -> m.Message:
    ref = getattr(message, "id", None)
    mark = len(client.messages)
    await client.send(message)
    return await client.wait_for(lambda x: getattr(x, "ref", None) == ref, timeout, mark)


async def guest(server: Server, name: str, member: str | None = None) -> WsClient:
    client = await WsClient.connect(server.port, name)
    await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname=name, member=member))
    await client.wait_type(m.Welcome, 5)
    return client


async def member_bot(server: Server, login: str) -> tuple[Bot, m.Account]:
    """A bot that opens its account on its own connection (the connection is then the
    member's: its entries carry his id)."""
    bot = Bot(f"ws://127.0.0.1:{server.port}/ws", Shove(), nickname=login, reconnect=False)
    await bot.connect()
    account = await bot.request(
        m.AccountRegister(login=login, password=PASSWORD, id=900),
        lambda x: isinstance(x, m.Account),
        30,
        ref=900,
    )
    assert isinstance(account, m.Account)
    return bot, account


def event_of(league: m.League, name: str) -> dict[str, Any]:
    return next(e for s in league.seasons for e in s["events"] if e["name"] == name)


async def league_now(client: WsClient, token: str, league: str) -> m.League:
    got = await answer(client, m.LeagueGet(member=token, league=league, id=client.next_id()))
    assert isinstance(got, m.League), got
    return got


async def league_with_season(
    server: Server, accounts: dict[str, m.Account], owner: str, points: str, name: str = "Club"
) -> tuple[WsClient, m.League, str]:
    """A league of ``owner``'s that every other account joined with its invite, and a season
    of ``points``: the owner's desk connection, the league (as he sees it), the season id."""
    token = accounts[owner].token
    desk = await guest(server, f"{owner}-desk", token)
    made = await answer(desk, m.LeagueCreate(member=token, name=name, id=1))
    assert isinstance(made, m.League)
    for n, (login, account) in enumerate(accounts.items(), start=2):
        if login != owner:
            joined = await answer(
                desk, m.LeagueJoin(member=account.token, invite=made.invite, id=n)
            )
            assert isinstance(joined, m.League)
    season = await answer(
        desk, m.SeasonCreate(member=token, league=made.league, name="2026", points=points, id=99)
    )
    assert isinstance(season, m.League)
    return desk, made, str(season.seasons[0]["id"])


async def wait_status(
    client: WsClient, token: str, league: str, name: str, status: str, timeout: float
) -> m.League:
    deadline = time.monotonic() + timeout
    while True:
        got = await league_now(client, token, league)
        if event_of(got, name)["status"] == status:
            return got
        assert time.monotonic() < deadline, event_of(got, name)
        await asyncio.sleep(0.3)


@pytest.mark.asyncio
async def test_a_league_event_starts_on_time_finishes_and_its_standings_survive_a_restart(
    launch: Launch,
) -> None:
    server = launch(clock_speed=CLOCK)
    ana_bot, ana = await member_bot(server, "ana")
    bob_bot, bob = await member_bot(server, "bob")
    desk = await guest(server, "ana-desk", ana.token)
    bobs = await guest(server, "bob-desk", bob.token)
    try:
        # a league, joined with its invite
        made = await answer(desk, m.LeagueCreate(member=ana.token, name="Les Potes", id=1))
        assert isinstance(made, m.League) and made.role == "owner" and made.invite
        joined = await answer(bobs, m.LeagueJoin(member=bob.token, invite=made.invite, id=2))
        assert isinstance(joined, m.League)
        assert (joined.role, joined.invite, joined.members) == ("member", None, 2)
        # a member may not open a season; a session acts only for its own member
        refused = await answer(
            bobs, m.SeasonCreate(member=bob.token, league=made.league, name="S", points="x", id=3)
        )
        assert isinstance(refused, m.Error) and refused.code == "league.forbidden"
        points = "places:" + ",".join(map(str, POINTS))
        opened = await answer(
            desk,
            m.SeasonCreate(member=ana.token, league=made.league, name="2026", points=points, id=4),
        )
        assert isinstance(opened, m.League) and opened.seasons[0]["points"] == points
        season = opened.seasons[0]["id"]

        # two events a few seconds ahead: the first will have its two players, not the second
        starts_at = int(time.time()) + 4
        for number, name in ((5, "Etape 1"), (6, "Etape 2")):
            scheduled = await answer(
                desk,
                m.LeagueEventCreate(
                    member=ana.token,
                    league=made.league,
                    season=season,
                    name=name,
                    kind="tournament",
                    structure=STRUCTURE,
                    starts_at=starts_at,
                    requires_account=True,
                    id=number,
                ),
            )
            assert isinstance(scheduled, m.League), scheduled
        first = event_of(scheduled, "Etape 1")
        second = event_of(scheduled, "Etape 2")
        assert first["status"] == "registering" and first["director"]
        tid = first["tournament"]
        state = server.get_json(f"/api/tournaments/{tid}")
        assert state["name"] == "Etape 1" and state["phase"] == "registering"
        assert "director" not in event_of(await league_now(bobs, bob.token, made.league), "Etape 1")

        # registration: a guest is refused, each member enters once, under his member id
        stranger = await guest(server, "stranger")
        no = await answer(stranger, m.Register(tournament=tid, id=7))
        assert isinstance(no, m.Error) and no.code == "league.account_required"
        for bot, account in ((ana_bot, ana), (bob_bot, bob)):
            entered = await bot.register(tid, timeout=10)
            assert entered.player == f"m.{account.member}"
        again = await answer(desk, m.Register(tournament=tid, id=8))
        assert isinstance(again, m.Error) and again.code == "tournament.already_registered"
        alone = await answer(desk, m.Register(tournament=second["tournament"], id=9))
        assert isinstance(alone, m.Registered)
        assert server.get_json(f"/api/tournaments/{tid}")["phase"] == "registering"

        # it starts by itself at its time, and is played to the end
        seated: list[float] = []

        def seen(message: m.Message) -> None:
            if isinstance(message, m.Moved):
                seated.append(time.time())

        ana_bot.on_message = seen
        played = await asyncio.wait_for(
            asyncio.gather(ana_bot.play_tournament(), bob_bot.play_tournament()), 60
        )
        assert all(played)
        assert ana_bot.moves and bob_bot.moves
        assert seated and seated[0] >= starts_at - 0.1, (seated[:1], starts_at)
        done = await wait_status(desk, ana.token, made.league, "Etape 1", "finished", 40)
        waiting = event_of(done, "Etape 2")
        assert waiting["status"] == "registering"
        assert "1 registered, 2 needed" in waiting["note"], waiting

        # the standings: a hand computation from the tournament's own results
        results = server.get_json(f"/api/tournaments/{tid}/results.json")["results"]
        entries = tuple(
            Entry(player_id=r["player_id"].removeprefix("m."), place=r["place"], entry=r["entry"])
            for r in results
        )
        day = datetime.datetime.fromtimestamp(starts_at, datetime.UTC).date()
        result = EventResult(
            event_id=first["id"], date=day, kind=EventKind.TOURNAMENT, entries=entries
        )
        table = PlaceTable(points=POINTS)
        winner = next(e.player_id for e in entries if e.place == 1)
        loser = ({ana.member, bob.member} - {winner}).pop()
        assert table.event_points(result) == {winner: 10, loser: 6}
        expected = standings_json(standings(SeasonRules(points=table), [result]))
        url = f"/api/leagues/{made.league}/seasons/{season}/standings"
        doc = server.get_json(f"{url}.json")
        assert doc["standings"] == expected
        assert [r["player_id"] for r in doc["standings"]] == [winner, loser]
        assert doc["names"] == {ana.member: "ana", bob.member: "bob"}
        assert doc["unscored"] == [] and doc["points"] == points
        status, body = server.get(f"{url}.csv")
        assert status == 200
        lines = list(csv.reader(io.StringIO(body.decode())))
        header = ["rank", "player_id", "name", "points", "played", "wins", "best", first["id"]]
        assert lines[0] == header  # with the names (issue 29: a person reads the sheet)
        names = doc["names"]
        assert lines[1][:4] == ["1", winner, names[winner], "10"]
        assert lines[2][:4] == ["2", loser, names[loser], "6"]
        assert server.get(f"/api/leagues/{made.league}/seasons/nope/standings.json")[0] == 404
    finally:
        await ana_bot.close()
        await bob_bot.close()

    # everything survives a restart; the result is stored once
    server.stop()
    server.start()
    assert server.get_json(f"{url}.json") == doc
    back = await guest(server, "ana-back", ana.token)
    again_league = await league_now(back, ana.token, made.league)
    assert event_of(again_league, "Etape 1")["status"] == "finished"
    assert event_of(again_league, "Etape 2")["status"] == "registering"
    assert again_league.invite == made.invite and again_league.members == 2
    db = sqlite3.connect(server.data / "leagues.sqlite")
    try:
        assert db.execute("SELECT COUNT(*) FROM results").fetchone() == (1,)
    finally:
        db.close()
    assert (server.data / "leagues.sqlite").stat().st_mode & 0o077 == 0
    assert "Traceback" not in server.stderr()
    json.dumps(doc)  # plain JSON all the way down


async def refused_code(client: WsClient, message: m.Message) -> str:
    """The code of the error ``message`` is answered with (it must be refused)."""
    got = await answer(client, message)
    assert isinstance(got, m.Error), got
    return got.code


@pytest.mark.asyncio
async def test_outsiders_pending_and_removed_members_are_refused_on_every_entry_path(
    launch: Launch,
) -> None:
    """Issue 26: an account of no league, a member awaiting approval and a removed member
    each ``register`` for a members-only event (early and late), ``reenter``, register for
    the cup and a night, and are refused with the membership decision's stable code
    (server/league/membership.py); a satellite's ticket of a member removed while he played
    it does not enter him (the ticket says why), the owner's does."""
    server = launch(clock_speed=CLOCK, max_registrations_per_address=0)
    ana_bot, ana = await member_bot(server, "ana")  # the owner
    bob_bot, bob = await member_bot(server, "bob")  # admitted, then removed
    cat_bot, cat = await member_bot(server, "cat")  # asks, never admitted
    dan_bot, dan = await member_bot(server, "dan")  # never in the league
    for bot in (cat_bot, dan_bot):
        await bot.close()
    desk = await guest(server, "ana-desk", ana.token)
    conns = {
        login: await guest(server, f"{login}-desk", account.token)
        for login, account in (("bob", bob), ("cat", cat), ("dan", dan))
    }
    try:
        made = await answer(desk, m.LeagueCreate(member=ana.token, name="Club", approval=True))
        assert isinstance(made, m.League) and made.invite
        lid = made.league
        for login, account in (("bob", bob), ("cat", cat)):
            asked = await answer(
                conns[login], m.LeagueJoin(member=account.token, invite=made.invite, id=2)
            )
            assert isinstance(asked, m.League) and asked.role == "pending", asked
        admitted = await answer(
            desk, m.LeagueRole(member=ana.token, league=lid, target=bob.member, role="member")
        )
        assert isinstance(admitted, m.League), admitted
        season = await answer(
            desk, m.SeasonCreate(member=ana.token, league=lid, name="S", points="places:3,1")
        )
        assert isinstance(season, m.League), season
        sid = str(season.seasons[0]["id"])
        soon, later = int(time.time()) + 4, int(time.time()) + 3600

        def create(name: str, at: int, **more: Any) -> m.LeagueEventCreate:
            fields: dict[str, Any] = {"structure": STRUCTURE, "requires_account": True}
            fields.update(more)
            return m.LeagueEventCreate(
                member=ana.token, league=lid, season=sid, name=name, starts_at=at, **fields
            )

        for message in (
            create("Finale", later),
            create("Coupe", later, kind="cup", structure=""),
            create("Mercredi", later, kind="sit_and_go", structure="fpc_sit_and_go", night=True),
        ):
            assert isinstance(await answer(desk, message), m.League)
        final_id = event_of(await league_now(desk, ana.token, lid), "Finale")["id"]
        got = await answer(
            desk, create("Sat", soon, kind="satellite", seats="per:1", satellite_of=final_id)
        )
        assert isinstance(got, m.League), got
        tid = {name: event_of(got, name)["tournament"] for name in ("Finale", "Coupe", "Mercredi")}
        sat = event_of(got, "Sat")["tournament"]
        # the owner and bob, still a member, play the satellite (each entry a seat)
        await ana_bot.register(sat, timeout=10)
        bobs_entry = await bob_bot.register(sat, timeout=10)
        playing = asyncio.ensure_future(
            asyncio.gather(ana_bot.play_tournament(), bob_bot.play_tournament())
        )

        async def codes(
            tournament: str, path: str, who: tuple[str, ...] = ("bob", "cat", "dan")
        ) -> dict[str, str]:
            out = {}
            for login in who:
                conn = conns[login]
                message: m.Message = m.Register(tournament=tournament, id=conn.next_id())
                if path == "reenter":
                    token = bobs_entry.token if login == "bob" else "x"
                    message = m.Reenter(tournament=tournament, token=token, id=conn.next_id())
                out[login] = await refused_code(conn, message)
            return out

        # before the removal: the pending member and the outsider are refused early
        early = await codes(tid["Finale"], "register", ("cat", "dan"))
        assert early == {"cat": "league.awaiting_approval", "dan": "league.not_member"}
        removed = await answer(
            desk, m.LeagueRole(member=ana.token, league=lid, target=bob.member, role="none")
        )
        assert isinstance(removed, m.League), removed
        expected = {
            "bob": "league.not_member",
            "cat": "league.awaiting_approval",
            "dan": "league.not_member",
        }
        for name in ("Finale", "Coupe", "Mercredi"):  # register early, the cup, a night
            assert await codes(tid[name], "register") == expected, name
        await wait_status(desk, ana.token, lid, "Sat", "running", 20)
        assert await codes(sat, "register") == expected  # a late registration
        assert await codes(sat, "reenter") == expected  # a re-entry (bob with his own token)
        # the satellite ends: ana's ticket enters her in the final, bob's says why not
        await wait_status(desk, ana.token, lid, "Sat", "finished", 60)
        final = event_of(await league_now(desk, ana.token, lid), "Finale")
        assert final["ticket"]["registered"] is True and final["ticket"]["note"] == ""
        await asyncio.wait_for(playing, 30)
    finally:
        await ana_bot.close()
        await bob_bot.close()
    server.stop()
    db = sqlite3.connect(server.data / "leagues.sqlite")
    notes = dict(db.execute("SELECT player, note FROM tickets").fetchall())
    db.close()
    assert notes == {ana.member: "", bob.member: "not entered: members of the league only"}


@pytest.mark.asyncio
async def test_leagues_and_events_are_bounded_per_account_and_league(launch: Launch) -> None:
    """Issue 26: "one new account scheduled 300 events (each a tournament held in memory and
    listed publicly) in 14 s". An account owns 5 leagues at most, a league has 40 events not
    played yet at most (server/league/model.py): past them ``league.limit``, nothing made."""
    server = launch()
    bot, ana = await member_bot(server, "ana")
    await bot.close()
    desk = await guest(server, "ana-desk", ana.token)
    made = [
        await answer(desk, m.LeagueCreate(member=ana.token, name=f"L{n}", id=n)) for n in range(5)
    ]
    assert all(isinstance(x, m.League) for x in made), made
    assert await refused_code(desk, m.LeagueCreate(member=ana.token, name="L5", id=9)) == (
        "league.limit"
    )
    listed = await answer(desk, m.LeagueList(member=ana.token, id=10))
    assert isinstance(listed, m.Leagues) and len(listed.leagues) == 5
    lid = made[0].league  # type: ignore[union-attr]
    season = await answer(
        desk, m.SeasonCreate(member=ana.token, league=lid, name="S", points="places:1", id=11)
    )
    assert isinstance(season, m.League), season
    sid = str(season.seasons[0]["id"])
    start = int(time.time()) + 7 * 86400

    def weekly(n: int) -> m.LeagueEventCreate:
        return m.LeagueEventCreate(
            member=ana.token, league=lid, season=sid, name=f"Semaine {n}", structure=STRUCTURE,
            starts_at=start + n * 7 * 86400, requires_account=True, id=100 + n,
        )  # fmt: skip

    for n in range(40):  # a weekly event, nine months ahead
        got = await answer(desk, weekly(n))
        assert isinstance(got, m.League), got
    assert await refused_code(desk, weekly(40)) == "league.limit"
    view = await league_now(desk, ana.token, lid)
    assert len(view.seasons[0]["events"]) == 40
    assert "Traceback" not in server.stderr()
