"""The director's positions when a blind's player busts: fpc 17-3 / 17-4 (the same dealer,
no small blind, the big blind advances) against the dead button of cdc 4.3."""

from __future__ import annotations

import pytest

from server.engine.positions import MissingBlind, Positions
from server.tournament.seating import SeatClass, classify
from server.tournament.simulation import Simulation

from .helpers import config, deal, end, started
from .test_simulation import _config


def _after(seat: int, seats: list[int]) -> int:
    return next(s for k in range(1, 10) if (s := (seat - 1 + k) % 9 + 1) in seats)


@pytest.mark.parametrize("blind", ["sb", "bb"])
def test_fpc_a_blind_busts_the_dealer_deals_again_without_small_blind(blind: str) -> None:
    # fpc 17-3: "personne ne paie la petite blind"; fpc 17-4: "le joueur en position dite
    # « UTG » ... paye la grosse blind et deviendra petite blind le coup suivant. Le donneur
    # distribue deux fois de suite."
    d = started(20, config(profile="fpc"))
    assert d.missing_blind is MissingBlind.SAME_DEALER
    first = deal(d, 1)
    pos = first.positions
    victim = first.seats[pos.sb_slot if blind == "sb" else pos.big_blind]
    end(d, first, busts=[victim])
    second = deal(d, 1)
    seats = sorted(second.seats)
    assert second.positions.button == pos.button and not second.positions.small_blind
    assert second.positions.big_blind == _after(pos.big_blind, seats)
    end(d, second)
    third = deal(d, 1)
    assert third.positions.small_blind and third.positions.sb_slot == second.positions.big_blind
    assert third.positions.button == (pos.big_blind if blind == "sb" else pos.sb_slot)


def test_cdc_a_big_blind_bust_keeps_the_dead_button() -> None:
    # cdc 4.3: "l'ancienne petite blinde devient bouton et l'ancien UTG devient grosse blinde
    # toute seule"
    d = started(20, config(profile="cdc"))
    first = deal(d, 1)
    pos = first.positions
    end(d, first, busts=[first.seats[pos.big_blind]])
    second = deal(d, 1)
    assert second.positions == Positions(
        button=pos.sb_slot,
        sb_slot=pos.big_blind,
        big_blind=_after(pos.big_blind, sorted(second.seats)),
    )


def test_fpc_a_seat_that_may_get_the_button_back_is_a_last_resort() -> None:
    # the dealer's seat is empty: if a blind busts in the hand in progress the same dealer
    # deals again (fpc 17-3, 17-4), a newcomer there would have the button before the BB
    ref = Positions(button=1, sb_slot=2, big_blind=3)
    occupied = [2, 3, 4, 5, 6]
    fpc = MissingBlind.SAME_DEALER
    assert classify(1, ref, occupied, 9) is SeatClass.LIVE  # cdc 4.3: the button moves on
    assert classify(1, ref, occupied, 9, missing_blind=fpc) is SeatClass.BUTTON
    assert classify(7, ref, occupied, 9, missing_blind=fpc) is SeatClass.LIVE
    # the next big blind's seat is the best one whatever busts (the big blind advances)
    assert classify(4, ref, [1, 2, 3, 5, 6], 9, missing_blind=fpc) is SeatClass.BIG_BLIND


@pytest.mark.parametrize("seed", [11, 12])
def test_fpc_tournament_on_fake_tables(seed: int) -> None:
    # every deal is checked against fpc 17-3/17-4 by the fake tables (FakeTable.begin); no
    # moved player is button or small blind before his big blind
    sim = Simulation(_config("fpc"), 120, seed=seed)
    tr = sim.run()
    assert tr.gap_violations == 0 and tr.moved_skips == 0 and tr.break_skips == 0
    assert tr.finished is not None
