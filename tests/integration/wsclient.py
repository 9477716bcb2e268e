"""A small asyncio test client and a real-server launcher for the acceptance tests.

:class:`Server` runs ``python -m server`` in a subprocess on a free port with a temporary data
directory and fast timings, and waits until ``/healthz`` answers. :class:`WsClient` is one real
websocket connection: it decodes every frame with :func:`protocol.decode_server`, keeps the last
sequence number per table, records gaps in the sequence, and offers :meth:`WsClient.wait_for`.
Every wait is bounded in time.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from protocol import PROTOCOL_VERSION, ProtocolError, decode_server, encode
from protocol import messages as m
from server.store import Store
from server.table.config import TableConfig

ROOT = Path(__file__).resolve().parents[2]
TABLE = "friends"
FAST = {
    "cut_seconds": 0.3,
    "next_hand_seconds": 0.05,
    "showdown_seconds": 0.05,
    "action_seconds": 2.0,
}

M = TypeVar("M", bound=m.Message)

OPEN: set[WsClient] = set()
"""Every connection not closed yet (closed at the end of each test by the conftest)."""


# ---------------------------------------------------------------------- the server


def raw_handshake(sock: socket.socket, port: int) -> None:
    """The websocket upgrade on a plain socket, read byte by byte so that no frame is read
    (raw clients decide themselves when, and how fast, they read)."""
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            raise ConnectionError("closed during the handshake")
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def seed_tables(data: Path, *configs: TableConfig) -> None:
    """Pre-create table definitions in a fresh data directory: the server restores them at
    start (the way it comes back after a restart), which is how a test gets settings the
    command line does not offer (a short time bank, a second table)."""
    data.mkdir(parents=True, exist_ok=True)
    with Store(data / "brasseur.sqlite") as store:
        for config in configs:
            store.save_table(config.table_id, config.to_dict())


def table_config(table_id: str = TABLE, **overrides: Any) -> TableConfig:
    settings: dict[str, Any] = {"name": "Friends", "starting_stack": 10_000, **FAST}
    settings.update(overrides)
    return TableConfig(table_id=table_id, **settings)


class Server:
    """``python -m server`` in a subprocess; ``invites`` maps each table to its invite token."""

    def __init__(self, data: Path, **options: Any) -> None:
        self.data = data
        self.options = {**FAST, "starting_stack": 10_000, **options}
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.invites: dict[str, str] = {}
        self.starts = 0
        self.nofile: int | None = None
        """A descriptor limit (soft and hard) for the server process."""
        self.env: dict[str, str] = {}

    @property
    def invite(self) -> str:
        return self.invites[TABLE]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 20.0) -> Server:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.data.mkdir(parents=True, exist_ok=True)
        if not self.port:
            self.port = free_port()
        self.starts += 1
        out = self.data / f"stdout-{self.starts}.log"
        err = self.data / f"stderr-{self.starts}.log"
        args = [sys.executable, "-m", "server", "--port", str(self.port), "--data", str(self.data)]
        for key, value in self.options.items():
            args += [f"--{key.replace('_', '-')}", str(value)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        nofile = self.nofile

        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        with out.open("wb") as stdout, err.open("wb") as stderr:
            self.proc = subprocess.Popen(
                args, cwd=ROOT, stdout=stdout, stderr=stderr, env=env, preexec_fn=limit
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {err.read_text()[-2000:]}")
            text = out.read_text()
            invites = dict(re.findall(r"\?table=([\w-]+)&invite=(\S+)", text))
            if invites and self.healthy():
                self.invites = invites
                return self
            time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"server did not come up: {err.read_text()[-2000:]}")

    def healthy(self) -> bool:
        try:
            status, body = self.get("/healthz", timeout=1.0)
        except OSError:
            return False
        return status == 200 and body.strip() == b"ok"

    def get(self, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
        url = f"http://127.0.0.1:{self.port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return int(response.status), bytes(response.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), bytes(exc.read())

    def get_json(self, path: str) -> Any:
        status, body = self.get(path)
        assert status == 200, (path, status, body[:200])
        return json.loads(body)

    def kill(self) -> None:
        """kill -9: no clean shutdown at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.kill()

    def stderr(self) -> str:
        return "\n".join(
            p.read_text(errors="replace") for p in sorted(self.data.glob("stderr-*.log"))
        )


# ---------------------------------------------------------------------- the client


