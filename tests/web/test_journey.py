"""The player's tournament journey and the rail in the page (issue 13), in real headless
Chromium against a real ``python -m server`` (every clock at its real speed, short ones from
each tournament's TOML), with players over the wire (tests/web/wire_tournament.py):

- a newcomer registers late from the tournament page and is seated (his cards, the felt);
  short-stacked by the late-entry penalty, he busts, sees that he is out (never "Sit out" nor
  "Call the director"), rebuys within the window (tda 26: before his table's next hand),
  busts again and re-enters (tda 7) with a new stack, all in one page, never reloaded;
- the start's draw says "You are seated at Table N, seat S" (a move says "moved"); a player
  busted once registration is closed sees that he is out, then his place from the results;
- a busted friend leaves his table and is back in the lobby, in the same page, no error;
- a spectator follows the live hand (a raise and the flop show before the hand ends) and never
  gets a hole card, neither in the page nor in any websocket frame; the director's console
  switches the rail to the commentary mode (the spectator lags a hand, then sees the finished
  hand's cards) and back to live (the spectator catches up with the hand in play).

Any console error fails a test; screenshots go to test-artifacts/web/ (``j*.png``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.sync.client import connect

from .conftest import ROOT, Client, PlaywrightError, _free_port, _require_browser, serve, wait_until
from .wire import WirePlayer, create_table
from .wire_tournament import TourPlayer, check_or_call, shove

OpenClient = Callable[..., Client]

CONFIGS = Path(__file__).with_name("journey")
TOURNAMENTS = ("late", "sng", "rail")
"""The tournaments of tests/web/journey/*.toml (what each is for is said there)."""

# Every frame a page receives, with the time it came (Date.now()), kept in the page for the
# test to read: set up before the page's own scripts run.
RECORD_FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.__frames = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        const bytes = new Uint8Array(event.data);
        let text = "";
        for (let i = 0; i < bytes.length; i += 8192) {
          text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
        }
        window.__frames.push([Date.now(), btoa(text)]);
      });
    }
  };
})();
"""


@dataclass
class JourneyServer:
    port: int
    directors: dict[str, str]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


@pytest.fixture(scope="module")
def journey_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JourneyServer]:
    _require_browser()
    data = tmp_path_factory.mktemp("web-journey")
    port = _free_port()
    directors = {}
    for tid in TOURNAMENTS:  # one after the other: the first makes the keys
        config = CONFIGS / f"{tid}.toml"
        create = ["tournament", "create", str(config), "--id", tid, "--data", str(data)]
        created = subprocess.run(
            [sys.executable, "-m", "server", *create, "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        found = re.search(r"\?tournament=" + tid + r"&director=(\S+)", created.stdout)
        assert found, created.stdout
        directors[tid] = found.group(1)
    args = [
        "--port", str(port), "--data", str(data),
        "--cut-seconds", "2", "--next-hand-seconds", "1", "--showdown-seconds", "0.5",
    ]  # fmt: skip
    with serve(args, data, ready="?tournament="):
        server = JourneyServer(port=port, directors=directors)
        for tid in TOURNAMENTS:
            wait_until(lambda tid=tid: known(server, tid), f"tournament {tid} served")
        yield server


@pytest.fixture
def crowd() -> Iterator[list[Any]]:
    """Players over the wire, closed at the end of the test."""
    players: list[Any] = []
    yield players
    for player in players:
        player.close()


# ---------------------------------------------------------------------- helpers


def state(server: JourneyServer, tid: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/api/tournaments/{tid}", timeout=5) as reply:
        return dict(json.load(reply))


def known(server: JourneyServer, tid: str) -> bool:
    try:
        return bool(state(server, tid))
    except OSError:
        return False


def same_page(client: Client) -> None:
    """Mark the page: the mark is gone if the page is ever reloaded or left."""
    client.page.evaluate("() => { window.__samePage = true; }")


def still_same_page(client: Client) -> bool:
    return bool(client.page.evaluate("() => window.__samePage === true"))


def visible(client: Client, selector: str) -> bool:
    return client.page.locator(selector).first.is_visible()


def play_once(client: Client, fold: bool = False) -> None:
    """The page's player cuts when asked and goes all-in at his turn (calls when he cannot
    raise; with ``fold``, checks or folds). A control that went away meanwhile is no error:
    the next round tries again."""
    page = client.page
    with contextlib.suppress(PlaywrightError):
        if visible(client, "#cut-panel"):
            page.click("#cut", timeout=1000)
        if not visible(client, "#actions"):
            return
        if not fold and visible(client, "#q-max"):
            page.click("#q-max", timeout=1000)
        for control in ("#check", "#fold") if fold else ("#raise", "#call", "#check"):
            if visible(client, control):
                page.click(control, timeout=1000)
                return


def play_until(
    client: Client, done: Callable[[], bool], what: str, timeout: float, fold: bool = False
) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            log = client.page.inner_text("#log")[-1500:]
            raise AssertionError(f"timed out waiting for {what}; the page's log:\n{log}")
        play_once(client, fold)
        time.sleep(0.05)


def register_in_page(client: Client, nick: str) -> None:
    """Register from the tournament page: the page asks for a nickname first."""
    page = client.page
    page.click("#t-register")
    page.wait_for_selector("#nick-form", state="visible")
    page.fill("#nick", nick)
    page.click("#nick-ok")
    page.wait_for_function("() => document.getElementById('t-you').dataset.player")


def out_of_play(client: Client) -> None:
    """What an eliminated player never sees: his seat's buttons and the director's call."""
    for selector in ("#sitout", "#call-director", "#leave", "#t-abandon", "#actions", ".seat.you"):
        assert not visible(client, selector), f"{client.name} is out but sees {selector}"


def direct(server: JourneyServer, tid: str, **fields: Any) -> None:
    """A director's op over the wire; a refusal fails the test."""
    with connect(server.ws, open_timeout=10) as ws:
        ws.send(msgpack.packb({"t": "hello", "version": 1}))
        token = server.directors[tid]
        ws.send(
            msgpack.packb({"t": "direct", "tournament": tid, "token": token, "id": 7, **fields})
        )
        deadline = time.monotonic() + 0.5
        with contextlib.suppress(TimeoutError):
            while time.monotonic() < deadline:
                msg = msgpack.unpackb(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                assert msg.get("t") != "error", msg


def my_stack(client: Client) -> int:
    return int(client.page.get_attribute(".seat.you", "data-stack") or -1)


# ---------------------------------------------------------------------- late entry, rebuy, re-entry


def test_a_late_entry_busts_rebuys_then_re_enters(
    journey_server: JourneyServer, open_client: OpenClient, crowd: list[Any]
) -> None:
    server = journey_server
    crowd.extend(TourPlayer(server.ws, "late", f"late{i}") for i in range(3))
    wait_until(lambda: state(server, "late")["phase"] != "registering", "the start")
    cleo = open_client("Cleo", "en-US", (390, 844))
    page = cleo.page
    page.goto(f"{server.base}/?tournament=late")
    same_page(cleo)
    # late registration is open: the page offers it
    page.wait_for_selector("#t-register", state="visible")
    assert page.inner_text("#t-badges [data-badge='late']") == "Late registration open"
    cleo.shot("j01-late-registration-open-phone", full_page=False)
    register_in_page(cleo, "Cleo")
    page.wait_for_selector(".seat.you")
    seat = page.get_attribute(".seat.you", "data-seat")
    assert page.inner_text("#t-moved") == f"You are seated at Table 1, seat {seat} (late entry)."
    assert my_stack(cleo) <= 25  # the late-entry penalty (cdc 1.8)

    # dealt in: her two cards and the felt, then she busts (all-in each hand)
    dealt = []

    def busted() -> bool:
        if not dealt and page.locator("#hole .card[data-card]").count() == 2:
            dealt.append(True)
            assert page.locator("#felt").is_visible() and page.locator(".seat").count() >= 4
            cleo.shot("j02-late-entry-dealt-in-phone", full_page=False)
        return visible(cleo, "#t-rebuy")

    play_until(cleo, busted, "Cleo's first bust", 150)
    assert dealt, "busted before her cards showed"
    out_of_play(cleo)
    assert visible(cleo, "#t-reenter")  # both windows are open
    # the rebuy: while her table waits for it ([rebuy] wait_seconds = 6), at her seat (tda 26)
    page.click("#t-rebuy")
    wait_until(
        lambda: page.get_attribute("#t-you", "data-reason") == "rebuy" or visible(cleo, "#error"),
        "the rebuy's answer",
    )
    assert not visible(cleo, "#error"), page.inner_text("#error-text")
    page.wait_for_selector(f".seat.you[data-seat='{seat}']")
    assert page.inner_text("#t-moved") == f"You are seated at Table 1, seat {seat} (rebuy)."
    assert not visible(cleo, "#t-rebuy") and not visible(cleo, "#t-reenter")
    wait_until(lambda: page.get_attribute("#t-you", "data-out") == "false", "back in")

    # busted again: no rebuy left (max 1), a re-entry
    play_until(cleo, lambda: visible(cleo, "#t-reenter"), "Cleo's second bust", 150)
    time.sleep(0.3)  # a state more: still out, no rebuy offered
    assert not visible(cleo, "#t-rebuy")
    out_of_play(cleo)
    assert page.get_attribute("#t-you", "data-out") == "true"
    assert "rebuy or re-enter" in page.inner_text("#t-you")
    assert page.inner_text("#me-label") == "You are out of chips"
    cleo.shot("j03-out-may-re-enter-phone", full_page=False)
    page.click("#t-reenter")
    wait_until(
        lambda: page.get_attribute("#t-you", "data-reason") == "late entry",
        "the re-entry's seat",
    )
    # a new entry, a new stack (2000: no penalty for a re-entry), in the same page
    wait_until(lambda: visible(cleo, ".seat.you") and my_stack(cleo) >= 1900, "the new stack")
    assert "(late entry)" in page.inner_text("#t-moved")
    assert state(server, "late")["entries"] == 5  # 3 bots, Cleo, Cleo again
    assert still_same_page(cleo)
    cleo.shot("j04-re-entered-phone", full_page=False)


# ---------------------------------------------------------------------- the draw, a place


def test_the_draw_says_seated_and_a_busted_player_sees_his_place(
    journey_server: JourneyServer, open_client: OpenClient, crowd: list[Any]
) -> None:
    server = journey_server
    fay = open_client("Fay", "en-US", (1366, 768))
    page = fay.page
    page.goto(f"{server.base}/?tournament=sng")
    same_page(fay)
    page.wait_for_selector("#t-register", state="visible")
    register_in_page(fay, "Fay")
    player = page.get_attribute("#t-you", "data-player")
    mode = {"shove": False}

    def bots(me: TourPlayer, turn: dict[str, Any]) -> dict[str, Any]:
        return shove(me, turn) if mode["shove"] else check_or_call(me, turn)

    crowd.extend(TourPlayer(server.ws, "sng", f"sng{i}", bots) for i in range(2))
    page.wait_for_selector(".seat.you")
    seat = page.get_attribute(".seat.you", "data-seat")
    seated = f"You are seated at Table 1, seat {seat} (seat draw)."
    assert page.inner_text("#t-moved") == seated  # the first draw is no move
    assert seated in page.inner_text("#log")
    fay.shot("j05-first-draw-seated", full_page=False)
    # a move still says so (the words of log.js, as the page shows a balancing move)
    moved = page.evaluate(
        """async () => (await import('/js/log.js')).movedText(
            {table: 'sng-2', seat: 4, reason: 'balancing'})"""
    )
    assert moved == "You are moved to Table 2, seat 4 (balancing)."

    # the director leaves her 25 chips (applied between her hands): she busts soon
    direct(server, "sng", op="adjust", player=player, amount=25, text="a short stack")
    # (until it applies she only checks or folds: all-in with 2000 she could win it all)
    play_until(fay, lambda: 0 <= my_stack(fay) <= 25, "the short stack", 30, fold=True)
    play_until(fay, lambda: page.get_attribute("#t-you", "data-out") == "true", "Fay's bust", 90)
    out_of_play(fay)
    assert not visible(fay, "#t-rebuy") and not visible(fay, "#t-reenter")
    # registration is closed: her place is known at her bust (cdc 1.10), before the results
    wait_until(lambda: page.get_attribute("#t-you", "data-place") == "3", "Fay's place", 25)
    assert page.inner_text("#t-you") == "You finished 3rd of 3."
    assert page.locator("#t-results tbody tr").count() == 0
    fay.shot("j06-out-place-at-once", full_page=False)
    # the two others play it out: the results give every place
    mode["shove"] = True
    wait_until(lambda: page.locator("#t-results tbody tr").count() == 3, "the results", 60)
    assert page.inner_text("#t-you") == "You finished 3rd of 3."
    assert page.locator("#t-results tbody tr").count() == 3
    # the header says its words (issue 29: the league's ordinal function showed as its code,
    # "(n) => ...", and squashed the Player column to "Pl ay er")
    heads = [h.strip() for h in page.locator("#t-results thead th").all_inner_texts()]
    assert heads == ["Place", "Player", "Prize", "Points"], heads
    text = page.inner_text("#t-results-panel")
    assert "=>" not in text and "${" not in text
    player = page.locator("#t-results thead th").nth(1).bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert player is not None and player["width"] >= 40 and player["x"] + player["width"] <= width
    assert page.locator("#t-results thead th").nth(1).evaluate("th => th.scrollHeight") < 40
    out_of_play(fay)
    assert still_same_page(fay)
    fay.shot("j07-out-place-given", full_page=False)


# ---------------------------------------------------------------------- a friend leaves


def test_a_busted_friend_leaves_for_the_lobby_in_the_same_page(
    journey_server: JourneyServer, open_client: OpenClient, crowd: list[Any]
) -> None:
    """Heads-up, both all-in at every hand. A friend who wins once covers the other: then a
    new table is tried (the bust of a bigger stack would take long)."""
    server = journey_server
    gus = open_client("Gus", "en-US", (390, 844))
    page = gus.page
    for _attempt in range(8):
        table, invite = create_table(
            server.ws, name="Friday", profile="cdc", max_seats=4, starting_stack=500
        )
        page.goto(f"{server.base}/?table={table}&invite={invite}")
        if visible(gus, "#nick-form"):
            page.fill("#nick", "Gus")
            page.click("#nick-ok")
            page.wait_for_selector("#nick-form", state="hidden")
        page.click(".seat[data-seat='1'] button.sit")
        page.wait_for_selector(".seat.you[data-seat='1']")
        same_page(gus)
        hal = WirePlayer(server.ws, table, invite, "Hal", 3, shove_wire)
        crowd.append(hal)

        def hal_busted(hal: WirePlayer = hal) -> bool:
            return any(
                m.get("t") == "seat" and m.get("status") == "busted" and m.get("seat") == 3
                for m in list(hal.messages)
            )

        play_until(gus, lambda: visible(gus, "#bust") or hal_busted(), "a bust", 40)
        if visible(gus, "#bust"):
            break
    assert visible(gus, "#bust"), "Gus never busted"
    gus.shot("j08-friend-busted-phone", full_page=False)
    assert visible(gus, "#leave") and not visible(gus, "#sitout")
    page.click("#leave")
    page.wait_for_selector("#lobby", state="visible")
    assert page.url == f"{server.base}/"
    assert not visible(gus, "#table-view") and not visible(gus, "#error")
    assert still_same_page(gus)
    page.wait_for_selector(f"#my-tables a[data-table='{table}']")
    gus.shot("j09-back-in-the-lobby-phone", full_page=False)


def shove_wire(_player: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"verb": "allin"} if turn.get("can_raise") else {"verb": "call"}


# ---------------------------------------------------------------------- the rail


@dataclass
class Recorder:
    """The frames a page received (decoded), with when (seconds, as ``time.time()``)."""

    client: Client
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)

    def pull(self) -> list[tuple[float, dict[str, Any]]]:
        got = self.client.page.evaluate("() => window.__frames.splice(0)")
        for ms, data in got:
            message = msgpack.unpackb(base64.b64decode(data))
            if isinstance(message, dict):
                self.frames.append((ms / 1000, message))
        return self.frames


def raise_once(player: TourPlayer, turn: dict[str, Any]) -> dict[str, Any]:
    """The first to speak preflop raises (to an amount that changes with the hand), the others
    call, and everyone checks after the flop."""
    hand = int(turn["hand"])
    seen = player.seen(hand)
    if seen is not None and not seen.board and not seen.raises and turn.get("can_raise"):
        to = min(int(turn["min_raise_to"]) + 25 * (hand % 4), int(turn["max_raise_to"]))
        return {"verb": "raise", "amount": to, "form": "total"}
    return check_or_call(player, turn)


def rail_view(eve: Client) -> dict[str, Any]:
    return eve.page.evaluate(
        """() => {
            const all = (selector) => [...document.querySelectorAll(selector)];
            return {
                hand: Number(document.getElementById('table-view').dataset.hand || 0),
                phase: document.getElementById('table-view').dataset.phase,
                bets: all('#seats .bet').map((n) => Number(n.dataset.bet)),
                board: all('#board .card[data-card]').map((n) => n.dataset.card),
                faces: all('#seats .card[data-card]').map((n) => n.dataset.card),
                mine: all('#hole .card').length,
            };
        }"""
    )


def no_hole_card_shown(eve: Client, rec: Recorder) -> dict[str, Any]:
    """A live rail's page shows no card but the board and the hands shown at showdown."""
    view = rail_view(eve)
    shown = {
        card
        for _, m in rec.pull()
        if m.get("t") == "shown" and m.get("hand") == view["hand"]
        for card in m["cards"]
    }
    assert view["mine"] == 0, view
    assert set(view["faces"]) <= shown, (view, shown)
    return view


def the_rail_is_live(
    eve: Client, rec: Recorder, ref: TourPlayer, after: int = 0, timeout: float = 40
) -> int:
    """A raise of the hand in play, then its flop, show on the spectator's page before the
    hand ends (as the players see it); returns that hand. From hand ``after`` on, the page
    shows no hole card (a commentary's finished hand before it shows them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        hand = ref.hand
        seen = ref.seen(hand)
        view = no_hole_card_shown(eve, rec) if rail_view(eve)["hand"] > after else {}
        if seen is None or not seen.raises or seen.ended is not None:
            time.sleep(0.05)
            continue
        to = seen.raises[0][0]
        if view.get("hand") == hand and to in view["bets"] and seen.ended is None:
            wait_until(lambda s=seen: len(s.board) >= 3 or s.ended, "the flop", 10)
            flop = seen.board[:3]
            with contextlib.suppress(AssertionError):
                wait_until(lambda f=flop: rail_view(eve)["board"][:3] == f, "the flop shown", 3)
            if seen.ended is None and rail_view(eve)["board"][:3] == flop:
                return hand
        time.sleep(0.05)
    raise AssertionError("the spectator's page never showed a hand in play")


def choose_rail(director: Client, eve: Client, mode: str) -> None:
    page = director.page
    page.select_option("#d-rail", mode)
    page.wait_for_selector(f"#d-rail[data-mode='{mode}']")
    wait_until(
        lambda: eve.page.get_attribute("#table-name", "data-rail") == mode,
        f"the spectator's page knowing the rail is {mode}",
    )


def test_the_rail_is_live_without_hole_cards_and_the_director_may_delay_it(
    journey_server: JourneyServer, open_client: OpenClient, crowd: list[Any]
) -> None:
    server = journey_server
    crowd.extend(TourPlayer(server.ws, "rail", f"rail{i}", raise_once, delay=0.5) for i in range(3))
    ref = crowd[0]
    eve = open_client("Eve", "en-US", (390, 844))
    eve.page.add_init_script(RECORD_FRAMES)
    rec = Recorder(eve)
    eve.page.goto(f"{server.base}/?tournament=rail")
    eve.page.click("#t-tables button.t-table")
    eve.page.wait_for_function(
        "() => document.querySelectorAll('#seats .seat:not(.free)').length === 3"
    )
    assert "watching" in eve.page.inner_text("#table-name")

    # live: the hand in play, as it is played
    the_rail_is_live(eve, rec, ref)
    eve.shot("j10-rail-live-phone", full_page=False)

    # the director chooses the commentary mode: the spectator lags a hand
    director = open_client("Director", "en-US", (1366, 768))
    director.page.goto(f"{server.base}/?tournament=rail&director={server.directors['rail']}")
    director.page.wait_for_selector("#d-rail[data-mode='live']")
    assert director.page.input_value("#d-rail") == "live"
    choose_rail(director, eve, "commentary")
    assert "a hand behind" in eve.page.inner_text("#me-label")
    # the header keeps its buttons on a phone (the tag gives way)
    right = eve.page.evaluate("() => document.getElementById('lang').getBoundingClientRect().right")
    assert right <= 390, right
    switched = time.time()
    director.shot("j11-console-rail")
    lagging = ref.hand + 1
    wait_until(
        lambda: (s := ref.seen(lagging)) is not None and s.raises, "a raise after the switch", 30
    )
    watched = 0
    while (seen := ref.seen(lagging)) is not None and seen.ended is None and watched < 15:
        view = rail_view(eve)
        assert view["hand"] < lagging and not view["bets"], view
        watched += 1
        time.sleep(0.1)
    assert watched >= 5, "the hand ended too soon to be watched"
    # the hand over, the spectator gets it all, with the players' cards (a commentary)
    wait_until(lambda: rail_view(eve)["hand"] == lagging, "the finished hand on the rail", 20)
    wait_until(lambda: rail_view(eve)["phase"] == "between", "the finished hand's end", 5)
    dealt = {
        card
        for _, m in rec.pull()
        if m.get("t") == "hole" and m.get("hand") == lagging
        for card in m["cards"]
    }
    # every player's cards, a mucked hand's too (the bots never fold)
    assert len(dealt) == 6 and set(rail_view(eve)["faces"]) == dealt, (rail_view(eve), dealt)
    eve.shot("j12-rail-commentary-phone", full_page=False)

    # back to live: the spectator catches up with the hand in play
    choose_rail(director, eve, "live")
    back = time.time()
    live = the_rail_is_live(eve, rec, ref, after=lagging)
    assert live > lagging

    # no frame ever carried a card of a hand in play: hole cards only in commentary, once the
    # hand was over; never in a snapshot
    dealt = 0
    for at, m in rec.pull():
        if m.get("t") == "snapshot":
            assert not m["state"].get("hole") and "menu" not in m["state"], m
        if m.get("t") == "hole" and m["cards"]:
            dealt += 1
            seen = ref.hands.get((m["table"], m["hand"]))
            assert seen is not None and seen.ended is not None, m
            assert seen.ended - seen.started > 2  # a live card would have come seconds earlier
            assert switched <= at < back + 1 and at >= seen.ended - 1, (at, seen, switched, back)
    assert dealt >= 3  # the commentary's hand: the three players' cards
