"""The data directory and its secrets: the directory is private to the server's user (0700),
the token secret lives in its own file (0600, created atomically: written to a private
temporary file, then linked into place, so no reader ever sees it half written or readable by
others). Older data directories kept the secret in ``brasseur.sqlite``: it is moved to the
file (the same secret, so links and tokens already given out keep working) and deleted from
the database.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

__all__ = ["SECRET_FILE", "DataDirError", "load_or_create_secret", "prepare"]

log = logging.getLogger("brasseur.server")

SECRET_FILE = "token-secret"
"""The token secret's file in the data directory (hex, mode 0600)."""


class DataDirError(Exception):
    """The data directory cannot be used (one line, said to the operator as is)."""


def prepare(path: Path) -> Path:
    """Create the data directory (0700) or tighten an existing one; check it is writable."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            path.chmod(0o700)
            log.warning("%s was readable by others (mode %o): now 0700", path, mode)
        probe = path / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise DataDirError(f"cannot use the data directory {path}: {reason}") from None
    databases = ("brasseur.sqlite", "members.sqlite", "leagues.sqlite", "capital.sqlite")
    for name in [f"{db}{end}" for db in databases for end in ("", "-wal", "-shm")]:
        with contextlib.suppress(FileNotFoundError):
            _private(path / name)
    return path


def _private(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        path.chmod(0o600)


def _write_new(path: Path, data: bytes) -> bool:
    """Create ``path`` with ``data``, mode 0600, atomically; False if it already exists."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # fails if another process created it first
        except FileExistsError:
            return False
        dirfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def load_or_create_secret(
    data: Path,
    legacy: Callable[[], str | None] = lambda: None,
    forget: Callable[[], None] = lambda: None,
) -> bytes:
    """The token secret of the data directory. ``legacy`` reads a secret kept by an older
    version (moved here, then ``forget`` deletes it there, only once the file is saved)."""
    path = data / SECRET_FILE
    if not path.exists():
        old = legacy()
        secret = bytes.fromhex(old) if old else secrets.token_bytes(32)
        _write_new(path, secret.hex().encode("ascii"))
    _private(path)
    text = path.read_text("ascii").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        raise DataDirError(f"{path} is not a hex secret: remove it to make a new one") from None
    if len(secret) < 32:
        raise DataDirError(f"{path}: the secret needs at least 32 bytes")
    if legacy() is not None:
        forget()
    return secret
