"""Sequencing and delivery of a table's events (pure): what goes to the store, to whom.

Every event a command produces goes into one open batch; :meth:`Outbox.flush` closes it
into ONE :class:`~server.table.effects.Write` (events, and the snapshot and hand record if
they changed) followed by the deliveries, so a hand's end is one atomic write and nothing is
sent before it is stored. Sequence numbers are reserved here and consumed by the store only
when the write succeeds; a failed write is retried as it was (same numbers, no gap).

Recipients: a private event is addressed to a player identity (``owner``), never to a seat
number; a resync is answered from the events kept in memory, or with one snapshot when it
reaches further back (bounded work).

Spectators (connections without a seat) see the table live: every public event as it
happens, a ``hole`` event with no cards (they are nobody's owner). A tournament director may
choose the commentary mode instead (:attr:`Outbox.delayed`): spectators then see the table
one hand behind, and for the hands already finished the hole cards of every player dealt in.
In no mode does a spectator get a card of a hand still being played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from protocol import messages as m
from protocol.codec import encode
from server.store.batch import TableWrite
from server.table.effects import Deliver, Effect, Write
from server.table.events import TableEvent
from server.table.seats import Watcher

__all__ = ["RECENT_EVENTS", "Event", "Outbox", "render"]

Event = tuple[int, str, dict[str, Any]]
"""``(seq, kind, payload)``: an event as stored, kept in memory and re-rendered from (the
typed :class:`~server.table.events.TableEvent` gives its payload once, when emitted)."""

RECENT_EVENTS = 800
"""Events kept in memory per table for resyncs and spectators (some 20 hands). A resync
reaching further back gets one snapshot: never thousands of events, never a store read on
the event loop."""


def render(table: str, owner: bool, seq: int, data: dict[str, Any], kind: str) -> m.Message:
    """The table event ``seq`` as a recipient receives it: a hole card event shows its cards
    to their ``owner`` (a player identity, stripped from what is sent) and to nobody else."""
    cls = m.SERVER_MESSAGES[kind]
    fields: dict[str, Any] = {"table": table, "seq": seq}
    for key, value in data.items():
        if key != "owner":
            fields[key] = tuple(value) if isinstance(value, list) else value
    if kind == "hole" and not owner:
        fields["cards"] = ()  # dealt face down: only the owner sees them
    if kind == "drawn" and not owner:  # five-card draw: his discards and new cards are his
        fields["discarded"] = fields["received"] = fields["cards"] = ()
    return cls(**fields)


_PRIVATE = frozenset({"hole", "drawn"})
"""The kinds whose cards only their ``owner`` gets (a player identity, never a seat)."""


class Outbox:
    def __init__(self, table: str, seq: int) -> None:
        self.table = table
        self.seq = seq
        """The last sequence number reserved (stored, or in a write not yet confirmed)."""
        self.recent: list[Event] = []
        self.watchers: dict[str, Watcher] = {}
        self.live_from: int | None = None
        """First seq of the hand in play (delayed spectators see only what is before it)."""
        self.delayed = False
        """Commentary mode: spectators one hand behind, with the finished hands' hole cards."""
        self._events: list[Event] = []
        self._after: list[Effect] = []
        self._snapshot = False
        self._record: tuple[int, dict[str, Any]] | None = None
        self.epoch: int | None = None

    # ------------------------------------------------------------------ batching

    def emit(self, events: Sequence[TableEvent]) -> None:
        """Number events, add them to the open batch, and deliver them to every watcher
        entitled to see them (after the write, see :meth:`flush`)."""
        batch: list[Event] = []
        for event in events:
            self.seq += 1
            batch.append((self.seq, event.kind, event.payload()))
        self._events.extend(batch)
        self.recent.extend(batch)
        if len(self.recent) > RECENT_EVENTS + RECENT_EVENTS // 2:
            del self.recent[:-RECENT_EVENTS]
        held_back = self.delayed and self.live_from is not None
        live = [w for w in self.watchers.values() if w.seat is not None or not held_back]
        for seq, kind, data in batch:
            self._fan_out(live, seq, kind, data)

    def _fan_out(self, watchers: list[Watcher], seq: int, kind: str, data: dict[str, Any]) -> None:
        owner = data.get("owner") if kind in _PRIVATE else None
        # commentary: a finished hand's hole cards go to the spectators (never a live hand's;
        # never anyone's discards at the draw)
        finished = (
            kind == "hole" and self.delayed and (self.live_from is None or seq < self.live_from)
        )
        shared: list[str] = []
        for w in watchers:
            if seq <= w.delivered:
                continue
            w.delivered = seq
            if owner is not None and (w.player == owner or (finished and w.seat is None)):
                self._after.append(
                    Deliver((w.cid,), encode(render(self.table, True, seq, data, kind)))
                )
            else:
                shared.append(w.cid)
        if shared:
            self._after.append(
                Deliver(tuple(shared), encode(render(self.table, False, seq, data, kind)))
            )

    def send(self, cid: str | None, message: m.Message) -> None:
        """A private, unsequenced message (a turn, a notice, an error) to one connection,
        after whatever the open batch writes."""
        if cid is not None:
            self._after.append(Deliver((cid,), encode(message)))

    def send_all(self, message: m.Message, players_only: bool = False) -> None:
        cids = tuple(
            w.cid for w in self.watchers.values() if not players_only or w.seat is not None
        )
        if cids:
            self._after.append(Deliver(cids, encode(message)))

    def effect(self, effect: Effect) -> None:
        self._after.append(effect)

    def save_snapshot(self) -> None:
        self._snapshot = True

    def save_record(self, hand: int, record: dict[str, Any]) -> None:
        self._record = (hand, record)

    def pending_record(self) -> dict[str, Any] | None:
        return None if self._record is None else self._record[1]

    def flush(self, snapshot: Callable[[], tuple[int, dict[str, Any]]]) -> list[Effect]:
        """Close the open batch: one write (if anything is to be stored), then the rest."""
        out: list[Effect] = []
        if self._events or self._snapshot or self._record is not None:
            snap = None
            if self._snapshot:
                hand, data = snapshot()
                snap = (hand, self.seq, data)
            out.append(
                Write(
                    TableWrite(
                        events=tuple(self._events),
                        snapshot=snap,
                        record=self._record,
                        epoch=self.epoch,
                    )
                )
            )
        out.extend(self._after)
        self._events, self._after, self._snapshot, self._record = [], [], False, None
        return out

    # ------------------------------------------------------------------ catching up

    def events_after(self, seq: int, limit: int) -> list[Event] | None:
        """Events ``seq+1 .. limit`` from memory, or None if memory does not reach back."""
        if seq < 0:
            return None  # a snapshot was asked for
        if seq >= limit:
            return []
        if not self.recent or self.recent[0][0] > seq + 1:
            return None
        start = seq + 1 - self.recent[0][0]
        return [e for e in self.recent[start:] if e[0] <= limit]

    def catch_up(
        self, watcher: Watcher, limit: int, snapshot: Callable[[], dict[str, Any]]
    ) -> None:
        """Bring one watcher to ``limit``: the events it missed if memory has them all, else
        one snapshot."""
        missed = self.events_after(watcher.delivered, limit)
        if missed is None:
            self.send(watcher.cid, m.Snapshot(table=self.table, seq=limit, state=snapshot()))
            watcher.delivered = limit
            return
        for seq, kind, data in missed:
            self._fan_out([watcher], seq, kind, data)
        watcher.delivered = max(watcher.delivered, limit)

    def spectator_limit(self) -> int:
        """The last event spectators may have: the latest, or in commentary mode the last
        one before the hand in play."""
        if self.delayed and self.live_from is not None:
            return self.live_from - 1
        return self.seq

    def catch_up_spectators(self, snapshot: Callable[[], dict[str, Any]]) -> None:
        """Bring every spectator to :meth:`spectator_limit` (a hand's end, a mode change)."""
        limit = self.spectator_limit()
        for watcher in self.watchers.values():
            if watcher.seat is None:
                self.catch_up(watcher, limit, snapshot)
