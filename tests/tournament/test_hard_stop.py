"""The hard stop (fpc part C, « LE SIT'N GO »: « Si les Sit'n Go ne sont pas terminés à 23h45,
le classement sera défini par le montant des stacks des joueurs encore en jeu »), on the pure
director: no hand is dealt once it is called, the hands in play end, then the players still
in are ranked by their chips (equal stacks share a place and its prize), after those already
out, who keep their places."""

from __future__ import annotations

import pytest

from server.tournament.decisions import Deal, Eliminated, Finished, Wait, WaitReason
from server.tournament.errors import PhaseError

from .helpers import Driver, config, deal, end, of, started


def test_stopped_between_hands_it_ends_at_once_ranked_by_stacks() -> None:
    d = started(6, config(payouts=[{"entrants": [3, 100], "percents": [50, 30, 20]}],
                          prize_pool=1000))  # fmt: skip
    dl = deal(d, 1)
    seats = list(dl.seats.values())
    # one bust (6th), and the survivors' stacks: two of them equal
    after = {seats[1]: 30000, seats[2]: 10000, seats[3]: 10000, seats[4]: 5000, seats[5]: 5000}
    end(d, dl, busts=[seats[0]], winner=seats[1], after=after)
    out = d.stop(60.0)
    finished = of(out, Finished)
    assert len(finished) == 1
    places = {r.player_id: r.place for r in finished[0].results}
    assert places == {
        seats[1]: 1,
        seats[2]: 2, seats[3]: 2,  # equal stacks share
        seats[4]: 4, seats[5]: 4,
        seats[0]: 6,  # out before the stop: his place stands
    }  # fmt: skip
    prizes = {r.player_id: r.prize for r in finished[0].results}
    assert prizes[seats[1]] == 500 and prizes[seats[2]] == prizes[seats[3]] == 250  # (300+200)/2
    assert sum(prizes.values()) == 1000
    assert all(not e.eliminated_by for e in of(out, Eliminated))  # nobody eliminated them
    assert of(d.ready(1, 61.0), Wait)[0].reason is WaitReason.TABLE_CLOSED  # as at any end
    with pytest.raises(PhaseError):
        d.stop(62.0)


def test_the_hands_in_play_end_first_and_no_hand_is_dealt_after_the_stop() -> None:
    d = started(18, config(table_size=9))
    drv = Driver(d)
    drv.ready_all()
    assert len(drv.deals) == 2
    out = d.stop(30.0)
    assert not of(out, Finished)  # two hands in play
    first = next(iter(drv.deals))
    done = drv.end(first, 31.0)
    assert not of(done, Finished) and not of(done, Deal)
    assert of(d.ready(first, 31.5), Wait)[0].reason is WaitReason.STOPPED
    last = next(iter(drv.deals))
    done = drv.end(last, 32.0)
    finished = of(done, Finished)
    assert len(finished) == 1 and len(finished[0].results) == 18
    assert sorted({r.place for r in finished[0].results})[0] == 1


def test_a_tournament_not_started_cannot_be_stopped() -> None:
    import random

    from server.tournament.director import Director

    d = Director(config(), random.Random(1), now=0.0)
    with pytest.raises(PhaseError):
        d.stop(0.0)


def test_the_next_stop_of_the_day_in_its_zone() -> None:
    import datetime as dt

    from server.tournament.errors import ConfigError
    from server.tournament.hard_stop import parse_stop, seconds_until

    stop, paris = parse_stop("23:45", "Europe/Paris")
    evening = dt.datetime(2026, 11, 25, 19, 0, tzinfo=dt.UTC)  # 20:00 in Paris (UTC+1)
    assert seconds_until(stop, paris, evening) == 3 * 3600 + 45 * 60
    late = dt.datetime(2026, 11, 25, 22, 50, tzinfo=dt.UTC)  # 23:50 in Paris: tomorrow's
    assert seconds_until(stop, paris, late) == 24 * 3600 - 5 * 60
    summer = dt.datetime(2026, 7, 1, 18, 0, tzinfo=dt.UTC)  # 20:00 in Paris (UTC+2)
    assert seconds_until(stop, paris, summer) == 3 * 3600 + 45 * 60
    for text, zone in (
        ("24:00", "Europe/Paris"),
        ("23h45", "Europe/Paris"),
        ("23:45", "Nowhere/X"),
    ):
        with pytest.raises(ConfigError):
            parse_stop(text, zone)


@pytest.mark.asyncio
async def test_the_observer_stops_the_tournament_at_its_time_once_started() -> None:
    import asyncio
    import datetime as dt

    from server.tournament.decisions import TableAssignment
    from server.tournament.hard_stop import HardStop, parse_stop

    stop, paris = parse_stop("23:45", "Europe/Paris")
    almost = dt.datetime(2026, 11, 25, 22, 44, 59, 800_000, tzinfo=dt.UTC)  # 0.2 s before
    asked: list[str] = []
    observer = HardStop(stop, paris, lambda kind, data: asked.append(kind), lambda: almost)
    observer.observe([])  # not started: nothing armed
    assert observer.timer is None
    observer.observe([TableAssignment(table_id=1, max_seats=9, seats={}, stacks={}, button=1)])
    assert observer.timer is not None
    await asyncio.sleep(0.4)
    assert asked == ["stop"]
