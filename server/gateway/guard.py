"""The gateway's door: connections counted from the TCP accept, per address and in all, the
``Origin`` of websockets, and the creation and registration buckets (server.gateway.limits).

A connection over its address's cap is answered ``429 too_many_connections`` once it sends its
request, and closed after :data:`REFUSED_GRACE` seconds if it sends nothing (an idle socket
holds no descriptor for long). A connection over the process's cap is closed at once: the
process keeps its reserve of descriptors for the store, Redis and ``/healthz``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from protocol import ErrorCode

from .limits import Buckets, Limits, address_key, client_address, origin_allowed

__all__ = ["Guard", "guarded_connection"]

log = logging.getLogger("brasseur.gateway")

REFUSED_GRACE = 1.0
"""Seconds a connection over its address's cap may take to send its request (to be told)."""
REFUSED_PENDING = 8
"""Connections over its cap an address may have waiting to be told; beyond, they are closed
at once (a flood of one address holds at most its cap plus these)."""


class Guard:
    """Counts of open connections and the buckets of the limits (no I/O but the aborts)."""

    def __init__(self, limits: Limits, nofile: int, count: Callable[[str], None]) -> None:
        self.limits = limits
        self.cap = limits.connection_cap(nofile)
        self.count = count
        """Called with an error code for every refusal (metrics)."""
        self.open: Counter[str] = Counter()
        self.refusing: Counter[str] = Counter()
        self.total = 0
        self.tables = Buckets(limits.tables_per_address)
        self.registrations = Buckets(limits.registrations_per_address)

    # ------------------------------------------------------------------ connections

    def accept(self, conn: GuardedConnection, peer: str) -> None:
        """A TCP connection was accepted from ``peer``."""
        conn.peer = peer
        if self.total >= self.cap:
            self.count(ErrorCode.TOO_MANY_CONNECTIONS)
            conn.transport.abort()  # connection_lost follows; nothing counted
            return
        self.total += 1
        conn.counted = True
        if peer in self.limits.trusted_proxies:
            return  # counted under the forwarded address when the request comes
        self._hold(conn, address_key(peer))

    def _hold(self, conn: GuardedConnection, key: str) -> None:
        conn.address = key
        cap = self.limits.connections_per_address
        if cap and self.open[key] >= cap:
            self._refuse(conn, key)
            return
        self.open[key] += 1
        conn.holds = key

    def _refuse(self, conn: GuardedConnection, key: str) -> None:
        if self.refusing[key] >= REFUSED_PENDING:
            self.count(ErrorCode.TOO_MANY_CONNECTIONS)
            conn.transport.abort()
            return
        conn.over_cap = True
        self.refusing[key] += 1
        conn.refusing = key
        conn.loop.call_later(REFUSED_GRACE, _abort_unanswered, conn)

    def release(self, conn: GuardedConnection) -> None:
        if conn.refusing is not None:
            self.refusing[conn.refusing] -= 1
            if self.refusing[conn.refusing] <= 0:
                del self.refusing[conn.refusing]
            conn.refusing = None
        if conn.counted:
            conn.counted = False
            self.total -= 1
        if conn.holds is not None:
            self.open[conn.holds] -= 1
            if self.open[conn.holds] <= 0:
                del self.open[conn.holds]
            conn.holds = None

    def screen(
        self, conn: ServerConnection, request: Request, public_origin: str
    ) -> Response | None:
        """Before any route: the address's cap, and the ``Origin`` of a websocket upgrade."""
        if not isinstance(conn, GuardedConnection):
            return None
        if conn.peer in self.limits.trusted_proxies and conn.address is None:
            forwarded = request.headers.get("X-Forwarded-For")
            real = client_address(conn.peer, forwarded, self.limits.trusted_proxies)
            self._hold(conn, address_key(real))
        if conn.over_cap:
            self.count(ErrorCode.TOO_MANY_CONNECTIONS)
            return conn.respond(
                429, f"{ErrorCode.TOO_MANY_CONNECTIONS}: too many connections from your address\n"
            )
        if request.path.split("?", 1)[0] == "/ws":
            allowed = self.limits.allowed_origins + ((public_origin,) if public_origin else ())
            origin = request.headers.get("Origin")
            if not origin_allowed(origin, request.headers.get("Host"), allowed):
                self.count(ErrorCode.BAD_ORIGIN)
                shown = (origin or "")[:100]
                return conn.respond(
                    403, f"{ErrorCode.BAD_ORIGIN}: websockets from {shown!r} are refused\n"
                )
        return None

    def address_of(self, ws: ServerConnection) -> str:
        """The address a connection is counted under (its peer if it was not guarded)."""
        if isinstance(ws, GuardedConnection) and ws.address is not None:
            return ws.address
        peer = ws.remote_address
        return address_key(str(peer[0])) if peer else "?"


def _abort_unanswered(conn: GuardedConnection) -> None:
    if conn.request is None:  # still silent: free its descriptor
        conn.transport.abort()


class GuardedConnection(ServerConnection):
    """websockets' server connection, counted by the :class:`Guard` from accept to close."""

    guard: Guard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer = ""
        self.address: str | None = None
        self.holds: str | None = None
        self.refusing: str | None = None
        self.counted = False
        self.over_cap = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.guard.accept(self, str(peer[0]) if peer else "")

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self)
        super().connection_lost(exc)


def guarded_connection(guard: Guard) -> type[GuardedConnection]:
    """The connection class of one gateway (websockets' ``create_connection``)."""
    return type("GatewayConnection", (GuardedConnection,), {"guard": guard})
