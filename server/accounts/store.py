"""The members, in their own SQLite file (``members.sqlite`` in the data directory).

Not thread-safe, like the table store: used from the asyncio thread only (the slow hashing
runs elsewhere, server.gateway.accounts). A write that fails raises ``StoreError`` and
changes nothing: no credential is handed out for an account that was not saved.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Protocol

from server.accounts.members import Member, MemberError

__all__ = ["MemberBook", "MemberStore", "MemberStoreError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS members (
    id TEXT PRIMARY KEY,
    login TEXT NOT NULL UNIQUE,
    display TEXT NOT NULL,
    lang TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


class MemberBook(Protocol):
    """Where members are kept: this SQLite file alone, or Redis for several processes
    (server.accounts.redis_store)."""

    def add(self, member: Member) -> None: ...
    def update(self, member: Member) -> None: ...
    def by_login(self, login: str) -> Member | None: ...
    def by_id(self, member_id: str) -> Member | None: ...
    def count(self) -> int: ...
    def close(self) -> None: ...


class MemberStoreError(RuntimeError):
    """The members' file could not be written (full disk, read-only): nothing changed."""


class MemberStore:
    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def add(self, member: Member) -> None:
        """Save a new member; ``account.taken`` when the login is someone's already."""
        try:
            self._db.execute(
                "INSERT INTO members VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    member.id,
                    member.login,
                    member.display,
                    member.lang,
                    member.password_hash,
                    member.version,
                    member.created,
                ),
            )
        except sqlite3.IntegrityError:
            raise MemberError("account.taken", "this login is taken") from None
        except sqlite3.Error as exc:
            raise MemberStoreError(f"members: {exc}") from None

    def update(self, member: Member) -> None:
        try:
            self._db.execute(
                "UPDATE members SET display=?, lang=?, password_hash=?, version=? WHERE id=?",
                (member.display, member.lang, member.password_hash, member.version, member.id),
            )
        except sqlite3.Error as exc:
            raise MemberStoreError(f"members: {exc}") from None

    def by_login(self, login: str) -> Member | None:
        return self._one("login", login)

    def by_id(self, member_id: str) -> Member | None:
        return self._one("id", member_id)

    def _one(self, column: str, value: str) -> Member | None:
        row = self._db.execute(
            f"SELECT id, login, display, lang, password_hash, version, created "
            f"FROM members WHERE {column} = ?",
            (value,),
        ).fetchone()
        if row is None:
            return None
        mid, login, display, lang, password_hash, version, created = row
        return Member(
            id=mid,
            login=login,
            display=display,
            lang=lang,
            password_hash=password_hash,
            version=int(version),
            created=float(created),
        )

    def count(self) -> int:
        (n,) = self._db.execute("SELECT COUNT(*) FROM members").fetchone()
        return int(n)
