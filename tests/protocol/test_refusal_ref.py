"""Every validation refusal of a decodable map that carries an ``id`` echoes it as ``ref``
(docs/protocol.md: "``id?`` … echoed as ``ref`` in the ``error`` a command is refused with (a
frame that cannot be decoded at all has no ``ref``)"): for every client message type and every
validation code it can get, and through a real server."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from protocol import ErrorCode, ProtocolError, decode_client
from protocol import messages as m
from protocol.codec import CLIENT_MESSAGES, _schema

REF = 4242


def _wrong(kind: str) -> Any:
    """A value of another type than ``kind`` expects."""
    return "text" if kind != "str" else 12


def _too_big(kind: str, maximum: int) -> Any:
    if kind == "str":
        return "x" * (maximum + 1)
    if kind == "int":
        return 2**53
    return None


def _cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for kind, cls in sorted(CLIENT_MESSAGES.items()):
        schema = [f for f in _schema(cls) if f.name != "id"]
        cases.append((kind, ErrorCode.UNKNOWN_FIELD, {"t": kind, "nope": 1, "id": REF}))
        for f in schema:
            if f.required:
                cases.append((kind, ErrorCode.MISSING_FIELD, {"t": kind, "id": REF}))
                break
        for f in schema:
            base = {"t": kind, "id": REF}
            cases.append((kind, ErrorCode.BAD_TYPE, {**base, f.name: _wrong(f.kind)}))
            big = _too_big(f.kind, f.max) if f.max else None
            if big is not None:
                cases.append((kind, ErrorCode.OUT_OF_RANGE, {**base, f.name: big}))
    return cases


CASES = _cases()


def test_every_message_type_has_cases() -> None:
    kinds = {kind for kind, _, _ in CASES}
    assert kinds == set(CLIENT_MESSAGES)
    codes = {code for _, code, _ in CASES}
    assert codes == {
        ErrorCode.UNKNOWN_FIELD,
        ErrorCode.MISSING_FIELD,
        ErrorCode.BAD_TYPE,
        ErrorCode.OUT_OF_RANGE,
    }


@pytest.mark.parametrize(("kind", "code", "data"), CASES, ids=lambda x: str(x)[:40])
def test_a_refused_map_echoes_its_id(kind: str, code: str, data: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(msgpack.packb(data))
    # a missing field may be found before the wrong one, whichever: the id is echoed
    assert refused.value.ref == REF, (kind, code, refused.value.code)


@pytest.mark.parametrize("bad_id", ["7", -1, 2**53, True, 1.5, None])
def test_an_invalid_id_is_not_echoed(bad_id: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(msgpack.packb({"t": "ping", "nope": 1, "id": bad_id}))
    assert refused.value.ref is None


def test_an_undecodable_frame_has_no_ref() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(b"\xc1\xc1")
    assert refused.value.ref is None


@pytest.mark.asyncio
async def test_a_real_server_echoes_the_id_of_each_refusal(tmp_path: Any) -> None:
    from tests.integration.wsclient import Server, WsClient

    server = Server(tmp_path / "d").start()
    try:
        client = await WsClient.connect(server.port, "ana")
        await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname="ana"))
        await client.wait_type(m.Welcome, 5)
        frames = [
            ({"t": "chat", "table": "friends", "text": "x" * 600, "id": 11}, "out_of_range"),
            ({"t": "join", "table": "friends", "zz": 1, "id": 12}, "unknown_field"),
            ({"t": "act", "table": "friends", "hand": "one", "id": 13}, "bad_type"),
            ({"t": "act", "id": 14}, "missing_field"),
        ]
        for data, code in frames:
            mark = len(client.messages)
            await client.ws.send(msgpack.packb(data))
            error = await client.wait_for(lambda x: isinstance(x, m.Error), 5, mark)
            assert isinstance(error, m.Error)
            assert (error.code, error.ref) == (code, data["id"])
        await client.close()
    finally:
        server.stop()
