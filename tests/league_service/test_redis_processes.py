"""Leagues across two ``python -m server --redis`` processes sharing a real Redis (issue 15,
"Redis mode"): a league created on one is joined and given a season on the other; an event
created on one is run by the other after its restart (a guest refused where an account is
required, a member entered from there), starts at its time once, and its result is stored
once and served by both."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bots.client import Bot
from protocol import messages as m
from tests.integration.test_leagues import (
    PASSWORD,
    STRUCTURE,
    Shove,
    answer,
    event_of,
    guest,
    league_now,
    wait_status,
)
from tests.integration.wsclient import OPEN, Server

CLOCK = 400


@pytest.fixture
def pair(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[list[Server]]:
    servers = [
        Server(
            tmp_path / name,
            clock_speed=CLOCK,
            redis=redis_url,
            redis_prefix=redis_prefix,
            process_id=name,
        )
        for name in ("a", "b")
    ]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


async def member_bot(server: Server, login: str, urls: list[str]) -> tuple[Bot, m.Account]:
    bot = Bot(server.url, Shove(), nickname=login, urls=urls)
    await bot.connect()
    account = await bot.request(
        m.AccountRegister(login=login, password=PASSWORD, id=900),
        lambda x: isinstance(x, m.Account),
        30,
        ref=900,
    )
    assert isinstance(account, m.Account)
    return bot, account


@pytest.mark.asyncio
async def test_a_league_event_runs_across_two_processes_and_is_stored_once(
    pair: list[Server], redis_url: str, redis_prefix: str
) -> None:
    a, b = pair
    urls = [a.url, b.url]
    bots: list[Bot] = []
    try:
        ana_bot, ana = await member_bot(a, "ana", urls)
        bots.append(ana_bot)
        bob_bot, bob = await member_bot(b, "bob", urls)
        bots.append(bob_bot)
        desk = await guest(a, "ana-desk", ana.token)
        # a league made on a is joined on b, and given a season there
        made = await answer(desk, m.LeagueCreate(member=ana.token, name="Les Potes", id=1))
        assert isinstance(made, m.League) and made.invite
        bobs = await guest(b, "bob-desk", bob.token)
        joined = await answer(bobs, m.LeagueJoin(member=bob.token, invite=made.invite, id=2))
        assert isinstance(joined, m.League) and joined.members == 2, joined
        ana_b = await guest(b, "ana-on-b", ana.token)
        opened = await answer(
            ana_b,
            m.SeasonCreate(
                member=ana.token, league=made.league, name="2026", points="places:10,6", id=3
            ),
        )
        assert isinstance(opened, m.League), opened
        season = opened.seasons[0]["id"]
        # an event made on a
        starts_at = int(time.time()) + 12
        scheduled = await answer(
            desk,
            m.LeagueEventCreate(
                member=ana.token,
                league=made.league,
                season=season,
                name="Etape 1",
                structure=STRUCTURE,
                starts_at=starts_at,
                requires_account=True,
                id=4,
            ),
        )
        assert isinstance(scheduled, m.League), scheduled
        event = event_of(scheduled, "Etape 1")
        tid = event["tournament"]
        # b runs it from the first request for it there (before, a process ran a tournament
        # another one made only from its own next start)
        mark = len(bobs.messages)
        await bobs.send(m.FollowTournament(tournament=tid))
        seen = await bobs.wait_for(lambda x: isinstance(x, m.TournamentState | m.Error), 10, mark)
        assert isinstance(seen, m.TournamentState) and seen.tournament == tid, seen
        assert event_of(await league_now(bobs, bob.token, made.league), "Etape 1")["status"] == (
            "registering"
        )
        for client in list(OPEN):  # b restarts: its connections end
            if client is not desk:
                await client.close()
        await bob_bot.close()
        bots.remove(bob_bot)

        # b restarted: it runs the tournament too, and refuses guests as a does
        b.stop()
        b.start()
        stranger = await guest(b, "stranger")
        no = await answer(stranger, m.Register(tournament=tid, id=5))
        assert isinstance(no, m.Error) and no.code == "league.account_required", no
        cat_bot, cat = await member_bot(b, "cat", urls)
        bots.append(cat_bot)
        cats = await guest(b, "cat-desk", cat.token)  # members only: cat joins first
        cat_joined = await answer(cats, m.LeagueJoin(member=cat.token, invite=made.invite, id=6))
        assert isinstance(cat_joined, m.League) and cat_joined.role == "member", cat_joined
        for bot, account in ((ana_bot, ana), (cat_bot, cat)):
            entered = await bot.register(tid, timeout=10)
            assert entered.player == f"m.{account.member}"
        assert time.time() < starts_at, "the registrations came too late to test the start"

        played = await asyncio.wait_for(
            asyncio.gather(ana_bot.play_tournament(), cat_bot.play_tournament()), 90
        )
        assert all(played)
        done = await wait_status(desk, ana.token, made.league, "Etape 1", "finished", 40)
        assert event_of(done, "Etape 1")["note"] == ""
    finally:
        for bot in bots:
            await bot.close()
        for client in list(OPEN):
            await client.close()

    # one result, served alike by both processes
    url = f"/api/leagues/{made.league}/seasons/{season}/standings.json"
    doc = a.get_json(url)
    assert doc == b.get_json(url)
    assert sorted(r["player_id"] for r in doc["standings"]) == sorted([ana.member, cat.member])
    assert sorted(r["points"] for r in doc["standings"]) == [6, 10]
    shared = redis.Redis.from_url(redis_url)
    try:
        assert shared.smembers(f"{redis_prefix}:league:results:{season}") == {event["id"].encode()}
        assert shared.smembers(f"{redis_prefix}:league:status:finished") == {event["id"].encode()}
        assert shared.smembers(f"{redis_prefix}:league:status:running") == set()
    finally:
        shared.close()
    for server in pair:
        assert "not started" not in server.stderr() and "Traceback" not in server.stderr()
