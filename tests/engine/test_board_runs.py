"""The runs of the board as a value of its own (issue 30): :class:`BoardRuns` alone, without a
hand: when the runs are due, the answers, the runs chosen, the boards of the runs."""

from __future__ import annotations

import pytest

from server.engine.errors import ErrorCode, RuleError
from server.engine.runs import RULE_AGREED, BoardRuns
from server.engine.streets import Street

BOARD = (0, 1, 2, 3, 4)
EXTRA = ((10, 11, 12, 13, 14), (20, 21, 22, 23, 24))


def runs(most: int = 3, agreed: bool = True) -> BoardRuns:
    return BoardRuns(most=most, agreed=agreed, board=BOARD, extra_boards=EXTRA[: most - 1])


def test_due_only_with_two_in_the_pot_no_more_betting_and_the_turn_to_come() -> None:
    r = runs()
    assert r.due(in_pot=2, able=1, street=Street.PREFLOP)
    assert r.due(in_pot=2, able=0, street=Street.FLOP)
    assert not r.due(in_pot=3, able=0, street=Street.PREFLOP)  # « deux joueurs »
    assert not r.due(in_pot=2, able=2, street=Street.PREFLOP)
    assert not r.due(in_pot=2, able=0, street=Street.TURN)  # « pré-flop ou avant la turn »
    assert not runs(most=1).due(in_pot=2, able=0, street=Street.PREFLOP)
    decided, _ = r.choose(2, RULE_AGREED, "")
    assert not decided.due(in_pot=2, able=0, street=Street.PREFLOP)


def test_each_step_is_a_new_value_the_old_one_unchanged() -> None:
    r = runs().begin(Street.FLOP)
    after, chosen = r.answer(0, 3, in_pot=2)
    assert chosen is None and r.answers == () and after.answers == ((0, 3),)
    final, chosen = after.answer(1, 3, in_pot=2)
    assert chosen is not None and (chosen.runs, chosen.street, chosen.note) == (3, "turn", "")
    assert (final.count, final.decided, after.count, after.decided) == (3, True, 1, False)


@pytest.mark.parametrize(
    ("first", "second", "count", "note"),
    [(2, 2, 2, ""), (2, 3, 1, "not the same number")],
)
def test_several_runs_only_if_both_name_the_same_number(
    first: int, second: int, count: int, note: str
) -> None:
    r, _ = runs().answer(0, first, in_pot=2)
    r, chosen = r.answer(1, second, in_pot=2)
    assert chosen is not None and (r.count, chosen.runs, chosen.note) == (count, count, note)


def test_a_refusal_ends_the_wait_at_once() -> None:
    r, chosen = runs().answer(1, 1, in_pot=2)
    assert chosen is not None and (r.count, chosen.note) == (1, "refused")


def test_a_second_answer_or_a_number_out_of_range_is_refused() -> None:
    r, _ = runs().answer(0, 2, in_pot=2)
    with pytest.raises(RuleError) as exc:
        r.verify_answer(0, 2)
    assert exc.value.code is ErrorCode.DECLARATION_BINDS
    for bad in (0, 4, True, "2"):
        with pytest.raises(RuleError) as exc:
            r.verify_answer(1, bad)
        assert exc.value.code is ErrorCode.BAD_AMOUNT
    assert r.verify_answer(1, 3) == 3


def test_boards_of_the_runs_from_the_flop_or_the_turn() -> None:
    preflop, _ = runs().begin(Street.PREFLOP).choose(3, RULE_AGREED, "")
    assert [preflop.board_of(k) for k in (1, 2, 3)] == [BOARD, EXTRA[0], EXTRA[1]]
    assert [(d.run, d.street) for d in preflop.dealt()] == [
        (run, street) for run in (2, 3) for street in ("flop", "turn", "river")
    ]
    flop, _ = runs().begin(Street.FLOP).choose(2, RULE_AGREED, "")
    assert flop.board_of(2) == (0, 1, 2, 13, 14)  # the flop stays, a fresh turn and river
    assert [(d.run, d.street, d.cards) for d in flop.dealt()] == [
        (2, "turn", (13,)),
        (2, "river", (14,)),
    ]
