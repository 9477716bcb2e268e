"""Several runs of the board: fpc cash "multi-bordes" and the friends' run it twice.

fpc, LE CASH GAME, « Particularité : le multi-bordes »: « Si et seulement si, deux joueurs
sont impliqués dans un tapis pré-flop ou avant la turn, il sera fait 3 tirages. Le pot est
divisé en trois, le gagnant de chaque tirage remporte le tier de pot correspondant. Tapis
pré-flop: 3 tirages complets (flop, turn, rivier) sont faits. Les cartes des tirages
précédents restent sur la table. Tapis avant la turn: 3 tirages turn et rivier sont faits. Le
flop reste identique pour les 3 tirages. » Odd chips: fpc 19-12 read with the runs in the
place of the players (one each to the first runs), casino/egalite: all to run 1.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.engine import (
    Act,
    Blinds,
    ErrorCode,
    Hand,
    HandSetup,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    SetupError,
    Verb,
    load_profile,
    parse_card,
)
from server.engine.commands import AgreeRuns
from server.engine.events import (
    BoardDealt,
    HoleDealt,
    PotAwarded,
    Returned,
    RunDealt,
    RunRanked,
    RunsAnswered,
    RunsChosen,
    RunsOffered,
)
from server.engine.rake import Rake

HOLE = {"A": "AsAh", "B": "KsKh", "C": "2h3h"}
BOARD = "2c7d9hJs3c"
"""Run 1: the aces win (a pair of aces against a pair of kings)."""
KINGS = "Kd8c4s2d5h"
"""A run the kings win (three kings)."""
ACES_UP = "QdQs6c8dTc"
"""A run the aces win (aces and queens against kings and queens)."""
STRAIGHT = "5c6d7h8s9c"
"""A run both play the board's straight: a tie."""


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(text[k : k + 2]) for k in range(0, len(text), 2))


def make(
    *,
    profile: str = "fpc",
    stacks: dict[str, int] | None = None,
    runs: int = 3,
    agreed: bool = False,
    extra: tuple[str, ...] = (KINGS, ACES_UP),
    board: str = BOARD,
    button: int = 1,
    rake: Rake | None = None,
) -> Hand:
    stacks = stacks or {"A": 10000, "B": 10000}
    names = list(stacks)
    return Hand(
        HandSetup(
            profile=load_profile(profile),
            blinds=Blinds(sb=25, bb=50),  # fpc cash: « Les Blinds sont de 25/50 jetons »
            seats=tuple(
                SeatSetup(player=n, seat=k + 1, stack=stacks[n]) for k, n in enumerate(names)
            ),
            button=button,
            hole={n: (parse_card(HOLE[n][:2]), parse_card(HOLE[n][2:])) for n in names},
            board=cards(board),
            runs=runs,
            runs_agreed=agreed,
            extra_boards=tuple(cards(e) for e in extra[: runs - 1]),
            denominations=(25, 100, 500, 1000, 5000),
            rake=rake,
        )
    )


def act(hand: Hand, player: str, verb: str, amount: int | None = None) -> None:
    hand.act(Act(player=player, say=Say(verb=Verb(verb), amount=amount)))


def snapshot(hand: Hand) -> dict[str, Any]:
    """The hand's whole state (containers copied; their items are immutable)."""
    return {
        k: copy.copy(v) if isinstance(v, list | dict | set) else v
        for k, v in hand.__dict__.items()
        if k not in ("setup", "profile")
    }


def of(hand: Hand, kind: type) -> list[Any]:
    return [e for e in hand.events if isinstance(e, kind)]


def allin_preflop(hand: Hand) -> None:
    act(hand, "A", "allin")  # heads-up: the button A is the small blind and speaks first
    act(hand, "B", "call")


def dealt_cards(hand: Hand) -> list[int]:
    """Every card the hand dealt: hole cards, run 1's streets and the other runs'."""
    dealt = [c for e in of(hand, HoleDealt) for c in e.cards]
    dealt += [c for e in of(hand, BoardDealt) for c in e.cards]
    return dealt + [c for e in of(hand, RunDealt) for c in e.cards]


# --------------------------------------------------------------------------- fpc multi-bordes


