"""The casino's option at a cash table in the browser (issue 14, docs/cash.md "The option").

casino cash: « L'option est autorisée en Cash Game, il est possible de rentrer sur la table
directement en option. » The option is two big blinds, live, posted by the first player dealt
in after the big blind, three players dealt in at least.

A casino cash table is created in the lobby; Ana (laptop, English) and Bob (phone, French)
buy in. Once the button has gone round (so that a newcomer is « entrant en cours de partie »),
Cleo buys in « directement en option » from the buy-in form: the server's snapshot lists her
seat among `cash.straddles`, her box is ticked; she is dealt in when she is the first after
the big blind, posts the option (her seat fee) and is no longer listed: her box is cleared.
Bob ticks "post the option" on his phone: within a few hands the log shows his option post
in both languages ("Bob: posts the option 100", "Bob: met l'option 100"), and each player's
box says what the server's `cash.straddles` says."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.sync.client import connect

from .conftest import Client, WebServer, wait_until
from .lobby import create_cash_table
from .test_cash_room import _in_view, _no_sideways_scroll
from .test_table import overlaps

OpenClient = Callable[..., Client]

OPTION = 100  # two big blinds at 25/50


def straddles(server: WebServer, table: str, invite: str) -> list[int]:
    """The table's `cash.straddles` as the server has them now (a spectator's snapshot)."""
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10) as ws:
        ws.send(msgpack.packb({"t": "hello", "version": 1, "nickname": "rail", "token": invite}))
        ws.send(msgpack.packb({"t": "join", "table": table}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg: dict[str, Any] = msgpack.unpackb(ws.recv(timeout=10))
            if msg.get("t") == "snapshot":
                return [int(seat) for seat in msg["state"]["cash"]["straddles"]]
            assert msg.get("t") != "error", msg
    raise AssertionError("no snapshot")


def play_along(clients: list[Client]) -> None:
    """Whoever is to act checks, else folds (a hand ends quickly); whoever is to cut cuts."""
    for client in clients:
        page = client.page
        if page.locator("#cut-panel").is_visible():
            page.click("#cut")
        if page.locator("#actions").is_visible():
            page.click("#check" if page.locator("#check").is_visible() else "#fold")


def logged(client: Client, words: str) -> bool:
    return bool(
        client.page.evaluate(
            "w => [...document.querySelectorAll('#log li')].some(li => li.textContent === w)",
            words,
        )
    )


def box_ticked(client: Client) -> bool:
    return bool(client.page.is_checked("#option-on"))


def sit(client: Client, link: str, nick: str, seat: int, option: bool = False) -> None:
    page = client.page
    page.goto(link)
    page.wait_for_selector(".seat")
    if page.locator("#nick-form").is_visible():  # (the table's creator typed his in the lobby)
        page.fill("#nick", nick)
        page.click("#nick-ok")
        page.wait_for_selector("#nick-form", state="hidden")
    page.click(f".seat[data-seat='{seat}'] button.sit")
    page.wait_for_selector("#buyin-form", state="visible")
    assert page.locator("#buyin-option-box").is_visible()  # a casino table offers the option
    assert not page.is_checked("#buyin-option")
    if option:
        page.check("#buyin-option")
    page.fill("#buyin", "1000")
    page.click("#buyin-ok")
    page.wait_for_selector(f".seat.you[data-seat='{seat}']")
    page.wait_for_selector("#option-box", state="visible")


def dock_fits(client: Client) -> None:
    """The option box is in view and touches none of the dock's other controls."""
    _no_sideways_scroll(client)
    mine = _in_view(client, "#option-box")
    others = client.page.evaluate(
        """() => [...document.querySelectorAll(
        '.misc > :not(#option-box), #actions, #hole, #me-label')]
      .filter((n) => n.getClientRects().length > 0).map((n) => {
        const r = n.getBoundingClientRect();
        return {name: n.id, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })"""
    )
    for other in others:
        assert not overlaps(mine, other), (mine, other)


def test_the_option_from_the_buy_in_form_and_the_dock(
    web_server: WebServer, open_client: OpenClient
) -> None:
    ana = open_client("ana", viewport=(1366, 768))
    page = ana.page
    link, table, invite = create_cash_table(
        page, web_server.base, nick="Ana", name="Option", seats=6
    )

    bob = open_client("bob", locale="fr-FR", viewport=(360, 640))
    cleo = open_client("cleo", viewport=(1366, 768))
    sit(ana, link, "Ana", 1)
    sit(bob, link, "Bob", 3)
    assert not box_ticked(ana) and not box_ticked(bob)
    assert straddles(web_server, table, invite) == []
    dock_fits(bob)

    # the button goes round heads-up (two hands dealt): a newcomer now joins a game in
    # progress, and may come in « directement en option »
    def two_dealt() -> bool:
        play_along([ana, bob])
        return int(page.get_attribute("#table-view", "data-hand") or 0) >= 2

    wait_until(two_dealt, "two hands dealt", 40)
    sit(cleo, link, "Cleo", 5, option=True)
    cleo_posts = "Cleo: posts the option 100"
    # her seat is in the snapshot's straddles (the page's box says so) until she is dealt in
    wait_until(lambda: box_ticked(cleo) or logged(cleo, cleo_posts), "Cleo's box ticked")
    cleo.shot("cash-option-entry-1366x768", full_page=False)

    # Bob ticks the option on his phone: taken from the next deal (the server's notice)
    bob.page.check("#option-on")
    wait_until(lambda: 3 in straddles(web_server, table, invite), "Bob's option taken", 10)
    assert box_ticked(bob)
    dock_fits(bob)
    bob.shot("cash-option-ticked-360x640", full_page=False)

    # a few hands: Cleo's entry, then Bob's option when he is first after the big blind
    players = [ana, bob, cleo]

    def posted() -> bool:
        play_along(players)
        return logged(ana, cleo_posts) and logged(bob, f"Bob: met l'option {OPTION}")

    wait_until(posted, "Cleo's entry and Bob's option in the logs", 90)
    assert logged(ana, f"Bob: posts the option {OPTION}")
    assert logged(cleo, f"Bob: posts the option {OPTION}")
    assert logged(bob, f"Cleo: met l'option {OPTION}")
    bob.shot("cash-option-posted-360x640", full_page=False)

    # each box says what the server says: Bob's standing choice stays, Cleo's entry is over
    def boxes_agree() -> bool:
        play_along(players)
        server = straddles(web_server, table, invite)
        shown = [box_ticked(c) for c in players]
        return server == [3] and shown == [seat in server for seat in (1, 3, 5)]

    wait_until(boxes_agree, "the boxes and the server's straddles to agree", 15)

    # Bob stops: his box and the server's list are cleared together
    bob.page.uncheck("#option-on")
    wait_until(lambda: straddles(web_server, table, invite) == [], "Bob's option off", 10)
    assert not box_ticked(bob)
