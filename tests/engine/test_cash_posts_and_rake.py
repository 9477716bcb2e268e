"""Cash-game posts and the rake (casino cash rules, rulebook 003, "Règles applicables en Cash
Game"), in the pure engine, and in the hand record and its PokerStars export.

- casino cash [51], seat fee: « Tout joueur entrant en cours de partie sera tenu de mettre au
  minimum, comme droit de siège, le montant équivalent de la grosse blind »: a live post.
- casino cash [74], missed blinds: « sa grosse blind sera déposée devant sa case, comme un
  droit de siège et la petite blind sera mise directement dans le pot »: live big blind plus
  a dead small blind.
- casino cash [55], the rake: « La taille sera retenue sur le montant du « pot principal » et
  celui des « pots extérieurs » de chaque donne et ce même en cas d'égalité parfaite et lorsque
  le pot ne contient que les blinds. »
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from protocol.chips import chip_problems
from protocol.verify import verify_record
from server.dealing import FAIRNESS_FIELDS, Deck, Signer, deal_layout, hand_record
from server.engine import (
    Act,
    Blinds,
    Hand,
    HandSetup,
    Phase,
    Say,
    SeatSetup,
    SetupError,
    Street,
    Verb,
    card_name,
    load_profile,
    parse_card,
)
from server.engine.events import Acted, Posted, PostKind, PotAwarded, Returned
from server.engine.rake import Rake, pot_rakes, raked
from server.store.export import to_pokerstars
from server.table.translate import HandLog

FIVE = (5, 25, 100, 500, 1000, 5000)
"""Denominations with a 5 chip: small rakes are not rounded away."""


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(text[k : k + 2]) for k in range(0, len(text), 2))


def _pair(text: str) -> tuple[int, int]:
    return parse_card(text[:2]), parse_card(text[2:4])


def make(
    stacks: dict[str, int],
    *,
    button: int = 1,
    fees: dict[str, int] | None = None,
    dead: dict[str, int] | None = None,
    rake: Rake | None = None,
    hole: dict[str, str] | None = None,
    board: str = "2d7c9hJsQc",
    denominations: tuple[int, ...] = (25, 100, 500, 1000, 5000),
) -> Hand:
    """A casino hand; players sit at seats 1, 2, 3... in the order of ``stacks``."""
    names = list(stacks)
    fees, dead, hole = fees or {}, dead or {}, hole or {}
    used = set(_cards(board)) | {c for h in hole.values() for c in _cards(h)}
    spare = [c for c in range(52) if c not in used]
    holes = {n: _pair(hole[n]) if n in hole else (spare.pop(), spare.pop()) for n in names}
    return Hand(
        HandSetup(
            profile=load_profile("casino"),
            blinds=Blinds(sb=50, bb=100),
            seats=tuple(
                SeatSetup(
                    player=n,
                    seat=k + 1,
                    stack=stacks[n],
                    seat_fee=fees.get(n, 0),
                    dead_post=dead.get(n, 0),
                )
                for k, n in enumerate(names)
            ),
            button=button,
            hole=holes,
            board=_cards(board),
            denominations=denominations,
            rake=rake,
        )
    )


def say(hand: Hand, player: str, verb: Verb, amount: int | None = None) -> Acted:
    events = hand.act(Act(player=player, say=Say(verb=verb, amount=amount)))
    return next(e for e in events if isinstance(e, Acted) and e.player == player)


def to_act(hand: Hand) -> str:
    menu = hand.menu()
    assert menu is not None
    return menu.player


def check_down(hand: Hand) -> None:
    """Every remaining decision checks (or calls), then the showdown is decided."""
    while (menu := hand.menu()) is not None:
        say(hand, menu.player, Verb.CHECK if menu.can_check else Verb.CALL)
    hand.auto_showdown()
    assert hand.phase is Phase.FINISHED


def posts(hand: Hand) -> list[tuple[str, PostKind, int, bool]]:
    return [(e.player, e.kind, e.amount, e.allin) for e in hand.events if isinstance(e, Posted)]


def awarded(hand: Hand) -> list[PotAwarded]:
    return sorted((e for e in hand.events if isinstance(e, PotAwarded)), key=lambda e: e.index)


def conserved(hand: Hand, total: int) -> None:
    assert sum(hand.stack) + hand.rake_taken() == total
    for pot in awarded(hand):
        assert sum(s for _, s in pot.shares) + pot.rake == pot.amount


FOUR = {"A": 10000, "B": 10000, "C": 10000, "D": 10000}
"""Seats 1-4; with the button on seat 1: B small blind, C big blind, D first to speak."""


# ----------------------------------------------------------------------------- seat fee


def test_casino_cash_seat_fee_is_live_the_newcomer_checks_his_option_when_nobody_raised() -> None:
    """casino cash [51]: the newcomer's « droit de siège » of one big blind is his bet: the
    first to speak is still left of the big blind, and with nobody raising he may check."""
    hand = make(FOUR, fees={"A": 100})
    assert posts(hand) == [
        ("B", PostKind.SMALL_BLIND, 50, False),
        ("C", PostKind.BIG_BLIND, 100, False),
        ("A", PostKind.SEAT_FEE, 100, False),
    ]
    assert to_act(hand) == "D"  # the seat fee does not change who acts first
    assert say(hand, "D", Verb.CALL).added == 100
    menu = hand.menu()
    assert menu is not None and menu.player == "A"
    assert menu.call == 0 and menu.can_check and menu.can_raise
    assert menu.min_raise_to == 200  # casino « fausse relance »: the double of the bet
    assert say(hand, "A", Verb.CHECK).action == "check"
    assert say(hand, "B", Verb.CALL).added == 50
    menu = hand.menu()
    assert menu is not None and menu.player == "C" and menu.can_check  # the BB's option stays
    say(hand, "C", Verb.CHECK)
    assert hand.street is Street.FLOP
    assert hand.pot_total() == 400


def test_casino_cash_seat_fee_counts_toward_a_call_of_a_raise() -> None:
    """casino cash [51]: the fee is live: facing a raise to 300 he adds 200."""
    hand = make(FOUR, fees={"A": 100})
    say(hand, "D", Verb.RAISE, 300)
    acted = say(hand, "A", Verb.CALL)
    assert (acted.added, acted.to) == (200, 300)
    assert hand.contrib[hand.index["A"]] == 300


def test_casino_cash_seat_fee_short_of_chips_is_all_in_for_what_he_has() -> None:
    """A player short of the seat fee posts what he has and is all-in (as blinds do, cdc
    9.7): he never acts again and can win only what he matched."""
    hand = make({**FOUR, "A": 60}, fees={"A": 100})
    assert ("A", PostKind.SEAT_FEE, 60, True) in posts(hand)
    assert hand.allin[hand.index["A"]]
    say(hand, "D", Verb.CALL)
    assert to_act(hand) == "B"  # A, all-in, is skipped
    say(hand, "B", Verb.CALL)
    say(hand, "C", Verb.CHECK)
    assert [(p.amount, sorted(p.eligible)) for p in hand.pots()] == [
        (240, ["A", "B", "C", "D"]),
        (120, ["B", "C", "D"]),
    ]


def test_casino_cash_the_big_blind_with_a_seat_fee_posts_only_the_big_blind() -> None:
    hand = make(FOUR, fees={"C": 100})
    assert posts(hand) == [
        ("B", PostKind.SMALL_BLIND, 50, False),
        ("C", PostKind.BIG_BLIND, 100, False),
    ]


def test_casino_cash_a_small_blind_owing_a_seat_fee_completes_it_live() -> None:
    """His small blind counts toward the live seat fee: 50 more, one big blind in all."""
    hand = make(FOUR, fees={"B": 100})
    assert ("B", PostKind.SEAT_FEE, 50, False) in posts(hand)
    say(hand, "D", Verb.CALL)
    say(hand, "A", Verb.CALL)
    menu = hand.menu()
    assert menu is not None and menu.player == "B" and menu.call == 0 and menu.can_check


# ----------------------------------------------------------------------------- missed blinds


def test_casino_cash_missed_blinds_live_big_blind_and_dead_small_blind() -> None:
    """casino cash [74]: « sa grosse blind sera déposée devant sa case, comme un droit de siège
    et la petite blind sera mise directement dans le pot »: the dead 50 is in the pot, won by
    the winner, and not counted toward his call of a raise."""
    hand = make(
        FOUR,
        fees={"A": 100},
        dead={"A": 50},
        hole={"A": "8c3d", "D": "AsAh"},
    )
    assert posts(hand)[2:] == [
        ("A", PostKind.MISSED_BIG_BLIND, 100, False),  # his owed big blind, not a seat fee
        ("A", PostKind.DEAD_BLIND, 50, False),
    ]
    assert hand.committed[hand.index["A"]] == 100  # his bet: the live big blind only
    assert hand.pot_total() == 300  # SB 50 + BB 100 + seat fee 100 + dead 50
    say(hand, "D", Verb.RAISE, 300)
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and menu.call == 200  # not 150
    say(hand, "A", Verb.CALL)
    say(hand, "B", Verb.FOLD)
    say(hand, "C", Verb.FOLD)
    check_down(hand)
    (pot,) = awarded(hand)
    assert pot.amount == 300 + 300 + 50 + 100 + 50 and pot.winners == ("D",)
    assert hand.stacks()["D"] == 10000 - 300 + 800
    assert hand.stacks()["A"] == 10000 - 300 - 50


def test_casino_cash_dead_small_blind_goes_to_whoever_wins_when_its_poster_folds() -> None:
    hand = make(FOUR, fees={"D": 100}, dead={"D": 50})
    say(hand, "D", Verb.FOLD)
    say(hand, "A", Verb.FOLD)
    say(hand, "B", Verb.FOLD)
    assert hand.phase is Phase.FINISHED
    # C (big blind) wins the small blind, D's live fee and his dead small blind; his own
    # big blind is matched by D's fee: nothing is returned
    assert not [e for e in hand.events if isinstance(e, Returned)]
    assert hand.stacks()["C"] == 10000 + 50 + 100 + 50


def test_seat_posts_are_validated() -> None:
    for fees, dead in (({"A": -1}, {}), ({}, {"A": -25}), ({"A": 200}, {})):
        with pytest.raises(SetupError):
            make(FOUR, fees=fees, dead=dead)
    with pytest.raises(SetupError):
        make(FOUR, rake=Rake(permille=1001))
    with pytest.raises(SetupError):
        make(FOUR, rake=Rake(permille=50, cap=-1))


# ----------------------------------------------------------------------------- the rake


def test_raked_amount_rounds_down_to_the_smallest_chip_and_respects_the_hand_cap() -> None:
    five = Rake(permille=50)
    assert raked(1900, five, 25) == 75  # 95 rounded down to the 25 chip
    assert raked(1900, five, 5) == 95
    assert raked(100, five, 25) == 0  # 5: less than the smallest chip
    assert raked(10000, Rake(permille=50, cap=300), 25) == 300
    assert raked(10000, Rake(permille=50, cap=300), 25, already=250) == 50
    assert raked(10000, Rake(permille=50, cap=300), 25, already=300) == 0
    assert raked(10000, None, 25) == raked(10000, Rake(permille=0), 25) == 0
    assert pot_rakes([1500, 5000], Rake(permille=50, cap=100), 25) == [75, 25]


def test_casino_cash_rake_on_the_main_pot_and_on_the_side_pot() -> None:
    """casino cash [55]: « retenue sur le montant du pot principal et celui des pots
    extérieurs »: each pot is raked before it is shared."""
    stacks = {"A": 500, "B": 3000, "C": 3000}
    hole = {"A": "AsAh", "B": "KsKh", "C": "5s5h"}
    hand = make(stacks, rake=Rake(permille=50), hole=hole)
    say(hand, "A", Verb.ALLIN)
    say(hand, "B", Verb.ALLIN)
    say(hand, "C", Verb.CALL)
    hand.auto_showdown()
    main, side = awarded(hand)
    assert (main.amount, main.rake, main.shares) == (1500, 75, (("A", 1425),))
    assert (side.amount, side.rake, side.shares) == (5000, 250, (("B", 4750),))
    assert hand.stacks() == {"A": 1425, "B": 4750, "C": 0}
    conserved(hand, 6500)


def test_rake_cap_is_per_hand_main_pot_first() -> None:
    stacks = {"A": 500, "B": 3000, "C": 3000}
    hole = {"A": "AsAh", "B": "KsKh", "C": "5s5h"}
    hand = make(stacks, rake=Rake(permille=50, cap=100), hole=hole)
    say(hand, "A", Verb.ALLIN)
    say(hand, "B", Verb.ALLIN)
    say(hand, "C", Verb.CALL)
    hand.auto_showdown()
    assert [p.rake for p in awarded(hand)] == [75, 25]
    assert hand.rake_taken() == 100
    conserved(hand, 6500)


def test_casino_cash_rake_even_on_an_exact_tie_then_split() -> None:
    """casino cash [55]: « même en cas d'égalité parfaite »: the pot is raked, then split."""
    hand = make({"A": 1000, "B": 1000}, rake=Rake(permille=50), board="AsKsQsJsTs")
    say(hand, "A", Verb.ALLIN)
    say(hand, "B", Verb.CALL)
    hand.auto_showdown()
    (pot,) = awarded(hand)
    assert (pot.amount, pot.rake) == (2000, 100)
    assert sorted(pot.shares) == [("A", 950), ("B", 950)]
    conserved(hand, 2000)