def test_fpc_multi_bordes_preflop_allin_three_complete_boards_pot_in_thirds() -> None:
    """fpc cash: « Tapis pré-flop: 3 tirages complets (flop, turn, rivier) », « le gagnant
    de chaque tirage remporte le tier de pot correspondant »: A wins runs 1 and 3, B run 2."""
    hand = make()
    allin_preflop(hand)
    assert hand.phase is Phase.FINISHED
    (chosen,) = of(hand, RunsChosen)
    assert (chosen.runs, chosen.street, chosen.rule) == (3, "flop", "fpc-cash-multi-bordes")
    assert [(e.street, e.cards) for e in of(hand, BoardDealt)] == [
        ("flop", cards("2c7d9h")),
        ("turn", cards("Js")),
        ("river", cards("3c")),
    ]
    assert [(e.run, e.street, e.cards) for e in of(hand, RunDealt)] == [
        (2, "flop", cards("Kd8c4s")),
        (2, "turn", cards("2d")),
        (2, "river", cards("5h")),
        (3, "flop", cards("QdQs6c")),
        (3, "turn", cards("8d")),
        (3, "river", cards("Tc")),
    ]
    ranked = {e.run: dict(e.hands) for e in of(hand, RunRanked)}
    assert ranked[2] == {"A": "Pair", "B": "Trips"}
    assert hand.boards() == [cards(BOARD), cards(KINGS), cards(ACES_UP)]
    # 20000 in units of 25: 800 = 3 x 266 + 2, the two odd units to runs 1 and 2 (fpc 19-12)
    awards = [(e.run, e.amount, e.winners, e.shares) for e in of(hand, PotAwarded)]
    assert awards == [
        (1, 6675, ("A",), (("A", 6675),)),
        (2, 6675, ("B",), (("B", 6675),)),
        (3, 6650, ("A",), (("A", 6650),)),
    ]
    assert hand.stacks() == {"A": 13325, "B": 6675}
    # the pot's winners, from the button's left (heads-up: the big blind B first)
    assert [(p.amount, p.winners) for p in hand.pots()] == [(20000, ("B", "A"))]


def test_fpc_multi_bordes_flop_allin_the_flop_stays_three_turns_and_rivers() -> None:
    """fpc cash: « Tapis avant la turn: 3 tirages turn et rivier sont faits. Le flop reste
    identique pour les 3 tirages. » The runs' own flop cards are never dealt (cdc 3.6)."""
    hand = make(extra=("4c4d4hKd8c", "5c5d5hQdQs"))
    act(hand, "A", "call")
    act(hand, "B", "check")
    act(hand, "B", "allin")  # after the flop the big blind speaks first heads-up
    act(hand, "A", "call")
    (chosen,) = of(hand, RunsChosen)
    assert (chosen.runs, chosen.street) == (3, "turn")
    assert [(e.run, e.street, e.cards) for e in of(hand, RunDealt)] == [
        (2, "turn", cards("Kd")),
        (2, "river", cards("8c")),
        (3, "turn", cards("Qd")),
        (3, "river", cards("Qs")),
    ]
    flop = cards("2c7d9h")
    assert hand.boards() == [cards(BOARD), flop + cards("Kd8c"), flop + cards("QdQs")]
    assert not set(cards("4c4d4h5c5d5h")) & set(dealt_cards(hand))
    assert [(e.run, e.winners) for e in of(hand, PotAwarded)] == [
        (1, ("A",)),
        (2, ("B",)),
        (3, ("A",)),
    ]
    assert hand.stacks() == {"A": 13325, "B": 6675}


def test_every_card_is_dealt_once_across_the_runs() -> None:
    """« Les cartes des tirages précédents restent sur la table »: fresh cards each run."""
    hand = make()
    allin_preflop(hand)
    dealt = dealt_cards(hand)
    assert len(dealt) == 4 + 15 == len(set(dealt))


