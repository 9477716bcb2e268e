"""A league's heads-up cup across two ``python -m server --redis`` processes sharing a real
Redis (issue 15, "events run across processes"; fpc part C « LA COUPE HEADS-UP »).

Five members with accounts, their bots on either process. The cup is made on ``a``; the
members register on both at once (each counted once, nobody lost); it is drawn at its time;
each member joins his games on his own process, whichever process made them. Once the 1er
tour is over, ``a`` is killed (-9) with games in play: ``b`` takes them over where they were
(Redis tournaments: the director and the tables move to it, the bots reconnect and follow
their seats) and moves the bracket on alone; ``a`` comes back later. At the end every
allocated game was played once (none cut and replayed: ``next_game`` equals the games the
scores count), every match is decided by its games, and the result is stored once and
served alike by both processes."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import WebSocketException

from bots.client import Bot
from bots.connection import BotError
from protocol import messages as m
from server.league.cup import Bracket
from tests.integration.test_league_cup import _state
from tests.integration.test_leagues import (
    PASSWORD,
    Shove,
    answer,
    event_of,
    guest,
    league_now,
    league_with_season,
)
from tests.integration.wsclient import OPEN, Server, WsClient

from .test_redis_processes import member_bot

CLOCK = 50
LOGINS = ("ana", "bob", "cat", "dan", "eve")


@pytest.fixture
def pair(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[list[Server]]:
    servers = [
        Server(
            tmp_path / name,
            clock_speed=CLOCK,
            redis=redis_url,
            redis_prefix=redis_prefix,
            process_id=name,
            max_registrations_per_address=500,
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


class Spread:
    """Members with accounts, each at home on one of two processes (alternately)."""

    def __init__(self, servers: dict[str, Server], logins: tuple[str, ...]) -> None:
        self.servers = servers
        self.homes = {login: "ab"[k % 2] for k, login in enumerate(logins)}
        self.accounts: dict[str, m.Account] = {}

    async def open_accounts(self) -> dict[str, m.Account]:
        urls = [s.url for s in self.servers.values()]
        for login, home in self.homes.items():
            bot, account = await member_bot(self.servers[home], login, urls)
            self.accounts[login] = account
            await bot.close()
        return self.accounts

    async def register_all(self, tournament: str) -> None:
        """Every member registers for ``tournament`` at the same moment, each on his own
        process: every one is answered ``registered``."""

        async def register(login: str) -> m.Message:
            home = self.servers[self.homes[login]]
            client = await guest(home, f"{login}-reg", self.accounts[login].token)
            got = await answer(client, m.Register(tournament=tournament, id=7))
            await client.close()
            return got

        got = await asyncio.gather(*(register(x) for x in self.homes))
        assert all(isinstance(x, m.Registered) for x in got), got


class Cup:
    """The test's eyes on the cup, from whichever process is up."""

    def __init__(self, desks: dict[str, WsClient], token: str, league: str) -> None:
        self.desks, self.token, self.league = desks, token, league
        self.alive = ["a", "b"]

    async def view(self, on: str | None = None) -> dict[str, Any]:
        desk = self.desks[on or self.alive[-1]]
        return event_of(await league_now(desk, self.token, self.league), "Coupe")


async def play_cup(
    servers: dict[str, Server], cup: Cup, home: str, login: str, member: str, stop: float
) -> int:
    """A member's part: join each game of his match on his own process (the other once his
    is down), until he is out or the cup is over. Returns the games he joined."""
    joined: set[str] = set()
    while time.monotonic() < stop:
        try:
            ev = await cup.view()
        except Exception:  # the process of the desk is going down: ask again
            await asyncio.sleep(0.3)
            continue
        if ev["status"] == "finished":
            return len(joined)
        state = ev["cup"]
        mine = [
            x["match_id"]
            for x in state.get("bracket", {}).get("matches", [])
            if member in x["players"] and x["winner"] is None and None not in x["players"]
        ]
        game = next((state["games"][x] for x in mine if x in state.get("games", {})), None)
        if game is None or game in joined:
            await asyncio.sleep(0.2)
            continue
        joined.add(game)
        where = home if home in cup.alive else cup.alive[-1]
        urls = [servers[where].url, *(s.url for k, s in servers.items() if k != where)]
        bot = Bot(urls[0], Shove(), nickname=login, urls=urls)
        try:
            await bot.connect()
            await bot.request(
                m.AccountLogin(login=login, password=PASSWORD, id=901),
                lambda x: isinstance(x, m.Account),
                30,
                ref=901,
            )
            await bot.register(game, timeout=20)
            # a kill of its process: the bot reconnects to the other and follows its seat
            await asyncio.wait_for(bot.play_tournament(), 90)
        except (BotError, ConnectionError, OSError, EOFError, TimeoutError, WebSocketException):
            joined.discard(game)  # its process went down before it sat: join it again
        finally:
            await bot.close()
    raise AssertionError(f"{login}: the cup did not end")


