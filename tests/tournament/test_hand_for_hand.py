"""Hand-for-hand (cdc 2.7, fpc 5-4, casino): trigger, barrier, face-down all-ins, the clock,
and the busts of one hand-for-hand hand ranked together (cdc 1.10)."""

from __future__ import annotations

from server.tournament import (
    Deal,
    Director,
    Eliminated,
    HandForHand,
    Phase,
    ShowdownHold,
    ShowdownReveal,
    Wait,
    WaitReason,
)
from server.tournament.rules import HandForHandTrigger

from .helpers import Driver, config, of, one, started

PAYOUTS = [{"entrants": [20, 100], "percents": [25, 16, 11, 9, 8, 7, 6, 5, 4, 3, 3, 3]}]


def _at_bubble(profile: str = "cdc") -> tuple[Director, Driver]:
    d = started(27, config(profile=profile, payouts=PAYOUTS, buy_in=100))
    drv = Driver(d)
    drv.bust_down_to(13)  # 12 paid: one elimination from the money
    return d, drv


def test_hand_for_hand_one_elimination_from_the_money() -> None:
    d, drv = _at_bubble()
    on = one(drv.log, HandForHand)
    assert on.on and on.reason is HandForHandTrigger.MONEY and on.remaining == 13
    assert d.phase is Phase.HAND_FOR_HAND and d.paid_places == 12


def test_every_table_waits_for_the_others() -> None:
    # cdc 2.7: "toutes les tables doivent attendre le signal de fin du coup sur l'ensemble des
    # tables pour débuter un nouveau coup"
    d, drv = _at_bubble()
    a, b = d.table_ids()
    assert one(drv.ready(a), Wait).reason is WaitReason.HAND_FOR_HAND
    out = drv.ready(b)
    deals = of(out, Deal)
    assert {x.table_id for x in deals} == {a, b} and all(x.hand_for_hand for x in deals)
    drv.end(a)
    assert one(drv.ready(a), Wait).reason is WaitReason.HAND_FOR_HAND  # b still plays
    drv.end(b)
    assert {x.table_id for x in of(drv.ready(b), Deal)} == {a, b}


def test_clock_stopped_and_two_minutes_per_hand() -> None:
    # cdc 2.7: the clock stops at the first hand-for-hand hand and advances exactly 2 minutes
    # at the end of each one
    d, drv = _at_bubble()
    a, b = d.table_ids()
    drv.ready(a, 100.0)
    drv.ready(b, 100.0)
    assert not d.clock.running
    left = d.clock.remaining
    drv.end(a, 400.0)
    assert d.clock.remaining == left  # real time does not count
    drv.end(b, 500.0)
    assert d.clock.remaining == left - 120.0


def test_all_in_hands_stay_face_down_until_every_table_finished() -> None:
    d, drv = _at_bubble()
    a, b = d.table_ids()
    drv.ready(a)
    drv.ready(b)
    assert one(d.allin_showdown(a, 0.0), ShowdownHold).table_id == a
    out = drv.end(b)
    assert one(out, ShowdownReveal).table_id == a
    # when both hold, both are revealed together
    drv.end(a)
    drv.ready(a)
    drv.ready(b)
    assert of(d.allin_showdown(a, 0.0), ShowdownHold)
    assert {x.table_id for x in d.allin_showdown(b, 0.0)} == {a, b}


def _shrink(d: Director, drv: Driver) -> tuple[str, str]:
    """One hand-for-hand hand where table a's first player loses 4000 chips."""
    a, b = d.table_ids()
    drv.ready(a)
    drv.ready(b)
    va, vb = (next(iter(drv.deals[t].seats.values())) for t in (a, b))
    other = list(drv.deals[a].seats.values())[-1]
    drv.end(a, after={va: d.stack(va) - 4000, other: d.stack(other) + 4000})
    drv.end(b)
    drv.ready(a)
    drv.ready(b)
    return va, vb


def _burst_bubble(profile: str) -> tuple[Director, list[Eliminated]]:
    d, drv = _at_bubble(profile)
    a, b = d.table_ids()
    va, vb = _shrink(d, drv)
    assert d.stack(va) != d.stack(vb)
    drv.end(a, busts=[va], winner=list(drv.deals[a].seats.values())[-1])
    out = drv.end(b, busts=[vb], winner=list(drv.deals[b].seats.values())[-1])
    return d, of(out, Eliminated)


def test_bubble_busts_on_two_tables_tie_and_share_cdc() -> None:
    # cdc 1.10, 2.7: on two tables at the bubble they tie and share the last paid prize
    d, elim = _burst_bubble("cdc")
    assert [e.place for e in elim] == [12, 12]
    assert elim[0].prize + elim[1].prize == d.payouts[11]  # the 12th prize, shared
    assert abs(elim[0].prize - elim[1].prize) <= 1
    assert elim[0].tied_with == (elim[1].player_id,)
    assert d.hand_for_hand is None and d.clock.running  # cdc 2.7: the clock restarts


def test_bubble_busts_ranked_by_start_stack_fpc() -> None:
    # fpc 4-4: at the bubble, the bigger start-of-hand stack ranks better
    cfg = config(profile="fpc", payouts=PAYOUTS, buy_in=100, rules={"hand_for_hand": ["money"]})
    d = started(27, cfg)
    drv = Driver(d)
    drv.bust_down_to(13)
    a, b = d.table_ids()
    va, vb = _shrink(d, drv)
    big, small = sorted((va, vb), key=d.stack, reverse=True)
    drv.end(a, busts=[va], winner=list(drv.deals[a].seats.values())[-1])
    out = drv.end(b, busts=[vb], winner=list(drv.deals[b].seats.values())[-1])
    places = {e.player_id: (e.place, e.prize) for e in of(out, Eliminated)}
    assert places[big] == (12, d.payouts[11]) and places[small] == (13, 0)


def test_fpc_hand_for_hand_only_before_the_final_table() -> None:
    # fpc 5-4: one player from the final table (9-max: 10 left); not at the money bubble
    d = started(27, config(profile="fpc", payouts=PAYOUTS))
    drv = Driver(d)
    drv.bust_down_to(13)
    assert d.hand_for_hand is None
    drv.bust_down_to(10)
    assert d.hand_for_hand is HandForHandTrigger.FINAL_TABLE
