"""A cash table on the pure table: the desk's refusals change nothing, the ledger balances
after every hand, and a crash (the last snapshot, as after a kill -9) loses no chip."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import messages as m
from server.table import commands as c
from server.table.cash import CashState
from server.table.phases import TablePhase

from .pure import Pure

CASH: dict[str, Any] = {"min_buyin": 500, "max_buyin": 5000, "rake_permille": 50, "rake_cap": 100}


def table(**changes: Any) -> Pure:
    return Pure(profile="casino", sb=25, bb=50, max_seats=6, cash=CASH | changes, action_seconds=5)


def cash(p: Pure) -> CashState:
    assert p.table.cash is not None
    return p.table.cash


def balance(p: Pure) -> int:
    """Bought in − cashed out − rake − chips on the table: 0 at every moment between hands."""
    return cash(p).book.ledger.imbalance(s.stack for s in p.table.seats.values())


def buy(p: Pure, player: str, seat: int, amount: int = 1000, **kw: Any) -> None:
    conn = p.conn(player)
    p.do(c.Watch(conn=conn))
    p.do(c.BuyIn(conn=conn, seat=seat, name=player.upper(), amount=amount, **kw))


def test_a_plain_take_seat_is_refused_at_a_cash_table() -> None:
    p = table()
    conn = p.conn("a")
    p.do(c.Sit(conn=conn, seat=1, name="A"))
    assert p.net.errors(conn.cid) == ["cash.buy_in"] and not p.table.seats


def test_refused_buy_ins_change_nothing() -> None:
    p = table()
    buy(p, "a", 1, 450)  # under the minimum
    buy(p, "a", 1, 5050)  # over the maximum
    buy(p, "a", 9, 1000)  # no seat 9
    assert p.net.errors(p.conns["a"].cid) == ["cash.below_min", "cash.above_max", "seat_taken"]
    assert not p.table.seats and cash(p).book.ledger.entries == []
    buy(p, "a", 1)
    assert p.table.seats[1].stack == 1000 and balance(p) == 0
    assert [g.seat for g in p.net.grants] == [1]  # the seat token follows the saved seat


def test_the_ledger_balances_after_every_hand_with_rake_and_survives_a_crash() -> None:
    p = table()
    for i, player in enumerate("abcd", start=1):
        buy(p, player, i)
    rng = random.Random(7)
    for _ in range(12):
        p.until(TablePhase.BETTING)
        while p.table.phase is TablePhase.BETTING:
            hand = p.table.hand
            assert hand is not None
            menu = hand.menu()
            assert menu is not None
            seat = int(menu.player)
            player = p.table.seats[seat].player
            verb = rng.choice(["call", "check", "fold", "raise"])
            amount = menu.min_raise_to if verb == "raise" else None
            if verb == "check" and not menu.can_check:
                verb = "call"
            p.send(
                p.conns[player], m.Act(table="t1", hand=p.table.hand_no, verb=verb, amount=amount)
            )
        p.until(TablePhase.BETWEEN)
        assert balance(p) == 0
    assert cash(p).rake > 0  # 5 %, at most 100 a hand
    # the rake is one running total, not a line per hand: the saved ledger does not grow
    # with the hands played, and the CSV says it once
    ledger = cash(p).book.ledger
    assert len(ledger.entries) == 4 and ledger.raked == cash(p).rake
    assert ledger.csv().count(",rake,") == 1
    # a crash in the middle of the next hand: the last snapshot has the start stacks, and
    # the ledger saved with them
    p.until(TablePhase.BETTING)
    snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
    back = table()
    back.table.restore(snapshot[2], None)
    assert cash(back).book.ledger.entries == cash(p).book.ledger.entries
    assert balance(back) == 0
    restored = {s.seat: s.stack for s in back.table.seats.values()}
    assert restored == {
        s.seat: p.table.start_stacks.get(s.seat, s.stack) for s in p.table.seats.values()
    }
    # casino cash: « on ne peut pas recevoir de cartes avec une cave inférieure à la grosse
    # blind »: a stack under 50 sits out until its player adds chips
    short = [s.seat for s in p.table.seats.values() if s.stack < 50]
    assert not set(short) & set(p.table.dealt_in)


def test_a_leaver_is_cashed_out_and_his_seat_offered_to_the_waiting_list() -> None:
    p = table()
    for i, player in enumerate("abcdef", start=1):
        buy(p, player, i)
    w = p.conn("w")
    p.do(c.Watch(conn=w))
    p.do(c.JoinWaitingList(conn=w))
    buy(p, "x", 2)  # not free anyway
    p.do(c.Leave(conn=p.conns["b"]))
    assert any(n.kind == "seat_offered" for n in p.net.of(w.cid, m.Notice))
    buy(p, "z", 2)  # someone who is not first on the list
    assert p.net.errors(p.conns["z"].cid) == ["cash.waiting_list"]
    buy(p, "w", 2)
    assert p.table.seats[2].player == "w" and not cash(p).waiting
    assert balance(p) == 0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.integers(-2, 120)), max_size=25))
def test_the_desk_never_creates_or_loses_a_chip(moves: list[tuple[str, int]]) -> None:
    """Property: whatever buy-ins, top-ups and departures come, in any order and amount
    (most of them refused), the ledger always matches the stacks."""
    p = table()
    seats = {"a": 1, "b": 2, "c": 3, "d": 4}
    for player, units in moves:
        amount = units * 50
        if units < 0 and player in p.conns:
            p.do(c.Leave(conn=p.conns[player]))
        elif player in p.conns and any(s.player == player for s in p.table.seats.values()):
            p.do(c.AddChips(conn=p.conns[player], amount=max(amount, 1)))
        else:
            buy(p, player, seats[player], max(amount, 1))
        if not p.table.in_hand():
            assert balance(p) == 0


def heads_up_all_in(run_it: int) -> Pure:
    """Two players at a cash table that runs it twice by agreement, all-in preflop."""
    p = table(runs=run_it) if run_it else table()
    buy(p, "a", 1)
    buy(p, "b", 2)
    p.start_hand()
    p.act(p.to_act(), "allin")
    p.act(p.to_act(), "call")
    return p


def test_run_it_twice_is_offered_to_the_two_players_and_dealt_when_both_agree() -> None:
    p = heads_up_all_in(2)
    hand = p.table.hand
    assert hand is not None and hand.runs_awaited() == ("1", "2")
    for player in ("a", "b"):
        offers = [n for n in p.of(player, m.Notice) if n.kind == "runs_offered"]
        assert len(offers) == 1  # private, to each of the two, once
    stranger = p.conn(None)
    p.do(c.Watch(conn=stranger))
    before = p.state()
    p.send(stranger, m.RunIt(table="t1", hand=p.table.hand_no, runs=2))  # a spectator
    p.send(p.conns["a"], m.RunIt(table="t1", hand=p.table.hand_no, runs=3))  # more than 2
    assert p.state() == before
    assert p.errors("a") == ["rule.bad_amount"]
    p.send(p.conns["a"], m.RunIt(table="t1", hand=p.table.hand_no, runs=2))
    p.send(p.conns["b"], m.RunIt(table="t1", hand=p.table.hand_no, runs=2))
    p.until(TablePhase.BETWEEN)
    boards = p.of("a", m.BoardEvent)
    assert {b.run for b in boards} == {None, 2}  # run 1's streets, then run 2's
    parts = [x for x in p.of("a", m.PotAwarded)]
    assert sorted(x.run or 1 for x in parts) == [1, 2]
    assert sum(s.stack for s in p.table.seats.values()) + cash(p).rake == 2000
    assert balance(p) == 0


def test_run_it_twice_refused_or_unanswered_is_one_run() -> None:
    p = heads_up_all_in(2)
    p.send(p.conns["b"], m.RunIt(table="t1", hand=p.table.hand_no, runs=1))  # refuses
    p.until(TablePhase.BETWEEN)
    assert {b.run for b in p.of("a", m.BoardEvent)} == {None}
    quiet = heads_up_all_in(2)
    quiet.until(TablePhase.BETWEEN)  # nobody answers: the clock ends the wait, one run
    assert {b.run for b in quiet.of("a", m.BoardEvent)} == {None}
    single = heads_up_all_in(0)  # a table that does not run it twice never asks
    single.until(TablePhase.BETWEEN)
    assert not [n for n in single.of("a", m.Notice) if n.kind == "runs_offered"]


def test_a_seat_bought_but_never_claimed_after_a_crash_is_cashed_out_to_its_owner() -> None:
    # killed after a buy-in was saved but before its seat token reached the player (or before
    # his first hand): the restored seat is unclaimed and is never dealt. A new buy-in on it
    # writes the old stack cashed out to its owner's name, by the restart, in the same ledger
    p = table()
    buy(p, "a", 1)
    buy(p, "b", 2, 700)
    snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
    back = table()
    back.table.restore(snapshot[2], None)
    assert all(s.unclaimed for s in back.table.seats.values())
    assert balance(back) == 0
    buy(back, "b2", 2, 900)  # b back with a new connection (his token was lost), or a friend
    assert back.table.seats[2].player == "b2" and back.table.seats[2].stack == 900
    lines = [(e.move, e.name, e.amount, e.by) for e in cash(back).book.ledger.entries]
    assert ("removed", "B", 700, "restart") in lines and ("buy_in", "B2", 900, "") in lines
    assert balance(back) == 0  # no chip lost: the 700 left the table to B's name
    # a refused buy-in on an unclaimed seat releases nothing
    buy(back, "c", 1, 450)
    assert back.table.seats[1].player == "a" and back.net.errors(back.conns["c"].cid) == [
        "cash.below_min"
    ]
