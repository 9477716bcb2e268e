"""Durable event log and snapshots of the table servers (SQLite), hand records, recovery
support, exports, and the write contract every table store keeps (:mod:`.batch`).

Typical use by a table server::

    store = Store("brasseur.db")
    epoch = store.claim("t1")  # 0 on SQLite; the owner epoch on Redis (fencing)
    store.write("t1", TableWrite(events=((41, "acted", {...}), (42, "board", {...})),
                                 epoch=epoch))                         # then send them
    store.write("t1", TableWrite(events=((43, "won", {...}),), record=(12, record),
                                 snapshot=(13, 43, {...}), epoch=epoch))  # at hand end
    to_pokerstars(store.hand_records("t1"), hero="ana")
    store.hand_page("t1", start=201, count=200)  # [(hand, record), ...]: a page of an export
    body, hands = export_page(records, "json", max_bytes=4 << 20)  # bytes, hands in it

The store's connection belongs to the asyncio thread; worker threads and processes read with
``store.reader()``, a :class:`RecordReader` with a read-only connection of its own per call.

A write is all or nothing; a refused or failed one leaves the store as it was and raises a
:class:`StoreError`: :class:`StoreUnavailable` (retry later), :class:`StaleWriter` (another
process owns the table: stop), :class:`SequenceError` (the seqs do not follow the stored ones).
The older ``append_events``, ``save_snapshot`` and ``save_hand_record`` still work, each on
its own.
"""

from .batch import (
    SequenceError,
    StaleWriter,
    StoreError,
    StoreUnavailable,
    TableWrite,
)
from .export import EXPORT_FORMATS, ExportFormat, export_page, to_json, to_pokerstars
from .handdesc import describe_hand
from .reader import RecordReader
from .sqlite_store import HAND_CANCELLED, SCHEMA_VERSION, Event, Store

__all__ = [
    "EXPORT_FORMATS",
    "HAND_CANCELLED",
    "SCHEMA_VERSION",
    "Event",
    "ExportFormat",
    "RecordReader",
    "SequenceError",
    "StaleWriter",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableWrite",
    "describe_hand",
    "export_page",
    "to_json",
    "to_pokerstars",
]
