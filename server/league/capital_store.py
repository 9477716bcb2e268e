"""Where season capitals are kept: :class:`CapitalBook`, in a SQLite file for one process
(:class:`CapitalStore`, ``capital.sqlite`` of the data directory) or in Redis for several
(:mod:`server.league.redis_capital`). The arithmetic is :mod:`server.league.capital_account`.

Every change is one transaction: a reservation checks the capital and sets the amount aside
at once (``BEGIN IMMEDIATE``: no other writer in between), a settlement copies a table's
totals and ends its holds together. A failure raises :class:`CapitalStoreError` and changes
nothing.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .capital_account import Hold, Stint, available, refusal
from .transaction import transaction

__all__ = ["Account", "CapitalBook", "CapitalRefused", "CapitalStore", "CapitalStoreError"]


class CapitalStoreError(RuntimeError):
    """The capital could not be read or written: nothing changed."""


class CapitalRefused(Exception):
    """The capital does not allow the reservation (``cash.capital``)."""

    def __init__(self, message: str, free: int) -> None:
        super().__init__(message)
        self.message = message
        self.free = free


@dataclass(frozen=True, slots=True)
class Account:
    """One member's account in one season, as stored."""

    member: str
    stints: dict[str, Stint] = field(default_factory=dict)
    holds: tuple[Hold, ...] = ()


class CapitalBook(Protocol):
    """A season capital's accounts (docs/leagues.md, "The season capital")."""

    def reserve(
        self, season: str, member: str, start: int, hold: Hold
    ) -> int:  # pragma: no cover - protocol
        """Set ``hold.amount`` aside when the account allows it, and return what was free
        before; raise :class:`CapitalRefused` (nothing written) when it does not."""
        ...

    def settle(
        self,
        season: str,
        table: str,
        stints: Mapping[str, Stint],
        ended: Mapping[str, Iterable[str]],
    ) -> None:  # pragma: no cover - protocol
        """Copy each member's totals at ``table`` and end his holds listed in ``ended``
        (spent or released), in one transaction."""
        ...

    def drop_holds(self, table: str) -> list[tuple[str, str, Hold]]:  # pragma: no cover
        """End every hold asked at ``table`` (its requests died with a process); returns
        them as ``(season, member, hold)``."""
        ...

    def accounts(self, season: str) -> list[Account]:  # pragma: no cover - protocol
        ...

    def close(self) -> None: ...  # pragma: no cover - protocol


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS stints (
        season TEXT NOT NULL, member TEXT NOT NULL, tbl TEXT NOT NULL,
        brought INTEGER NOT NULL, taken INTEGER NOT NULL, stack INTEGER NOT NULL,
        PRIMARY KEY (season, member, tbl))""",
    """CREATE TABLE IF NOT EXISTS holds (
        hold TEXT PRIMARY KEY, season TEXT NOT NULL, member TEXT NOT NULL,
        tbl TEXT NOT NULL, amount INTEGER NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS holds_by_table ON holds (tbl)",
    "CREATE INDEX IF NOT EXISTS holds_by_member ON holds (season, member)",
)


class CapitalStore:
    """The accounts in a SQLite file (one process; ``:memory:`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        for statement in _SCHEMA:
            self._db.execute(statement)

    def close(self) -> None:
        self._db.close()

    def _write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One transaction: everything in it is written, or nothing (and it raises)."""
        return transaction(self._db, CapitalStoreError, "capital")

    def _account(self, db: sqlite3.Connection, season: str, member: str) -> Account:
        stints = {
            str(tbl): Stint(int(b), int(t), int(s))
            for tbl, b, t, s in db.execute(
                "SELECT tbl, brought, taken, stack FROM stints WHERE season=? AND member=?",
                (season, member),
            )
        }
        holds = tuple(
            Hold(str(h), str(tbl), int(a))
            for h, tbl, a in db.execute(
                "SELECT hold, tbl, amount FROM holds WHERE season=? AND member=? ORDER BY rowid",
                (season, member),
            )
        )
        return Account(member, stints, holds)

    def reserve(self, season: str, member: str, start: int, hold: Hold) -> int:
        with self._write() as db:
            account = self._account(db, season, member)
            free = available(start, account.stints.values(), account.holds)
            refused = refusal(hold.amount, free)
            if refused is not None:
                raise CapitalRefused(refused, free)
            db.execute(
                "INSERT INTO holds (hold, season, member, tbl, amount) VALUES (?, ?, ?, ?, ?)",
                (hold.id, season, member, hold.table, hold.amount),
            )
            return free

    def settle(
        self,
        season: str,
        table: str,
        stints: Mapping[str, Stint],
        ended: Mapping[str, Iterable[str]],
    ) -> None:
        with self._write() as db:
            for member, stint in stints.items():
                db.execute(
                    "INSERT INTO stints (season, member, tbl, brought, taken, stack) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season, member, tbl) DO UPDATE "
                    "SET brought=excluded.brought, taken=excluded.taken, stack=excluded.stack",
                    (season, member, table, stint.brought, stint.taken, stint.stack),
                )
            for holds in ended.values():
                db.executemany("DELETE FROM holds WHERE hold=?", [(h,) for h in holds])

    def drop_holds(self, table: str) -> list[tuple[str, str, Hold]]:
        with self._write() as db:
            rows = [
                (str(season), str(member), Hold(str(h), table, int(a)))
                for h, season, member, a in db.execute(
                    "SELECT hold, season, member, amount FROM holds WHERE tbl=?", (table,)
                )
            ]
            db.execute("DELETE FROM holds WHERE tbl=?", (table,))
            return rows

    def accounts(self, season: str) -> list[Account]:
        try:
            members = [
                str(m)
                for (m,) in self._db.execute(
                    "SELECT member FROM stints WHERE season=? UNION "
                    "SELECT member FROM holds WHERE season=?",
                    (season, season),
                )
            ]
            return [self._account(self._db, season, m) for m in sorted(members)]
        except sqlite3.Error as exc:
            raise CapitalStoreError(f"capital: {exc}") from None
