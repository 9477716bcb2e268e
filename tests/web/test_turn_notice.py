"""Your turn when you are not looking, the log that follows the hand, and the seats not dealt
in (issue 29, item 10), in real headless Chromium against a real server, at 390x844,
360x640 and 1366x768, one person in a browser and players over the wire:

- the page hidden (its visibility emulated: ``document.hidden`` and ``visibilitychange``), a
  new decision of ours marks the tab's title "▶ Your turn · <table>", shown again it is the
  table's title again; a phone vibrates (``navigator.vibrate``, recorded), a laptop does not;
- no browser notification without asking for it (the permission granted to the context):
  once the bell is clicked (in view, uncovered), a hidden page at our turn shows one, with
  the server's hand number;
- after a reload at a later hand, the log shows its newest line (scrolled to the bottom of
  its list, on a laptop in the window and uncovered); scrolled up by the person, it stays
  where he put it while lines come; scrolled back down, it follows again;
- a player sitting out (dealt nothing) is tagged "sitting out", one disconnected at the deal
  (a dead hand) "not dealt in · disconnected", never "folded".

The last two wait for several hands (a minute a size): they run at the French phone size only
(``LONG_SIZE``); the first two at every size.

Screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import Client, WebServer, wait_until
from .seen import SIZE_IDS, SIZES, assert_no_code, assert_seen
from .test_table import OpenClient, check_or_call_in_page, link, my_turn, sit, ws_url
from .wire import WirePlayer, check_or_call, create_table

# Before the page's own scripts: the page's visibility under the test's control, the
# notifications and vibrations recorded (the real ones still made).
WATCH = """
window.__hidden = false;
for (const [name, get] of [['hidden', () => window.__hidden],
                           ['visibilityState', () => (window.__hidden ? 'hidden' : 'visible')]]) {
  Object.defineProperty(Document.prototype, name, {configurable: true, get});
}
window.__setHidden = (hidden) => {
  window.__hidden = hidden;
  document.dispatchEvent(new Event('visibilitychange'));
};
window.__notes = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push({title, body: options && options.body});
    }
  };
}
window.__vibes = [];
navigator.vibrate = (pattern) => { window.__vibes.push(pattern); return true; };
"""


def decisions(page: Page) -> int:
    return int(page.evaluate("() => brasseur.store.state.t.turnNo"))


def next_turn(client: Client) -> None:
    """Wait for a decision of ours newer than the last one (then it is up)."""
    page = client.page
    before = decisions(page)
    if page.locator("#actions").is_visible():
        check_or_call_in_page(client)
    wait_until(lambda: decisions(page) > before and my_turn([client], 30), "our next turn", 40)


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate("(h) => window.__setHidden(h)", hidden)


def log_state(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => { const l = document.getElementById('log');
          const last = l.lastElementChild; const r = last.getBoundingClientRect();
          const box = l.getBoundingClientRect();
          return {top: l.scrollTop, gap: l.scrollHeight - l.scrollTop - l.clientHeight,
                  scrolls: l.scrollHeight > l.clientHeight + 1, n: l.children.length,
                  lastInList: r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
                  hands: [...l.querySelectorAll('li.hand')].map((i) => i.textContent)
                    .filter((t) => /(#|n° )\\d+ —/.test(t))}; }"""
    )
    return found


def scrolled_then_played(client: Client, follows: str, scroll: str) -> dict[str, Any]:
    """The person scrolls the log (``scroll``, a statement on ``l``: a scroll event like
    his), the page takes it (``data-follow``), then lines come: the log's state after."""
    page = client.page
    page.eval_on_selector("#log", f"l => {{ {scroll}; }}")
    wait_until(lambda: page.get_attribute("#log", "data-follow") == follows, "the scroll", 5)
    seen = log_state(page)["n"]
    next_turn(client)
    wait_until(lambda: log_state(page)["n"] > seen, "new lines", 10)
    return log_state(page)


def tags(page: Page, seat: int) -> str:
    return page.inner_text(f".seat[data-seat='{seat}'] .tags")


Seated = tuple[Client, WirePlayer, WirePlayer]


