"""A cash table's forms as a person sees them (issue 29, points 4, 5, 7 and 8), at the three
sizes of the issue (two phones and a laptop), on a real server: the lobby's cash form shows
the default limits, the book's cash rules and a rake, and says on the page what is wrong; the
buy-in and Add chips forms say their range and why, refuse a wrong amount in words; leaving
takes the seat's controls away and confirms the cash-out with the ledger's amount."""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from websockets.sync.client import connect

from .conftest import Client, WebServer, wait_until

OpenClient = Callable[..., Client]
SIZES = [(390, 844), (360, 640), (1366, 768)]
SIZE_IDS = ["390x844", "360x640", "1366x768"]

# What a person may not see: code, or words whose numbers were never filled in.
_SEEN_CODE = """() => {
  const text = document.body.innerText;
  const bad = [/=>/, /\\$\\{/, /%[a-z]+/, /undefined/, /NaN/, /\\[object/];
  return bad.filter((r) => r.test(text)).map(String);
}"""

# Whether a control is inside the viewport and not covered: the element at its centre is
# itself (or one of its own children).
_IN_VIEW = """(sel) => {
  const node = document.querySelector(sel);
  if (!node || !node.getClientRects().length) return `${sel}: not shown`;
  const r = node.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    return `${sel}: outside the viewport ${JSON.stringify(r)}`;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (hit && (hit === node || node.contains(hit))) return '';
  return `${sel}: covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""


def seen_code(page: Any) -> list[str]:
    return list(page.evaluate(_SEEN_CODE))


def assert_usable(page: Any, *selectors: str) -> None:
    """Each control scrolled to if need be (as a person would), then in view and uncovered."""
    for sel in selectors:
        page.locator(sel).scroll_into_view_if_needed()
        problem = page.evaluate(_IN_VIEW, sel)
        assert not problem, problem


def digits(text: str) -> int:
    """'1,500' / '1 500' (French, narrow space) -> 1500."""
    return int(re.sub(r"[^\d]", "", text))


def ledger(base: str, table: str, token: str) -> tuple[list[list[str]], dict[str, list[str]]]:
    """The server's ledger: its lines, and its totals by name."""
    with urllib.request.urlopen(f"{base}/api/tables/{table}/ledger.csv?t={token}", timeout=5) as r:
        lines, totals = r.read().decode().split("\n\n")
    rows = [x.split(",") for x in lines.strip().splitlines()[1:]]
    return rows, {x.split(",")[1]: x.split(",") for x in totals.strip().splitlines()[1:]}


