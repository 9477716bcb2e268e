"""The codec refuses bad frames with stable codes and round-trips every message type."""

from __future__ import annotations

import dataclasses
import typing

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    CLIENT_MESSAGES,
    MAX_FRAME,
    SERVER_MESSAGES,
    ErrorCode,
    ProtocolError,
    decode_client,
    decode_server,
    encode,
)
from protocol.messages import Act, Chat, Hello, Ping


def sample(cls: type) -> object:
    """A valid instance of a message class, with every field set."""
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        text = str(tp)
        if "tuple[dict" in text:
            values[f.name] = ({"amount": 1, "eligible": [1]},)
        elif "tuple[int" in text:
            values[f.name] = (1,)
        elif "tuple[str" in text:
            values[f.name] = ("As",)
        elif "dict" in text:
            values[f.name] = {"k": 1}
        elif "bool" in text:
            values[f.name] = True
        elif "int" in text:
            values[f.name] = 1
        else:
            values[f.name] = "x"
    return cls(**values)


@pytest.mark.parametrize("cls", list(CLIENT_MESSAGES.values()), ids=lambda c: c.TYPE)
def test_client_messages_round_trip(cls: type) -> None:
    message = sample(cls)
    assert decode_client(encode(message)) == message  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", list(SERVER_MESSAGES.values()), ids=lambda c: c.TYPE)
def test_server_messages_round_trip(cls: type) -> None:
    message = sample(cls)
    assert decode_server(encode(message)) == message  # type: ignore[arg-type]


def code_of(frame: bytes | str) -> str:
    with pytest.raises(ProtocolError) as err:
        decode_client(frame)
    return err.value.code


def test_bad_frames_get_stable_codes() -> None:
    good = encode(Act(table="t", hand=1, verb="call"))
    assert code_of(b"\xc1") == ErrorCode.BAD_FRAME  # never-used msgpack byte
    assert code_of(good[:-3]) == ErrorCode.BAD_FRAME  # truncated
    assert code_of("hello") == ErrorCode.BAD_FRAME  # text frame
    assert code_of(msgpack.packb([1, 2])) == ErrorCode.BAD_FRAME
    assert code_of(msgpack.packb({"t": "nope"})) == ErrorCode.UNKNOWN_TYPE
    assert code_of(msgpack.packb({"t": "act", "table": "t"})) == ErrorCode.MISSING_FIELD
    assert code_of(msgpack.packb({"t": "act", "table": "t", "hand": 1, "x": 1})) == (
        ErrorCode.UNKNOWN_FIELD
    )
    assert code_of(msgpack.packb({"t": "act", "table": 5, "hand": 1})) == ErrorCode.BAD_TYPE
    assert code_of(msgpack.packb({"t": "act", "table": "t", "hand": True})) == ErrorCode.BAD_TYPE
    assert code_of(msgpack.packb({"t": "act", "table": "t", "hand": -5})) == (
        ErrorCode.OUT_OF_RANGE
    )
    assert code_of(encode(Chat(table="t", text="x" * 500))[:-1] + b"xx") in (
        ErrorCode.BAD_FRAME,
        ErrorCode.OUT_OF_RANGE,
    )
    assert code_of(b"\x00" * (MAX_FRAME + 1)) == ErrorCode.FRAME_TOO_LARGE
    chips = msgpack.packb({"t": "act", "table": "t", "hand": 1, "chips": [25] * 201})
    assert code_of(chips) == ErrorCode.OUT_OF_RANGE


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data: bytes) -> None:
    try:
        decode_client(data)
    except ProtocolError as err:
        assert err.code in {c.value for c in ErrorCode}


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=8),
        st.one_of(st.integers(-(2**63), 2**63 - 1), st.text(), st.none()),
        max_size=6,
    )
)
def test_random_maps_never_crash(data: dict[str, object]) -> None:
    data = {"t": "hello", **data}
    try:
        message = decode_client(msgpack.packb(data))
    except ProtocolError:
        return
    assert isinstance(message, Hello)


def test_ping_minimal() -> None:
    assert decode_client(encode(Ping(nonce=7))) == Ping(nonce=7)
