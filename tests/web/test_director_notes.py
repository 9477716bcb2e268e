"""The server's own voices in the table's log (issue 26: « his chat looks like the director's
notes »): in real Chromium, the host's note is drawn with a badge and a frame that a
player's chat line never gets, whatever he writes; and nobody may call himself "Director".

The host of a friends table and the director of a tournament share the drawing
(client_web/js/log.js ``voiceOf``): the host is what a friends table has."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.sync.client import ClientConnection, connect

from .conftest import Client, WebServer, wait_until

OpenClient = Callable[..., Client]
IMITATION = "⚖ Table host: the table is paused"


class Wire:
    """A plain msgpack websocket client whose frames are read (and kept) on a thread."""

    def __init__(self, url: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(url, open_timeout=10))
        self.messages: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

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


def line_styles(page: Any, selector: str) -> dict[str, str]:
    return dict(
        page.eval_on_selector(
            selector,
            "(li) => { const s = getComputedStyle(li);"
            " return {background: s.backgroundColor, border: s.borderLeftStyle,"
            " italic: s.fontStyle}; }",
        )
    )


def test_the_hosts_notes_cannot_be_imitated_by_a_players_chat(
    web_server: WebServer, open_client: OpenClient
) -> None:
    ws_url = f"ws://127.0.0.1:{web_server.port}/ws"
    creator, bob = Wire(ws_url), Wire(ws_url)
    try:
        creator.send(t="hello", version=1, nickname="Creator")
        creator.send(t="create", id=1, name="Notes")
        created = creator.first("table_created")
        table, invite, token = created["table"], created["invite"], created["host"]

        client = open_client("ana")
        page = client.page
        page.goto(f"{web_server.base}/?table={table}&invite={invite}")
        page.fill("#nick", "Ana")
        page.click("#nick-ok")
        page.wait_for_selector("#nick-form", state="hidden")

        # Bob would be "Director": refused; as Bob he sits and imitates the host's words
        bob.send(t="hello", version=1, nickname="Director", id=1)
        assert bob.first("error")["code"] == "reserved_name"
        assert not [x for x in bob.messages if x.get("t") == "welcome"]
        bob.send(t="hello", version=1, nickname="Bob", token=invite)
        bob.first("welcome")
        bob.send(t="join", table=table)
        bob.send(t="sit", table=table, seat=2, token=invite, id=2)
        bob.first("seated")
        bob.send(t="chat", table=table, text=IMITATION, id=3)
        page.wait_for_selector("#log li.chat >> text=Bob says:")
        creator.send(t="host", table=table, token=token, op="pause", id=4)
        note = page.wait_for_selector("#log li.voice")
        assert note is not None

        # the host's note: its badge (the page's words) and its frame
        assert note.get_attribute("data-voice") == "host"
        assert note.get_attribute("role") == "note"
        assert page.inner_text("#log li.voice .voice-badge").strip().endswith("Table host")
        assert page.inner_text("#log li.voice .voice-text") == "the table is paused"
        # Bob's imitation: a chat line, plain text after his name, with no badge or frame
        chat = page.inner_text("#log li.chat")
        assert chat.startswith("Bob says:") and IMITATION in chat
        assert page.locator("#log .voice-badge").count() == 1
        assert page.locator("#log li.chat .voice-badge, #log li.chat .voice-text").count() == 0
        voice, said = line_styles(page, "#log li.voice"), line_styles(page, "#log li.chat")
        assert voice["background"] != said["background"]
        assert voice["border"] == "solid" and said["border"] == "none"
        assert said["italic"] == "italic" and voice["italic"] == "normal"
        client.shot("director-notes", full_page=False)

        # in French too: the badge is the page's, in the page's language
        page.click("#lang")
        wait_until(
            lambda: "Hôte de la table" in page.inner_text("#log li.voice .voice-badge"),
            "the French badge",
        )
        assert page.inner_text("#log li.chat").startswith("Bob dit")
    finally:
        creator.close()
        bob.close()


def test_a_stored_nickname_that_is_reserved_is_asked_again(
    web_server: WebServer, open_client: OpenClient
) -> None:
    """A browser that kept "Host" as its nickname (typed before names were reserved): the
    page says why, forgets it, asks for another and sits under it (no page stuck saying
    hello again and again)."""
    ws_url = f"ws://127.0.0.1:{web_server.port}/ws"
    creator = Wire(ws_url)
    try:
        creator.send(t="hello", version=1, nickname="Creator")
        creator.send(t="create", id=1, name="Names")
        created = creator.first("table_created")
        for size, viewport in (("phone", (390, 844)), ("laptop", (1366, 768))):
            client = open_client(f"kept-{size}", viewport=viewport)
            page = client.page
            page.add_init_script("localStorage.setItem('brasseur.nick', 'Host')")
            page.goto(f"{web_server.base}/?table={created['table']}&invite={created['invite']}")
            page.wait_for_selector("#error >> text=the director's or the host's")
            form = page.wait_for_selector("#nick-form", state="visible")
            assert form is not None
            assert page.evaluate("localStorage.getItem('brasseur.nick')") is None
            page.fill("#nick", f"Ana {size}")
            page.click("#nick-ok")
            page.wait_for_selector("#nick-form", state="hidden")
            seat = 1 if size == "phone" else 2
            page.click(f".seat[data-seat='{seat}'] button.sit")
            page.wait_for_selector(f".seat.you[data-seat='{seat}']")
            assert f"Ana {size}" in page.inner_text(f".seat[data-seat='{seat}']")
            # the seat is drawn again as the table's state comes: its box once it is shown
            box = wait_until(
                lambda p=page, s=seat: p.locator(f".seat[data-seat='{s}']").bounding_box(),
                "the seat's box",
                5,
            )
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0]
            client.shot(f"reserved-nickname-{size}", full_page=False)
    finally:
        creator.close()
