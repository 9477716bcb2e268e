"""The durable log of the table servers, over one SQLite file (standard library ``sqlite3``).

One :class:`Store` per process, used from the asyncio thread: every method is synchronous,
short and runs on a single connection. The table actor appends a batch of events with
:meth:`Store.append_events` and sends them to anyone only after it returns (architecture,
"How a command travels" step 3), so a batch that was seen by a client is always on disk.

Recovery after a crash: :meth:`Store.tables` gives the table definitions,
:meth:`Store.last_snapshot` the state at the start of the last hand, and
:meth:`Store.interrupted_hand` tells whether that hand was cut (cdc 5.4: the hand is cancelled,
every bet returned, i.e. the stacks of that snapshot).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal

__all__ = ["HAND_CANCELLED", "SCHEMA_VERSION", "Event", "Store"]

SCHEMA_VERSION: Final = 1
"""``PRAGMA user_version`` of the schema this module writes."""

HAND_CANCELLED: Final = "hand_cancelled"
"""Event kind the table server appends once it has cancelled an interrupted hand."""

Event = tuple[int, str, dict[str, Any]]
"""``(seq, kind, payload)``; the payload is a JSON object."""

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]

_SCHEMA: Final = """
CREATE TABLE events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE INDEX events_kind ON events (table_id, kind, seq);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY,
    config TEXT NOT NULL
);
CREATE TABLE snapshots (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    PRIMARY KEY (table_id, hand)
) WITHOUT ROWID;
CREATE TABLE hand_records (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, hand)
) WITHOUT ROWID;
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"""


def _dump(value: dict[str, Any]) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"expected a dict, got {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _load(text: str) -> dict[str, Any]:
    value = json.loads(text)
    assert isinstance(value, dict), "stored JSON is always an object"
    return value


class Store:
    """Event log, table definitions, snapshots, hand records and settings of one server.

    ``path`` is a file (created if missing) or ``":memory:"``. Payloads, configs, snapshots and
    records must be JSON objects (dicts with string keys); they come back as new dicts.

    Not thread-safe: use it from the thread that opened it (the asyncio thread).
    Raises ``RuntimeError`` when the file was written by a newer schema version.
    """

    def __init__(self, path: str | Path, *, synchronous: Synchronous = "NORMAL") -> None:
        self._path = str(path)
        # Autocommit mode: transactions are opened and closed explicitly below.
        self._db = sqlite3.connect(self._path, isolation_level=None)
        self._last: dict[str, int] = {}
        try:
            # WAL: a commit is one append to the -wal file, readers never block the writer,
            # and a torn write at a crash is discarded at the next open (checksummed frames).
            self._db.execute("PRAGMA journal_mode=WAL")  # ":memory:" stays "memory"
            # With WAL, synchronous=NORMAL fsyncs only at checkpoints, not at each commit.
            # A committed transaction has been written (write(2)) to the -wal file before
            # COMMIT returns, so it lives in the OS page cache and survives a crash or a
            # SIGKILL of *this process*. Only an OS crash or power loss can lose the last
            # commits (rolled back, never corrupting the file). Pass synchronous="FULL" to
            # also survive those, at the price of one fsync per batch.
            if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
                raise ValueError(f"bad synchronous mode {synchronous!r}")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    # -- lifecycle ------------------------------------------------------------------------

    def _migrate(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version == 0:
                # One by one: executescript() would COMMIT the open transaction first.
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self._path}: schema version {version}, this server knows {SCHEMA_VERSION}"
                )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close the connection (a WAL checkpoint happens if this was the last one)."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement in its own transaction (autocommit: committed when it returns)."""
        self._db.execute(sql, params)

    # -- events ---------------------------------------------------------------------------

    def append_events(self, table: str, events: list[Event]) -> None:
        """Append ``(seq, kind, payload)`` events in one transaction, committed on return.

        Sequence numbers must be strictly increasing, after the last one stored for
        ``table``. Raises ``ValueError`` (nothing written) if not, ``TypeError`` if a payload
        is not JSON-serialisable.
        """
        if not events:
            return
        last = self.last_seq(table)
        rows: list[tuple[str, int, str, str]] = []
        for seq, kind, payload in events:
            if type(seq) is not int or seq <= last:
                raise ValueError(
                    f"table {table!r}: event seq {seq!r} does not follow {last} "
                    "(sequence numbers must be strictly increasing)"
                )
            rows.append((table, seq, str(kind), _dump(payload)))
            last = seq
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(
                "INSERT INTO events (table_id, seq, kind, payload) VALUES (?, ?, ?, ?)", rows
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            self._last.pop(table, None)  # re-read from the file next time
            raise
        self._last[table] = last

    def events_after(self, table: str, seq: int, limit: int = 10_000) -> list[Event]:
        """Events of ``table`` with a sequence number above ``seq``, oldest first, at most
        ``limit`` of them."""
        cursor = self._db.execute(
            "SELECT seq, kind, payload FROM events WHERE table_id = ? AND seq > ? "
            "ORDER BY seq LIMIT ?",
            (table, seq, limit),
        )
        return [(s, k, _load(p)) for s, k, p in cursor]

    def last_seq(self, table: str) -> int:
        """The last sequence number stored for ``table``, 0 if none."""
        last = self._last.get(table)
        if last is None:
            row = self._db.execute(
                "SELECT MAX(seq) FROM events WHERE table_id = ?", (table,)
            ).fetchone()
            last = self._last[table] = row[0] or 0
        return last

    # -- tables ---------------------------------------------------------------------------

    def save_table(self, table: str, config: dict[str, Any]) -> None:
        """Create or replace the definition of ``table`` (profile, blinds, seats...)."""
        self._write(
            "INSERT INTO tables (table_id, config) VALUES (?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET config = excluded.config",
            (table, _dump(config)),
        )

    def tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every saved table definition, in order of first save."""
        cursor = self._db.execute("SELECT table_id, config FROM tables ORDER BY rowid")
        return [(t, _load(c)) for t, c in cursor]

    # -- snapshots and recovery -----------------------------------------------------------

    def save_snapshot(self, table: str, hand: int, seq: int, snapshot: dict[str, Any]) -> None:
        """Save the state of ``table`` at the start of hand ``hand``; ``seq`` is the last
        sequence number appended before the hand started. Saving the same hand again (a hand
        replayed after a cancellation) replaces it."""
        self._write(
            "INSERT OR REPLACE INTO snapshots (table_id, hand, seq, snapshot) VALUES (?, ?, ?, ?)",
            (table, hand, seq, _dump(snapshot)),
        )

    def last_snapshot(self, table: str) -> tuple[int, int, dict[str, Any]] | None:
        """``(hand, seq, snapshot)`` of the highest hand number of ``table``, or None."""
        row = self._db.execute(
            "SELECT hand, seq, snapshot FROM snapshots WHERE table_id = ? "
            "ORDER BY hand DESC LIMIT 1",
            (table,),
        ).fetchone()
        return None if row is None else (row[0], row[1], _load(row[2]))

    def interrupted_hand(self, table: str) -> int | None:
        """The hand of the last snapshot if it was cut by a crash, else None.

        A hand was cut when its snapshot exists but it has no hand record, and no
        ``"hand_cancelled"`` event was appended after its snapshot (so a second restart does
        not cancel it twice). The caller cancels it (cdc 5.4: stacks back to the snapshot)
        and appends a ``"hand_cancelled"`` event.
        """
        last = self.last_snapshot(table)
        if last is None:
            return None
        hand, seq, _ = last
        row = self._db.execute(
            "SELECT EXISTS (SELECT 1 FROM hand_records WHERE table_id = ? AND hand = ?), "
            "EXISTS (SELECT 1 FROM events WHERE table_id = ? AND kind = ? AND seq > ?)",
            (table, hand, table, HAND_CANCELLED, seq),
        ).fetchone()
        has_record, cancelled = row
        return None if has_record or cancelled else hand

    # -- hand records ---------------------------------------------------------------------

    def save_hand_record(self, table: str, hand: int, record: dict[str, Any]) -> None:
        """Save (or replace) the record of a finished hand."""
        self._write(
            "INSERT OR REPLACE INTO hand_records (table_id, hand, record) VALUES (?, ?, ?)",
            (table, hand, _dump(record)),
        )

    def hand_record(self, table: str, hand: int) -> dict[str, Any] | None:
        row = self._db.execute(
            "SELECT record FROM hand_records WHERE table_id = ? AND hand = ?", (table, hand)
        ).fetchone()
        return None if row is None else _load(row[0])

    def hand_records(self, table: str) -> list[dict[str, Any]]:
        """Every hand record of ``table``, in hand order."""
        cursor = self._db.execute(
            "SELECT record FROM hand_records WHERE table_id = ? ORDER BY hand", (table,)
        )
        return [_load(r) for (r,) in cursor]

    # -- settings -------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
