"""The tables of a Redis tournament in one process, as the director's batches move them
(:class:`TableKeeper`; see :mod:`server.tournament.redis_coordinator`).

* **directory**: which process runs each table; a table of ours the director gave to another
  process (we were taken for dead) is closed here.
* **takeover** (``adopt``): a table of a dead process is rebuilt from its snapshot in Redis
  (``TableActor.recover``: the last completed hand, a hand cut by the crash cancelled with
  every bet returned, cdc 5.4) and what was found is reported (``recovered``); the table
  starts when the director's seating of it comes back (``sync``), made to match it.
* **never frozen in a live process**: an adoption that Redis interrupted is tried again; a
  table whose loop stopped here without being closed (its writes refused as stale or out of
  sequence, a bug) is given back to the director (``orphaned``), which has it taken over like
  the table of a dead process; when Redis answers again after an outage, every halted table
  retries its write at once instead of at the end of its backoff.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

import redis

from server.store.batch import StoreError
from server.table.actor import TableActor

from .operations import TableOperations
from .recovery import hand_record_summary
from .redis_store import RedisTableStore

__all__ = ["UNKNOWN", "TableKeeper"]

log = logging.getLogger("brasseur.tournament")

UNKNOWN: Final = "?"
"""Directory entry of a table this process ran before it restarted (never opened again)."""

Submit = Callable[[str, dict[str, Any]], None]


class TableKeeper:
    """The tables ``ops`` runs for the tournament ``tid`` in process ``process``."""

    def __init__(
        self,
        ops: TableOperations,
        store: RedisTableStore,
        process: str,
        tid: str,
        submit: Submit,
    ) -> None:
        self.ops = ops
        self.store = store
        self.process = process
        self.tid = tid
        self.submit = submit
        self.pending: dict[int, TableActor] = {}
        """Tables recovered here, waiting for the director's seating before they start."""
        self._adopt_later: dict[int, dict[str, Any]] = {}
        """Takeovers Redis interrupted, tried again by :meth:`check`."""

    # ------------------------------------------------------------------ the director's batches

    def directory(self, changes: dict[int, str], catching: bool, orphans: set[int]) -> None:
        """Apply the directory changes of a batch (``catching``: a batch published before
        this process started: its tables of this name are ``orphans`` to give back)."""
        ops = self.ops
        for table, proc in changes.items():
            if proc != self.process:
                if table in ops.tables:
                    # we were taken for dead and the table runs elsewhere now
                    log.warning("tournament %s: table %s moved to %s", self.tid, table, proc)
                    ops.close_table(table, "moved")
                self.pending.pop(table, None)
                self._adopt_later.pop(table, None)
            if catching and proc == self.process:
                ops.directory[table] = UNKNOWN
                orphans.add(table)
            else:
                ops.directory[table] = proc
                orphans.discard(table)

    def adopt(self, table: int, info: dict[str, Any]) -> None:
        """Rebuild a table of a dead process from its snapshot and tell the director what
        was found; the table starts when the director's seating comes back (sync). If Redis
        fails meanwhile, :meth:`check` tries again (the claim is repeated: a higher epoch is
        as good)."""
        ops = self.ops
        if table in ops.tables:
            ops.close_table(table, "taken over")
        self.pending.pop(table, None)
        try:
            actor, data = self._recover(table, info)
        except (StoreError, redis.RedisError) as exc:
            log.warning(
                "tournament %s: taking table %s over: %s (again soon)", self.tid, table, exc
            )
            self._adopt_later[table] = info
            return
        self.pending[table] = actor
        log.info("tournament %s: recovered table %s at hand %s", self.tid, table, actor.hand_no)
        self.submit("recovered", data)

    def _recover(self, table: int, info: dict[str, Any]) -> tuple[TableActor, dict[str, Any]]:
        ops = self.ops
        name = ops.table_name(table)
        snap = self.store.last_snapshot(name)
        record = self.store.hand_record(name, snap[0]) if snap is not None else None
        actor = ops.build(table, int(info["max_seats"]), self.store)
        actor.recover()
        data: dict[str, Any] = {"table": table, "hand": actor.hand_no, "record": None}
        if record is not None:
            data["record"] = hand_record_summary(record)
        return actor, data

    def sync(self, table: int, seating: dict[int, list[Any]] | None) -> None:
        """The director's seating of a recovered table: make the table match, start it (the
        connections of its players are the desk's to put back: ``reattach``)."""
        ops = self.ops
        actor = self.pending.pop(table, None)
        if actor is not None and seating is not None and ops.directory.get(table) == self.process:
            self._match(actor, seating)
            ops.adopt(table, actor)
            log.info("tournament %s: table %s runs here now", self.tid, table)

    def _match(self, actor: TableActor, seating: dict[int, list[Any]]) -> None:
        """Make a recovered table's seats and stacks the director's."""
        ops = self.ops
        for seat, state in sorted(actor.seats.items()):
            want = seating.get(seat)
            if want is None or want[0] != state.player:
                ops.cmd_remove(actor, seat, state.player, "moved")
        for seat, (pid, name, stack) in sorted(seating.items()):
            now = actor.seats.get(seat)
            if now is None or now.player != pid:
                ops.cmd_seat(actor, seat, pid, name, stack, False)
            elif now.stack != stack:
                note = f"director: {name} now {stack} (table taken over)"
                ops.cmd_stack(actor, seat, pid, stack, note, relative=False)

    # ------------------------------------------------------------------ never frozen

    def check(self) -> None:
        """Give back to the director the tables whose loop stopped here while still ours
        (they are taken over, maybe here again), and retry the interrupted takeovers."""
        ops = self.ops
        stopped = sorted(
            table
            for table, actor in ops.tables.items()
            if actor.stopped and ops.directory.get(table) == self.process
        )
        for table in stopped:
            actor = ops.tables.pop(table)
            ops.drop_table(actor.table)
            log.error(
                "tournament %s: table %s stopped in this live process: given back to the "
                "director to be taken over",
                self.tid,
                table,
            )
        if stopped:
            self.submit("orphaned", {"tables": stopped})
        for table, info in list(self._adopt_later.items()):
            del self._adopt_later[table]
            if ops.directory.get(table) == self.process and table not in self.pending:
                self.adopt(table, info)

    def redis_back(self) -> None:
        """Redis answers again after an outage: every halted table retries now."""
        halted = [actor for actor in self.ops.tables.values() if actor.halted_since is not None]
        for actor in halted:
            actor.retry_now()
        if halted:
            log.warning(
                "tournament %s: Redis is back: %s halted tables retry", self.tid, len(halted)
            )
