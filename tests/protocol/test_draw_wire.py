"""The five-card draw wire (docs/protocol.md "Five-card draw"): additive, validated frames.

A hold'em ``turn`` or ``hand_start`` encodes as before (no draw field), a ``draw`` is checked
like every client frame, and its cards are parsed by the table command with a stable code."""

from __future__ import annotations

import msgpack
import pytest

from protocol import messages as m
from protocol.codec import decode_client, decode_server, encode, to_wire
from protocol.errors import ErrorCode, ProtocolError
from server.engine import parse_card
from server.table.commands import Conn, DrawCards, from_message


def _frame(**fields: object) -> bytes:
    return msgpack.packb(fields, use_bin_type=True)  # type: ignore[no-any-return]


def test_a_draw_decodes_with_its_cards_and_decision() -> None:
    msg = decode_client(_frame(t="draw", table="d", hand=3, cards=["Kd", "2h"], decision=41))
    assert msg == m.Draw(table="d", hand=3, cards=("Kd", "2h"), decision=41)
    pat = decode_client(_frame(t="draw", table="d", hand=3))
    assert isinstance(pat, m.Draw) and pat.cards == ()  # standing pat


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"cards": ["Ah", "Kd", "Qc", "Js", "Th", "9d"]}, ErrorCode.OUT_OF_RANGE),
        ({"cards": "Ah"}, ErrorCode.BAD_TYPE),
        ({"cards": [1, 2]}, ErrorCode.BAD_TYPE),
        ({"discard": ["Ah"]}, ErrorCode.UNKNOWN_FIELD),
    ],
)
def test_a_malformed_draw_is_refused_with_a_stable_code(
    fields: dict[str, object], code: ErrorCode
) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(_frame(t="draw", table="d", hand=3, **fields))
    assert refused.value.code == code


def test_a_card_name_that_is_no_card_is_bad_card() -> None:
    conn = Conn(cid="c1", player="p1")
    cmd = from_message(conn, m.Draw(table="d", hand=1, cards=("Ah", "td"), decision=5))
    cards = (parse_card("Ah"), parse_card("Td"))
    assert cmd == DrawCards(conn=conn, hand=1, discard=cards, decision=5)
    with pytest.raises(ProtocolError) as refused:
        from_message(conn, m.Draw(table="d", hand=1, cards=("Ah", "Zz"), id=7))
    assert refused.value.code == ErrorCode.BAD_CARD
    assert refused.value.ref == 7


def test_holdem_frames_carry_no_draw_field() -> None:
    turn = m.Turn(table="t", hand=1, seat=2, call=100, can_check=False, decision=9)
    assert set(to_wire(turn)) == {
        "t", "table", "hand", "seat", "call", "can_check", "can_fold", "can_raise",
        "remaining_ms", "decision",
    }  # fmt: skip
    start = m.HandStart(
        table="t", seq=1, hand=1, button=1, big_blind=2, blinds=(50, 100, 0), stacks={}
    )
    assert "stub_commit" not in to_wire(start)


def test_draw_server_frames_round_trip() -> None:
    frames = [
        m.Turn(
            table="t", hand=1, seat=2, call=0, can_fold=False, decision=9, draw=True,
            max_discard=5, cards=("Ah", "Kd", "7c", "7s", "2h"),
        ),
        m.DrewEvent(table="t", seq=4, hand=1, seat=2, count=3, reshuffled=12),
        m.DrawnEvent(
            table="t", seq=5, hand=1, seat=2, discarded=("Kd",), received=("Qs",),
            cards=("Ah", "Qs", "7c", "7s", "2h"),
        ),
        m.HoleCards(table="t", seq=3, hand=1, seat=2, cards=("Ah", "Kd", "7c", "7s", "2h")),
        m.HandStart(
            table="t", seq=1, hand=1, button=1, big_blind=2, blinds=(50, 100, 0), stacks={},
            commitment="ab", stub_commit="cd",
        ),
    ]  # fmt: skip
    for frame in frames:
        assert decode_server(encode(frame)) == frame
