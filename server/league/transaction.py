"""One SQLite write transaction for the leagues' files (the leagues', the capital's): every
statement in it is written, or none, and a SQLite error becomes the store's own error."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator

__all__ = ["transaction"]


@contextlib.contextmanager
def transaction(
    db: sqlite3.Connection, error: Callable[[str], Exception], what: str
) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` (no other writer until it ends), then ``COMMIT``; on any failure
    ``ROLLBACK`` and, for a SQLite error, ``error(f"{what}: ...")`` raised instead."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise error(f"{what}: {exc}") from None
    try:
        yield db
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise error(f"{what}: {exc}") from None
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
