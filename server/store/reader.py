"""Reads of hand records and settings, shared by :class:`~server.store.Store` (on the asyncio
thread) and :class:`RecordReader` (from worker threads or processes, off the event loop).

SQLite connections belong to the thread that opened them, so the gateway's HTTP routes do not
use the store's connection: a :class:`RecordReader` opens its own read-only connection for
each call, in the thread (or process) that makes it. With WAL (the store's journal mode)
readers never block the writer, nor the writer them; each call sees the last committed state.

Hand numbers outside SQLite's integer range (a number typed in a URL) match no hand: they
return nothing instead of raising ``OverflowError``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Final

__all__ = [
    "MAX_HAND",
    "Drawn",
    "RecordReader",
    "drawn_cards",
    "draws_of",
    "get_meta",
    "hand_count",
    "hand_page",
    "hand_record",
    "hand_texts",
    "hole_cards",
    "holes_of",
]

MAX_HAND: Final = 2**63 - 1
"""The largest hand number SQLite can store (a signed 64-bit integer)."""


def _record(text: str) -> dict[str, Any]:
    value = json.loads(text)
    assert isinstance(value, dict), "stored JSON is always an object"
    return value


def hand_texts(
    db: sqlite3.Connection, table: str, start: int = 0, count: int | None = None
) -> list[tuple[int, str]]:
    """As :func:`hand_page`, the records left as their stored JSON text: an export page
    decodes each one just before writing it, so that only one is alive at a time (no heap of
    objects for the garbage collector to scan while the page is built)."""
    if start > MAX_HAND or (count is not None and count <= 0):
        return []
    cursor = db.execute(
        "SELECT hand, record FROM hand_records WHERE table_id = ? AND hand >= ? "
        "ORDER BY hand LIMIT ?",
        (table, max(start, -MAX_HAND - 1), -1 if count is None else min(count, MAX_HAND)),
    )
    return [(int(hand), str(text)) for hand, text in cursor]


def hand_page(
    db: sqlite3.Connection, table: str, start: int = 0, count: int | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """``(hand, record)`` of the hands of ``table`` numbered ``start`` or more, in hand order,
    at most ``count`` of them (None: all)."""
    return [(hand, _record(text)) for hand, text in hand_texts(db, table, start, count)]


def hand_count(db: sqlite3.Connection, table: str) -> int:
    """How many hand records ``table`` has."""
    (count,) = db.execute(
        "SELECT COUNT(*) FROM hand_records WHERE table_id = ?", (table,)
    ).fetchone()
    return int(count)


def hand_record(db: sqlite3.Connection, table: str, hand: int) -> dict[str, Any] | None:
    """The record of hand ``hand`` of ``table``, or None."""
    if not -MAX_HAND - 1 <= hand <= MAX_HAND:
        return None
    row = db.execute(
        "SELECT record FROM hand_records WHERE table_id = ? AND hand = ?", (table, hand)
    ).fetchone()
    return None if row is None else _record(row[0])


def hole_cards(
    db: sqlite3.Connection, table: str, player: str, first: int, last: int
) -> dict[int, tuple[int, list[str]]]:
    """``hand -> (seat, cards)``: the hole cards dealt to ``player`` (a player id, never a
    seat: whoever sat there later is someone else) in the hands ``first``..``last`` of
    ``table``, from the private ``hole`` events of the table's log."""
    if first > MAX_HAND or last < -MAX_HAND - 1:
        return {}
    # the table's hole events (index events_kind), filtered in SQLite's JSON functions: only
    # the page's hands dealt to this player are decoded in Python
    cursor = db.execute(
        "SELECT payload FROM events WHERE table_id = ? AND kind = 'hole'"
        " AND json_extract(payload, '$.owner') = ?"
        " AND json_extract(payload, '$.hand') BETWEEN ? AND ? ORDER BY seq",
        (table, player, max(first, -MAX_HAND - 1), min(last, MAX_HAND)),
    )
    return holes_of((_record(payload) for (payload,) in cursor), player, first, last)


def holes_of(
    payloads: Iterable[dict[str, Any]], player: str, first: int, last: int
) -> dict[int, tuple[int, list[str]]]:
    """:func:`hole_cards` from ``hole`` event payloads (any store)."""
    out: dict[int, tuple[int, list[str]]] = {}
    for data in payloads:
        hand = data.get("hand")
        if data.get("owner") == player and isinstance(hand, int) and first <= hand <= last:
            out[hand] = (int(data["seat"]), [str(c) for c in data["cards"]])
    return out


Drawn = dict[int, tuple[int, dict[str, list[str]]]]
"""``hand -> (seat, {"discarded": [...], "received": [...]})``: a player's own five-card
draws (see :func:`drawn_cards`)."""


def drawn_cards(db: sqlite3.Connection, table: str, player: str, first: int, last: int) -> Drawn:
    """What ``player`` (a player id, never a seat) discarded and received at the five-card
    draw in the hands ``first``..``last`` of ``table``, from the private ``drawn`` events of
    the table's log: his own export's ``drawn`` (a hand he mucked shows his draw to him)."""
    if first > MAX_HAND or last < -MAX_HAND - 1:
        return {}
    cursor = db.execute(
        "SELECT payload FROM events WHERE table_id = ? AND kind = 'drawn'"
        " AND json_extract(payload, '$.owner') = ?"
        " AND json_extract(payload, '$.hand') BETWEEN ? AND ? ORDER BY seq",
        (table, player, max(first, -MAX_HAND - 1), min(last, MAX_HAND)),
    )
    return draws_of((_record(payload) for (payload,) in cursor), player, first, last)


_DRAWN_KEYS = ("discarded", "received")


def draws_of(payloads: Iterable[dict[str, Any]], player: str, first: int, last: int) -> Drawn:
    """:func:`drawn_cards` from ``drawn`` event payloads (any store)."""
    out: Drawn = {}
    for data in payloads:
        hand = data.get("hand")
        if data.get("owner") == player and isinstance(hand, int) and first <= hand <= last:
            cards = {key: [str(c) for c in data.get(key) or []] for key in _DRAWN_KEYS}
            out[hand] = (int(data["seat"]), cards)
    return out


def get_meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


class RecordReader:
    """Read-only access to a store's file from any thread: each call opens a read-only
    connection (``mode=ro``), reads and closes it, in the calling thread (about 0.1 ms, far
    below the reads it serves). Raises ``sqlite3.Error`` if the file cannot be read."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        self._uri = f"{self.path.as_uri()}?mode=ro"

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self._uri, uri=True, timeout=5.0)
        try:
            yield db
        finally:
            db.close()

    def hand_page(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        with self._connect() as db:
            return hand_page(db, table, start, count)

    def hand_texts(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[tuple[int, str]]:
        with self._connect() as db:
            return hand_texts(db, table, start, count)

    def hand_count(self, table: str) -> int:
        with self._connect() as db:
            return hand_count(db, table)

    def hand_record(self, table: str, hand: int) -> dict[str, Any] | None:
        with self._connect() as db:
            return hand_record(db, table, hand)

    def get_meta(self, key: str) -> str | None:
        with self._connect() as db:
            return get_meta(db, key)

    def hole_cards(
        self, table: str, player: str, first: int, last: int
    ) -> dict[int, tuple[int, list[str]]]:
        with self._connect() as db:
            return hole_cards(db, table, player, first, last)

    def drawn_cards(self, table: str, player: str, first: int, last: int) -> Drawn:
        with self._connect() as db:
            return drawn_cards(db, table, player, first, last)
