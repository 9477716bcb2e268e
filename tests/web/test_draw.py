"""A hand of five-card draw in the browser (issue 31's acceptance: "a Playwright test of a
draw hand on a phone"), on a real server: a pot-limit fpc draw cash table made in the
lobby's form on a laptop, Ana on a phone (French, 390x844 then 360x640) and Dan on the
laptop (English, 1366x768) with Bob and Cy over the wire. At her draw Ana taps two of her
five cards, sees them marked and the button say « Jeter 2 », sends; the two cards the
server dealt her take their places; every seat says how many cards it drew (« a pris 3
cartes », « servi »; "drew 3", "stood pat"), and so does the log. The cards and the amounts
on screen are the server's (the frames the page received, and a player's snapshot); the
cards and the buttons are inside the window and uncovered at each size.

One hand, two browsers: about 20 seconds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
from playwright.sync_api import Page

from protocol.draw import replacement_positions

from .conftest import Client, WebServer, wait_until
from .seen import assert_no_code, assert_seen
from .test_cash_short import Raw
from .test_leagues import create_account
from .wire import WirePlayer, check_or_call

OpenClient = Callable[..., Client]
TAMPER = """async ([table, invite]) => {
  const { checkDraw } = await import('/js/drawfair.js');
  const record = await (await fetch(`/api/hands/${table}/1.json?t=${invite}`)).json();
  const opened = new Map(record.opened.map((o) => [o.position, o.card]));
  const honest = (await checkDraw(record, record.cut, opened)).problems;
  const drew = record.draws.find((d) => d.received.length);
  drew.received = drew.received.map((slot) => (slot + 1) % 52);
  return { honest, moved: (await checkDraw(record, record.cut, opened)).problems };
}"""
"""Checks the hand's record in the page with drawfair.js, then again with the slots of
a draw's cards moved by one: problems only for the second."""
STUB = """async ([seed, discards]) => {
  const { replacements } = await import('/js/drawfair.js');
  return replacements(6, 7, Uint8Array.from(seed), discards);
}"""
CAVE = 5_000  # fpc « La cave est de 5 000 jetons »
SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
"""Two frames: the page laid out again for a new window size (main.js's resize handler)."""


def bob_draws_three(player: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"cards": list(turn["cards"][:3])} if turn.get("draw") else check_or_call(player, turn)


def cy_stands_pat(player: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"cards": []} if turn.get("draw") else check_or_call(player, turn)


def received(client: Client, kind: str) -> list[dict[str, Any]]:
    """The messages of ``kind`` the page received from the server (its websocket frames)."""
    out = []
    for frame in list(client.frames):
        try:
            msg = msgpack.unpackb(frame)
        except Exception:  # a frame that is no msgpack map (none expected)
            continue
        if isinstance(msg, dict) and msg.get("t") == kind:
            out.append(msg)
    return out


def hole_on_screen(page: Page) -> list[str]:
    return list(
        page.eval_on_selector_all("#hole [data-card].card", "(ns) => ns.map((n) => n.dataset.card)")
    )


def seat_text(page: Page, seat: int) -> str:
    return str(page.inner_text(f".seat[data-seat='{seat}']"))


def sit(page: Page, seat: int) -> None:
    page.click(f".seat[data-seat='{seat}'] button.sit")
    page.fill("#buyin", str(CAVE))
    page.click("#buyin-ok")
    page.wait_for_selector(f".seat.you[data-seat='{seat}']")


class Hand:
    """The two pages driven through one hand: the cut, check or call, and each one's draw."""

    def __init__(self, people: dict[str, Client], draw: Callable[[str, Client], None]) -> None:
        self.people = people
        self.draw = draw
        self.drawn: set[str] = set()
        self.sliders = 0

    def step(self) -> None:
        for name, client in self.people.items():
            page = client.page
            if page.locator("#cut").is_visible():
                page.click("#cut")
            if page.locator("#draw-panel").is_visible() and name not in self.drawn:
                self.drawn.add(name)
                self.draw(name, client)
            elif page.locator("#actions").is_visible():
                if page.locator("#slider").is_visible():
                    # pot limit: the slider goes as far as the server's max_raise_to, no further
                    last = [x for x in received(client, "turn") if not x.get("draw")][-1]
                    assert page.get_attribute("#slider", "max") == str(last["max_raise_to"])
                    assert page.inner_text("#q-max") == "max"  # (the pot's, not all-in)
                    self.sliders += 1
                turn = page.get_attribute("#actions", "data-turn")
                page.click("#check" if page.locator("#check").is_visible() else "#call")
                page.wait_for_function(
                    "(turn) => { const p = document.getElementById('actions');"
                    " return p.hidden || p.dataset.turn !== turn; }",
                    arg=turn,
                )

    def until(self, done: Callable[[], Any], what: str, timeout: float = 60) -> None:
        def played() -> Any:
            value = done()
            if not value:
                self.step()
            return value

        wait_until(played, what, timeout)


