"""Signed tokens (invite links, seat tokens, director links), shared by the gateway and the
tournament host: a module below both (no upward import).

A token is ``base64url(json claims) + "." + base64url(HMAC-SHA256(secret, claims))``.
Claims: ``k`` kind (``invite`` | ``seat`` | ``director``), ``t`` table, ``x`` expiry (unix
seconds), and for seats ``s`` seat, ``p`` player id, ``n`` nickname, ``j`` nonce.

Seat tokens rotate: each login with a seat token returns a new one and the old one stops
working (:class:`NonceBook`), so a captured or replayed token is refused (``token_replayed``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from typing import Any

from protocol.errors import ErrorCode, ProtocolError

__all__ = ["NonceBook", "TokenAuthority"]

MAX_TOKEN = 2048
"""Characters of the longest token accepted (ours are about 300; frames carry 1024 at most)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class NonceBook:
    """The valid nonces of each (table, player): the newest seat token, and the one before it
    until the newest has been used once (so a connection lost between ``hello`` and
    ``seated`` cannot lock a player out of their seat). Anything older is a replay."""

    def __init__(self, load: Callable[[str], str | None], save: Callable[[str, str], None]):
        self._load = load
        self._save = save
        self._cache: dict[str, tuple[str, str]] = {}

    def _get(self, table: str, pid: str) -> tuple[str, str]:
        key = f"nonce:{table}:{pid}"
        if key not in self._cache:
            value = self._load(key) or "|"
            current, _, previous = value.partition("|")
            self._cache[key] = (current, previous)
        return self._cache[key]

    def _put(self, table: str, pid: str, current: str, previous: str) -> None:
        key = f"nonce:{table}:{pid}"
        self._save(key, f"{current}|{previous}")  # saved first: a failed save changes nothing
        self._cache[key] = (current, previous)

    def accept(self, table: str, pid: str, nonce: str) -> bool:
        """True if ``nonce`` may be used now (consumes the grace of the previous one)."""
        current, previous = self._get(table, pid)
        if nonce and nonce == current:
            if previous:
                self._put(table, pid, current, "")  # the newest arrived: the old one is dead
            return True
        return bool(nonce) and nonce == previous

    def rotate(self, table: str, pid: str, nonce: str, used: str | None) -> None:
        """Make ``nonce`` the newest; ``used`` (the token just presented) stays valid until
        the newest is used."""
        self._put(table, pid, nonce, used or "")


class TokenAuthority:
    def __init__(self, secret: bytes, now: Callable[[], float], nonces: NonceBook) -> None:
        if len(secret) < 32:
            raise ValueError("the token secret needs at least 32 bytes")
        self._secret = secret
        self._now = now
        self.nonces = nonces

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).digest())

    def issue(self, claims: dict[str, Any], ttl: float) -> str:
        claims = {**claims, "x": int(self._now() + ttl)}
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
        return f"{body}.{self._sign(body)}"

    def invite(self, table: str, ttl: float = 7 * 86400) -> str:
        return self.issue({"k": "invite", "t": table}, ttl)

    def director(self, table: str, ttl: float = 30 * 86400) -> str:
        return self.issue({"k": "director", "t": table}, ttl)

    def seat(
        self,
        table: str,
        seat: int,
        pid: str,
        nickname: str,
        ttl: float = 86400,
        used: str | None = None,
    ) -> str:
        """A new seat token; ``used`` is the nonce of the token it replaces, if any."""
        nonce = secrets.token_urlsafe(12)
        self.nonces.rotate(table, pid, nonce, used)
        return self.issue(
            {"k": "seat", "t": table, "s": seat, "p": pid, "n": nickname, "j": nonce}, ttl
        )

    def verify(self, token: str, kind: str | None = None) -> dict[str, Any]:
        """Claims of a valid token. Raises ProtocolError and nothing else, whatever ``token``
        is: ``bad_token`` (forged, malformed, not ASCII, too long, not a string, of another
        kind), ``token_expired`` or ``token_replayed``."""
        if not isinstance(token, str) or not token.isascii() or len(token) > MAX_TOKEN:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "malformed token")
        body, _, signature = token.partition(".")
        if not body or not signature or not hmac.compare_digest(signature, self._sign(body)):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "forged or malformed token")
        try:  # signed by us, so well formed: checked all the same (a leaked secret, a bug)
            claims = json.loads(_unb64(body))
        except (ValueError, RecursionError):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "malformed token") from None
        if not isinstance(claims, dict) or not isinstance(claims.get("x"), int):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "malformed token")
        if claims["x"] < self._now():
            raise ProtocolError(ErrorCode.TOKEN_EXPIRED, "this token has expired")
        if kind is not None and claims.get("k") != kind:
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"a {kind} token is needed")
        table, pid, nonce = str(claims.get("t")), str(claims.get("p")), str(claims.get("j", ""))
        if claims.get("k") == "seat" and not self.nonces.accept(table, pid, nonce):
            raise ProtocolError(
                ErrorCode.TOKEN_REPLAYED, "this seat token was already used: use the newest one"
            )
        return claims
