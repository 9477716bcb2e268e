"""Payouts, league points (fpc part B Tour des Potes, part C Sit'n Go), bounties (fpc part B
"Bounty", "Kill the PVS"), results export."""

from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction

import pytest

from server.tournament import (
    BountyAwarded,
    Director,
    Eliminated,
    Finished,
    Result,
    results_csv,
    results_json,
)
from server.tournament.config import SIT_AND_GO_POINTS
from server.tournament.lifecycle import Phase, PhaseEvent, transition
from server.tournament.prizes import payout_amounts, share_block, tour_des_potes_points

from .helpers import Driver, config, deal, end, of, one, players, started


def test_tour_des_potes_points_worked_example() -> None:
    # fpc part B, 40 entrants: 40th 1, 39th 2, 21st 20, 20th 22, 10th 42, 9th 45, 8th 48,
    # 4th 60, 3rd 60+3+1 = 64, 2nd 63+3+3 = 69, 1st 66+3+6 = 75
    pts = tour_des_potes_points(40, 9)
    assert pts[39] == 1 and pts[38] == 2 and pts[37] == 3 and pts[20] == 20
    assert (pts[19], pts[18]) == (22, 24)
    assert (pts[9], pts[8], pts[7], pts[3]) == (42, 45, 48, 60)
    assert (pts[2], pts[1], pts[0]) == (64, 69, 75)


def test_sit_and_go_points_table() -> None:
    # fpc part C
    assert SIT_AND_GO_POINTS[10] == (20, 16, 12, 8, 6, 5, 4, 3, 2, 1)
    assert SIT_AND_GO_POINTS[6] == (16, 12, 8, 4, 2, 1)


def test_payouts_round_down_remainder_to_the_winner_and_ties_share() -> None:
    amounts = payout_amounts(1001, [Fraction(50), Fraction(30), Fraction(20)])
    assert amounts == (501, 300, 200)
    # cdc 2.7: tied at places 3 and 4 with only 3 paid: the 3rd prize is shared
    assert share_block(amounts, 3, 2) == [100, 100]
    assert share_block(amounts, 2, 2) == [250, 250]


def _sng(n: int, **kw: object) -> Director:
    cfg = config(profile="fpc", table_size=10, points={"scheme": "sit_and_go"}, **kw)
    return started(n, cfg)


def _play_to_the_end(d: Director) -> tuple[list[Eliminated], Finished]:
    drv = Driver(d)
    for _ in range(100):
        drv.ready_all()
        for tid in list(drv.deals):
            dl = drv.deals[tid]
            drv.end(tid, busts=[next(iter(dl.seats.values()))], winner=list(dl.seats.values())[-1])
        if of(drv.log, Finished):
            break
    return of(drv.log, Eliminated), one(drv.log, Finished)


def test_sit_and_go_points_and_results() -> None:
    d = _sng(8)
    elims, fin = _play_to_the_end(d)
    assert d.phase is Phase.FINISHED
    assert [r.place for r in fin.results] == list(range(1, 9))
    assert [r.points for r in fin.results] == list(SIT_AND_GO_POINTS[8])
    assert [e.place for e in elims] == [8, 7, 6, 5, 4, 3, 2]


def test_sit_and_go_bounty_points_on_the_leader() -> None:
    # fpc part C: 2 extra points to whoever eliminates the leader of the general ranking
    d = _sng(8, bounties=[{"kind": "leader", "players": ["p001"], "points": 2}])
    dl = deal(d, 1)
    killer = next(p for p in dl.seats.values() if p != "p001")
    out = end(d, dl, busts=["p001"], winner=killer)
    award = one(out, BountyAwarded)
    assert (award.player_id, award.victim, award.points, award.chips) == (killer, "p001", 2, 0)


def test_fpc_bounty_and_pvs_chips_not_cumulative() -> None:
    # fpc part B: Bounty 10,000 + the big blind; PVS 2,500 + the small blind; a player who is
    # both brings only one prime
    bounties = [
        {"kind": "bounty", "players": ["p001"], "chips": 10000, "plus_blind": "bb"},
        {"kind": "kill_the_pvs", "players": ["p001", "p002"], "chips": 2500, "plus_blind": "sb"},
    ]
    d = started(20, config(profile="fpc", bounties=bounties))
    table = d.where("p001")[0]
    assert table is not None
    dl = deal(d, table)
    killer = next(p for p in dl.seats.values() if p not in ("p001", "p002"))
    before = d.stack(killer)
    out = end(d, dl, busts=["p001"], winner=killer)
    award = one(out, BountyAwarded)
    assert (award.kind, award.chips) == ("bounty", 10050)  # level 1: 25/50
    assert d.stack(killer) == before + 10000 + 10050
    table2 = d.where("p002")[0]
    assert table2 is not None
    dl = deal(d, table2)
    killer = next(p for p in dl.seats.values() if p != "p002")
    award = one(end(d, dl, busts=["p002"], winner=killer), BountyAwarded)
    assert (award.kind, award.chips) == ("kill_the_pvs", 2525)


def test_tour_des_potes_points_in_a_tournament() -> None:
    cfg = config(profile="fpc", points={"scheme": "tour_des_potes"})
    d = started(20, cfg)
    _elims, fin = _play_to_the_end(d)
    pts = tour_des_potes_points(20, 9)
    assert [r.points for r in fin.results] == list(pts)


def test_results_export_csv_and_json() -> None:
    results = (
        Result(place=1, player_id="a", name="Alice", entry=1, prize=600, points=20),
        Result(place=2, player_id="b", name="Bob, Jr", entry=1, prize=400, points=16),
        Result(
            place=3, player_id="c", name="Céline", entry=2, prize=0, points=12, tied_with=("d",)
        ),
    )
    rows = list(csv.DictReader(io.StringIO(results_csv(results))))
    assert (
        rows[1]["name"] == "Bob, Jr" and rows[2]["tied_with"] == "d" and rows[0]["prize"] == "600"
    )
    doc = json.loads(results_json(results, config(), entries=3, prize_pool=1000))
    assert doc["results"][2]["name"] == "Céline" and doc["tournament"]["profile"] == "cdc"
    assert doc["entries"] == 3 and doc["prize_pool"] == 1000


def test_phase_table_refuses_impossible_transitions() -> None:
    from server.tournament import PhaseError

    assert transition(Phase.RUNNING, PhaseEvent.BREAK) is Phase.BREAK
    with pytest.raises(PhaseError):
        transition(Phase.FINISHED, PhaseEvent.START)
    d = Director(config(), random.Random(1), now=0.0)
    for p in players(3):
        d.register(p, p, 0.0)
    d.start(0.0)
    with pytest.raises(PhaseError):
        d.start(1.0)
