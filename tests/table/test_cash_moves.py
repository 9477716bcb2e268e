"""Moves between the cash tables of a room, on two pure tables (server/table/cash_moves.py):
the stack leaves one ledger and enters the other, never in both, never in none."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.cash import Arrival
from server.cash.ledger import Move
from server.table import commands as c
from server.table.cash import CashState
from server.table.effects import Transfer, Write
from server.table.phases import TablePhase

from .pure import Pure

CASH: dict[str, Any] = {"min_buyin": 500, "max_buyin": 5000}


def table(name: str, profile: str = "casino", **changes: Any) -> Pure:
    return Pure(
        table_id=name,
        profile=profile,
        sb=25,
        bb=50,
        max_seats=6,
        cash=CASH | changes,
        action_seconds=5,
    )


def cash(p: Pure) -> CashState:
    assert p.table.cash is not None
    return p.table.cash


def balance(p: Pure) -> int:
    return cash(p).book.ledger.imbalance(s.stack for s in p.table.seats.values())


def buy(p: Pure, player: str, seat: int, amount: int = 1000) -> None:
    conn = p.conn(player)
    p.do(c.Watch(conn=conn))
    p.do(c.BuyIn(conn=conn, seat=seat, name=player.upper(), amount=amount))


def move(p: Pure, seat: int, kind: str, **kw: Any) -> list[Transfer]:
    state = p.table.seats[seat]
    before = len(p.net.others)
    effects = p.do(
        c.MoveOut(seat=seat, player=state.player, to="t2", to_name="Table 2", kind=kind, **kw)
    )
    transfers = [e for e in effects if isinstance(e, Transfer)]
    if transfers:  # the transfer goes out only after the write that saved the stack gone
        assert any(isinstance(e, Write) for e in effects[: effects.index(transfers[0])])
    assert len(p.net.others) - before >= len(transfers)
    return transfers


def arrive(p: Pure, t: Transfer, conn: c.Conn | None = None) -> None:
    p.do(
        c.MoveIn(
            conn=conn,
            player=t.player,
            name=t.name,
            stack=t.stack,
            source=t.source,
            kind=t.kind,
            seat_fee=t.seat_fee,
        )
    )


def test_a_casino_change_brings_at_most_the_new_maximum_and_pays_a_seat_fee_again() -> None:
    # casino cash: « il ne pourra pas apporter un tapis supérieur à la cave maximum de sa
    # nouvelle table et devra payer de nouveau son droit de siège »
    a, b = table("t1", max_buyin=8000), table("t2")
    buy(a, "x", 1, 8000)
    buy(a, "y", 2)
    buy(b, "z", 1)
    buy(b, "w", 2)
    (sent,) = move(a, 1, "change", cap=5000, seat_fee=True, by="host")
    assert sent.stack == 5000 and 1 not in a.table.seats
    lines = [(e.move, e.amount, e.other) for e in cash(a).book.ledger.entries[-2:]]
    assert lines == [(Move.CASH_OUT, 3000, ""), (Move.MOVED_OUT, 5000, "t2")]
    assert balance(a) == 0
    arrive(b, sent, b.conn("x"))
    seat = next(s.seat for s in b.table.seats.values() if s.player == "x")
    assert b.table.seats[seat].stack == 5000 and balance(b) == 0
    assert cash(b).arrivals[seat] is Arrival.RETURN  # a big blind as his seat fee
    assert [g.seat for g in b.net.grants if g.player == "x"] == [seat]  # his seat token


def test_a_player_in_a_hand_plays_it_out_and_moves_when_it_ends() -> None:
    a, b = table("t1", "fpc"), table("t2", "fpc")
    for seat, player in enumerate("xyz", start=1):
        buy(a, player, seat)
    a.until(TablePhase.BETTING)
    seat = a.to_act()
    assert move(a, seat, "change") == []  # not yet: his hand is not over
    assert seat in a.table.seats and a.table.seats[seat].moving
    a.play_out("call")
    a.until(TablePhase.BETWEEN)
    (sent,) = [e for e in a.net.others if isinstance(e, Transfer)]
    assert sent.player == a.conns[sent.player].player and seat not in a.table.seats
    assert balance(a) == 0
    arrive(b, sent)  # offline: seated without a connection, his chips in the ledger
    assert balance(b) == 0 and sum(s.stack for s in b.table.seats.values()) == sent.stack


def test_a_balanced_player_between_the_small_blind_and_the_button_waits_for_it() -> None:
    # casino cash: « Ce même joueur ne pourra pas recevoir de cartes s'il se trouve placé
    # entre la petite blind et le bouton, auquel cas il devra attendre que le bouton passe »
    waited = 0
    for seed in range(8):
        b = Pure(
            table_id="t2",
            profile="casino",
            sb=25,
            bb=50,
            max_seats=6,
            cash=CASH,
            action_seconds=5,
            seed=seed,
        )
        for seat, player in ((1, "p"), (3, "q"), (5, "r")):
            buy(b, player, seat)
        b.until(TablePhase.BETTING)
        b.play_out("fold")
        b.until(TablePhase.BETWEEN)
        last = b.table.positions
        assert last is not None
        sent = Transfer(
            cid=None,
            player="m",
            name="M",
            stack=9000,
            source="t1",
            to="t2",
            kind="balance",
            seat_fee=False,
        )
        arrive(b, sent)  # the whole stack, above the table's maximum
        seat = next(s.seat for s in b.table.seats.values() if s.player == "m")
        assert cash(b).arrivals[seat] is Arrival.MOVED and seat in cash(b).wait_button
        b.until(TablePhase.BETTING)
        dealt = seat in b.table.dealt_in
        # dealt in, he would be the button or the small blind of the next hand: the button
        # moves to the next player after the last one and the blinds follow (« La règle du
        # bouton mort ne s'applique pas en Cash Game »), so his seat is between the last
        # button and the last big blind, clockwise
        arc = 0 < (seat - last.button) % 6 < (last.big_blind - last.button) % 6
        assert dealt == (not arc), (seat, last, b.table.positions)
        assert not cash(b).dues.get(seat)  # never a seat fee for a balanced player
        waited += not dealt
        b.play_out("fold")
        b.until(TablePhase.BETWEEN)
        assert balance(b) == 0
    assert waited  # some draws put him on the button or the small blind


def test_no_free_seat_at_the_target_writes_nothing_there() -> None:
    b = table("t2")
    for seat in range(1, 7):
        buy(b, f"p{seat}", seat)
    before = list(cash(b).book.ledger.entries)
    conn = b.conn("x")
    sent = Transfer(
        cid=conn.cid,
        player="x",
        name="X",
        stack=900,
        source="t1",
        to="t2",
        kind="change",
        seat_fee=False,
    )
    arrive(b, sent, conn)
    assert b.net.errors(conn.cid) == ["cash.table_full"]
    assert cash(b).book.ledger.entries == before and balance(b) == 0


def test_a_casino_player_asks_the_host_and_a_stranger_cannot_move_anyone() -> None:
    a = table("t1")
    buy(a, "x", 1)
    buy(a, "y", 2)
    host = a.watch("host")
    a.do(c.AskChange(conn=a.conns["x"], to="t2", to_name="Table 2"))
    requests = a.of(host, m.SeatRequest)
    assert [(r.seat, r.player, r.to) for r in requests] == [(1, "X", "t2")]
    stranger = a.watch("s")
    a.do(c.AskChange(conn=stranger, to="t2", to_name="Table 2"))
    assert a.errors(stranger) == ["not_seated"]
    a.do(c.MoveOut(seat=1, player="y", to="t2", to_name="Table 2", kind="change", conn=stranger))
    assert a.errors(stranger) == ["not_seated", "bad_seat"] and 1 in a.table.seats


def test_the_host_may_refuse_a_change_and_the_player_is_told() -> None:
    # casino cash: « il devra obtenir l'accord du superviseur et avoir une raison valable »
    a = table("t1")
    buy(a, "x", 1)
    buy(a, "y", 2)
    host = c.Conn("host-cid", "host")
    a.do(c.Watch(conn=host))
    a.do(c.AskChange(conn=a.conns["x"], to="t2", to_name="Table 2"))
    a.do(c.HostOrder(conn=host, op="approve", seat=1))  # a change is agreed with move
    assert a.errors(host) == ["out_of_range"] and 1 in a.table.requests
    before = {s: (x.player, x.stack) for s, x in a.table.seats.items()}
    a.do(c.HostOrder(conn=host, op="refuse", seat=1))
    told = [n for n in a.of("x", m.Notice) if n.kind == "change_refused"]
    assert len(told) == 1 and not [n for n in a.of("y", m.Notice) if n.kind == "change_refused"]
    assert any("X stays" in x.text for x in a.of(host, m.ChatEvent))
    assert {s: (x.player, x.stack) for s, x in a.table.seats.items()} == before
    a.do(c.HostOrder(conn=host, op="refuse", seat=1))  # answered already
    assert a.errors(host) == ["out_of_range", "bad_seat"]
    # asked again, then agreed: the move takes the request away; one who leaves, too
    a.do(c.AskChange(conn=a.conns["x"], to="t2", to_name="Table 2"))
    a.do(c.MoveOut(seat=1, player="x", to="t2", to_name="Table 2", kind="change", conn=host))
    assert 1 not in a.table.requests
    a.do(c.AskChange(conn=a.conns["y"], to="t2", to_name="Table 2"))
    a.do(c.Leave(conn=a.conns["y"]))
    assert not a.table.requests


def test_a_player_who_busts_in_the_hand_he_was_to_move_after_stays_and_can_rebuy() -> None:
    # found by the bots (tests/bots/test_cash_room_bots.py): a move ordered during his hand,
    # then he lost his whole stack in it: nothing to bring, so no move; he keeps his seat here
    for seed in range(20):
        a = Pure(
            table_id="t1", profile="fpc", sb=25, bb=50, max_seats=6, cash=CASH,
            action_seconds=5, seed=seed,
        )  # fmt: skip
        buy(a, "x", 1, 500)
        buy(a, "y", 2, 500)
        a.until(TablePhase.BETTING)
        for seat in (1, 2):
            move(a, seat, "change")  # both asked to move after this hand
        a.play_out("allin")
        a.until(TablePhase.BETWEEN)
        stacks = {s.player: s.stack for s in a.table.seats.values()}
        transfers = [e for e in a.net.others if isinstance(e, Transfer)]
        if len(transfers) == 2:
            continue  # a split pot: both had chips and both moved
        (sent,) = transfers
        assert sent.stack == 1000 and stacks == {"x" if sent.player == "y" else "y": 0}
        busted = next(s for s in a.table.seats.values())
        assert not busted.moving and busted.seat not in cash(a).moving
        assert balance(a) == 0
        return
    raise AssertionError("no deal without a split in 20 seeds")
