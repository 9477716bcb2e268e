"""Issue 13's acceptance for third-party clients: three clients written from docs/protocol.md
alone (tests/integration/doc_client.py) play 30 hands at a friends table of a real server,
with out-of-turn declarations and reconnections (``hello`` with the seat token, ``join`` with
the last sequence number), mirroring the table from the events and comparing the mirror with
a snapshot after each reconnection and after hands. Not one ``rule.string_bet``, not one
disagreement with a snapshot, every chip where it was."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from .conftest import Launch
from .doc_client import DocClient

HANDS = 30
STACK = 50_000
"""Deep stacks (500 big blinds): nobody busts in 30 hands of small raises."""
ALLOWED = {
    "stale_decision",  # an answer that crossed a decision's end (or our own out-of-turn act)
    "stale_hand",  # an out-of-turn act sent as a hand ended
    "rule.not_betting",  # ... or as its betting ended
    "rule.pending_declaration",  # someone announced a raise: no declarations meanwhile
    "rule.not_in_hand",  # an out-of-turn act that crossed our own fold
    "not_your_turn",  # a cut that came after the server cut at random (its deadline)
}
"""What the doc says an out-of-turn gesture or a late answer may get; never a string bet."""


@pytest.mark.asyncio
async def test_clients_built_from_the_doc_play_30_hands_with_reconnections(
    launch: Launch,
) -> None:
    server = launch(starting_stack=STACK, action_seconds=3, time_bank_seconds=1)
    rng = random.Random(1313)
    clients = [
        DocClient(
            server.url,
            "friends",
            server.invite,
            seat,
            random.Random(rng.random()),
            drops={first + seat for first in (2, 8, 14, 20, 26)},
        )
        for seat in (1, 2, 3)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(client.play(stop)) for client in clients]
    started = time.monotonic()
    try:
        while min(c.hands_ended for c in clients) < HANDS:
            assert time.monotonic() - started < 90, [c.hands_ended for c in clients]
            for task in tasks:
                if task.done():
                    task.result()  # a client that died: its exception
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    for task in tasks:
        task.result()

    codes = [e["code"] for c in clients for e in c.errors]
    assert "rule.string_bet" not in codes, [e for c in clients for e in c.errors]
    assert set(codes) <= ALLOWED, codes
    assert [m for c in clients for m in c.mismatches] == []
    assert [v for c in clients for v in c.violations] == []
    # chips: each hand ends with the chips it started with, and the table keeps them all
    totals = [t for c in clients for t in c.hand_totals if t[1]]
    assert len(totals) >= 3 * (HANDS - 2)
    assert [t for t in totals if t[1] != t[2]] == []
    table_totals = [t for c in clients for t in c.table_totals]
    assert table_totals and set(table_totals) == {3 * STACK}
    # the test did what it says
    assert all(c.reconnects >= 2 for c in clients), [c.reconnects for c in clients]
    assert sum(c.compares for c in clients) >= HANDS, [c.compares for c in clients]
    assert sum(c.oot_sent for c in clients) >= 10, [c.oot_sent for c in clients]
    assert sum(c.acts for c in clients) >= 6 * HANDS
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
