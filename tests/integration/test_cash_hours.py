"""Opening hours of cash tables on a real server (fpc cash: « Les tables ouvrent à partir de
20h00 et ferment à 23h30 précise »): a league's fpc cash season opens its tables at the
book's hours unless its director says otherwise; outside a table's hours a buy-in is refused
with ``cash.closed`` and nothing is written to the ledger. The hours are chosen around the
machine's clock, so that the test means the same at any time of day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_league_cash import START, buy, member
from .test_leagues import answer


def window(start: timedelta, end: timedelta) -> str:
    """Hours ``HH:MM-HH:MM`` in UTC from now + ``start`` to now + ``end``."""
    now = datetime.now(UTC)
    return f"{now + start:%H:%M}-{now + end:%H:%M}"


@pytest.mark.asyncio
async def test_a_season_table_has_the_books_hours_and_a_closed_table_sells_no_chips(
    launch: Launch,
) -> None:
    server = launch()
    ana, account = await member(server, "ana")
    bob, bob_account = await member(server, "bob")
    made = await answer(ana, m.LeagueCreate(member=account.token, name="Club", id=2))
    assert isinstance(made, m.League)
    joined = await answer(bob, m.LeagueJoin(member=bob_account.token, invite=made.invite, id=3))
    assert isinstance(joined, m.League)
    league = await answer(
        ana,
        m.SeasonCreate(
            member=account.token, league=made.league, name="2026", points=f"capital:{START}",
            id=4,
        ),
    )  # fmt: skip
    assert isinstance(league, m.League)
    season = f"{made.league}/{league.seasons[0]['id']}"

    async def table(name: str, **hours: str) -> m.TableCreated:
        created = await answer(
            ana,
            m.CreateTable(
                name=name, profile="fpc", sb=25, bb=50, game="cash", max_seats=6,
                season=season, id=ana.next_id(), **hours,
            ),
        )  # fmt: skip
        assert isinstance(created, m.TableCreated), created
        return created

    book = await table("Mardi")
    snap = await answer(ana, m.JoinTable(table=book.table))  # its creator holds its invite
    assert isinstance(snap, m.Snapshot), snap
    assert (snap.state["cash"]["hours"], snap.state["cash"]["zone"]) == (
        "20:00-23:30",
        "Europe/Paris",
    )
    # closed: opens in two hours (UTC); the buy-in is refused and writes nothing
    later = await table(
        "Plus tard", hours=window(timedelta(hours=2), timedelta(hours=3)), zone="UTC"
    )
    refused = await buy(bob, later, 1, 500)
    assert isinstance(refused, m.Error) and refused.code == "cash.closed", refused
    status, ledger = server.get(f"/api/tables/{later.table}/ledger.csv?t={later.invite}")
    assert status == 200 and b",buy_in," not in ledger
    # open now (from an hour ago to an hour from now): seated
    now = await table(
        "Maintenant", hours=window(-timedelta(hours=1), timedelta(hours=1)), zone="UTC"
    )
    seated = await buy(bob, now, 1, 500)
    assert isinstance(seated, m.Seated), seated
    # hours that are none are refused at creation
    bad = await answer(
        ana,
        m.CreateTable(
            name="x",
            profile="fpc",
            game="cash",
            season=season,
            hours="25:00-26:00",
            id=ana.next_id(),
        ),
    )
    assert isinstance(bad, m.Error) and bad.code == "out_of_range"