def test_a_tied_run_splits_its_part_as_usual() -> None:
    """Run 2 is the board's straight for both: its part splits, the odd chip to the first
    winner left of the button (fpc 19-12): heads-up, the big blind B."""
    hand = make(extra=(STRAIGHT, ACES_UP))
    allin_preflop(hand)
    awards = [(e.run, e.amount, e.shares) for e in of(hand, PotAwarded)]
    assert awards == [
        (1, 6675, (("A", 6675),)),
        (2, 6675, (("B", 3350), ("A", 3325))),
        (3, 6650, (("A", 6650),)),
    ]
    assert of(hand, PotAwarded)[1].rule == "fpc-19-12"
    assert hand.stacks() == {"A": 16650, "B": 3350}


def test_odd_chips_casino_rule_gives_the_whole_remainder_to_run_one() -> None:
    """casino/egalite: « celui-ci sera attribué au joueur [...] le plus à gauche »: read
    with the runs in the players' place, both odd units go to run 1."""
    hand = make(profile="casino")
    allin_preflop(hand)
    assert [e.amount for e in of(hand, PotAwarded)] == [6700, 6650, 6650]


def test_uncalled_chips_are_returned_before_the_pot_is_divided() -> None:
    hand = make(stacks={"A": 10000, "B": 4000})
    allin_preflop(hand)
    assert [(e.player, e.amount) for e in of(hand, Returned)] == [("A", 6000)]
    # 8000 = 320 units of 25 = 3 x 106 + 2
    assert [e.amount for e in of(hand, PotAwarded)] == [2675, 2675, 2650]
    assert hand.stacks() == {"A": 6000 + 2675 + 2650, "B": 2675}


def test_the_rake_is_taken_from_the_pot_before_the_split_into_runs() -> None:
    """The house's share comes off the whole pot once (casino cash « la taille »); the rest
    is divided into the runs; the rake is written on run 1's part."""
    hand = make(rake=Rake(permille=50))
    allin_preflop(hand)
    awards = [(e.run, e.amount, e.rake, sum(s for _, s in e.shares)) for e in of(hand, PotAwarded)]
    # 5 % of 20000 = 1000; 19000 = 760 units = 3 x 253 + 1
    assert awards == [(1, 6350 + 1000, 1000, 6350), (2, 6325, 0, 6325), (3, 6325, 0, 6325)]
    assert sum(hand.stack) + hand.rake_taken() == 20000


def test_a_third_player_all_in_for_less_means_one_run() -> None:
    """« Si et seulement si, deux joueurs »: three players in the pot, one run."""
    hand = make(stacks={"A": 10000, "B": 10000, "C": 1000}, button=3)
    act(hand, "C", "allin")  # three-handed: the button C speaks first, A SB, B BB
    act(hand, "A", "allin")
    act(hand, "B", "call")
    assert hand.phase is Phase.FINISHED
    assert not of(hand, RunsChosen) and not of(hand, RunDealt)
    assert {e.run for e in of(hand, PotAwarded)} == {1}
    assert hand.boards() == [cards(BOARD)]


def test_two_players_left_after_a_fold_are_run_three_times() -> None:
    """The test is on the state when betting ends: C folded, A and B are all-in preflop."""
    hand = make(stacks={"A": 10000, "B": 10000, "C": 10000}, button=3)
    act(hand, "C", "fold")
    act(hand, "A", "allin")
    act(hand, "B", "call")
    assert [e.runs for e in of(hand, RunsChosen)] == [3]
    assert len(of(hand, PotAwarded)) == 3


def test_a_pot_only_one_player_can_win_is_not_divided() -> None:
    """C all-in for 500; B folds on the flop after putting in more: the side pot of B's and
    A's chips over 500 is A's alone (one part), the main pot is divided into the runs."""
    hand = make(stacks={"A": 10000, "B": 10000, "C": 500}, button=3)
    act(hand, "C", "allin")
    act(hand, "A", "raise", 3000)
    act(hand, "B", "call")
    act(hand, "A", "bet", 1000)  # flop: C all-in, A speaks first after the button
    act(hand, "B", "fold")
    assert [(e.runs, e.street) for e in of(hand, RunsChosen)] == [(3, "turn")]
    awards = [(e.index, e.run, e.amount, e.winners) for e in of(hand, PotAwarded)]
    side = 2 * (3000 - 500)
    assert (1, 1, side, ("A",)) in awards
    assert sorted(a[1] for a in awards if a[0] == 0) == [1, 2, 3]
    assert sum(a[2] for a in awards if a[0] == 0) == 3 * 500
    assert sum(hand.stack) == 20500


