"""One websocket client as the tables see it (server.table.actor.Client): a bounded send
queue, a writer task, and the per-connection frame bucket. A client that does not read is
dropped, never waited for (ARCHITECTURE 3)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import ErrorCode, encode
from protocol import messages as m
from server.gateway.fastsend import write_now

__all__ = ["BURST", "RATE", "SEND_BUFFER", "SEND_QUEUE", "WRITE_LIMIT", "Connection"]

SEND_QUEUE = 512
"""Frames buffered per connection before a slow client is dropped."""
WRITE_LIMIT = 2**16
"""Bytes waiting in a connection's transport above which frames are queued (websockets'
write_limit: the writer task then waits for the socket to drain)."""
SEND_BUFFER = 64 * 1024
"""Kernel send buffer per connection (bytes)."""
RATE = 50.0
"""Sustained frames per second allowed from one connection."""
BURST = 100.0


class Connection:
    """One websocket client as the tables see it (see server.table.actor.Client)."""

    def __init__(
        self, ws: ServerConnection, address: str, drop: Callable[[Connection], None]
    ) -> None:
        """``address``: what the limits count it under (the gateway's guard says it);
        ``drop``: what its owner does with a connection that must go at once (a slow
        reader)."""
        self.cid = secrets.token_urlsafe(9)
        self.pid: str | None = None
        self.nickname: str | None = None
        self.member: str | None = None
        """The member logged in on this connection (server.gateway.accounts); None again
        once he changed his password on another connection."""
        self.member_version: int = 0
        """The version of the member's account when he logged in here: a newer one (a new
        password, set on any process) ends his rights here (AccountDesk.still)."""
        self.device: str | None = None
        """The member one of whose session tokens (current, or ended by a newer password) this
        connection carried, or who logged in on it: his logins here guess through his own
        bucket (server.accounts.guard)."""
        self.ws = ws
        self.drop = drop
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(SEND_QUEUE)
        self.tables: set[str] = set()
        self.invites: set[str] = set()
        self.tournaments: set[str] = set()
        self.registered: set[str] = set()
        """Tournaments this connection registered for or followed with a player token (one
        entry per person per tournament)."""
        self.tables_created = 0
        self.address = address
        """The address the limits count this connection under (server.gateway.limits)."""
        self.hello_timer: asyncio.TimerHandle | None = None
        self.hello = False
        self.used_nonce: str | None = None
        self.tokens = BURST
        self.refilled = time.monotonic()
        self.last_rate_error = 0.0
        self.closed = False
        self.sending = False
        """The writer task is sending a queued frame (frames written now would overtake it)."""

    def identity(self) -> str:
        """This connection's player id, made at its first ``sit`` (or waiting list)."""
        if self.pid is None:
            self.pid = secrets.token_urlsafe(9)
        return self.pid

    def deliver(self, data: bytes) -> None:
        if self.closed:
            return
        if not self.sending and self.queue.empty() and write_now(self.ws, data, WRITE_LIMIT):
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            # a client that does not read is dropped, never waited for (ARCHITECTURE 3)
            self.kick(ErrorCode.LAGGING, "too far behind: reconnect and resync")

    def kick(self, code: str, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(encode(m.Error(code=code, message=reason)))
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self.queue.full():
            self.drop(self)

    def allow(self) -> bool:
        """Token bucket: RATE frames per second, bursts of BURST."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def writer(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    await self.ws.close(4000, "closed by server")
                    return
                self.sending = True
                try:
                    await self.ws.send(data)
                finally:
                    self.sending = False
        except ConnectionClosed:
            return
