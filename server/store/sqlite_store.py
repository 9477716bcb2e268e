"""The durable log of the table servers, over one SQLite file (standard library ``sqlite3``).

One :class:`Store` per process, used from the asyncio thread: every method is synchronous,
short and runs on a single connection. The table actor stores what a step produced and sends
it to anyone only after the store returned (architecture, "How a command travels" step 3), so
a batch that was seen by a client is always on disk.

The write contract (:mod:`server.store.batch`): :meth:`Store.write` stores one
:class:`~server.store.batch.TableWrite` (the step's events and, at a hand's end, the hand
record and the snapshot) in one ``BEGIN IMMEDIATE`` transaction: all or nothing. The first
event must follow the last stored one exactly (else :class:`~server.store.batch.SequenceError`)
and any SQLite failure (disk full, I/O error, database locked) is rolled back and raised as
:class:`~server.store.batch.StoreUnavailable`: the store is then exactly as before and the same
batch can be retried, with the same sequence numbers. One process owns the file, so there is
nothing to fence: :meth:`Store.claim` returns 0 and the batch's epoch is ignored. The older
:meth:`Store.append_events`, :meth:`Store.save_snapshot` and :meth:`Store.save_hand_record`
still work, each in its own transaction.

``max_pages`` (``PRAGMA max_page_count``) bounds the size of the database: an operator's quota,
and how the tests make the disk full without root (tests/store/test_atomic_write.py).

Recovery after a crash: :meth:`Store.tables` gives the table definitions,
:meth:`Store.last_snapshot` the state at the start of the last hand, and
:meth:`Store.interrupted_hand` tells whether that hand was cut (cdc 5.4: the hand is cancelled,
every bet returned, i.e. the stacks of that snapshot).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal

from .batch import Event, SequenceError, StoreUnavailable, TableWrite
from .reader import (
    Drawn,
    RecordReader,
    drawn_cards,
    hand_count,
    hand_page,
    hand_record,
    hand_texts,
    hole_cards,
)

__all__ = ["HAND_CANCELLED", "SCHEMA_VERSION", "Event", "Store"]

SCHEMA_VERSION: Final = 1
"""``PRAGMA user_version`` of the schema this module writes."""

HAND_CANCELLED: Final = "hand_cancelled"
"""Event kind the table server appends once it has cancelled an interrupted hand."""

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


def _unavailable(what: str, exc: sqlite3.Error) -> StoreUnavailable:
    return StoreUnavailable(f"{what}: the store cannot write now: {exc}")


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

    ``max_pages``: the most pages the database may have (``PRAGMA max_page_count``, see
    :meth:`set_max_pages`); None: SQLite's default maximum.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        max_pages: int | None = None,
    ) -> None:
        self._path = str(path)
        # Autocommit mode: transactions are opened and closed explicitly below.
        self._db = sqlite3.connect(self._path, isolation_level=None)
        self._last: dict[str, int] = {}
        try:
            # The limit of a new connection is the compile-time maximum of this SQLite
            # (SQLITE_MAX_PAGE_COUNT: 1073741823 up to 3.44, 4294967294 from 3.45): kept to go
            # back to it, since the pragma has no "default" value.
            (limit,) = self._db.execute("PRAGMA max_page_count").fetchone()
            self._default_max_pages = int(limit)
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
            if max_pages is not None:
                self.set_max_pages(max_pages)  # after the schema: the limit bounds growth only
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
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Roll back the open transaction, if any: after SQLITE_FULL, SQLITE_IOERR or
        SQLITE_NOMEM, SQLite has already rolled it back by itself, and a ROLLBACK then fails
        ("no transaction is active"), hiding the error that mattered. Errors of the ROLLBACK
        itself are swallowed: the caller is already raising, and :meth:`write` retries it."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    def set_max_pages(self, n: int | None) -> int:
        """Limit the database to ``n`` pages (``PRAGMA max_page_count``; None: back to SQLite's
        default maximum), and return the limit in force.

        A write that needs more pages fails with SQLITE_FULL ("database or disk is full"),
        which :meth:`write` raises as :class:`StoreUnavailable`. The limit cannot go below the
        current size of the database: SQLite then sets it to that size (the return value says
        so). It belongs to this connection: it is not stored in the file.

        With WAL (the mode of this store), the limit still holds: SQLite compares it with the
        size of the database as this connection sees it, the pages still in the -wal file
        included, so neither a write nor a later checkpoint can grow the database past it (no
        checkpoint is needed). It does not bound the -wal file itself, which holds up to
        ``wal_autocheckpoint`` pages (1000 by default, 4 MB) on top of the database until the
        next checkpoint.
        """
        if n is not None and (type(n) is not int or n < 1):
            raise ValueError(f"max_pages must be a positive int or None, got {n!r}")
        limit = self._default_max_pages if n is None else n
        (value,) = self._db.execute(f"PRAGMA max_page_count={int(limit)}").fetchone()
        return int(value)

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
        """One statement in its own transaction (autocommit: committed when it returns);
        StoreUnavailable if SQLite fails (nothing written)."""
        try:
            self._rollback()  # left open by a ROLLBACK that failed (e.g. an I/O error)
            self._db.execute(sql, params)
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.DatabaseError as exc:
            raise _unavailable(repr(params[0]), exc) from exc

    # -- atomic writes --------------------------------------------------------------------

    def claim(self, table: str) -> int:
        """The owner epoch of ``table`` for this process: always 0, one process owns the file
        (the Redis store fences; this one has the method so callers use both alike)."""
        return 0

    def write(self, table: str, batch: TableWrite) -> None:
        """Store ``batch`` (events, snapshot, record) in one transaction: all or nothing.

        The first event's seq must be exactly :meth:`last_seq` + 1, else
        :class:`SequenceError` and nothing is written, unless every event of the batch is
        already stored identically (the retry of a write that did happen): then nothing is
        written and it returns. The snapshot replaces the one of its hand, the record the one
        of its hand. ``batch.epoch`` is ignored (see :meth:`claim`).

        Raises ``TypeError`` (nothing written) if a payload, snapshot or record is not a
        JSON-serialisable dict, and :class:`StoreUnavailable` (rolled back, nothing written,
        retry later) on any SQLite failure: disk full, I/O error, database locked.
        """
        if batch.empty:
            return
        # Everything that can fail without I/O is done before the transaction opens.
        rows = [(table, seq, str(kind), _dump(payload)) for seq, kind, payload in batch.events]
        snapshot = None
        if batch.snapshot is not None:
            hand, seq, data = batch.snapshot
            snapshot = (table, hand, seq, _dump(data))
        record = None
        if batch.record is not None:
            hand, data = batch.record
            record = (table, hand, _dump(data))
        try:
            self._rollback()  # left open by a ROLLBACK that failed (e.g. an I/O error)
            written = self._transaction(table, rows, snapshot, record)
        except sqlite3.ProgrammingError:
            raise  # a closed store, a misuse: a bug, not an unavailable disk
        except sqlite3.DatabaseError as exc:
            self._last.pop(table, None)  # re-read from the file next time
            raise _unavailable(f"table {table!r}", exc) from exc
        if rows and written:
            self._last[table] = rows[-1][1]

    def _transaction(
        self,
        table: str,
        rows: list[tuple[str, int, str, str]],
        snapshot: tuple[str, int, int, str] | None,
        record: tuple[str, int, str] | None,
    ) -> bool:
        """One transaction; False if the batch was already stored (nothing written)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if rows and not self._follows(table, rows):
                db.execute("ROLLBACK")  # the batch is already stored: nothing to write
                return False
            db.executemany(
                "INSERT INTO events (table_id, seq, kind, payload) VALUES (?, ?, ?, ?)", rows
            )
            if snapshot is not None:
                db.execute(
                    "INSERT OR REPLACE INTO snapshots (table_id, hand, seq, snapshot) "
                    "VALUES (?, ?, ?, ?)",
                    snapshot,
                )
            if record is not None:
                db.execute(
                    "INSERT OR REPLACE INTO hand_records (table_id, hand, record) VALUES (?, ?, ?)",
                    record,
                )
            db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return True

    def _follows(self, table: str, rows: list[tuple[str, int, str, str]]) -> bool:
        """In the write transaction: True if ``rows`` follow the stored events exactly, False
        if they are all stored already, identical (a retry); else raise SequenceError."""
        (stored,) = self._db.execute(
            "SELECT MAX(seq) FROM events WHERE table_id = ?", (table,)
        ).fetchone()
        last = self._last[table] = stored or 0
        first = rows[0][1]
        if first == last + 1:
            return True
        if first <= last:
            cursor = self._db.execute(
                "SELECT seq, kind, payload FROM events WHERE table_id = ? AND seq BETWEEN ? AND ? "
                "ORDER BY seq",
                (table, first, rows[-1][1]),
            )
            if cursor.fetchall() == [row[1:] for row in rows]:
                return False
        raise SequenceError(
            f"table {table!r}: event seq {first} does not follow {last} "
            "(the first seq of a batch must be the last stored one plus one)",
            stored=last,
        )

    # -- events ---------------------------------------------------------------------------

    def append_events(self, table: str, events: list[Event]) -> None:
        """Append ``(seq, kind, payload)`` events in one transaction, committed on return.

        Sequence numbers must be strictly increasing, after the last one stored for
        ``table``. Raises ``ValueError`` (nothing written) if not, ``TypeError`` if a payload
        is not JSON-serialisable, :class:`StoreUnavailable` (nothing written) if SQLite fails.
        :meth:`write` is the stricter form (consecutive seqs, with a snapshot and a record).
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
        try:
            self._rollback()  # left open by a ROLLBACK that failed
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO events (table_id, seq, kind, payload) VALUES (?, ?, ?, ?)", rows
                )
                db.execute("COMMIT")
            except BaseException:
                self._rollback()
                self._last.pop(table, None)  # re-read from the file next time
                raise
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.DatabaseError as exc:
            raise _unavailable(f"table {table!r}", exc) from exc
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

    def drop_table(self, table: str) -> None:
        """Forget ``table``: its definition, its event log and its snapshots, in one
        transaction (it is not restored any more). What its players' hand histories need is
        kept: the hand records (exports, verification), the private ``hole`` events (each
        player's own export shows his cards) and the seat-token nonces (his newest seat token
        still opens his own export). Tables dropped this way have random ids, never reused:
        the kept events cannot meet a new table's."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql in (
                    "DELETE FROM tables WHERE table_id = ?",
                    "DELETE FROM events WHERE table_id = ? AND kind != 'hole'",
                    "DELETE FROM snapshots WHERE table_id = ?",
                ):
                    self._db.execute(sql, (table,))
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        except sqlite3.Error as exc:
            raise _unavailable(f"table {table!r}", exc) from exc
        self._last.pop(table, None)

    def delete_meta(self, key: str) -> None:
        self._write("DELETE FROM meta WHERE key = ?", (key,))

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
        """The record of hand ``hand``, or None (a number SQLite cannot hold included)."""
        return hand_record(self._db, table, hand)

    def hand_records(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[dict[str, Any]]:
        """The hand records of ``table`` in hand order: every one, or a page of at most
        ``count`` from hand ``start`` on (:meth:`hand_page` gives their numbers too)."""
        return [record for _, record in hand_page(self._db, table, start, count)]

    def hand_page(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        """``(hand, record)`` of at most ``count`` hands of ``table`` from hand ``start`` on,
        in hand order: a page of an export (the next page starts after its last hand)."""
        return hand_page(self._db, table, start, count)

    def hand_texts(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[tuple[int, str]]:
        """As :meth:`hand_page`, each record left as its stored JSON text."""
        return hand_texts(self._db, table, start, count)

    def hand_count(self, table: str) -> int:
        """How many hand records ``table`` has."""
        return hand_count(self._db, table)

    def hole_cards(
        self, table: str, player: str, first: int, last: int
    ) -> dict[int, tuple[int, list[str]]]:
        """``hand -> (seat, cards)`` dealt to ``player`` (reader.hole_cards)."""
        return hole_cards(self._db, table, player, first, last)

    def drawn_cards(self, table: str, player: str, first: int, last: int) -> Drawn:
        """``player``'s own five-card draws (reader.drawn_cards)."""
        return drawn_cards(self._db, table, player, first, last)

    def reader(self) -> RecordReader | None:
        """A read-only view of this store's file for worker threads and processes (reads off
        the event loop), or None for a ``":memory:"`` store, which no other connection sees."""
        if self._path in ("", ":memory:") or self._path.startswith("file:"):
            return None
        return RecordReader(self._path)

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
