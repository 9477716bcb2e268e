"""A league's five-card draw cash season on a real server (issue 31): opened over the wire
with ``game: "draw"`` (its capital the draw section's 50,000), refused with stable codes for
bad terms, its tables draw tables only, and a member's hold'em play beside it leaves his draw
account and the draw standings untouched.

fpc: « Les caves sont spécifiques à chaque jeu »; LE FIVE-CARD DRAW: « Chaque adhérent se
voit attribuer un capital de départ de 50 000 jetons »."""

from __future__ import annotations

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_league_cash import buy, member, standings, table
from .test_leagues import answer


@pytest.mark.asyncio
async def test_a_draw_season_beside_a_hold_em_season(launch: Launch) -> None:
    server = launch()
    ana, account = await member(server, "ana")
    made = await answer(ana, m.LeagueCreate(member=account.token, name="Club", id=2))
    assert isinstance(made, m.League)

    async def season(name: str, **terms: str) -> m.Message:
        message = m.SeasonCreate(
            member=account.token, league=made.league, name=name, points="capital",
            id=ana.next_id(), **terms,
        )  # fmt: skip
        return await answer(ana, message)

    refused = await season("x", game="stud")
    assert isinstance(refused, m.Error) and refused.code == "league.bad_game"
    refused = await season("x", game="draw", structure="spread")
    assert isinstance(refused, m.Error) and refused.code == "league.bad_betting"
    draw = await season("Draw", game="draw")
    assert isinstance(draw, m.League)
    [opened] = draw.seasons
    assert (opened["game"], opened["structure"], opened["capital"]) == ("draw", "no_limit", 50_000)
    holdem = await season("Cash")
    assert isinstance(holdem, m.League)
    cash = holdem.seasons[1]
    assert (cash["game"], cash["capital"]) == ("holdem", 40_000)

    # a draw season's tables deal draw: a hold'em table there is refused
    draw_ref = f"{made.league}/{opened['id']}"
    refused = await answer(
        ana,
        m.CreateTable(name="x", profile="fpc", game="cash", season=draw_ref, id=ana.next_id()),
    )
    assert isinstance(refused, m.Error) and refused.code == "league.bad_game"

    # she plays hold'em: her hold'em account moves, her draw account does not
    one = await table(ana, f"{made.league}/{cash['id']}", "Mardi")
    assert isinstance(await buy(ana, one, 1, 5000), m.Seated)
    rows = standings(server, made.league, cash["id"])["standings"]
    assert [(r["name"], r["capital"]) for r in rows] == [("ana", 40_000)]
    assert standings(server, made.league, opened["id"])["standings"] == []
