"""Durable event log and snapshots of the table servers (SQLite), hand records, recovery
support and exports.

Typical use by a table server::

    store = Store("brasseur.db")
    store.append_events("t1", [(41, "acted", {...}), (42, "board", {...})])  # then send them
    store.save_snapshot("t1", hand=12, seq=42, snapshot={...})              # at hand start
    store.save_hand_record("t1", 12, record)                                # at hand end
    to_pokerstars(store.hand_records("t1"), hero="ana")
"""

from .export import to_json, to_pokerstars
from .handdesc import describe_hand
from .sqlite_store import HAND_CANCELLED, SCHEMA_VERSION, Event, Store

__all__ = [
    "HAND_CANCELLED",
    "SCHEMA_VERSION",
    "Event",
    "Store",
    "describe_hand",
    "to_json",
    "to_pokerstars",
]
