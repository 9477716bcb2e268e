"""A hand run two or three times, replayed by PokerKit's own engine (its runout-count
selection: ``State.select_runout_count``) from our signed record: each run's part of the pot
goes to the same player, and the final stacks are ours (fpc multi-bordes: « Le pot est divisé
en trois, le gagnant de chaque tirage remporte le tiers de pot correspondant »).

PokerKit's PokerStars *parser* does not read the FIRST/SECOND/THIRD boards of a multi-run
hand (nor does the `poker` package): the text is checked line by line in
tests/dealing/test_runs_record.py, and here the chips by an independent engine."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.dealing import Signer
from server.engine.commands import AgreeRuns

from .test_runs_record import deal, flop_allin, preflop_allin, record_of

pokerkit = pytest.importorskip("pokerkit")

# PokerKit warns when a card it already dealt on another run is dealt again (each run's cards
# are fresh here; its own deck bookkeeping does not follow runs dealt from outside)
pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt")

UNIT = 25
"""The smallest chip: where a pot does not split evenly, the odd chips may go elsewhere
(fpc 19-12 / tda 19-F from the button's left; PokerKit gives them its own way)."""


def replay(record: dict[str, Any]) -> dict[str, int]:
    """PokerKit's final stacks, by seat, for a heads-up record run several times."""
    automations = tuple(
        a for a in pokerkit.Automation if a not in (
            pokerkit.Automation.HOLE_DEALING,
            pokerkit.Automation.BOARD_DEALING,
            pokerkit.Automation.RUNOUT_COUNT_SELECTION,
        )
    )  # fmt: skip
    stacks = {p["seat"]: p["stack"] for p in record["players"]}
    button = record["button"]
    big = next(s for s in stacks if s != button)
    order = [big, button]  # heads-up: PokerKit's first player is the big blind
    blinds = record["blinds"]
    state = pokerkit.NoLimitTexasHoldem.create_state(
        automations,
        True,
        0,
        (blinds["sb"], blinds["bb"]),
        blinds["bb"],
        tuple(stacks[s] for s in order),
        2,
        mode=pokerkit.Mode.CASH_GAME,
    )
    holes = record["shown"]
    for seat in order:
        state.deal_hole("".join(holes[str(seat)]))
    runs = [record["board"], *record["run_boards"]]
    dealt_streets = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
    voluntary = [a for a in record["actions"] if not a["action"].startswith("post_")]
    shared = 0
    for action in voluntary:
        shared = max(shared, dealt_streets[action["street"]])
        while len(state.board_cards) < shared:
            step = 3 if not state.board_cards else 1
            state.deal_board(
                "".join(runs[0][len(state.board_cards) : len(state.board_cards) + step])
            )
        if action["action"] in ("check", "call") or (
            action["action"] == "allin" and action["to"] <= max(state.bets)
        ):
            state.check_or_call()
        elif action["action"] == "fold":
            state.fold()
        else:
            state.complete_bet_or_raise_to(action["to"])
    while state.can_select_runout_count():
        state.select_runout_count(len(runs))
    first = len(state.board_cards)  # out before the runs: none (preflop) or the flop
    for board in runs:  # PokerKit deals each run to the river, then goes back for the next
        cards = board if len(board) == 5 else [*runs[0][:3], *board]
        for lo, hi in ((0, 3), (3, 4), (4, 5)):
            if hi > first:
                state.deal_board("".join(cards[max(lo, first) : hi]))
    assert not state.status, "PokerKit did not finish the hand"
    return {seat: state.stacks[i] for i, seat in enumerate(order)}


def assert_same(record: dict[str, Any]) -> None:
    ours = {int(s): v for s, v in record["final_stacks"].items()}
    theirs = replay(record)
    assert sum(theirs.values()) == sum(ours.values())
    runs = 1 + len(record["run_boards"])
    for seat, stack in ours.items():
        assert abs(theirs[seat] - stack) <= UNIT * runs, (seat, theirs, ours)


@pytest.fixture(scope="module")
def signer(tmp_path_factory: pytest.TempPathFactory) -> Signer:
    return Signer.load_or_create(tmp_path_factory.mktemp("keys") / "server.pem")


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_three_runs_from_preflop_split_as_pokerkit_splits_them(signer: Signer, seed: int) -> None:
    dealt, hand = deal(seed=seed, runs=3)
    preflop_allin(hand)
    record = record_of(dealt, hand, signer)
    assert len(record["run_boards"]) == 2
    assert_same(record)


@pytest.mark.parametrize("seed", [18, 19, 20])
def test_two_runs_from_the_flop_split_as_pokerkit_splits_them(signer: Signer, seed: int) -> None:
    dealt, hand = deal(seed=seed, runs=2, agreed=True)
    flop_allin(hand)
    hand.agree_runs(AgreeRuns(player="1", runs=2))
    hand.agree_runs(AgreeRuns(player="2", runs=2))
    record = record_of(dealt, hand, signer)
    assert len(record["run_boards"]) == 1
    assert_same(record)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.booleans())
def test_any_deal_run_several_times_ends_with_pokerkits_stacks(
    signer: Signer, seed: int, preflop: bool
) -> None:
    if preflop:
        dealt, hand = deal(seed=seed, runs=3)
        preflop_allin(hand)
    else:
        dealt, hand = deal(seed=seed, runs=3)
        flop_allin(hand)
    assert_same(record_of(dealt, hand, signer))
