"""A league's administration in the browser (issue 15, docs/leagues.md): the owner, on a
laptop, sees the league's members with their roles, makes one a director with a button (the
server says so too) and cancels an event that has not started; the member, on a phone in
another browser, finds the league under "My leagues" though he joined it elsewhere (the
server's ``league_list``), and then sees himself a director on its page."""

from __future__ import annotations

import time
from collections.abc import Callable

from .conftest import Client, WebServer, wait_until
from .test_accounts import log_in
from .test_league_cup import Member
from .test_leagues import LAPTOP, PASSWORD, PHONE, check_layout, create_account, league_server

OpenClient = Callable[..., Client]
__all__ = ["league_server"]  # the fixture, shared with tests/web/test_leagues.py


def test_the_owner_appoints_a_director_and_cancels_an_event_and_my_leagues_follow_a_member(
    league_server: WebServer, open_client: OpenClient
) -> None:
    port = league_server.port
    owner = open_client("owner", viewport=LAPTOP)
    page = owner.page
    page.goto(league_server.base + "/")
    create_account(page, "olga_adm", "Olga")
    session = page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
    olga = Member(port, "Olga", str(session["token"]), str(session["member"]))
    paul = Member(port, "paul_adm")  # his account and his joining: over the wire
    try:
        made = olga.ask(t="league_create", member=olga.token, name="La ligue du jeudi")
        paul.ask(t="league_join", member=paul.token, invite=made["invite"])
        season = olga.ask(
            t="season_create", member=olga.token, league=made["league"], name="2026",
            points="places:3,2,1",
        )  # fmt: skip
        olga.ask(
            t="league_event_create", member=olga.token, league=made["league"],
            season=season["seasons"][0]["id"], name="Jeudi 3", kind="tournament",
            structure="tour_des_potes_bb_ante", starts_at=int(time.time()) + 3600,
        )  # fmt: skip

        page.goto(f"{league_server.base}/?league={made['league']}")
        page.wait_for_selector(f".lg-person[data-member='{paul.ident}'][data-role='member']")
        owner.shot("league-people-1366x768", full_page=True)
        page.click(f".lg-person[data-member='{paul.ident}'] .lg-make-director")
        page.wait_for_selector(f".lg-person[data-member='{paul.ident}'][data-role='director']")
        assert paul.league(made["league"])["role"] == "director"
        # the event is cancelled from its line (the page asks first)
        page.on("dialog", lambda dialog: dialog.accept())
        page.click(".lg-event .lg-cancel")
        page.wait_for_selector(".lg-event[data-status='cancelled']")
        event = paul.league(made["league"])["seasons"][0]["events"][0]
        assert event["status"] == "cancelled"
        assert not page.query_selector(".lg-event .lg-cancel")  # nothing left to cancel
        check_layout(owner, 10)

        # Paul, on his phone: "My leagues" has the league he joined over the wire
        phone = open_client("paul", viewport=PHONE)
        p = phone.page
        p.goto(league_server.base + "/")
        log_in(p, "paul_adm", PASSWORD)
        link = p.wait_for_selector(f"#my-leagues a[data-league='{made['league']}']")
        assert link is not None and link.inner_text() == "La ligue du jeudi"
        phone.shot("my-leagues-360x640", full_page=False)
        link.click()
        wait_until(
            lambda: p.get_attribute("#league-view", "data-role") == "director", "Paul a director"
        )
        # a director sees who is who (he admits the requests to join), not the owner's buttons
        p.wait_for_selector("#lg-people", state="visible")
        assert not p.query_selector(".lg-make-director, .lg-make-member, .lg-remove")
        assert p.locator("#lg-approval-box").is_hidden()
    finally:
        olga.close()
        paul.close()
