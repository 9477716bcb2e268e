"""Decision ids and pots on the pure table (docs/protocol.md, "Decisions" and "board").

One ``turn`` per decision, the same id again to a player who comes back, a new and larger id
when the options change; an ``act`` naming a decision that is not open is refused with
``stale_decision`` and changes nothing (never a string bet); ``stale_hand`` is a wrong hand
number only, ``rule.not_betting`` the current hand outside a betting round. The ``board``
event's pots are the snapshot's right after it, a side pot only with an all-in, and the
snapshot's pots plus its bets are every chip in the middle.
"""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.engine import AnteFormat, Blinds
from server.engine.positions import Positions
from server.table import commands as c
from server.table.phases import TablePhase

from .pure import Pure


def turns(p: Pure, who: str | c.Conn) -> list[m.Turn]:
    return p.of(who, m.Turn)


def snapshot_of(p: Pure, player: str | None) -> dict[str, Any]:
    """A fresh snapshot, as a new connection of ``player`` (None: a spectator) gets it."""
    conn = p.watch(player)
    snap = p.of(conn, m.Snapshot)[-1]
    return snap.state


def test_one_turn_per_decision_and_the_same_id_to_a_player_who_comes_back() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    me = f"p{seat}"
    first = turns(p, me)[-1]
    assert first.seat == seat and first.decision > 0
    count = len(turns(p, me))
    # another player's declaration out of turn changes nothing of my options: no new turn
    other = seat % 3 + 1
    p.act(other, "call")
    assert p.last(f"p{other}", m.Notice).kind == "oot_recorded"
    assert len(turns(p, me)) == count
    # back on a new connection: the same decision, the same id, in the turn and the snapshot
    state = snapshot_of(p, me)
    again = turns(p, me)[-1]
    assert again.decision == first.decision and again.call == first.call
    assert state["menu"]["decision"] == first.decision and state["to_act"] == seat
    assert "menu" not in snapshot_of(p, f"p{other}")


def test_ids_grow_with_every_new_decision_and_change_with_the_options() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    seen: list[int] = []
    seat = p.to_act()
    seen.append(turns(p, f"p{seat}")[-1].decision)
    # "raise" said without its amount: the same player is asked again, a new decision
    p.act(seat, "raise")
    pending = turns(p, f"p{seat}")[-1]
    assert pending.pending == "amount" and pending.decision > seen[-1]
    seen.append(pending.decision)
    p.act(seat, "raise", amount=400, decision=pending.decision)
    while p.table.phase is TablePhase.BETTING:
        seat = p.to_act()
        turn = turns(p, f"p{seat}")[-1]
        assert turn.decision > seen[-1], (turn, seen)
        seen.append(turn.decision)
        verb = "call" if turn.call else "check"
        p.act(seat, verb, decision=turn.decision)
    assert seen == sorted(set(seen))


def test_an_act_naming_a_decision_not_open_is_refused_and_changes_nothing() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    me = p.conns[f"p{seat}"]
    other = p.conns[f"p{seat % 3 + 1}"]
    decision = turns(p, f"p{seat}")[-1].decision
    hand = p.table.hand_no
    for conn, number in ((me, decision + 1), (me, decision - 1), (other, decision)):
        before = p.state()
        p.send(conn, m.Act(table="t1", hand=hand, verb="call", decision=number))
        assert p.errors(conn)[-1] == "stale_decision"
        assert p.state() == before
    p.send(me, m.Act(table="t1", hand=hand, verb="call", decision=decision))
    assert p.to_act() != seat
    # the same answer again (a client acting twice on one turn): never a second motion
    before = p.state()
    p.send(me, m.Act(table="t1", hand=hand, verb="raise", amount=500, decision=decision))
    assert p.errors(me)[-1] == "stale_decision" and "rule.string_bet" not in p.errors(me)
    assert p.state() == before
    # without a decision it is a gesture as it comes: a second motion, refused by the rules
    p.send(me, m.Act(table="t1", hand=hand, verb="raise", amount=500))
    assert p.errors(me)[-1] == "rule.string_bet"


