"""Store: the event log, table definitions, snapshots, recovery, hand records, settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.store import HAND_CANCELLED, SCHEMA_VERSION, Store


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "brasseur.db"


def test_append_and_read_in_order(db: Path) -> None:
    with Store(db) as store:
        assert store.last_seq("t1") == 0
        assert store.events_after("t1", 0) == []
        store.append_events("t1", [(1, "hand_started", {"hand": 1}), (2, "acted", {"to": 40})])
        store.append_events("t1", [(3, "board", {"cards": ["Ah", "Kd", "2c"]})])
        assert store.last_seq("t1") == 3
        assert store.events_after("t1", 0) == [
            (1, "hand_started", {"hand": 1}),
            (2, "acted", {"to": 40}),
            (3, "board", {"cards": ["Ah", "Kd", "2c"]}),
        ]
        assert [e[0] for e in store.events_after("t1", 1)] == [2, 3]
        assert [e[0] for e in store.events_after("t1", 0, limit=2)] == [1, 2]
        assert store.events_after("t1", 3) == []


def test_sequences_may_skip_but_tables_are_independent(db: Path) -> None:
    with Store(db) as store:
        store.append_events("t1", [(1, "a", {}), (5, "b", {})])
        store.append_events("t2", [(1, "a", {"x": "é"})])
        assert store.last_seq("t1") == 5
        assert store.last_seq("t2") == 1
        assert store.events_after("t2", 0) == [(1, "a", {"x": "é"})]
        store.append_events("t1", [])  # nothing to do
        assert store.last_seq("t1") == 5


@pytest.mark.parametrize(
    "batch",
    [
        [(3, "again", {})],  # equal to the last stored one
        [(2, "older", {})],  # below it
        [(4, "ok", {}), (4, "repeated", {})],  # not increasing inside the batch
        [(5, "ok", {}), (4, "back", {})],
        [(0, "zero", {})],
    ],
)
def test_non_increasing_seq_is_refused_and_nothing_written(
    db: Path, batch: list[tuple[int, str, dict[str, object]]]
) -> None:
    with Store(db) as store:
        store.append_events("t1", [(1, "a", {}), (2, "b", {}), (3, "c", {})])
        with pytest.raises(ValueError, match="strictly increasing"):
            store.append_events("t1", batch)
        assert store.last_seq("t1") == 3
        assert [e[0] for e in store.events_after("t1", 0)] == [1, 2, 3]
        store.append_events("t1", [(4, "d", {})])  # the log goes on
        assert store.last_seq("t1") == 4


def test_unserialisable_payload_writes_nothing(db: Path) -> None:
    with Store(db) as store:
        store.append_events("t1", [(1, "a", {})])
        with pytest.raises(TypeError):
            store.append_events("t1", [(2, "ok", {}), (3, "bad", {"x": object()})])
        assert store.last_seq("t1") == 1
        store.append_events("t1", [(2, "ok", {})])
        assert store.last_seq("t1") == 2


def test_refusal_also_holds_after_reopen(db: Path) -> None:
    with Store(db) as store:
        store.append_events("t1", [(1, "a", {}), (2, "b", {})])
    with Store(db) as store:
        with pytest.raises(ValueError):
            store.append_events("t1", [(2, "b", {})])
        store.append_events("t1", [(3, "c", {})])


def test_everything_survives_close_and_reopen(db: Path) -> None:
    record = {"format": "brasseur-hand/1", "hand": 1, "pots": [{"amount": 30}]}
    with Store(db) as store:
        store.append_events("t1", [(i, "e", {"i": i}) for i in range(1, 101)])
        store.save_table("t1", {"profile": "cdc", "blinds": [10, 20]})
        store.save_snapshot("t1", 1, 100, {"stacks": {"ana": 1500}})
        store.save_hand_record("t1", 1, record)
        store.set_meta("secret", "s3cr3t")
    with Store(db) as store:
        assert store.last_seq("t1") == 100
        assert store.events_after("t1", 98) == [(99, "e", {"i": 99}), (100, "e", {"i": 100})]
        assert store.tables() == [("t1", {"profile": "cdc", "blinds": [10, 20]})]
        assert store.last_snapshot("t1") == (1, 100, {"stacks": {"ana": 1500}})
        assert store.hand_record("t1", 1) == record
        assert store.get_meta("secret") == "s3cr3t"


def test_file_is_wal_with_schema_version(db: Path) -> None:
    Store(db).close()
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
        names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"events", "tables", "snapshots", "hand_records", "meta"} <= names
    finally:
        raw.close()


def test_newer_schema_is_refused(db: Path) -> None:
    Store(db).close()
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA user_version=2")
    raw.close()
    with pytest.raises(RuntimeError, match="schema version 2"):
        Store(db)


def test_memory_store() -> None:
    with Store(":memory:") as store:
        store.append_events("t1", [(1, "a", {"k": [1, 2]})])
        assert store.events_after("t1", 0) == [(1, "a", {"k": [1, 2]})]
        store.set_meta("k", "v")
        assert store.get_meta("k") == "v"


def test_tables_are_replaced_and_kept_in_creation_order(db: Path) -> None:
    with Store(db) as store:
        assert store.tables() == []
        store.save_table("t2", {"v": 1})
        store.save_table("t1", {"v": 1})
        store.save_table("t2", {"v": 2})
        assert store.tables() == [("t2", {"v": 2}), ("t1", {"v": 1})]


def test_meta(db: Path) -> None:
    with Store(db) as store:
        assert store.get_meta("missing") is None
        store.set_meta("k", "one")
        store.set_meta("k", "two")
        assert store.get_meta("k") == "two"


def test_snapshots_keep_the_last_hand(db: Path) -> None:
    with Store(db) as store:
        assert store.last_snapshot("t1") is None
        store.save_snapshot("t1", 1, 0, {"button": 1})
        store.save_snapshot("t1", 2, 17, {"button": 2})
        store.save_snapshot("t2", 9, 3, {"button": 5})
        assert store.last_snapshot("t1") == (2, 17, {"button": 2})
        assert store.last_snapshot("t2") == (9, 3, {"button": 5})


def test_interrupted_hand_lifecycle(db: Path) -> None:
    with Store(db) as store:
        assert store.interrupted_hand("t1") is None  # no hand ever started
        store.save_snapshot("t1", 1, 0, {"stacks": [1500, 1500]})
        store.append_events("t1", [(1, "hand_started", {}), (2, "acted", {})])
        assert store.interrupted_hand("t1") == 1  # started, not finished
        store.save_hand_record("t1", 1, {"hand": 1})
        assert store.interrupted_hand("t1") is None  # finished
        store.save_snapshot("t1", 2, 2, {"stacks": [1480, 1520]})
        store.append_events("t1", [(3, "hand_started", {}), (4, "acted", {})])
    # crash: the process is gone in the middle of hand 2
    with Store(db) as store:
        assert store.interrupted_hand("t1") == 2
        hand, seq, snapshot = store.last_snapshot("t1") or (0, 0, {})
        assert (hand, seq, snapshot) == (2, 2, {"stacks": [1480, 1520]})
        store.append_events("t1", [(5, HAND_CANCELLED, {"hand": 2, "stacks": [1480, 1520]})])
        assert store.interrupted_hand("t1") is None
    # a second restart does not cancel it twice
    with Store(db) as store:
        assert store.interrupted_hand("t1") is None
        # the hand is replayed under the same number: a new snapshot, after the cancellation
        store.save_snapshot("t1", 2, 5, {"stacks": [1480, 1520]})
        assert store.interrupted_hand("t1") == 2
        store.save_hand_record("t1", 2, {"hand": 2})
        assert store.interrupted_hand("t1") is None


def test_cancellation_before_the_snapshot_does_not_count(db: Path) -> None:
    with Store(db) as store:
        store.append_events("t1", [(1, HAND_CANCELLED, {"hand": 1})])
        store.save_snapshot("t1", 2, 1, {})
        assert store.interrupted_hand("t1") == 2


def test_hand_records_in_hand_order(db: Path) -> None:
    with Store(db) as store:
        assert store.hand_records("t1") == []
        assert store.hand_record("t1", 1) is None
        for hand in (3, 1, 10, 2):
            store.save_hand_record("t1", hand, {"hand": hand})
        store.save_hand_record("t2", 1, {"hand": 1, "table": "t2"})
        store.save_hand_record("t1", 3, {"hand": 3, "fixed": True})
        assert [r["hand"] for r in store.hand_records("t1")] == [1, 2, 3, 10]
        assert store.hand_record("t1", 3) == {"hand": 3, "fixed": True}
        assert store.hand_records("t2") == [{"hand": 1, "table": "t2"}]
