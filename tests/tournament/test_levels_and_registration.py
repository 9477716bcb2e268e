"""Levels between hands (cdc 3.1, tda 22), breaks, late registration (cdc 1.8, ligue 6.22,
tda 7), re-entry and rebuy (tda 7, 26), absent and no-show players (cdc 1.8, fpc 2-2)."""

from __future__ import annotations

import random

from server.tournament import (
    Break,
    Deal,
    Director,
    Eliminated,
    LevelChange,
    Phase,
    Rebought,
    RefusalReason,
    Refused,
    Registered,
    RegistrationClosed,
    RemovalReason,
    RemovePlayer,
    TableAssignment,
    Wait,
    WaitReason,
)

from .helpers import LEVELS, config, deal, end, of, one, players, started

MIN = 60.0


def test_new_level_applies_from_the_next_hand_only() -> None:
    # cdc 3.1, tda 22: time runs out during a hand: the new level applies to the next hand
    d = started(20)
    dl = deal(d, 1, 19 * MIN)
    assert dl.blinds.bb == 50
    out = d.tick(20 * MIN)
    change = one(out, LevelChange)
    assert change.index == 1 and change.blinds is not None and change.blinds.bb == 100
    end(d, dl, now=21 * MIN)  # the hand in progress finished on the old blinds
    assert deal(d, 1, 21 * MIN).blinds.bb == 100
    assert d.next_deadline() == 40 * MIN


def test_break_tables_wait_then_deal_again() -> None:
    levels = [LEVELS[0], {"break": True, "minutes": 10}, *LEVELS[1:]]
    d = started(20, config(levels=levels))
    dl = deal(d, 1)
    out = d.tick(20 * MIN)
    assert one(out, Break).started and d.phase is Phase.BREAK
    end(d, dl, now=21 * MIN)
    assert one(d.ready(1, 21 * MIN), Wait).reason is WaitReason.BREAK
    assert one(d.ready(2, 21 * MIN), Wait).reason is WaitReason.BREAK
    out = d.tick(30 * MIN)
    assert not one(out, Break).started and d.phase is Phase.RUNNING
    assert {x.table_id for x in of(out, Deal)} == {1, 2}
    assert all(x.blinds.bb == 100 for x in of(out, Deal))


def _late(profile: str = "cdc", **kw: object) -> Director:
    cfg = config(profile=profile, late_registration_until_level=2, **kw)
    return started(20, cfg)


def test_late_registration_until_the_end_of_level_two_with_penalty() -> None:
    # ligue 6.22: within 2 blinds, 1000-unit penalty
    d = _late("ligue")
    reg = one(d.register("late", "Late", 25 * MIN), Registered)
    assert reg.late and reg.penalty == 1000 and reg.stack == 9000
    assert reg.table_id in d.table_ids() and d.seating(reg.table_id)[reg.seat] == "late"
    out = d.register("later", "Later", 40 * MIN)  # level 3 has begun
    assert one(out, Refused).reason is RefusalReason.REGISTRATION_CLOSED
    assert one(out, RegistrationClosed).entries == 21


def test_sit_and_go_penalty_only_from_the_second_blind() -> None:
    # ligue 6.22 (sit&go): no penalty during the first blind, 1000 chips off from the second
    d = _late("ligue", late_entry_penalty=[[2, 1000]])
    assert one(d.register("a", "A", 5 * MIN), Registered).penalty == 0
    assert one(d.register("b", "B", 25 * MIN), Registered).penalty == 1000


def test_late_seat_never_between_small_blind_and_button() -> None:
    # tda 7: a late registrant is seated at random, never between the SB and the button
    for seed in range(10):
        cfg = config(profile="tda", late_registration_until_level=2)
        d = Director(cfg, random.Random(seed), now=0.0)
        for p in players(14):
            d.register(p, p, 0.0)
        d.start(0.0)
        for t in d.table_ids():
            dl = deal(d, t)
            end(d, dl)
        reg = one(d.register("late", "L", 60.0), Registered)
        t = d._tables[reg.table_id]
        assert t.ref is not None
        seat = reg.seat
        assert seat is not None
        assert not (0 < (seat - t.ref.button) % 9 < (t.ref.sb_slot - t.ref.button) % 9)
        assert not (0 < (seat - t.ref.sb_slot) % 9 < (t.ref.big_blind - t.ref.sb_slot) % 9)


def test_late_registrant_opens_a_table_when_all_are_full() -> None:
    d = Director(config(late_registration_until_level=2), random.Random(1), now=0.0)
    for p in players(9):
        d.register(p, p, 0.0)
    d.start(0.0)
    out = d.register("late", "L", 60.0)
    reg = one(out, Registered)
    opened = one(out, TableAssignment)
    assert opened.table_id == reg.table_id == 2 and d.phase is Phase.RUNNING
    assert one(d.ready(2, 61.0), Wait).reason is WaitReason.TOO_FEW_PLAYERS


