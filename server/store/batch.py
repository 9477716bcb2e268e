"""One atomic write of a table, and the typed errors of the stores (pure: no I/O).

A step of a table writes everything it produced in one :class:`TableWrite`: its events, and at
the end of a hand also the hand record and the snapshot of the table. The stores
(:meth:`server.store.Store.write` on SQLite,
:meth:`server.tournament.redis_store.RedisTableStore.write` on Redis) promise, for every batch:

* **all or nothing**: the events, the snapshot and the record are stored together, or none of
  them is;
* **no burned sequence numbers**: the first event's ``seq`` must be exactly the last stored one
  plus one, and a refused or failed write leaves the store exactly as it was, so the very same
  batch (same sequence numbers) can be retried later without a gap. A batch whose events are
  all already stored, identical, is accepted without writing anything: it is the retry of a
  write whose outcome was unknown (a timeout after the store had committed it);
* **typed failures** the table can act on: :class:`StoreUnavailable` (retry later, with
  backoff), :class:`StaleWriter` (another process owns the table now: stop, never retry),
  :class:`SequenceError` (the batch does not follow the stored events: a bug, halt).

Fencing: a process that takes a table over calls ``store.claim(table)``, which moves the
table's owner epoch on and returns it, and stamps that epoch on every batch. A store that
fences (Redis) refuses a batch whose epoch is not the table's current one, so a process that
was paused past its ownership can never append after the table was taken over, whatever
sequence numbers it holds. ``epoch=None`` writes unfenced; SQLite (one process owns the file)
ignores the epoch and its ``claim`` returns 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "Event",
    "SequenceError",
    "StaleWriter",
    "StoreError",
    "StoreUnavailable",
    "TableWrite",
]

Event = tuple[int, str, dict[str, Any]]
"""``(seq, kind, payload)``; the payload is a JSON object."""


class StoreError(Exception):
    """A write of a table was not done; the store is as it was before the call."""


class StoreUnavailable(StoreError):
    """The store cannot write now (disk full, I/O error, Redis down or timing out): nothing
    was written, retry the same batch later (with backoff)."""


class StaleWriter(StoreError):
    """The batch's epoch is not the table's current owner epoch: another process took the
    table over. Nothing was written; never retry, stop running the table."""

    def __init__(
        self, message: str, *, epoch: int | None = None, current: int | None = None
    ) -> None:
        super().__init__(message)
        self.epoch = epoch
        """The epoch of the refused batch."""
        self.current = current
        """The table's owner epoch in the store."""


class SequenceError(StoreError, ValueError):
    """The sequence numbers of a batch are not consecutive or do not follow the stored ones
    (``stored``: the last stored sequence number, when known). Nothing was written."""

    def __init__(self, message: str, *, stored: int | None = None) -> None:
        super().__init__(message)
        self.stored = stored


def _is_int(value: object) -> bool:
    return type(value) is int  # not a bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TableWrite:
    """Everything one step of a table writes, stored atomically by ``store.write(table, ..)``.

    ``events``: consecutive sequence numbers, the first one being the last stored plus one.
    ``snapshot``: ``(hand, seq, snapshot)``, the state of the table at the start of ``hand``
    (``seq``: the last sequence number before it). ``record``: ``(hand, record)``, the record of
    a finished hand. ``epoch``: the owner epoch from ``store.claim(table)``; None writes
    unfenced. Payloads, snapshot and record must be JSON objects (checked by the store).

    Raises :class:`SequenceError` if the sequence numbers are not consecutive ints from 1 up,
    ``TypeError`` if a kind is not a string or a hand, seq or epoch not an int.
    """

    events: tuple[Event, ...] = ()
    snapshot: tuple[int, int, dict[str, Any]] | None = None
    record: tuple[int, dict[str, Any]] | None = None
    epoch: int | None = None

    def __post_init__(self) -> None:
        events = tuple(self.events)  # a list passed by a caller is frozen too
        object.__setattr__(self, "events", events)
        previous: int | None = None
        for event in events:
            seq, kind, _ = event
            if not _is_int(seq) or seq < 1:
                raise SequenceError(f"event seq {seq!r} is not an int of at least 1")
            if previous is not None and seq != previous + 1:
                raise SequenceError(
                    f"event seq {seq} does not follow {previous} in the batch "
                    "(sequence numbers must be consecutive)"
                )
            if not isinstance(kind, str):
                raise TypeError(f"event {seq}: kind {kind!r} is not a string")
            previous = seq
        if self.snapshot is not None:
            hand, seq, _ = self.snapshot
            if not (_is_int(hand) and _is_int(seq)):
                raise TypeError(f"snapshot hand and seq must be ints, got {hand!r}, {seq!r}")
        if self.record is not None:
            hand, _ = self.record
            if not _is_int(hand):
                raise TypeError(f"record hand must be an int, got {hand!r}")
        if self.epoch is not None and not _is_int(self.epoch):
            raise TypeError(f"epoch must be an int or None, got {self.epoch!r}")

    @property
    def first_seq(self) -> int | None:
        """The sequence number of the first event, None without events."""
        return self.events[0][0] if self.events else None

    @property
    def last_seq(self) -> int | None:
        """The sequence number of the last event, None without events."""
        return self.events[-1][0] if self.events else None

    @property
    def empty(self) -> bool:
        """Nothing to write (no events, no snapshot, no record)."""
        return not self.events and self.snapshot is None and self.record is None
