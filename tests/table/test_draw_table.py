"""Five-card draw at a cash table (fpc « LE FIVE-CARD DRAW », issue 31): the draw in turn
from the button's left, standing pat, a draw clock that runs out (he stands pat), all-in
before the draw, refused draws that change nothing, and the cards of a draw reaching their
owner only (never another player, a spectator or the next occupant of the seat)."""

from __future__ import annotations

import pytest

from protocol import messages as m
from protocol.errors import ProtocolError
from server.engine import Phase
from server.table import commands as c
from server.table.phases import TablePhase

from .drawtable import (
    CAVE,
    buy,
    call_down,
    conn_of,
    draw,
    draw_table,
    draw_turn,
    drawer,
    hand,
    private_leaks,
    records,
    unverified,
)


def test_the_players_draw_in_turn_from_the_buttons_left_and_everyone_sees_how_many() -> None:
    p = draw_table("abc")
    p.start_hand()
    start = p.net.of(p.conns["a"].cid, m.HandStart)[-1]
    assert start.stub_commit and start.commitment  # both published before the cut
    button = p.table.positions.button if p.table.positions else 0
    call_down(p)
    order = []
    while (seat := drawer(p)) is not None:
        order.append(seat)
        turn = draw_turn(p, seat)
        assert turn.max_discard == 5 and turn.cards is not None and len(turn.cards) == 5
        draw(p, seat, turn.cards[:2])
    assert order == [(button + k - 1) % 3 + 1 for k in (1, 2, 3)]
    spectator = p.watch()
    drew = p.net.of(p.conns["a"].cid, m.DrewEvent)
    assert [(d.seat, d.count) for d in drew] == [(s, 2) for s in order]
    snap = p.net.of(spectator.cid, m.Snapshot)[-1].state
    assert snap["game"] == "draw" and snap["structure"] == "no_limit"
    assert snap["drew"] == {str(s): 2 for s in order} and "hole" not in snap
    mine = [d for d in p.net.of(p.conns["b"].cid, m.DrawnEvent) if d.cards]
    assert [d.seat for d in mine] == [2] and len(mine[0].received) == 2
    assert hand(p).phase is Phase.BETTING or p.table.phase is not TablePhase.BETTING
    call_down(p)
    p.until(TablePhase.BETWEEN)
    (record,) = records(p)
    assert record["game"] == "draw" and record["structure"] == "no_limit"
    assert {a["street"] for a in record["actions"]} == {"preflop", "draw"}
    assert [d["seat"] for d in record["draws"]] == [str(s) for s in order]
    assert unverified(p) == [] and private_leaks(p) == []
    proof = p.net.of(p.conns["b"].cid, m.HoleProof)[-1]
    assert len(proof.openings["cards"]) == 5 and len(proof.openings["drawn"]) == 2


def test_standing_pat_draws_no_card() -> None:
    p = draw_table("ab")
    p.start_hand()
    call_down(p)
    first = drawer(p)
    assert first is not None
    held = draw_turn(p, first).cards
    draw(p, first, ())
    assert p.net.errors(conn_of(p, first).cid) == []
    mine = [d for d in p.net.of(conn_of(p, first).cid, m.DrawnEvent) if d.seat == first]
    assert mine[-1].received == () and mine[-1].cards == held
    assert p.net.of(conn_of(p, first).cid, m.DrewEvent)[-1].count == 0


def test_a_draw_clock_running_out_stands_the_player_pat() -> None:
    p = draw_table("ab")
    p.start_hand()
    call_down(p)
    first = drawer(p)
    assert first is not None
    p.advance(6)  # the action clock is 5 s
    assert drawer(p) not in (None, first)
    assert p.net.of(p.conns["a"].cid, m.DrewEvent)[-1].count == 0
    # an absent player is dealt in and stands pat at each draw
    second = drawer(p)
    assert second is not None
    p.do(c.Gone(conn=conn_of(p, second)))
    p.advance(6)
    assert drawer(p) is None and p.net.of(p.conns["a"].cid, m.DrewEvent)[-1].count == 0


def test_all_in_before_the_draw_still_draws() -> None:
    p = draw_table("ab")
    p.start_hand()
    menu = hand(p).menu()
    assert menu is not None
    p.act(int(menu.player), "allin")
    call_down(p)
    drawn = 0
    while (seat := drawer(p)) is not None:
        draw(p, seat, draw_turn(p, seat).cards[:3])
        drawn += 1
    assert drawn == 2
    p.until(TablePhase.BETWEEN)
    assert sum(s.stack for s in p.table.seats.values()) == 2 * CAVE
    assert unverified(p) == [] and private_leaks(p) == []


def test_refused_draws_change_nothing() -> None:
    p = draw_table("abc")
    p.start_hand()
    menu = hand(p).menu()
    assert menu is not None
    betting = int(menu.player)
    p.send(conn_of(p, betting), m.Draw(table="t1", hand=p.table.hand_no, cards=()))
    call_down(p)
    seat = drawer(p)
    assert seat is not None
    other = next(s for s in (1, 2, 3) if s != seat)
    cards = draw_turn(p, seat).cards
    assert cards is not None
    before = (len(hand(p).events), list(hand(p).hole), p.net.stored_seq)
    draw(p, other, (), decision=None)  # not his turn
    draw(p, seat, ("As", "Ks", "Qs", "Js", "Ts") if "As" not in cards else ("2c",))
    draw(p, seat, (cards[0], cards[0]))  # the same card twice
    draw(p, seat, (cards[0],), decision=1)  # a stale decision
    with pytest.raises(ProtocolError) as refused:  # refused by the gateway, before the table
        p.send(conn_of(p, seat), m.Draw(table="t1", hand=p.table.hand_no, cards=("Zz",)))
    assert refused.value.code == "bad_card"
    assert (len(hand(p).events), list(hand(p).hole), p.net.stored_seq) == before
    assert p.net.errors(conn_of(p, betting).cid)[0] == "rule.not_drawing"
    assert p.net.errors(conn_of(p, other).cid)[-1] == "rule.not_your_draw"
    errors = p.net.errors(conn_of(p, seat).cid)
    assert errors[-3:] == ["rule.card_not_held", "rule.same_card_twice", "stale_decision"]
    draw(p, seat, cards[:1])
    assert drawer(p) != seat


def test_the_next_occupant_of_a_seat_never_gets_the_cards_of_its_last_player() -> None:
    p = draw_table("abc")
    p.start_hand()
    call_down(p)
    while (seat := drawer(p)) is not None:
        draw(p, seat, draw_turn(p, seat).cards[:1])
    call_down(p)
    p.until(TablePhase.BETWEEN)
    p.do(c.Leave(conn=p.conns["b"]))
    buy(p, "z", 2)
    p.watch("z", last_seq=0)  # a resync from the start of the table
    assert private_leaks(p) == []
    z = p.net.received[p.conns["z"].cid]
    assert not any(isinstance(f, m.DrawnEvent) and f.cards for f in z)


def test_a_crash_during_the_draw_loses_no_chip() -> None:
    p = draw_table("abc")
    p.start_hand()
    call_down(p)
    first = drawer(p)
    assert first is not None
    draw(p, first, draw_turn(p, first).cards[:1])
    # the last snapshot (as after a kill -9): the hand is cut, each player has his start stack
    snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
    back = draw_table("")
    back.table.restore(snapshot[2], None)
    restored = {s.seat: s.stack for s in back.table.seats.values()}
    assert restored == {seat: CAVE for seat in (1, 2, 3)}
    assert back.table.cash is not None
    assert back.table.cash.book.ledger.imbalance(restored.values()) == 0
