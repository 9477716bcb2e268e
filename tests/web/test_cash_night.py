"""A casino cash night among four friends in four browsers at once (issue 29's scenario): a
390x844 phone, a 360x640 phone and two 1366x768 laptops, on a real server. The host creates
the table in the lobby (a rake, run it twice), everyone buys in; all-ins are run twice until
someone busts and rebuys; a player tops up; one sits out and comes back; one leaves in the
middle of a hand, one cashes out; the host pauses and settles with the ledger on his screen,
which adds up (bought in = on the table + cashed out + rake) and equals the server's.

At every step the test asserts what a person sees: the words (never code), the controls the
step needs inside the viewport and uncovered, and the amounts equal to the server's ledger.

Slow (about a minute): four browsers play a dozen real hands; it is the issue's acceptance
scenario and is kept whole on purpose."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .conftest import Client, WebServer, wait_until
from .lobby import create_cash_table
from .test_cash_forms import assert_usable, digits, ledger, seen_code
from .test_table import act

OpenClient = Callable[..., Client]
NAMES = {"host": "Hugo", "ana": "Ana", "bea": "Bea", "cyril": "Cyril"}


class Night:
    """The four players' pages, and a dealer's hand driving whatever the server asks of them:
    the cut, each decision (by the night's current plan), the run-it-twice question."""

    def __init__(self, players: dict[str, Client]) -> None:
        self.players = players
        self.plan = "calm"  # "calm": check or fold; "allin": first pushes, second calls
        self.moves: dict[int, int] = {}  # hand -> decisions taken in it (the all-in plan)
        self.runs = "twice"
        self.twice_seen: set[int] = set()

    def hand(self, name: str) -> int:
        return int(self.players[name].page.get_attribute("#table-view", "data-hand") or 0)

    def stack(self, name: str) -> int | None:
        node = self.players[name].page.query_selector(".seat.you")
        return int(node.get_attribute("data-stack") or 0) if node else None

    def said(self) -> dict[str, str]:
        """What each page says of a problem (for a failure's message)."""
        return {
            name: client.page.evaluate(
                "() => ['error-text', 'add-error', 'add-queued', 'add-hint', 'left-text']"
                ".map((id) => id + ': ' + document.getElementById(id).textContent).join(' | ')"
                " + ' | phase ' + document.getElementById('table-view').dataset.phase"
                " + ' | turn ' + document.getElementById('turn').textContent"
                " + ' | seats ' + [...document.querySelectorAll('.seat:not(.free)')]"
                ".map((x) => x.innerText.replace(/\\s+/g, ' ')).join('; ')"
            )
            for name, client in self.players.items()
        }

    def out(self, name: str) -> bool:
        """Out of chips once the hand is over: the page says so (not all-in in a hand)."""
        return self.players[name].page.locator("#bust").is_visible()

    def step(self) -> None:
        """One look at every page; each thing asked is answered once."""
        for client in self.players.values():
            page = client.page
            if page.locator("#cut").is_visible():
                page.click("#cut")
            if page.locator("#runs-offer").is_visible():
                button = "#run-twice" if self.runs == "twice" else "#run-once"
                assert_usable(page, button)
                page.click(button)
                self.twice_seen.add(int(page.get_attribute("#table-view", "data-hand") or 0))
            if page.locator("#actions").is_visible():
                self.decide(client)

    def decide(self, client: Client) -> None:
        page = client.page
        hand = int(page.get_attribute("#table-view", "data-hand") or 0)
        visible = {s: page.locator(s).is_visible() for s in ("#check", "#call", "#raise")}
        if self.plan == "allin":
            taken = self.moves.get(hand, 0)
            self.moves[hand] = taken + 1
            if taken == 0 and visible["#raise"]:
                if page.locator("#q-max").is_visible():  # (no sizing: the raise is all-in)
                    page.click("#q-max")
                    page.wait_for_selector("#raise.allin")
                assert_usable(page, "#raise")
                act(client, "#raise")
                return
            if taken <= 1 and visible["#call"]:
                assert_usable(page, "#call")
                act(client, "#call")
                return
        chosen = "#check" if visible["#check"] else "#fold"
        assert_usable(page, chosen)
        act(client, chosen)

    def until(self, done: Callable[[], Any], what: str, timeout: float = 60) -> Any:
        """``done()`` once true, the pages played meanwhile."""

        def played() -> Any:
            value = done()
            if not value:
                self.step()
            return value

        try:
            return wait_until(played, what, timeout)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {self.said()}") from None


def test_a_cash_night_among_four_browsers(web_server: WebServer, open_client: OpenClient) -> None:
    sizes = {"host": (1366, 768), "bea": (1366, 768), "ana": (390, 844), "cyril": (360, 640)}
    players = {
        name: open_client(name, locale="fr-FR" if name == "bea" else "en-US", viewport=size)
        for name, size in sizes.items()
    }
    for client in players.values():
        client.page.on("dialog", lambda dialog: dialog.accept())
    host = players["host"].page

    # the host creates the table from the lobby: a rake of 5 % capped at 100, run it twice
    link, table, invite = create_cash_table(
        host, web_server.base, nick="Hugo", name="Jeudi", seats=6, run_it=True,
        rake=(5, 100),
    )  # fmt: skip
    host.click("#open-table")
    night = Night(players)
    buy_ins = {"host": (1, 1000), "ana": (2, 1000), "bea": (4, 2000), "cyril": (5, 1000)}
    for name, (seat, amount) in buy_ins.items():
        page = players[name].page
        if name != "host":  # (the host gave his nickname in the lobby)
            page.goto(link)
            page.fill("#nick", NAMES[name])
            page.click("#nick-ok")
            page.wait_for_selector("#nick-form", state="hidden")
        page.click(f".seat[data-seat='{seat}'] button.sit")
        page.wait_for_selector("#buyin-form", state="visible")
        assert_usable(page, "#buyin", "#buyin-ok")
        page.fill("#buyin", str(amount))
        page.click("#buyin-ok")
        night.until(lambda p=page, s=seat: p.query_selector(f".seat.you[data-seat='{s}']"), name)
    _, totals = ledger(web_server.base, table, invite)
    assert {n: int(x[2]) for n, x in totals.items()} == {
        "Hugo": 1000, "Ana": 1000, "Bea": 2000, "Cyril": 1000,
    }  # fmt: skip
    # the host's panel at the laptop: its buttons in view, uncovered
    assert_usable(host, "#host-pause", "#host-blinds button[type='submit']", "#ledger-open")
    for name, client in players.items():
        client.shot(f"cash-night-seated-{name}-{sizes[name][0]}x{sizes[name][1]}", full_page=False)

    # all-ins, run twice the first time, until somebody has no chips left
    night.plan = "allin"
    busted = night.until(
        lambda: next((n for n in players if night.stack(n) == 0 and night.out(n)), None),
        "a bust",
        120,
    )
    assert night.twice_seen, "no all-in was run twice"
    night.plan, night.runs = "calm", "once"
    page = players[busted].page
    wait_until(lambda: page.locator("#add-chips").is_visible(), "the rebuy button")
    assert page.inner_text("#add-chips") in ("Rebuy", "Se recaver")
    bust_text = page.inner_text("#bust")
    assert "big blind" not in bust_text and "grosse blinde" not in bust_text, bust_text
    assert_usable(page, "#add-chips")
    page.click("#add-chips")
    hint = page.inner_text("#add-hint")
    assert "5,000" in hint or "5\u202f000" in hint, hint
    assert_usable(page, "#add-amount", "#add-ok")
    players[busted].shot(f"cash-night-rebuy-{sizes[busted][0]}x{sizes[busted][1]}", full_page=False)
    assert not seen_code(page)
    page.fill("#add-amount", "1000")
    page.click("#add-ok")
    night.until(lambda: night.stack(busted) == 1000, "the rebuy", 30)
    rows, _ = ledger(web_server.base, table, invite)
    assert [r[1] for r in rows if r[3] == NAMES[busted]][-1] == "rebuy"

    # a top-up: the richest player still under the maximum adds chips
    topper = next(n for n in ("ana", "cyril", "host", "bea") if n != busted and night.stack(n))
    page = players[topper].page
    before = night.stack(topper) or 0
    page.click("#add-chips")
    wait_until(lambda: page.locator("#add-form").is_visible(), "the add form")
    amount = 500 if before + 500 <= 5000 else 25
    page.fill("#add-amount", str(amount))
    assert_usable(page, "#add-ok")
    page.click("#add-ok")
    night.until(
        lambda: any(
            r[1] == "top_up" and r[3] == NAMES[topper] and r[4] == str(amount)
            for r in ledger(web_server.base, table, invite)[0]
        ),
        "the top-up in the ledger",
        30,
    )
    assert page.is_hidden("#add-form")

    # sit out and back in (the laptop in French)
    page = players["bea"].page
    page.click("#sitout")
    night.until(lambda: page.inner_text("#sitout") == "Revenir", "sitting out", 20)
    start = night.hand("bea")
    night.until(lambda: night.hand("bea") >= start + 2, "two hands", 60)
    assert "absent" in page.inner_text(".seat.you")
    page.click("#sitout")
    night.until(lambda: page.inner_text("#sitout") == "S'absenter", "back in", 20)

    # leaving in the middle of a hand: the page changes at once, then says the cash-out
    page = players["cyril"].page
    night.until(
        lambda: (
            page.get_attribute("#table-view", "data-phase") == "betting"
            and page.query_selector("#hole .card")
        ),
        "a hand Cyril is dealt in",
        60,
    )
    page.click("#leave")
    clicked = time.monotonic()
    page.wait_for_selector("#left-box", state="visible", timeout=1500)
    assert time.monotonic() - clicked < 1.5
    for gone in ("#sitout", "#leave", "#add-chips", "#actions", "#cut-panel"):
        assert page.is_hidden(gone), gone
    night.until(lambda: page.get_attribute("#left-box", "data-confirmed") == "true", "cash-out", 30)
    rows, totals = ledger(web_server.base, table, invite)
    cashed = [int(r[4]) for r in rows if r[1] == "cash_out" and r[3] == "Cyril"][-1]
    assert digits(page.inner_text("#left-text")) == cashed
    assert totals["Cyril"][4] == "0"
    assert_usable(page, "#left-lobby")
    players["cyril"].shot("cash-night-left-360x640", full_page=False)

    # the phone at 390: cashes out too, then reads the ledger (above everything, in view)
    page = players["ana"].page
    page.click("#leave")
    night.until(
        lambda: page.get_attribute("#left-box", "data-confirmed") == "true", "Ana's cash-out", 30
    )
    rows, _ = ledger(web_server.base, table, invite)
    cashed = [int(r[4]) for r in rows if r[1] == "cash_out" and r[3] == "Ana"][-1]
    assert digits(page.inner_text("#left-text")) == cashed
    page.click("#ledger-open")
    page.wait_for_selector("#ledger-table tr[data-player='Ana']")
    assert_usable(page, "#ledger-totals", "#ledger-close")
    players["ana"].shot("cash-night-ledger-390x844", full_page=False)
    page.click("#ledger-close")

    # the host pauses (the chips stop moving) and settles with the ledger on his laptop
    def no_hand() -> bool:  # between hands, or no hand (the table may wait for players)
        return host.get_attribute("#table-view", "data-phase") in ("between", "waiting")

    night.until(no_hand, "a hand's end")
    assert_usable(host, "#host-pause")
    host.click("#host-pause")
    night.until(no_hand, "the pause")
    time.sleep(2)  # the hand the pause let finish is over
    night.step()
    host.click("#ledger-open")
    host.wait_for_selector("#ledger-table tr[data-player='Hugo']")
    assert_usable(host, "#ledger-table tr[data-player='Hugo']", "#ledger-totals", "#ledger-close")
    rows, totals = ledger(web_server.base, table, invite)
    rake = sum(int(r[4]) for r in rows if r[1] == "rake")
    shown = host.locator("#ledger-totals")
    sums = {k: int(shown.get_attribute(f"data-{k}") or -1) for k in ("bought", "on", "out", "rake")}
    assert sums == {
        "bought": sum(int(x[2]) for x in totals.values()),
        "on": sum(int(x[4]) for x in totals.values()),
        "out": sum(int(x[3]) for x in totals.values()),
        "rake": rake,
    }
    assert sums["bought"] == sums["on"] + sums["out"] + sums["rake"], sums
    assert sums["bought"] == 1000 + 1000 + 2000 + 1000 + 1000 + amount
    assert rake > 0
    for name, row in totals.items():
        cells = host.locator(f"#ledger-table tr[data-player='{name}'] td").all_inner_texts()
        assert [digits(c) for c in cells[1:4]] == [int(row[2]), int(row[3]), int(row[4])], name
    assert digits(host.inner_text("#ledger-totals").split("=")[0]) == sums["bought"]
    players["host"].shot("cash-night-ledger-1366x768", full_page=False)
    players["bea"].shot("cash-night-end-bea-1366x768", full_page=False)
    for client in players.values():
        assert not seen_code(client.page), client.name