def test_casino_cash_rake_on_a_pot_of_the_blinds_only() -> None:
    """casino cash [55]: « et lorsque le pot ne contient que les blinds »: everyone folds to
    the big blind; his uncalled 50 comes back unraked, the 100 matched are raked."""
    hand = make({"A": 10000, "B": 10000, "C": 10000}, rake=Rake(permille=100), denominations=FIVE)
    say(hand, "A", Verb.FOLD)
    say(hand, "B", Verb.FOLD)
    assert hand.phase is Phase.FINISHED
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Returned)] == [("C", 50)]
    (pot,) = awarded(hand)
    assert (pot.amount, pot.rake, pot.shares) == (100, 10, (("C", 90),))
    assert hand.stacks()["C"] == 10000 - 100 + 50 + 90
    conserved(hand, 30000)


def test_rake_rounds_down_to_the_smallest_chip_in_play() -> None:
    """5 % of 19,400 is 970: the house takes 950 in 25 chips (it makes no change)."""
    hole = {"A": "AsAh", "B": "3c4d"}
    hand = make({"A": 9700, "B": 9700}, rake=Rake(permille=50), hole=hole)
    say(hand, "A", Verb.ALLIN)
    say(hand, "B", Verb.CALL)
    hand.auto_showdown()
    (pot,) = awarded(hand)
    assert (pot.amount, pot.rake, pot.shares) == (19400, 950, (("A", 18450),))
    conserved(hand, 19400)


