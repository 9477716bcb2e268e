"""Seats for arrivals: the big blind is never skipped (cdc 2.3), never between SB and button
(tda 7, 9), after the dealer (ligue 6.22)."""

from __future__ import annotations

import random

from server.engine.positions import Positions, next_positions
from server.tournament.rules import SeatRule
from server.tournament.seating import SeatClass, choose_seat, classify

REF = Positions(button=3, sb_slot=4, big_blind=5)


def test_classes_relative_to_the_hand_in_progress() -> None:
    # nine seats, 1, 6 and 8 empty; hand in progress: button 3, SB 4, BB 5
    occupied = {2, 3, 4, 5, 7, 9}
    # seat 6 lies between the BB and the next BB (7): the arrival is the next big blind
    assert classify(6, REF, occupied, 9) is SeatClass.BIG_BLIND
    # seat 8 is after the next BB: dealt in, the BB reaches him before the button
    assert classify(8, REF, occupied, 9) is SeatClass.LIVE
    assert classify(1, REF, occupied, 9) is SeatClass.LIVE


def test_empty_blind_seats_are_the_last_resort() -> None:
    # cdc 2.3: an arrival at the seat of a small blind just eliminated would be the button;
    # at the seat of a big blind just eliminated he would be the small blind
    occupied = {1, 2, 3, 6, 7, 8, 9}
    assert classify(4, REF, occupied, 9) is SeatClass.BUTTON
    assert classify(5, REF, occupied, 9) is SeatClass.SMALL_BLIND
    ref = Positions(button=3, sb_slot=4, big_blind=6)  # seat 5 empty between SB and BB
    assert classify(5, ref, {1, 2, 3, 4, 6, 7, 8, 9}, 9) is SeatClass.WAITS  # tda 7


def test_balancing_seat_is_the_next_big_blind() -> None:
    # cdc 2.3, tda 10-A: seated to pay the big blind as soon as possible
    rng = random.Random(1)
    occupied = {2, 3, 4, 5, 7, 9}
    seat = choose_seat(SeatRule.NEXT_BIG_BLIND, REF, occupied, 9, rng)
    assert seat == 6
    assert next_positions(REF, [*occupied, seat], 9).big_blind == 6
    # no empty seat before the next BB: the nearest one after it (tda 10-A: "la place la plus
    # proche à gauche de la grosse blinde")
    occupied = {1, 2, 3, 4, 5, 6, 7}
    assert choose_seat(SeatRule.NEXT_BIG_BLIND, REF, occupied, 9, rng) == 8


def test_button_seat_only_when_nothing_else() -> None:
    rng = random.Random(1)
    only_button = {1, 2, 3, 5, 6, 7, 8, 9}
    assert choose_seat(SeatRule.NEXT_BIG_BLIND, REF, only_button, 9, rng) == 4
    two = {1, 2, 3, 5, 6, 7, 9}  # 4 (next button) and 8 (live)
    assert choose_seat(SeatRule.NEXT_BIG_BLIND, REF, two, 9, rng) == 8


def test_random_late_seat_never_between_sb_and_button() -> None:
    # tda 7: random draw, any seat except between the small blind and the button
    ref = Positions(button=3, sb_slot=5, big_blind=6)  # seat 4 empty: between BTN and SB
    occupied = {1, 3, 5, 6, 8}
    seen = {choose_seat(SeatRule.RANDOM, ref, occupied, 9, random.Random(i)) for i in range(200)}
    assert 4 not in seen and seen == {2, 7, 9}


def test_ligue_latecomer_first_free_seat_after_the_dealer() -> None:
    # ligue 6.22: "prend place à la première position libre après le brasseur"
    ref = Positions(button=3, sb_slot=4, big_blind=5)
    occupied = {1, 2, 3, 4, 5, 8}
    assert choose_seat(SeatRule.AFTER_BUTTON, ref, occupied, 9, random.Random(1)) == 6


def test_table_not_started_any_seat() -> None:
    assert classify(4, None, {1, 2}, 9) is SeatClass.LIVE
