"""Small delights friends expect (issue 13), in real headless Chromium against a real server,
with players over the wire:

- a visual hand replayer from the signed hand record: a hand with an all-in and a side pot,
  stepped to the end (buttons, arrow keys, play): at every step the chips in the middle are
  the record's ``added`` so far, less what was returned and awarded, each seat's stack its
  start less what it put in; at the end the stacks are the record's ``final_stacks`` and the
  pots the record's, with their winners; inside the window on a phone and on a laptop;
- sounds: your turn schedules a "turn" sound (counted on <body>), chips and board cards
  theirs; muted, nothing is played; the choice survives a reload;
- fairness in plain words: a real hand's dialog says "All N cards you saw were committed
  before the cut ✓" with N counted from the record and our own cards, who cut, our two cards
  proven; a record altered on its way (a salt, a card) turns the sentence into ✗.

Screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, Route

from .conftest import Client, WebServer, wait_until
from .test_table import OpenClient, check_or_call_in_page, link, my_turn, sit, ws_url
from .wire import WirePlayer, create_table

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def card_text(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def fetch_record(server: WebServer, table: str, invite: str, hand: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/api/hands/{table}/{hand}.json?t={invite}") as r:
        record: dict[str, Any] = json.load(r)
    return record


def box(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.eval_on_selector(
        selector,
        "n => { const r = n.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }",
    )
    return found


def inside(b: dict[str, float], page: Page) -> bool:
    size = page.viewport_size
    assert size is not None
    return (
        b["left"] >= -0.5
        and b["top"] >= -0.5
        and b["right"] <= size["width"] + 0.5
        and b["bottom"] <= size["height"] + 0.5
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


# ---------------------------------------------------------------------- the replayer


class AllInOnce:
    """Three players over the wire. Until the stacks differ, every hand is folded to the big
    blind (who wins the small blind): the stacks then differ by a blind or two. In the first
    three-way hand where one stack is the shortest alone, its player goes all-in preflop and
    the others call; on the flop the first of them bets all his chips and the other calls:
    a side pot between them (and, when the bettor covers the caller, chips returned)."""

    def __init__(self) -> None:
        self.hand: int | None = None
        self.short: int | None = None

    def turn(self, player: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
        hand = int(turn["hand"])
        if self.hand is None:
            stacks = self.stacks(player, hand)
            low = min(stacks.values(), default=0)
            if len(stacks) == 3 and list(stacks.values()).count(low) == 1:
                self.hand = hand
                self.short = next(s for s, v in stacks.items() if v == low)
        if hand != self.hand:
            return {"verb": "check"} if turn.get("can_check") else {"verb": "fold"}
        if player.board == 0 and player.seat == self.short and turn.get("can_raise"):
            return {"verb": "allin"}
        if player.board and turn.get("can_check") and turn.get("can_raise"):
            return {"verb": "allin"}
        return {"verb": "check"} if turn.get("can_check") else {"verb": "call"}

    @staticmethod
    def stacks(player: WirePlayer, hand: int) -> dict[int, int]:
        with player.lock:
            starts = [
                m for m in player.messages if m.get("t") == "hand_start" and m["hand"] == hand
            ]
        return {int(s): int(v) for s, v in starts[-1]["stacks"].items()} if starts else {}


def expected_steps_hold(record: dict[str, Any], seen: list[dict[str, Any]]) -> None:
    """Each step the page showed, against the record: the chips in the middle are every
    `added` so far less what was returned and awarded; each stack is its start less what it
    put in, plus what came back and what it won."""
    middle = 0
    stacks = {p["seat"]: p["stack"] for p in record["players"]}
    actions_seen = []
    for step in seen:
        kind, at = step["kind"], step["at"]
        if kind == "action":
            action = record["actions"][at]
            middle += action["added"]
            stacks[action["seat"]] -= action["added"]
            actions_seen.append(at)
        elif kind == "returned":
            back = record["returned"][at]
            middle -= back["amount"]
            stacks[back["seat"]] += back["amount"]
        elif kind == "pot":
            pot = record["pots"][at]
            middle -= pot["amount"]
            for seat, share in pot["shares"]:
                stacks[seat] += share
        assert step["total"] == middle, (step, middle)
        assert step["stacks"] == {str(s): v for s, v in stacks.items()}, (step, stacks)
    assert actions_seen == list(range(len(record["actions"]))), actions_seen
    assert middle == 0


READ_STEP = r"""() => {
  const d = document.getElementById('replay');
  const seats = [...d.querySelectorAll('.rp-seat')];
  return {
    step: Number(d.dataset.step), steps: Number(d.dataset.steps), kind: d.dataset.kind,
    at: /^\d+$/.test(d.dataset.at) ? Number(d.dataset.at) : d.dataset.at,
    total: Number(document.getElementById('rp-total').dataset.total),
    stacks: Object.fromEntries(seats.map((s) => [s.dataset.seat, Number(s.dataset.stack)])),
    pots: JSON.parse(document.getElementById('rp-pots').dataset.amounts),
    say: document.getElementById('rp-say').textContent,
    shown: seats.filter((s) => s.querySelectorAll('.card[data-card]').length === 2).length,
  };
}"""


def replay_fits(client: Client, label: str) -> None:
    """The replayer is inside the window: its felt, every seat, the board, the words and the
    controls; no seat covers another or the board."""
    page = client.page
    for selector in ("#replay", "#rp-felt", ".rp-board", "#rp-say", "#rp-prev", "#rp-next",
                     "#rp-play", "#rp-first", "#rp-last", "#rp-close"):  # fmt: skip
        assert inside(box(page, selector), page), (label, selector, box(page, selector))
    seats = page.eval_on_selector_all(
        ".rp-seat",
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })",
    )
    board = box(page, ".rp-center")
    for i, seat in enumerate(seats):
        assert inside(seat, page), (label, seat)
        assert not overlap(seat, board), (label, "a seat covers the middle", seat, board)
        for other in seats[i + 1 :]:
            assert not overlap(seat, other), (label, "two seats overlap", seat, other)
    client.shot(label, full_page=False)


def test_the_replayer_steps_through_an_all_in_with_a_side_pot(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    table, invite = create_table(
        ws_url(web_server), name="Replay", profile="cdc", max_seats=6, action_seconds=30
    )
    rita = open_client("Rita", "fr-FR", (390, 844))  # on the rail, on a phone, in French
    page = rita.page
    page.goto(link(web_server, table, invite))
    page.wait_for_selector("#history-open:not([hidden])")
    scenario = AllInOnce()
    for nick, seat in (("Ana", 1), ("Bob", 3), ("Cid", 5)):
        wires.append(WirePlayer(ws_url(web_server), table, invite, nick, seat, scenario.turn))
    wait_until(
        lambda: scenario.hand is not None and scenario.hand in wires[0].ended,
        "the all-in hand",
        60,
    )
    hand = scenario.hand
    assert hand is not None
    record = fetch_record(web_server, table, invite, hand)
    assert any(a["allin"] for a in record["actions"]), record["actions"]
    assert len(record["pots"]) >= 2, record["pots"]

    # the history lists the hand; its record opens the replayer
    page.click("#history-open")
    page.click(f".hand-pick[data-hand='{hand}']")
    page.click(f".record[data-hand='{hand}'] .replay-open")
    page.wait_for_selector("#replay[open]")
    assert page.evaluate(READ_STEP)["kind"] == "start"
    replay_fits(rita, "replay-start-390x844")

    # step to the end: with the buttons, then the arrow keys
    seen = [page.evaluate(READ_STEP)]
    last_preflop = max(i for i, a in enumerate(record["actions"]) if a["street"] == "preflop")
    while seen[-1]["step"] < seen[-1]["steps"] - 1:
        if len(seen) % 2:
            page.click("#rp-next")
        else:
            page.keyboard.press("ArrowRight")
        now = page.evaluate(READ_STEP)
        assert now["step"] == seen[-1]["step"] + 1, (now, seen[-1])
        seen.append(now)
        if now["kind"] == "action" and now["at"] == last_preflop:
            rita.shot("replay-preflop-bets-390x844", full_page=False)
    expected_steps_hold(record, seen[1:])
    last = seen[-1]
    assert last["kind"] == "pot"
    assert last["stacks"] == record["final_stacks"]
    assert last["pots"] == [p["amount"] for p in record["pots"]]
    assert last["shown"] == len(record["shown"]) >= 2
    assert [s["kind"] for s in seen].count("board") == {0: 0, 3: 1, 4: 2, 5: 3}[
        len(record["board"])
    ]
    names = {p["seat"]: p["name"] for p in record["players"]}
    pots = page.eval_on_selector_all("#rp-pots li", "ls => ls.map(l => l.textContent)")
    assert pots[0].startswith("Pot principal") and pots[1].startswith("Pot annexe 1"), pots
    for text, pot in zip(pots, record["pots"], strict=True):
        assert all(names[w] in text for w in pot["winners"]), (text, pot)
    assert "gagne" in last["say"], last
    assert page.locator("#rp-next").is_disabled()
    replay_fits(rita, "replay-end-390x844")

    # back and forth with the keys; play goes on by itself, pause stops it
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(READ_STEP)["step"] == last["step"] - 1
    page.keyboard.press("Home")
    assert page.evaluate(READ_STEP)["step"] == 0
    page.click("#rp-play")
    assert page.get_attribute("#rp-play", "aria-label") == "Pause"
    page.wait_for_function("document.getElementById('replay').dataset.step >= 2")
    page.click("#rp-play")
    assert page.get_attribute("#rp-play", "aria-label") == "Lecture"
    stopped = page.evaluate(READ_STEP)["step"]
    time.sleep(1.5)
    assert page.evaluate(READ_STEP)["step"] == stopped

    # on a laptop
    page.set_viewport_size({"width": 1366, "height": 768})
    page.keyboard.press("End")
    assert page.evaluate(READ_STEP)["stacks"] == record["final_stacks"]
    replay_fits(rita, "replay-end-1366x768")
    page.keyboard.press("Escape")
    page.wait_for_selector("#replay", state="hidden")


# ---------------------------------------------------------------------- sounds


def sounds(page: Page) -> dict[str, int]:
    found: dict[str, int] = page.evaluate(
        "() => Object.fromEntries(['soundsPlayed', 'soundTurn', 'soundChips', 'soundBoard',"
        " 'soundWin'].map((k) => [k, Number(document.body.dataset[k] || 0)]))"
    )
    return found


def decisions(page: Page) -> int:
    return int(page.evaluate("() => brasseur.store.state.t.turnNo"))


def next_turn(client: Client) -> None:
    """Act (check or call) at our turn, then wait for our next decision."""
    page = client.page
    before = decisions(page)
    check_or_call_in_page(client)
    wait_until(lambda: decisions(page) > before and my_turn([client], 20), "our next turn", 30)


def test_sounds_play_at_your_turn_and_not_once_muted_even_after_a_reload(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    table, invite = create_table(
        ws_url(web_server), name="Sounds", profile="cdc", max_seats=4, action_seconds=30
    )
    ana = open_client("Ana", "en-US", (390, 844))
    page = ana.page
    sit(ana, link(web_server, table, invite), "Ana", 1)
    assert page.get_attribute("#mute", "aria-label") == "Mute the sounds"
    assert page.get_attribute("#mute", "aria-pressed") == "false"
    wires.append(WirePlayer(ws_url(web_server), table, invite, "Bob", 3))

    # sound on: each decision of ours plays the "turn" sound; chips and the board theirs
    my_turn([ana], 30)
    wait_until(lambda: sounds(page)["soundTurn"] == decisions(page) >= 1, "the turn sound")
    while not (sounds(page)["soundBoard"] and sounds(page)["soundChips"]):
        next_turn(ana)
        assert sounds(page)["soundTurn"] == decisions(page), (sounds(page), decisions(page))
    assert decisions(page) >= 2

    # muted: nothing more is played
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('brasseur.mute')") == "1"
    muted = sounds(page)
    for _ in range(2):
        next_turn(ana)
    assert sounds(page) == muted, (sounds(page), muted)

    # the choice survives a reload: still muted after a gesture and a decision
    page.reload()
    page.wait_for_selector(".seat.you[data-seat='1']")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.click("#log")  # a gesture: the page may make sounds now
    my_turn([ana], 30)
    next_turn(ana)
    assert sounds(page)["soundsPlayed"] == 0, sounds(page)
    # sound back on: the next decision is heard again
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('brasseur.mute')") == "0"
    next_turn(ana)
    assert sounds(page)["soundTurn"] == 1, sounds(page)


# ---------------------------------------------------------------------- fairness in plain words


def fair_words(page: Page, hand: int) -> dict[str, dict[str, str]]:
    page.wait_for_selector(f"#history .record[data-hand='{hand}'] .fair-words li")
    found: dict[str, dict[str, str]] = page.eval_on_selector_all(
        "#history .fair-words li",
        "ls => Object.fromEntries(ls.map(l => [l.dataset.fair,"
        " {ok: l.dataset.ok, text: l.textContent}]))",
    )
    return found


def tamper(page: Page, table: str, hand: int, change: Any) -> None:
    """From now on the page gets the record of `hand` changed by `change(record)` on its way."""

    def handle(route: Route) -> None:
        response = route.fetch()
        record = response.json()
        change(record)
        route.fulfill(response=response, body=json.dumps(record))

    page.unroute(f"**/api/hands/{table}/{hand}.json*")
    page.route(f"**/api/hands/{table}/{hand}.json*", handle)


def board_position(record: dict[str, Any], i: int) -> int:
    n = record["players_dealt"]
    return int((record["cut"] + [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7][i]) % 52)


def test_fairness_in_plain_words_and_a_tampered_record(
    web_server: WebServer, open_client: OpenClient, wires: list[WirePlayer]
) -> None:
    table, invite = create_table(
        ws_url(web_server), name="Fair", profile="cdc", max_seats=4, action_seconds=30
    )
    ana = open_client("Ana", "en-US", (1366, 768))
    page = ana.page
    sit(ana, link(web_server, table, invite), "Ana", 1)
    wires.append(WirePlayer(ws_url(web_server), table, invite, "Bob", 3))
    # play until two hands with a flop are over, one cut by each player, with the proof of
    # our own cards (heads-up, the cut goes to the player who is not on the button)
    done = "() => { const t = brasseur.store.state.t; return t.hands.filter((h) =>"
    done += " t.proofs[h] && t.proofs[h].check && t.proofs[h].check.ok)"
    done += " .map((h) => [h, t.proofs[h].cutter]) }"
    deadline = time.monotonic() + 60
    records: dict[int, dict[str, Any]] = {}
    cut_by: dict[int, int] = {}  # the cutter's seat -> a hand he cut
    while len(cut_by) < 2:
        assert time.monotonic() < deadline, ("no hand checked", cut_by)
        try:
            client = my_turn([ana], 1)
            check_or_call_in_page(client)
        except AssertionError:
            pass
        for n, cutter in page.evaluate(done):
            if n not in records:
                records[n] = fetch_record(web_server, table, invite, n)
            if records[n]["board"]:
                cut_by.setdefault(cutter, n)

    page.click("#history-open")
    # Bob cut this one
    page.click(f".hand-pick[data-hand='{cut_by[3]}']")
    said = fair_words(page, cut_by[3])
    assert records[cut_by[3]]["cut"] == 17  # Bob's cut (wire.py)
    assert said["cut"] == {
        "ok": "true",
        "text": "The deck was shuffled and sealed before anyone cut, and Bob cut it ✓",
    }, said
    # we cut this one: the deal used our cut
    hand = cut_by[1]
    record = records[hand]
    entry = page.evaluate(f"() => brasseur.store.state.t.proofs[{hand}]")
    assert entry["myCut"] == record["cut"], (entry, record["cut"])
    seen = set(entry["hole"]) | set(record["board"])
    seen |= {c for cards in record["shown"].values() for c in cards}
    page.click(f".hand-pick[data-hand='{hand}']")
    said = fair_words(page, hand)
    assert said["cards"] == {
        "ok": "true",
        "text": f"All {len(seen)} cards you saw were committed before the cut ✓",
    }, said
    assert f"and you cut it (at {record['cut']}): the deal used your cut ✓" in said["cut"]["text"]
    assert said["hole"]["text"] == "Your two cards were proven to you alone ✓", said
    assert {k: v["ok"] for k, v in said.items()} == dict.fromkeys(
        ["cards", "cut", "hole", "signed", "secret", "chips"], "true"
    )
    # the technical details are folded below the sentences
    assert page.locator("#history .fair-details").get_attribute("open") is None
    assert record["root"] in (page.text_content("#history .fair-details") or "")
    ana.shot("fairness-plain-words-1366x768", full_page=False)
    page.click("#history .fair-details summary")
    ana.shot("fairness-details-1366x768", full_page=False)

    # in French
    page.keyboard.press("Escape")
    page.click("#lang")
    page.click("#history-open")
    page.click(f".hand-pick[data-hand='{hand}']")
    said = fair_words(page, hand)
    assert said["cards"]["text"] == (
        f"Les {len(seen)} cartes que vous avez vues étaient engagées avant la coupe ✓"
    ), said
    assert said["hole"]["text"] == "Vos deux cartes vous ont été prouvées, à vous seul ✓", said
    page.keyboard.press("Escape")
    page.click("#lang")

    # a salt changed on the way: that board card no longer matches the sealed deck
    first = record["board"][0]

    def salt(r: dict[str, Any]) -> None:
        o = next(o for o in r["opened"] if o["position"] == board_position(r, 0))
        o["salt"] = ("0" if o["salt"][0] != "0" else "1") + o["salt"][1:]

    tamper(page, table, hand, salt)
    page.click("#history-open")
    page.click(f".hand-pick[data-hand='{hand}']")
    said = fair_words(page, hand)
    assert said["cards"]["ok"] == "false", said
    assert said["cards"]["text"].startswith("Not every card you saw was committed before the cut ✗")
    assert f"{card_text(first)} (board)" in said["cards"]["text"], said
    assert "Do not trust this hand" in said["cards"]["text"]
    assert said["signed"]["ok"] == "false", said
    assert page.get_attribute("#history .verdict", "data-ok") == "false"
    ana.shot("fairness-tampered-salt-1366x768", full_page=False)

    # a card changed on the way (the record says another river card than was dealt)
    unused = next(r + s for r in "AKQJT98765432" for s in "shdc" if r + s not in seen | {first})

    def card(r: dict[str, Any]) -> None:
        r["board"][-1] = unused

    tamper(page, table, hand, card)
    page.click(f".hand-pick[data-hand='{hand}']")
    page.wait_for_function(
        "(c) => (document.querySelector('#history .fair-words li[data-fair=cards]')"
        " || {textContent: ''}).textContent.includes(c)",
        arg=card_text(unused),
    )
    said = fair_words(page, hand)
    assert said["cards"]["ok"] == "false" and "✗" in said["cards"]["text"], said
    assert f"{card_text(unused)} (board)" in said["cards"]["text"], said
    page.keyboard.press("Escape")
