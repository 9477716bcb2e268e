"""Breaking tables in a predetermined order with a two-step draw (cdc 2.4, tda 9 and its
addendum, ligue art. 3, fpc 3-4); the final table redrawn at the profile's size (cdc 2.6,
tda 11)."""

from __future__ import annotations

from server.engine.cards import parse_card
from server.tournament import BreakTable, Deal, FinalTable, Phase, Wait, WaitReason

from .helpers import config, deal, end, of, one, started


def test_break_order_is_predetermined_last_table_first() -> None:
    d = started(40)
    assert d.break_order() == [5, 4, 3, 2, 1]  # cdc 2.4: published; ligue: "la dernière table"


def test_table_breaks_when_its_hand_ends_with_a_two_step_draw() -> None:
    d = started(20)  # tables of 7, 7, 6
    deals = {t: deal(d, t) for t in d.table_ids()}
    out = end(d, deals[1], busts=list(deals[1].seats.values())[:2])  # 18 left: 2 tables suffice
    assert not of(out, BreakTable)  # table 3 is still playing its hand (cdc 2.3)
    leaving = dict(deals[3].seats)
    out = end(d, deals[3])
    brk = one(out, BreakTable)
    assert brk.table_id == 3 and 3 not in d.table_ids()
    # step 1: the seat cards (table, seat), shuffled; step 2: one card per player, the highest
    # card takes the first seat card (tda 9 addendum)
    assert sorted(brk.seat_cards) == sorted((x.to_table, x.to_seat) for x in brk.draws)
    by_card = sorted(brk.draws, key=lambda x: parse_card(x.card), reverse=True)
    assert [(x.to_table, x.to_seat) for x in by_card] == list(brk.seat_cards)
    assert {x.player_id for x in brk.draws} == set(leaving.values())
    assert all(leaving[x.from_seat] == x.player_id for x in brk.draws)
    assert sorted(d.table_counts().values()) == [9, 9]


def test_players_of_a_broken_table_fill_the_shortest_tables() -> None:
    d = started(30)  # four tables: 8, 8, 7, 7
    deals = {t: deal(d, t) for t in d.table_ids()}
    out = end(d, deals[4], busts=list(deals[4].seats.values())[:3])  # 27 left <= 3 x 9
    brk = one(out, BreakTable)  # table 4 is between hands: it breaks at once
    assert brk.table_id == 4 and len(brk.draws) == 4
    counts = d.table_counts()
    assert sorted(counts.values()) == [9, 9, 9]


def _bust_down_to(d, remaining: int) -> list:
    """Bust players one hand at a time (every table deals, the first one busts)."""
    out: list = []
    while d.remaining > remaining and d.phase is not Phase.FINAL_TABLE:
        for tid in d.table_ids():
            answer = d.ready(tid, 0.0)
            out += answer
            dl = next((x for x in answer if isinstance(x, Deal)), None)
            if dl is None:
                continue
            victims = [] if d.remaining <= remaining else [next(iter(dl.seats.values()))]
            out += end(d, dl, busts=victims, winner=list(dl.seats.values())[-1])
    return out


def test_final_table_redraw_at_nine_for_cdc() -> None:
    # cdc 2.6: at most 9; cdc 2.1: seats drawn at random at the final table
    d = started(18, config(rules={"hand_for_hand": []}))
    out = _bust_down_to(d, 9)
    final = one(out, FinalTable)
    assert d.phase is Phase.FINAL_TABLE
    assert final.closed_tables == (1, 2) and final.table.max_seats == 9
    assert len(final.table.seats) == 9 and final.table.button in final.table.seats
    assert {x.player_id for x in final.draws} == set(final.table.seats.values())
    assert d.table_ids() == [final.table.table_id]


def test_final_table_of_ten_for_tda() -> None:
    # tda 11: a full table plus one (9-max -> 10)
    d = started(18, config(profile="tda", rules={"hand_for_hand": []}))
    out = _bust_down_to(d, 10)
    final = one(out, FinalTable)
    assert final.table.max_seats == 10 and len(final.table.seats) == 10


def test_final_table_waits_for_every_table_to_finish() -> None:
    d = started(18, config(rules={"hand_for_hand": []}))
    _bust_down_to(d, 11)
    deals = {t: deal(d, t) for t in d.table_ids()}
    t1, t2 = sorted(deals)
    out = end(d, deals[t1], busts=list(deals[t1].seats.values())[:2])
    assert not of(out, FinalTable)
    assert one(d.ready(t1, 0.0), Wait).reason is WaitReason.FINAL_TABLE_DRAW
    assert of(end(d, deals[t2]), FinalTable)


def test_a_table_left_unable_to_deal_breaks_first() -> None:
    # cdc 2.4: the director may change the predetermined order when necessary
    d = started(40)  # five tables of 8
    dl = deal(d, 1)
    seated = list(dl.seats.values())
    out = end(d, dl, busts=seated[:7], winner=seated[7])  # 33 left: four tables suffice
    brk = one(out, BreakTable)
    assert brk.table_id == 1 and [x.player_id for x in brk.draws] == [seated[7]]
    assert d.break_order() == [5, 4, 3, 2]


def test_several_tables_break_together_when_many_bust() -> None:
    d = started(40)
    deals = {t: deal(d, t) for t in d.table_ids()}
    for t in (1, 2):
        seated = list(deals[t].seats.values())
        end(d, deals[t], busts=seated[:3], winner=seated[-1])  # 34 left
    assert d.breaking == (5,)  # designated in order, breaks when its hand ends
    out = end(d, deals[5])
    assert one(out, BreakTable).table_id == 5
    assert sorted(d.table_counts().values()) == [8, 8, 9, 9]
