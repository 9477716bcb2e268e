"""Who shows and who mucks as a value of its own (issue 30: :class:`Showing`, no hand)."""

from __future__ import annotations

from server.engine.showing import Showing


def test_each_step_is_a_new_value() -> None:
    start = Showing()
    ordered = start.ordered([2, 0, 1])
    assert (ordered.order, ordered.first) == ((2, 0, 1), 2)
    assert (start.order, start.first) == ((), -1)
    mucked = ordered.mucking(0)
    assert mucked.contenders([0, 1, 2]) == [1, 2] and ordered.contenders([0, 1, 2]) == [0, 1, 2]


def test_a_hand_shown_after_a_muck_is_shown() -> None:
    showing = Showing().mucking(1).showing(1)
    assert showing.shown == {1} and not showing.mucked


def test_face_up_shows_every_live_hand() -> None:
    showing = Showing().showing(3).turned_face_up([0, 1])
    assert showing.face_up and showing.shown == {0, 1, 3}