def test_an_uncalled_bet_is_returned_unraked() -> None:
    """Only the pot is raked: the bet nobody called goes back whole (it is not a pot)."""
    hand = make({"A": 10000, "B": 10000}, rake=Rake(permille=100), denominations=FIVE)
    say(hand, "A", Verb.CALL)  # heads-up: the button is the small blind (casino tête-à-tête)
    say(hand, "B", Verb.CHECK)
    assert hand.street is Street.FLOP
    say(hand, "B", Verb.BET, 1000)
    say(hand, "A", Verb.FOLD)
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Returned)] == [("B", 1000)]
    (pot,) = awarded(hand)
    assert (pot.amount, pot.rake) == (200, 20)
    assert hand.stacks() == {"A": 9900, "B": 10080}
    conserved(hand, 20000)


@pytest.mark.parametrize("rake", [None, Rake(permille=0), Rake(permille=0, cap=500)])
def test_no_rake_without_a_rake_or_at_zero(rake: Rake | None) -> None:
    """Friends tables and tournaments take nothing: the default."""
    hand = make({"A": 10000, "B": 10000}, rake=rake, denominations=FIVE)
    say(hand, "A", Verb.CALL)
    say(hand, "B", Verb.CHECK)
    say(hand, "B", Verb.BET, 1000)
    say(hand, "A", Verb.FOLD)
    (pot,) = awarded(hand)
    assert (pot.amount, pot.rake, pot.shares) == (200, 0, (("B", 200),))
    assert hand.rake_taken() == 0
    assert sum(hand.stack) == 20000