class WsClient:
    """One websocket connection, with everything it received kept in ``messages``."""

    def __init__(self, ws: ClientConnection, name: str, seqs: dict[str, int] | None) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[m.Message] = []
        self.times: list[float] = []
        """Monotonic arrival time of each message."""
        self.seqs: dict[str, int] = dict(seqs or {})
        """Last sequence number seen, per table."""
        self.gaps: list[str] = []
        """Sequence numbers that skipped (a lost event): must stay empty."""
        self.duplicates: list[int] = []
        """Sequence numbers at or below the last one seen (events sent again)."""
        self.bad_frames: list[str] = []
        self.failures: list[str] = []
        """Exceptions raised by the handler."""
        self.handler: Callable[[WsClient, m.Message], Awaitable[None]] | None = None
        self.seat: int | None = None
        self.seat_token: str | None = None
        self.session: str | None = None
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self._news = asyncio.Event()
        self._ids = itertools.count(1)
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls,
        port: int,
        name: str = "client",
        *,
        seqs: dict[str, int] | None = None,
        read: bool = True,
        source: str | None = None,
        origin: str | None = None,
    ) -> WsClient:
        """``source``: the local address to connect from (127.0.0.2 is another person to the
        server's per-address limits); ``origin``: the Origin header a browser would send."""
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws",
            open_timeout=5,
            close_timeout=1,
            max_size=2**21,
            ping_interval=None,
            origin=origin,  # type: ignore[arg-type]
            **({"local_addr": (source, 0)} if source else {}),
        )
        client = cls(ws, name, seqs)
        OPEN.add(client)
        if read:
            client.start_reading()
        return client

    def start_reading(self) -> None:
        if self._reader is None:
            self._reader = asyncio.create_task(self._read(), name=f"reader-{self.name}")

    # -------------------------------------------------------------- receiving

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                try:
                    message = decode_server(frame)
                except ProtocolError as exc:
                    self.bad_frames.append(f"{exc.code}: {exc.message}")
                    continue
                fresh = self._track(message)
                self.messages.append(message)
                self.times.append(time.monotonic())
                self._notify()
                if self.handler is not None and fresh:
                    try:
                        await self.handler(self, message)
                    except ConnectionClosed:
                        pass
                    except Exception as exc:  # report, never kill the reader
                        self.failures.append(f"{type(exc).__name__}: {exc}")
        except ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            self._notify()

    def _notify(self) -> None:
        self._news.set()
        self._news = asyncio.Event()

    def _track(self, message: m.Message) -> bool:
        """Follow the sequence; False for an event already seen (sent again after a resync),
        which a client must not apply twice."""
        if isinstance(message, m.Seated):
            self.seat, self.seat_token = message.seat, message.token
        elif isinstance(message, m.Welcome):
            self.session = message.session
        seq = getattr(message, "seq", None)
        table = getattr(message, "table", None)
        if seq is None or table is None:
            return True
        if isinstance(message, m.Snapshot):
            self.seqs[table] = seq
            return True
        last = self.seqs.get(table)
        if last is None:
            self.gaps.append(f"{table}: event {seq} before any snapshot")
        elif seq <= last:
            self.duplicates.append(seq)
            return False
        elif seq != last + 1:
            self.gaps.append(f"{table}: {last} -> {seq}")
        self.seqs[table] = seq
        return True

    def last_seq(self, table: str = TABLE) -> int | None:
        return self.seqs.get(table)

    async def wait_for(
        self,
        predicate: Callable[[m.Message], bool],
        timeout: float = 5.0,
        since: int = 0,
    ) -> m.Message:
        """The first message from index ``since`` on that matches, waiting up to ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        i = since
        while True:
            while i < len(self.messages):
                message = self.messages[i]
                i += 1
                if predicate(message):
                    return message
            if self.closed.is_set():
                raise AssertionError(f"{self.name}: connection closed ({self.close_code})")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: nothing matched in {timeout} s")
            news = self._news
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), remaining)

    async def wait_type(
        self, cls: type[M], timeout: float = 5.0, since: int = 0, **fields: Any
    ) -> M:
        def match(message: m.Message) -> bool:
            return isinstance(message, cls) and all(
                getattr(message, k) == v for k, v in fields.items()
            )

        found = await self.wait_for(match, timeout, since)
        assert isinstance(found, cls)
        return found

    def of(self, cls: type[M], since: int = 0) -> list[M]:
        return [x for x in self.messages[since:] if isinstance(x, cls)]

    # -------------------------------------------------------------- sending

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, message: m.Message) -> None:
        await self.ws.send(encode(message))

    async def send_raw(self, frame: bytes | str) -> None:
        await self.ws.send(frame)

    async def request_error(self, frame: bytes | str, timeout: float = 5.0) -> m.Error:
        """Send a frame and wait for the next error."""
        mark = len(self.messages)
        await self.send_raw(frame)
        return await self.wait_type(m.Error, timeout, since=mark)

    async def hello(self, token: str | None = None, nickname: str | None = None) -> m.Message:
        """Hello; returns the Welcome (or the Error)."""
        mark = len(self.messages)
        await self.send(m.Hello(version=PROTOCOL_VERSION, nickname=nickname, token=token))
        return await self.wait_for(lambda x: isinstance(x, (m.Welcome, m.Error)), 5.0, mark)

    async def take_seat(self, seat: int, invite: str, table: str = TABLE) -> m.Message:
        """TakeSeat; returns the Seated (or the Error)."""
        mark = len(self.messages)
        await self.send(m.TakeSeat(table=table, seat=seat, token=invite))
        return await self.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5.0, mark)

    async def close(self) -> None:
        OPEN.discard(self)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2.0)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    async def abort(self) -> None:
        """Drop the TCP connection without a closing handshake (a lost network)."""
        OPEN.discard(self)
        self.ws.transport.abort()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._reader, 2.0)


async def join(port: int, invite: str, seat: int, name: str, table: str = TABLE) -> WsClient:
    """A new connection: Hello with the invite, then TakeSeat. Asserts it got the seat."""
    client = await WsClient.connect(port, name)
    welcome = await client.hello(invite, nickname=name)
    assert isinstance(welcome, m.Welcome), welcome
    seated = await client.take_seat(seat, invite, table)
    assert isinstance(seated, m.Seated), seated
    return client


async def spectate(port: int, invite: str, name: str = "spectator", table: str = TABLE) -> WsClient:
    client = await WsClient.connect(port, name)
    welcome = await client.hello(invite, nickname=name)
    assert isinstance(welcome, m.Welcome), welcome
    await client.send(m.JoinTable(table=table))
    await client.wait_type(m.Snapshot, 5.0)
    return client


# ---------------------------------------------------------------------- a client that never reads


class RawSocket:
    """A websocket opened by hand on a blocking socket with a tiny receive buffer: it sends
    frames and never reads, the slowest client there is (the kernel buffers fill up, then the
    server's)."""

    def __init__(self, port: int, rcvbuf: int = 2048) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        # small segments: the server's kernel sizes its send buffer from the segment size, so
        # the backlog reaches the server's own queue sooner (loopback segments are 64 KiB)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        raw_handshake(self.sock, port)

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
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def drained_until_closed(self, timeout: float) -> bool:
        """Read everything now: True if the server closed the connection (EOF or reset)."""
        deadline = time.monotonic() + timeout
        self.sock.settimeout(0.5)
        while time.monotonic() < deadline:
            try:
                if not self.sock.recv(65536):
                    return True
            except TimeoutError:
                continue
            except ConnectionError:
                return True
        return False

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def connections(server: Server) -> int:
    """The server's count of open websocket connections (/metrics)."""
    _, body = server.get("/metrics")
    found = re.search(rb"^brasseur_connections (\d+)$", body, re.M)
    assert found is not None
    return int(found.group(1))


# ---------------------------------------------------------------------- a scripted player


Strategy = Callable[["Player", random.Random], tuple[str, int | None] | None]
"""What to say when it is our turn: ``(verb, amount)``, or None to stay silent."""


def passive(player: Player, rng: random.Random) -> tuple[str, int | None]:
    return "call", None  # a call with nothing to call is a check


def always(verb: str) -> Strategy:
    def choose(player: Player, rng: random.Random) -> tuple[str, int | None]:
        return verb, None

    return choose


def maniac(allin: float = 0.35, fold: float = 0.15) -> Strategy:
    """All-in often, fold sometimes, call otherwise: stacks of 10 big blinds bust quickly."""

    def choose(player: Player, rng: random.Random) -> tuple[str, int | None]:
        x = rng.random()
        if x < allin:
            return "allin", None
        if x < allin + fold:
            return "fold", None
        return "call", None

    return choose


class Player:
    """Plays its seat from what the wire says: cuts when prompted, and acts when told it is
    its turn, by the private ``Turn`` or a ``ClockEvent(kind="action")`` naming its seat (one
    answer per decision: both come for the same one)."""

    def __init__(
        self,
        client: WsClient,
        strategy: Strategy = passive,
        seed: int = 0,
        table: str = TABLE,
        act: bool = True,
    ) -> None:
        self.client = client
        self.strategy = strategy
        self.rng = random.Random(seed)
        self.table = table
        self.acting = act
        self.hand = 0
        self.progress = 0
        """Sequence number of the last event that moved the hand on (a new decision)."""
        self.acted: set[tuple[int, int]] = set()
        """(hand, progress) of the decisions already answered."""
        self.pending: dict[int, int] = {}
        """Act id -> hand, to fall back to a call when a rule refuses the first choice."""
        self.actions = 0
        self.busted = False
        client.handler = self.on_message

    @property
    def seat(self) -> int | None:
        return self.client.seat

    async def on_message(self, client: WsClient, msg: m.Message) -> None:
        if getattr(msg, "table", self.table) != self.table:
            return
        if isinstance(msg, (m.HandStart, m.ActionEvent, m.BoardEvent)):
            self.hand, self.progress = msg.hand, msg.seq
        elif isinstance(msg, m.Snapshot):
            self.hand, self.progress = int(msg.state.get("hand", self.hand)), msg.seq
        elif isinstance(msg, m.CutPrompt):
            self.hand = msg.hand
            if msg.seat == self.seat and self.acting:
                await client.send(
                    m.Cut(table=self.table, hand=msg.hand, position=self.rng.randrange(52))
                )
        elif isinstance(msg, m.Turn):
            if msg.seat == self.seat:
                self.hand = msg.hand
                await self.turn(msg.hand)
        elif isinstance(msg, m.ClockEvent):
            if msg.kind == "action" and msg.seat == self.seat:
                self.hand = msg.hand
                await self.turn(msg.hand)
        elif isinstance(msg, m.SeatEvent):
            if msg.seat == self.seat and msg.status == "busted":
                self.busted = True
        elif isinstance(msg, m.Error) and msg.ref in self.pending:
            hand = self.pending.pop(msg.ref)
            # a refused choice falls back to a call, once: the call is not in ``pending``, so a
            # refused call (no betting round any more: a replayed clock of a hand a crash cut)
            # ends there instead of looping until the rate limit closes the connection
            if (
                msg.code.startswith("rule.")
                and msg.code != "rule.not_betting"
                and hand == self.hand
            ):
                await self.act(hand, "call", None, fallback=True)

    async def turn(self, hand: int) -> None:
        key = (hand, self.progress)
        if not self.acting or key in self.acted:
            return
        self.acted.add(key)
        choice = self.strategy(self, self.rng)
        if choice is not None:
            await self.act(hand, *choice)

    async def act(self, hand: int, verb: str, amount: int | None, fallback: bool = False) -> None:
        ref = self.client.next_id()
        if not fallback:
            self.pending[ref] = hand
        self.actions += 1
        await self.client.send(m.Act(table=self.table, hand=hand, verb=verb, amount=amount, id=ref))


def hands_done(client: WsClient, table: str = TABLE) -> list[m.HandEnd]:
    return [x for x in client.of(m.HandEnd) if x.table == table]


async def wait_hands(client: WsClient, count: int, timeout: float, table: str = TABLE) -> None:
    """Wait until ``client`` saw ``count`` hands end (in all) at ``table``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(hands_done(client, table)) < count:
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise TimeoutError(
                f"{client.name}: {len(hands_done(client, table))} of {count} hands in {timeout} s"
            )
        mark = len(client.messages)
        with contextlib.suppress(TimeoutError):
            await client.wait_for(lambda x: isinstance(x, m.HandEnd), remaining, since=mark)


VOLUNTARY = frozenset({"fold", "check", "call", "bet", "raise", "allin"})


def unannounced_turns(client: WsClient, table: str = TABLE) -> list[str]:
    """Voluntary actions not preceded by a ``ClockEvent(kind="action")`` naming that seat since
    the previous action: a player must always be told it is their turn."""
    problems = []
    turn: int | None = None
    for x in client.messages:
        if getattr(x, "table", table) != table:
            continue
        if isinstance(x, (m.HandStart, m.Snapshot)):
            turn = None
            if isinstance(x, m.Snapshot):
                turn = x.state.get("to_act")
        elif isinstance(x, m.ClockEvent) and x.kind == "action":
            turn = x.seat
        elif isinstance(x, m.ActionEvent) and x.action in VOLUNTARY:
            if turn != x.seat:
                problems.append(f"hand {x.hand} seq {x.seq}: seat {x.seat} {x.action} unannounced")
            turn = None
    return problems
