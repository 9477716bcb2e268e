"""Moves between the cash tables of a room (server/cash/moves.py), each rule quoted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.cash import CashBook, cash_rules
from server.cash.ledger import Move
from server.cash.moves import (
    MoveKind,
    balance_pick,
    move_terms,
    next_after_big_blind,
    waits_for_the_button,
)
from server.engine.positions import Positions

CASINO = cash_rules("casino", sb=25, bb=50, min_buyin=1000, max_buyin=5000)
FPC = cash_rules("fpc", sb=25, bb=50)


def test_a_casino_change_brings_at_most_the_new_maximum_and_pays_the_seat_fee_again() -> None:
    # casino cash: « il ne pourra pas apporter un tapis supérieur à la cave maximum de sa
    # nouvelle table et devra payer de nouveau son droit de siège »
    terms = move_terms(MoveKind.CHANGE, 7_300, CASINO)
    assert (terms.brought, terms.returned, terms.seat_fee, terms.approval) == (
        5000,
        2300,
        True,
        True,
    )
    small = move_terms(MoveKind.CHANGE, 1_200, CASINO)
    assert (small.brought, small.returned) == (1200, 0)


def test_balanced_or_merged_players_bring_their_whole_stack_even_above_the_maximum() -> None:
    # casino cash: « si une table est équilibrée ou fusionnée, il doit apporter son tapis
    # complet et ce même s'il dépasse la cave maximum de la table »
    for kind in (MoveKind.BALANCE, MoveKind.MERGE):
        terms = move_terms(kind, 9_000, CASINO)
        assert (terms.brought, terms.returned, terms.seat_fee, terms.approval) == (
            9000,
            0,
            False,
            False,
        )


def test_an_fpc_player_changes_table_at_will_with_all_his_chips() -> None:
    # fpc cash: « Le joueur peut changer de table, pour cela il doit poser aussitôt ses
    # jetons à sa nouvelle place »
    terms = move_terms(MoveKind.CHANGE, 8_000, FPC)
    assert (terms.brought, terms.returned, terms.seat_fee, terms.approval) == (
        8000,
        0,
        False,
        False,
    )


def test_balancing_moves_from_the_fullest_table_the_players_after_its_big_blind() -> None:
    # casino cash: « on déplacera le ou les prochains joueurs après la grosse blind de la
    # table comprenant le plus de joueurs »
    assert balance_pick({"a": 9, "b": 4}, {"a": 0, "b": 5}) == ("a", "b", 2)
    assert balance_pick({"a": 6, "b": 5}, {"a": 3, "b": 4}) is None  # one apart: balanced
    assert balance_pick({"a": 8, "b": 2, "c": 5}, {"a": 1, "b": 1, "c": 4}) == ("a", "b", 1)
    assert next_after_big_blind([1, 2, 4, 5, 7, 9], big_blind=5, count=2, max_seats=9) == [7, 9]
    assert next_after_big_blind([1, 2, 4], big_blind=4, count=2, max_seats=9) == [1, 2]
    assert next_after_big_blind([3, 6], big_blind=None, count=1, max_seats=6) == [3]


def test_a_moved_player_between_the_small_blind_and_the_button_waits_for_it_to_pass() -> None:
    # casino cash: « Ce même joueur ne pourra pas recevoir de cartes s'il se trouve placé
    # entre la petite blind et le bouton, auquel cas il devra attendre que le bouton passe »
    positions = Positions(button=3, sb_slot=4, big_blind=6)
    assert waits_for_the_button(3, positions) and waits_for_the_button(4, positions)
    assert not waits_for_the_button(6, positions) and not waits_for_the_button(1, positions)


@given(st.dictionaries(st.sampled_from("abcd"), st.integers(0, 10), min_size=2))
def test_a_balancing_plan_never_overfills_and_always_narrows_the_gap(
    counts: dict[str, int],
) -> None:
    free = {t: 10 - n for t, n in counts.items()}
    plan = balance_pick(counts, free)
    if plan is None:
        return
    source, target, moved = plan
    assert 1 <= moved <= free[target]
    assert counts[source] - moved >= counts[target] + moved - 1  # never the other way round


def test_moving_is_not_a_cash_out_nor_a_purchase_and_each_ledger_balances() -> None:
    here, there = CashBook(FPC), CashBook(FPC)
    here.buy_in("a", "Ann", 3_000, 0, 0.0)
    here.buy_in("b", "Bob", 2_000, 0, 0.0)
    assert here.move_out("a", 4_200, "t2", 10.0) is not None  # won 1,200 of Bob's here
    there.move_in("a", "Ann", 4_200, "t1", 10.0)
    assert here.ledger.imbalance([800]) == 0 and there.ledger.imbalance([4_200]) == 0
    # fpc: no 30-minute wait after a move (it is not a « décave »), and the chips moved in
    # are not bought (the 5,000 cap a session counts buy-ins)
    assert here.refusal("a", 500, 0, 20.0) is None
    assert there.ledger.bought("a") == 0
    assert [e.move for e in there.ledger.entries] == [Move.MOVED_IN]
    assert there.ledger.entries[0].other == "t1" and here.ledger.entries[-1].other == "t2"
