"""A latecomer at a started Sit'n Go (issue 29, item 9): fpc part C closes its registration
before the start (the structure's ``late_registration_until_level = 0``), so a member who
opens the league page once it runs reads "Registration closed" on its line, with no Register
button, and on the tournament page "Registration is closed: you are watching this
tournament." (not only "You are watching"); the event's time names its time zone. Checked at
390x844, 360x640 and 1366x768: the texts shown, inside the window and not covered.

Six members register over the wire (fpc part C: « Les parties se jouent de 6 joueurs
(minimum) »); nobody plays their seats (the test only looks, within the first level)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .conftest import Client, WebServer
from .test_league_cup import Member
from .test_league_night_e2e import PHONE_TALL, event_line, night_server, seen, wait_text
from .test_leagues import create_account, get_json

OpenClient = Callable[..., Client]
__all__ = ["night_server"]  # the fixture, shared with tests/web/test_league_night_e2e.py


def test_a_latecomer_reads_that_the_sit_and_go_s_registration_is_closed(
    night_server: WebServer, open_client: OpenClient
) -> None:
    server = night_server
    desk = Member(server.port, "dir_wait")
    players = [Member(server.port, f"sng_wait_{i}") for i in range(6)]
    try:
        made = desk.ask(t="league_create", member=desk.token, name="Les Mardis")
        season = desk.ask(
            t="season_create", member=desk.token, league=made["league"], name="2026",
            points="fpc_sit_and_go",
        )  # fmt: skip
        created = desk.ask(
            t="league_event_create", member=desk.token, league=made["league"],
            season=season["seasons"][0]["id"], name="Sit'n Go 1", kind="sit_and_go",
            structure="fpc_sit_and_go", starts_at=int(time.time()) + 6, hard_stop="",
        )  # fmt: skip
        event = created["seasons"][0]["events"][0]
        tid = event["tournament"]
        for player in players:
            player.ask(t="league_join", member=player.token, invite=made["invite"])
            asking = Member(server.port, "seat", player.token, player.ident)
            try:
                asking.ask(t="register", tournament=tid)
            finally:
                asking.close()

        lea = open_client("lea-wait", "en-US", PHONE_TALL)
        page = lea.page
        page.goto(f"{server.base}/?league={made['league']}&join={made['invite']}")
        page.wait_for_selector("#lg-login", state="visible")
        create_account(page, "lea_wait", "Lea")
        line = event_line(page, event["id"])
        page.wait_for_selector(f"{line}[data-status='running']", timeout=30_000)
        state = get_json(server, f"/api/tournaments/{tid}")
        assert state["phase"] != "registering" and not state["late_registration"]
        assert state["late_left"] is None and state["entries"] == 6
        wait_text(page, f"{line} .lg-wait", "Registration closed")
        assert page.locator(f"{line} .lg-register").count() == 0
        assert "UTC" in page.inner_text(f"{line} time")  # the browser's zone (Chromium: UTC)
        text = seen(lea, f"{line} .lg-wait", "sng-closed-league")
        assert text == "Registration closed"

        page.click(f"{line} a.lg-follow")
        page.wait_for_selector("#tournament-view", state="visible")
        wait_text(page, "#t-you", "Registration is closed")
        assert page.locator("#t-register").is_hidden()
        text = seen(lea, "#t-you", "sng-closed-tournament")
        assert text == "Registration is closed: you are watching this tournament."
        assert page.inner_text("#t-players") == f"{state['players_left']}/6"
        assert get_json(server, f"/api/tournaments/{tid}")["phase"] != "finished"
    finally:
        desk.close()
        for player in players:
            player.close()
