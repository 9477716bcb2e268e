"""The gateway's limits against strangers (pure: no sockets, no clock of its own).

Every limit is an option of ``python -m server`` (docs/operations.md, "Limits") with a stable
error code (protocol.errors). They are sized so that a stranger cannot exhaust the server and a
group of friends never meets them:

- connections per address (one household behind one router: a few browsers, a few tabs each);
- a deadline for ``hello`` after the websocket opens (a socket that says nothing is closed);
- tables created per address (a token bucket) and per connection, and idle friends tables
  closed and dropped from the store;
- tournament registrations: one entry per person (connection or player token) per
  tournament, and a token bucket per address;
- member accounts created per address (a token bucket), and password guesses per login and
  per address (token buckets counted before the hash runs: server.accounts.guard,
  docs/accounts.md).

Addresses are grouped as a person can change them: an IPv4 address is itself, an IPv6 address
counts for its /64 network (what one household or one machine gets). Behind a reverse proxy,
``trusted_proxies`` lists the proxies whose ``X-Forwarded-For`` header names the client.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

__all__ = ["ACCEPT_BATCH", "Buckets", "Limits", "address_key", "client_address", "origin_allowed"]

HOUR = 3600.0
ACCEPT_BATCH = 128
"""The listen backlog, which is also how many sockets asyncio accepts in one go before the
gateway sees (and counts) any of them."""


@dataclass(frozen=True)
class Limits:
    """The gateway's limits; 0 means unlimited for a count or a rate."""

    connections_per_address: int = 64
    """Open connections (websocket or HTTP, counted from the TCP accept) per address."""
    max_connections: int = 0
    """Open connections in all; 0: derived from the descriptor limit (RLIMIT_NOFILE minus a
    reserve for the store, the logs and Redis), so the process never runs out of files."""
    hello_seconds: float = 10.0
    """Seconds a websocket may stay open without a valid ``hello``."""
    tables_per_address: int = 10
    """Tables created per address per hour (a bucket: 10 at once, then one every 6 min)."""
    tables_per_connection: int = 5
    """Tables created by one connection."""
    registrations_per_address: int = 6
    """Tournament registrations per address per hour (a bucket, as for tables)."""
    accounts_per_address: int = 20
    """Member accounts created per address per hour (a bucket: 20 at once, for a club's
    evening behind one router, then one every 3 min); an ``account_register`` answered
    ``account.taken`` spends one too, so probing which logins exist is as slow."""
    guesses_per_login: int = 10
    """Password guesses per login per hour from anywhere (a bucket, counted before the hash:
    at most twice this in any hour, whatever the concurrency)."""
    guesses_per_address: int = 5
    """Password guesses per address per hour (a bucket): under ``guesses_per_login``, so that
    one address alone can never keep a login's bucket empty."""
    trusted_guesses_per_login: int = 10
    """Password guesses per login per hour from the member's own devices (a connection that
    holds one of his session tokens, or an address where he is logged in): strangers
    elsewhere never spend these."""
    idle_table_hours: float = 24.0
    """A friends table where no hand was dealt and nobody connected for this long is closed
    and dropped from the store (its hand records are kept); 0: never."""
    unused_table_minutes: float = 60.0
    """A friends table where nobody ever sat is dropped after this long; 0: never."""
    allowed_origins: tuple[str, ...] = ()
    """Web origins (``https://host[:port]``) allowed on ``/ws`` besides the server's own;
    ``*`` allows any. Clients that send no ``Origin`` (bots, other programs) are allowed."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses of reverse proxies whose ``X-Forwarded-For`` is believed."""
    reserve_files: int = 64 + 2 * ACCEPT_BATCH
    """Descriptors kept free when max_connections is 0: the store, Redis, the logs, and two
    batches of sockets accepted before they are counted (then closed at once if over)."""

    def connection_cap(self, nofile: int) -> int:
        """Connections this process accepts in all, under a descriptor limit ``nofile``."""
        derived = max(16, nofile - self.reserve_files)
        return min(self.max_connections, derived) if self.max_connections else derived


def address_key(host: str) -> str:
    """The key an address is counted under: IPv4 itself, IPv6 its /64."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(peer: str, forwarded: str | None, trusted: tuple[str, ...]) -> str:
    """The client's address: the peer, or behind trusted proxies the right-most address of
    ``X-Forwarded-For`` that is not a trusted proxy."""
    if peer not in trusted or not forwarded:
        return peer
    for hop in reversed([h.strip() for h in forwarded.split(",")]):
        if hop and hop not in trusted:
            return hop[:64]
    return peer


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Is a websocket from a page of ``origin`` allowed? Same origin (the ``Host`` the
    browser connected to), the listed origins, or no ``Origin`` at all (not a browser)."""
    if origin is None:
        return True
    if "*" in allowed:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in {a.lower().rstrip("/") for a in allowed}:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False  # "null" (sandboxed frames, files) and anything odd
    return host is not None and parts.netloc == host.strip().lower()


@dataclass
class Buckets:
    """Token buckets per key: ``capacity`` at once, refilled at ``capacity`` per ``period``
    seconds. Full buckets are forgotten (``prune``), so memory follows the active keys."""

    capacity: int
    period: float = HOUR
    most_keys: int = 100_000
    _level: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, key: str, now: float) -> bool:
        """Spend one token of ``key``: False (nothing spent) when it has none."""
        if self.capacity <= 0:
            return True
        tokens = self.level(key, now)
        if tokens < 1.0:
            return False
        if len(self._level) >= self.most_keys and key not in self._level:
            self.prune(now)
        self._level[key] = (tokens - 1.0, now)
        return True

    def give_back(self, key: str, now: float) -> None:
        """Return a token spent on something that was then refused for another reason."""
        if self.capacity > 0 and key in self._level:
            self._level[key] = (min(float(self.capacity), self.level(key, now) + 1.0), now)

    def level(self, key: str, now: float) -> float:
        tokens, at = self._level.get(key, (float(self.capacity), now))
        rate = self.capacity / self.period
        return min(float(self.capacity), tokens + max(0.0, now - at) * rate)

    def prune(self, now: float) -> None:
        """Forget full buckets; if still too many, the fullest go first."""
        full = [k for k in self._level if self.level(k, now) >= self.capacity]
        for key in full:
            del self._level[key]
        if len(self._level) >= self.most_keys:
            ordered = sorted(self._level, key=lambda k: -self.level(k, now))
            for key in ordered[: len(self._level) - self.most_keys // 2]:
                del self._level[key]

    def __len__(self) -> int:
        return len(self._level)