# ----------------------------------------------------------------------------- hand record


NAMES = {1: "ana", 2: "bob", 3: "cyd", 4: "dan"}
HOLE = {1: "AsAh", 2: "2c3d", 3: "4h5s", 4: "KsKd"}
BOARD = "2d7c9hJsQc"


def _deck(order_seats: list[int]) -> Deck:
    """A deck whose deal (cut 0) gives HOLE to the seats in ``order_seats`` and BOARD."""
    layout = deal_layout(len(order_seats))
    by_slot: dict[int, int] = {}
    for i, seat in enumerate(order_seats):
        for slot, card in zip(layout.hole[i], _cards(HOLE[seat]), strict=True):
            by_slot[slot] = card
    for slot, card in zip(layout.board, _cards(BOARD), strict=True):
        by_slot[slot] = card
    rest = iter(c for c in range(52) if c not in by_slot.values())
    order = [by_slot[s] if s in by_slot else next(rest) for s in range(52)]
    rng = random.Random(3)
    deck = Deck(order=order, salts=[rng.randbytes(16) for _ in range(52)])
    deck.apply_cut(0)
    return deck


def _cash_hand_record() -> tuple[dict[str, Any], Signer]:
    """A casino cash hand: ana (button) newcomer with a seat fee, dan back from an absence
    with his missed blinds; 5 % rake. Recorded as the table records it, then signed."""
    rake = Rake(permille=50)
    hand = Hand(
        HandSetup(
            profile=load_profile("casino"),
            blinds=Blinds(sb=50, bb=100),
            seats=(
                SeatSetup(player="1", seat=1, stack=10000, seat_fee=100),
                SeatSetup(player="2", seat=2, stack=10000),
                SeatSetup(player="3", seat=3, stack=10000),
                SeatSetup(player="4", seat=4, stack=10000, seat_fee=100, dead_post=50),
            ),
            button=1,
            hole={str(s): _pair(h) for s, h in HOLE.items()},
            board=_cards(BOARD),
            rake=rake,
        )
    )
    say(hand, "4", Verb.CHECK)  # his live seat fee is the big blind: nothing to call
    say(hand, "1", Verb.RAISE, 300)
    say(hand, "2", Verb.FOLD)
    say(hand, "3", Verb.CALL)
    say(hand, "4", Verb.CALL)
    say(hand, "3", Verb.CHECK)
    say(hand, "4", Verb.CHECK)
    say(hand, "1", Verb.BET, 500)
    say(hand, "3", Verb.FOLD)
    say(hand, "4", Verb.CALL)
    check_down(hand)
    log = HandLog(7, dict.fromkeys(NAMES, 10000), NAMES)
    log.translate(hand.events, lambda p: 0)
    board = [card_name(c) for c in hand.board]
    table_part = log.record(hand.events, board, {int(p): s for p, s in hand.stacks().items()})
    extra = {k: v for k, v in table_part.items() if k not in FAIRNESS_FIELDS | {"hand"}}
    extra.update(
        table_name="cash",
        started_at="2026-01-01T00:00:00Z",
        tournament=None,
        blinds={"sb": 50, "bb": 100, "ante": 0, "ante_format": "none"},
        max_seats=9,
        button=1,
    )
    order = [2, 3, 4, 1]
    unsigned = hand_record(
        table="cash",
        hand=7,
        profile="casino",
        deck=_deck(order),
        layout=deal_layout(4),
        order=order,
        board_dealt=len(board),
        shown=[int(s) for s in table_part["shown"]],
        extra=extra,
    )
    signer = Signer.generate()
    return signer.sign_record(unsigned), signer


