"""A league's administration over the wire (issue 15, docs/leagues.md): the owner appoints a
director (who may then schedule and cancel events) and makes him a member again; nobody else
may; an event that has not started is cancelled (its registration refused since, its time
passed without a start); a started one may not be; and a member's leagues are listed from
any connection of his (not only the browser that created or joined them), with his roles."""

from __future__ import annotations

import asyncio
import time

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_leagues import answer, event_of, guest, member_bot

STRUCTURE = "tour_des_potes_bb_ante"


@pytest.mark.asyncio
async def test_directors_cancellations_and_a_members_leagues(launch: Launch) -> None:
    server = launch()
    _, ana = await member_bot(server, "ana")
    _, bob = await member_bot(server, "bob")
    _, cat = await member_bot(server, "cat")
    desk = await guest(server, "ana-desk", ana.token)
    bobs = await guest(server, "bob-desk", bob.token)
    made = await answer(desk, m.LeagueCreate(member=ana.token, name="Les Potes", id=1))
    assert isinstance(made, m.League)
    other = await answer(desk, m.LeagueCreate(member=ana.token, name="Le Club", id=2))
    assert isinstance(other, m.League)
    for n, account in ((3, bob), (4, cat)):
        joined = await answer(bobs, m.LeagueJoin(member=account.token, invite=made.invite, id=n))
        assert isinstance(joined, m.League)
    season = await answer(
        desk,
        m.SeasonCreate(
            member=ana.token, league=made.league, name="2026", points="places:3,2", id=5
        ),
    )
    assert isinstance(season, m.League)
    sid = season.seasons[0]["id"]

    def event(member: str, name: str, ref: int, ahead: int = 600) -> m.LeagueEventCreate:
        return m.LeagueEventCreate(
            member=member, league=made.league, season=sid, name=name, kind="tournament",
            structure=STRUCTURE, starts_at=int(time.time()) + ahead, id=ref,
        )  # fmt: skip

    # a member may not schedule, nor appoint; the owner appoints bob
    no = await answer(bobs, event(bob.token, "Etape bob", 6))
    assert isinstance(no, m.Error) and no.code == "league.forbidden"
    role = m.LeagueRole(
        member=bob.token, league=made.league, target=cat.member, role="director", id=7
    )
    no = await answer(bobs, role)
    assert isinstance(no, m.Error) and no.code == "league.forbidden"
    for target, wrong in ((ana.member, "director"), ("nobody", "director"), (cat.member, "owner")):
        bad = m.LeagueRole(member=ana.token, league=made.league, target=target, role=wrong, id=8)
        no = await answer(desk, bad)
        assert isinstance(no, m.Error) and no.code == "league.forbidden", (target, wrong)
    yes = await answer(
        desk,
        m.LeagueRole(
            member=ana.token, league=made.league, target=bob.member, role="director", id=9
        ),
    )
    assert isinstance(yes, m.League)
    # the owner sees who is who (he appoints); nobody else does
    assert [(p["name"], p["role"]) for p in yes.people] == [
        ("ana", "owner"),
        ("bob", "director"),
        ("cat", "member"),
    ]
    assert {p["member"] for p in yes.people} == {ana.member, bob.member, cat.member}
    # bob directs now: he schedules two events, sees their console tokens, cancels one
    scheduled = await answer(bobs, event(bob.token, "Etape 1", 10))
    assert isinstance(scheduled, m.League) and scheduled.role == "director"
    # a director sees who is who too (he admits the requests to join)
    assert [p["role"] for p in scheduled.people] == ["owner", "director", "member"]
    scheduled = await answer(bobs, event(bob.token, "Etape 2", 11, ahead=3))
    assert isinstance(scheduled, m.League)
    first, second = event_of(scheduled, "Etape 1"), event_of(scheduled, "Etape 2")
    assert first["director"] and first["status"] == "registering"
    cancelled = await answer(
        bobs, m.LeagueEventCancel(member=bob.token, league=made.league, event=first["id"], id=12)
    )
    assert isinstance(cancelled, m.League)
    gone = event_of(cancelled, "Etape 1")
    assert gone["status"] == "cancelled" and "cancelled" in gone["note"]
    cats = await guest(server, "cat-desk", cat.token)
    no = await answer(cats, m.Register(tournament=first["tournament"], id=13))
    assert isinstance(no, m.Error) and no.code == "out_of_range"
    no = await answer(
        bobs, m.LeagueEventCancel(member=bob.token, league=made.league, event=first["id"], id=14)
    )
    assert isinstance(no, m.Error) and no.code == "league.bad_transition"
    # back to member: bob may not cancel the other event
    yes = await answer(
        desk,
        m.LeagueRole(member=ana.token, league=made.league, target=bob.member, role="member", id=15),
    )
    assert isinstance(yes, m.League)
    no = await answer(
        bobs, m.LeagueEventCancel(member=bob.token, league=made.league, event=second["id"], id=16)
    )
    assert isinstance(no, m.Error) and no.code == "league.forbidden"
    # a started event plays to its end: « Etape 2 » starts with two registered
    for client, ref in ((desk, 17), (cats, 18)):
        entered = await answer(client, m.Register(tournament=second["tournament"], id=ref))
        assert isinstance(entered, m.Registered), entered
    deadline = time.monotonic() + 20
    while (
        event_of(
            await answer(desk, m.LeagueGet(member=ana.token, league=made.league, id=19)), "Etape 2"
        )["status"]
        != "running"
    ):
        assert time.monotonic() < deadline
        await asyncio.sleep(0.3)
    no = await answer(
        desk, m.LeagueEventCancel(member=ana.token, league=made.league, event=second["id"], id=20)
    )
    assert isinstance(no, m.Error) and no.code == "league.bad_transition"

    # the leagues of each member, from a new connection of his
    fresh = await guest(server, "ana-phone", ana.token)
    mine = await answer(fresh, m.LeagueList(member=ana.token, id=21))
    assert isinstance(mine, m.Leagues)
    assert [(x["name"], x["role"]) for x in mine.leagues] == [
        ("Les Potes", "owner"),
        ("Le Club", "owner"),
    ]
    theirs = await answer(bobs, m.LeagueList(member=bob.token, id=22))
    assert isinstance(theirs, m.Leagues)
    assert [(x["name"], x["role"], x["members"]) for x in theirs.leagues] == [
        ("Les Potes", "member", 3)
    ]
    forged = await answer(fresh, m.LeagueList(member="not-a-token", id=23))
    assert isinstance(forged, m.Error) and forged.code == "bad_token"