def test_a_draw_hand_on_a_phone_and_a_laptop(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    ws_url = f"ws://127.0.0.1:{web_server.port}/ws"
    dan = open_client("dan", locale="en-US", viewport=(1366, 768), record_frames=True)
    ana = open_client("ana", locale="fr-FR", viewport=(390, 844), record_frames=True)
    # Dan makes the table in the lobby: fpc, five-card draw, pot limit, six seats
    page = dan.page
    page.goto(web_server.base + "/")
    page.fill("#nick", "Dan")
    page.click("#nick-ok")
    page.fill("#c-name", "Fermé")
    page.select_option("#c-profile", "fpc")
    page.select_option("#c-blinds", "50/100")
    page.select_option("#c-game", "draw")
    page.wait_for_selector("#c-structure-box", state="visible")
    assert page.input_value("#c-min") == page.input_value("#c-max") == str(CAVE)
    assert page.inner_text("#c-limits-hint") == "The club's cave: 5,000, no more, no less."
    page.select_option("#c-structure", "pot_limit")
    page.fill("#c-seats", "6")
    page.click("#create")
    page.wait_for_selector("#created", state="visible")
    link = str(page.input_value("#created-link")).replace("localhost", "127.0.0.1")
    table, invite = link.split("table=")[1].split("&invite=")
    token = page.evaluate("(t) => localStorage.getItem('brasseur.host.' + t)", table)
    # the host holds the deal until the four are seated (one hand, everyone in it)
    host = Raw(ws_url, "host-of-the-table")
    try:
        host.send(t="host", table=table, token=token, op="pause", id=1)
        page.goto(link)
        sit(page, 1)
        assert "5-card draw · Pot limit" in page.inner_text("#info")
        ana.page.goto(link)
        ana.page.fill("#nick", "Ana")
        ana.page.click("#nick-ok")
        ana.page.wait_for_selector("#nick-form", state="hidden")
        sit(ana.page, 2)
        wires.append(WirePlayer(ws_url, table, invite, "Bob", 3, bob_draws_three, buy_in=CAVE))
        wires.append(WirePlayer(ws_url, table, invite, "Cy", 4, cy_stands_pat, buy_in=CAVE))
        bob = wires[0]
        host.send(t="host", table=table, token=token, op="resume", id=2)

        def draw(name: str, client: Client) -> None:
            page = client.page
            sizes = [(390, 844), (360, 640)] if name == "ana" else [(1366, 768)]
            turn = [x for x in received(client, "turn") if x.get("draw")][-1]
            assert turn["max_discard"] >= 2
            picks = [f"#hole button.pick[data-card='{c}']" for c in turn["cards"]]
            if name == "ana":
                # a page opened again at her draw: the snapshot gives it back (its menu)
                page.reload()
                page.wait_for_selector(picks[-1])
                assert "À vous de tirer" in page.inner_text("#turn")
            for size in sizes:  # (a phone, then a smaller one: the same hand, resized)
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.evaluate(SETTLED)
                try:
                    assert_seen(page, *picks, "#draw-send", who=name)
                except AssertionError:
                    client.shot(f"draw-unseen-{name}-{size[0]}x{size[1]}", full_page=False)
                    raise
            # no board at draw: the middle is the pot and whose turn it is
            assert not page.query_selector("#board .card")
            words = (
                ("Jeter 2", "Servi", "Jeter 1")
                if name == "ana"
                else ("Discard 2", "Stand pat", "Discard 1")
            )
            assert page.inner_text("#draw-send") == words[1]
            chosen = list(turn["cards"][1:3])
            for card in chosen:
                if name == "ana":
                    page.tap(f"#hole button.pick[data-card='{card}']")
                else:
                    page.click(f"#hole button.pick[data-card='{card}']")
            marked = page.eval_on_selector_all(
                "#hole button.pick[aria-pressed='true']", "(ns) => ns.map((n) => n.dataset.card)"
            )
            assert marked == chosen
            assert page.inner_text("#draw-send") == words[0]
            assert page.get_attribute("#draw-count", "data-count") == "2"
            # a tap again unmarks, and marks again
            page.click(f"#hole button.pick[data-card='{chosen[0]}']")
            assert page.inner_text("#draw-send") == words[2]
            page.click(f"#hole button.pick[data-card='{chosen[0]}']")
            assert page.inner_text("#draw-send") == words[0]
            assert_seen(page, *picks, "#draw-send", who=name)
            client.shot(f"draw-marked-{name}-{sizes[-1][0]}x{sizes[-1][1]}", full_page=False)
            page.click("#draw-send")
            page.wait_for_selector("#draw-panel", state="hidden")
            # the two cards the server dealt take the places of the two thrown away
            drawn = wait_until(
                lambda: [x for x in received(client, "drawn") if x["cards"]], f"{name}'s drawn"
            )[-1]
            assert drawn["discarded"] == chosen and len(drawn["received"]) == 2
            expected = [
                drawn["received"][chosen.index(c)] if c in chosen else c for c in turn["cards"]
            ]
            wait_until(lambda: hole_on_screen(page) == expected, f"{name}'s new cards on screen")
            assert sorted(expected) == sorted(drawn["cards"])
            new = page.eval_on_selector_all(
                "#hole .card.received", "(ns) => ns.map((n) => n.dataset.card)"
            )
            assert sorted(new) == sorted(drawn["received"])

        hand = Hand({"dan": dan, "ana": ana}, draw)

        # the four drew: every seat says how many, on both pages and in the logs
        def both() -> bool:
            tagged = all(len(x.page.query_selector_all(".seat .drew")) == 4 for x in (dan, ana))
            return tagged and hand.drawn == {"dan", "ana"}

        hand.until(both, "the four draws, on both pages")
        ana.page.set_viewport_size({"width": 360, "height": 640})
        ana.page.evaluate(SETTLED)
        fr = {1: "a pris 2 cartes", 2: "a pris 2 cartes", 3: "a pris 3 cartes", 4: "servi"}
        en = {1: "drew 2", 2: "drew 2", 3: "drew 3", 4: "stood pat"}
        for client, said in ((ana, fr), (dan, en)):
            for seat, words in said.items():
                wait_until(
                    lambda p=client.page, s=seat, w=words: w in seat_text(p, s),
                    f"{client.name}: seat {seat} {words}",
                )
            # each said whole (never cut short on a phone's narrow seat), in the window, on top
            drews = [f".seat[data-seat='{seat}'] .drew" for seat in said]
            assert_seen(client.page, *drews, who=client.name)
            cut = client.page.eval_on_selector_all(
                ".seat .drew", "(ns) => ns.filter((n) => n.scrollWidth > n.clientWidth + 1).length"
            )
            assert cut == 0, client.name
            # (the person's own seat shows his five cards in the dock, the others five backs)
            assert len(client.page.query_selector_all(".seat:not(.you) .cards.five .card")) == 15
        wait_until(lambda: "Bob a pris 3 cartes" in ana.page.inner_text("#log"), "Ana's log")
        assert "Cy est servi" in ana.page.inner_text("#log")
        assert "Bob drew 3 cards" in dan.page.inner_text(
            "#log"
        ) and "Cy stood pat" in dan.page.inner_text("#log")
        # the amounts on screen are the server's (nobody bet yet in the second round)
        server = bob.snapshot()["state"]
        for client in (ana, dan):
            page = client.page
            for x in server["seats"]:
                stack = page.get_attribute(f".seat[data-seat='{x['seat']}']", "data-stack")
                assert stack == str(x["stack"]), (client.name, x)
            assert page.get_attribute("#pot", "data-total") == str(server["pot_total"])
            assert not page.query_selector("#board .card")
            assert_no_code(page, client.name)
        ana.shot("draw-drew-360x640", full_page=False)
        dan.shot("draw-drew-1366x768", full_page=False)
        # the second round is bet as at hold'em; the hand ends, and the stacks are the server's
        hand.until(lambda: received(ana, "hand_end"), "the hand's end")
        assert hand.sliders > 0  # (a pot-limit raise was offered to a page at least once)
        end = received(ana, "hand_end")[0]
        wait_until(
            lambda: all(
                ana.page.get_attribute(f".seat[data-seat='{s}']", "data-stack") == str(v)
                for s, v in end["stacks"].items()
            ),
            "the stacks of hand_end on Ana's page",
        )
        # the host adds a table to his room: a five-card draw table too (one game a room)
        dan.page.click("#room-add")
        dan.page.wait_for_selector("#room-created", state="visible")
        # her five cards dealt and the two drawn, opened by the server, check on her page
        for client in (ana, dan):
            wait_until(
                lambda c=client: "✓" in c.page.inner_text("#log"), f"{client.name}: cards checked"
            )
            assert "✗" not in client.page.inner_text("#log"), client.name
        # the hand's signed record checks on Ana's phone: the draw's cards where the committed
        # deck and stub order put them, her own five and the two she drew proven to her
        page = ana.page
        page.click("#history-open")
        page.click(".hand-pick[data-hand='1']")
        verdict = page.locator("#history .verdict[data-ok]")
        verdict.wait_for()
        assert verdict.get_attribute("data-ok") == "true", page.inner_text("#history-result")
        said = page.inner_text("#history-result")
        assert "Vos cinq cartes, et celles que vous avez tirées" in said
        ana.shot("draw-record-360x640", full_page=False)
        # a new stub's order in the page is Python's (six players each drawing five: the
        # stub of 21 runs out at the fifth)
        seed = bytes(range(32))
        discards = [[(7 + 6 * r + i) % 52 for r in range(5)] for i in range(6)]
        want, stubs = replacement_positions(6, cut=7, seed=seed, discards=discards)
        assert stubs == 1
        got = page.evaluate(STUB, [list(seed), discards])
        assert got == want
        # the replayer steps through it to the end: five cards a seat, no board
        page.click(".record[data-hand='1'] .replay-open")
        page.wait_for_selector("#replay[open]")
        page.keyboard.press("End")
        assert not page.query_selector("#replay .rp-board .card")
        assert len(page.query_selector_all("#replay .rp-cards.five")) == 4
        ana.shot("draw-replay-360x640", full_page=False)
        page.click("#rp-close")
        # and the page's check catches a record whose draw was dealt out of the committed order
        tampered = page.evaluate(TAMPER, [table, invite])
        assert tampered["honest"] == [] and tampered["moved"], tampered
    finally:
        host.close()


def test_a_director_opens_a_draw_cash_season_and_its_table(
    web_server: WebServer, open_client: OpenClient
) -> None:
    """fpc « LE FIVE-CARD DRAW »: its own season (« un capital de départ de 50 000 jetons »)
    opened from the league's form on a phone, and its table, which deals draw at 50/100."""
    director = open_client("director", locale="fr-FR", viewport=(360, 640))
    page = director.page
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create-form")
    create_account(page, "dirdraw", "Dora")
    page.wait_for_selector("#leagues-panel", state="visible")
    page.fill("#lg-new-name", "Fermé")
    page.click("#lg-create")
    page.wait_for_selector("#league-created", state="visible")
    page.click("#league-open")
    page.wait_for_selector("#lg-season-panel", state="visible")
    page.fill("#se-name", "Draw 2026")
    page.select_option("#se-points", "capital")
    page.wait_for_selector("#se-game-box", state="visible")
    assert page.locator("#se-structure-box").is_hidden()
    page.select_option("#se-game", "draw")
    assert page.input_value("#se-capital") == "50000"
    page.select_option("#se-structure", "pot_limit")
    assert_seen(page, "#se-game", "#se-structure", who="director")
    page.click("#se-create")
    season = ".lg-season:has(h2:text-is('Draw 2026'))"
    page.wait_for_selector(f"{season} .lg-empty")
    said = page.inner_text(season).replace("\u202f", " ")
    assert "Five-card draw pot limit" in said and "50 000" in said, said
    page.click(f"{season} button.lg-cash-open")
    page.wait_for_selector("#lg-cash-created", state="visible")
    link = page.input_value("#lg-cash-link").replace("localhost", "127.0.0.1")
    page.goto(link)
    page.wait_for_function(
        "() => (document.getElementById('info').textContent || '')"
        ".startsWith('fpc · Five-card draw · Pot limit · 50/100')"
    )
    director.shot("draw-season-table-360x640", full_page=False)
