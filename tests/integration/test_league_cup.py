"""A league's heads-up cup on a real server (issue 15, fpc part C « LA COUPE HEADS-UP »):
five members with accounts register, the cup is drawn at its time (a 1er tour of two matches
and a bye, a repêchage to fill a bracket of four, semi-finals, the final and the « petite
finale »), each game is a heads-up of 6,000 chips at 100/200 that SDK bots join from the
league's view, a match goes on until first to 2 (1er tour) or first to 3 (from the
semi-finals); the server is killed in the middle and the cup goes on after its restart; at
the end every match is decided by its games, the stored places follow the bracket, and the
season's points standings do not count the cup."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from websockets.exceptions import WebSocketException

from bots.client import Bot
from bots.connection import BotError
from protocol import messages as m
from server.league.cup import Bracket

from .conftest import Launch
from .test_league_season import login_bot
from .test_leagues import answer, event_of, guest, league_now, league_with_season, member_bot
from .wsclient import Server, WsClient

LOGINS = ("ana", "bob", "cat", "dan", "eve")
CLOCK = 50


class Cup:
    """The test's eyes on the cup: the league's view of it, as a member's page reads it."""

    def __init__(self, desk: WsClient, token: str, league: str) -> None:
        self.desk, self.token, self.league = desk, token, league

    async def view(self) -> dict[str, Any]:
        got = await league_now(self.desk, self.token, self.league)
        return event_of(got, "Coupe")


async def play_cup(server: Server, cup: Cup, login: str, member: str, stop: float) -> int:
    """One member's part: join each game of his match as it comes, until he is out of the
    cup or it is over. Returns the games he played."""
    joined: set[str] = set()
    while time.monotonic() < stop:
        try:
            ev = await cup.view()
        except Exception:  # the server is being killed and restarted: ask again
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
        bot: Bot | None = None
        try:
            bot = await login_bot(server, login)
            await bot.register(game)
            await asyncio.wait_for(bot.play_tournament(), 60)
        except (BotError, ConnectionError, OSError, EOFError, TimeoutError, WebSocketException):
            # the server was killed under us (in the handshake, a game...): the game is
            # played again after the restart; the end's checks say whether it all held
            pass
        finally:
            if bot is not None:
                await bot.close()
    raise AssertionError(f"{login}: the cup did not end")


@pytest.mark.asyncio
async def test_a_cup_of_five_is_drawn_played_in_games_and_survives_a_kill(
    launch: Launch,
) -> None:
    server = launch(clock_speed=CLOCK, max_registrations_per_address=500)
    accounts: dict[str, m.Account] = {}
    bots: list[Bot] = []
    for login in LOGINS:
        bot, account = await member_bot(server, login)
        bots.append(bot)
        accounts[login] = account
    ana = accounts["ana"]
    desk, made, sid = await league_with_season(server, accounts, "ana", "places:3,2,1")
    starts = int(time.time()) + 4
    created = await answer(
        desk,
        m.LeagueEventCreate(
            member=ana.token, league=made.league, season=sid, name="Coupe", kind="cup",
            structure="", starts_at=starts, id=10,
        ),
    )  # fmt: skip
    assert isinstance(created, m.League), created
    ev = event_of(created, "Coupe")
    assert ev["kind"] == "cup" and ev["status"] == "registering"

    # registration: members only, once each
    stranger = await guest(server, "stranger")
    refused = await answer(stranger, m.Register(tournament=ev["tournament"], id=1))
    assert isinstance(refused, m.Error) and refused.code == "league.account_required"
    for bot in bots:
        got = await bot.request(
            m.Register(tournament=ev["tournament"], id=77),
            lambda x: isinstance(x, m.Registered | m.Error),
            10,
            ref=77,
        )
        assert isinstance(got, m.Registered), got
        await bot.close()
    cup = Cup(desk, ana.token, made.league)
    assert (await cup.view())["cup"]["registered"] == 5

    # drawn at its time: 2 matches and a bye
    deadline = time.monotonic() + 30
    while "bracket" not in (await cup.view())["cup"]:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.2)
    bracket = (await cup.view())["cup"]["bracket"]
    first = [x for x in bracket["matches"] if x["round"] == "first_round"]
    assert len(first) == 3 and sum(x["bye"] for x in first) == 1
    members = {accounts[x].member: x for x in LOGINS}
    assert set(bracket["players"]) == set(members)
    # a game is its two players': the member with the bye may not take a seat in it
    games = (await cup.view())["cup"]["games"]
    bye = next(x["players"][0] for x in first if x["bye"])
    intruder = await login_bot(server, members[bye])
    with pytest.raises(BotError, match="out_of_range"):
        await intruder.request(
            m.Register(tournament=games["first_round#1"], id=78),
            lambda x: isinstance(x, m.Registered),
            10,
            ref=78,
        )
    await intruder.close()

    # everybody plays; the server is killed once the 1er tour is over, and restarted
    stop = time.monotonic() + 240
    players = [
        asyncio.create_task(play_cup(server, cup, login, accounts[login].member, stop))
        for login in LOGINS
    ]
    while True:
        view = (await cup.view())["cup"]
        if view["bracket"]["repechage"]:
            break
        assert time.monotonic() < stop
        await asyncio.sleep(0.2)
    before = dict(view["games"])
    await desk.close()
    server.kill()
    server.start()
    desk = await guest(server, "desk2", ana.token)
    cup.desk = desk
    # a game cut by the kill is played again under a new id: the old one seats nobody
    for match, old in before.items():
        again = (await cup.view())["cup"]["games"].get(match)
        if again is not None and again != old:
            player = next(x for x in view["bracket"]["matches"] if x["match_id"] == match)
            late = await login_bot(server, members[player["players"][0]])
            with pytest.raises(BotError, match="out_of_range"):
                await late.request(
                    m.Register(tournament=old, id=79),
                    lambda x: isinstance(x, m.Registered),
                    10,
                    ref=79,
                )
            await late.close()
    played = await asyncio.wait_for(asyncio.gather(*players), 250)
    assert sum(played) >= 2 * 2 + 2 * 3 + 3 + 3  # at least the fewest games it takes

    ev = await cup.view()
    assert ev["status"] == "finished", ev
    final = Bracket.from_state(_state(ev["cup"]["bracket"]))
    for match in final.matches:
        assert match.winner is not None  # every match decided by its games
        if not match.bye:
            assert max(match.score) == match.wins_needed and min(match.score) < match.wins_needed
    assert {x.round.value for x in final.matches if x.wins_needed == 3} == {
        "1/2",
        "final",
        "third_place",
    }
    assert len(final.repechage) == 1
    # the stored result is the bracket's places; the points standings leave the cup out
    doc = server.get_json(f"/api/leagues/{made.league}/seasons/{sid}/standings.json")
    assert doc["standings"] == []
    await desk.close()
    for log in server.data.glob("stderr-*.log"):
        assert "Traceback" not in log.read_text(), log.read_text()[-2000:]


def _state(view: dict[str, Any]) -> dict[str, Any]:
    """The bracket's state from the page's view of it (``to_json``)."""
    return {
        "players": view["players"],
        "repechage": view["repechage"],
        "matches": [
            [x["round"], int(x["match_id"].split("#")[1]) - 1, x["players"], x["score"],
             x["wins_needed"], x["bye"]]
            for x in view["matches"]
        ],
    }  # fmt: skip
