"""The hand record's actions: every chip put in is written, each action where it took effect.

Played on the pure table (cdc profile, 4 players at seats 1-4, blinds 50/100): wherever the
button was drawn, ``_seats`` names the first to speak, the button and the two blinds.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.chips import chip_problems
from protocol.verify import verify_record
from server.table.phases import TablePhase
from tests.store.playhands import play_session

from .pure import Pure


def _table() -> Pure:
    p = Pure(seed=7, profile="cdc")
    p.seat_players(4)
    p.start_hand()
    return p


def _seats(p: Pure) -> tuple[int, int, int, int]:
    """(first to speak, button, small blind, big blind) of the hand in play."""
    positions = p.table.positions
    assert positions is not None and positions.small_blind
    return p.to_act(), positions.button, positions.sb_slot, positions.big_blind


def _record(p: Pure) -> dict[str, Any]:
    p.until(TablePhase.BETWEEN)
    records = [b.record[1] for b in p.net.store if b.record is not None]
    assert records
    record = records[-1]
    assert chip_problems(record) == []
    assert verify_record(record) == []
    return record


def _moves(record: dict[str, Any]) -> list[tuple[str, int, str, int]]:
    return [
        (a["street"], a["seat"], a["action"], a["added"])
        for a in record["actions"]
        if not a["action"].startswith("post_")
    ]


def test_an_undersized_chip_then_a_call_is_written_with_the_call() -> None:
    """cdc 9.12: a single chip below the call goes in, then the player calls or folds. The
    record writes one call with both (the chip used to vanish: lines adding up to less than
    the pot)."""
    p = _table()
    first = p.to_act()
    p.act(first, "raise", amount=1000)
    second = p.to_act()
    p.act(second, None, chips=(500,))  # facing 1000: one 500 chip, below the call
    assert p.to_act() == second  # call or fold
    p.act(second, "call")
    p.play_out("fold")
    record = _record(p)
    assert (("preflop", second, "call", 1000)) in _moves(record)


def test_an_undersized_chip_then_a_fold_leaves_dead_chips_in_the_record() -> None:
    p = _table()
    first = p.to_act()
    p.act(first, "raise", amount=1000)
    second = p.to_act()
    p.act(second, None, chips=(500,))
    p.act(second, "fold")
    p.play_out("fold")
    record = _record(p)
    assert ("preflop", second, "fold", 500) in _moves(record)
    assert sum(pot["amount"] for pot in record["pots"]) == 1000 + 500 + 50 + 100 - sum(
        r["amount"] for r in record["returned"]
    )


def test_a_fold_out_of_turn_is_written_where_the_turn_reaches_the_player() -> None:
    """cdc 9.3: a fold out of turn binds; it takes effect when the action reaches the player,
    and a hand history that wrote it where it was made would credit it to the wrong moment
    (readers replaying the betting reject the hand)."""
    p = _table()
    first, button, small, big = _seats(p)
    p.act(small, "fold")  # the small blind folds before the first player and the button
    p.act(first, "call")
    p.act(button, "call")
    p.act(big, "check")  # the big blind's option closes the round
    p.play_out("check")
    record = _record(p)
    preflop = [m for m in _moves(record) if m[0] == "preflop"]
    assert [(seat, action) for _, seat, action, _ in preflop] == [
        (first, "call"),
        (button, "call"),
        (small, "fold"),
        (big, "check"),
    ]
    fold = next(a for a in record["actions"] if a["action"] == "fold")
    assert fold["out_of_turn"] is True


def test_a_fold_out_of_turn_with_nothing_to_call_waits_for_the_players_next_turn() -> None:
    """A player who has called, then folds out of turn while the others finish the round,
    is not reached again on that street: his fold is written at his next turn, on the flop
    (the same chips: his call stays in the pot)."""
    p = _table()
    first, button, small, big = _seats(p)
    p.act(first, "call")
    p.act(button, "call")
    p.act(first, "fold")  # he has called: nothing to call now, out of turn
    p.act(small, "call")
    p.act(big, "check")
    p.play_out("check")
    record = _record(p)
    moves = _moves(record)
    assert ("preflop", first, "call", 100) in moves
    flop = [(seat, action) for street, seat, action, _ in moves if street == "flop"]
    assert flop[:3] == [(small, "check"), (big, "check"), (first, "fold")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    profile=st.sampled_from(("tda", "cdc", "ligue", "casino", "fpc")),
    ante=st.sampled_from((("none", 0), ("classic", 25), ("button", 50), ("big_blind", 100))),
    players=st.integers(2, 6),
)
def test_every_signed_record_adds_up(
    seed: int, profile: str, ante: tuple[str, int], players: int
) -> None:
    """Property: whatever the gestures (legal actions, folds and declarations out of turn,
    undersized chips, all-ins; tests/store/playhands.py), under every profile and ante format,
    each signed record's actions put in exactly its pots plus the chips returned, each final
    stack follows from the player's lines, and the record verifies."""
    session = play_session(
        hands=12,
        seed=seed,
        players=players,
        profile=profile,
        ante=ante[1],
        ante_format=ante[0],
    )
    assert session.records
    for record in session.records:
        assert chip_problems(record) == [], (record["hand"], record["actions"])
        assert verify_record(record) == []