def test_max_entries_and_duplicates() -> None:
    d = Director(config(max_entries=3), random.Random(1), now=0.0)
    for p in players(3):
        d.register(p, p, 0.0)
    assert one(d.register("p004", "x", 0.0), Refused).reason is RefusalReason.FULL
    assert one(d.register("p001", "x", 0.0), Refused).reason is RefusalReason.ALREADY_REGISTERED
    d.unregister("p003", 0.0)
    assert one(d.register("p004", "x", 0.0), Registered)


def test_rebuy_keeps_the_seat_before_the_next_hand() -> None:
    # tda 26: a rebuy announced before the next hand; the player never misses a hand
    d = _late(rebuy={"until_level": 2, "max": 1, "stack": 5000, "price": 10})
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    seat = next(s for s, p in dl.seats.items() if p == victim)
    elim = one(end(d, dl, busts=[victim]), Eliminated)
    assert elim.can_rebuy and elim.place is None
    back = one(d.rebuy(victim, 10.0), Rebought)
    assert (back.table_id, back.seat, back.chips) == (1, seat, 5000)
    assert d.seating(1)[seat] == victim and d.remaining == 20
    assert one(d.rebuy(victim, 11.0), Refused).reason is RefusalReason.NOT_ALLOWED  # max 1


def test_rebuy_too_late_after_the_next_hand_starts() -> None:
    d = _late(rebuy={"until_level": 2, "max": 2})
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    end(d, dl, busts=[victim])
    deal(d, 1, now=15.0)  # the table waited its 15 s for him (tda 26), then dealt
    assert one(d.rebuy(victim, 16.0), Refused).reason is RefusalReason.NOT_ALLOWED


def test_the_table_waits_for_a_rebuy_then_deals_without_him() -> None:
    # tda 26: a rebuy announced before the next hand; online the table gives the busted
    # player [rebuy] wait_seconds to click before it deals
    d = _late(rebuy={"until_level": 2, "max": 2, "wait_seconds": 20})
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    end(d, dl, busts=[victim], now=100.0)
    assert one(d.ready(1, 101.0), Wait).reason is WaitReason.REBUY
    assert not [x for x in d.tick(119.0) if isinstance(x, Deal)]
    dealt = [x for x in d.tick(120.0) if isinstance(x, Deal) and x.table_id == 1]
    assert len(dealt) == 1 and victim not in dealt[0].seats.values()
    assert one(d.rebuy(victim, 121.0), Refused).reason is RefusalReason.NOT_ALLOWED


def test_a_rebuy_within_the_wait_deals_at_once_with_him() -> None:
    d = _late(rebuy={"until_level": 2, "max": 2, "wait_seconds": 20})
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    seat = next(s for s, p in dl.seats.items() if p == victim)
    end(d, dl, busts=[victim], now=100.0)
    assert one(d.ready(1, 101.0), Wait).reason is WaitReason.REBUY
    out = d.rebuy(victim, 105.0)
    assert one(out, Rebought).seat == seat
    dealt = [x for x in out if isinstance(x, Deal) and x.table_id == 1]
    assert len(dealt) == 1 and dealt[0].seats[seat] == victim


def test_without_a_wait_the_table_deals_at_once() -> None:
    d = _late(rebuy={"until_level": 2, "max": 2, "wait_seconds": 0})
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    end(d, dl, busts=[victim], now=100.0)
    assert victim not in deal(d, 1, now=100.0).seats.values()


def test_reentry_is_a_new_entry_seated_as_a_late_registrant() -> None:
    # tda 7: re-entries get a full stack and a random seat
    d = _late(reentry={"until_level": 2, "max": 1}, buy_in=100)
    dl = deal(d, 1)
    victim = next(iter(dl.seats.values()))
    assert one(end(d, dl, busts=[victim]), Eliminated).can_reenter
    reg = one(d.reenter(victim, 30.0), Registered)
    assert reg.entry == 2 and reg.stack == 10000 and d.entries == 21
    closed = one(d.tick(40 * MIN), RegistrationClosed)
    assert closed.entries == 21 and closed.prize_pool == 2100


def test_absent_players_keep_their_seat_but_fpc_removes_no_shows() -> None:
    # cdc 1.8: an absent registered player is dealt in and blinded (kept seated);
    # fpc 2-2: still absent at the end of level 2: stack removed, off the list
    cfg = config(profile="fpc", late_registration_until_level=2)
    d = Director(cfg, random.Random(1), now=0.0, track_presence=True)
    for p in players(20):
        d.register(p, p, 0.0)
        if p != "p007":
            d.mark_present(p)
    d.start(0.0)
    out = d.tick(40 * MIN)
    gone = one(out, RemovePlayer)
    assert gone.player_id == "p007" and gone.reason is RemovalReason.NO_SHOW
    assert one(out, RegistrationClosed).entries == 19
    plain = started(20)
    plain.tick(40 * MIN)
    assert plain.remaining == 20  # nobody removed without the fpc rule
