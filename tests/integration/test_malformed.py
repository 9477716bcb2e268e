"""Acceptance (issue 11): malformed tokens, paths and numbers get a 4xx with a stable code.

Reported: a non-ASCII token closed the websocket with 1011 or made an HTTP 500 with a
traceback; a huge or NUL-containing hand number in a path made a 500. Against a real
``python -m server`` with a friends table and an open tournament: every token frame
(``hello``, ``take_seat``, ``follow``, ``direct``, ``abandon``) and every HTTP route with
``?t=``, hand numbers, ``from``/``count`` and paths get a refusal with a stable code
(protocol/errors.py: an ``error`` frame, or the HTTP body ``code: message``); the connection
stays usable and the server's log holds no traceback.
"""

from __future__ import annotations

import asyncio
import base64
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgpack
import pytest

from protocol import PROTOCOL_VERSION, ErrorCode
from protocol import messages as m
from protocol.codec import to_wire

from .conftest import Launch
from .wsclient import ROOT, TABLE, Server, WsClient, join

TID = "sng"
STABLE = {code.value for code in ErrorCode}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def create_tournament(data: Path) -> str:
    """Record a sit-and-go in the data directory (it opens at start); its director token."""
    data.mkdir(parents=True, exist_ok=True)
    config = "docs/tournaments/ligue_sit_and_go.toml"
    command = [sys.executable, "-m", "server", "tournament", "create", config]
    out = subprocess.run(
        [*command, "--id", TID, "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    found = re.search(r"director=(\S+)", out)
    assert found, out
    return found.group(1)


def garbage(invite: str) -> list[str]:
    """Tokens that are no token: each must be refused with ``bad_token``."""
    body, _, signature = invite.partition(".")
    return [
        "é.é",
        "\u0661\u0662",  # Arabic-Indic digits
        "tok\x00en",
        "\x00",
        "a" * 1024,
        "!!!!.????",
        "Zm9v.YmFy",  # base64 both sides, signed by nobody
        f"{b64(b'[1, 2]')}.{b64(b'x' * 32)}",  # JSON but not a dict
        f"{b64(bytes([0xFF, 0xFE, 0x00]))}.{b64(b'y' * 32)}",  # not even UTF-8
        ".",
        "..",
        "a.b.c",
        f"{body}.{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}",
        f"{body}x.{signature}",
        invite + "\x00",
        invite + "é",
        invite[:-1],
        " " + invite,
    ]


def pack(data: dict[str, Any]) -> bytes:
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def frames(token: str) -> dict[str, bytes]:
    """One frame of each kind carrying ``token`` (packed by hand: no client-side check)."""
    messages: dict[str, m.Message] = {
        "hello": m.Hello(version=PROTOCOL_VERSION, token="x"),
        "take_seat": m.TakeSeat(table=TABLE, seat=5, token="x"),
        "follow": m.FollowTournament(tournament=TID, token="x"),
        "direct": m.Direct(tournament=TID, token="x", op="pause", text="why"),
        "abandon": m.Abandon(tournament=TID, token="x"),
    }
    return {kind: pack({**to_wire(msg), "token": token}) for kind, msg in messages.items()}


async def answer(client: WsClient, frame: bytes, nonce: int) -> list[m.Error]:
    """Send ``frame`` then a ping: the errors it got (all before the pong: frames are
    answered in order), asserting the connection is still served."""
    mark = len(client.messages)
    await client.send_raw(frame)
    await client.send(m.Ping(nonce=nonce))
    await client.wait_type(m.Pong, 5.0, since=mark, nonce=nonce)
    await asyncio.sleep(0.05)  # two frames per 50 ms: under the rate limit (50 a second)
    return client.of(m.Error, since=mark)


def assert_clean_log(server: Server) -> None:
    log = server.stderr()
    assert "Traceback" not in log and "process_request failed" not in log, log[-3000:]


@pytest.mark.asyncio
async def test_malformed_tokens_in_frames_are_refused_with_bad_token(
    launch: Launch, tmp_path: Path
) -> None:
    director = create_tournament(tmp_path / "data")
    server = launch()
    player = await WsClient.connect(server.port, "player")
    await player.hello(nickname="ana")
    await player.send(m.Register(tournament=TID, id=1))
    registered = await player.wait_type(m.Registered, 10)
    sitter = await join(server.port, server.invite, 1, "bob")
    assert sitter.seat_token is not None
    valid = {
        "invite": server.invite,
        "director": director,
        "player": registered.token,
        "seat": sitter.seat_token,
    }
    mallory = await WsClient.connect(server.port, "mallory")
    assert isinstance(await mallory.hello(server.invite, "mallory"), m.Welcome)
    seen: dict[str, int] = {}

    async def expect(kind: str, frame: bytes, codes: set[str]) -> None:
        seen[kind] = seen.get(kind, 0) + 1
        errors = await answer(mallory, frame, nonce=sum(seen.values()))
        got = {e.code for e in errors}
        assert got <= STABLE, (kind, got)
        assert got == codes, (kind, frame[:120], [(e.code, e.message) for e in errors])

    for token in garbage(server.invite):
        for kind, frame in frames(token).items():
            await expect(kind, frame, {"bad_token"})
    for kind, frame in frames("a" * 1025).items():  # over the field's limit: not decoded
        await expect(kind, frame, {"out_of_range"})
    for kind, frame in frames("").items():  # no token: hello and follow need none
        await expect(kind, frame, set() if kind in ("hello", "follow") else {"bad_token"})
    # a real token of the wrong kind (or for another table or tournament)
    wrong = {
        "take_seat": ("director", "player", "seat"),
        "follow": ("invite", "director", "seat"),
        "direct": ("invite", "player", "seat"),
        "abandon": ("invite", "director", "seat"),
    }
    for kind, names in wrong.items():
        for name in names:
            await expect(kind, frames(valid[name])[kind], {"bad_token"})
    assert seen["hello"] == len(garbage(server.invite)) + 2

    assert not mallory.closed.is_set() and not mallory.bad_frames
    assert not sitter.closed.is_set() and server.healthy()
    assert_clean_log(server)


# ---------------------------------------------------------------------- HTTP


def get(port: int, target: str | bytes) -> tuple[int | None, bytes]:
    """GET ``target`` written as is on a plain socket (no client-side quoting or checks);
    the status (None if closed without an answer) and the body."""
    raw = target.encode() if isinstance(target, str) else target
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET " + raw + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    if not data:
        return None, b""
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def refusal(port: int, target: str | bytes, status: int, code: str) -> None:
    got, body = get(port, target)
    shown = target[:100]
    assert got == status, (shown, got, body[:200])
    found = re.match(rb"([a-z_.]+): \S", body)
    assert found and found.group(1).decode() == code, (shown, body[:200])
    assert found.group(1).decode() in STABLE


@pytest.mark.asyncio
async def test_malformed_http_requests_get_a_4xx_with_a_stable_code(
    launch: Launch, tmp_path: Path
) -> None:
    director = create_tournament(tmp_path / "data")
    server = launch()
    port = server.port
    watcher = await WsClient.connect(port, "watcher")
    assert isinstance(await watcher.hello(server.invite), m.Welcome)
    invite = quote(server.invite, safe="")
    hand = f"/api/hands/{TABLE}/{{}}.json?t={invite}"
    export = f"/api/tables/{TABLE}/hands.json?t={invite}&"

    # tokens, on every route of a friends table
    routes = [f"/api/hands/{TABLE}/1.json", f"/api/tables/{TABLE}/hands.txt"]
    routes.append(f"/api/tables/{TABLE}/hands.json")
    tokens = [quote(t, safe="") for t in [*garbage(server.invite), "", "a" * 3000]]
    tokens += ["%C3%A9.%C3%A9", "%FF%FE", "%00", "%", "%zz", quote(director, safe="")]
    for route in routes:
        refusal(port, route, 403, "bad_token")  # no token at all
        for token in tokens:
            refusal(port, f"{route}?t={token}", 403, "bad_token")
        refusal(port, f"{route}?t=%00&t={invite}", 403, "bad_token")  # the first one counts

    # hand numbers: digits 0-9 only, no sign, no leading zero, at most 18 of them
    for number in ["9" * 19, "9" * 401, "1" + "0" * 5000]:
        refusal(port, hand.format(number), 400, "out_of_range")
    for number in ["-1", "%00", "1%00", "%D9%A1%D9%A2", "+5", "%2B5", "05", "", "0x1", "1e3"]:
        refusal(port, hand.format(number), 400, "bad_type")
    for number in ["1.0", "%205", "5%20", "%EF%BC%95", "%C2%B2", "1_000"]:
        refusal(port, hand.format(number), 400, "bad_type")
    for number in ["0", "1", "9" * 18]:
        refusal(port, hand.format(number), 404, "not_found")

    # pages of an export
    for query in ["from=-1", "from=abc", "from=%00", "from=%D9%A1", "count=05", "count=-5"]:
        refusal(port, export + query, 400, "bad_type")
    for query in ["from=" + "9" * 401, "count=0", "count=" + "9" * 30, "a=1&" * 17]:
        refusal(port, export + query, 400, "out_of_range")
    assert get(port, export + "count=999") == (200, b"[]")  # served as 200 at most
    assert get(port, export + "from=" + "9" * 18) == (200, b"[]")

    # paths
    for path in [
        "/%00",
        "/a%00b",
        "/index.html%00",
        "/..%2f..%2fetc%2fpasswd",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/" + "a" * 300,
        "/" + "a/" * 2000,
        "//api/tournaments",
        "/api",
        "/api/",
        "/api/nothing",
        f"/api/tables/{TABLE}/hands.csv?t={invite}",
        f"/api/hands/{TABLE}/1.json/..?t={invite}",
        f"/api/tournaments/{TID}/results.json",
        f"/api/tournaments/{TID}/nothing",
        "*",
        "http://elsewhere/api/tournaments",
    ]:
        refusal(port, path, 404, "not_found")
    for path in ["/api/tournaments/%00", "/api/tournaments/" + "x" * 3000]:
        refusal(port, path, 404, "unknown_table")
    for path in [f"/api/hands/%00/1.json?t={invite}", f"/api/tables/%2e%2e/hands.txt?t={invite}"]:
        refusal(port, path, 403, "bad_token")  # the token is for another table
    refusal(port, "/api/hands/a%00b/1.json", 403, "bad_token")
    # raw bytes HTTP does not allow (websockets: no answer) and an over-long request line
    for raw in [b"/caf\xc3\xa9", f"/api/hands/{TABLE}/\u0661.json".encode(), b"/a b"]:
        status, _ = get(port, raw)
        assert status is None or 400 <= status < 500, (raw, status)
    assert get(port, "/" + "a" * 9000)[0] == 414

    # the server goes on: the client, the routes, the log
    await watcher.send(m.Ping(nonce=7))
    await watcher.wait_type(m.Pong, 5.0, nonce=7)
    assert server.healthy()
    assert get(port, "/")[0] == 200
    assert get(port, f"/api/tables/{TABLE}/hands.txt?t={invite}") == (200, b"")
    assert get(port, f"/api/tournaments/{TID}")[0] == 200
    assert_clean_log(server)
