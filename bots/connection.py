"""The connection of a bot: one websocket, what goes out and what comes in.

:class:`BotConnection` sends frames under the server's rate limit, matches replies to requests,
decodes and validates every frame it receives (:func:`protocol.decode_server`) and hands each
message to :meth:`BotConnection._receive`; when the connection drops it reconnects (to the
same server, or another one of the deployment) and lets the bot say who it is again
(:meth:`BotConnection._resume`). What the messages mean for the game is the bot's part:
:class:`~bots.client.Bot`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgpack
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from protocol import PROTOCOL_VERSION, ProtocolError, decode_server, encode
from protocol import messages as m

from .stats import Stats

__all__ = [
    "FULL_LOBBY_EVERY",
    "RECONNECT_SECONDS",
    "SEND_RATE",
    "BotConnection",
    "BotError",
    "next_id",
]

log = logging.getLogger("brasseur.bots")

SEND_RATE = 40.0
"""Frames per second a bot allows itself (the gateway allows 50, bursts of 100)."""


RECONNECT_SECONDS = 120.0
"""How long a bot tries to reconnect (to any server it knows) before it gives up."""


FULL_LOBBY_EVERY = 16
"""With ``light_lobby``, one tournament state in this many is decoded and validated in full."""
_LOBBY = b"\xa1t\xaatournament"
"""How a ``tournament`` message begins, after its map header (``t`` comes first)."""
_LOBBY_KEYS = frozenset({"phase", "you", "players_left", "level"})
"""What a bot looks at in a tournament state (the rest is the lobby's)."""


def _lobby_digest(frame: bytes) -> m.TournamentState | None:
    """A tournament state with only what a bot looks at, the rest of the frame skipped
    unbuilt: the lobby goes to every player at every change, so on a big tournament it is
    most of what a bot receives. None if the frame is not what it seemed (decoded in full)."""
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=len(frame) + 1)
    unpacker.feed(frame)
    fields: dict[str, Any] = {}
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key != "state":
                fields[key] = unpacker.unpack()
                continue
            state: dict[str, Any] = {}
            for _ in range(unpacker.read_map_header()):
                name = unpacker.unpack()
                if name in _LOBBY_KEYS:
                    state[name] = unpacker.unpack()
                else:
                    unpacker.skip()
            fields["state"] = state
        return m.TournamentState(tournament=str(fields["tournament"]), state=fields["state"])
    except (ValueError, KeyError, TypeError, msgpack.UnpackException):
        return None


class BotError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


_ids = itertools.count(1)


def next_id() -> int:
    """A request id, unique in this process."""
    return next(_ids)


