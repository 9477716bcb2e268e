"""The director closes late registration before its level's end (issue 29, item 1): cdc 1.8
lets a règlement set the delay (« Si aucune disposition en ce sens n'est prise, la regle est
d'autoriser les retardataires a entrer en jeu jusqu'a la fin du deuxiéme niveau »); a
tournament whose other players all busted waits for latecomers until then, or ends at once
when the director closes it. The state says how long late registration stays open."""

from __future__ import annotations

import random

import pytest

from server.tournament import (
    Director,
    Eliminated,
    Finished,
    Phase,
    PhaseError,
    RefusalReason,
    Refused,
    RegistrationClosed,
)
from server.tournament.coordinator import DirectorLoop, tournament_state

from .helpers import config, deal, end, of, one, started

MIN = 60.0


def _late(n: int = 3) -> Director:
    return started(n, config(late_registration_until_level=2))


def test_one_player_left_waits_for_latecomers_until_the_end_of_level_two() -> None:
    d = _late()
    dl = deal(d, 1, 1 * MIN)
    seats = sorted(dl.seats.values())
    out = end(d, dl, busts=seats[1:], winner=seats[0], now=2 * MIN)
    assert not of(out, Finished) and d.phase is not Phase.FINISHED  # latecomers may come
    assert d.remaining == 1 and d.registration_open
    # level 1 has 18 minutes left, level 2 lasts 20: late registration for 38 more minutes
    assert d.late_registration_left() == pytest.approx(38 * MIN)
    assert d.late_registration_level == 2
    out = d.tick(40 * MIN)  # its end: the field is known, the last one standing wins
    assert one(out, RegistrationClosed).entries == 3
    assert one(out, Finished).results[0].player_id == seats[0]
    assert d.late_registration_left() is None


def test_the_director_closes_it_and_the_last_player_wins_at_once() -> None:
    d = _late()
    dl = deal(d, 1, 1 * MIN)
    seats = sorted(dl.seats.values())
    end(d, dl, busts=seats[1:], winner=seats[0], now=2 * MIN)
    out = d.close_registration(3 * MIN)
    assert one(out, RegistrationClosed).entries == 3
    results = one(out, Finished).results
    assert [r.place for r in results] == [1, 2, 2]  # busted in one hand with equal stacks
    assert results[0].player_id == seats[0]
    assert d.phase is Phase.FINISHED
    with pytest.raises(PhaseError):
        d.close_registration(4 * MIN)  # nothing left to close


def test_closed_with_players_in_play_refuses_newcomers_and_places_the_busted() -> None:
    d = _late(4)
    dl = deal(d, 1, 1 * MIN)
    seats = sorted(dl.seats.values())
    out = end(d, dl, busts=seats[3:], winner=seats[0], now=2 * MIN)
    assert one(out, Eliminated).place is None  # places wait for the field (cdc 1.10)
    out = d.close_registration(3 * MIN)
    assert one(out, RegistrationClosed).entries == 4
    assert one(out, Eliminated).place == 4
    assert not of(out, Finished)
    refused = d.register("late", "Late", 4 * MIN)
    assert one(refused, Refused).reason is RefusalReason.REGISTRATION_CLOSED


def test_not_before_the_start() -> None:
    fresh = Director(config(late_registration_until_level=2), random.Random(1), now=0.0)
    with pytest.raises(PhaseError):
        fresh.close_registration(0.0)
    assert fresh.late_registration_left() is None


def test_the_console_op_is_logged_and_refused_once_closed() -> None:
    d = _late()
    loop = DirectorLoop(d)
    dl = deal(d, 1, 1 * MIN)
    seats = sorted(dl.seats.values())
    end(d, dl, busts=seats[1:], winner=seats[0], now=2 * MIN)
    state = tournament_state(loop, 2 * MIN)
    assert state["late_registration"] and state["late_until_level"] == 2
    assert state["late_left"] == 38 * 60
    out = loop.handle("close_late", {"text": ""}, 3 * MIN)
    assert of(out, Finished) and [x["op"] for x in loop.log] == ["close_late"]
    again = loop.handle("close_late", {"text": ""}, 4 * MIN)
    assert [type(x).__name__ for x in again] == ["ConsoleRefused"]
    state = tournament_state(loop, 4 * MIN)
    assert not state["late_registration"] and state["late_left"] is None
