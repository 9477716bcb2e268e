"""The table on a phone and on a laptop (issue 13), in real headless Chromium against a real
server, with players over the wire filling the table:

- at 360x640, 390x844, 640x360, 844x390 and 1366x768, at your turn, the board, the pot, your
  two cards, whose turn it is and every action control are inside the window without
  scrolling and overlap nothing; the bets never cover the board or the pot, the dealer button
  never covers a board card, your own seat is never cut; the keyboard acts; the text is
  readable (contrast of 4.5:1 at least);
- the pots are the server's: over hands with raises and an all-in, a side pot shows only when
  someone is all-in, and the page's pots and total equal the server's own snapshot taken at
  the same moment, and the hand record's at the end;
- a friend who busts sees his seat stay on the felt, then sits again (a new stack) without
  reloading the page.

Screenshots (what each person sees, without scrolling) go to test-artifacts/web/.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from .conftest import Client, WebServer, wait_until
from .wire import WirePlayer, check_or_call, create_table

OpenClient = Callable[..., Client]

CHECKS = Path(__file__).with_name("page_checks.js").read_text()


def page_check(name: str) -> str:
    """The function expression after ``// @name`` in page_checks.js."""
    text = CHECKS.split(f"// @{name} ", 1)[1]
    body = text.split("\n", 1)[1]
    while body.startswith("//"):
        body = body.split("\n", 1)[1]
    return body.split("\n\n// @", 1)[0].strip()


LAYOUT = page_check("layout")
CONTRAST = page_check("contrast")

CONTROLS = [
    "#fold",
    "#check",
    "#call",
    "#raise",
    "#q-min",
    "#q-half",
    "#q-pot",
    "#q-max",
    "#amount",
    "#slider",
]


