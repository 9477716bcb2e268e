"""A cash table in the browser (issue 14, first part): a friend buys in from the page, at
phone and laptop sizes, and the stack shown is the one the server seated him with; a buy-in
outside the table's limits is refused on screen and seats nobody."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable

import pytest

from .conftest import Client, WebServer, wait_until
from .lobby import create_cash_table
from .test_table import act
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


def test_a_host_runs_a_cash_table_from_the_page(
    web_server: WebServer, open_client: OpenClient
) -> None:
    """A host creates a cash table that asks him, approves two browser players (a phone and
    a laptop), changes the blinds; the two run it twice all-in; the ledger in the page is
    the server's."""
    host = open_client("host", viewport=(1366, 768))
    page = host.page
    link, table, _ = create_cash_table(
        page, web_server.base, nick="Hôte", name="Jeudi cash", run_it=True, approval=True
    )
    page.click("#open-table")
    page.wait_for_selector("#host-panel", state="visible")

    players = {
        "ana": open_client("ana", viewport=(360, 640)),
        "bob": open_client("bob", locale="fr-FR", viewport=(1366, 768)),
    }
    for (name, client), (seat, amount) in zip(players.items(), [(1, 1000), (4, 1500)], strict=True):
        p = client.page
        p.goto(link)
        p.fill("#nick", name.capitalize())
        p.click("#nick-ok")
        p.wait_for_selector("#nick-form", state="hidden")
        p.click(f".seat[data-seat='{seat}'] button.sit")
        p.fill("#buyin", str(amount))
        p.click("#buyin-ok")
        # nobody sits before the host says so
        page.wait_for_selector(f".host-request[data-seat='{seat}']")
        assert not p.query_selector(".seat.you")
        page.click(f".host-request[data-seat='{seat}'] button.primary")
        p.wait_for_selector(f".seat.you[data-seat='{seat}']")
    host.shot("cash-host-approved", full_page=False)
    # the host changes the blinds: said at the table, applied from the next hand
    page.fill("#host-sb", "50")
    page.fill("#host-bb", "100")
    page.click("#host-blinds button[type='submit']")
    for client in players.values():
        client.page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')]"
            ".some(li => li.textContent.includes('50/100'))"
        )

    # all-in preflop, both agree to run it twice
    def acting() -> Client | None:
        for client in players.values():
            if client.page.locator("#actions").is_visible():
                return client
        return None

    first = wait_until(acting, "a player's turn", 30)
    first.page.click("#q-max")
    first.page.wait_for_selector("#raise.allin")
    act(first, "#raise")
    second = wait_until(
        lambda: next(
            (
                c
                for c in players.values()
                if c is not first and c.page.locator("#actions").is_visible()
            ),
            None,
        ),
        "the call",
        30,
    )
    act(second, "#call")
    for client in players.values():
        client.page.wait_for_selector("#runs-offer", state="visible")
        box = client.page.locator("#run-twice").bounding_box()
        width, height = client.page.viewport_size["width"], client.page.viewport_size["height"]  # type: ignore[index]
        assert (
            box is not None
            and box["y"] + box["height"] <= height
            and box["x"] + box["width"] <= width
        )
        client.shot(f"cash-run-it-twice-{width}x{height}", full_page=False)
        client.page.click("#run-twice")
    for client in players.values():
        client.page.wait_for_selector(".run-board[data-run='2'] .card[data-card] >> nth=4")
    players["ana"].shot("cash-two-runs-360x640", full_page=False)
    # each run's part of the pot says which run it is, in each player's language
    for client, words in (
        (players["ana"], "main pot (run 2)"),
        (players["bob"], "pot principal (tirage 2)"),
    ):
        client.page.wait_for_function(
            "w => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes(w))",
            arg=words,
        )

    # the ledger in the page is the server's
    url = f"{web_server.base}/api/tables/{table}/ledger.csv?t={link.split('invite=')[1]}"
    ana = players["ana"].page
    wait_until(lambda: ana.locator("#ledger-open").is_visible(), "the ledger button")
    wait_until(
        lambda: ana.get_attribute("#table-view", "data-phase") in ("between", "cut"),
        "the hand's end",
        30,
    )
    ana.click("#ledger-open")
    ana.wait_for_selector("#ledger-table tr[data-player='Ana']")
    with urllib.request.urlopen(url, timeout=5) as response:
        totals = response.read().decode().split("\n\n")[1].strip().splitlines()[1:]
    for line in totals:
        _, name, bought, _out, on_table, net = line.split(",")
        row = ana.locator(f"#ledger-table tr[data-player='{name}'] td")
        cells = [
            c.replace("\u202f", "").replace(",", "").replace(" ", "") for c in row.all_inner_texts()
        ]
        assert cells[1] == bought and cells[3] == on_table and cells[4] == net, (cells, line)
    assert {line.split(",")[1] for line in totals} == {"Ana", "Bob"}
    players["ana"].shot("cash-ledger-360x640", full_page=True)
