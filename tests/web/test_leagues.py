"""League pages in the browser (issue 15, docs/leagues.md): a director creates an account, a
league (its invite link), a season with points by place and an event starting in a few
seconds, all from the page; two members open the invite link, create their accounts there
(the page then joins with ``league_join``) and register for the event from the league's
page; the event starts by itself at its time and is played to the end; the standings table
appears on every member's league page and says what the server's standings JSON says, the
points being the season's table (10 for the winner, 6 for the second). Phone (360x640) and
laptop (1366x768), French and English, nothing overlapping.

The server runs every clock 400 times faster (``--clock-speed``: tournaments' levels and
action clocks, not the calendar), as tests/integration/test_leagues.py does: a browser
player could not act within an action clock of 75 ms, so the members' seats are played by
websocket clients of the test, following their seats with the player tokens the pages got
when they registered (what the tournament's page does with them). All-in every hand: once
one is out, the Tour des Potes ends when its late registration closes (the end of level 2,
fpc 2-2: 7.5 s of real time)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
import pytest
from playwright.sync_api import Page
from websockets.sync.client import ClientConnection, connect

from .conftest import Client, WebServer, _free_port, _require_browser, serve, wait_until

OpenClient = Callable[..., Client]

PHONE = (360, 640)
LAPTOP = (1366, 768)
PASSWORD = "la bonne main 2026"
CLOCK = 400
POINTS = (10, 6, 3)  # places:10,6,3 (ligue 8: a league's own table of points by place)
AHEAD = 35  # seconds between scheduling the event and its start: time for two members to join

# The boxes of what a league page shows (leaf items, none inside another).
LAYOUT = """() => {
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  const box = (n) => { const r = n.getBoundingClientRect();
    return {name: n.id || n.className || n.tagName, text: n.textContent.slice(0, 30),
            left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
            bottom: r.bottom + scrollY, w: r.width, h: r.height}; };
  const sel = ['#top > :not(.spacer):not(#member)', '#member > *', '#lg-meta', '#lg-note',
    '#lg-problem', '#lg-login', '#lg-invite > label', '#lg-invite .row > *', '.lg-season > h2',
    '.lg-system', '.lg-event-head > *', '.lg-event .t-meta > *', '.lg-event .lg-note',
    '.lg-event .row > *', '.lg-season > h3', '.lg-table', '.lg-empty', '.lg-direct > h2',
    '.lg-direct form > label', '.lg-direct form > button', '#error', '#leagues-panel > h2',
    '#my-leagues li', '#league-form > *', '#league-created > p', '#league-link',
    '#league-created .row > *'].join(', ');
  return {width: innerWidth, pageWidth: document.scrollingElement.scrollWidth,
          items: [...document.querySelectorAll(sel)].filter(shown).map(box).filter((b) => b.w > 0)};
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def check_layout(client: Client, least: int) -> None:
    """Everything shown is inside the page's width (no sideways scroll), nothing on another."""
    boxes = client.page.evaluate(LAYOUT)
    width, items = boxes["width"], boxes["items"]
    assert boxes["pageWidth"] <= width, boxes["pageWidth"]
    assert len(items) >= least, items
    for item in items:
        assert item["left"] >= -0.5 and item["right"] <= width + 0.5, item
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            assert not overlap(a, b), (a, b)


# ---------------------------------------------------------------------- the server, the seats


@pytest.fixture(scope="module")
def league_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server whose tournaments run 400 times faster (the calendar does not)."""
    _require_browser()
    data = tmp_path_factory.mktemp("league-data")
    port = _free_port()
    args = ["--port", str(port), "--data", str(data), "--clock-speed", str(CLOCK)]
    with serve(args, data):
        yield WebServer(port=port, invite_link="", data=data)


class Seat:
    """A member's tournament seat played over the wire with his player token (``follow``
    puts this connection on his seat wherever the director seats or moves him): all-in
    whenever he may raise, else check or call; cuts when asked."""

    def __init__(self, port: int, tournament: str, token: str) -> None:
        self.table = ""
        self.seat = 0
        self.errors: list[dict[str, Any]] = []
        self.decided: set[tuple[str, int, int]] = set()
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        )
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.send(t="hello", version=1, nickname="seat")
        self.send(t="follow", tournament=tournament, token=token, id=1)

    def send(self, **message: Any) -> None:
        with contextlib.suppress(Exception):
            self.ws.send(msgpack.packb(message))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()
        self.thread.join(5)

    def _read(self) -> None:
        try:
            for frame in self.ws:
                if isinstance(frame, bytes):
                    self._take(msgpack.unpackb(frame))
        except Exception:  # the connection closed: the test is over
            return

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "error":
            self.errors.append(msg)
        elif kind == "moved":
            self.table, self.seat = str(msg["table"]), int(msg["seat"])
        elif kind == "cut_prompt" and msg.get("seat") == self.seat:
            self.send(t="cut", table=msg["table"], hand=msg["hand"], position=11)
        elif kind == "turn":
            key = (str(msg["table"]), int(msg["hand"]), int(msg.get("decision", -1)))
            if key in self.decided:
                return
            self.decided.add(key)
            verb = "allin" if msg.get("can_raise") else "check" if msg.get("can_check") else "call"
            self.send(
                t="act", table=msg["table"], hand=msg["hand"], verb=verb, decision=msg["decision"]
            )


def get_json(server: WebServer, path: str) -> Any:
    with urllib.request.urlopen(server.base + path, timeout=5) as reply:
        return json.loads(reply.read())


# ---------------------------------------------------------------------- page steps


def create_account(page: Page, login: str, display: str) -> None:
    """From the header's panel (or the league page's "Log in"), a new account."""
    if page.locator("#account").is_hidden():
        page.click("#lg-login" if page.locator("#lg-login").is_visible() else "#account-open")
    page.wait_for_selector("#login-form", state="visible")
    page.click("#to-register")
    page.fill("#r-login", login)
    page.fill("#r-password", PASSWORD)
    page.fill("#r-display", display)
    page.click("#register-ok")
    page.wait_for_function(
        "n => document.getElementById('member-name').textContent === n", arg=display
    )


def league_texts(page: Page) -> dict[str, Any]:
    """What the league page says: title, role line, seasons (with events and standings)."""
    texts: dict[str, Any] = page.evaluate(
        """() => ({
      title: document.getElementById('title').textContent,
      meta: document.getElementById('lg-meta').textContent,
      seasons: [...document.querySelectorAll('.lg-season')].map((s) => ({
        id: s.dataset.season, name: s.querySelector('h2').textContent,
        system: s.querySelector('.lg-system').textContent,
        events: [...s.querySelectorAll('.lg-event')].map((e) => ({...e.dataset,
          name: e.querySelector('strong').textContent})),
        rows: [...s.querySelectorAll('.lg-standings tbody tr')].map((r) => ({...r.dataset,
          cells: [...r.cells].map((c) => c.textContent)})),
      })),
    })"""
    )
    return texts


def standings_shown(page: Page) -> list[dict[str, Any]]:
    seasons = league_texts(page)["seasons"]
    return seasons[0]["rows"] if seasons else []


def in_the_future(page: Page, seconds: int) -> tuple[str, str, int]:
    """The date and time inputs' values for ``seconds`` from now (the browser's time zone),
    and the unix time they mean."""
    date, clock, unix = page.evaluate(
        """(ahead) => { const d = new Date(Date.now() + ahead * 1000); d.setMilliseconds(0);
      const p = (n) => String(n).padStart(2, '0');
      return [`${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`,
              `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`,
              d.getTime() / 1000]; }""",
        seconds,
    )
    return str(date), str(clock), int(unix)


# ---------------------------------------------------------------------- the scenario


def test_a_league_season_event_and_its_standings_in_the_browser(
    league_server: WebServer, open_client: OpenClient
) -> None:
    started = time.monotonic()
    server = league_server
    director = open_client("director", "fr-FR", LAPTOP)
    page = director.page
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    assert page.locator("#leagues-panel").is_hidden()  # a guest has no leagues
    create_account(page, "dir", "Dominique")

    # "Mes ligues": none yet; a new league and its invite link
    page.wait_for_selector("#leagues-panel", state="visible")
    assert "Pas encore de ligue" in page.inner_text("#my-leagues")
    page.fill("#lg-new-name", "Les Potes")
    page.click("#lg-create")
    page.wait_for_selector("#league-created", state="visible")
    invite = page.input_value("#league-link").replace("localhost", "127.0.0.1")
    assert "?league=" in invite and "&join=" in invite, invite
    league = invite.split("league=")[1].split("&")[0]
    page.wait_for_selector(f"#my-leagues a[data-league='{league}']")
    check_layout(director, 8)
    director.shot("league-lobby-1366x768", full_page=False)

    # the league's page: the owner, his invite link, his forms
    page.click("#league-open")
    page.wait_for_function("() => document.getElementById('title').textContent === 'Les Potes'")
    page.wait_for_selector("#lg-invite", state="visible")
    assert page.input_value("#lg-invite-link").replace("localhost", "127.0.0.1") == invite
    assert league_texts(page)["meta"] == "propriétaire · 1 membre"
    assert page.locator("#lg-event-panel").is_hidden()  # no season yet

    # a season with points by place
    page.fill("#se-name", "2026")
    page.select_option("#se-points", "places")
    page.fill("#se-places", ",".join(map(str, POINTS)))
    page.click("#se-create")
    page.wait_for_selector(".lg-season h2:text('2026')")
    season = league_texts(page)["seasons"][0]
    assert season["system"] == "Points par place : 10, 6, 3", season
    page.wait_for_selector(".lg-season .lg-empty")  # its standings, fetched: nobody yet
    assert page.inner_text(".lg-season .lg-empty") == "Pas encore de résultat."

    # an event starting a little later: the Tour des Potes structure, accounts only
    page.wait_for_selector("#lg-event-panel", state="visible")
    assert page.input_value("#ev-season") == season["id"]
    date, clock, starts_at = in_the_future(page, AHEAD)
    page.fill("#ev-name", "Etape 1")
    page.select_option("#ev-structure", "tour_des_potes_bb_ante")
    page.fill("#ev-date", date)
    page.fill("#ev-time", clock)
    assert page.is_checked("#ev-account")
    page.click("#ev-create")
    page.wait_for_selector(".lg-event[data-status='registering']")
    event = league_texts(page)["seasons"][0]["events"][0]
    assert (event["name"], event["startsAt"]) == ("Etape 1", str(starts_at)), event
    tournament = event["tournament"]
    state = get_json(server, f"/api/tournaments/{tournament}")
    assert (state["name"], state["phase"]) == ("Etape 1", "registering")
    assert page.locator(f".lg-event[data-tournament='{tournament}'] a.lg-console").is_visible()
    check_layout(director, 20)
    director.shot("league-director-1366x768")

    # two members open the invite link, create their accounts there, join, register
    members = {
        "ana": (open_client("ana", "fr-FR", PHONE), "Ana"),
        "bob": (open_client("bob", "en-US", LAPTOP), "Bob"),
    }
    tokens = {}
    for login, (client, display) in members.items():
        p = client.page
        p.goto(invite)
        p.wait_for_selector("#lg-login", state="visible")  # log in first: a league knows accounts
        create_account(p, login, display)
        p.wait_for_function("() => document.getElementById('title').textContent === 'Les Potes'")
        assert "join=" not in p.url  # a reload asks for the league, it does not join again
        assert p.locator("#lg-invite").is_hidden() and p.locator("#lg-season-panel").is_hidden()
        p.click(f".lg-event[data-tournament='{tournament}'] button.lg-register")
        p.wait_for_selector(f".lg-event[data-tournament='{tournament}'] .lg-registered")
        kept = p.evaluate("(t) => localStorage.getItem('brasseur.tournament.' + t)", tournament)
        tokens[login] = json.loads(kept)["token"]
    ana, bob = members["ana"][0], members["bob"][0]
    # (each page asks again every few seconds: Ana's saw two members when she joined)
    wait_until(lambda: league_texts(ana.page)["meta"] == "membre · 3 membres", "Ana's count")
    assert league_texts(bob.page)["meta"] == "member · 3 members"
    check_layout(ana, 12)
    ana.shot("league-member-360x640", full_page=False)
    assert time.time() < starts_at - 2, "the members registered too late for the start"
    registered = get_json(server, f"/api/tournaments/{tournament}")["registered"]
    assert sorted(registered) == ["Ana", "Bob"], registered

    # the event starts by itself at its time and is played (all-in) to the end
    seats = [Seat(server.port, tournament, token) for token in tokens.values()]
    try:
        page.wait_for_selector(
            ".lg-event[data-status='running'], .lg-event[data-status='finished']",
            timeout=(AHEAD + 20) * 1000,
        )
        assert time.time() >= starts_at - 1  # not before its time
        page.wait_for_selector(".lg-event[data-status='finished']", timeout=60_000)
    finally:
        for seat in seats:
            seat.close()
    assert not [e for s in seats for e in s.errors if e.get("code") != "stale_decision"]

    # the standings: the server's JSON, shown on every member's page
    url = f"/api/leagues/{league}/seasons/{season['id']}/standings.json"
    doc = get_json(server, url)
    rows = doc["standings"]
    assert [r["points"] for r in rows] == [10, 6], rows
    results = get_json(server, f"/api/tournaments/{tournament}/results.json")["results"]
    winner = next(r["player_id"] for r in results if r["place"] == 1).removeprefix("m.")
    assert rows[0]["player_id"] == winner
    for client in (director, ana, bob):

        def two_rows(c: Client = client) -> bool:
            return len(standings_shown(c.page)) == 2

        wait_until(two_rows, "the standings", 15)
        shown = standings_shown(client.page)
        for row, want in zip(shown, rows, strict=True):
            assert row["player"] == want["player_id"], (row, want)
            assert row["rank"] == str(want["rank"]) and row["value"] == str(want["points"])
            assert row["cells"][1] == doc["names"][want["player_id"]]
            assert "Etape 1" in row["cells"][3], row
    assert sorted(doc["names"].values()) == ["Ana", "Bob"]
    assert "1er · 10" in standings_shown(ana.page)[0]["cells"][3]
    assert "1st · 10" in standings_shown(bob.page)[0]["cells"][3]
    check_layout(ana, 12)
    check_layout(director, 20)
    ana.shot("league-standings-360x640")
    director.shot("league-standings-1366x768")
    bob.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    check_layout(bob, 12)

    # a cash season (fpc cash: « un capital de départ de 40 000 jetons »), and its first
    # table, opened from the league's page: its invite link leads to an fpc cash table
    page.fill("#se-name", "Cash 2026")
    page.select_option("#se-points", "capital")
    page.wait_for_selector("#se-best-box", state="hidden")  # no best N: every buy-in counts
    assert page.input_value("#se-capital") == "40000"
    page.click("#se-create")
    cash = ".lg-season:has(h2:text-is('Cash 2026'))"
    page.wait_for_selector(f"{cash} .lg-empty")  # its standings: nobody has played yet
    assert "capital de 40 000 chacun" in page.inner_text(cash).replace("\u202f", " ")
    assert page.locator("#ev-season option").count() == 1  # no events in a cash season
    page.click(f"{cash} button.lg-cash-open")
    page.wait_for_selector("#lg-cash-created", state="visible")
    table_link = page.input_value("#lg-cash-link").replace("localhost", "127.0.0.1")
    assert "Les Potes · Cash 2026" in page.inner_text("#lg-cash-text")
    bob.page.goto(table_link)
    bob.page.wait_for_function(
        "() => (document.getElementById('info').textContent || '').startsWith('fpc · 25/50')"
    )
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})  # the forms on a phone
    check_layout(director, 20)
    director.shot("league-director-360x640")
    # Ana's lobby lists the league she joined in this browser, as a member
    ana.page.goto(server.base + "/")
    ana.page.wait_for_selector(f"#my-leagues a[data-league='{league}']")
    assert "Les Potes membre" in ana.page.inner_text("#my-leagues")
    check_layout(ana, 8)
    ana.shot("league-lobby-360x640", full_page=False)
    assert time.monotonic() - started < 120
