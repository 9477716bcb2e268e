"""Places: simultaneous busts (cdc 1.10, fpc 4-4, casino), announced abandon (cdc 1.9)."""

from __future__ import annotations

from server.tournament import Eliminated, RemovalReason, RemovePlayer

from .helpers import config, deal, end, of, one, started


def test_same_table_busts_ranked_by_start_stack() -> None:
    # cdc 1.10: the bigger stack at the start of the hand ranks better
    d = started(20)
    dl = deal(d, 1)
    a, b, c, *_ = dl.seats.values()
    end(d, dl, after={a: 4000, b: 16000})  # a is now short
    dl = deal(d, 1)
    out = end(d, dl, busts=[a, b], winner=c)
    places = {e.player_id: e.place for e in of(out, Eliminated)}
    assert places == {a: 20, b: 19}


def test_same_table_equal_stacks_tie() -> None:
    # cdc 1.10, fpc 4-4: same stack at the start of the hand: ex-aequo
    d = started(20)
    dl = deal(d, 1)
    a, b, c, *_ = dl.seats.values()
    out = end(d, dl, busts=[a, b], winner=c)
    elim = of(out, Eliminated)
    assert [e.place for e in elim] == [19, 19]
    assert elim[0].tied_with == (b,) and elim[1].tied_with == (a,)


def test_busts_in_successive_reports_are_not_simultaneous() -> None:
    d = started(20)
    d1, d2 = deal(d, 1), deal(d, 2)
    out1 = end(d, d1, busts=[next(iter(d1.seats.values()))])
    out2 = end(d, d2, busts=[next(iter(d2.seats.values()))])
    assert one(out1, Eliminated).place == 20 and one(out2, Eliminated).place == 19


def test_announced_abandon_ranked_at_the_announcement() -> None:
    # cdc 1.9, fpc 4-3, ligue 6.23: chips removed, ranked when he announces it
    d = started(20)
    dl = deal(d, 1)
    quitter = next(iter(dl.seats.values()))
    out = d.abandon(quitter, 5.0)
    remove = one(out, RemovePlayer)
    assert remove.reason is RemovalReason.ABANDON and remove.table_id == 1
    elim = one(out, Eliminated)
    assert elim.abandoned and elim.place == 20
    assert d.remaining == 19
    # the table reports the hand without him (his chips left the tournament)
    seats = {s: p for s, p in dl.seats.items() if p != quitter}
    from server.tournament import HandEnded

    report = HandEnded(
        table_id=1,
        hand_no=dl.hand_no,
        positions=dl.positions,
        stacks={s: (p, d.stack(p)) for s, p in seats.items()},
    )
    d.hand_ended(report, 10.0)
    assert quitter not in d.seating(1).values()


def test_report_errors_are_the_coordinators_fault() -> None:
    import pytest

    from server.tournament import HandEnded, ReportError

    d = started(20)
    dl = deal(d, 1)
    seats = dict(dl.seats)
    first = next(iter(seats))
    bad = {s: (p, d.stack(p) + (1 if s == first else 0)) for s, p in seats.items()}
    with pytest.raises(ReportError, match="chips"):
        d.hand_ended(
            HandEnded(table_id=1, hand_no=dl.hand_no, positions=dl.positions, stacks=bad), 0
        )
    with pytest.raises(ReportError):
        d.hand_ended(HandEnded(table_id=1, hand_no=99, positions=dl.positions, stacks={}), 0)
    with pytest.raises(ReportError, match="asked to deal"):
        d.ready(1, 0.0)
    assert d.remaining == 20  # nothing changed


def test_late_registration_busts_are_placed_when_it_closes() -> None:
    # the field is known only at the end of late registration (cdc 1.8: end of level 2)
    d = started(20, config(late_registration_until_level=1, buy_in=10))
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    first = one(end(d, dl, busts=[victim]), Eliminated)
    assert first.place is None
    d.register("late", "Late", 60.0)
    out = d.tick(20 * 60.0)  # end of level 1
    placed = one(out, Eliminated)
    assert placed.player_id == victim and placed.place == 21
