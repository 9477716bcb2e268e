"""Dealing order and the cut: slot k comes from position (cut + k) % 52."""

from __future__ import annotations

import pytest

from server.dealing import MAX_PLAYERS, DealingError, deal_layout

from .conftest import seeded_deck


def test_six_handed_layout() -> None:
    layout = deal_layout(6)
    # One card at a time from the button's left, two rounds.
    assert layout.hole == ((0, 6), (1, 7), (2, 8), (3, 9), (4, 10), (5, 11))
    # burn, flop x3, burn, turn, burn, river.
    assert layout.burns == (12, 16, 18)
    assert layout.board == (13, 14, 15, 17, 19)
    assert layout.slots_used == 20


def test_heads_up_layout() -> None:
    layout = deal_layout(2)
    assert layout.hole == ((0, 2), (1, 3))
    assert layout.burns == (4, 8, 10)
    assert layout.board == (5, 6, 7, 9, 11)


@pytest.mark.parametrize("players", range(2, MAX_PLAYERS + 1))
def test_every_slot_is_used_once(players: int) -> None:
    layout = deal_layout(players)
    slots = [s for pair in layout.hole for s in pair] + [*layout.burns, *layout.board]
    assert sorted(slots) == list(range(layout.slots_used))
    assert layout.slots_used <= 52


@pytest.mark.parametrize("players", [0, 1, MAX_PLAYERS + 1])
def test_impossible_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        deal_layout(players)


@pytest.mark.parametrize(("cut", "reduced"), [(0, 0), (17, 17), (52, 0), (53, 1), (-1, 51)])
def test_cut_is_reduced_mod_52_and_maps_slots(cut: int, reduced: int) -> None:
    deck = seeded_deck(1)
    assert deck.apply_cut(cut) == reduced
    assert deck.cut == reduced
    assert [deck.position(k) for k in range(52)] == [(reduced + k) % 52 for k in range(52)]


def test_a_huge_cut_is_fine() -> None:
    deck = seeded_deck(1)
    assert deck.apply_cut(10**40 + 5) == (10**40 + 5) % 52


def test_deal_follows_the_committed_order_after_the_cut() -> None:
    uncut = [o.card for o in seeded_deck(2).opening(range(52))]
    deck = seeded_deck(2)
    deck.apply_cut(40)
    dealt = [deck.deal(k) for k in range(52)]
    assert [p for p, _ in dealt] == [*range(40, 52), *range(40)]
    assert [c for _, c in dealt] == uncut[40:] + uncut[:40]


def test_cut_once_deal_after() -> None:
    deck = seeded_deck(3)
    with pytest.raises(DealingError):
        deck.deal(0)
    deck.apply_cut(5)
    with pytest.raises(DealingError):
        deck.apply_cut(6)
    with pytest.raises(DealingError):
        deck.apply_random_cut()
    with pytest.raises(ValueError):
        deck.deal(52)


@pytest.mark.parametrize("bad", [True, 1.5, "3"])
def test_a_cut_is_an_integer(bad: object) -> None:
    with pytest.raises(TypeError):
        seeded_deck(3).apply_cut(bad)  # type: ignore[arg-type]


def test_random_cut_on_timeout() -> None:
    deck = seeded_deck(4)
    assert deck.apply_random_cut(randbelow=lambda n: 23) == 23
    assert 0 <= seeded_deck(4).apply_random_cut() < 52