def snapshot(port: int, table: str, invite: str) -> dict[str, Any]:
    """The table as the server shows a spectator."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(msgpack.packb({"t": "hello", "version": 1, "nickname": "look", "token": invite}))
        ws.send(msgpack.packb({"t": "join", "table": table}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = msgpack.unpackb(ws.recv(timeout=10))
            if msg.get("t") == "snapshot":
                return dict(msg["state"]) if "state" in msg else dict(msg)
    raise AssertionError("no snapshot")


def enter(page: Any, base: str, nick: str, url: str = "/") -> None:
    page.goto(base + url)
    page.fill("#nick", nick)
    page.click("#nick-ok")
    page.wait_for_selector("#nick-form", state="hidden")


def buy_in(page: Any, seat: int, amount: int) -> None:
    """Buy in at a free seat from the page, and wait to be seated with that stack."""
    page.click(f".seat[data-seat='{seat}'] button.sit")
    page.fill("#buyin", str(amount))
    page.click("#buyin-ok")
    page.wait_for_selector(f".seat.you[data-seat='{seat}'][data-stack='{amount}']")


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_lobby_cash_form_says_its_limits_and_sets_a_rake(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    client = open_client(
        "host", locale="fr-FR" if viewport[0] == 360 else "en-US", viewport=viewport
    )
    page = client.page
    enter(page, web_server.base, "Hôte")
    page.select_option("#c-profile", "casino")
    page.select_option("#c-blinds", "50/100")
    page.select_option("#c-game", "cash")
    # the defaults filled in (20 and 100 big blinds), no starting stack, the cash rules
    wait_until(lambda: page.input_value("#c-min") == "2000", "the default limits")
    assert page.input_value("#c-max") == "10000"
    assert not page.is_visible("#c-stack")
    hint = page.inner_text("#c-profile-hint")
    assert "cash" in hint.lower() and "tournoi" not in hint and "tournament" not in hint, hint
    assert digits(page.inner_text("#c-limits-hint").split("(")[0]) == 200010000
    page.select_option("#c-blinds", "25/50")  # the defaults follow the blinds
    wait_until(lambda: page.input_value("#c-min") == "1000", "the limits of 25/50")
    assert page.input_value("#c-max") == "5000"
    assert_usable(page, "#c-rake", "#c-rake-cap")
    # wrong values: said on the page, next to the button, nothing created
    page.fill("#c-seats", "12")
    page.click("#create")
    problem = page.inner_text("#create-problem")
    assert "2" in problem and "10" in problem, problem
    assert_usable(page, "#create-problem", "#create")
    assert page.is_hidden("#created")
    page.fill("#c-seats", "6")
    page.fill("#c-max", "5010")
    page.click("#create")
    assert "25" in page.inner_text("#create-problem")  # a multiple of the small blind
    page.fill("#c-max", "5000")
    page.fill("#c-rake", "5")
    page.fill("#c-rake-cap", "100")
    client.shot(f"cash-lobby-form-{viewport[0]}x{viewport[1]}")
    assert not seen_code(page)
    page.click("#create")
    page.wait_for_selector("#created", state="visible")
    assert page.inner_text("#create-problem") == ""
    link = page.input_value("#created-link")
    table, invite = link.split("table=")[1].split("&invite=")
    cash = snapshot(web_server.port, table, invite)["cash"]
    assert (cash["rake_permille"], cash["rake_cap"]) == (50, 100)
    assert (cash["min_buy_in"], cash["max_buy_in"]) == (1000, 5000)
    # fpc: the club's limits, and no rake to set
    page.select_option("#c-profile", "fpc")
    wait_until(lambda: page.input_value("#c-min") == "500", "the club's limits")
    assert page.input_value("#c-max") == "5000"
    assert page.is_hidden("#c-rake") and "5,000" in page.inner_text("#c-limits-hint").replace(
        "\u202f", ","
    ).replace("\xa0", ",").replace(" ", ",")


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_buy_in_add_chips_and_cash_out_say_their_amounts(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    from .wire import create_table

    table, invite = create_table(
        f"ws://127.0.0.1:{web_server.port}/ws", name="Formes", profile="casino", sb=25, bb=50,
        game="cash", min_buy_in=500, max_buy_in=5000, max_seats=6,
    )  # fmt: skip
    client = open_client("ana", viewport=viewport)
    page = client.page
    page.on("dialog", lambda d: d.accept())
    enter(page, web_server.base, "Ana", f"/?table={table}&invite={invite}")
    page.click(".seat[data-seat='3'] button.sit")
    page.wait_for_selector("#buyin-form", state="visible")
    hint = page.inner_text("#buyin-hint")
    assert "500" in hint and "5,000" in hint and "25" in hint, hint
    assert_usable(page, "#buyin", "#buyin-ok")
    page.fill("#buyin", "9000")
    page.click("#buyin-ok")
    error = page.inner_text("#buyin-error")
    assert "9,000" in error and "5,000" in error, error  # said on the page, why included
    assert page.is_visible("#buyin-form") and not page.query_selector(".seat.you")
    page.fill("#buyin", "1510")
    page.click("#buyin-ok")
    assert "25" in page.inner_text("#buyin-error")
    page.fill("#buyin", "1500")
    page.click("#buyin-ok")
    page.wait_for_selector(".seat.you[data-seat='3'][data-stack='1500']")

    # Add chips: its own form, its range in words (the server's limits, our stack)
    page.click("#add-chips")
    page.wait_for_selector("#add-form", state="visible")
    assert page.is_hidden("#buyin-form")
    assert page.inner_text("#add-title") == "Add chips" and page.inner_text("#add-ok") == "Add"
    hint = page.inner_text("#add-hint")
    assert "25 to 3,500" in hint and "1,500" in hint, hint
    assert_usable(page, "#add-amount", "#add-ok", "#add-cancel")
    page.fill("#add-amount", "4000")
    page.click("#add-ok")
    error = page.inner_text("#add-error")
    assert "4,000" in error and "3,500" in error, error
    assert page.is_visible("#add-form")
    client.shot(f"cash-add-chips-{viewport[0]}x{viewport[1]}", full_page=False)
    assert not seen_code(page)
    page.fill("#add-amount", "1000")
    page.click("#add-ok")
    page.wait_for_selector(".seat.you[data-seat='3'][data-stack='2500']")
    page.wait_for_selector("#log li >> text=Ana adds chips: 2,500 on the table now")
    _, totals = ledger(web_server.base, table, invite)
    assert totals["Ana"][2:5] == ["2500", "0", "2500"]
    page.click("#add-chips")
    assert "2,500" in page.inner_text("#add-hint") and "25 to 2,500" in page.inner_text("#add-hint")
    page.click("#add-cancel")

    # leave: the seat's controls go, the cash-out is confirmed with the ledger's amount
    page.click("#leave")
    page.wait_for_selector("#left-box[data-confirmed='true']")
    text = page.inner_text("#left-text")
    assert "2,500" in text and "cashed out" in text, text
    for gone in ("#sitout", "#leave", "#add-chips", "#cut-panel", "#add-form"):
        assert page.is_hidden(gone), gone
    assert not page.query_selector(".seat.you") and not page.query_selector(
        ".seat[data-seat='3']:not(.free)"
    )
    assert_usable(page, "#left-box", "#left-lobby")
    client.shot(f"cash-left-{viewport[0]}x{viewport[1]}", full_page=False)
    rows, totals = ledger(web_server.base, table, invite)
    assert totals["Ana"][2:5] == ["2500", "2500", "0"]
    assert [r[1] for r in rows if r[3] == "Ana"][-1] == "cash_out"
    # still watching the table: a free seat to buy in again
    wait_until(lambda: page.query_selector(".seat[data-seat='3'] button.sit"), "the free seat")
    assert not seen_code(page)


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_host_reads_the_ledger_at_every_size(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    """The host's panel keeps its buttons whole, and the ledger opens above everything, in
    view, its totals the server's (issue 29, item 3)."""
    from .lobby import create_cash_table

    client = open_client("host", viewport=viewport)
    page = client.page
    _, table, invite = create_cash_table(page, web_server.base, nick="Hugo", name="Grand livre")
    page.click("#open-table")
    page.wait_for_selector("#host-panel", state="visible")
    buy_in(page, 1, 1500)
    assert_usable(page, "#host-pause", "#host-blinds button[type='submit']", "#room-add")
    assert_usable(page, "#ledger-open")
    page.click("#ledger-open")
    page.wait_for_selector("#ledger-table tr[data-player='Hugo']")
    row = "#ledger-table tr[data-player='Hugo']"
    assert_usable(page, f"{row} td:first-child", f"{row} td:last-child", "#ledger-totals")
    assert_usable(page, "#ledger-close")
    cells = page.locator("#ledger-table tr[data-player='Hugo'] td").all_inner_texts()
    _, totals = ledger(web_server.base, table, invite)
    assert [digits(c) for c in cells[1:4]] == [int(x) for x in totals["Hugo"][2:5]]
    totals_text = page.inner_text("#ledger-totals")
    assert digits(totals_text.split("=")[0]) == 1500 and "rake" in totals_text, totals_text
    client.shot(f"cash-ledger-host-{viewport[0]}x{viewport[1]}", full_page=False)
    assert not seen_code(page)
    page.click("#ledger-close")
    page.wait_for_selector("#ledger-panel", state="hidden")
    # new blinds that cannot be: said on the page, nothing ordered
    page.fill("#host-sb", "50")
    page.fill("#host-bb", "25")
    page.click("#host-blinds button[type='submit']")
    page.wait_for_selector("#error-text >> text=a big blind at least as big")
    assert_usable(page, "#error-text")
    assert not page.query_selector("#log li.voice-host")


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_fpc_offers_a_rebuy_only_once_out_of_chips(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    """fpc cash: « une recave n'est pas possible tant que l'on possède des jetons »: with chips,
    no Add chips button to be refused after; the buy-in form says the session's cap."""
    from .wire import create_table

    table, invite = create_table(
        f"ws://127.0.0.1:{web_server.port}/ws", name="Club", profile="fpc", sb=25, bb=50,
        game="cash", max_seats=6,
    )  # fmt: skip
    client = open_client("ana", locale="fr-FR", viewport=viewport)
    page = client.page
    enter(page, web_server.base, "Ana", f"/?table={table}&invite={invite}")
    page.click(".seat[data-seat='2'] button.sit")
    page.wait_for_selector("#buyin-form", state="visible")
    hint = page.inner_text("#buyin-hint")
    assert digits(hint.split("jetons")[0]) == 5005000, hint  # "De 500 à 5 000 jetons"
    assert "session" in hint, hint
    assert_usable(page, "#buyin", "#buyin-ok")
    page.fill("#buyin", "6000")
    page.click("#buyin-ok")
    assert "5" in page.inner_text("#buyin-error") and page.is_visible("#buyin-form")
    page.fill("#buyin", "2000")
    page.click("#buyin-ok")
    page.wait_for_selector(".seat.you[data-seat='2'][data-stack='2000']")
    assert page.is_visible("#leave") and page.is_hidden("#add-chips")
    client.shot(f"cash-fpc-seated-{viewport[0]}x{viewport[1]}", full_page=False)
    assert not seen_code(page)
