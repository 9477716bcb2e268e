"""A 200-player tournament on fake tables to a single winner (issue 5 acceptance, pure part):
chips conserved at every report, no table dealing while short by the profile's gap, no player
skipping a big blind because of a move, hand-for-hand at the bubble, results and points."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from server.tournament import TournamentConfig
from server.tournament.prizes import tour_des_potes_points
from server.tournament.rules import HandForHandTrigger
from server.tournament.simulation import Simulation

LEVELS: list[dict[str, Any]] = [
    {"sb": 25, "bb": 50, "minutes": 15},
    {"sb": 50, "bb": 100, "minutes": 15},
    {"sb": 75, "bb": 150, "minutes": 15},
    {"break": True, "minutes": 10},
    {"sb": 100, "bb": 200, "ante": 200, "ante_format": "big_blind", "minutes": 15, "chip_race": 25},
    {"sb": 200, "bb": 400, "ante": 400, "ante_format": "big_blind", "minutes": 15},
    {"sb": 300, "bb": 600, "ante": 600, "ante_format": "big_blind", "minutes": 15},
    {"sb": 500, "bb": 1000, "ante": 1000, "ante_format": "big_blind", "minutes": 15},
    {"break": True, "minutes": 10},
    {
        "sb": 1000,
        "bb": 2000,
        "ante": 2000,
        "ante_format": "big_blind",
        "minutes": 15,
        "chip_race": 100,
    },
    {"sb": 2000, "bb": 4000, "ante": 4000, "ante_format": "big_blind", "minutes": 15},
    {"sb": 5000, "bb": 10000, "ante": 10000, "ante_format": "big_blind", "minutes": 15},
]
PAYOUTS = [{"entrants": [100, 300], "percents": [30, 20, 12, 9, 7, 6, 5, 4, 3.5, 3.5]}]


def _config(profile: str, **kw: Any) -> TournamentConfig:
    data: dict[str, Any] = {
        "name": "sim",
        "profile": profile,
        "starting_stack": 10000,
        "denominations": [25, 100, 500, 1000, 5000],
        "table_size": 9,
        "late_registration_until_level": 0,
        "buy_in": 1000,
        "levels": LEVELS,
        "payouts": PAYOUTS,
        "points": {"scheme": "tour_des_potes"},
    }
    data.update(kw)
    return TournamentConfig.from_dict(data)


def _check_results(sim: Simulation, n: int) -> None:
    tr = sim.trace
    assert tr.finished is not None and tr.closed is not None
    results = tr.finished.results
    assert len(results) == n and Counter(r.player_id for r in results).most_common(1)[0][1] == 1
    assert results[0].place == 1
    placed = [e for e in tr.eliminated if e.place is not None]
    assert len(placed) == n - 1  # everybody but the winner, once
    # places: a block of k tied players at place p covers p .. p+k-1
    by_place = Counter(r.place for r in results)
    expected = 1
    for place in sorted(by_place):
        assert place == expected
        expected += by_place[place]
    assert sum(r.prize for r in results) == tr.closed.prize_pool == 1000 * n
    points = tour_des_potes_points(n, sim.config.final_table_size)
    for r in results:
        assert r.points == points[r.place - 1] + r.bounty_points


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_hundred_players_cdc(seed: int) -> None:
    sim = Simulation(_config("cdc"), 200, seed=seed)
    tr = sim.run()
    assert tr.gap_violations == 0 and tr.max_gap_at_deal <= 2  # cdc 2.3
    assert tr.moved_skips == 0 and tr.break_skips == 0  # cdc 2.3 "règle primordiale"
    assert tr.moves > 0 and tr.breaks > 0 and tr.chip_races > 0
    money = [h for h in tr.hand_for_hand_on if h.reason is HandForHandTrigger.MONEY]
    if seed == 1:  # the bubble was reached one elimination at a time
        assert money and money[0].remaining == 11
        assert tr.hand_for_hand_hands > 0
    _check_results(sim, 200)


@pytest.mark.parametrize("profile", ["tda", "ligue", "casino", "fpc"])
def test_two_hundred_players_other_profiles(profile: str) -> None:
    bounties = [
        {"kind": "bounty", "players": ["p00003"], "chips": 10000, "plus_blind": "bb"},
        {
            "kind": "kill_the_pvs",
            "players": ["p00004", "p00005"],
            "chips": 2500,
            "plus_blind": "sb",
        },
    ]
    sim = Simulation(_config(profile, bounties=bounties), 200, seed=5)
    tr = sim.run()
    assert tr.gap_violations == 0
    assert tr.moved_skips == 0 and tr.break_skips == 0
    _check_results(sim, 200)
