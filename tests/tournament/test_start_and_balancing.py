"""Random seating and start (cdc 2.1, 2.2, tda 6), balancing (cdc 2.3, tda 10, ligue art. 3,
fpc 3-3)."""

from __future__ import annotations

import random

import pytest

from server.engine.positions import next_positions
from server.tournament import (
    Deal,
    Director,
    HandEnded,
    LevelChange,
    MovePlayer,
    Phase,
    PhaseError,
    TableAssignment,
    Wait,
    WaitReason,
)
from server.tournament.seating import SeatClass, classify

from .helpers import config, deal, end, of, one, players, started


def test_random_seating_even_tables_and_drawn_buttons() -> None:
    # cdc 2.1, tda 6: seats drawn at random; tables as even as possible
    d = Director(config(), random.Random(3), now=0.0)
    for p in players(40):
        d.register(p, p, 0.0)
    out = d.start(0.0)
    tables = of(out, TableAssignment)
    assert sorted(len(t.seats) for t in tables) == [8, 8, 8, 8, 8]
    assert isinstance(out[0], LevelChange) and out[0].index == 0
    seated = [p for t in tables for p in t.seats.values()]
    assert sorted(seated) == players(40)
    for t in tables:
        assert t.button in t.seats  # casino, fpc 5-5: the first dealer is drawn
        assert all(stack == 10000 for stack in t.stacks.values())
    other = Director(config(), random.Random(4), now=0.0)
    for p in players(40):
        other.register(p, p, 0.0)
    assert of(other.start(0.0), TableAssignment) != tables  # the draw depends on the rng
    assert d.phase is Phase.RUNNING


def test_start_needs_min_players_and_one_table_is_the_final() -> None:
    d = Director(config(min_players=5), random.Random(1), now=0.0)
    for p in players(4):
        d.register(p, p, 0.0)
    with pytest.raises(PhaseError):
        d.start(0.0)
    d.register("p005", "x", 0.0)
    d.start(0.0)
    assert d.phase is Phase.FINAL_TABLE  # a single table: sit&go


def test_a_table_starts_from_three_players() -> None:
    # cdc 2.2, fpc 5-1: at the start, a table plays from three seated players
    d = started(20)  # 7, 7, 6
    assert all(isinstance(deal(d, t), Deal) for t in d.table_ids())


def _bust_at(d: Director, table: int, n: int) -> Deal:
    dl = deal(d, table)
    victims = list(dl.seats.values())[:n]
    end(d, dl, busts=victims, winner=list(dl.seats.values())[-1])
    return dl


def test_short_table_stops_and_next_big_blind_of_the_fullest_moves() -> None:
    # cdc 2.3: early, play stops at a table three players short of another; the player moved
    # is the next big blind of the fullest table, seated to pay the big blind at once
    d = started(40)  # five tables of 8 (room for no break: 37 > 4 x 9)
    deals = {t: deal(d, t) for t in d.table_ids() if t != 1}
    hand1 = _bust_at(d, 1, 3)
    assert d.table_counts()[1] == 5
    wait = d.ready(1, 0.0)
    assert one(wait, Wait).reason is WaitReason.SHORT_TABLE
    dl = deals[2]
    expected_mover = dl.seats[next_positions(dl.positions, sorted(dl.seats), 9).big_blind]
    out = end(d, dl)
    move = one(out, MovePlayer)
    assert (move.player_id, move.from_table, move.to_table) == (expected_mover, 2, 1)
    # destination: the seat that makes him table 1's next big blind (never skipping it)
    table1 = d.seating(1)
    occupied = set(table1) - {move.to_seat}
    assert classify(move.to_seat, hand1.positions, occupied, 9) is SeatClass.BIG_BLIND
    assert not move.waits_for_button
    # the gap is now 2 < 3: table 1 deals again, in the same answer
    released = [x for x in out if isinstance(x, Deal) and x.table_id == 1]
    assert released and released[0].positions.big_blind == move.to_seat


def test_gap_two_is_tolerated_early_but_not_late() -> None:
    # cdc 2.3: 3 early; late (on the predetermined last tables) from 2
    d = started(40)
    _bust_at(d, 1, 2)
    assert d.gap_tolerance() == 3
    assert isinstance(deal(d, 1), Deal)
    late = started(24, config(rules={"late_balancing_tables": 3}))  # 3 tables of 8: late
    assert late.gap_tolerance() == 2
    _bust_at(late, 1, 2)
    assert one(late.ready(1, 0.0), Wait).reason is WaitReason.SHORT_TABLE


@pytest.mark.parametrize("profile", ["ligue", "fpc"])
def test_two_player_gap_profiles_move_at_two(profile: str) -> None:
    # ligue art. 3, fpc 3-3: unbalanced from a two-player difference
    d = started(40, config(profile=profile))
    assert d.gap_tolerance() == 2
    deals = {t: deal(d, t) for t in d.table_ids() if t != 1}
    _bust_at(d, 1, 2)
    out = end(d, deals[3])
    move = one(out, MovePlayer)
    assert move.from_table == 3 and move.to_table == 1


def test_moves_only_between_hands_of_the_fullest_table() -> None:
    # cdc 2.3: the designated player moves when his hand is over
    d = started(40)
    deals = {t: deal(d, t) for t in d.table_ids()}
    out = end(d, deals[1], busts=list(deals[1].seats.values())[:3])
    assert not of(out, MovePlayer)  # every fuller table is still playing
    out = end(d, deals[5])
    assert one(out, MovePlayer).from_table == 5


def test_several_movers_are_successive_big_blinds() -> None:
    # casino: "on déplacera le ou les prochains joueurs après la grosse blind"
    d = started(40, config(rules={"balance_gap_early": 2}))
    deals = {t: deal(d, t) for t in d.table_ids() if t != 1}
    _bust_at(d, 1, 4)  # 4 vs 8
    dl = deals[2]
    order = [
        dl.seats[s] for s in sorted(dl.seats, key=lambda s: (s - dl.positions.big_blind - 1) % 9)
    ]
    out = end(d, dl)
    moved = [m.player_id for m in of(out, MovePlayer)]
    assert moved == order[: len(moved)] and len(moved) >= 1


def test_a_two_player_tournament_deals() -> None:
    # cdc 2.2 wants three players to start a table; a heads-up tournament starts with two
    d = started(2)
    (table,) = d.table_ids()
    assert isinstance(deal(d, table), Deal)


def test_a_cancelled_hand_is_replayed_at_the_same_positions() -> None:
    """cdc 5.4: a hand called off after a crash (every bet returned) is dealt again at the
    same positions: the button and blinds do not move on."""
    d = started(6)
    (table,) = d.table_ids()
    first = one(d.ready(table, 0.0), Deal)
    stacks = {seat: (pid, d.stack(pid)) for seat, pid in d.seating(table).items()}
    d.hand_ended(
        HandEnded(
            table_id=table,
            hand_no=first.hand_no,
            positions=first.positions,
            stacks=stacks,
            cancelled=True,
        ),
        10.0,
    )
    replay = one(d.ready(table, 11.0), Deal)
    assert replay.positions == first.positions
    assert replay.hand_no == first.hand_no + 1
    # a hand played to its end moves the big blind on (tda 31)
    d.hand_ended(
        HandEnded(
            table_id=table, hand_no=replay.hand_no, positions=replay.positions, stacks=stacks
        ),
        20.0,
    )
    after = one(d.ready(table, 21.0), Deal)
    assert after.positions.big_blind != replay.positions.big_blind
