"""A league night end to end in the browser (issue 29: its league-night scenario, items 1 and
9): accounts, a league, a Tour des Potes season (fpc part B points) and its two stages made
from the director's forms, each of four players (Ana on a 390x844 phone, Bob on a 360x640
phone, Cat and Dan over the wire; the director on a 1366x768 laptop) played to their end,
the standings equal to the book's points on every page, in JSON and in CSV (with names).

Stage 1 is all-in every hand: once one player is left, late registration (open to the end of
level 2, fpc 2-2) is all the stage waits for, and every page says so and until when; a plain
member, a stranger and a player token may not close it (refused with stable codes, nothing
changed); the director closes it from the league page and the stage ends at once. Stage 2 is
check-and-call: the pages say late registration is open with four players in play; the
director closes it from the console; a latecomer then reads "Registration is closed"; the
seats go all-in and the stage ends. Tied players (busted in one hand with equal stacks)
carry "=" and the page quotes fpc 4-4.

Slow (about two minutes): two real tournaments, with two phones and a laptop redrawing the
league pages every 3 s. The server runs its clocks 10 times faster (levels of 25 minutes last
2.5 minutes: late registration stays open 5 minutes, longer than the test needs); the seats
are played over the wire with the tokens the pages got (tests/web/test_leagues.py)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
import pytest
from playwright.sync_api import Page

from server.league.points import FPC_TOUR_DES_POTES
from server.league.results import Entry, EventKind, EventResult

from .conftest import Client, WebServer, _free_port, _require_browser, serve, wait_until
from .seen import SIZES, assert_no_code, assert_seen
from .test_league_cup import Member
from .test_league_late import Caller, token_of
from .test_leagues import (
    LAPTOP,
    PHONE,
    Seat,
    create_account,
    get_json,
    in_the_future,
    standings_shown,
)

OpenClient = Callable[..., Client]
CLOCK = 10
PHONE_TALL = SIZES[0]  # 390x844 (then 360x640 and 1366x768: issue 29's three sizes)
AHEAD = 40  # seconds from scheduling to the start: two members register from their pages

# Scrolls an element to the middle of the window (what a person does to reach it).
SCROLL = """(sel) => { const n = document.querySelector(sel);
  if (n) n.scrollIntoView({block: 'center', inline: 'nearest'}); }"""
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((n) => n.getClientRects().length && n.getBoundingClientRect().right > innerWidth + 0.5)
  .map((n) => n.id || n.className || n.tagName).slice(0, 12)"""


def seen(client: Client, selector: str, label: str) -> str:
    """``selector``'s text, after checking a person sees it at each of the three sizes (then
    back to the client's own size): inside the viewport, not covered, no code on the page.
    A screenshot at each size."""
    page = client.page
    own = page.viewport_size
    text = ""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SCROLL, selector)
        assert_seen(page, selector, who=client.name)
        shown = assert_no_code(page, f"{client.name} at {width}x{height}")
        assert not [w for w in ("undefined", "NaN", "[object") if w in shown], shown[:2000]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width, page.evaluate(WIDE)
        client.shot(f"league-e2e-{label}-{width}x{height}", full_page=False)
        text = page.inner_text(selector)
    if own:
        page.set_viewport_size(own)
    return text


class Switch(Caller):
    """A seat that checks or calls until ``shove`` is set, then goes all-in when it may."""

    shove = False

    def _take(self, msg: dict[str, Any]) -> None:
        if self.shove:
            Seat._take(self, msg)
        else:
            super()._take(msg)


