"""A cash table in the browser (issue 14, first part): a friend buys in from the page, at
phone and laptop sizes, and the stack shown is the one the server seated him with; a buy-in
outside the table's limits is refused on screen and seats nobody."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable

import pytest

from .conftest import Client, WebServer
from .wire import create_table

OpenClient = Callable[..., Client]


@pytest.mark.parametrize("viewport", [(360, 640), (1366, 768)], ids=["phone", "laptop"])
def test_a_friend_buys_in_at_a_cash_table_from_the_page(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    table, invite = create_table(
        f"ws://127.0.0.1:{web_server.port}/ws",
        name="Cash",
        profile="casino",
        sb=25,
        bb=50,
        game="cash",
        min_buy_in=500,
        max_buy_in=5000,
        max_seats=6,
    )
    client = open_client("ana", viewport=viewport)
    page = client.page
    page.goto(f"{web_server.base}/?table={table}&invite={invite}")
    page.fill("#nick", "Ana")
    page.click("#nick-ok")
    page.wait_for_selector("#nick-form", state="hidden")
    page.click(".seat[data-seat='2'] button.sit")
    form = page.wait_for_selector("#buyin-form", state="visible")
    assert form is not None
    box = form.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport[1]  # visible without scrolling
    assert page.input_value("#buyin") == "500"  # the table's minimum, offered
    for wrong in ("9000", "510"):  # over the maximum; not a multiple of the small blind
        page.fill("#buyin", wrong)
        page.click("#buyin-ok")  # the page knows the limits: nothing is sent
        assert page.evaluate("document.querySelector('#buyin').validity.valid") is False
        assert page.is_visible("#buyin-form") and not page.query_selector(".seat.you")
    page.fill("#buyin", "1500")
    page.click("#buyin-ok")
    page.wait_for_selector(".seat.you[data-seat='2']")
    client.shot(f"cash-buy-in-{viewport[0]}x{viewport[1]}")
    shown = page.inner_text(".seat.you[data-seat='2']")
    assert "1,500" in shown or "1 500" in shown or "1500" in shown, shown
    # the server's ledger says the same
    url = f"{web_server.base}/api/tables/{table}/ledger.csv?t={invite}"
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    assert ",buy_in," in text and ",Ana,1500," in text, text
