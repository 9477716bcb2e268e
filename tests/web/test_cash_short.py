"""A cash player whose stack is under the big blind, in the browser (casino cash: « On ne peut
pas recevoir de cartes avec une cave inférieure à la grosse blind »): the page says why he
is dealt nothing and what to do, at phone and laptop sizes; he adds chips from the page and
is dealt in, and the ledger says what he added."""

from __future__ import annotations

import contextlib
import csv
import io
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import Client, WebServer

OpenClient = Callable[..., Client]


class Raw:
    """A plain msgpack websocket client whose frames are read (and kept) on a thread."""

    def __init__(self, url: str, nickname: str, token: str | None = None) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(url, open_timeout=10))
        self.messages: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        hello: dict[str, Any] = {"t": "hello", "version": 1, "nickname": nickname}
        if token is not None:
            hello["token"] = token
        self.send(**hello)

    def send(self, **message: Any) -> None:
        self.ws.send(msgpack.packb(message))

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for frame in self.ws:
                if isinstance(frame, bytes):
                    self.messages.append(msgpack.unpackb(frame))

    def first(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [x for x in list(self.messages) if x.get("t") == kind]
            if found:
                return found[0]
            time.sleep(0.05)
        raise AssertionError(f"no {kind}: {self.messages[-5:]}")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


@pytest.mark.parametrize("viewport", [(360, 640), (1366, 768)], ids=["phone", "laptop"])
def test_a_short_stack_is_told_on_screen_and_adds_chips_from_the_page(
    web_server: WebServer, open_client: OpenClient, viewport: tuple[int, int]
) -> None:
    ws_url = f"ws://127.0.0.1:{web_server.port}/ws"
    host = Raw(ws_url, "creator")
    host.send(
        t="create", id=1, name="Court", profile="casino", sb=25, bb=50, game="cash",
        min_buy_in=500, max_buy_in=5000, max_seats=6,
    )  # fmt: skip
    created = host.first("table_created")
    table, invite, token = created["table"], created["invite"], created["host"]
    client = open_client("ana", viewport=viewport)
    page = client.page
    page.goto(f"{web_server.base}/?table={table}&invite={invite}")
    page.fill("#nick", "Ana")
    page.click("#nick-ok")
    page.wait_for_selector("#nick-form", state="hidden")
    page.click(".seat[data-seat='2'] button.sit")
    page.fill("#buyin", "500")
    page.click("#buyin-ok")
    page.wait_for_selector(".seat.you[data-seat='2']")
    # the host raises the limits and the blinds to 300/600: Ana's 500 is under a big blind
    host.send(t="host", table=table, token=token, op="limits", min_buy_in=600, max_buy_in=6000)
    host.send(t="host", table=table, token=token, op="blinds", sb=300, bb=600)
    bob = Raw(ws_url, "Bob", invite)
    try:
        bob.send(t="join", table=table)
        bob.send(t="sit", table=table, seat=1, token=invite, buy_in=1200)
        bob.first("seated")
        # the page says it, on Ana's seat and under her cards, inside the screen
        tag = page.wait_for_selector(".seat.you[data-seat='2'] >> text=add chips")
        hint = page.wait_for_selector("#bust", state="visible")
        assert tag is not None and hint is not None
        assert "under the big blind" in hint.inner_text()
        box = hint.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport[1]
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0]
        assert page.get_attribute(".seat.you[data-seat='2']", "data-stack") == "500"
        # the table says what it waits for: not players, chips
        page.wait_for_selector("text=Waiting for chips: Ana under the big blind")
        client.shot(f"cash-short-{viewport[0]}x{viewport[1]}", full_page=False)
        # nothing is dealt: one player may be dealt in
        time.sleep(1.0)
        assert not [x for x in bob.messages if x.get("t") == "hand_start"]
        # Ana adds chips from the page: dealt in at once, the words gone
        page.click("#add-chips")
        # the form says the host's new limits (the page asked for them: a fresh snapshot)
        hint = page.inner_text("#add-hint")
        assert "600 to 6,000" in hint and "(500)" in hint, hint
        page.fill("#add-amount", "600")
        page.click("#add-ok")
        start = bob.first("hand_start")
        assert sorted(int(s) for s in start["stacks"]) == [1, 2]
        assert start["stacks"].get("2", start["stacks"].get(2)) == 1100
        page.wait_for_selector("#hole .card >> nth=1")
        page.wait_for_selector("#bust", state="hidden")
        assert not page.query_selector(".seat.you[data-seat='2'] >> text=add chips")
        url = f"{web_server.base}/api/tables/{table}/ledger.csv?t={invite}"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        rows = list(csv.DictReader(io.StringIO(text.split("\n\n")[0])))
        ana = [(r["move"], int(r["amount"])) for r in rows if r["name"] == "Ana"]
        assert ana == [("buy_in", 500), ("top_up", 600)], text
    finally:
        bob.close()
        host.close()