def test_an_allin_on_the_turn_is_run_once() -> None:
    """« pré-flop ou avant la turn »: the turn dealt, one run."""
    hand = make()
    act(hand, "A", "call")
    act(hand, "B", "check")
    act(hand, "B", "check")
    act(hand, "A", "check")
    act(hand, "B", "allin")
    act(hand, "A", "call")
    assert hand.phase is Phase.FINISHED
    assert not of(hand, RunsChosen) and not of(hand, RunDealt)
    assert [e.run for e in of(hand, PotAwarded)] == [1]


def test_fpc_tournament_tables_deal_one_run() -> None:
    """The multi-bordes is in the cash-game section only: ``runs`` defaults to 1."""
    hand = make(runs=1)
    allin_preflop(hand)
    assert not of(hand, RunsChosen) and [e.run for e in of(hand, PotAwarded)] == [1]


# --------------------------------------------------------------------------- run it twice


def friends(**kw: Any) -> Hand:
    return make(profile="cdc", runs=2, agreed=True, **kw)


def test_run_it_twice_when_both_agree() -> None:
    hand = friends()
    allin_preflop(hand)
    assert hand.phase is Phase.RUNS and hand.menu() is None
    (offer,) = of(hand, RunsOffered)
    assert (offer.players, offer.most, offer.street) == (("A", "B"), 2, "flop")
    assert not of(hand, BoardDealt)  # waiting before the flop
    assert hand.runs_awaited() == ("A", "B")
    events = hand.agree_runs(AgreeRuns(player="B", runs=2))
    assert events == [RunsAnswered(player="B", runs=2)] and hand.runs_awaited() == ("A",)
    hand.agree_runs(AgreeRuns(player="A", runs=2))
    assert hand.phase is Phase.FINISHED
    assert [(e.runs, e.rule) for e in of(hand, RunsChosen)] == [(2, "runs-agreed")]
    assert [(e.run, e.amount, e.winners) for e in of(hand, PotAwarded)] == [
        (1, 10000, ("A",)),
        (2, 10000, ("B",)),
    ]
    assert hand.stacks() == {"A": 10000, "B": 10000}


def test_run_it_twice_one_refusal_means_one_run_at_once() -> None:
    hand = friends()
    allin_preflop(hand)
    hand.agree_runs(AgreeRuns(player="A", runs=1))
    assert hand.phase is Phase.FINISHED  # no need to wait for B
    assert [(e.runs, e.note) for e in of(hand, RunsChosen)] == [(1, "refused")]
    assert not of(hand, RunDealt) and [e.run for e in of(hand, PotAwarded)] == [1]
    assert hand.stacks() == {"A": 20000, "B": 0}


def test_run_it_twice_agreed_then_refused_means_one_run() -> None:
    hand = friends()
    allin_preflop(hand)
    hand.agree_runs(AgreeRuns(player="A", runs=2))
    hand.agree_runs(AgreeRuns(player="B", runs=1))
    assert [e.runs for e in of(hand, RunsChosen)] == [1] and hand.phase is Phase.FINISHED


def test_run_it_twice_different_numbers_mean_one_run() -> None:
    hand = make(profile="cdc", runs=3, agreed=True)
    allin_preflop(hand)
    hand.agree_runs(AgreeRuns(player="A", runs=3))
    hand.agree_runs(AgreeRuns(player="B", runs=2))
    assert [(e.runs, e.note) for e in of(hand, RunsChosen)] == [(1, "not the same number")]


def test_run_it_twice_on_the_flop_and_the_clock_ending_the_wait() -> None:
    hand = friends()
    act(hand, "A", "call")
    act(hand, "B", "check")
    act(hand, "B", "allin")
    act(hand, "A", "call")
    assert hand.phase is Phase.RUNS and of(hand, RunsOffered)[0].street == "turn"
    hand.agree_runs(AgreeRuns(player="A", runs=2))
    hand.runs_timeout()  # B never answered: one run
    assert [(e.runs, e.note) for e in of(hand, RunsChosen)] == [(1, "no answer: one run")]
    assert hand.phase is Phase.FINISHED and len(hand.board) == 5


