"""A league whose members are approved (issue 15, « members (invite link or approval) »,
docs/leagues.md): the owner, on a laptop in English, creates it with "New members wait for
approval"; Paul, on a phone in French, opens the invite link, makes his account and is told
his request waits (nothing of the league shown); the owner sees the request first in his
list and admits it; Paul's page shows the league by itself a few seconds later. The owner
then removes him (asked first): Paul's page says he is no member; the owner turns approval
off and the server says so; Paul joins again at once and leaves by himself. Every box on
screen inside the viewport, none over another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Client, WebServer, wait_until
from .test_league_cup import Member
from .test_leagues import LAPTOP, PHONE, check_layout, create_account, league_server

OpenClient = Callable[..., Client]
__all__ = ["league_server"]

BOXES = """() => {
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  return [...document.querySelectorAll('.lg-person > *, #lg-approval-box, #lg-problem')]
    .filter(shown).map((n) => { const r = n.getBoundingClientRect();
      return {name: n.className || n.id, left: r.left, right: r.right, top: r.top + scrollY,
              bottom: r.bottom + scrollY}; });
}"""


def check_people(client: Client) -> list[dict[str, Any]]:
    """The people list's boxes: inside the page's width, none over another."""
    width = client.page.evaluate("innerWidth")
    boxes: list[dict[str, Any]] = client.page.evaluate(BOXES)
    for box in boxes:
        assert box["left"] >= -0.5 and box["right"] <= width + 0.5, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            across = min(a["right"], b["right"]) - max(a["left"], b["left"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            assert across <= 0.5 or down <= 0.5, (a, b)
    return boxes


def test_a_request_to_join_is_admitted_then_the_member_removed(
    league_server: WebServer, open_client: OpenClient
) -> None:
    owner = open_client("owner-approval", "en-US", LAPTOP)
    page = owner.page
    page.goto(league_server.base + "/")
    create_account(page, "olga_apr", "Olga")
    page.wait_for_selector("#leagues-panel", state="visible")
    page.fill("#lg-new-name", "Le Cercle")
    page.check("#lg-new-approval")
    page.click("#lg-create")
    page.wait_for_selector("#league-created", state="visible")
    invite = page.input_value("#league-link").replace("localhost", "127.0.0.1")
    league = invite.split("league=")[1].split("&")[0]
    session = page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
    olga = Member(league_server.port, "Olga", str(session["token"]), str(session["member"]))
    try:
        assert olga.league(league)["approval"] is True
        page.goto(f"{league_server.base}/?league={league}")
        page.wait_for_selector("#lg-approval-box", state="visible")
        assert page.is_checked("#lg-approval")

        # Paul asks, from the invite link, on his phone: told to wait, shown nothing else
        phone = open_client("paul-approval", "fr-FR", PHONE)
        p = phone.page
        p.goto(invite)
        p.wait_for_selector("#lg-login", state="visible")
        create_account(p, "paul_apr", "Paul")
        p.wait_for_function(
            "() => document.getElementById('lg-problem').textContent.includes('attend')"
        )
        assert "Le Cercle" in p.inner_text("#lg-note")  # « Vous avez demandé à rejoindre »
        assert p.locator(".lg-season").count() == 0 and p.locator("#lg-invite").is_hidden()
        check_layout(phone, 4)
        check_people(phone)
        phone.shot("league-awaiting-360x640", full_page=False)

        # the owner sees the request first, and admits it
        row = ".lg-person[data-role='pending']"
        page.wait_for_selector(f"{row} .lg-admit")
        assert page.inner_text(f"{row} > span").startswith("Paul")
        boxes = check_people(owner)
        assert len(boxes) >= 6, boxes
        owner.shot("league-request-1366x768", full_page=False)
        page.click(f"{row} .lg-admit")
        paul = page.wait_for_selector(".lg-person[data-role='member']")
        assert paul is not None
        member = paul.get_attribute("data-member")
        assert {x["member"]: x["role"] for x in olga.league(league)["people"]}[str(member)] == (
            "member"
        )
        # Paul's page shows the league by itself (it asks again every few seconds)
        p.wait_for_function("() => document.getElementById('title').textContent === 'Le Cercle'")
        wait_until(lambda: p.inner_text("#lg-meta").startswith("membre"), "Paul a member")
        assert p.locator("#lg-problem").is_hidden()
        phone.shot("league-admitted-360x640", full_page=False)

        # removed by the owner (asked first): no member any more, on his page too
        page.on("dialog", lambda dialog: dialog.accept())
        page.click(".lg-person[data-role='member'] .lg-remove")
        page.wait_for_selector(".lg-person[data-role='member']", state="detached")
        assert str(member) not in {x["member"] for x in olga.league(league)["people"]}
        p.reload()
        p.wait_for_function(
            "() => document.getElementById('lg-problem').textContent.includes('pas membre')"
        )
        # approval off: the server keeps it
        page.uncheck("#lg-approval")
        wait_until(lambda: olga.league(league)["approval"] is False, "approval off")
        assert page.locator("#lg-leave").is_hidden()  # the owner does not leave his league
        check_layout(owner, 6)

        # Paul joins again at once, then leaves by himself (asked first): back to the lobby
        p.goto(invite)
        p.wait_for_function("() => document.getElementById('lg-meta').textContent.length > 0")
        assert p.inner_text("#lg-meta").startswith("membre")
        p.on("dialog", lambda dialog: dialog.accept())
        p.click("#lg-leave")
        p.wait_for_selector("#leagues-panel", state="visible")
        assert not p.query_selector(f"#my-leagues a[data-league='{league}']")
        people = {x["member"] for x in olga.league(league)["people"]}
        assert str(member) not in people
    finally:
        olga.close()
