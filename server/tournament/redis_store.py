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
anyone only after the store returned.

The write contract (:mod:`server.store.batch`): :meth:`RedisTableStore.write` stores one
:class:`~server.store.batch.TableWrite` (a step's events, and at a hand's end the hand record
and the snapshot) with ONE Lua script, so atomically: every check is made before the first
write, and nothing is written when one fails. A refused write raises
:class:`~server.store.batch.StaleWriter` or :class:`~server.store.batch.SequenceError`; a Redis
that cannot be reached or times out raises :class:`~server.store.batch.StoreUnavailable`.

Fencing: a process taking a table over calls :meth:`RedisTableStore.claim`, which INCRs the
table's owner epoch and returns it, and stamps it on its batches (``TableWrite.epoch``). The
script refuses a batch whose epoch is not the current one, whatever its sequence numbers: a
process paused past its ownership (GC pause, frozen VM, network partition) whose table was
taken over can never append again, even if the new owner has not written yet, so a sequence
number it would still follow cannot let it in. The epoch key is the one a
:class:`~server.tournament.lease.Lease` on ``{prefix}:table:t`` increments at each
acquisition, so such a lease's ``epoch`` can be stamped instead of calling ``claim``. A batch
with ``epoch=None`` is not fenced (nor are the older :meth:`RedisTableStore.append_events`,
``save_snapshot`` and ``save_hand_record``, which still work).

A write whose reply was lost (a timeout after Redis ran the script; redis-py may also resend
it by itself) can be retried as is: a batch whose events are all stored already, identical, is
accepted without writing anything.

Keys, for ``prefix`` and table ``t``::

    {prefix}:tables               set of the table ids having a snapshot
    {prefix}:table:t:epoch        owner epoch of the table (INCR by claim)
    {prefix}:table:t:events       sorted set, score = seq, member = JSON [seq, kind, payload]
    {prefix}:table:t:last_seq     last sequence number appended (kept when events are trimmed)
    {prefix}:table:t:snapshot     hash hand, seq, snapshot (JSON) of the highest hand saved
    {prefix}:table:t:records      hash hand -> hand record (JSON)

Only the last ``max_events`` events of a table are kept (a reconnecting client missing older
ones gets a snapshot instead). :meth:`RedisTableStore.append_events` checks the sequence
numbers against ``last_seq`` under ``WATCH``: two processes that both believe they run a table
can never interleave their events (the second one gets a ``ValueError``), but only the epoch
of :meth:`RedisTableStore.write` stops a stale process whose next seq still follows.
"""

from __future__ import annotations

import json
from typing import Any, Final, cast

import redis
from redis import exceptions as rx
from redis.client import Pipeline

from server.store.batch import (
    Event,
    SequenceError,
    StaleWriter,
    StoreError,
    StoreUnavailable,
    TableWrite,
)
from server.store.reader import Drawn, draws_of, holes_of

__all__ = ["Event", "RedisTableStore"]

_UNAVAILABLE: Final = (rx.ConnectionError, rx.TimeoutError, rx.OutOfMemoryError, rx.ReadOnlyError)
"""Redis down, unreachable, too slow, out of memory, or a replica after a failover: nothing
was written (or, for a timeout, maybe it was: see the retry rule of ``write``), retry later."""

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


# KEYS: epoch, last_seq, events, snapshot, tables, records (of one table).
# ARGV: epoch ('' = unfenced), max_events, table id, snapshot hand ('' = none), snapshot seq,
# snapshot JSON, record hand ('' = none), record JSON, first seq ('' = no events), last seq,
# then the event members in seq order.
# Reply {code, value}: 1 written; 2 the events were already stored, identical: nothing
# written; -1 stale epoch (value: the current one); -2 seqs do not follow (value: last_seq);
# -3 a key of another type (value: the key; a key read before the first write raises
# WRONGTYPE instead). Every check comes before the first write, and no write can fail once
# they passed (types checked or read, OOM refused at the first write only), so a refused
# batch writes nothing.
_WRITE: Final = """
-- a key of another type must fail the batch before its first write. The snapshot (when one
-- comes) is read before any write (WRONGTYPE there raises, nothing written) and the events
-- are the first write; the epoch and last_seq are read in one MGET, which says nothing of a
-- key of another type (nil, as for a key not there yet): their types are checked only then,
-- the epoch's only for a fenced write (which must be sure of it); the tables set and the
-- records hash are written without being read first: their types are checked when they are
-- written (issue 32: six TYPE calls and two GETs a write were 45 % of a hand's commands)
local function other(i, expected)
  local found = redis.call('type', KEYS[i])['ok']
  return found ~= 'none' and found ~= expected
end
local read = redis.call('mget', KEYS[1], KEYS[2])
if not read[1] and ARGV[1] ~= '' and other(1, 'string') then
  return {-3, KEYS[1]}
end
if not read[2] and other(2, 'string') then
  return {-3, KEYS[2]}
end
local epoch = tonumber(read[1] or '0')
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= epoch then
  return {-1, epoch}
end
-- the snapshot's hand is read first (a read: WRONGTYPE raises before any write); a table
-- whose snapshot hash holds a hand is in the tables set already (they are written together,
-- deleted together): the set is checked and added to only with a table's first snapshot
-- (issue 32: a TYPE and a SADD a snapshot, five commands a hand)
local stored_hand = false
if ARGV[4] ~= '' then
  stored_hand = redis.call('hget', KEYS[4], 'hand')
end
if ARGV[4] ~= '' and not stored_hand and other(5, 'set') then
  return {-3, KEYS[5]}
end
if ARGV[7] ~= '' and other(6, 'hash') then
  return {-3, KEYS[6]}
end
local last = tonumber(read[2] or '0')
local n = #ARGV - 10
local first = tonumber(ARGV[9])
if n > 0 and first ~= last + 1 then
  if first <= last then
    for i = 1, n do
      if tonumber(redis.call('zscore', KEYS[3], ARGV[10 + i])) ~= first + i - 1 then
        return {-2, last}
      end
    end
    return {2, last}
  end
  return {-2, last}
end
local snapshot = ARGV[4] ~= '' and not (stored_hand and tonumber(stored_hand) > tonumber(ARGV[4]))
if n > 0 then
  -- one ZADD for the batch's events (issue 32: one command per event was a sixth of a hand's)
  local scored = {}
  for i = 1, n do
    scored[2 * i - 1] = first + i - 1
    scored[2 * i] = ARGV[10 + i]
  end
  redis.call('zadd', KEYS[3], unpack(scored))
  -- the oldest events beyond max_events go; the log of a table whose last seq is at most
  -- max_events cannot hold more (distinct seqs from 1): no command then
  if tonumber(ARGV[10]) > tonumber(ARGV[2]) then
    redis.call('zremrangebyrank', KEYS[3], 0, -tonumber(ARGV[2]) - 1)
  end
  redis.call('set', KEYS[2], ARGV[10])