class BotConnection:
    """One websocket connection to the server. ``urls``: other servers of the same
    deployment, tried in turn when ``url`` refuses to reconnect."""

    def __init__(
        self,
        url: str,
        *,
        nickname: str = "bot",
        stats: Stats | None = None,
        reconnect: bool = True,
        compression: str | None = None,
        trace: int = 0,
        urls: Sequence[str] = (),
    ) -> None:
        self.url = url
        self.urls = [u for u in urls if u]
        """Other servers of the same deployment, tried in turn when ``url`` refuses to
        reconnect (its process died: another one took its tables over)."""
        self._refused: dict[str, float] = {}
        """When each server last refused a connection (monotonic)."""
        self.nickname = nickname
        self.stats = stats or Stats()
        self.reconnect = reconnect
        self.reconnect_seconds = RECONNECT_SECONDS
        """How long a dropped connection is tried again before the bot gives up."""
        self.compression = compression
        self.trace: collections.deque[str] | None = (
            collections.deque(maxlen=trace) if trace else None
        )
        """The last ``trace`` messages received, attached to the first violations of each kind."""
        self.ws: ClientConnection | None = None
        self.session: str | None = None
        self.on_message: Callable[[m.Message], None] | None = None
        """Optional hook called with every decoded message (tests, tracing)."""
        self._reader: asyncio.Task[None] | None = None
        self._waiters: list[tuple[Callable[[m.Message], bool], asyncio.Future[m.Message]]] = []
        self._closing = False
        self._tokens = 80.0
        self._refilled = time.monotonic()
        self._progress = asyncio.Event()
        """Set when something a waiting play loop looks at may have changed (and when the
        connection ends)."""
        self.light_lobby = False
        """Decode only what a bot needs of most tournament states (load tests: see
        ``FULL_LOBBY_EVERY``)."""
        self._lobbies = 0
        self.bytes_in = 0
        """Bytes of every frame received."""
        self.frame_size = 0
        """Bytes of the frame being handled."""
        self.closed = asyncio.Event()
        """Set when the bot stops for good (closed, or the connection was lost for good)."""

    # ------------------------------------------------------------------ what the bot does

    async def _receive(self, msg: m.Message) -> None:
        """Every message received (decoded and valid), after the waiting requests saw it."""

    def _can_resume(self) -> bool:
        """The bot holds what brings it back after a reconnection (a seat or player token)."""
        return False

    async def _resume(self) -> None:
        """Say who we are again on a new connection (``_can_resume`` said we can)."""

    # ------------------------------------------------------------------ connection

    async def _open(self, url: str | None = None, open_timeout: float = 60) -> ClientConnection:
        ws = await websockets.connect(
            url or self.url,
            max_size=2**20,
            compression=self.compression,
            ping_interval=None,
            open_timeout=open_timeout,
            close_timeout=2,
        )
        self.stats.connections += 1
        return ws

    async def _start(self) -> None:
        """Open the connection and start reading it."""
        self.ws = await self._open()
        self._reader = asyncio.create_task(self._read_loop(), name=f"bot-{self.nickname}")

    async def connect(self, token: str | None = None, timeout: float = 60.0) -> m.Welcome:
        """Open the connection and say hello (with an invite or seat token, if any)."""
        await self._start()
        welcome = await self.request(
            m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname, token=token),
            lambda msg: isinstance(msg, m.Welcome),
            timeout,
        )
        assert isinstance(welcome, m.Welcome)
        self.session = welcome.session
        return welcome

    @property
    def closing(self) -> bool:
        """``close`` was called."""
        return self._closing

    async def close(self) -> None:
        self._closing = True
        await self._shut()
        self.closed.set()

    async def _shut(self) -> None:
        """Close the connection and stop reading it."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    def drop(self) -> None:
        """Cut the connection abruptly, as a network failure would (the bot resumes)."""
        if self.ws is not None:
            self.ws.transport.abort()

    # ------------------------------------------------------------------ sending

    def _budget(self) -> float:
        """Frames we may still send now (a token bucket under the server's 50/s limit)."""
        now = time.monotonic()
        self._tokens = min(80.0, self._tokens + (now - self._refilled) * SEND_RATE)
        self._refilled = now
        return self._tokens

    async def send(self, message: m.Message) -> None:
        ws = self.ws
        if ws is None:
            raise BotError("not_connected", "connect first")
        while self._budget() < 1:
            await asyncio.sleep(1.0 / SEND_RATE)
        self._tokens -= 1
        self.stats.sent += 1
        with contextlib.suppress(ConnectionClosed):  # the read loop notices and resumes
            await ws.send(encode(message))

    async def send_raw(self, frame: bytes) -> None:
        """Send bytes as they are (malformed-frame tests only)."""
        assert self.ws is not None
        await self.ws.send(frame)

    # ------------------------------------------------------------------ requests

    def _expect(self, match: Callable[[m.Message], bool]) -> asyncio.Future[m.Message]:
        future: asyncio.Future[m.Message] = asyncio.get_running_loop().create_future()
        self._waiters.append((match, future))
        return future

    async def request(
        self,
        message: m.Message,
        match: Callable[[m.Message], bool],
        timeout: float = 60.0,
        ref: int | None = None,
    ) -> m.Message:
        """Send ``message`` and wait for the first reply ``match`` accepts. An error reply
        (with this ``ref``, or with no ref) raises :class:`BotError`."""

        def matches(msg: m.Message) -> bool:
            if isinstance(msg, m.Error):
                return msg.ref is None or msg.ref == ref
            return match(msg)

        future = self._expect(matches)
        await self.send(message)
        try:
            reply = await asyncio.wait_for(future, timeout)
        finally:
            self._waiters = [w for w in self._waiters if w[1] is not future]
        if isinstance(reply, m.Error):
            raise BotError(reply.code, reply.message)
        return reply

    # ------------------------------------------------------------------ receiving

    async def _read_loop(self) -> None:
        try:
            while await self._read_connection():
                pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s: read loop failed", self.nickname)
            self.stats.error("bot_crash")
        finally:
            for _, future in self._waiters:
                if not future.done():
                    future.set_exception(BotError("connection_lost", "the connection closed"))
            self.closed.set()
            self._progress.set()

    async def _read_connection(self) -> bool:
        """Read the connection until it closes; True if a new one replaces it (read on)."""
        ws = self.ws
        assert ws is not None
        try:
            async for frame in ws:
                await self._on_frame(frame)
        except ConnectionClosed:
            pass
        if self._closing:
            return False
        if not (self.reconnect and self._can_resume() and await self._reconnect()):
            if not self._closing:
                self.stats.error("connection_lost")
            return False
        return True

    async def _reconnect(self) -> bool:
        """Open a new connection and say who we are again: ``url`` first, then every other
        server of ``urls`` in turn (the first ones right away, with a little jitter so that the
        bots of a dead process do not all knock at once), each round of refusals backing off
        up to 2 s, for ``reconnect_seconds`` at most."""
        candidates = [self.url, *(u for u in self.urls if u != self.url)]
        deadline = time.monotonic() + self.reconnect_seconds
        delay = 0.1
        attempt = 0
        while not self._closing and time.monotonic() < deadline:
            url = candidates[attempt % len(candidates)]
            attempt += 1
            try:
                self.ws = await self._open(url, open_timeout=10)
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                self._refused[url] = time.monotonic()
                if attempt % len(candidates) == 0:  # every server refused: back off
                    await asyncio.sleep(delay * (0.5 + random.random()))
                    delay = min(2.0, delay * 2)
                else:
                    await asyncio.sleep(0.3 * random.random())
                continue
            self.url = url
            self.stats.reconnects += 1
            await self._resume()
            return True
        return False

    async def _on_frame(self, frame: bytes | str) -> None:
        self.stats.frames += 1
        self.frame_size = len(frame)
        self.bytes_in += self.frame_size
        msg: m.Message | None = None
        if self.light_lobby and isinstance(frame, bytes) and frame[1:14] == _LOBBY:
            self._lobbies += 1
            if self._lobbies % FULL_LOBBY_EVERY:
                msg = _lobby_digest(frame)
        try:
            msg = msg or decode_server(frame)
        except ProtocolError as exc:
            self._violation("bad_frame", f"{exc.code}: {exc.message}")
            return
        if self.on_message is not None:
            self.on_message(msg)
        if self.trace is not None:
            self.trace.append(f"{time.monotonic():.3f} {msg}"[:300])
        if self._waiters:
            for match, future in list(self._waiters):
                if not future.done() and match(msg):
                    future.set_result(msg)
        await self._receive(msg)

    def _violation(self, kind: str, detail: str) -> None:
        self.stats.violation(kind, f"[{self.nickname}] {detail}")
        if self.trace is not None and self.stats.violations[kind] <= 2:
            self.stats.traces.append([f"{kind}: {detail}", *self.trace])
