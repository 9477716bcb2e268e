"""Colour-up and chip race (cdc 3.2, tda 23, casino, ligue 6.25, fpc 21)."""

from __future__ import annotations

import random

import pytest

from server.engine.cards import parse_card
from server.tournament import ChipRace, Deal
from server.tournament.chiprace import chip_race
from server.tournament.rules import ChipRaceGuard, ChipRaceRounding

from .helpers import LEVELS, config, deal, end, of, started

HALF, UP, PLAYER = ChipRaceRounding.HALF_UP, ChipRaceRounding.UP, ChipRaceRounding.PLAYER_UP
EXTRA, FIRST = ChipRaceGuard.EXTRA_CHIP, ChipRaceGuard.FIRST_CHIP


def _race(
    stacks: list[int], rounding: ChipRaceRounding, guard: ChipRaceGuard = EXTRA, seed: int = 1
):
    seated = [(i + 1, f"s{i + 1}", s) for i, s in enumerate(stacks)]
    return chip_race(
        seated, removed=100, new=500, rounding=rounding, guard=guard, rng=random.Random(seed)
    )


@pytest.mark.parametrize(("odd", "won"), [(7, 1), (8, 2), (5, 1), (4, 1), (2, 0)])
def test_cdc_rounds_from_fifty_percent(odd: int, won: int) -> None:
    # cdc 3.2: seven 100s left -> one 500; eight -> two (rounded up from 50 % of a new chip)
    stacks = [5000 + 100 * min(odd - k * 4, 4) for k in range((odd + 3) // 4)]
    assert sum(s % 500 // 100 for s in stacks) == odd
    lines = _race([*stacks, 5000], HALF)
    assert sum(line.won for line in lines) == won


def test_one_card_per_odd_chip_from_seat_one_and_best_card_wins() -> None:
    # cdc 3.2, tda 23-A: a card per leftover chip, from seat 1; the best card wins, at most one
    # chip per player; suits spades > hearts > diamonds > clubs
    lines = _race([5300, 5200, 5400, 5000], HALF, seed=7)
    assert [len(line.cards) for line in lines] == [3, 2, 4, 0]
    winners = [line for line in lines if line.won]
    assert len(winners) == 2  # 9 chips of 100 = 1.8 new chips -> 2
    best = {line.player_id: max(parse_card(c) for c in line.cards) for line in lines if line.cards}
    ranked = sorted(best, key=best.__getitem__, reverse=True)
    assert {w.player_id for w in winners} == set(ranked[:2])
    for line in lines:
        assert line.stack_after == line.stack_before // 500 * 500 + (500 if line.won else 0)


def test_nobody_is_raced_out_cdc() -> None:
    # cdc 3.2: a player losing his last chip gets one chip of the smallest value still in play,
    # on top of the race
    for seed in range(30):
        lines = _race([100, 5400, 5400], HALF, seed=seed)
        short = lines[0]
        assert short.stack_after == 500
        assert short.bonus_chip != short.won
        assert sum(line.won for line in lines) == 2  # 9 leftovers -> 2, the bonus is extra


def test_casino_rounds_up_and_the_chipless_player_gets_the_first_chip() -> None:
    # casino: total rounded up to a new chip; a player left without chips receives the first
    # new chip, before the draw
    lines = _race([100, 5100, 5000], UP, FIRST)
    assert lines[0].won and lines[0].stack_after == 500 and not lines[0].bonus_chip
    assert sum(line.won for line in lines) == 1  # 2 leftovers = 0.4 -> rounded up to 1


def test_ligue_and_fpc_round_every_player_up() -> None:
    # ligue 6.25, fpc 21-2: no race, one new chip to every player with a remainder
    lines = _race([5100, 5400, 5000], PLAYER)
    assert [line.stack_after for line in lines] == [5500, 5500, 5000]
    assert all(not line.cards for line in lines)


def test_chip_race_at_the_tables_first_hand_of_the_level() -> None:
    # cdc 3.2: announced at the start of the level; done between hands, before the first hand
    levels = [
        {"sb": 25, "bb": 50, "minutes": 20},
        {"sb": 100, "bb": 200, "minutes": 20, "chip_race": 25},
        *LEVELS[3:],
    ]
    d = started(20, config(levels=levels))
    dl = deal(d, 1)
    a, b, *_ = dl.seats.values()
    end(d, dl, after={a: 10075, b: 9925})
    out = d.ready(1, 20 * 60.0)
    race = next(x for x in out if isinstance(x, ChipRace))
    assert race.removed == 25 and race.next_denomination == 100
    assert out.index(race) < out.index(next(x for x in out if isinstance(x, Deal)))
    after = {line.player_id: line.stack_after for line in race.lines}
    assert after[a] in (10000, 10100) and after[b] in (9900, 10000)
    assert d.stack(a) == after[a]
    # once per table
    end(d, next(x for x in out if isinstance(x, Deal)), now=20 * 60.0 + 60)
    assert not of(d.ready(1, 20 * 60.0 + 90), ChipRace)
