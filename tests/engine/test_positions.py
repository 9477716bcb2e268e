"""Dead button, heads-up transition and newcomers over many hands with busts."""

from __future__ import annotations

import random

import pytest

from server.engine.positions import (
    Positions,
    first_positions,
    next_positions,
    waits_as_newcomer,
)


def test_sb_busts_dead_button() -> None:
    # cdc 4.3: SB eliminated -> dead button, old BB is SB, old UTG is BB
    last = Positions(button=1, sb_slot=2, big_blind=3)
    nxt = next_positions(last, [1, 3, 4, 5], 9)
    assert nxt == Positions(button=2, sb_slot=3, big_blind=4)


def test_bb_busts_no_small_blind() -> None:
    # cdc 4.3: BB eliminated -> old SB on the button, old UTG alone in the big blind
    last = Positions(button=1, sb_slot=2, big_blind=3)
    nxt = next_positions(last, [1, 2, 4, 5], 9)
    assert nxt == Positions(button=2, sb_slot=3, big_blind=4)  # seat 3 empty: no SB


def test_both_blinds_bust() -> None:
    last = Positions(button=1, sb_slot=2, big_blind=3)
    nxt = next_positions(last, [1, 4, 5], 9)
    assert nxt == Positions(button=2, sb_slot=3, big_blind=4)


def test_heads_up_transition_no_double_big_blind() -> None:
    # cdc 4.4, tda 33: when heads-up starts, nobody pays the big blind twice in a row
    last = Positions(button=1, sb_slot=2, big_blind=3)
    nxt = next_positions(last, [1, 3], 9)  # seat 2 busted
    assert nxt.big_blind == 1 and nxt.button == 3 and nxt.sb_slot == 3
    nxt2 = next_positions(nxt, [1, 3], 9)
    assert nxt2.big_blind == 3 and nxt2.button == 1


def test_newcomer_between_button_and_big_blind_waits() -> None:
    pos = Positions(button=1, sb_slot=3, big_blind=4)
    assert waits_as_newcomer(2, pos, 9)  # tda 7: never between the SB and the button
    assert not waits_as_newcomer(3, pos, 9)  # cdc 2.3: at the old BB's seat, posts the SB
    assert not waits_as_newcomer(6, pos, 9)


@pytest.mark.parametrize("seed", range(20))
def test_two_hundred_hands_with_busts(seed: int) -> None:
    rng = random.Random(seed)
    max_seats = 9
    players = sorted(rng.sample(range(1, 10), rng.randint(3, 9)))
    pos = first_positions(players[0], players, max_seats)
    last_bb_player = pos.big_blind
    for _hand in range(200):
        if len(players) > 2 and rng.random() < 0.1:
            players.remove(rng.choice(players))
        if len(players) < 2:
            break
        new = next_positions(pos, players, max_seats)
        # the big blind advances to the first player after the last big blind (tda 31)
        after = [(pos.big_blind - 1 + k) % max_seats + 1 for k in range(1, max_seats + 1)]
        assert new.big_blind == next(s for s in after if s in players)
        assert new.big_blind in players
        if len(players) > 2:
            assert new.sb_slot == pos.big_blind
            assert new.button == pos.sb_slot or pos.sb_slot == pos.button
        else:
            assert new.button in players and new.button != new.big_blind
        assert new.big_blind != last_bb_player or len(players) == 1
        last_bb_player = new.big_blind
        pos = new
