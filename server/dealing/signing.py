"""Ed25519 signatures on hand records, with the server key kept in a PEM file (mode 0600)."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.verify import signed_bytes

__all__ = ["Signer"]


class Signer:
    """Signs hand records with one Ed25519 key; :mod:`protocol.verify` checks them."""

    __slots__ = ("_key", "public_key_hex")

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key_hex: str = (
            private_key.public_key()
            .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            .hex()
        )
        """The raw 32-byte public key in hex, as written in records and given to ``--key``."""

    def __repr__(self) -> str:
        return f"Signer(public_key={self.public_key_hex})"

    @classmethod
    def generate(cls) -> Signer:
        """A signer with a new key held in memory only."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> Signer:
        """The signer whose key is in the PEM file ``path``; create the file if it is missing.

        A new key is written as unencrypted PKCS#8 PEM with mode 0600, atomically: the file
        appears complete or not at all, and when two processes race, both end up with the
        key of the one that linked it first. Raises ValueError if the file holds something
        other than an Ed25519 private key, OSError if it cannot be read or written.
        """
        target = Path(path)
        if not target.exists():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            if _create_exclusive(target, pem):
                return cls(key)
        loaded = serialization.load_pem_private_key(target.read_bytes(), password=None)
        if not isinstance(loaded, Ed25519PrivateKey):
            raise ValueError(f"{target} does not hold an Ed25519 private key")
        return cls(loaded)

    def sign_record(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """A signed copy of ``record``: its JSON form plus ``public_key`` and ``signature``.

        The copy is normalised through JSON first (tuples become lists, integer keys
        strings), so it signs exactly what a verifier will read back from the file. The
        signature covers :func:`protocol.verify.signed_bytes` (canonical JSON without
        ``"signature"``, ``public_key`` included). Raises TypeError or ValueError for a
        record JSON cannot carry exactly (e.g. NaN, a set, mixed key types).
        """
        body = {key: value for key, value in record.items() if key != "signature"}
        text = json.dumps(body, sort_keys=True, ensure_ascii=False, allow_nan=False)
        signed: dict[str, Any] = json.loads(text)
        signed["public_key"] = self.public_key_hex
        signed["signature"] = self._key.sign(signed_bytes(signed)).hex()
        return signed


def _create_exclusive(target: Path, data: bytes) -> bool:
    """Write ``data`` to ``target`` (mode 0600) unless it exists; True if this call made it."""
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        try:
            os.link(tmp, target)
        except FileExistsError:
            return False
    finally:
        tmp.unlink(missing_ok=True)
    return True
