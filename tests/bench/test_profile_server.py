"""bench/profile_server.py's summary of py-spy's collapsed stacks (issue 32): the shares by layer
(inclusive and self), idle samples apart, the functions by self time whatever their line."""

from __future__ import annotations

from bench.profile_server import summarise

MAIN = "<module> (server/__main__.py:9);_run (asyncio/events.py:80)"
STACKS = "\n".join(
    [
        "<module> (server/__main__.py:9);run_forever (asyncio/base_events.py:607);"
        "select (selectors.py:468) 50",
        f"{MAIN};step (server/table/actor.py:120);act (server/engine/hand.py:200) 20",
        f"{MAIN};step (server/table/actor.py:121);act (server/engine/hand.py:210) 10",
        f"{MAIN};step (server/table/actor.py:130);"
        "_transaction (server/store/sqlite_store.py:298) 15",
        f"{MAIN};send (websockets/protocol.py:364) 5",
    ]
)


def test_shares_by_layer_and_function() -> None:
    lines, last = summarise(STACKS, top=3)
    text = "\n".join(lines)
    assert lines[0] == "100 samples, 50 idle in the event loop's wait, 50 busy"
    # inclusive: the engine under the table counts for both; asyncio is on every busy stack
    assert "  100.0%  asyncio" in text
    assert "   90.0%  table (actor, translation, views)" in text
    assert "   60.0%  engine (rules)" in text
    # self: where the leaf frame is; one function whatever its line
    self_part = text.split("(self):")[1]
    assert "   60.0%  engine (rules)" in self_part
    assert "   30.0%  store (SQLite, records)" in self_part
    assert "   60.0%  act (server/engine/hand.py)" in text
    assert last == (
        "profile_server: 100 samples, busy 50%, top layers engine 60%, store 30%, websockets 10%"
    )


def test_no_busy_sample() -> None:
    _, last = summarise("a (asyncio/base_events.py:1);select (selectors.py:468) 7\n", top=3)
    assert last == "profile_server: no busy sample"
