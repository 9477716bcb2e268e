"""The Time called on a tanking player, seen by everyone (issue 29, item 6), in real headless
Chromium against a real server, at 390x844, 360x640 and 1366x768.

cdc 3.5: « Le joueur qui hésite se verra donner 30 secondes pour prendre une décision, les 5
dernières secondes étant décomptées à haute voix. [...] Si le joueur n'a toujours pas agi à la
fin du décompte, sa main sera brûlée. » Online (ONLINE_RULES): the countdown is shown to all.

Two people in browsers (the caller in English, the thinker in French) and a third player over
the wire, at a table whose action clock is 60 s and where the Time may be called after 2 s
(``--time-call-after 2``, instead of the minute of cdc 3.5): the caller's "Time!" button is in
view and uncovered; after the call, both pages log who called the Time on whom with the
server's seconds, show it in the middle of the table, the thinker's clock turns into the
Time's (its seconds the server's, within a second or two), the caller's button goes, the
thinker's controls stay in view; on the laptop the last 5 seconds are counted and, at zero,
the hand is dead (the server's fold). Screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Client, WebServer, serve, wait_until
from .seen import SIZE_IDS, SIZES, assert_no_code, assert_seen
from .test_table import OpenClient, link, my_turn, sit, ws_url
from .wire import WirePlayer, check_or_call, create_table


@pytest.fixture(scope="module")
def time_server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[WebServer]:
    """A real server where the Time may be called after 2 s (the browser fixture first: it
    skips or fails when there is no browser)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    data = tmp_path_factory.mktemp("time-data")
    args = [
        "--port", str(port), "--data", str(data),
        "--cut-seconds", "5", "--next-hand-seconds", "1.5", "--showdown-seconds", "1",
        "--time-call-after", "2",
    ]  # fmt: skip
    with serve(args, data, ready="invite=") as printed:
        found = re.search(r"(http://\S+\?table=friends&invite=\S+)", printed)
        assert found, printed[-2000:]
        yield WebServer(port=port, invite_link=found.group(1), data=data)


def time_event(wire: WirePlayer, hand: int) -> dict[str, Any] | None:
    with wire.lock:
        return next(
            (
                m
                for m in wire.messages
                if m.get("t") == "clock_event" and m.get("kind") == "time" and m["hand"] == hand
            ),
            None,
        )


def log_lines(client: Client, part: str) -> list[str]:
    lines: list[str] = client.page.eval_on_selector_all(
        "#log li",
        "(items, part) => items.map((i) => i.textContent).filter((t) => t.includes(part))",
        part,
    )
    return lines


def clock_seconds(text: str) -> int:
    found = re.search(r"(\d+)", text)
    assert found, text
    return int(found.group(1))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_time_called_is_seen_by_all_with_its_countdown(
    time_server: WebServer,
    open_client: OpenClient,
    wires: list[WirePlayer],
    size: tuple[int, int],
) -> None:
    server = time_server
    table, invite = create_table(
        ws_url(server), name="Tempo", profile="cdc", max_seats=3, action_seconds=60
    )
    url = link(server, table, invite)
    ana = open_client("Ana", "en-US", size)
    bruno = open_client("Bruno", "fr-FR", size)
    sit(ana, url, "Ana", 1)
    sit(bruno, url, "Bruno", 2)
    cy = WirePlayer(ws_url(server), table, invite, "Cy", 3, check_or_call)
    wires.append(cy)
    seats = {"Ana": 1, "Bruno": 2}

    thinker = my_turn([ana, bruno], 40)
    caller = bruno if thinker is ana else ana
    hand = int(thinker.page.get_attribute("#table-view", "data-hand") or 0)
    # the caller's "Time!" shows once the thinker has thought 2 s: in view, uncovered
    caller.page.wait_for_selector("#time:not([hidden])", timeout=10_000)
    assert_seen(caller.page, "#time", who=caller.name)
    caller.shot(f"time-button-{size[0]}x{size[1]}", full_page=False)
    caller.page.click("#time")

    # the server's ruling: the Time on the thinker, by the caller, what is left of it
    called = wait_until(lambda: time_event(cy, hand), "the Time's clock_event", 10)
    assert (called["seat"], called["by"]) == (seats[thinker.name], seats[caller.name])
    assert called["remaining_ms"] <= 30_000 and called["countdown_ms"] == 5_000
    secs = round(called["remaining_ms"] / 1000)
    said = {
        "Ana": f"{caller.name} calls the Time on {thinker.name}: {secs} s to act, "
        "the last 5 s counted aloud",
        "Bruno": f"{caller.name} demande le Time sur {thinker.name} : {secs} s pour agir, "
        "dont 5 s décomptées à haute voix",
    }
    for client in (ana, bruno):
        page = client.page
        wait_until(lambda c=client: log_lines(c, "Time"), f"{client.name}'s log line", 10)
        assert log_lines(client, "Time") == [said[client.name]], log_lines(client, "Time")
        # the ruling in the middle of the table, for a few seconds
        page.wait_for_selector("#ruling:not([hidden])")
        assert said[client.name].startswith(page.inner_text("#ruling") + ", ")
        assert_seen(page, "#ruling", who=client.name)
        clamped = page.eval_on_selector("#ruling", "n => n.scrollHeight > n.clientHeight + 1")
        assert not clamped, f"{client.name}: the ruling is cut"
        assert_no_code(page, client.name)
        # the thinker's seat: its clock is the Time's, with its tag
        seat = f".seat[data-seat='{seats[thinker.name]}']"
        timer = page.inner_text(f"{seat} .seat-timer .secs")
        assert timer.startswith("Time"), timer
        assert "time-called" in (page.get_attribute(f"{seat} .seat-timer", "class") or "")
    # the clock's seconds are the server's (within a second or two of the moment asked)
    server_ms = cy.snapshot()["state"]["clock_remaining_ms"]
    mine = clock_seconds(thinker.page.inner_text("#my-clock"))
    assert abs(mine - server_ms / 1000) <= 2.5, (mine, server_ms)
    assert thinker.page.inner_text("#my-clock").startswith("Time")
    assert cy.snapshots[-1]["state"]["time_called"]["by"] == seats[caller.name]
    # the Time is called once: the caller's button is gone; the thinker may still act
    assert caller.page.locator("#time").is_hidden()
    check = "#check" if thinker.page.locator("#check").is_visible() else "#call"
    assert_seen(thinker.page, "#fold", check, who=thinker.name)
    for client in (ana, bruno):
        client.shot(f"time-called-{client.name.lower()}-{size[0]}x{size[1]}", full_page=False)

    if size[0] < 1000:
        thinker.page.click(check)
        return
    # the last 5 seconds counted, one by one, then the hand is dead at zero
    seat = f".seat[data-seat='{seats[thinker.name]}'] .seat-timer"
    caller.page.wait_for_selector(f"{seat}.counting", timeout=40_000)
    counted = clock_seconds(caller.page.inner_text(f"{seat} .secs"))
    assert 1 <= counted <= 5, counted
    caller.shot(f"time-counted-{size[0]}x{size[1]}", full_page=False)
    deadline = time.monotonic() + 10

    def dead() -> bool:
        with cy.lock:
            return any(
                m.get("t") == "action"
                and m["hand"] == hand
                and m["seat"] == seats[thinker.name]
                and m["action"] == "fold"
                for m in cy.messages
            )

    wait_until(dead, "the dead hand at zero", deadline - time.monotonic())
    wait_until(
        lambda: log_lines(caller, "Time expired: dead hand" if caller is ana else "Time écoulé"),
        "the dead hand in the log",
    )
