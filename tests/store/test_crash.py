"""A table server killed with SIGKILL loses no event whose append returned."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from server.store import Store

ROOT = Path(__file__).resolve().parents[2]

# The child appends batches of 1..5 events forever; after each append returns it prints the
# last sequence number of the batch (flushed), like a table server that then sends them.
CHILD = """
import sys
from server.store import Store

store = Store(sys.argv[1])
seq = store.last_seq("t1")
print("ready", flush=True)
n = 0
while True:
    n += 1
    batch = [(seq + i, "acted", {"n": n, "i": i, "pad": "x" * 200}) for i in range(1, n % 5 + 2)]
    store.append_events("t1", batch)
    seq = batch[-1][0]
    print(seq, flush=True)
"""


def _run_and_kill(db: Path, after: int) -> int:
    """Start the child, let it report ``after`` appends, SIGKILL it; the last seq reported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        last = 0
        for _ in range(after):
            line = child.stdout.readline()
            assert line, "the child died on its own"
            last = int(line)
        os.kill(child.pid, signal.SIGKILL)  # in the middle of some append
        for line in child.stdout:  # reported before it died: returned too
            last = int(line)
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return last


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_loses_no_returned_append(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    reported = 0
    for round_, after in enumerate((50, 333, 1, 777)):
        reported = _run_and_kill(db, after)
        raw = sqlite3.connect(db)  # what a fresh process finds, before Store touches it
        try:
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            raw.close()
        with Store(db) as store:
            last = store.last_seq("t1")
            assert last >= reported, f"round {round_}: seq {reported} returned but lost"
            events = store.events_after("t1", 0, limit=1_000_000)
            assert [e[0] for e in events] == list(range(1, last + 1))  # contiguous
            assert all(
                kind == "acted" and payload["pad"] == "x" * 200 for _, kind, payload in events
            )
