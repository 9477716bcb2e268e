"""A cash table's opening hours from the lobby (fpc cash: « Les tables ouvrent à partir de
20h00 et ferment à 23h30 précise »): the host sets them in the create form, in his browser's
time zone; a friend who tries to buy in while the tables are closed reads why on screen, and
no seat is taken. The hours are chosen around the clock of the run."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from .conftest import Client, WebServer

OpenClient = Callable[..., Client]


def test_a_table_created_closed_says_so_to_a_friend_who_buys_in(
    web_server: WebServer, open_client: OpenClient
) -> None:
    host = open_client("host", viewport=(1366, 768))
    page = host.page
    page.goto(web_server.base + "/")
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    now = datetime.now(ZoneInfo(zone))
    page.fill("#nick", "Hôte")
    page.click("#nick-ok")
    page.fill("#c-name", "Mercredi")
    page.select_option("#c-profile", "fpc")
    page.select_option("#c-blinds", "25/50")
    page.select_option("#c-game", "cash")
    page.fill("#c-min", "500")
    page.fill("#c-max", "5000")
    page.fill("#c-opens", f"{now + timedelta(hours=2):%H:%M}")  # not yet open
    page.fill("#c-closes", f"{now + timedelta(hours=3):%H:%M}")
    page.click("#create")
    page.wait_for_selector("#created", state="visible")
    link = str(page.input_value("#created-link")).replace("localhost", "127.0.0.1")

    ana = open_client("ana", viewport=(360, 640))
    p = ana.page
    p.goto(link)
    p.fill("#nick", "Ana")
    p.click("#nick-ok")
    p.wait_for_selector("#nick-form", state="hidden")
    p.click(".seat[data-seat='3'] button.sit")
    p.fill("#buyin", "1000")
    p.click("#buyin-ok")
    error = p.wait_for_selector("#error", state="visible")
    assert error is not None and "closed" in error.inner_text()
    box = error.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640
    assert not p.query_selector(".seat.you")
    p.wait_for_selector("text=Closed: the tables are open")  # the table says it, not "waiting"
    ana.shot("cash-closed-360x640", full_page=False)
