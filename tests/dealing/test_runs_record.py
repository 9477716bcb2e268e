"""Hands dealt in several runs (fpc cash multi-bordes, run it twice), from a committed deck to
a signed record that ``protocol.verify`` checks, and their PokerStars text.

fpc, LE CASH GAME, « le multi-bordes »: « Les cartes des tirages précédents restent sur la
table »: every run's cards are committed positions of the deck dealt before the cut, each
opened in the record; nothing undealt is opened (no rabbit hunting, cdc 3.6): neither a run
that was not dealt, nor the flop of a run from the flop (« Le flop reste identique »).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from protocol.runs import run_board_slots, run_burn_slots
from protocol.verify import verify_record
from server.dealing import MAX_PLAYERS, Deck, Signer, deal_layout, fairness_fields
from server.engine import (
    Act,
    Blinds,
    Hand,
    HandSetup,
    Say,
    SeatSetup,
    Verb,
    card_name,
    load_profile,
)
from server.engine.commands import AgreeRuns
from server.engine.events import Acted, BoardDealt, Posted, PotAwarded, Returned, RunDealt
from server.engine.state import Street
from server.store.export import to_pokerstars
from server.table.dealer import CsprngHand

from .conftest import seeded_deck

SEATS = (1, 2)
"""Heads-up, the button on seat 1: seat 2 gets the first card, the button is last."""


@pytest.fixture(scope="module")
def signer(tmp_path_factory: pytest.TempPathFactory) -> Signer:
    return Signer.load_or_create(tmp_path_factory.mktemp("keys") / "server.pem")


def deal(seed: int, runs: int, agreed: bool = False) -> tuple[CsprngHand, Hand]:
    deck = seeded_deck(seed)
    dealt = CsprngHand(deck, [2, 1], cutter=2)
    dealt.cut(seed * 7)
    hand = Hand(
        HandSetup(
            profile=load_profile("fpc" if not agreed else "cdc"),
            blinds=Blinds(sb=25, bb=50),
            seats=tuple(SeatSetup(player=str(s), seat=s, stack=10000) for s in SEATS),
            button=1,
            hole={str(s): dealt.hole(s) for s in SEATS},
            board=dealt.board(),
            runs=runs,
            runs_agreed=agreed,
            extra_boards=dealt.extra_boards(runs),
            denominations=(25, 100, 500, 1000, 5000),
        )
    )
    return dealt, hand


def act(hand: Hand, seat: int, verb: str) -> None:
    hand.act(Act(player=str(seat), say=Say(verb=Verb(verb))))


def preflop_allin(hand: Hand) -> None:
    act(hand, 1, "allin")
    act(hand, 2, "call")


def flop_allin(hand: Hand) -> None:
    act(hand, 1, "call")
    act(hand, 2, "check")
    act(hand, 2, "allin")
    act(hand, 1, "call")


_POSTS = {"small_blind": "post_sb", "big_blind": "post_bb", "ante": "post_ante"}


def record_of(dealt: CsprngHand, hand: Hand, signer: Signer) -> dict[str, Any]:
    """The signed record of a finished hand, as a table writes it (``pots`` by run part)."""
    actions: list[dict[str, Any]] = []
    street = "preflop"
    for e in hand.events:
        if isinstance(e, BoardDealt):
            street = e.street
        elif isinstance(e, Posted):
            actions.append(
                {"street": street, "seat": int(e.player), "name": f"p{e.player}"}
                | {"action": _POSTS[e.kind], "to": e.amount, "added": e.amount}
            )
        elif isinstance(e, Acted):
            actions.append(
                {"street": street, "seat": int(e.player), "name": f"p{e.player}"}
                | {"action": e.action, "to": e.to, "added": e.added, "allin": e.allin}
            )
    record: dict[str, Any] = {
        "table": "cash",
        "table_name": "Cash",
        "hand": 1,
        "profile": hand.profile.id,
        "blinds": {"sb": 25, "bb": 50, "ante": 0, "ante_format": "none"},
        "max_seats": 9,
        "button": 1,
        "players": [{"seat": s, "name": f"p{s}", "stack": 10000} for s in SEATS],
        "actions": actions,
        "returned": [
            {"seat": int(e.player), "amount": e.amount}
            for e in hand.events
            if isinstance(e, Returned)
        ],
        "pots": [
            {
                "index": e.index,
                "run": e.run,
                "amount": e.amount,
                "rake": e.rake,
                "winners": [int(w) for w in e.winners],
                "shares": [[int(p), s] for p, s in e.shares],
            }
            for e in hand.events
            if isinstance(e, PotAwarded)
        ],
        "final_stacks": {p: s for p, s in hand.stacks().items()},
        "mucked": [],
    }
    shown = sorted(int(hand.names[i]) for i in hand.shown)
    run_cards = 0 if hand.runs == 1 else (5 if hand.runs_from is Street.FLOP else 2)
    record.update(
        dealt.fairness(
            board_count=len(hand.board),
            shown=shown,
            runs_dealt=hand.runs,
            run_board_count=run_cards,
        )
    )
    return signer.sign_record(record)


def opened(record: dict[str, Any]) -> dict[int, str]:
    return {o["position"]: o["card"] for o in record["opened"]}


def positions(deck: Deck, slots: tuple[int, ...] | list[int]) -> set[int]:
    return {deck.position(s) for s in slots}


# --------------------------------------------------------------------------- the layout


def test_the_runs_take_eight_slots_each_after_the_river() -> None:
    layout = deal_layout(2, runs=3)
    assert layout.board == (5, 6, 7, 9, 11)
    assert layout.runs == ((13, 14, 15, 17, 19), (21, 22, 23, 25, 27))
    assert layout.run_burns == ((12, 16, 18), (20, 24, 26))
    assert layout.slots_used == 28
    every = [s for pair in layout.hole for s in pair] + [*layout.burns, *layout.board]
    every += [s for run in (*layout.runs, *layout.run_burns) for s in run]
    assert sorted(every) == list(range(28))
    assert deal_layout(6).runs == () and deal_layout(6).slots_used == 20  # unchanged
    assert run_board_slots(2, 1) == layout.board and run_burn_slots(2, 2) == (12, 16, 18)


@pytest.mark.parametrize(("players", "runs"), [(14, 3), (18, 2), (MAX_PLAYERS, 1)])
def test_the_runs_fit_the_deck(players: int, runs: int) -> None:
    assert deal_layout(players, runs=runs).slots_used <= 52


@pytest.mark.parametrize(("players", "runs"), [(15, 3), (19, 2), (2, 0), (2, 4)])
def test_runs_that_do_not_fit_are_refused(players: int, runs: int) -> None:
    with pytest.raises(ValueError):
        deal_layout(players, runs=runs)


# --------------------------------------------------------------------------- records


def test_a_three_run_preflop_record_verifies_and_opens_exactly_what_was_dealt(
    signer: Signer,
) -> None:
    dealt, hand = deal(seed=11, runs=3)
    preflop_allin(hand)
    assert hand.runs == 3 and hand.finished
    record = record_of(dealt, hand, signer)
    assert verify_record(record, signer.public_key_hex) == []
    assert record["runs"] == 3
    assert record["run_boards"] == [[card_name(c) for c in b] for b in hand.boards()[1:]]
    layout = deal_layout(2, runs=3)
    deck = dealt.deck
    expected = positions(deck, layout.board) | positions(deck, layout.hole[0] + layout.hole[1])
    expected |= positions(deck, layout.runs[0]) | positions(deck, layout.runs[1])
    assert set(opened(record)) == expected and len(expected) == 5 + 4 + 10
    assert len(set(opened(record).values())) == 19  # every card once across the runs
    assert record["slots"]["runs"] == [list(s) for s in layout.runs]
    assert [(p["run"], p["index"]) for p in record["pots"]] == [(1, 0), (2, 0), (3, 0)]


def test_a_flop_run_opens_only_the_turns_and_rivers(signer: Signer) -> None:
    dealt, hand = deal(seed=12, runs=3)
    flop_allin(hand)
    assert hand.runs == 3 and hand.runs_from is Street.TURN
    record = record_of(dealt, hand, signer)
    assert verify_record(record) == []
    assert [len(b) for b in record["run_boards"]] == [2, 2]
    deck, layout = dealt.deck, deal_layout(2, runs=3)
    run_flops = positions(deck, layout.runs[0][:3]) | positions(deck, layout.runs[1][:3])
    assert not run_flops & set(opened(record))
    assert len(record["opened"]) == 5 + 4 + 4
    # opening a run's flop, never dealt, is rabbit hunting (cdc 3.6)
    hunted = copy.deepcopy(record)
    hunted["opened"].append(deck.opening([deck.position(layout.runs[0][0])])[0].to_json())
    problems = verify_record(signer.sign_record(hunted))
    assert any("rabbit hunting" in p for p in problems), problems


def test_run_it_twice_agreed_and_refused_records(signer: Signer) -> None:
    dealt, hand = deal(seed=13, runs=2, agreed=True)
    preflop_allin(hand)
    hand.agree_runs(AgreeRuns(player="1", runs=2))
    hand.agree_runs(AgreeRuns(player="2", runs=2))
    record = record_of(dealt, hand, signer)
    assert record["runs"] == 2 and len(record["run_boards"]) == 1
    assert verify_record(record) == []

    dealt, hand = deal(seed=13, runs=2, agreed=True)
    preflop_allin(hand)
    hand.agree_runs(AgreeRuns(player="2", runs=1))
    record = record_of(dealt, hand, signer)
    assert "runs" not in record and "run_boards" not in record
    assert not any(isinstance(e, RunDealt) for e in hand.events)
    # the second run was laid out but never dealt: none of its cards is opened
    unused = positions(dealt.deck, deal_layout(2, runs=2).runs[0])
    assert not unused & set(opened(record))
    assert verify_record(record) == []


def test_a_tampered_run_card_fails_verification(signer: Signer) -> None:
    dealt, hand = deal(seed=14, runs=3)
    preflop_allin(hand)
    record = record_of(dealt, hand, signer)
    bad = copy.deepcopy(record)
    other = "As" if bad["run_boards"][1][2] != "As" else "2c"
    bad["run_boards"][1][2] = other
    assert any("signature" in p for p in verify_record(bad))
    problems = verify_record(signer.sign_record(bad))
    assert any(p.startswith("run 3 card 3") for p in problems), problems
    # the opening itself altered: the commitment does not move
    layout = deal_layout(2, runs=3)
    position = dealt.deck.position(layout.runs[0][4])
    bad = copy.deepcopy(record)
    for o in bad["opened"]:
        if o["position"] == position:
            o["card"] = "As" if o["card"] != "As" else "2c"
    problems = verify_record(signer.sign_record(bad))
    assert any("does not reach the root" in p for p in problems), problems


def test_rearranged_run_slots_or_a_missing_run_fail(signer: Signer) -> None:
    dealt, hand = deal(seed=15, runs=3)
    preflop_allin(hand)
    record = record_of(dealt, hand, signer)
    bad = copy.deepcopy(record)
    bad["slots"]["runs"][0] = [s + 1 for s in bad["slots"]["runs"][0]]
    problems = verify_record(signer.sign_record(bad))
    assert any("slots.runs" in p for p in problems), problems
    bad = copy.deepcopy(record)
    bad["run_boards"].pop()
    problems = verify_record(signer.sign_record(bad))
    assert any("run_boards must list" in p for p in problems), problems
    bad = copy.deepcopy(record)
    bad["runs"] = 1
    problems = verify_record(signer.sign_record(bad))
    assert any("hand dealt once" in p for p in problems), problems


def test_the_pot_must_be_divided_into_the_runs_and_the_chips_conserved(signer: Signer) -> None:
    dealt, hand = deal(seed=16, runs=3)
    preflop_allin(hand)
    record = record_of(dealt, hand, signer)
    assert [p["amount"] for p in record["pots"]] == [6675, 6675, 6650]
    # the odd chips given to the last run instead of the first: refused
    bad = copy.deepcopy(record)
    first, last = bad["pots"][0], bad["pots"][2]
    first["run"], last["run"] = 3, 1
    problems = verify_record(signer.sign_record(bad))
    assert any("a later run paid more" in p for p in problems), problems
    # a part missing: the chips do not add up and the runs are not all there
    bad = copy.deepcopy(record)
    bad["pots"].pop()
    problems = verify_record(signer.sign_record(bad))
    assert any("parts for runs [1, 2]" in p for p in problems), problems
    assert any("the actions put in" in p for p in problems), problems
    # a share altered
    bad = copy.deepcopy(record)
    bad["pots"][1]["shares"][0][1] += 25
    problems = verify_record(signer.sign_record(bad))
    assert any("shares pay" in p for p in problems), problems


def test_building_refuses_inconsistent_runs() -> None:
    deck = seeded_deck(17)
    deck.apply_cut(3)
    for kwargs in (
        {"layout": deal_layout(2), "runs_dealt": 2, "run_board_dealt": 5},  # not laid out
        {"layout": deal_layout(2, runs=3), "runs_dealt": 3, "run_board_dealt": 3},
        {"layout": deal_layout(2, runs=3), "runs_dealt": 1, "run_board_dealt": 5},
        {"layout": deal_layout(2, runs=3), "runs_dealt": 3, "run_board_dealt": 5, "board": 4},
    ):
        board = kwargs.pop("board", 5)
        with pytest.raises(ValueError):
            fairness_fields(deck=deck, order=[2, 1], board_dealt=board, **kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- PokerStars text


def test_pokerstars_text_of_three_runs_from_preflop(signer: Signer) -> None:
    dealt, hand = deal(seed=11, runs=3)
    preflop_allin(hand)
    record = record_of(dealt, hand, signer)
    text = to_pokerstars([record])
    lines = text.splitlines()
    b = [" ".join(run) for run in [record["board"], *record["run_boards"]]]
    first, second, third = (run.split() for run in b)
    expected_streets = [
        f"*** FIRST FLOP *** [{' '.join(first[:3])}]",
        f"*** FIRST TURN *** [{' '.join(first[:3])}] [{first[3]}]",
        f"*** FIRST RIVER *** [{' '.join(first[:4])}] [{first[4]}]",
        f"*** SECOND FLOP *** [{' '.join(second[:3])}]",
        f"*** SECOND TURN *** [{' '.join(second[:3])}] [{second[3]}]",
        f"*** SECOND RIVER *** [{' '.join(second[:4])}] [{second[4]}]",
        f"*** THIRD FLOP *** [{' '.join(third[:3])}]",
        f"*** THIRD TURN *** [{' '.join(third[:3])}] [{third[3]}]",
        f"*** THIRD RIVER *** [{' '.join(third[:4])}] [{third[4]}]",
    ]
    start = lines.index(expected_streets[0])
    assert lines[start : start + 9] == expected_streets
    assert "*** FLOP ***" not in text and "*** SHOW DOWN ***" not in text
    for name in ("FIRST", "SECOND", "THIRD"):
        assert f"*** {name} SHOW DOWN ***" in lines
    summary = lines[lines.index("*** SUMMARY ***") :]
    assert summary[1] == "Total pot 20000 | Rake 0"
    assert summary[2:6] == [
        "Hand was run three times",
        f"FIRST Board [{b[0]}]",
        f"SECOND Board [{b[1]}]",
        f"THIRD Board [{b[2]}]",
    ]
    won = {int(p["run"]): p["shares"] for p in record["pots"]}
    for seat in SEATS:
        line = next(x for x in summary if x.startswith(f"Seat {seat}: p{seat}"))
        assert line.count(", and ") == 2, line
        for run in (1, 2, 3):
            mine = sum(s for w, s in won[run] if w == seat)
            assert (f"won ({mine})" in line) if mine else ("lost" in line), line
    collected = [x for x in lines if " collected " in x]
    assert len(collected) == sum(len(s) for s in won.values())


def test_pokerstars_text_of_two_runs_from_the_flop(signer: Signer) -> None:
    dealt, hand = deal(seed=18, runs=2, agreed=True)
    flop_allin(hand)
    hand.agree_runs(AgreeRuns(player="1", runs=2))
    hand.agree_runs(AgreeRuns(player="2", runs=2))
    record = record_of(dealt, hand, signer)
    assert verify_record(record) == []
    lines = to_pokerstars([record]).splitlines()
    board, (turn, river) = record["board"], record["run_boards"][0]
    flop = " ".join(board[:3])
    start = lines.index(f"*** FLOP *** [{flop}]")
    assert [x for x in lines[start + 1 :] if x.startswith("***")][:5] == [
        f"*** FIRST TURN *** [{flop}] [{board[3]}]",
        f"*** FIRST RIVER *** [{' '.join(board[:4])}] [{board[4]}]",
        f"*** SECOND TURN *** [{flop}] [{turn}]",
        f"*** SECOND RIVER *** [{flop} {turn}] [{river}]",
        "*** FIRST SHOW DOWN ***",
    ]
    assert "Hand was run twice" in lines
    assert f"SECOND Board [{flop} {turn} {river}]" in lines
