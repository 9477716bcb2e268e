"""``league_event_close`` at the desk (issue 29, item 1): only the league's owner and
directors close an event's late registration, and only while it is open; every refusal has
its stable code and changes nothing (the running case, closed and scored, is played end to
end in tests/web/test_league_night_e2e.py)."""

from __future__ import annotations

import datetime

import pytest

from protocol import messages as m

from .test_desk import World, league_with_season, schedule


@pytest.mark.asyncio
async def test_closing_is_the_directors_and_only_once_the_event_runs() -> None:
    w = World()
    made, season = league_with_season(w)  # ana owns it, bob is a member, cat is not
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    event = schedule(w, made.league, season, "Étape 1", at).seasons[0]["events"][0]

    def close(login: str, event_id: str = event["id"]) -> m.LeagueEventClose:
        return m.LeagueEventClose(member=w.tokens[login], league=made.league, event=event_id)

    assert w.refused("bob", close("bob")) == "league.forbidden"
    assert w.refused("cat", close("cat")) == "league.not_member"
    assert w.refused("ana", close("ana", "nope")) == "league.not_found"
    # not started: nothing to close (the director starts it, or cancels it)
    assert w.refused("ana", close("ana")) == "league.bad_transition"
    after = w.ask("ana", m.LeagueGet(member=w.tokens["ana"], league=made.league))
    still = after.seasons[0]["events"][0]
    assert still["status"] == "registering" and still["note"] == ""
    live = w.g.tournaments[event["tournament"]]
    assert live.coordinator is not None and live.coordinator.state()["phase"] == "registering"
    w.g.leagues.close()
