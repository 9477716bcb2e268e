"""A night of Sit'n Gos in the browser (issue 15, fpc part C: « L'attribution des places
(table et siège) s'effectue par le logiciel »): a member registers for the night from the
league page on her phone (no table to choose); at its time the page shows the table the
server composed, with its players, and "Go to my table" opens the tournament page at her
seat. The other members register over the wire."""

from __future__ import annotations

import time
from collections.abc import Callable

from .conftest import Client, WebServer, wait_until
from .test_league_cup import Member
from .test_leagues import PHONE, create_account, league_server

OpenClient = Callable[..., Client]
__all__ = ["league_server"]  # the fixture, shared with tests/web/test_leagues.py


def test_a_member_registers_for_the_night_and_goes_to_her_table(
    league_server: WebServer, open_client: OpenClient
) -> None:
    port = league_server.port
    ana = open_client("ana-night", viewport=PHONE)
    page = ana.page
    page.goto(league_server.base + "/")
    create_account(page, "ana_night", "Ana")
    session = page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
    desk = Member(port, "Ana", str(session["token"]), str(session["member"]))
    others = [Member(port, f"night_{i}") for i in range(5)]
    try:
        made = desk.ask(t="league_create", member=desk.token, name="Les Mercredis")
        for other in others:
            other.ask(t="league_join", member=other.token, invite=made["invite"])
        season = desk.ask(
            t="season_create", member=desk.token, league=made["league"], name="2026",
            points="fpc_sit_and_go",
        )  # fmt: skip
        created = desk.ask(
            t="league_event_create", member=desk.token, league=made["league"],
            season=season["seasons"][0]["id"], name="Mercredi", kind="sit_and_go",
            structure="fpc_sit_and_go", starts_at=int(time.time()) + 8, night=True, hard_stop="",
        )  # fmt: skip
        night = created["seasons"][0]["events"][0]
        page.goto(f"{league_server.base}/?league={made['league']}")
        register = f".lg-event[data-event='{night['id']}'] button.lg-register"
        page.wait_for_selector(register)
        assert "the tables are composed at the start" in page.inner_text(".night-registered")
        page.click(register)  # (the page redraws every few seconds: by its selector)
        page.wait_for_selector(f".lg-event[data-event='{night['id']}'] .lg-registered")
        for other in others:
            other.ask(t="register", tournament=night["tournament"])

        # started: the table the server composed, with its players, and hers
        table = page.wait_for_selector(".night-table.mine", timeout=30_000)
        assert table is not None
        view = desk.league(made["league"])
        served = next(e for e in view["seasons"][0]["events"] if e["id"] == night["id"])["night"]
        assert len(served["tables"]) == 1 and len(served["tables"][0]["players"]) == 6
        shown = page.inner_text(".night-table.mine")
        assert all(name in shown for name in served["tables"][0]["players"]), shown
        box = page.locator(".night").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
        ana.shot("league-night-360x640", full_page=False)
        page.click(".night-go")
        page.wait_for_selector("#tournament-view", state="visible", timeout=15_000)
        assert served["mine"] in page.evaluate("location.search")
        wait_until(lambda: page.query_selector(".seat.you"), "Ana's seat at her table", 20)
    finally:
        desk.close()
        for other in others:
            other.close()
