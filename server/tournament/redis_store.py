"""The table store shared by every server process of a tournament, over Redis.

A :class:`RedisTableStore` is what a :class:`~server.table.actor.TableActor` keeps its event
log, start-of-hand snapshots and hand records in when the tournament runs across several
processes. It implements the actor's ``Store`` protocol with the exact semantics of the SQLite
:class:`server.store.Store` (same JSON encoding, so the same types come back: string keys,
lists for tuples), but in a place every process reaches. When the process running a table
dies, another one builds a new actor with the same table id over this store and calls
``recover()``: the table comes back at its last completed hand, a hand cut by the crash being
cancelled with every bet returned (cdc 5.4), exactly as after a restart on SQLite.

Like the SQLite store, it is synchronous (the actor calls it from the asyncio thread between
two awaits; a round trip to a local Redis is about 0.1 ms) and the actor sends events to
anyone only after :meth:`RedisTableStore.append_events` returns.

Keys, for ``prefix`` and table ``t``::

    {prefix}:tables               set of the table ids having a snapshot
    {prefix}:table:t:events       sorted set, score = seq, member = JSON [seq, kind, payload]
    {prefix}:table:t:last_seq     last sequence number appended (kept when events are trimmed)
    {prefix}:table:t:snapshot     hash hand, seq, snapshot (JSON) of the highest hand saved
    {prefix}:table:t:records      hash hand -> hand record (JSON)

Only the last ``max_events`` events of a table are kept (a reconnecting client missing older
ones gets a snapshot instead). Appends check the sequence numbers against ``last_seq`` under
``WATCH``: two processes that both believe they run a table can never interleave their events
(the second one gets a ``ValueError``). Deciding which process runs a table is the job of a
lease (:mod:`server.tournament.lease`), not of this store.
"""

from __future__ import annotations

import json
from typing import Any, Final, cast

import redis
from redis.client import Pipeline

__all__ = ["Event", "RedisTableStore"]

Event = tuple[int, str, dict[str, Any]]
"""``(seq, kind, payload)``; the payload is a JSON object."""

# KEYS: snapshot hash, tables set. ARGV: hand, seq, snapshot JSON, table id.
# A snapshot of a lower hand than the stored one is ignored: last_snapshot() of the SQLite
# store returns the highest hand, whatever the order of the saves.
_SAVE_SNAPSHOT: Final = """
local stored = redis.call('hget', KEYS[1], 'hand')
if stored and tonumber(stored) > tonumber(ARGV[1]) then
  return 0
end
redis.call('hset', KEYS[1], 'hand', ARGV[1], 'seq', ARGV[2], 'snapshot', ARGV[3])
redis.call('sadd', KEYS[2], ARGV[4])
return 1
"""


