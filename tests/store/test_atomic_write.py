"""Store.write: one step of a table in one transaction, all or nothing; no burned sequence
number; a full disk raised as StoreUnavailable, and the same batch retried once there is room."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from server.store import (
    SequenceError,
    StaleWriter,
    Store,
    StoreError,
    StoreUnavailable,
    TableWrite,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "brasseur.db"


def events(first: int, count: int, size: int = 10) -> tuple[tuple[int, str, dict[str, Any]], ...]:
    return tuple((s, "e", {"n": s, "pad": "x" * size}) for s in range(first, first + count))


def state(store: Store, table: str = "t1") -> tuple[object, ...]:
    """Everything a write may change, to compare before and after a refused one."""
    return (
        store.last_seq(table),
        store.events_after(table, 0),
        store.last_snapshot(table),
        store.hand_records(table),
    )


def file_last_seq(db: Path, table: str = "t1") -> int:
    """The last seq in the file, read by another connection (not the store's cache)."""
    with contextlib.closing(sqlite3.connect(db)) as other:
        (value,) = other.execute(
            "SELECT MAX(seq) FROM events WHERE table_id = ?", (table,)
        ).fetchone()
    return int(value or 0)


# -- the batch --------------------------------------------------------------------------------


def test_a_batch_checks_its_sequence_numbers_and_types() -> None:
    batch = TableWrite(events=[(4, "a", {}), (5, "b", {})])  # type: ignore[arg-type]
    assert batch.events == ((4, "a", {}), (5, "b", {}))  # a list is frozen into a tuple
    assert (batch.first_seq, batch.last_seq, batch.empty) == (4, 5, False)
    assert TableWrite().empty and TableWrite().first_seq is None
    assert not TableWrite(record=(1, {})).empty
    with pytest.raises(dataclasses.FrozenInstanceError):
        batch.epoch = 3  # type: ignore[misc]
    bads: list[tuple[Any, ...]] = [
        ((1, "a", {}), (3, "gap", {})),
        ((2, "a", {}), (2, "again", {})),
        ((2, "a", {}), (1, "back", {})),
        ((0, "zero", {}),),
        ((True, "bool", {}),),
        (("1", "text", {}),),
    ]
    for bad in bads:
        with pytest.raises(SequenceError):
            TableWrite(events=bad)
    with pytest.raises(TypeError):
        TableWrite(events=((1, 7, {}),))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TableWrite(snapshot=(1, "2", {}))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TableWrite(record=(None, {}))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TableWrite(epoch=True)
    assert issubclass(SequenceError, ValueError) and issubclass(SequenceError, StoreError)
    assert issubclass(StoreUnavailable, StoreError) and issubclass(StaleWriter, StoreError)


# -- writes -----------------------------------------------------------------------------------


def test_events_snapshot_and_record_are_written_together(db: Path) -> None:
    with Store(db) as store:
        assert store.claim("t1") == 0
        store.write("t1", TableWrite(events=events(1, 3), snapshot=(1, 0, {"hand": 1})))
        assert store.interrupted_hand("t1") == 1  # a hand in progress
        store.write(
            "t1",
            TableWrite(
                events=events(4, 2),
                record=(1, {"hand": 1, "won": {1: 40}}),
                snapshot=(2, 5, {"hand": 2}),
                epoch=17,  # ignored by SQLite: one process owns the file
            ),
        )
        assert store.last_seq("t1") == file_last_seq(db) == 5
        assert store.events_after("t1", 0) == list(events(1, 5))
        assert store.last_snapshot("t1") == (2, 5, {"hand": 2})
        assert store.hand_record("t1", 1) == {"hand": 1, "won": {"1": 40}}
        assert store.interrupted_hand("t1") == 2
        # a snapshot or a record alone, no events
        store.write("t1", TableWrite(record=(2, {"hand": 2})))
        assert store.interrupted_hand("t1") is None
        store.write("t1", TableWrite(snapshot=(2, 5, {"hand": 2, "again": True})))
        assert store.last_snapshot("t1") == (2, 5, {"hand": 2, "again": True})
        store.write("t1", TableWrite())  # nothing to do
        assert store.last_seq("t1") == 5
        # the older methods and write() share one sequence
        store.append_events("t1", [(6, "old", {})])
        store.write("t1", TableWrite(events=events(7, 1)))
        assert store.last_seq("t1") == file_last_seq(db) == 7
        store.write("t2", TableWrite(events=events(1, 1)))  # tables are independent
        assert store.last_seq("t2") == 1


@pytest.mark.parametrize(
    "first",
    [
        5,  # a gap: 4 is missing
        3,  # equal to the last stored one, different content
        1,  # below it
        2,  # overlaps the stored ones and goes past them
    ],
)
def test_a_batch_must_follow_the_stored_events_exactly(db: Path, first: int) -> None:
    with Store(db) as store:
        store.write("t1", TableWrite(events=events(1, 3), record=(1, {"v": 1})))
        before = state(store)
        batch = TableWrite(
            events=events(first, 3, size=11), snapshot=(9, 9, {}), record=(1, {"v": 2})
        )
        with pytest.raises(SequenceError, match="does not follow 3") as refused:
            store.write("t1", batch)
        assert refused.value.stored == 3
        assert state(store) == before
        assert file_last_seq(db) == 3


def test_the_retry_of_a_batch_already_written_is_accepted_and_writes_nothing(db: Path) -> None:
    """A write whose outcome was unknown (an error after the commit) can be retried as is."""
    with Store(db) as store:
        batch = TableWrite(events=events(1, 3), record=(1, {"v": 1}))
        store.write("t1", batch)
        store.write("t1", TableWrite(events=events(4, 1), record=(1, {"v": 2})))
        store.write("t1", batch)  # already stored, identical: nothing written
        assert store.hand_record("t1", 1) == {"v": 2}  # not rolled back to the retried one
        assert store.last_seq("t1") == 4
        store.write("t1", TableWrite(events=events(2, 2)))  # a part of a stored batch too
        assert store.last_seq("t1") == 4
        assert store.events_after("t1", 0) == list(events(1, 4))


def test_a_payload_that_is_not_json_writes_nothing_at_all(db: Path) -> None:
    with Store(db) as store:
        store.write("t1", TableWrite(events=events(1, 2), snapshot=(1, 2, {"v": 1})))
        before = state(store)
        for bad in (
            TableWrite(events=events(3, 2), snapshot=(2, 4, {}), record=(1, {"x": object()})),
            TableWrite(events=events(3, 2), snapshot=(2, 4, {"x": {1, 2}}), record=(1, {})),
            TableWrite(events=((3, "e", []),), snapshot=(2, 4, {}), record=(1, {})),  # type: ignore[arg-type]
        ):
            with pytest.raises(TypeError):
                store.write("t1", bad)
            assert state(store) == before
        store.write("t1", TableWrite(events=events(3, 2)))  # seq 3 was not burned
        assert store.last_seq("t1") == file_last_seq(db) == 4


# -- a full disk ------------------------------------------------------------------------------


def test_a_full_database_raises_store_unavailable_and_the_same_batch_succeeds_later(
    db: Path,
) -> None:
    with Store(db) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        store.write("t1", TableWrite(events=events(1, 2), snapshot=(1, 2, {"hand": 1})))
        size = store._db.execute("PRAGMA page_count").fetchone()[0]
        assert store.set_max_pages(1) == size  # never below the current size
        # the events fit in a page that has room, the record needs new pages: SQLITE_FULL in
        # the middle of the transaction, after the events were inserted
        batch = TableWrite(
            events=events(3, 2),
            record=(1, {"hand": 1, "log": "x" * 20_000}),
            snapshot=(2, 4, {"hand": 2}),
        )
        before = state(store)
        with pytest.raises(StoreUnavailable, match="full") as full:
            store.write("t1", batch)
        assert isinstance(full.value.__cause__, sqlite3.OperationalError)
        assert full.value.__cause__.sqlite_errorname == "SQLITE_FULL"
        # nothing written, the cache is right, reads work
        assert state(store) == before
        assert store.last_seq("t1") == file_last_seq(db) == 2
        assert store.interrupted_hand("t1") == 1
        with pytest.raises(StoreUnavailable):  # still full: the same answer
            store.write("t1", batch)
        other = sqlite3.connect(":memory:")  # SQLite's default maximum, whatever the version
        (default,) = other.execute("PRAGMA max_page_count").fetchone()
        other.close()
        assert store.set_max_pages(None) == default
        store.write("t1", batch)  # the very same batch: no gap
        assert store.last_seq("t1") == file_last_seq(db) == 4
        assert [e[0] for e in store.events_after("t1", 0)] == [1, 2, 3, 4]
        assert store.last_snapshot("t1") == (2, 4, {"hand": 2})
        assert store.hand_record("t1", 1) == {"hand": 1, "log": "x" * 20_000}


def test_filling_a_size_limited_database_batch_after_batch(db: Path) -> None:
    with Store(db, max_pages=30) as store:
        seq = 0
        with pytest.raises(StoreUnavailable):
            for hand in range(1, 1000):
                batch = TableWrite(
                    events=events(seq + 1, 3, size=300), record=(hand, {"pad": "r" * 500})
                )
                store.write("t1", batch)
                seq += 3
        assert seq > 0
        assert store.last_seq("t1") == file_last_seq(db) == seq
        assert len(store.events_after("t1", 0)) == seq
        assert store._db.execute("PRAGMA page_count").fetchone()[0] <= 30
        with pytest.raises(StoreUnavailable):
            store.append_events("t1", [(seq + 1, "e", {"pad": "x" * 5000})])
        with pytest.raises(StoreUnavailable):  # the older methods raise it too
            store.write("t1", batch)
        assert store.set_max_pages(60) == 60
        store.write("t1", batch)
        assert store.last_seq("t1") == seq + 3
    with Store(db) as store:  # the limit belongs to the connection, not to the file
        assert store.last_seq("t1") == seq + 3
        store.write("t1", TableWrite(events=events(seq + 4, 50, size=1000)))


def test_set_max_pages_checks_its_argument(db: Path) -> None:
    with Store(db) as store:
        for bad in (0, -1, 1.5, True):
            with pytest.raises(ValueError):
                store.set_max_pages(bad)  # type: ignore[arg-type]
        assert store.set_max_pages(10_000) == 10_000


def test_a_real_write_error_at_commit_with_wal_is_rolled_back(tmp_path: Path) -> None:
    """A file size limit (RLIMIT_FSIZE, no root needed) makes the append to the -wal file fail
    at COMMIT, as a disk with no space left does: the same contract holds."""
    pytest.importorskip("resource")
    script = textwrap.dedent(
        """
        import os, resource, signal, sys
        from server.store import Store, StoreUnavailable, TableWrite
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() then fails with EFBIG
        path = sys.argv[1]
        store = Store(path)
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, hard))
        seq = 0
        try:
            while True:
                batch = TableWrite(
                    events=((seq + 1, "e", {"x": "y" * 3000}),), record=(seq + 1, {"r": "z" * 3000})
                )
                store.write("t1", batch)
                seq += 1
        except StoreUnavailable as exc:
            print("refused", seq, exc.__cause__.sqlite_errorname)
        assert store.last_seq("t1") == seq and store.hand_record("t1", seq + 1) is None
        assert os.path.getsize(path + "-wal") == 200_000  # the -wal file is what filled
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        store.write("t1", batch)
        store.close()
        with Store(path) as store:
            assert store.last_seq("t1") == seq + 1 and len(store.hand_records("t1")) == seq + 1
        print("ok")
        """
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "brasseur.db")],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    refused, ok = done.stdout.split("\n")[:2]
    assert refused.startswith("refused ") and ok == "ok"
    assert refused.split()[2] in ("SQLITE_IOERR_WRITE", "SQLITE_FULL")


# -- reopening --------------------------------------------------------------------------------


def test_reopen_after_close(db: Path) -> None:
    with Store(db) as store:
        store.write("t1", TableWrite(events=events(1, 3), snapshot=(1, 3, {"hand": 1})))
    with Store(db, max_pages=10_000) as store:
        assert store.last_seq("t1") == 3
        assert store.last_snapshot("t1") == (1, 3, {"hand": 1})
        with pytest.raises(SequenceError):
            store.write("t1", TableWrite(events=events(5, 1)))
        store.write("t1", TableWrite(events=events(4, 1), record=(1, {"hand": 1})))
    with Store(db) as store:
        assert store.events_after("t1", 0) == list(events(1, 4))
        assert store.interrupted_hand("t1") is None
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # a closed store is a bug, not a full disk
        store.write("t1", TableWrite(events=events(5, 1)))