def test_an_agreement_outside_the_window_is_refused_and_changes_nothing() -> None:
    hand = friends(stacks={"A": 10000, "B": 10000, "C": 10000}, button=3)
    before = snapshot(hand)
    with pytest.raises(RuleError) as refused:  # betting still going on
        hand.agree_runs(AgreeRuns(player="A", runs=2))
    assert refused.value.code is ErrorCode.RUNS_NOT_OFFERED
    with pytest.raises(RuleError):
        hand.runs_timeout()
    assert snapshot(hand) == before
    act(hand, "C", "fold")
    act(hand, "A", "allin")
    act(hand, "B", "call")
    assert hand.phase is Phase.RUNS
    before = snapshot(hand)
    for command, code in [
        (AgreeRuns(player="C", runs=2), ErrorCode.NOT_IN_HAND),  # folded
        (AgreeRuns(player="Z", runs=2), ErrorCode.UNKNOWN_PLAYER),
        (AgreeRuns(player="A", runs=3), ErrorCode.BAD_AMOUNT),  # more than offered
        (AgreeRuns(player="A", runs=0), ErrorCode.BAD_AMOUNT),
    ]:
        with pytest.raises(RuleError) as refused:
            hand.agree_runs(command)
        assert refused.value.code is code
        assert snapshot(hand) == before
    with pytest.raises(RuleError) as refused:  # no betting while the hand waits
        act(hand, "A", "check")
    assert refused.value.code is ErrorCode.NOT_BETTING
    hand.agree_runs(AgreeRuns(player="A", runs=2))
    before = snapshot(hand)
    with pytest.raises(RuleError) as refused:  # one answer each
        hand.agree_runs(AgreeRuns(player="A", runs=1))
    assert refused.value.code is ErrorCode.DECLARATION_BINDS and snapshot(hand) == before
    hand.agree_runs(AgreeRuns(player="B", runs=2))
    before = snapshot(hand)
    with pytest.raises(RuleError) as refused:  # the hand is over
        hand.agree_runs(AgreeRuns(player="B", runs=2))
    assert refused.value.code is ErrorCode.HAND_OVER and snapshot(hand) == before


def test_an_agreement_at_a_table_that_does_not_ask_is_refused() -> None:
    """fpc cash deals its 3 runs without asking; an answer changes nothing."""
    hand = make()
    act(hand, "A", "allin")
    before = snapshot(hand)
    with pytest.raises(RuleError) as refused:
        hand.agree_runs(AgreeRuns(player="B", runs=3))
    assert refused.value.code is ErrorCode.RUNS_NOT_OFFERED and snapshot(hand) == before


def test_cancelling_while_waiting_returns_every_chip() -> None:
    hand = friends()
    allin_preflop(hand)
    hand.cancel()  # cdc 5.4
    assert hand.phase is Phase.CANCELLED and hand.stacks() == {"A": 10000, "B": 10000}


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("runs", "extra"),
    [
        (3, (KINGS,)),  # one board missing
        (2, (KINGS, ACES_UP)),  # one too many
        (4, (KINGS, ACES_UP, STRAIGHT)),  # three runs at most
        (0, ()),
        (2, ("Kd8c4s2d",)),  # four cards
        (2, ("2c8c4s2d5h",)),  # 2c is on run 1's board: fresh cards each run
        (2, ("As8c4s2d5h",)),  # As is A's hole card
        (3, (KINGS, "Kd6c6d6h6s")),  # Kd in two runs
    ],
)
def test_impossible_runs_are_refused_at_set_up(runs: int, extra: tuple[str, ...]) -> None:
    seats = (SeatSetup(player="A", seat=1, stack=1000), SeatSetup(player="B", seat=2, stack=1000))
    with pytest.raises(SetupError):
        Hand(
            HandSetup(
                profile=load_profile("fpc"),
                blinds=Blinds(sb=25, bb=50),
                seats=seats,
                button=1,
                hole={
                    "A": (parse_card("As"), parse_card("Ah")),
                    "B": (parse_card("Ks"), parse_card("Kh")),
                },
                board=cards(BOARD),
                runs=runs,
                extra_boards=tuple(cards(e) for e in extra),
            )
        )
