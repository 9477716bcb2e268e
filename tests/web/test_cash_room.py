"""A room of cash tables in the browser (docs/protocol.md, "A room of cash tables"): the host
adds a second table to his casino cash table's room from his panel; a player on a phone asks
to change table, the host agrees, and the player's page follows him to the new table, seated
with the stack the server moved (its ledger), the seat token kept under the new table's name.

casino cash: « Si un joueur demande à changer de table, il devra obtenir l'accord du
superviseur [...] il ne pourra pas apporter un tapis supérieur à la cave maximum de sa
nouvelle table et devra payer de nouveau son droit de siège. »"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable

from .conftest import Client, WebServer, wait_until
from .lobby import create_cash_table
from .test_table import overlaps

OpenClient = Callable[..., Client]

BOX = "(sel) => { const n = document.querySelector(sel); if (!n) return null;"
BOX += " const r = n.getBoundingClientRect();"
BOX += " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }"


def _box(client: Client, selector: str) -> dict[str, float]:
    box = client.page.evaluate(BOX, selector)
    assert box is not None, selector
    return box  # type: ignore[no-any-return]


def _in_view(client: Client, selector: str) -> dict[str, float]:
    """The box of ``selector``, asserted inside the viewport (nothing to scroll to reach it)."""
    box = _box(client, selector)
    size = client.page.viewport_size
    assert size is not None
    assert box["left"] >= 0 and box["top"] >= 0, (selector, box)
    assert box["right"] <= size["width"] and box["bottom"] <= size["height"], (selector, box, size)
    return box


def _no_sideways_scroll(client: Client) -> None:
    width = client.page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width


def _ledger(server: WebServer, table: str, invite: str) -> tuple[list[list[str]], dict[str, int]]:
    """The server's ledger of ``table``: its lines, and each player's chips on the table."""
    url = f"{server.base}/api/tables/{table}/ledger.csv?t={invite}"
    with urllib.request.urlopen(url, timeout=5) as response:
        lines, totals = response.read().decode().split("\n\n")
    rows = [line.split(",") for line in lines.strip().splitlines()[1:]]
    on_table = {}
    for line in totals.strip().splitlines()[1:]:
        _, name, _bought, _out, chips, _net = line.split(",")
        on_table[name] = int(chips)
    return rows, on_table


def _play_along(clients: list[Client]) -> None:
    """Whoever is to act checks, else folds (a hand in progress ends quickly); whoever is to
    cut cuts."""
    for client in clients:
        page = client.page
        if page.locator("#cut-panel").is_visible():
            page.click("#cut")
        if page.locator("#actions").is_visible():
            page.click("#check" if page.locator("#check").is_visible() else "#fold")


def test_a_player_changes_table_in_a_room_and_his_page_follows(
    web_server: WebServer, open_client: OpenClient
) -> None:
    started = time.monotonic()
    host = open_client("host", viewport=(1366, 768))
    page = host.page
    link1, table1, invite1 = create_cash_table(
        page, web_server.base, nick="Hôtesse", name="Jeudi cash", seats=6
    )
    page.click("#open-table")
    page.wait_for_selector("#room-host", state="visible")

    # the host adds a table to the room: its link to share, its host token kept
    page.click("#room-add")
    page.wait_for_selector("#room-created", state="visible")
    link2 = page.input_value("#room-link").replace("localhost", "127.0.0.1")
    table2, invite2 = link2.split("table=")[1].split("&invite=")
    assert table2 != table1
    assert page.evaluate("(t) => localStorage.getItem('brasseur.host.' + t)", table2)
    page.wait_for_selector(f"#room-tables li[data-table='{table2}']")
    assert "Jeudi cash 2" in page.inner_text(f"#room-tables li[data-table='{table2}']")
    assert page.locator(f"#room-merge-to option[value='{table2}']").count() == 1
    assert page.locator("#room-balance").is_visible()
    _in_view(host, "#room-created")
    host.shot("cash-room-host-1366x768", full_page=False)

    # two players buy in at table 1: Ana on a phone, in French; Bob on a laptop
    ana = open_client("ana", locale="fr-FR", viewport=(360, 640))
    bob = open_client("bob", viewport=(1366, 768))
    for client, nick, seat, amount in ((ana, "Ana", 1, 1000), (bob, "Bob", 4, 1500)):
        p = client.page
        p.goto(link1)
        p.fill("#nick", nick)
        p.click("#nick-ok")
        p.wait_for_selector("#nick-form", state="hidden")
        p.click(f".seat[data-seat='{seat}'] button.sit")
        p.fill("#buyin", str(amount))
        p.click("#buyin-ok")
        p.wait_for_selector(f".seat.you[data-seat='{seat}']")

    # a first hand is played (someone folds): the stacks are no longer the buy-ins
    def first_hand_over() -> bool:
        _play_along([ana, bob])
        page_ = ana.page
        return int(page_.get_attribute("#table-view", "data-hand") or 0) >= 1 and (
            page_.get_attribute("#table-view", "data-phase") == "between"
        )

    wait_until(first_hand_over, "the first hand's end", 30)

    # a table that is not another of the room: refused, in words
    bob.page.evaluate("(t) => window.brasseur.command('change_table', {to: t})", table1)
    bob.page.wait_for_function(
        "() => document.getElementById('error-text').textContent"
        ".includes('not another cash table of this room')"
    )

    # Bob's control, on a laptop, is in view too
    bob.page.wait_for_selector("#change-open", state="visible")
    _in_view(bob, "#change-open")
    _no_sideways_scroll(bob)

    # Ana asks to change to table 2 (the control in view on her phone, in French)
    p = ana.page
    p.wait_for_selector("#change-open", state="visible")
    assert p.inner_text("#change-open") == "Changer de table"
    _in_view(ana, "#change-open")
    p.click("#change-open")
    p.wait_for_selector("#change-form", state="visible")
    option = p.locator(f"#change-to option[value='{table2}']")
    assert "Jeudi cash 2" in option.inner_text() and "25/50" in option.inner_text()
    assert p.inner_text("#change-ok") == "Demander à l'hôte"
    for selector in ("#change-to", "#change-ok"):
        _in_view(ana, selector)
    assert not overlaps(_box(ana, "#change-form"), _box(ana, "#felt"))
    _no_sideways_scroll(ana)
    ana.shot("cash-room-change-360x640", full_page=False)
    p.click("#change-ok")
    p.wait_for_selector("#change-asked", state="visible")

    # the host sees who asks for which table, and agrees
    request = page.wait_for_selector(".host-request.change-request[data-seat='1']")
    assert request is not None
    assert "Ana asks to change to Jeudi cash 2" in request.inner_text()
    host.shot("cash-room-request-1366x768", full_page=False)
    page.click(".host-request.change-request[data-seat='1'] button.primary")

    # a hand being played ends first (she plays it out); then her page shows table 2
    def moved() -> bool:
        _play_along([ana, bob])
        return p.get_attribute("#table-view", "data-table") == table2 and bool(
            p.query_selector(".seat.you")
        )

    wait_until(moved, "Ana's page at table 2", 40)
    assert f"table={table2}" in p.url and "invite=" in p.url
    p.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.includes('Vous passez de Jeudi cash à Jeudi cash 2"
        " (changement de table).'))"
    )
    # her new seat token is kept under the new table's name, the old one is gone
    tokens = p.evaluate(
        "([a, b]) => [localStorage.getItem('brasseur.seat.' + a),"
        " localStorage.getItem('brasseur.seat.' + b)]",
        [table1, table2],
    )
    assert tokens[0] is None and tokens[1], tokens
    # the stack on her screen is the one the server moved: table 2's ledger
    rows2, chips2 = _ledger(web_server, table2, invite2)
    rows1, _ = _ledger(web_server, table1, invite1)
    shown = int(p.get_attribute(".seat.you", "data-stack") or -1)
    assert chips2["Ana"] == shown, (chips2, shown)
    moved_in = [r for r in rows2 if r[1] == "moved_in" and r[3] == "Ana"]
    moved_out = [r for r in rows1 if r[1] == "moved_out" and r[3] == "Ana"]
    assert len(moved_in) == 1 and len(moved_out) == 1, (rows1, rows2)
    assert int(moved_in[0][4]) == int(moved_out[0][4]) == shown
    assert shown != 1000 and 0 < shown <= 5000  # her stack after hand 1, at most the maximum
    you = _in_view(ana, ".seat.you")
    assert not overlaps(you, _box(ana, "#me"))
    _no_sideways_scroll(ana)
    ana.shot("cash-room-moved-360x640", full_page=False)
    # at table 1 her seat is free again
    bob.page.wait_for_selector(".seat[data-seat='1'].free")
    # alone at table 2 there is nowhere else to change to but table 1
    p.wait_for_selector("#change-open", state="visible")

    # a reload opens table 2 again, seated, with the token kept
    p.reload()
    p.wait_for_selector(".seat.you")
    assert p.get_attribute("#table-view", "data-table") == table2
    assert int(p.get_attribute(".seat.you", "data-stack") or -1) == shown
    assert time.monotonic() - started < 90