end
if snapshot then
  redis.call('hset', KEYS[4], 'hand', ARGV[4], 'seq', ARGV[5], 'snapshot', ARGV[6])
  if not stored_hand then
    redis.call('sadd', KEYS[5], ARGV[3])
  end
end
if ARGV[7] ~= '' then
  redis.call('hset', KEYS[6], ARGV[7], ARGV[8])
end
return {1, last}
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
        self._write_script = client.register_script(_WRITE)

    # -- keys -----------------------------------------------------------------------------

    def _key(self, table: str, name: str) -> str:
        return f"{self.prefix}:table:{table}:{name}"

    @property
    def _tables_key(self) -> str:
        return f"{self.prefix}:tables"

    # -- atomic, fenced writes ------------------------------------------------------------

    def claim(self, table: str) -> int:
        """Take ``table`` over: move its owner epoch on (INCR, atomic) and return the new one,
        to stamp on every :class:`TableWrite` from now on. Every earlier owner's fenced writes
        fail from this moment with :class:`StaleWriter`.

        Raises :class:`StoreUnavailable` if Redis cannot be reached (nothing claimed, unless
        the reply of the INCR was lost: claim again, a higher epoch is as good).
        """
        try:
            return int(self.client.incr(self._key(table, "epoch")))
        except _UNAVAILABLE as exc:
            raise StoreUnavailable(f"table {table!r}: cannot claim it now: {exc}") from exc
        except rx.RedisError as exc:
            raise StoreError(f"table {table!r}: cannot claim it: {exc}") from exc

    def epoch(self, table: str) -> int:
        """The current owner epoch of ``table``, 0 if it was never claimed."""
        stored = self.client.get(self._key(table, "epoch"))
        return 0 if stored is None else int(stored)

    def write(self, table: str, batch: TableWrite) -> None:
        """Store ``batch`` (events, snapshot, record) with one Lua script: all or nothing.

        In this order, before anything is written: the batch's epoch, when not None, must be
        the table's current one (else :class:`StaleWriter`); the first event's seq must be
        :meth:`last_seq` + 1 (else :class:`SequenceError`), unless every event of the batch is
        already stored identically (a retry of a write whose reply was lost: nothing written,
        it returns). Then the events are added (the oldest beyond ``max_events`` dropped), the
        snapshot saved unless a higher hand is stored (as :meth:`save_snapshot`), the record
        saved or replaced.

        Raises ``TypeError`` (nothing written) if a payload, snapshot or record is not a
        JSON-serialisable dict; :class:`StoreUnavailable` if Redis cannot be reached, times
        out, is out of memory or read-only (retry the same batch later; after a timeout the
        write may have happened, which the retry rule above absorbs); :class:`StoreError` for
        any other Redis error (a key of another type: nothing written).
        """
        if batch.empty:
            return
        members: list[str] = []
        for seq, kind, payload in batch.events:
            if not isinstance(payload, dict):
                raise TypeError(f"expected a dict, got {type(payload).__name__}")
            members.append(json.dumps([seq, str(kind), payload], ensure_ascii=False))
        snapshot: list[str | int] = ["", "", ""]
        if batch.snapshot is not None:
            hand, seq, data = batch.snapshot
            snapshot = [hand, seq, _dump(data)]
        record: list[str | int] = ["", ""]
        if batch.record is not None:
            hand, data = batch.record
            record = [hand, _dump(data)]
        first, last = batch.first_seq, batch.last_seq
        args: list[str | int] = [
            "" if batch.epoch is None else batch.epoch,
            self.max_events,
            table,
            *snapshot,
            *record,
            "" if first is None else first,
            "" if last is None else last,
            *members,
        ]
        keys = [
            self._key(table, name)
            for name in ("epoch", "last_seq", "events", "snapshot", "tables", "records")
        ]
        keys[4] = self._tables_key
        try:
            code, value = self._write_script(keys=keys, args=args)
        except _UNAVAILABLE as exc:
            raise StoreUnavailable(f"table {table!r}: the store cannot write now: {exc}") from exc
        except rx.RedisError as exc:
            raise StoreError(f"table {table!r}: the write failed: {exc}") from exc
        _raise_refusal(table, batch, code, value)

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
        """Forget everything about ``table`` (a table broken up, a tournament over), its owner
        epoch too: a table id is not to be run again after this (a stale process holding an
        epoch that a new claim would hand out again could write)."""
        pipe = self.client.pipeline(transaction=True)
        names = ("events", "last_seq", "snapshot", "records", "epoch")
        pipe.delete(*(self._key(table, n) for n in names))
        pipe.srem(self._tables_key, table)
        pipe.execute()

    # -- pages of hand records (exports, server.gateway.http: called from a worker thread) --

    def hand_texts(
        self, table: str, start: int = 0, count: int | None = None
    ) -> list[tuple[int, str]]:
        """``(hand, record as JSON text)`` of at most ``count`` hands of ``table`` from hand
        ``start`` on, in hand order: one page of an export (HKEYS, then HMGET of the page)."""
        key = self._key(table, "records")
        hands = sorted(h for h in (int(_text(k)) for k in self.client.hkeys(key)) if h >= start)
        hands = hands if count is None else hands[: max(count, 0)]
        if not hands:
            return []
        texts = self.client.hmget(key, [str(h) for h in hands])
        return [(h, _text(t)) for h, t in zip(hands, texts, strict=True) if t is not None]

    def hand_count(self, table: str) -> int:
        """How many hand records ``table`` has."""
        return int(self.client.hlen(self._key(table, "records")))

    def hole_cards(
        self, table: str, player: str, first: int, last: int
    ) -> dict[int, tuple[int, list[str]]]:
        """``hand -> (seat, cards)`` dealt to ``player`` in hands ``first``..``last``, from
        the ``hole`` events still kept (the last ``max_events`` of the table): older hands
        are exported without their ``Dealt to`` line."""
        events = self.events_after(table, 0, -1)
        return holes_of((data for _, kind, data in events if kind == "hole"), player, first, last)

    def drawn_cards(self, table: str, player: str, first: int, last: int) -> Drawn:
        """``player``'s own five-card draws in hands ``first``..``last``, from the ``drawn``
        events still kept (as :meth:`hole_cards`)."""
        events = self.events_after(table, 0, -1)
        return draws_of((data for _, kind, data in events if kind == "drawn"), player, first, last)


def _raise_refusal(table: str, batch: TableWrite, code: Any, value: Any) -> None:
    """Raise what the write script's ``code`` says it refused (nothing for a write done)."""
    if code == -1:
        raise StaleWriter(
            f"table {table!r}: epoch {batch.epoch} is not the owner epoch {value} "
            "(the table was taken over)",
            epoch=batch.epoch,
            current=int(value),
        )
    if code == -2:
        raise SequenceError(
            f"table {table!r}: event seq {batch.first_seq} does not follow {value} "
            "(the first seq of a batch must be the last stored one plus one)",
            stored=int(value),
        )
    if code == -3:
        raise StoreError(f"table {table!r}: key {_text(value)} holds another type")
