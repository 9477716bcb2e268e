"""fpc 17-3 / 17-4: a blind's player busted or moved: the same dealer deals again, nobody
pays the small blind, the big blind advances. The other profiles keep the dead button
(cdc 4.3); heads-up is the same under every profile (fpc 5-14, cdc 4.4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine import PROFILE_IDS, AnteFormat, Blinds, Hand, HandSetup, SeatSetup
from server.engine import events as ev
from server.engine.positions import (
    MissingBlind,
    Positions,
    first_positions,
    next_positions,
    positions_from_list,
    positions_to_list,
    waits_as_newcomer,
)
from server.engine.profile import load_profile
from server.tournament.redis_state import CODEC

FPC = load_profile("fpc").missing_blind
CDC = load_profile("cdc").missing_blind
LAST = Positions(button=1, sb_slot=2, big_blind=3)


def test_profiles_name_their_rule() -> None:
    assert FPC is MissingBlind.SAME_DEALER
    assert load_profile("fpc").cite("missing_blind") == "fpc-17-3"
    for pid in PROFILE_IDS:
        if pid != "fpc":
            assert load_profile(pid).missing_blind is MissingBlind.DEAD_BUTTON
    assert load_profile("cdc").cite("missing_blind") == "cdc-4.3"


def test_fpc_small_blind_gone_same_dealer_no_small_blind() -> None:
    # fpc 17-3: "Si le joueur petite blind est déplacé par le logiciel ou vient d'être
    # éliminé, il n'y en a pas et le donneur distribue deux fois, personne ne paie la petite
    # blind."
    nxt = next_positions(LAST, [1, 3, 4, 5], 9, missing_blind=FPC)
    assert nxt == Positions(button=1, sb_slot=3, big_blind=4, small_blind=False)
    # the hand after: the last big blind posts the SB, the button is the player before him
    after = next_positions(nxt, [1, 3, 4, 5], 9, missing_blind=FPC)
    assert after == Positions(button=3, sb_slot=4, big_blind=5)


def test_fpc_big_blind_gone_utg_posts_the_big_blind_alone() -> None:
    # fpc 17-4: "Si le joueur grosse blind est déplacé par le logiciel ou vient d'être
    # éliminé, le joueur en position dite « UTG » ou Grosse Blind +1 paye la grosse blind et
    # deviendra petite blind le coup suivant. Le donneur distribue deux fois de suite."
    nxt = next_positions(LAST, [1, 2, 4, 5], 9, missing_blind=FPC)
    assert nxt == Positions(button=1, sb_slot=2, big_blind=4, small_blind=False)
    after = next_positions(nxt, [1, 2, 4, 5], 9, missing_blind=FPC)
    assert after == Positions(button=2, sb_slot=4, big_blind=5)  # UTG now small blind


def test_fpc_both_blinds_gone() -> None:
    # fpc 17-3 and 17-4 together: the dealer deals again, no SB, UTG pays the BB
    nxt = next_positions(LAST, [1, 4, 5, 6], 9, missing_blind=FPC)
    assert nxt == Positions(button=1, sb_slot=1, big_blind=4, small_blind=False)
    after = next_positions(nxt, [1, 4, 5, 6], 9, missing_blind=FPC)
    assert after == Positions(button=1, sb_slot=4, big_blind=5)


def test_fpc_big_blind_gone_twice_in_a_row() -> None:
    # fpc 17-4 again at the hand without SB: still the same dealer, still no SB
    nxt = next_positions(LAST, [1, 2, 4, 5, 6], 9, missing_blind=FPC)
    again = next_positions(nxt, [1, 2, 5, 6], 9, missing_blind=FPC)
    assert again == Positions(button=1, sb_slot=2, big_blind=5, small_blind=False)
    assert next_positions(again, [1, 2, 5, 6], 9, missing_blind=FPC) == Positions(
        button=2, sb_slot=5, big_blind=6
    )


def test_fpc_a_newcomer_is_never_named_the_next_button() -> None:
    # 17-4, then a newcomer sits in the empty seat 3 and the next big blind busts too: the
    # next button is still a player of the last hand, the newcomer waits (tda 7, fpc 17-2)
    nxt = next_positions(LAST, [1, 2, 4, 5, 6], 9, missing_blind=FPC)
    again = next_positions(nxt, [1, 2, 3, 5, 6], 9, missing_blind=FPC)
    assert again == Positions(button=1, sb_slot=2, big_blind=5, small_blind=False)
    assert waits_as_newcomer(3, again, 9)


def test_fpc_the_next_button_left_during_the_hand_without_small_blind() -> None:
    nxt = next_positions(LAST, [1, 2, 4, 5], 9, missing_blind=FPC)  # 17-4: button 1, next 2
    after = next_positions(nxt, [1, 4, 5], 9, missing_blind=FPC)  # 2 left: the dealer again
    assert after == Positions(button=1, sb_slot=4, big_blind=5)


def test_fpc_no_blind_gone_is_the_usual_rotation() -> None:
    assert next_positions(LAST, [1, 2, 3, 4], 9, missing_blind=FPC) == Positions(
        button=2, sb_slot=3, big_blind=4
    )
    # the dealer alone gone: the SB is the button, as with the dead button
    assert next_positions(LAST, [2, 3, 4], 9, missing_blind=FPC) == next_positions(
        LAST, [2, 3, 4], 9
    )


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ([1, 3, 4, 5], Positions(button=2, sb_slot=3, big_blind=4)),  # SB gone: dead button
        ([1, 2, 4, 5], Positions(button=2, sb_slot=3, big_blind=4)),  # BB gone: no SB
        ([1, 4, 5], Positions(button=2, sb_slot=3, big_blind=4)),  # both gone
    ],
)
def test_cdc_keeps_the_dead_button(players: list[int], expected: Positions) -> None:
    # cdc 4.3: "la petite blinde est éliminée : il y a bouton mort, l'ancienne grosse blinde
    # devient petite blinde"; "la grosse blinde est éliminée : ... l'ancienne petite blinde
    # devient bouton et l'ancien UTG devient grosse blinde toute seule"
    assert next_positions(LAST, players, 9, missing_blind=CDC) == expected
    assert next_positions(LAST, players, 9) == expected  # the default is the dead button


def test_fpc_heads_up_transition() -> None:
    # fpc 5-14: "la grosse blind doit avancer et l'autre joueur devient donneur même si cela
    # fait rester la donne deux fois de suite sur le même joueur"; 5-15: the dealer is SB
    nxt = next_positions(LAST, [1, 3], 9, missing_blind=FPC)  # seat 2 busted
    assert nxt == Positions(button=3, sb_slot=3, big_blind=1)
    assert nxt == next_positions(LAST, [1, 3], 9, missing_blind=CDC)
    # heads-up after a hand without small blind: the same
    no_sb = Positions(button=1, sb_slot=3, big_blind=4, small_blind=False)
    assert next_positions(no_sb, [1, 4], 9, missing_blind=FPC) == Positions(
        button=4, sb_slot=4, big_blind=1
    )
    # leaving heads-up (a player joined): as today
    assert next_positions(nxt, [1, 3, 5], 9, missing_blind=FPC) == next_positions(nxt, [1, 3, 5], 9)


def test_a_newcomer_at_the_slot_of_a_hand_without_small_blind_waits() -> None:
    no_sb = Positions(button=1, sb_slot=3, big_blind=4, small_blind=False)
    assert waits_as_newcomer(3, no_sb, 9)
    assert not waits_as_newcomer(3, Positions(button=1, sb_slot=3, big_blind=4), 9)


def test_positions_serialize_backward_compatibly() -> None:
    usual = Positions(button=1, sb_slot=2, big_blind=3)
    no_sb = Positions(button=1, sb_slot=2, big_blind=4, small_blind=False)
    assert positions_to_list(usual) == [1, 2, 3]  # as older servers wrote it
    assert positions_to_list(no_sb) == [1, 2, 4, 0]
    assert positions_from_list([1, 2, 3]) == usual
    assert positions_from_list(["1", "2", "4", 0]) == no_sb
    # the director's state in Redis (msgpack, no pickle) keeps all four fields
    assert CODEC.decode(CODEC.encode([usual, no_sb], {}), {}) == [usual, no_sb]


def test_engine_posts_no_small_blind_with_sb_zero() -> None:
    # fpc 17-4: the table deals with Blinds(sb=0) and the big blind pinned: the old SB (seat
    # 2, between the button and the big blind) posts nothing
    setup = HandSetup(
        profile=load_profile("fpc"),
        blinds=Blinds(sb=0, bb=100, ante=0, ante_format=AnteFormat.NONE),
        seats=tuple(SeatSetup(player=str(s), seat=s, stack=1000) for s in (1, 2, 4, 5)),
        button=1,
        big_blind=4,
        hole={str(s): (2 * s, 2 * s + 1) for s in (1, 2, 4, 5)},
        board=(20, 21, 22, 23, 24),
    )
    hand = Hand(setup)
    started = next(e for e in hand.events if isinstance(e, ev.HandStarted))
    assert started.small_blind is None and started.big_blind == "4"
    posts = [(e.player, e.kind) for e in hand.events if isinstance(e, ev.Posted)]
    assert posts == [("4", ev.PostKind.BIG_BLIND)]
    assert hand.menu() is not None and hand.menu().player == "5"  # type: ignore[union-attr]


def _after(seat: int, seats: list[int], max_seats: int) -> int:
    return next(
        s for k in range(1, max_seats + 1) if (s := (seat - 1 + k) % max_seats + 1) in seats
    )


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    max_seats=st.integers(3, 10),
    data=st.data(),
)
def test_fpc_the_big_blind_always_advances(max_seats: int, data: st.DataObject) -> None:
    """Under fpc, over hands where players bust, leave and arrive: the big blind advances to
    the first player after the last one, nobody pays it twice in a row, a hand without SB
    keeps the dealer, and otherwise the SB is the last big blind (17-4: "deviendra petite
    blind le coup suivant")."""
    seats = list(range(1, max_seats + 1))
    players = sorted(data.draw(st.sets(st.sampled_from(seats), min_size=2), label="players"))
    pos = first_positions(data.draw(st.sampled_from(players), label="button"), players, max_seats)
    for _ in range(data.draw(st.integers(1, 25), label="hands")):
        gone = data.draw(st.sets(st.sampled_from(players), max_size=len(players) - 2))
        empty = [s for s in seats if s not in players]
        come = data.draw(st.sets(st.sampled_from(empty))) if empty else set()
        players = sorted((set(players) - gone) | come)
        new = next_positions(pos, players, max_seats, missing_blind=MissingBlind.SAME_DEALER)
        assert new.big_blind == _after(pos.big_blind, players, max_seats)
        assert new.big_blind != pos.big_blind  # nobody posts the big blind twice in a row
        heads_up_before = pos.small_blind and pos.sb_slot == pos.button
        if len(players) == 2:
            assert new.small_blind and new.button == new.sb_slot != new.big_blind
        elif not new.small_blind:
            assert new.button == pos.button  # the dealer deals again (17-3, 17-4)
            assert not heads_up_before
            assert pos.big_blind not in players or (pos.small_blind and pos.sb_slot not in players)
        elif not heads_up_before:
            # no blind gone: the last big blind posts the small blind
            assert new.sb_slot == pos.big_blind in players
        pos = new
