"""Fair dealing of five-card draw (fpc « LE FIVE-CARD DRAW », issue 31): the committed deck
covers the five cards each, the burn card, the replacement cards in the order the players
draw and a new stub's committed order; the record opens the cards shown and nothing else."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.draw import replacement_positions, stub_commitment, stub_ranks
from protocol.verify import check_opening, verify_record
from server.dealing import DealingError, DrawDeal, Drawn, draw_layout, draws_of
from server.engine import Blinds, Game, HandSetup, SeatSetup, card_name, load_profile
from server.engine.events import StubReshuffled
from tests.dealing.conftest import seeded_deck
from tests.dealing.drawplay import play, table_record


def test_the_draw_layout_deals_five_rounds_then_burns_then_the_stub() -> None:
    layout = draw_layout(3)
    assert layout.hole == ((0, 3, 6, 9, 12), (1, 4, 7, 10, 13), (2, 5, 8, 11, 14))
    assert layout.burn == 15
    assert layout.stub == tuple(range(16, 52))
    nine = draw_layout(9)
    assert nine.burn == 45 and nine.stub == (46, 47, 48, 49, 50, 51)
    for bad in (1, 10):
        with pytest.raises(ValueError, match=r"2\.\.9"):
            draw_layout(bad)


def test_the_setup_holds_the_committed_cards_after_the_cut() -> None:
    deck = seeded_deck(5)
    deal = DrawDeal(deck, [3, 1, 2], bytes(range(32)))
    root, commit = deal.root_hex, deal.stub_commit_hex  # published before the cut
    assert commit == stub_commitment(bytes(range(32))).hex()
    with pytest.raises(DealingError):
        deal.hand_setup({1: "a", 2: "b", 3: "c"})
    assert deal.cut(60) == 8
    names = {1: "a", 2: "b", 3: "c"}
    setup = deal.hand_setup(
        names,
        profile=load_profile("fpc"),
        blinds=Blinds(sb=50, bb=100),
        seats=tuple(SeatSetup(player=names[s], seat=s, stack=1000) for s in (1, 2, 3)),
        button=2,
    )
    assert isinstance(setup, HandSetup) and setup.game is Game.DRAW and setup.board == ()
    setup.validate()
    assert setup.hole["c"] == tuple(deck.deal(s)[1] for s in (0, 3, 6, 9, 12))  # left of button
    assert setup.hole["b"] == tuple(deck.deal(s)[1] for s in (2, 5, 8, 11, 14))
    assert setup.burn == deck.deal(15)[1]
    assert setup.stub == tuple(deck.deal(s)[1] for s in range(16, 52))
    ranks = stub_ranks(bytes(range(32)))
    # a new stub's order: the cards of the positions in the committed rank order
    positions = sorted(range(52), key=ranks.__getitem__)
    assert setup.reshuffle == tuple(deck.deal((p - 8) % 52)[1] for p in positions)
    assert deal.root_hex == root and "stub_commit" in repr(deal) and "salt" not in repr(deal)
    with pytest.raises(ValueError, match="sets"):
        deal.hand_setup(names, board=())


def test_a_deal_refuses_a_bad_seed_or_a_seat_twice() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        DrawDeal(seeded_deck(1), [1, 2], b"short")
    with pytest.raises(ValueError, match="twice"):
        DrawDeal(seeded_deck(1), [1, 1], bytes(32))


def test_a_played_hand_verifies_and_opens_only_the_hands_shown() -> None:
    played = play(3, players=4)
    record = played.record
    assert record["game"] == "draw" and record["board"] == []
    assert verify_record(record) == []
    assert len(record["opened"]) == 5 * len(record["shown"])
    # each shown hand is the engine's final five cards
    for seat, cards in record["shown"].items():
        name = f"p{seat}"
        assert cards == _names(played.hand.hole[played.hand.index[name]])


def _names(cards: tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def test_private_openings_of_the_own_cards_and_the_cards_drawn() -> None:
    played = play(11, players=3, discards=[2, 3, 1], fold_rate=0.0)
    deal, cut = played.deal, played.record["cut"]
    for k, seat in enumerate(deal.order):
        proof = deal.hole_proof(seat)
        assert [o["card"] for o in proof] == _names(deal.hole(seat))
        for slot, opening in zip(deal.layout.hole[k], proof, strict=True):
            assert check_opening(opening, deal.root_hex, expected_position=(cut + slot) % 52) == []
    draws = draws_of(played.hand.events, played.seat_of)
    for drawn in draws:
        proof = deal.draw_proof(draws, drawn.seat)
        assert [o["card"] for o in proof] == _names(drawn.received)
        assert all(check_opening(o, deal.root_hex) == [] for o in proof)


def test_the_engine_dealing_other_cards_than_committed_is_a_dealing_error() -> None:
    played = play(4, players=3, discards=[2, 0, 1], fold_rate=0.0)
    draws = draws_of(played.hand.events, played.seat_of)
    first = draws[0]
    wrong = Drawn(seat=first.seat, discarded=first.discarded, received=first.received[::-1])
    with pytest.raises(DealingError, match="commitment"):
        played.deal.fairness([wrong, *draws[1:]])
    with pytest.raises(ValueError, match="not dealt in"):
        played.deal.fairness(draws, shown=[7])


def test_a_new_stub_follows_the_committed_order_and_verifies() -> None:
    played = play(7, players=9, discards=[5] * 9, fold_rate=0.0)
    reshuffles = sum(isinstance(e, StubReshuffled) for e in played.hand.events)
    assert reshuffles >= 1
    assert verify_record(played.record) == []


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 9),
    cut=st.integers(0, 51),
    many=st.booleans(),
    stack=st.sampled_from((150, 400, 5000)),
)
def test_every_random_draw_hand_verifies_and_deals_a_card_twice_only_from_a_new_stub(
    seed: int, players: int, cut: int, many: bool, stack: int
) -> None:
    """Random hands (2-9 players, all-ins before the draw now and then, a new stub when
    most players draw four or five): every record verifies, chips included; a card is dealt
    twice only through a new stub, never back to the player who discarded it."""
    rng = random.Random(seed)
    discards = [rng.choice((4, 5)) for _ in range(players)] if many else None
    played = play(
        seed,
        players=players,
        cut=cut,
        discards=discards,
        fold_rate=0.05,
        allin_rate=0.1,
        stack=stack,
    )
    assert verify_record(table_record(played)) == []
    record = played.record
    assert verify_record(record) == []
    # opened: exactly the hands shown, five distinct positions each
    assert len(record["opened"]) == 5 * len(record["shown"])
    deal = played.deal
    stub = {(cut + s) % 52 for s in deal.layout.stub}
    burn = (cut + deal.layout.burn) % 52
    dealt: set[int] = {(cut + s) % 52 for five in deal.layout.hole for s in five}
    discarded: set[int] = set()  # discards and the burn card: dealt again only by a new stub
    position_of = {deal.deck.deal(k)[1]: (cut + k) % 52 for k in range(52)}
    draws = draws_of(played.hand.events, played.seat_of)
    received, reshuffles = replacement_positions(
        players,
        cut=cut,
        seed=bytes.fromhex(record["stub_seed"]),
        discards=[[position_of[c] for c in d.discarded] for d in draws],
    )
    assert reshuffles == sum(isinstance(e, StubReshuffled) for e in played.hand.events)
    for d, positions in zip(draws, received, strict=True):
        own = {position_of[c] for c in d.discarded}
        for p in positions:
            if p in stub and p not in dealt:
                dealt.add(p)
            else:  # again: only a discard of an earlier player, or the burn card, after a new stub
                assert reshuffles and (p in discarded or p == burn), (p, record["draws"])
                assert p not in own
                discarded.discard(p)
        discarded |= own
    # no card held twice at the end
    finals = [c for cards in played.hand.hole for c in cards]
    assert len(finals) == len(set(finals))
