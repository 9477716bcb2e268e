"""Helpers of the trust regression tests (test_trust_regressions.py).

:class:`RawClient` is a websocket opened by hand on a blocking socket, read by a thread of its
own: with a small receive buffer it is a slow player on a poor link (a phone), whose kernel
buffers hold little, so a burst of frames from the server lands in the server's own send
queue; with the kernel's default buffer it is a fast reader that decodes only the type and
sequence number of what it gets (a flood of replies costs the test process little). Frames
from the server are parsed here (unmasked, never fragmented by the server).

:func:`seed_history` writes a table's past into a fresh data directory with the store's
public API, the way a long-running table leaves it: heads-up hands, each fully sequenced.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

from protocol import ProtocolError, decode_server, encode
from protocol import messages as m
from server.store import Store
from server.table.config import TableConfig

from .wsclient import raw_handshake, seed_tables

__all__ = ["RawClient", "seed_history", "wait_until"]


class RawClient:
    """A websocket on a plain socket, read by a background thread.

    ``rcvbuf``: the socket's receive buffer (None: the kernel's default, auto-tuned);
    ``mss``: a small segment size makes the server's kernel hold less of a backlog (its
    send buffer is accounted in segments), as on a slow link. ``decode``: full
    :func:`protocol.decode_server` of every frame into ``messages`` (else only ``(type,
    seq)`` into ``kinds``, cheap enough for hundreds of thousands of frames). ``read_rate``:
    bytes per second the thread reads at most (None: as fast as they come). ``handler`` runs
    in the reader thread for each decoded message (it may :meth:`send`).
    """

    def __init__(
        self,
        port: int,
        name: str = "raw",
        *,
        rcvbuf: int | None = 2048,
        mss: int | None = 536,
        decode: bool = True,
        read_rate: float | None = None,
    ) -> None:
        self.name = name
        self.decode = decode
        self.read_rate = read_rate
        self.messages: list[m.Message] = []
        self.kinds: list[tuple[str, int | None]] = []
        self.errors: list[dict[str, Any]] = []
        """Every ``error`` received (as its msgpack map), decoded or not."""
        self.bad_frames: list[str] = []
        self.failures: list[str] = []
        self.handler: Callable[[RawClient, m.Message], None] | None = None
        self.received_bytes = 0
        self.closed = threading.Event()
        """The server closed the connection (EOF, reset or a close frame)."""
        self.close_reason = ""
        self._send_lock = threading.Lock()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.sock = socket.socket()
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if mss is not None:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, mss)
        raw_handshake(self.sock, port)
        self.sock.settimeout(None)

    @classmethod
    async def open(cls, port: int, name: str = "raw", **options: Any) -> RawClient:
        client = await asyncio.to_thread(lambda: cls(port, name, **options))
        client.start()
        return client

    # -------------------------------------------------------------- sending

    def send(self, message: m.Message) -> None:
        payload = encode(message)
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = bytes([0x82, 0x80 | n])
        elif n < 65536:
            header = bytes([0x82, 0x80 | 126]) + n.to_bytes(2, "big")
        else:
            header = bytes([0x82, 0x80 | 127]) + n.to_bytes(8, "big")
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
        with self._send_lock:
            self.sock.sendall(header + mask + masked)

    # -------------------------------------------------------------- receiving

    def start(self) -> None:
        self._thread = threading.Thread(target=self._read, name=f"raw-{self.name}", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buf = bytearray()
        started = time.monotonic()
        try:
            while not self._stopping:
                try:
                    chunk = self.sock.recv(65536)
                except OSError as exc:
                    self.close_reason = f"{type(exc).__name__}: {exc}"
                    return
                if not chunk:
                    self.close_reason = "EOF"
                    return
                self.received_bytes += len(chunk)
                buf += chunk
                if not self._frames(buf):
                    return
                if self.read_rate is not None:  # a slow link: never faster than read_rate
                    ahead = started + self.received_bytes / self.read_rate - time.monotonic()
                    if ahead > 0:
                        time.sleep(ahead)
        finally:
            self.closed.set()

    def _frames(self, buf: bytearray) -> bool:
        """Consume the complete frames at the start of ``buf``; False on a close frame."""
        at = 0
        try:
            while len(buf) - at >= 2:
                opcode = buf[at] & 0x0F
                n = buf[at + 1] & 0x7F
                head = 2
                if n == 126:
                    if len(buf) - at < 4:
                        break
                    n, head = int.from_bytes(buf[at + 2 : at + 4], "big"), 4
                elif n == 127:
                    if len(buf) - at < 10:
                        break
                    n, head = int.from_bytes(buf[at + 2 : at + 10], "big"), 10
                if len(buf) - at < head + n:
                    break
                payload = bytes(buf[at + head : at + head + n])
                at += head + n
                if opcode == 0x8:
                    self.close_reason = f"close frame {payload[:2].hex()}"
                    return False
                if opcode == 0x9:  # a websocket ping: answer it (masked pong)
                    mask = os.urandom(4)
                    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                    with self._send_lock, contextlib.suppress(OSError):
                        self.sock.sendall(bytes([0x8A, 0x80 | len(body)]) + mask + body)
                elif opcode == 0x2:
                    self._message(payload)
            return True
        finally:
            del buf[:at]

    def _message(self, payload: bytes) -> None:
        if not self.decode:
            # the type without decoding: every server frame is a map whose first key is "t"
            if payload[1:3] == b"\xa1t" and payload[3] & 0xE0 == 0xA0:
                kind = payload[4 : 4 + (payload[3] & 0x1F)].decode()
                if kind not in ("snapshot", "error"):
                    self.kinds.append((kind, -1 if b"\xa3seq" in payload else None))
                    return
            try:
                data = msgpack.unpackb(payload)
                self.kinds.append((str(data.get("t")), data.get("seq")))
                if data.get("t") == "error":
                    self.errors.append(data)
            except Exception as exc:
                self.bad_frames.append(f"{type(exc).__name__}: {exc}")
            return
        try:
            message = decode_server(payload)
        except ProtocolError as exc:
            self.bad_frames.append(f"{exc.code}: {exc.message}")
            return
        self.messages.append(message)
        self.kinds.append((message.TYPE, getattr(message, "seq", None)))
        if isinstance(message, m.Error):
            self.errors.append({"code": message.code, "ref": message.ref})
        if self.handler is not None:
            try:
                self.handler(self, message)
            except OSError:
                pass
            except Exception as exc:  # report, never kill the reader
                self.failures.append(f"{type(exc).__name__}: {exc}")

    def of(self, cls: type[Any]) -> list[Any]:
        return [x for x in list(self.messages) if isinstance(x, cls)]

    def close(self) -> None:
        self._stopping = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
        if self._thread is not None:
            self._thread.join(2.0)


async def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``predicate`` (every 20 ms) until it holds; TimeoutError naming ``what``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.02)


# ---------------------------------------------------------------------- a table's past

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def _card(k: int) -> str:
    return _RANKS[k % 13] + _SUITS[(k // 13) % 4]


def seed_history(data: Path, config: TableConfig, hands: int) -> int:
    """Write ``hands`` completed heads-up hands of ``config``'s table into the store of a
    fresh data directory (seats 1 and 2, the small blind folds each time), and the
    between-hands snapshot a restart restores (both players seated, disconnected). Returns
    the last sequence number (2 seat events, then 11 events a hand)."""
    seed_tables(data, config)
    table = config.table_id
    sb, bb = config.sb, config.bb
    stacks = {1: config.starting_stack, 2: config.starting_stack}
    events: list[tuple[int, str, dict[str, Any]]] = []

    def add(kind: str, payload: dict[str, Any]) -> None:
        events.append((len(events) + 1, kind, payload))

    for seat, name in ((1, "ana"), (2, "bob")):
        add("seat", {"seat": seat, "player": name, "stack": stacks[seat], "status": "seated"})
    for hand in range(1, hands + 1):
        button = 1 if hand % 2 else 2
        other = 3 - button
        before = {str(s): v for s, v in stacks.items()}
        add(
            "hand_start",
            {
                "hand": hand,
                "button": button,
                "small_blind": button,
                "big_blind": other,
                "blinds": [sb, bb, 0],
                "stacks": before,
                "commitment": f"{hand:064x}",
            },
        )
        add("cut_prompt", {"hand": hand, "seat": other, "deadline_ms": 300})
        common = {"hand": hand, "allin": False, "rule": "", "note": ""}
        add(
            "action",
            {**common, "seat": button, "action": "post_sb", "to": sb, "added": sb,
             "stack": stacks[button] - sb},
        )  # fmt: skip
        add(
            "action",
            {**common, "seat": other, "action": "post_bb", "to": bb, "added": bb,
             "stack": stacks[other] - bb},
        )  # fmt: skip
        add("hole", {"hand": hand, "seat": 1, "cards": [_card(4 * hand), _card(4 * hand + 1)]})
        add("hole", {"hand": hand, "seat": 2, "cards": [_card(4 * hand + 2), _card(4 * hand + 3)]})
        add(
            "clock_event",
            {"hand": hand, "seat": button, "kind": "action", "remaining_ms": 2000,
             "countdown_ms": 0},
        )  # fmt: skip
        add(
            "action",
            {**common, "seat": button, "action": "fold", "to": sb, "added": 0,
             "stack": stacks[button] - sb},
        )  # fmt: skip
        add(
            "action",
            {**common, "seat": other, "action": "returned", "to": 0, "added": bb - sb,
             "stack": stacks[other] - sb},
        )  # fmt: skip
        add(
            "pot",
            {"hand": hand, "index": 0, "amount": 2 * sb, "winners": [other], "shares": [2 * sb]},
        )
        stacks[button] -= sb
        stacks[other] += sb
        add(
            "hand_end",
            {
                "hand": hand,
                "stacks": {str(s): v for s, v in stacks.items()},
                "record": f"/api/hands/{table}/{hand}.json",
                "cancelled": False,
            },
        )
    last = len(events)
    with Store(data / "brasseur.sqlite") as store:
        store.append_events(table, events)
        button = 1 if hands % 2 else 2
        store.save_snapshot(
            table,
            hands,
            last,
            {
                "hand": hands,
                "in_hand": False,
                "cancelled": False,
                "positions": [button, button, 3 - button],
                "replay": None,
                "dealt_in": [],
                "seats": [
                    {
                        "seat": seat,
                        "pid": f"pid-{name}",
                        "name": name,
                        "stack": stacks[seat],
                        "time_bank": config.time_bank_seconds,
                        "new": False,
                        "sitting_out": False,
                    }
                    for seat, name in ((1, "ana"), (2, "bob"))
                ],
            },
        )
    return last