def seated(
    web_server: WebServer,
    open_client: OpenClient,
    wires: list[WirePlayer],
    size: tuple[int, int],
) -> Seated:
    """Ana in the page at seat 1 (French on the 390x844 phone), Bob and Cy over the wire at
    seats 2 and 3 calling, Dee at seat 4 sitting out (dealt nothing)."""
    french = size == (390, 844)
    table, invite = create_table(
        ws_url(web_server), name="Onglet", profile="cdc", max_seats=4, action_seconds=15
    )
    ana = open_client("Ana", "fr-FR" if french else "en-US", size)
    page = ana.page
    page.context.add_init_script(WATCH)
    page.context.grant_permissions(["notifications"], origin=web_server.base)
    sit(ana, link(web_server, table, invite), "Ana", 1)
    bob = WirePlayer(ws_url(web_server), table, invite, "Bob", 2, check_or_call)
    cy = WirePlayer(ws_url(web_server), table, invite, "Cy", 3, check_or_call)
    dee = WirePlayer(ws_url(web_server), table, invite, "Dee", 4, check_or_call)
    wires.extend([bob, cy, dee])
    dee.send(t="sitout", table=table)  # sitting out: dealt nothing
    return ana, bob, cy


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_your_turn_reaches_you_in_another_tab(
    web_server: WebServer,
    open_client: OpenClient,
    wires: list[WirePlayer],
    size: tuple[int, int],
) -> None:
    phone = size[0] < 1000
    french = size == (390, 844)
    ana, bob, _ = seated(web_server, open_client, wires, size)
    page = ana.page
    title = "Onglet — Brasseur"
    mark = "▶ À vous · " if french else "▶ Your turn · "

    # visible: the title stays the table's; a phone vibrates at each decision, a laptop not
    my_turn([ana], 40)
    assert page.title() == title
    vibes = page.evaluate("() => window.__vibes.length")
    assert vibes == (1 if phone else 0), vibes

    # hidden, not asked for notifications: the title says it, no notification
    check_or_call_in_page(ana)
    set_hidden(page, True)
    next_turn(ana)
    wait_until(lambda: page.title() == f"{mark}{title}", "the title's mark", 5)
    assert page.evaluate("() => window.__notes.length") == 0
    set_hidden(page, False)
    wait_until(lambda: page.title() == title, "the title back", 5)

    # the bell (in view, uncovered) asks for them: hidden at our turn, one notification
    assert page.get_attribute("#notify", "aria-pressed") == "false"
    assert_seen(page, "#notify", who="Ana")
    page.click("#notify")
    wait_until(lambda: page.get_attribute("#notify", "aria-pressed") == "true", "the bell on", 5)
    check_or_call_in_page(ana)
    set_hidden(page, True)
    next_turn(ana)
    notes = wait_until(lambda: page.evaluate("() => window.__notes"), "a notification", 5)
    hand = bob.hand  # the server's (one per decision that came while hidden: the last, ours)
    assert int(page.get_attribute("#table-view", "data-hand") or 0) == hand
    body = f"Main {hand} à Onglet" if french else f"Hand {hand} at Onglet"
    assert notes[-1] == {"title": f"{mark}Onglet", "body": body}, notes
    assert page.title() == f"{mark}{title}"
    if phone:
        assert page.evaluate("() => window.__vibes.length") >= 3
    set_hidden(page, False)
    wait_until(lambda: page.title() == title, "the title back", 5)
    assert_no_code(page, "Ana")
    ana.shot(f"turn-notice-{size[0]}x{size[1]}", full_page=False)


# One size: the hands it waits for (a dead hand, then a long log) take a minute a size; what
# it checks does not depend on the layout but for the log's place, checked on the phone.
LONG_SIZE = (390, 844)


def test_seats_not_dealt_in_and_the_log_follows_the_hand(
    web_server: WebServer,
    open_client: OpenClient,
    wires: list[WirePlayer],
) -> None:
    size = LONG_SIZE
    phone = size[0] < 1000
    french = size == (390, 844)
    ana, bob, cy = seated(web_server, open_client, wires, size)
    page = ana.page
    my_turn([ana], 40)

    # Cy gone at the next deal: a dead hand; Dee sits out: neither is tagged folded
    cy.close()

    def cy_dead() -> int | None:
        with bob.lock:
            return next(
                (
                    int(m["hand"])
                    for m in bob.messages
                    if m.get("t") == "action" and m["action"] == "dead_hand" and m["seat"] == 3
                ),
                None,
            )

    for _ in range(4):
        if cy_dead() is not None:
            break
        next_turn(ana)
    assert cy_dead() is not None, "no dead hand for Cy"
    assert int(page.get_attribute("#table-view", "data-hand") or 0) == cy_dead()
    away, out = ("déconnecté", "absent") if french else ("disconnected", "sitting out")
    not_dealt = "pas servi" if french else "not dealt in"
    assert tags(page, 3) == f"{not_dealt} · {away}", tags(page, 3)
    assert tags(page, 4) == out, tags(page, 4)
    ana.shot(f"not-dealt-in-{size[0]}x{size[1]}", full_page=False)

    # a later hand: after a reload, the log shows its newest line, the current hand's
    while bob.hand < 4:
        next_turn(ana)
    page.reload()
    page.wait_for_selector(".seat.you[data-seat='1']")
    my_turn([ana], 40)
    state = wait_until(lambda: (s := log_state(page)) and s["scrolls"] and s, "a long log", 30)
    current = int(page.get_attribute("#table-view", "data-hand") or 0)
    assert state["gap"] <= 2 and state["lastInList"], state
    newest = state["hands"][-1]  # "Hand #5 — button seat 2", "Main n° 5 — bouton au siège 2"
    assert f"#{current} —" in newest or f"n° {current} —" in newest, (current, newest)
    if not phone:  # beside the table: in the window, uncovered
        assert_seen(page, "#log li:last-child", who="Ana")
    if phone:
        page.evaluate("() => document.getElementById('log').scrollIntoView({block: 'end'})")
    ana.shot(f"log-follows-{size[0]}x{size[1]}", full_page=False)
    page.evaluate("() => scrollTo(0, 0)")

    # scrolled up by the person: lines come, it stays; back down: it follows again
    assert scrolled_then_played(ana, "0", "l.scrollTop = 0")["top"] <= 1
    assert scrolled_then_played(ana, "1", "l.scrollTop = l.scrollHeight")["gap"] <= 2
