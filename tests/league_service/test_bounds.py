"""Issue 26's bounds, in a gateway without sockets (server/league/model.py ``check_bounds``,
called where leagues and events are created: server/league_service/desk.py ``_create``,
league_events.py ``schedule``): past each bound the request is refused ``league.limit`` and
nothing is created. The bounds are made small here (monkeypatched) to stay fast; the real
numbers are checked on a real server in tests/integration/test_leagues.py."""

from __future__ import annotations

import datetime

import pytest

from protocol import messages as m
from server.league import model
from server.league.model import EventStatus, EventStep, advance, check_bounds

from .test_desk import World, league_with_season, schedule


def at(hours: int) -> int:
    return int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600 * hours


def test_the_pure_bounds() -> None:
    check_bounds(leagues_owned=model.MAX_LEAGUES_OWNED - 1)
    check_bounds(season_events=model.MAX_SEASON_EVENTS - 1, pending_events=0)
    for counts in (
        {"leagues_owned": model.MAX_LEAGUES_OWNED},
        {"season_events": model.MAX_SEASON_EVENTS},
        {"pending_events": model.MAX_PENDING_EVENTS},
    ):
        with pytest.raises(model.LeagueRefusal) as refused:
            check_bounds(**counts)
        assert refused.value.code == "league.limit"
    # a year of a daily event fits a season; a weekly event fits nine months ahead
    assert model.MAX_SEASON_EVENTS >= 366 and model.MAX_PENDING_EVENTS >= 39


def test_an_account_owns_a_bounded_number_of_leagues(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "MAX_LEAGUES_OWNED", 2)
    w = World()
    made = [w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name=f"L{n}")) for n in (1, 2)]
    assert w.refused("ana", m.LeagueCreate(member=w.tokens["ana"], name="L3")) == "league.limit"
    assert [x.id for x in w.leagues.leagues_of("id-ana")] == [x.league for x in made]
    # being a member of others' leagues does not count; another account has his own bound
    assert made[0].invite is not None
    w.ask("bob", m.LeagueJoin(member=w.tokens["bob"], invite=made[0].invite))
    w.ask("bob", m.LeagueCreate(member=w.tokens["bob"], name="B1"))
    w.ask("bob", m.LeagueCreate(member=w.tokens["bob"], name="B2"))
    assert w.refused("bob", m.LeagueCreate(member=w.tokens["bob"], name="B3")) == "league.limit"


@pytest.mark.asyncio
async def test_events_not_played_yet_are_bounded_per_league(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model, "MAX_PENDING_EVENTS", 3)
    w = World()
    made, season = league_with_season(w)
    # a second season of the same league: the bound is the league's
    second = w.ask(
        "ana",
        m.SeasonCreate(member=w.tokens["ana"], league=made.league, name="T", points="places:1"),
    )
    other = next(s["id"] for s in second.seasons if s["id"] != season)
    for n in range(2):
        schedule(w, made.league, season, f"E{n}", at(n + 1))
    schedule(w, made.league, other, "T0", at(5))
    tournaments = set(w.g.tournaments)
    assert w.refused("ana", schedule_message(w, made.league, other, "T1", at(6))) == (
        "league.limit"
    )
    assert set(w.g.tournaments) == tournaments  # no tournament made
    assert [e.name for e in w.leagues.events(other)] == ["T0"]
    # one played (or cancelled): room for one more
    first = w.leagues.events(season)[0]
    w.g.leagues.events.cancel(advance(first, EventStep.CANCEL, "test"))
    assert w.leagues.event(first.id).status is EventStatus.CANCELLED  # type: ignore[union-attr]
    schedule(w, made.league, other, "T1", at(6))
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_a_season_s_events_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "MAX_SEASON_EVENTS", 2)
    w = World()
    made, season = league_with_season(w)
    for n in range(2):
        schedule(w, made.league, season, f"E{n}", at(n + 1))
    for kind in ({}, {"kind": "cup", "structure": ""}):  # every kind counts
        message = schedule_message(w, made.league, season, "E2", at(3), **kind)
        assert w.refused("ana", message) == "league.limit"
    assert len(w.leagues.events(season)) == 2
    w.g.leagues.close()


def schedule_message(
    w: World, league: str, season: str, name: str, starts: int, **more: object
) -> m.LeagueEventCreate:
    fields: dict[str, object] = {"structure": "tour_des_potes_bb_ante", "requires_account": True}
    fields.update(more)
    return m.LeagueEventCreate(
        member=w.tokens["ana"],
        league=league,
        season=season,
        name=name,
        starts_at=starts,
        **fields,  # type: ignore[arg-type]
    )