@pytest.mark.asyncio
async def test_a_cup_runs_across_two_processes_and_survives_the_kill_of_one(
    pair: list[Server], redis_url: str, redis_prefix: str
) -> None:
    a, b = pair
    servers = {"a": a, "b": b}
    spread = Spread(servers, LOGINS)
    homes = spread.homes
    accounts = await spread.open_accounts()
    ana = accounts["ana"]
    desk_a, made, sid = await league_with_season(a, accounts, "ana", "places:3,2,1")
    desk_b = await guest(b, "desk-b", ana.token)
    created = await answer(
        desk_a,
        m.LeagueEventCreate(
            member=ana.token, league=made.league, season=sid, name="Coupe", kind="cup",
            structure="", starts_at=int(time.time()) + 6, id=10,
        ),
    )  # fmt: skip
    assert isinstance(created, m.League), created  # with --redis too
    tid = event_of(created, "Coupe")["tournament"]
    cup = Cup({"a": desk_a, "b": desk_b}, ana.token, made.league)

    # everybody registers at once, on both processes: each counted once
    await spread.register_all(tid)
    assert (await cup.view("a"))["cup"]["registered"] == 5
    assert (await cup.view("b"))["cup"]["registered"] == 5

    deadline = time.monotonic() + 30
    while "bracket" not in (await cup.view("b"))["cup"]:
        assert time.monotonic() < deadline, "not drawn at its time"
        await asyncio.sleep(0.2)

    stop = time.monotonic() + 300
    members = {login: accounts[login].member for login in LOGINS}
    players = [
        asyncio.create_task(play_cup(servers, cup, homes[x], x, members[x], stop)) for x in LOGINS
    ]
    while not (view := (await cup.view())["cup"])["bracket"]["repechage"]:
        assert time.monotonic() < stop
        await asyncio.sleep(0.2)
    # a is killed with the games after the 1er tour in play (made by either process)
    in_play = dict(view["games"])
    assert in_play, view
    cup.alive = ["b"]
    a.kill()
    # the games in play go on under their ids on b: none is replaced
    deadline = time.monotonic() + 60
    while True:
        now = (await cup.view("b"))["cup"]
        moved_on = [x for x, g in in_play.items() if now["games"].get(x) != g]
        assert all(
            x not in now["games"] or _n(now["games"][x]) >= _n(g) for x, g in in_play.items()
        )
        if moved_on:
            break  # a game a directed when killed ended on b, and counted
        assert time.monotonic() < deadline, f"the games of a never ended on b: {now}"
        await asyncio.sleep(0.3)
    a.start()  # back: it serves the cup as b does
    desk_a2 = await guest(a, "desk-a2", ana.token)
    cup.desks["a"] = desk_a2
    cup.alive = ["b", "a"]
    played = await asyncio.wait_for(asyncio.gather(*players), 320)
    assert sum(played) >= 2 * 2 + 2 * 3 + 3 + 3  # at least the fewest games it takes

    ev_a, ev_b = await cup.view("a"), await cup.view("b")
    # each view mints the director's link anew, its expiry in seconds: two views a second
    # apart differ there only
    tokens = ev_a.pop("director", None), ev_b.pop("director", None)
    assert all(tokens) or not any(tokens), tokens
    assert ev_a == ev_b and ev_b["status"] == "finished", ev_b
    final = Bracket.from_state(_state(ev_b["cup"]["bracket"]))
    counted = 0
    for match in final.matches:
        assert match.winner is not None
        if not match.bye:
            assert max(match.score) == match.wins_needed and min(match.score) < match.wins_needed
            counted += sum(match.score)
    shared = redis.Redis.from_url(redis_url)
    try:
        event_id = ev_b["id"]
        raw = shared.get(f"{redis_prefix}:league:state:{event_id}")
        assert raw is not None
        # every game given to a match was played to its end and counted once: none replayed
        assert json.loads(raw)["next_game"] == counted
        assert shared.smembers(f"{redis_prefix}:league:status:finished") == {event_id.encode()}
        assert shared.exists(f"{redis_prefix}:league:r:{event_id}")
    finally:
        shared.close()
    for client in list(OPEN):
        await client.close()
    for server in pair:
        assert "Traceback" not in server.stderr(), server.stderr()[-3000:]


def _n(game: str) -> int:
    """A game's number (``<cup>_g<n>``): a later game of a match has a greater one."""
    return int(game.rpartition("_g")[2])