def test_a_record_with_seat_fees_dead_blind_and_rake_verifies() -> None:
    record, _ = _cash_hand_record()
    posts = [(a["seat"], a["action"], a["added"]) for a in record["actions"][:5]]
    assert posts == [
        (2, "post_sb", 50),
        (3, "post_bb", 100),
        (4, "post_missed_bb", 100),  # back after missing both: his owed big blind, live
        (4, "post_dead", 50),  # ... and his missed small blind, dead
        (1, "post_seat_fee", 100),  # a newcomer's seat fee
    ]
    # preflop 50 + 3 * 300 + dead 50, flop 2 * 500: 2000, 5 % raked
    assert record["pots"] == [
        {"amount": 2000, "rake": 100, "winners": [1], "shares": [[1, 1900]], "index": 0}
    ]
    assert record["final_stacks"] == {"1": 10000 - 800 + 1900, "2": 9950, "3": 9700, "4": 9150}
    assert verify_record(record) == []


def test_the_verifier_checks_each_pot_shares_plus_rake() -> None:
    """A record that hides the rake (or invents one) does not add up."""
    record, signer = _cash_hand_record()
    for rake in (0, 200, -5, 2500):
        bad = {**record, "pots": [{**record["pots"][0], "rake": rake}]}
        assert chip_problems(bad), rake
        assert verify_record(signer.sign_record(bad))


def test_pokerstars_export_writes_seat_fees_missed_blinds_and_the_rake() -> None:
    record, _ = _cash_hand_record()
    text = to_pokerstars([record])
    lines = text.splitlines()
    assert "bob: posts small blind 50" in lines
    assert "cyd: posts big blind 100" in lines
    assert "dan: posts small & big blinds 150" in lines  # live 100 + dead 50
    assert "ana: posts big blind 100" in lines  # the newcomer's live seat fee
    assert "dan: checks" in lines
    assert "ana: raises 200 to 300" in lines
    assert "dan: calls 200" in lines  # his live seat fee counts, not his dead blind
    assert "ana collected 1900 from pot" in lines
    assert "Total pot 2000 | Rake 100" in lines