def _dump(value: dict[str, Any]) -> str:
    """The encoding of the SQLite store (``server.store.sqlite_store``), byte for byte."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a dict, got {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _load(raw: bytes | str) -> dict[str, Any]:
    value = json.loads(raw)
    assert isinstance(value, dict), "stored JSON is always an object"
    return value


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class RedisTableStore:
    """Event log, snapshots and hand records of tables, in Redis under ``prefix``.

    ``client`` is a synchronous ``redis.Redis`` (with or without ``decode_responses``).
    Payloads, snapshots and records must be JSON objects; they come back as new dicts.
    """

    def __init__(self, client: redis.Redis, prefix: str, max_events: int = 20_000) -> None:
        if max_events < 1:
            raise ValueError(f"max_events must be at least 1, got {max_events}")
        self.client = client
        self.prefix = prefix
        self.max_events = max_events
        self._snapshot_script = client.register_script(_SAVE_SNAPSHOT)

    # -- keys -----------------------------------------------------------------------------

    def _key(self, table: str, name: str) -> str:
        return f"{self.prefix}:table:{table}:{name}"

    @property
    def _tables_key(self) -> str:
        return f"{self.prefix}:tables"

    # -- events ---------------------------------------------------------------------------

    def append_events(self, table: str, events: list[Event]) -> None:
        """Append ``(seq, kind, payload)`` events and move ``last_seq``, in one MULTI/EXEC.

        Sequence numbers must be strictly increasing, after :meth:`last_seq`. Raises
        ``ValueError`` (nothing written) if not, ``TypeError`` if a payload is not
        JSON-serialisable. The oldest events beyond ``max_events`` are dropped.
        """
        if not events:
            return
        last_key = self._key(table, "last_seq")
        events_key = self._key(table, "events")

        def write(pipe: Pipeline) -> None:
            stored = pipe.get(last_key)
            last = 0 if stored is None else int(stored)
            members: dict[str, int] = {}
            for seq, kind, payload in events:
                if type(seq) is not int or seq <= last:
                    raise ValueError(
                        f"table {table!r}: event seq {seq!r} does not follow {last} "
                        "(sequence numbers must be strictly increasing)"
                    )
                if not isinstance(payload, dict):
                    raise TypeError(f"expected a dict, got {type(payload).__name__}")
                members[json.dumps([seq, str(kind), payload], ensure_ascii=False)] = seq
                last = seq
            pipe.multi()
            pipe.zadd(events_key, members)
            pipe.zremrangebyrank(events_key, 0, -self.max_events - 1)
            pipe.set(last_key, last)

        # WATCH last_seq: retried if another client appended between the read and EXEC (the
        # retry then raises ValueError, as its sequence numbers no longer follow).
        self.client.transaction(write, last_key)

    def events_after(self, table: str, seq: int, limit: int = 10_000) -> list[Event]:
        """Events of ``table`` with a sequence number above ``seq`` that are still kept,
        oldest first, at most ``limit`` of them (all of them if ``limit`` is negative)."""
        members = self.client.zrangebyscore(
            self._key(table, "events"), f"({seq}", "+inf", start=0, num=limit
        )
        out: list[Event] = []
        for member in members:
            number, kind, payload = json.loads(cast("bytes | str", member))
            assert isinstance(payload, dict), "stored JSON is always an object"
            out.append((number, kind, payload))
        return out

    def last_seq(self, table: str) -> int:
        """The last sequence number appended for ``table``, 0 if none."""
        stored = self.client.get(self._key(table, "last_seq"))
        return 0 if stored is None else int(stored)

    # -- snapshots ------------------------------------------------------------------------

    def save_snapshot(self, table: str, hand: int, seq: int, snapshot: dict[str, Any]) -> None:
        """Save the state of ``table`` at the start of hand ``hand`` (``seq``: the last
        sequence number appended before it). Saving the same hand again replaces it; a
        lower hand than the stored one is ignored (only the highest hand is ever read)."""
        self._snapshot_script(
            keys=[self._key(table, "snapshot"), self._tables_key],
            args=[int(hand), int(seq), _dump(snapshot), table],
        )

    def last_snapshot(self, table: str) -> tuple[int, int, dict[str, Any]] | None:
        """``(hand, seq, snapshot)`` of the highest hand saved for ``table``, or None."""
        hand, seq, snapshot = self.client.hmget(
            self._key(table, "snapshot"), ["hand", "seq", "snapshot"]
        )
        if hand is None or seq is None or snapshot is None:
            return None
        return int(hand), int(seq), _load(snapshot)

    # -- hand records ---------------------------------------------------------------------

    def save_hand_record(self, table: str, hand: int, record: dict[str, Any]) -> None:
        """Save (or replace) the record of a finished hand."""
        self.client.hset(self._key(table, "records"), str(int(hand)), _dump(record))

    def hand_record(self, table: str, hand: int) -> dict[str, Any] | None:
        raw = self.client.hget(self._key(table, "records"), str(int(hand)))
        return None if raw is None else _load(raw)

    def hand_records(self, table: str) -> list[dict[str, Any]]:
        """Every hand record of ``table``, in hand order (as the SQLite store)."""
        raw = self.client.hgetall(self._key(table, "records"))
        return [_load(v) for _, v in sorted(raw.items(), key=lambda kv: int(_text(kv[0])))]

    # -- tables ---------------------------------------------------------------------------

    def tables(self) -> list[str]:
        """The ids of the tables having a snapshot, sorted."""
        return sorted(_text(t) for t in self.client.smembers(self._tables_key))

    def delete_table(self, table: str) -> None:
        """Forget everything about ``table`` (a table broken up, a tournament over)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(*(self._key(table, n) for n in ("events", "last_seq", "snapshot", "records")))
        pipe.srem(self._tables_key, table)
        pipe.execute()
