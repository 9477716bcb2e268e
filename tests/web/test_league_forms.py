"""The directors' event form says what the wire can (issue 15, docs/leagues.md): a satellite's
seats rule, a monthly for the first N of a season's standings only (ligue, « les joueurs
classés »), a hard stop at another time of day than the structure's or none (fpc part C
« Si les Sit'n Go ne sont pas terminés à 23h45 … »), in the browser's time zone. What the
server keeps is what was typed, each line of the page says it, and a rule the server refuses
is shown and creates nothing. A phone (French) and a laptop (English)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Client, WebServer
from .test_league_cup import Member
from .test_leagues import LAPTOP, PHONE, check_layout, create_account, in_the_future, league_server

OpenClient = Callable[..., Client]
__all__ = ["league_server"]


def schedule(page: Any, name: str, kind: str, structure: str, ahead: int = 7200) -> None:
    """Fill the common part of the form: a name, a kind, a structure, its time (two hours
    ahead unless told)."""
    date, clock, _ = in_the_future(page, ahead)
    page.fill("#ev-name", name)
    page.select_option("#ev-kind", kind)
    page.select_option("#ev-structure", structure)
    page.fill("#ev-date", date)
    page.fill("#ev-time", clock)


def events(member: Member, league: str) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for s in member.league(league)["seasons"] for e in s["events"]}


@pytest.mark.parametrize(("locale", "viewport"), [("fr-FR", PHONE), ("en-US", LAPTOP)])
def test_a_director_sets_seats_qualification_and_a_hard_stop_from_the_form(
    league_server: WebServer,
    open_client: OpenClient,
    locale: str,
    viewport: tuple[int, int],
) -> None:
    size = f"{viewport[0]}x{viewport[1]}"
    client = open_client(f"director-{size}", locale, viewport)
    page = client.page
    page.goto(league_server.base + "/")
    login = f"dora_{viewport[0]}"
    create_account(page, login, "Dora")
    session = page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
    dora = Member(league_server.port, "Dora", str(session["token"]), str(session["member"]))
    try:
        made = dora.ask(t="league_create", member=dora.token, name="Ligue du lundi")
        opened = dora.ask(
            t="season_create", member=dora.token, league=made["league"], name="2027",
            points="places:10,6,3",
        )  # fmt: skip
        sid = opened["seasons"][0]["id"]
        page.goto(f"{league_server.base}/?league={made['league']}")
        page.wait_for_selector("#lg-event-panel", state="visible")
        zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")

        # the target, stopped at 22:30 by the director's choice
        schedule(page, "Finale", "tournament", "ligue_daily")
        assert page.locator("#ev-stop-time-box").is_hidden()
        page.select_option("#ev-stop-mode", "at")
        page.fill("#ev-stop", "22:30")
        page.click("#ev-create")
        page.wait_for_selector(".lg-event:has-text('Finale') .lg-hard-stop")
        # a satellite into it (an hour before it), one seat per two entries
        schedule(page, "Satellite", "satellite", "ligue_daily", 3600)
        assert page.locator("#ev-seats-box").is_visible()
        page.select_option("#ev-target", label="Finale")
        page.fill("#ev-seats", "per:2")
        page.click("#ev-create")
        page.wait_for_selector(".lg-event:has-text('Satellite') .lg-seats")
        # a monthly for the first 3 of the season
        schedule(page, "Mensuel", "monthly", "ligue_daily")
        assert page.locator("#ev-qualified-season-box").is_hidden()
        page.fill("#ev-qualified", "3")
        page.wait_for_selector("#ev-qualified-season-box", state="visible")
        assert page.input_value("#ev-qualified-season") == sid
        page.click("#ev-create")
        page.wait_for_selector(".lg-event:has-text('Mensuel') .lg-qualified")
        # an fpc Sit'n Go without its 23:45 stop
        schedule(page, "SNG libre", "sit_and_go", "fpc_sit_and_go")
        page.select_option("#ev-stop-mode", "none")
        page.click("#ev-create")
        page.wait_for_selector(".lg-event:has-text('SNG libre')")
        # a seats rule the server refuses: said, and nothing made
        schedule(page, "Satellite bis", "satellite", "ligue_daily", 3600)
        page.select_option("#ev-target", label="Finale")
        page.fill("#ev-seats", "per:zero")
        page.click("#ev-create")
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error-text").strip()

        kept = events(dora, made["league"])
        assert "Satellite bis" not in kept
        final = kept["Finale"]
        assert (final["hard_stop"], final["hard_stop_zone"]) == ("22:30", zone)
        sat = kept["Satellite"]
        assert (sat["kind"], sat["satellite_of"], sat["seats"]) == (
            "satellite",
            final["id"],
            "per:2",
        )
        monthly = kept["Mensuel"]
        assert (monthly["kind"], monthly["qualified_top"], monthly["qualified_season"]) == (
            "monthly",
            3,
            sid,
        )
        assert kept["SNG libre"]["hard_stop"] == ""  # none, where the structure says 23:45
        # what each line says is what the server keeps
        line = page.locator(".lg-event:has-text('Finale') .lg-hard-stop").inner_text()
        assert "22:30" in line
        assert "per:2" in page.locator(".lg-event:has-text('Satellite') .lg-seats").inner_text()
        assert "3" in page.locator(".lg-event:has-text('Mensuel') .lg-qualified").inner_text()
        assert not page.query_selector(".lg-event:has-text('SNG libre') .lg-hard-stop")
        check_layout(client, 10)
        client.shot(f"league-forms-{size}", full_page=True)
    finally:
        dora.close()
