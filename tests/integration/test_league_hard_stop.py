"""The hard stop of a league's Sit'n Go on a real server (fpc part C, « LE SIT'N GO »: « Si
les Sit'n Go ne sont pas terminés à 23h45, le classement sera défini par le montant des
stacks des joueurs encore en jeu »): an event playing the fpc Sit'n Go is stopped at 23:45 by
default (its view says so); a director's ``stop`` (what the timer does at 23:45) lets the
hands in play end, deals no other, and ranks the players still in by their chips; the
event's result and the season's points follow that ranking (the fpc Sit'n Go table for six
players)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bots.client import Bot
from bots.strategies import CallingStation
from protocol import messages as m

from .conftest import Launch
from .test_leagues import PASSWORD, answer, event_of, league_now, league_with_season, wait_status

LOGINS = ("ana", "bob", "cat", "dan", "eve", "fay")


@pytest.mark.asyncio
async def test_a_sit_and_go_stopped_ranks_by_stacks_and_scores_the_book_s_points(
    launch: Launch,
) -> None:
    server = launch(clock_speed=20, max_registrations_per_address=100)
    bots: list[Bot] = []
    accounts: dict[str, m.Account] = {}
    for login in LOGINS:
        bot = Bot(server.url, CallingStation(), nickname=login, reconnect=False)
        await bot.connect()
        account = await bot.request(
            m.AccountRegister(login=login, password=PASSWORD, id=900),
            lambda x: isinstance(x, m.Account),
            30,
            ref=900,
        )
        assert isinstance(account, m.Account)
        bots.append(bot)
        accounts[login] = account
    ana = accounts["ana"]
    desk, made, sid = await league_with_season(server, accounts, "ana", "fpc_sit_and_go")
    starts = int(time.time()) + 3
    created = await answer(
        desk,
        m.LeagueEventCreate(
            member=ana.token, league=made.league, season=sid, name="Mercredi", kind="sit_and_go",
            structure="fpc_sit_and_go", starts_at=starts, id=11,
        ),
    )  # fmt: skip
    assert isinstance(created, m.League), created
    event = event_of(created, "Mercredi")
    assert (event["hard_stop"], event["hard_stop_zone"]) == ("23:45", "Europe/Paris")
    tid = event["tournament"]
    for bot in bots:
        await bot.register(tid, timeout=10)
    await wait_status(desk, ana.token, made.league, "Mercredi", "running", 20)
    playing = [asyncio.create_task(bot.play_tournament(60)) for bot in bots]
    await asyncio.sleep(3)  # some hands (calling stations: nobody busts fast)
    director = event_of(await league_now(desk, ana.token, made.league), "Mercredi")["director"]
    await desk.send(m.Direct(tournament=tid, token=director, op="stop", text="23h45"))
    done = await wait_status(desk, ana.token, made.league, "Mercredi", "finished", 30)
    await asyncio.gather(*playing, return_exceptions=True)
    assert event_of(done, "Mercredi")["status"] == "finished"

    results = server.get_json(f"/api/tournaments/{tid}/results.json")["results"]
    assert len(results) == 6
    # the players still in are ranked by their stacks after the last hand (as a bot's
    # mirror of the table has them): more chips, a better place; equal chips, the same
    mirror = next(b.mirror for b in bots if b.mirror is not None and b.mirror.stacks)
    chips = {mirror.players[s]: stack for s, stack in mirror.stacks.items() if stack > 0}
    place = {r["name"]: r["place"] for r in results}
    assert chips and set(chips) <= set(place), (chips, place)
    for a in chips:
        for b in chips:
            if chips[a] > chips[b]:
                assert place[a] < place[b], (chips, place)
            elif chips[a] == chips[b]:
                assert place[a] == place[b], (chips, place)
    assert min(place[p] for p in chips) == 1
    doc = server.get_json(f"/api/leagues/{made.league}/seasons/{sid}/standings.json")
    points = {row["player_id"]: row["points"] for row in doc["standings"]}
    book = {1: 16, 2: 12, 3: 8, 4: 4, 5: 2, 6: 1}  # fpc part C, six players
    for r in results:
        member = r["player_id"].removeprefix("m.")
        if len([x for x in results if x["place"] == r["place"]]) == 1:
            assert points[member] == book[r["place"]], (r, points)
    for bot in bots:
        await bot.close()
    for log in server.data.glob("stderr-*.log"):
        assert "Traceback" not in log.read_text(), log.read_text()[-2000:]
