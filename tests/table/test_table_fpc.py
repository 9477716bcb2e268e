"""fpc 17-3 / 17-4 at the pure table: after a blind's player has left, the same dealer deals
again and nobody posts the small blind (``hand_start`` names none, the engine posts the big
blind alone); a director's deal without small blind is dealt as told."""

from __future__ import annotations

from protocol import messages as m
from server.engine import AnteFormat, Blinds
from server.engine.positions import Positions
from server.table import commands as c
from server.table.effects import ReportHand
from server.table.phases import TablePhase
from server.table.report import HandEnded

from .pure import Pure


def _posts(p: Pure, who: str, hand: int) -> dict[int, str]:
    start = max(i for i, x in enumerate(p.net.received[p.conns[who].cid]) if _is_start(x, hand))
    after = p.net.received[p.conns[who].cid][start:]
    return {
        a.seat: a.action
        for a in after
        if isinstance(a, m.ActionEvent) and a.action.startswith("post")
    }


def _is_start(x: m.Message, hand: int) -> bool:
    return isinstance(x, m.HandStart) and x.hand == hand


def test_fpc_friends_table_big_blind_gone_same_dealer_no_small_blind() -> None:
    # fpc 17-4: "le joueur en position dite « UTG » ou Grosse Blind +1 paye la grosse blind
    # et deviendra petite blind le coup suivant. Le donneur distribue deux fois de suite."
    p = Pure(profile="fpc", max_seats=6)
    p.seat_players(4)
    p.start_hand()
    first = p.table.positions
    assert first is not None and first.small_blind
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    bb = first.big_blind
    p.do(c.Leave(conn=p.conns[f"p{bb}"]))  # the big blind leaves the table
    assert bb not in p.table.seats
    watcher = next(f"p{s}" for s in sorted(p.table.seats))
    p.until(TablePhase.CUT)
    second = p.table.positions
    assert second is not None
    utg = next(s for k in range(1, 7) if (s := (bb - 1 + k) % 6 + 1) in p.table.seats)
    assert second == Positions(
        button=first.button, sb_slot=first.sb_slot, big_blind=utg, small_blind=False
    )
    start = p.last(watcher, m.HandStart)
    assert (start.button, start.small_blind, start.big_blind) == (first.button, None, utg)
    p.until(TablePhase.BETTING)
    assert _posts(p, watcher, start.hand) == {utg: "post_bb"}  # nobody pays the SB
    hand = p.table.hand
    assert hand is not None and hand.sb_i == -1
    p.play_out("fold")
    p.until(TablePhase.CUT)
    third = p.table.positions
    assert third is not None and third.small_blind
    # play resumes: UTG, the last big blind, posts the small blind; the old SB deals
    assert (third.button, third.sb_slot) == (first.sb_slot, utg)
    start = p.last(watcher, m.HandStart)
    assert (start.button, start.small_blind) == (first.sb_slot, utg)


def test_cdc_friends_table_big_blind_gone_dead_button_unchanged() -> None:
    # cdc 4.3: the BB gone: the old SB is button, UTG posts the big blind alone
    p = Pure(profile="cdc", max_seats=6)
    p.seat_players(4)
    p.start_hand()
    first = p.table.positions
    assert first is not None
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    p.do(c.Leave(conn=p.conns[f"p{first.big_blind}"]))
    p.until(TablePhase.CUT)
    second = p.table.positions
    assert second is not None and second.small_blind
    assert (second.button, second.sb_slot) == (first.sb_slot, first.big_blind)


def test_fpc_directed_table_deals_a_hand_without_small_blind() -> None:
    p = Pure(directed=True, max_seats=6, profile="fpc")
    for s in range(1, 5):
        p.do(c.SeatPlayer(seat=s, player=f"p{s}", name=f"P{s}", stack=3000))
        p.do(c.Attach(conn=p.conn(f"p{s}")))
    p.advance(p.config.next_hand_seconds)
    no_sb = Positions(button=1, sb_slot=2, big_blind=3, small_blind=False)
    blinds = Blinds(sb=100, bb=200, ante=0, ante_format=AnteFormat.NONE)
    p.do(c.NextDeal(hand_no=5, blinds=blinds, positions=no_sb, hand_for_hand=False))
    start = p.last("p1", m.HandStart)
    assert (start.button, start.small_blind, start.big_blind) == (1, None, 3)
    assert start.blinds == (100, 200, 0)  # the level's blinds; nobody pays the small one
    snapshot = p.table.snapshot()[1]
    assert snapshot["positions"] == [1, 2, 3, 0]
    p.until(TablePhase.BETTING)
    assert _posts(p, "p1", 5) == {3: "post_bb"}
    assert p.to_act() == 4
    p.play_out("fold")
    reports = [e for e in p.net.others if isinstance(e, ReportHand)]
    report = reports[-1].report
    assert isinstance(report, HandEnded) and report.positions == no_sb
    assert HandEnded.from_json(report.to_json()).positions == no_sb
    assert sum(v for _, v in report.stacks.values()) == 12000