def test_stale_hand_is_a_wrong_number_and_not_betting_the_current_hand_between_rounds() -> None:
    p = Pure()
    p.seat_players(2)
    p.until(TablePhase.CUT)
    conn = p.conns["p1"]
    hand = p.table.hand_no
    p.send(conn, m.Act(table="t1", hand=hand + 1, verb="call"))
    assert p.errors(conn)[-1] == "stale_hand"
    p.send(conn, m.Act(table="t1", hand=hand, verb="call"))
    assert p.errors(conn)[-1] == "rule.not_betting"
    p.send(conn, m.Act(table="t1", hand=hand, verb="call", decision=1))
    assert p.errors(conn)[-1] == "stale_decision"
    p.send(conn, m.UseTimeBank(table="t1", hand=hand))
    assert p.errors(conn)[-1] == "rule.not_betting"


def _short_stack_table() -> Pure:
    """A tournament table: seat 1 short (1000), seats 2 to 4 with 3000; button 4, so seat 1
    posts the small blind, seat 2 the big blind and seat 3 speaks first."""
    p = Pure(directed=True, max_seats=6)
    for seat, stack in ((1, 1000), (2, 3000), (3, 3000), (4, 3000)):
        p.do(c.SeatPlayer(seat=seat, player=f"p{seat}", name=f"P{seat}", stack=stack))
        p.do(c.Attach(conn=p.conn(f"p{seat}")))
    p.advance(p.config.next_hand_seconds)
    blinds = Blinds(sb=25, bb=50, ante=0, ante_format=AnteFormat.NONE)
    positions = Positions(button=4, sb_slot=1, big_blind=2)
    p.do(c.NextDeal(hand_no=1, blinds=blinds, positions=positions))
    p.until(TablePhase.BETTING)
    return p


def _pots(state: dict[str, Any]) -> list[tuple[int, tuple[int, ...]]]:
    return [(x["amount"], tuple(x["eligible"])) for x in state["pots"]]


def test_board_pots_are_the_snapshots_and_a_side_pot_needs_an_all_in() -> None:
    p = _short_stack_table()
    assert p.to_act() == 3
    p.act(3, "raise", amount=2000)
    p.act(4, "call")
    p.act(1, "allin")
    assert _pots(snapshot_of(p, None)) == []  # preflop: the bets are in front, none gathered
    p.act(2, "call")
    flop = p.last("p2", m.BoardEvent)
    board_pots = [(x["amount"], tuple(x["eligible"])) for x in flop.pots]
    assert board_pots == [(4000, (1, 2, 3, 4)), (3000, (2, 3, 4))]
    state = snapshot_of(p, None)
    assert _pots(state) == board_pots
    assert set(state["bets"].values()) == {0} and state["pot_total"] == 7000
    # a bet of this round stays in front of its player: the pots do not change
    assert p.to_act() == 2
    p.act(2, "bet", amount=500)
    state = snapshot_of(p, None)
    assert _pots(state) == board_pots and state["bets"]["2"] == 500
    assert sum(a for a, _ in _pots(state)) + sum(state["bets"].values()) == state["pot_total"]
    # a fold takes the seat out of every pot it was in, nothing else
    p.act(3, "fold")
    assert p.table.phase is TablePhase.BETTING and p.to_act() == 4
    assert _pots(snapshot_of(p, None)) == [(4000, (1, 2, 4)), (3000, (2, 4))]
    p.act(4, "call")
    turn = p.last("p2", m.BoardEvent)
    assert turn.street == "turn"
    assert [(x["amount"], tuple(x["eligible"])) for x in turn.pots] == [
        (4000, (1, 2, 4)),
        (4000, (2, 4)),
    ]
    assert _pots(snapshot_of(p, None)) == [(4000, (1, 2, 4)), (4000, (2, 4))]


def test_without_an_all_in_every_board_has_one_pot_the_snapshots() -> None:
    p = Pure()
    p.seat_players(3)
    boards = 0
    for _ in range(3):
        p.start_hand()
        while p.table.phase is TablePhase.BETTING:
            seat = p.to_act()
            turn = turns(p, f"p{seat}")[-1]
            if turn.can_raise and turn.min_raise_to and not turn.call:
                p.act(seat, "bet", amount=turn.min_raise_to, decision=turn.decision)
            else:
                p.act(seat, "call" if turn.call else "check", decision=turn.decision)
            dealt = p.of("p1", m.BoardEvent)
            if len(dealt) > boards:
                boards = len(dealt)
                assert len(dealt[-1].pots) == 1
                if p.table.phase is TablePhase.BETTING:
                    pots = [(x["amount"], tuple(x["eligible"])) for x in dealt[-1].pots]
                    assert _pots(snapshot_of(p, None)) == pots
    assert boards >= 3
