"""The host's controls of a friends or cash table (issue 14, "a host's table"): every order
said at the table, refused orders change nothing, a removed player's stack goes back to
him through the ledger."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.table import commands as c
from server.table.phases import TablePhase

from .pure import Pure
from .test_cash_table import balance, buy, cash

HOST = c.Conn("host-cid", "host")


def table(approval: bool = False, **cash_changes: Any) -> Pure:
    p = Pure(
        profile="casino",
        sb=25,
        bb=50,
        max_seats=6,
        action_seconds=5,
        cash={"min_buyin": 500, "max_buyin": 5000, **cash_changes},
        extra={"approval": approval},
    )
    p.do(c.Watch(conn=HOST))
    return p


def order(p: Pure, op: str, **kw: Any) -> list[str]:
    """The host's order; the error codes it got back."""
    before = len(p.net.errors(HOST.cid))
    p.do(c.HostOrder(conn=HOST, op=op, **kw))
    return p.net.errors(HOST.cid)[before:]


def said(p: Pure) -> list[str]:
    return [x.text for x in p.net.of(HOST.cid, m.ChatEvent) if x.player == "host"]


def test_a_table_that_asks_its_host_seats_nobody_until_he_approves() -> None:
    p = table(approval=True)
    buy(p, "a", 1)
    buy(p, "b", 2, 800)
    assert not p.table.seats and cash(p).book.ledger.entries == []  # waiting, nothing bought
    asked = [(r.seat, r.player, r.buy_in) for r in p.net.of(HOST.cid, m.SeatRequest)]
    assert asked == [(1, "A", 1000), (2, "B", 800)]
    buy(p, "c", 1)  # someone else for a seat already asked for
    assert p.net.errors(p.conns["c"].cid) == ["seat_taken"]
    assert order(p, "approve", seat=1) == []
    assert p.table.seats[1].player == "a" and p.table.seats[1].stack == 1000
    assert order(p, "refuse", seat=2) == []
    assert p.net.errors(p.conns["b"].cid) == ["host_refused"] and 2 not in p.table.seats
    assert order(p, "approve", seat=2) == ["bad_seat"]  # answered already
    assert [g.seat for g in p.net.grants] == [1]  # a seat token for the approved one only
    assert "A may sit at seat 1" in said(p)
    assert balance(p) == 0


def test_pause_ends_the_hand_in_play_and_deals_no_other_until_resume() -> None:
    p = table()
    for i, player in enumerate("abc", start=1):
        buy(p, player, i)
    p.start_hand()
    hand = p.table.hand_no
    assert order(p, "pause") == []
    p.play_out("fold")
    p.advance(60)
    assert p.table.hand_no == hand and p.table.phase is not TablePhase.CUT
    assert order(p, "resume") == []
    p.start_hand()
    assert p.table.hand_no == hand + 1
    assert said(p)[:2] == ["the table is paused", "the game resumes"]


def test_remove_returns_the_stack_through_the_ledger_by_the_host() -> None:
    p = table()
    for i, player in enumerate("abc", start=1):
        buy(p, player, i)
    assert order(p, "remove", seat=5) == ["bad_seat"]
    assert order(p, "remove", seat=2) == []
    assert 2 not in p.table.seats
    last = cash(p).book.ledger.entries[-1]
    assert (last.move.value, last.player, last.amount, last.by) == ("removed", "b", 1000, "host")
    assert balance(p) == 0


def test_new_blinds_apply_from_the_next_hand_and_limits_are_checked() -> None:
    p = table()
    for i, player in enumerate("abc", start=1):
        buy(p, player, i)
    p.start_hand()
    assert order(p, "blinds", sb=50, bb=100) == []
    assert p.table.hand is not None and p.table.hand.bb == 50  # this hand keeps its blinds
    p.play_out("fold")
    p.start_hand()
    assert p.table.hand is not None and p.table.hand.bb == 100
    assert cash(p).rules.min_stack == 100 and cash(p).rules.unit == 50
    assert order(p, "blinds", sb=30, bb=60) == ["out_of_range"]  # 500 is no multiple of 30
    assert order(p, "limits", low=100, high=20_000) == []
    assert order(p, "limits", low=50, high=20_000) == ["out_of_range"]  # under the big blind
    assert (cash(p).rules.min_buyin, cash(p).rules.max_buyin) == (100, 20_000)
    assert order(p, "dance") == ["out_of_range"]


def test_close_cashes_everyone_out_and_closes_the_table() -> None:
    p = table()
    for i, player in enumerate("ab", start=1):
        buy(p, player, i)
    p.start_hand()
    assert order(p, "close") == ["out_of_range"]  # between hands only
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    assert order(p, "close") == []
    assert p.table.closed and not p.table.seats
    moves = [e.move.value for e in cash(p).book.ledger.entries]
    assert moves.count("removed") == 2
    assert cash(p).book.ledger.imbalance([]) == 0