def ws_url(server: WebServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


def link(server: WebServer, table: str, invite: str) -> str:
    return f"{server.base}/?table={table}&invite={invite}"


def sit(client: Client, url: str, nick: str, seat: int) -> None:
    page = client.page
    page.goto(url)
    page.fill("#nick", nick)
    page.click("#nick-ok")
    page.wait_for_selector("#nick-form", state="hidden")
    page.click(f".seat[data-seat='{seat}'] button.sit")
    page.wait_for_selector(f".seat.you[data-seat='{seat}']")


def my_turn(clients: list[Client], timeout: float = 20.0) -> Client:
    """The browser player whose controls are up (cutting the deck when asked)."""

    def find() -> Client | None:
        for client in clients:
            page = client.page
            if page.locator("#cut-panel").is_visible():
                page.click("#cut", timeout=2000)
            if page.locator("#actions").is_visible():
                return client
        return None

    return wait_until(find, "a browser player's turn", timeout)


def act(client: Client, selector: str) -> None:
    """Act with a control, then wait for the page to take it (its controls close, or the next
    decision opens)."""
    page = client.page
    turn = page.get_attribute("#actions", "data-turn")
    page.click(selector)
    page.wait_for_function(
        "(turn) => { const p = document.getElementById('actions');"
        " return p.hidden || p.dataset.turn !== turn; }",
        arg=turn,
    )


def check_or_call_in_page(client: Client) -> None:
    act(client, "#check" if client.page.locator("#check").is_visible() else "#call")


# ---------------------------------------------------------------------- what fits where


def overlaps(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack
    )


def inside(b: dict[str, float], width: int, height: int) -> bool:
    return (
        b["left"] >= -0.5
        and b["top"] >= -0.5
        and b["right"] <= width + 0.5
        and b["bottom"] <= height + 0.5
    )


def assert_fits(client: Client) -> dict[str, Any]:
    """At our turn: everything needed to act is in the window, and nothing covers anything."""
    lay = client.page.evaluate(LAYOUT, CONTROLS)
    try:
        return check_layout(lay, client.name)
    except AssertionError:
        client.shot(f"failed-layout-{lay['width']}x{lay['height']}", full_page=False)
        raise


def check_layout(lay: dict[str, Any], who: str) -> dict[str, Any]:
    w, h = lay["width"], lay["height"]
    where = f"{who} at {w}x{h}"
    assert lay["scrollY"] == 0 and lay["scrollX"] == 0, where
    assert lay["pageWidth"] <= w, f"{where}: the page scrolls sideways ({lay['pageWidth']})"
    assert len(lay["hole"]) == 2, where
    assert lay["turnText"], where
    needed = {"board": lay["board"], "pot": lay["pot"], "turn": lay["turn"]}
    needed |= {f"hole{i}": b for i, b in enumerate(lay["hole"])}
    needed |= lay["controls"]
    assert {"#fold", "#raise"} <= set(lay["controls"]), (where, sorted(lay["controls"]))
    assert {"#check", "#call"} & set(lay["controls"]), where
    for name, b in needed.items():
        assert b is not None, f"{where}: no {name}"
        assert inside(b, w, h), f"{where}: {name} is out of the window: {b}"
    names = list(needed)
    for i, a in enumerate(names):
        for other in names[i + 1 :]:
            if {a, other} <= {"#amount", "#slider"}:
                continue
            assert not overlaps(needed[a], needed[other]), f"{where}: {a} covers {other}"
    center = [lay["board"], lay["pot"], lay["turn"], *lay["pots"]]
    for bet in lay["bets"]:
        for part in center:
            assert not overlaps(bet, part), f"{where}: a bet covers the middle: {bet} {part}"
        assert inside(bet, w, h), where
    for i, bet in enumerate(lay["bets"]):
        for other in lay["bets"][i + 1 :]:
            assert not overlaps(bet, other), f"{where}: two bets overlap"
    for dealer in lay["dealer"]:
        for card in lay["boardCards"]:
            assert not overlaps(dealer, card), f"{where}: the dealer button covers a board card"
    for i, seat in enumerate(lay["seats"]):
        for part in center:
            assert not overlaps(seat, part), f"{where}: a seat covers the middle"
        for other in lay["seats"][i + 1 :]:
            assert not overlaps(seat, other), f"{where}: two seats overlap: {seat} {other}"
    assert lay["you"] is not None and inside(lay["you"], w, h), f"{where}: our seat is not in view"
    assert lay["youCut"] is False, f"{where}: our name is cut"
    return lay


def keyboard_acts(client: Client) -> None:
    """C puts the focus on check (or call), visibly; Enter confirms."""
    page = client.page
    page.keyboard.press("c")
    focused = page.evaluate(
        "() => [document.activeElement.id, getComputedStyle(document.activeElement).outlineStyle]"
    )
    assert focused[0] in ("check", "call") and focused[1] != "none", focused
    turn = page.get_attribute("#actions", "data-turn")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(turn) => { const p = document.getElementById('actions');"
        " return p.hidden || p.dataset.turn !== turn; }",
        arg=turn,
    )


def a_refusal_shows_by_the_controls(client: Client) -> None:
    """A refused gesture ("pot" is no declaration under cdc 9.15): the refusal shows in the
    dock, in the window, and the controls come back for the same decision."""
    page = client.page
    turn = page.get_attribute("#actions", "data-turn")
    page.fill("#declare", "pot")
    page.click("#declare-send")
    page.wait_for_selector("#error:not([hidden])")
    where = page.evaluate(
        """() => { const e = document.getElementById('error');
            const r = e.getBoundingClientRect();
            return {inDock: Boolean(e.closest('#me')), top: r.top, bottom: r.bottom,
                    h: innerHeight, text: e.textContent}; }"""
    )
    assert where["inDock"] and where["top"] >= 0 and where["bottom"] <= where["h"], where
    assert "9.15" in where["text"] or "pot" in where["text"].lower(), where
    page.wait_for_selector("#actions:not([hidden])")
    assert page.get_attribute("#actions", "data-turn") == turn
    client.shot(f"refusal-by-the-controls-{page.viewport_size['width']}", full_page=False)
    page.click("#error-close")
    page.evaluate("() => scrollTo(0, 0)")


@pytest.mark.parametrize(
    "sizes",
    [((360, 640), (1366, 768)), ((390, 844), (844, 390)), ((640, 360), (390, 844))],
    ids=["360x640+1366x768", "390x844+844x390", "640x360+390x844"],
)
def test_at_your_turn_everything_fits_the_window(
    web_server: WebServer,
    open_client: OpenClient,
    wires: list[WirePlayer],
    sizes: tuple[tuple[int, int], tuple[int, int]],
) -> None:
    table, invite = create_table(
        ws_url(web_server), name="Fits", profile="cdc", max_seats=9, action_seconds=30
    )
    url = link(web_server, table, invite)
    for nick, seat in (("Wanda", 3), ("Xavier", 7), ("Yolanda-Maximiliana", 9)):
        wires.append(WirePlayer(ws_url(web_server), table, invite, nick, seat))
    locale = "fr-FR" if sizes[0][0] == 390 else "en-US"
    first = open_client("Frank", locale, sizes[0])
    second = open_client("Gaspard", "en-US", sizes[1])
    sit(first, url, "Frank", 1)
    sit(second, url, "Gaspard-Alexandre", 5)
    players = [first, second]
    seen: dict[str, set[str]] = {p.name: set() for p in players}
    deadline = time.monotonic() + 60
    while any(not {"preflop", "flop"} <= s for s in seen.values()):
        assert time.monotonic() < deadline, seen
        client = my_turn(players)
        page = client.page
        street = "flop" if page.locator("#board .card[data-card]").count() >= 3 else "preflop"
        lay = assert_fits(client)
        if street not in seen[client.name]:
            w, h = lay["width"], lay["height"]
            client.shot(f"table-{street}-turn-{w}x{h}", full_page=False)
            if street == "flop":
                bad = page.evaluate(CONTRAST)
                assert not bad, f"text under 4.5:1 at {w}x{h}: {bad}"
        seen[client.name].add(street)
        if street == "flop" and lay["width"] == 360 and "refused" not in seen[client.name]:
            seen[client.name].add("refused")
            a_refusal_shows_by_the_controls(client)
            assert_fits(client)
        if street == "flop" and lay["width"] >= 1000:
            keyboard_acts(client)
        else:
            check_or_call_in_page(client)


# ---------------------------------------------------------------------- pots are the server's


def amounts(pots: list[dict[str, Any]]) -> list[int]:
    return [int(p["amount"]) for p in pots]


class Scenario:
    """Three players, hands counted from the first one all three are dealt in:

    A: Wire raises to 1000 preflop (nobody all-in: never a side pot), Ana calls, Bob folds to
       the raise; Wire bets 2000 on the flop and Ana folds: Ana has the shortest stack.
    B: Ana goes all-in preflop, the others call; Wire bets 500 on the flop and Bob calls: a
       side pot between them from the turn on, the main pot Ana's.
    """

    def __init__(self, wire_seat: int) -> None:
        self.wire: WirePlayer | None = None
        self.wire_seat = wire_seat
        self.raised: set[int] = set()

    def phase(self, hand: int) -> int:
        """0 before the first three-way hand, then 1 (A), 2 (B), 3..."""
        wire = self.wire
        assert wire is not None
        three = sorted(n for n, seats in list(wire.dealt.items()) if len(seats) == 3)
        return three.index(hand) + 1 if hand in three else 0

    def wire_turn(self, wire: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
        hand = int(turn["hand"])
        phase = self.phase(hand)
        can_check = bool(turn.get("can_check"))
        if phase == 1 and wire.board == 0 and hand not in self.raised and turn.get("can_raise"):
            self.raised.add(hand)
            return {"verb": "raise", "amount": 1000}
        if phase == 1 and wire.board == 3 and can_check:
            return {"verb": "bet", "amount": 2000}
        if phase == 2 and wire.board == 3 and can_check:
            return {"verb": "bet", "amount": 500}
        return check_or_call(wire, turn)


def compare_with_server(client: Client, wire: WirePlayer) -> dict[str, Any]:
    """The page's pots, total and bets against the server's snapshot at the same event."""
    page = client.page
    snap = wire.snapshot()
    state = snap["state"]
    wait_until(
        lambda: int(page.get_attribute("#table-view", "data-seq") or 0) >= snap["seq"],
        "the page at the snapshot's event",
        5,
    )
    shown_pots = json.loads(page.get_attribute("#pots", "data-amounts") or "[]")
    side = page.locator("#pots .side-pot").count()
    total = int(page.get_attribute("#pot", "data-total") or 0)
    bets = page.eval_on_selector_all(
        ".bet", "bs => Object.fromEntries(bs.map(b => [b.dataset.seat, Number(b.dataset.bet)]))"
    )
    server_bets = {k: v for k, v in state.get("bets", {}).items() if v}
    assert total == state["pot_total"], (total, state)
    assert shown_pots == amounts(state["pots"]), (shown_pots, state["pots"])
    assert side == (len(state["pots"]) if len(state["pots"]) > 1 else 0)
    assert bets == server_bets, (bets, server_bets)
    stacks = {int(s["seat"]): s["stack"] for s in state["seats"]}
    folded = set(state.get("folded", []))
    allin = [s for s in map(int, state.get("bets", {})) if stacks.get(s) == 0 and s not in folded]
    if not allin:
        assert len(state["pots"]) <= 1 and side == 0, ("a side pot without an all-in", state)
    return state


def test_side_pots_only_after_an_all_in_and_equal_to_the_server(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    table, invite = create_table(
        ws_url(web_server), name="Pots", profile="cdc", max_seats=6, action_seconds=30
    )
    url = link(web_server, table, invite)
    ana = open_client("Ana", "fr-FR", (390, 844), record_frames=True)
    bob = open_client("Bob", "en-US", (1366, 768), record_frames=True)
    scenario = Scenario(wire_seat=3)
    sit(ana, url, "Ana", 1)
    sit(bob, url, "Bob", 5)
    wire = WirePlayer(ws_url(web_server), table, invite, "Wire", 3, scenario.wire_turn)
    wires.append(wire)
    scenario.wire = wire
    players = [ana, bob]
    seen_side_pot = False
    compared = 0
    deadline = time.monotonic() + 120
    b_hand = 0
    while True:
        assert time.monotonic() < deadline, "the scenario did not end"
        if (
            b_hand
            and bob.page.locator("#pots .side-pot").count()
            and bob.page.inner_text("#winners")
        ):
            bob.shot("pots-side-pot-awarded", full_page=False)
            ana.shot("pots-side-pot-awarded-phone", full_page=False)
            break
        if (
            b_hand
            and b_hand in wire.ended
            and int(bob.page.get_attribute("#table-view", "data-hand") or 0) > b_hand
        ):
            break
        try:
            client = my_turn(players, timeout=1)
        except AssertionError:
            continue
        page = client.page
        hand = int(page.get_attribute("#table-view", "data-hand") or 0)
        phase = scenario.phase(hand)
        if phase in (1, 2):  # the hands of the scenario (the server limits snapshots)
            state = compare_with_server(client, wire)
            compared += 1
            seen_side_pot |= len(state["pots"]) > 1
        if phase == 2:
            b_hand = hand
        facing = page.locator("#call").is_visible()
        board = page.locator("#board .card[data-card]").count()
        bob_folds = (
            client is bob and facing and int(page.get_attribute("#call", "data-amount") or 0) > 100
        )
        if phase == 1 and (bob_folds or (client is ana and board == 3 and facing)):
            act(client, "#fold")
        elif phase == 2 and client is ana and board == 0:
            if page.locator("#raise").is_visible():
                page.click("#q-max")
                page.wait_for_selector("#raise.allin")
                ana.shot("pots-all-in-button", full_page=False)
                act(client, "#raise")
            else:
                act(client, "#call")
        else:
            check_or_call_in_page(client)
    assert compared >= 6, compared
    assert seen_side_pot, "no side pot after the all-in"
    # the hand's record (the server's signed account) gives the same pots as the page showed
    wait_until(lambda: b_hand in wire.ended, "the end of the all-in hand")
    with urllib.request.urlopen(
        f"{web_server.base}/api/hands/{table}/{b_hand}.json?t={invite}"
    ) as r:
        record = json.load(r)
    expected = sorted([p["index"], p["amount"]] for p in record["pots"])
    assert len(expected) >= 2, record["pots"]
    for client in players:
        awarded = client.page.evaluate(
            """(hand) => brasseur.store.state.t.log
                .filter(([kind, msg]) => kind === 'pot' && msg.hand === hand)
                .map(([, msg]) => [msg.index, msg.amount])""",
            b_hand,
        )
        awarded.sort()
        assert awarded == expected, (client.name, awarded, expected)
    # nobody acted twice on a decision, nothing was refused (the server's resync limit aside)
    assert not [e for e in wire.errors if e.get("code") != "rate_limited"], wire.errors
    for client in players:
        assert not refusals(client), refusals(client)
        assert not client.errors, client.errors


def refusals(client: Client) -> list[dict[str, Any]]:
    """The ``error`` messages the page received (from its websocket frames)."""
    out = []
    for frame in list(client.frames):
        with contextlib.suppress(Exception):
            message = msgpack.unpackb(frame)
            if isinstance(message, dict) and message.get("t") == "error":
                out.append(message)
    return out


# ---------------------------------------------------------------------- a friend busts


def test_a_busted_friend_stays_on_view_then_sits_again(
    web_server: WebServer, open_client: OpenClient
) -> None:
    """Heads-up, both all-in each hand: whoever loses busts. His seat and shown cards stay on
    the felt for the other; he is told he may sit again, and does, without a reload."""
    table, invite = create_table(
        ws_url(web_server), name="Bust", profile="cdc", max_seats=4, action_seconds=30,
        starting_stack=1000,
    )  # fmt: skip
    url = link(web_server, table, invite)
    cleo = open_client("Cleo", "en-US", (390, 844))
    dan = open_client("Dan", "fr-FR", (1366, 768))
    sit(cleo, url, "Cleo", 1)
    sit(dan, url, "Dan", 3)
    players = [cleo, dan]

    def busted() -> Client | None:
        return next((p for p in players if p.page.locator("#bust").is_visible()), None)

    deadline = time.monotonic() + 60
    loser = None
    while loser is None:
        assert time.monotonic() < deadline, "nobody busted"
        loser = busted()
        if loser is not None:
            break
        try:
            client = my_turn(players, timeout=2)
        except AssertionError:
            continue
        page = client.page
        if page.locator("#raise").is_visible():
            page.click("#q-max")
            act(client, "#raise")
        else:
            check_or_call_in_page(client)
    winner = cleo if loser is dan else dan
    seat = 1 if loser is cleo else 3
    # the busted seat stays on the winner's felt (with the hand shown) until the next hand
    winner.page.wait_for_selector(f".seat.busted[data-seat='{seat}']")
    assert winner.page.locator(f".seat.busted[data-seat='{seat}'] .card[data-card]").count() == 2
    winner.shot("bust-seen-by-the-winner", full_page=False)
    loser.shot("bust-seen-by-the-loser", full_page=False)
    assert loser.page.locator("#sitout").is_hidden()
    assert loser.page.locator("#leave").is_visible()
    # he sits again, at another free seat, with a new stack: no reload
    free = 2 if seat != 2 else 4
    loser.page.click(f".seat[data-seat='{free}'] button.sit")
    loser.page.wait_for_selector(f".seat.you[data-seat='{free}'][data-stack='1000']")
    # the next hand starts: the busted seat is gone from the felt
    winner.page.wait_for_selector(f".seat[data-seat='{seat}']:not(.busted).free", timeout=20_000)
    for client in players:
        assert not client.errors, client.errors


# ---------------------------------------------------------------------- sitting out


def test_a_player_who_sits_out_is_not_dealt_in(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    """Sit out: from the next deal on, no cards, no blind, no turn for him (his seat stays);
    back in, he is dealt again."""
    table, invite = create_table(
        ws_url(web_server), name="Out", profile="cdc", max_seats=6, action_seconds=30
    )
    url = link(web_server, table, invite)
    eve = open_client("Eve", "en-US", (390, 844))
    sit(eve, url, "Eve", 2)
    for nick, seat in (("Wendy", 4), ("Xena", 6)):
        wires.append(WirePlayer(ws_url(web_server), table, invite, nick, seat))
    wire = wires[0]
    page = eve.page
    wait_until(lambda: any(2 in seats for seats in list(wire.dealt.values())), "Eve dealt in")
    page.click("#sitout")
    asked = wire.hand
    deadline = time.monotonic() + 40
    skipped = None
    while skipped is None:
        assert time.monotonic() < deadline, "no hand dealt without Eve"
        with contextlib.suppress(AssertionError):
            client = my_turn([eve], timeout=1)
            check_or_call_in_page(client)
        later = [n for n, seats in list(wire.dealt.items()) if n > asked and 2 not in seats]
        skipped = later[0] if later else None
    wait_until(
        lambda: int(page.get_attribute("#table-view", "data-hand") or 0) >= skipped, "the hand"
    )
    assert page.locator("#hole .card").count() == 0
    assert "sitting out" in page.inner_text(".seat.you")
    assert page.inner_text("#sitout") == "Sit back in"
    eve.shot("sat-out", full_page=False)
    page.click("#sitout")
    wait_until(
        lambda: any(n > skipped and 2 in seats for n, seats in list(wire.dealt.items())),
        "Eve dealt in again",
        40,
    )
    assert not eve.errors, eve.errors
