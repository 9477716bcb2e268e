"""Passwords, stored only as Scrypt hashes (memory-hard KDF: OpenSSL's, through ``hashlib``).

A stored hash reads ``scrypt$<log2 n>$<r>$<p>$<salt>$<key>`` (salt and key in base64url):
the parameters travel with each hash, so they can be raised later without breaking old
accounts. The default costs 32 MiB and about a tenth of a second on one core: the shell
runs it off the event loop, a few at a time (server.gateway.accounts).

``hashlib.scrypt`` releases the GIL while it works; ``cryptography``'s ``Scrypt`` (used
before issue 26, the same function and the same keys) holds it, so a hash in a thread still
froze the event loop for its tenth of a second (measured: a 70 ms stall per hash, 770 ms
for ten at once; 18 ms for ten at once with ``hashlib``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

__all__ = [
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "PasswordError",
    "ScryptParams",
    "check_password",
    "hash_password",
    "verify_password",
]

MIN_PASSWORD = 10
MAX_PASSWORD = 256
"""Characters: a bound on the work one attempt costs."""


class PasswordError(ValueError):
    """A password the policy refuses (code ``account.weak_password``)."""


@dataclass(frozen=True, slots=True)
class ScryptParams:
    log2_n: int = 15
    r: int = 8
    p: int = 1

    def derive(self, password: str, salt: bytes) -> bytes:
        """The 32-byte key of ``password`` (slow on purpose; the GIL is released meanwhile)."""
        memory = 128 * self.r * ((1 << self.log2_n) + self.p + 2)  # what OpenSSL asks for
        return hashlib.scrypt(
            password.encode("utf-8"),
            salt=salt,
            n=1 << self.log2_n,
            r=self.r,
            p=self.p,
            maxmem=memory + (1 << 20),
            dklen=32,
        )


DEFAULT = ScryptParams()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_password(password: str, login: str = "") -> None:
    """Refuse a password too short, too long, or the login itself."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise PasswordError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if login and password.casefold() == login.casefold():
        raise PasswordError("a password is not the login")
    if len(set(password)) < 4:
        raise PasswordError("a password needs at least four different characters")


def hash_password(password: str, params: ScryptParams = DEFAULT) -> str:
    """A new salted hash of ``password`` (slow on purpose)."""
    salt = secrets.token_bytes(16)
    key = params.derive(password, salt)
    return f"scrypt${params.log2_n}${params.r}${params.p}${_b64(salt)}${_b64(key)}"


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` gives ``stored`` (the keys compared in constant time). False for
    a malformed hash or a password over the maximum, without doing the work."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt" or len(password) > MAX_PASSWORD:
        return False
    try:
        params = ScryptParams(int(parts[1]), int(parts[2]), int(parts[3]))
        salt, key = _unb64(parts[4]), _unb64(parts[5])
    except ValueError:
        return False
    if not 10 <= params.log2_n <= 20 or not 1 <= params.r <= 16 or not 1 <= params.p <= 4:
        return False  # a stored hash asking for unbounded work is not ours
    try:
        derived = params.derive(password, salt)
    except (ValueError, MemoryError):  # a password with lone surrogates, odd parameters
        return False
    return hmac.compare_digest(derived, key)
