"""The pots as pure functions of the chips put in (issue 30: :mod:`server.engine.pots`, no
hand needed)."""

from __future__ import annotations

from server.engine.pots import layers, split, uncalled
from server.engine.profile import SplitRemainder


def test_one_pot_when_nobody_is_all_in_for_less() -> None:
    pots, unwinnable = layers(
        [100, 100, 40], folded=[False, False, True], allin=[False] * 3, dead_money=25
    )
    assert pots == [(265, [0, 1])] and unwinnable == [0, 0, 0]


def test_a_side_pot_over_a_short_all_in_and_the_ante_in_the_main_pot() -> None:
    pots, unwinnable = layers(
        [300, 300, 100], folded=[False] * 3, allin=[False, False, True], dead_money=50
    )
    assert pots == [(350, [0, 1, 2]), (400, [0, 1])]  # the ante merged with the main pot
    assert unwinnable == [0, 0, 0]


def test_chips_no_live_player_can_win_go_back_to_their_owner() -> None:
    # cdc 4.2 ex. 2.1: the small blind folded over a big blind all-in for less
    pots, unwinnable = layers(
        [100, 60, 0], folded=[True, False, True], allin=[False, True, False], dead_money=0
    )
    assert pots == [(120, [1])] and unwinnable == [40, 0, 0]


def test_a_bet_not_called_yet_is_no_pot_in_the_view() -> None:
    pots, _ = layers([0, 200, 0], folded=[False] * 3, allin=[False] * 3, dead_money=0, view=True)
    assert pots == []
    pots, _ = layers([0, 200, 0], folded=[False] * 3, allin=[False] * 3, dead_money=0)
    assert pots == [(200, [0, 1, 2])]


def test_the_uncalled_part_of_the_top_bet_goes_back() -> None:
    assert uncalled([100, 400, 250], [False] * 3) == (1, 150)
    assert uncalled([400, 400, 0], [False] * 3) is None
    assert uncalled([0, 400, 100], [False, True, False]) is None  # folded: dead money
    assert uncalled([0, 0], [False, False]) is None


def test_odd_chips_one_each_from_the_left_or_all_to_the_first() -> None:
    assert split(350, 3, 25, SplitRemainder.SPREAD) == [125, 125, 100]
    assert split(350, 3, 25, SplitRemainder.FIRST) == [150, 100, 100]
    assert split(101, 2, 25, SplitRemainder.SPREAD) == [51, 50]  # chips below the unit
