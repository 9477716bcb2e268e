"""A league's cash season on a real server (issue 14's fpc capital over a season, on issue
15's accounts and leagues): the capital follows the member across the season's tables, a
buy-in beyond it is refused, a lost capital bars cash play, and the season's standings are
the members' capitals, kept across a restart.

fpc cash: « Chaque adhérent se voit attribuer un capital de départ … Ses gains et ses pertes
feront évoluer son capital et ainsi donnera le classement général. L'adhérent ayant perdu la
totalité de son capital ne pourra plus participer aux sessions de Cash Game. » and « Le
joueur ne peut en aucun cas engager une valeur de jetons supérieure à son capital. »"""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_leagues import answer, guest
from .wsclient import Player, Server, WsClient

PASSWORD = "la bonne main 2026"
START = 1500  # "capital:1500": small enough to be lost in a few all-ins


async def member(server: Server, login: str) -> tuple[WsClient, m.Account]:
    client = await guest(server, login)
    account = await answer(client, m.AccountRegister(login=login, password=PASSWORD, id=1), 30)
    assert isinstance(account, m.Account), account
    return client, account


async def table(client: WsClient, season: str, name: str) -> m.TableCreated:
    made = await answer(
        client,
        m.CreateTable(
            name=name, profile="fpc", sb=25, bb=50, game="cash", max_seats=6,
            action_seconds=2, season=season, id=client.next_id(), hours="always",
        ),
    )  # fmt: skip
    assert isinstance(made, m.TableCreated), made
    return made


async def buy(client: WsClient, made: m.TableCreated, seat: int, amount: int) -> m.Message:
    mark = len(client.messages)
    await client.send(m.JoinTable(table=made.table))
    await client.send(m.TakeSeat(table=made.table, seat=seat, token=made.invite, buy_in=amount))
    return await client.wait_for(
        lambda x: (
            isinstance(x, m.Seated | m.Error) and getattr(x, "table", made.table) == made.table
        ),
        10,
        mark,
    )


def standings(server: Server, league: str, season: str) -> dict[str, Any]:
    return server.get_json(f"/api/leagues/{league}/seasons/{season}/standings.json")


def allin(player: Player, rng: Any) -> tuple[str, int | None]:
    return "allin", None


@pytest.mark.asyncio
async def test_the_capital_follows_the_member_across_the_seasons_tables(launch: Launch) -> None:
    server = launch()
    ana, ana_account = await member(server, "ana")
    bob, bob_account = await member(server, "bob")
    made = await answer(ana, m.LeagueCreate(member=ana_account.token, name="Club", id=2))
    assert isinstance(made, m.League) and made.invite
    joined = await answer(bob, m.LeagueJoin(member=bob_account.token, invite=made.invite, id=3))
    assert isinstance(joined, m.League)
    league = await answer(
        ana,
        m.SeasonCreate(
            member=ana_account.token, league=made.league, name="2026", points=f"capital:{START}",
            id=4,
        ),
    )  # fmt: skip
    assert isinstance(league, m.League) and league.seasons[0]["capital"] == START
    season = f"{made.league}/{league.seasons[0]['id']}"
    # only the league's directors open its tables; a member may not
    refused = await answer(
        bob,
        m.CreateTable(name="x", profile="fpc", game="cash", season=season, id=bob.next_id()),
    )
    assert isinstance(refused, m.Error) and refused.code == "league.forbidden"
    one = await table(ana, season, "Mardi")
    two = await table(ana, season, "Mardi 2")

    # members only: a guest with the invite is refused
    stranger = await guest(server, "guest")
    refused = await buy(stranger, one, 5, 500)
    assert isinstance(refused, m.Error) and refused.code == "league.account_required"
    # ana brings 1,000 of her 1,500 to table one: 500 is left for table two, not 1,000
    assert isinstance(await buy(ana, one, 1, 1000), m.Seated)
    refused = await buy(ana, two, 1, 1000)
    assert isinstance(refused, m.Error) and refused.code == "cash.capital"
    assert "500" in refused.message
    assert isinstance(await buy(bob, one, 2, 1000), m.Seated)

    # all-in every hand until one of them has lost his whole buy-in
    Player(ana, allin, seed=1, table=one.table)
    Player(bob, allin, seed=2, table=one.table)
    for _ in range(300):
        rows = {
            r["name"]: r for r in standings(server, made.league, season.split("/")[1])["standings"]
        }
        capitals = sorted(r["capital"] for r in rows.values())
        if capitals in ([START - 1000, START + 1000],):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"no bust: {rows}")
    # the standings: best first, the loser's 500 left; the chips on the table counted
    doc = standings(server, made.league, season.split("/")[1])
    assert [r["capital"] for r in doc["standings"]] == [START + 1000, START - 1000]
    loser = doc["standings"][1]["name"]
    loser_client = ana if loser == "ana" else bob
    # the loser's 500 may go to table two, not more
    refused = await buy(loser_client, two, 3, 1000)
    assert isinstance(refused, m.Error) and refused.code == "cash.capital"
    status, body = server.get(
        f"/api/leagues/{made.league}/seasons/{season.split('/')[1]}/standings.csv"
    )
    rows_csv = list(csv.DictReader(io.StringIO(body.decode())))
    assert status == 200 and [int(r["capital"]) for r in rows_csv] == [START + 1000, START - 1000]

    # a restart: the season's tables come back with their ledgers, the standings with them
    server.stop()
    server.start()
    again = standings(server, made.league, season.split("/")[1])
    assert again["standings"] == doc["standings"]