def refusal(port: int, session: str | None, **message: Any) -> dict[str, Any]:
    """One request on a connection of its own (a member's session, or none): its answer."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        hello: dict[str, Any] = {"t": "hello", "version": 1, "nickname": "x"}
        if session:
            hello["member"] = session
        ws.send(msgpack.packb(hello))
        ws.send(msgpack.packb({**message, "id": 7}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = msgpack.unpackb(ws.recv(timeout=10))
            if msg.get("ref") == 7 or (msg.get("t") == "error" and "ref" not in msg):
                return dict(msg)
    raise AssertionError(f"no answer to {message}")


def get_text(server: WebServer, path: str) -> str:
    with urllib.request.urlopen(server.base + path, timeout=5) as reply:
        return str(reply.read().decode())


def book_points(results: list[dict[str, Any]], event_id: str) -> dict[str, int]:
    """fpc part B « Attribution des points » applied to a stage's results, by the league's
    pure formula (tests/league checks it on the book's 40-player example)."""
    entries = tuple(
        Entry(player_id=str(r["player_id"]).removeprefix("m."), place=int(r["place"]))
        for r in results
    )
    result = EventResult(
        event_id=event_id,
        kind=EventKind.TOURNAMENT,
        date=datetime.date.today(),
        entries=entries,
    )
    return dict(FPC_TOUR_DES_POTES.event_points(result))


@pytest.fixture(scope="module")
def night_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    _require_browser()
    data = tmp_path_factory.mktemp("league-night-e2e")
    port = _free_port()
    args = ["--port", str(port), "--data", str(data), "--clock-speed", str(CLOCK)]
    with serve(args, data):
        yield WebServer(port=port, invite_link="", data=data)


def wait_text(page: Page, selector: str, phrase: str, timeout: float = 20_000) -> None:
    """Until ``selector`` shows ``phrase`` (a league page asks the server every 3 s)."""
    page.wait_for_function(
        "([sel, phrase]) => { const n = document.querySelector(sel);"
        " return Boolean(n) && n.textContent.includes(phrase); }",
        arg=[selector, phrase],
        timeout=timeout,
    )


def event_line(page: Page, event: str) -> str:
    return f".lg-event[data-event='{event}']"


def test_a_league_night_played_to_its_end_with_late_registration_said_and_closed(
    night_server: WebServer, open_client: OpenClient
) -> None:
    started = time.monotonic()
    server = night_server
    port = server.port
    director = open_client("director-e2e", "fr-FR", LAPTOP)
    director.page.goto(server.base + "/")
    create_account(director.page, "dir_e2e", "Dominique")
    wire = [Member(port, login) for login in ("cat_e2e", "dan_e2e")]
    eve = Member(port, "eve_e2e")  # an account of no league: a stranger
    seats: list[Seat] = []
    try:
        # the director's league and season, from his page's forms
        page = director.page
        page.wait_for_selector("#leagues-panel", state="visible")
        page.fill("#lg-new-name", "Les Potes du jeudi")
        page.click("#lg-create")
        page.wait_for_selector("#league-created", state="visible")
        link = page.input_value("#league-link")
        league, invite = link.split("league=")[1].split("&")[0], link.split("join=")[1]
        page.click("#league-open")
        page.wait_for_selector("#se-name", state="visible")
        page.fill("#se-name", "2026")
        page.select_option("#se-points", "fpc_tour_des_potes")
        page.click("#se-create")
        page.wait_for_selector(".lg-season h2:text('2026')")
        sid = str(page.get_attribute(".lg-season", "data-season"))
        # the members: Ana and Bob open the invite link and create their accounts there
        pages = {"Ana": open_client("ana-e2e", "fr-FR", PHONE_TALL)}
        pages["Bob"] = open_client("bob-e2e", "en-US", PHONE)
        for name, client in pages.items():
            client.page.goto(f"{server.base}/?league={league}&join={invite}")
            client.page.wait_for_selector("#lg-login", state="visible")
            create_account(client.page, f"{name.lower()}_e2e", name)
            client.page.wait_for_selector(".lg-season")
        for member in wire:
            member.ask(t="league_join", member=member.token, invite=invite)
        # two stages, from the event form, starting together a little later
        page.wait_for_selector("#lg-event-panel", state="visible")
        for stage in ("Etape 1", "Etape 2"):
            date, clock, starts = in_the_future(page, AHEAD)
            page.fill("#ev-name", stage)
            page.select_option("#ev-structure", "tour_des_potes_bb_ante")
            page.fill("#ev-date", date)
            page.fill("#ev-time", clock)
            page.click("#ev-create")
            page.wait_for_selector(f".lg-event:has(strong:text-is('{stage}'))")
        events = page.evaluate(
            "() => [...document.querySelectorAll('.lg-event')].map((e) => ({id: e.dataset.event,"
            " tournament: e.dataset.tournament, startsAt: Number(e.dataset.startsAt),"
            " name: e.querySelector('strong').textContent}))"
        )
        one, two = (next(e for e in events if e["name"] == n) for n in ("Etape 1", "Etape 2"))
        tids = {one["id"]: one["tournament"], two["id"]: two["tournament"]}
        starts = min(one["startsAt"], two["startsAt"])

        # the event's time names its time zone (issue 29, item 9)
        line = event_line(page, one["id"])
        shown_time = page.inner_text(f"{line} time")
        zone = page.evaluate(
            "(u) => new Intl.DateTimeFormat('fr-FR', {timeZoneName: 'short'})"
            ".formatToParts(new Date(u * 1000)).find((p) => p.type === 'timeZoneName').value",
            one["startsAt"],
        )
        assert zone in shown_time, (zone, shown_time)

        # Ana and Bob register for both stages from the league page; Cat and Dan over the wire
        for client in pages.values():
            p = client.page
            for ev in (one, two):
                button = f"{event_line(p, ev['id'])} button.lg-register"
                p.wait_for_selector(button)
                p.click(button)
                p.wait_for_selector(f"{event_line(p, ev['id'])} .lg-registered")
        tokens: dict[str, dict[str, str]] = {tid: {} for tid in tids.values()}
        for name, client in pages.items():
            for tid in tids.values():
                tokens[tid][name] = token_of(client, tid)
        for member in wire:
            for tid in tids.values():
                asking = Member(port, "seat", member.token, member.ident)
                try:
                    tokens[tid][member.ident] = str(
                        asking.ask(t="register", tournament=tid)["token"]
                    )
                finally:
                    asking.close()
        assert time.time() < starts - 1, "registered too late for the start"
        for tid in tids.values():
            assert get_json(server, f"/api/tournaments/{tid}")["entries"] == 4
        stage1 = [Seat(port, tids[one["id"]], tok) for tok in tokens[tids[one["id"]]].values()]
        stage2 = [Switch(port, tids[two["id"]], tok) for tok in tokens[tids[two["id"]]].values()]
        seats += stage1 + stage2

        # ---- stage 1: all-in; one player left, the stage waits for late entries only
        t1 = tids[one["id"]]

        def one_left() -> bool:
            st = get_json(server, f"/api/tournaments/{t1}")
            return bool(st["phase"] != "registering" and st["players_left"] == 1)

        wait_until(one_left, "one player left in stage 1", AHEAD + 60)
        state = get_json(server, f"/api/tournaments/{t1}")
        assert state["late_registration"] and state["late_until_level"] == 2
        assert state["phase"] != "finished" and state["late_left"] > 0
        # the lobby's list says it too (what it waits for, until when)
        listed = next(x for x in get_json(server, "/api/tournaments") if x["id"] == t1)
        assert listed["late_registration"] and listed["late_until_level"] == 2
        assert listed["players_left"] == 1 and listed["late_left"] > 0
        lobby = director.page.context.new_page()
        lobby.goto(server.base)
        item = lobby.wait_for_selector(f".t-item[data-tournament='{t1}'] .t-late-wait")
        assert item is not None and "2" in item.inner_text(), item and item.inner_text()
        lobby.close()
        ana, bob = pages["Ana"], pages["Bob"]
        wait = f"{event_line(ana.page, one['id'])} .lg-wait"
        wait_text(ana.page, wait, "Un seul joueur en jeu")
        text = seen(ana, wait, "member-waits")
        assert "Un seul joueur en jeu" in text and "fin du niveau 2" in text, text
        close = f"{event_line(director.page, one['id'])} button.lg-close-late"
        director.page.wait_for_selector(close)
        wait_text(director.page, f"{event_line(director.page, one['id'])} .lg-wait", "Un seul")
        text = seen(director, f"{event_line(director.page, one['id'])} .lg-wait", "director-waits")
        assert "Fermez les inscriptions tardives" in text, text
        seen(director, close, "director-close")
        assert ana.page.locator(f"{event_line(ana.page, one['id'])} .lg-close-late").count() == 0
        # Bob, busted or not, on the stage's page: what it waits for, and its numbers
        bob.page.click(f"{event_line(bob.page, one['id'])} a.lg-follow")
        bob.page.wait_for_selector("#tournament-view", state="visible")
        bob.page.wait_for_selector("#t-late", state="visible")
        text = seen(bob, "#t-late", "tournament-waits")
        kept = bob.page.evaluate("(t) => localStorage.getItem('brasseur.tournament.' + t)", t1)
        bob_is_last = state["players"][0][0] == json.loads(kept)["player"]
        said = "You are the last player in" if bob_is_last else "One player left"
        assert said in text and "end of level 2" in text, text
        assert "left" in text and "Close" not in text  # (the director's words are his)
        assert bob.page.inner_text("#t-players") == "1/4"

        # refusals: a plain member, a stranger, a player's token; nothing changes
        close_msg = {"t": "league_event_close", "league": league, "event": one["id"]}
        bob_session = bob.page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
        plain = refusal(port, bob_session["token"], **close_msg, member=bob_session["token"])
        assert (plain["t"], plain["code"]) == ("error", "league.forbidden"), plain
        stranger = refusal(port, eve.token, **close_msg, member=eve.token)
        assert (stranger["t"], stranger["code"]) == ("error", "league.not_member"), stranger
        direct = {"t": "direct", "tournament": t1, "op": "close_late"}
        player = refusal(port, None, **direct, token=tokens[t1]["Bob"])
        assert (player["t"], player["code"]) == ("error", "bad_token"), player
        nobody = refusal(port, None, **direct, token="not-a-token")
        assert (nobody["t"], nobody["code"]) == ("error", "bad_token"), nobody
        after = get_json(server, f"/api/tournaments/{t1}")
        assert after["phase"] == state["phase"] and after["late_registration"]
        assert after["players_left"] == 1 and after["entries"] == 4

        # the director closes it from the league page: the stage ends at once
        director.page.on("dialog", lambda dialog: dialog.accept())
        director.page.click(close)
        director.page.wait_for_selector(
            f"{event_line(director.page, one['id'])}[data-status='finished']", timeout=20_000
        )
        assert get_json(server, f"/api/tournaments/{t1}")["phase"] == "finished"

        # ---- stage 2: check and call; four in play, late registration said; console close
        t2 = tids[two["id"]]
        wait2 = f"{event_line(ana.page, two['id'])} .lg-wait"
        wait_text(ana.page, wait2, "4 joueurs en jeu")
        text = ana.page.inner_text(wait2)
        assert "ouvertes jusqu'à la fin du niveau 2" in text and "4 joueurs en jeu" in text, text
        director.page.goto(server.base + tournament_console(director.page, league, two["id"]))
        director.page.wait_for_selector("#console", state="visible")
        director.page.wait_for_selector("#d-late", state="visible")
        assert "end of level 2" in director.page.inner_text("#d-late") or "niveau 2" in (
            director.page.inner_text("#d-late")
        )
        seen(director, "#d-close-late", "console-close")
        director.page.click("#d-close-late")
        wait_until(
            lambda: not get_json(server, f"/api/tournaments/{t2}")["late_registration"],
            "stage 2's late registration closed",
        )
        assert get_json(server, f"/api/tournaments/{t2}")["phase"] != "finished"
        director.page.wait_for_selector("#d-close-late", state="hidden")
        # a latecomer (issue 29, item 9): told registration is closed, no Register
        late = open_client("late-e2e", "en-US", PHONE_TALL)
        late.page.goto(f"{server.base}/?tournament={t2}")
        late.page.wait_for_function(
            "() => document.getElementById('t-you').textContent.includes('Registration is closed')"
        )
        assert late.page.locator("#t-register").is_hidden()
        seen(late, "#t-you", "latecomer-closed")
        for seat in stage2:
            seat.shove = True
        director.page.goto(f"{server.base}/?league={league}")
        director.page.wait_for_selector(
            f"{event_line(director.page, two['id'])}[data-status='finished']", timeout=90_000
        )

        # ---- the standings: the book's points, in JSON, in CSV and on every page
        doc = get_json(server, f"/api/leagues/{league}/seasons/{sid}/standings.json")
        rows = doc["standings"]
        expected: dict[str, int] = {}
        for ev in (one, two):
            results = get_json(server, f"/api/tournaments/{tids[ev['id']]}/results.json")
            assert len(results["results"]) == 4
            for player, points in book_points(results["results"], ev["id"]).items():
                expected[player] = expected.get(player, 0) + points
        assert {r["player_id"]: r["points"] for r in rows} == expected
        assert sorted(doc["names"].values()) == ["Ana", "Bob", "cat_e2e", "dan_e2e"]
        table = list(
            csv.reader(
                io.StringIO(get_text(server, f"/api/leagues/{league}/seasons/{sid}/standings.csv"))
            )
        )
        assert table[0][:4] == ["rank", "player_id", "name", "points"]
        assert [(r[1], r[2], int(r[3])) for r in table[1:]] == [
            (r["player_id"], doc["names"][r["player_id"]], r["points"]) for r in rows
        ]
        tied = any(
            sum(1 for other in rows for s2 in other["scores"] if s2["event_id"] == s["event_id"]
                and s2["place"] == s["place"]) > 1
            for r in rows for s in r["scores"]
        )  # fmt: skip
        for client in (director, ana, bob):
            if "league=" not in client.page.url:
                client.page.goto(f"{server.base}/?league={league}")
            want_rows = [[r["player_id"], str(r["points"])] for r in rows]

            def same(c: Client = client, want: list[list[str]] = want_rows) -> bool:
                return [[x["player"], x["value"]] for x in standings_shown(c.page)] == want

            wait_until(same, f"the standings on {client.name}'s page", 20)
            shown = standings_shown(client.page)
            for row, want in zip(shown, rows, strict=True):
                assert row["player"] == want["player_id"], (row, want)
                assert row["value"] == str(want["points"]) and row["rank"] == str(want["rank"])
                assert row["cells"][1] == doc["names"][want["player_id"]]
            note = client.page.locator(".lg-tied-note")
            assert (note.count() == 1) == tied
            if tied:
                assert "fpc 4-4" in note.inner_text() and "ex-æquo" in note.inner_text()
                assert client.page.locator(".lg-score[data-tied='true']").count() >= 2
            seen(client, ".lg-standings", f"standings-{client.name}")
        # the stage's results on its tournament page, at the three sizes (issue 29, item 2:
        # the header showed the ordinal function's code and squashed the Player column)
        for client in (director, ana, bob):
            page = client.page
            page.goto(f"{server.base}/?tournament={tids[two['id']]}")
            wait_until(
                lambda p=page: p.locator("#t-results tbody tr").count() == 4, "the results", 20
            )
            heads = [h.strip() for h in page.locator("#t-results thead th").all_inner_texts()]
            assert heads[0] == "Place" and len(heads) == 4, heads
            panel = page.inner_text("#t-results-panel")
            assert "=>" not in panel and "${" not in panel, panel
            player = page.locator("#t-results thead th").nth(1)
            assert player.evaluate("th => th.scrollHeight") < 40  # one line, not "Pl ay er"
        seen(director, "#t-results thead th:nth-child(2)", "results")  # each size, shots
    finally:
        for seat in seats:
            seat.close()
        for member in (eve, *wire):
            member.close()
    assert time.monotonic() - started < 240


def tournament_console(page: Page, league: str, event: str) -> str:
    """The console link the league page gives its director for ``event``."""
    link = page.get_attribute(f".lg-event[data-event='{event}'] a.lg-console", "href")
    assert link, "no console link"
    return str(link)
