"""The Redis coordinator: one tournament across several server processes sharing a Redis.

Every process runs a :class:`~server.tournament.host.TournamentHost` (its tables and its players'
connections) and a :class:`RedisCoordinator`. What the tables and the players report goes into
a Redis stream; the process holding the director's lease reads it, runs the
:class:`~server.tournament.coordinator.DirectorLoop` and publishes every batch of decisions on a
second stream that every process applies in order. The tournament state (the director with its
table directory, counts, seat reservations, hand-for-hand barrier and moves) lives in Redis, so
a process taking the lease over goes on exactly where the dead holder stopped.

Keys, for the tournament prefix ``P`` (``{base}:t:{tid}``)::

    P:config               the tournament's TOML
    P:reports              stream of reports: msgpack [kind, data, process]
    P:decisions            stream of decision batches (versioned msgpack,
                           server.tournament.redis_state.decision_batch)
    P:director             the director's state (versioned msgpack, server.tournament.redis_state),
                           written fenced
    P:lease, P:lease:epoch the director's lease (server.tournament.lease)
    P:t0                   Redis time at the tournament's creation (the director's clock)
    P:procs                hash process -> websocket url of every process seen
    P:alive:{process}      the process's heartbeat (expires PROCESS_TTL_MS after its last one)
    P:table:...            the tables' events, snapshots and hand records (RedisTableStore)
    P:results.json/.csv    the results, once finished

Exactly once: the holder reads reports after the last one it applied, handles them in memory
and commits, in one Lua script that first checks it still holds the lease, the new director
state (which records the last report applied and the table directory) together with the
batch of decisions. A holder that dies before the commit has changed nothing: the next one
handles the same reports again; a holder that lost its lease cannot commit.

Tables: a new table is placed on the live process running the fewest tables. When a process's
heartbeat expires, the holder gives its tables to live processes (an ``adopt`` entry in a
batch). The new owner rebuilds each from its snapshot in Redis (``TableActor.recover``: the
last completed hand, a hand cut by the crash cancelled with every bet returned, cdc 5.4) and
reports what it found (``recovered``). The holder closes the hand the director still believes
in play (the hand as completed if its record was saved, else cancelled with the start-of-hand
stacks, so the chips always balance) and publishes the director's seating of the table
(``sync``); the owner makes the recovered table match it (a move, a stack change the dead
process never applied), starts it, and every process re-attaches the connections it holds of
the table's players (a ``moved`` with the new process's url when it is another one). The reports
of a table from a process that no longer runs it (a live process taken for dead) are refused
(:func:`~server.tournament.recovery.stale_table_report`). A table
that stops in a live process (its writes refused, a bug) is given back (``orphaned``) and
taken over the same way (:mod:`server.tournament.redis_tables`).

Redis away (restarting with its AOF, unreachable for a while): every table halts on its
failed write and retries (players are told; /healthz and ``brasseur_tables_halted`` show it);
reports wait in memory, in order (:mod:`server.tournament.redis_reports`); the decisions
reader, the heartbeat and the lease retry; the director stops at its first failed command
(nothing half-done: its state and decisions are committed together) and the lease holder
takes it again from the committed state. When Redis answers again, the halted tables retry at
once, and no process is taken for dead before its heartbeat has had PROCESS_TTL_MS to come
back. The state must survive the restart (docs/operations.md, "Redis"): a director finding
the tournament's state gone (a Redis without persistence restarted, a FLUSHALL) or written by
another version stops with an error (:attr:`RedisCoordinator.failure`), never starting the
tournament afresh.

The state is versioned msgpack (:mod:`server.tournament.redis_state`; the director's side of a
recovered table: :mod:`server.tournament.recovery`); only the server processes of the
deployment write these keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import types
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn, cast

import msgpack
import redis

from server.table.clock import Clock

from .config import TournamentConfig
from .coordinator import DirectorLoop, tournament_state
from .decisions import FinalTable, Finished, HandEnded, Instruction, TableAssignment
from .director import Director
from .host import TournamentHost
from .lease import Lease
from .recovery import stale_table_report
from .redis_link import RedisLink, as_text, stream_id
from .redis_placing import place, recovered, seating, take_over
from .redis_reports import ReportQueue
from .redis_state import Directing, decision_batch, dump, load
from .redis_store import RedisTableStore
from .redis_tables import UNKNOWN, TableKeeper
from .results import results_csv, results_json

__all__ = ["RedisCoordinator", "RedisLink"]

log = logging.getLogger("brasseur.tournament")

PROCESS_TTL_MS: Final = 3000
"""A process whose heartbeat is older than this is dead: its tables are taken over."""
HEARTBEAT_SECONDS: Final = 0.5
LEASE_TTL_MS: Final = 3000
REPORTS_PER_COMMIT: Final = 200
STATE_EVERY: Final = 0.2
"""The lobby state goes out with the decisions at most this often (seconds)."""
CHECK_EVERY: Final = 0.5
"""The holder looks for dead processes this often (seconds)."""

_COMMIT: Final = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('set', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('xadd', KEYS[3], '*', 'b', ARGV[3])
end
return 1
"""
"""KEYS: lease, director state, decisions stream. ARGV: owner, state, batch ('' for none).
The director's state and its decisions, written together and only by the lease holder."""


_Fields = dict[bytes, bytes]


def _entries(answer: object) -> list[tuple[str, _Fields]]:
    """The entries of an XREAD answer (id as text, fields), every stream in order."""
    streams = cast(list[tuple[bytes, list[tuple[bytes, _Fields]]]], answer or [])
    return [(as_text(raw_id), fields) for _stream, entries in streams for raw_id, fields in entries]


def _blob(raw: object) -> bytes:
    assert isinstance(raw, bytes), type(raw)
    return raw


@dataclass
class _Pace:
    """The lease holder's timing between two rounds of its loop."""

    base: tuple[float, float]
    """(Redis time, monotonic time) when the holder started: the director's clock."""
    live: dict[str, str]
    checked: float = 0.0
    """When it last looked for dead processes (monotonic)."""
    trimmed: float = 0.0
    published: float = 0.0
    dirty: bool = True
    """The lobby state changed since it was last published."""


@dataclass
class _Round:
    """What one round of the holder's loop handled, to commit together."""

    entries: int = 0
    out: list[Instruction] = field(default_factory=list)
    adopt: dict[int, dict[str, Any]] = field(default_factory=dict)
    synced: set[int] = field(default_factory=set)


# ---------------------------------------------------------------------- the coordinator


class RedisCoordinator:
    """The coordinator of one tournament in one of several processes (see the module doc)."""

    def __init__(
        self,
        link: RedisLink,
        tid: str,
        config: TournamentConfig,
        host: TournamentHost,
        clock: Clock,
    ) -> None:
        self.link = link
        self.tid = tid
        self.config = config
        self.host = host
        self.clock = clock
        self.process = link.process
        self.speed = float(getattr(clock, "speed", 1.0))
        p = self.prefix = link.tournament_prefix(tid)
        self.keys = types.SimpleNamespace(
            reports=f"{p}:reports",
            decisions=f"{p}:decisions",
            director=f"{p}:director",
            lease=f"{p}:lease",
            t0=f"{p}:t0",
            procs=f"{p}:procs",
            alive=f"{p}:alive:{self.process}",
        )
        self.sync = link.client
        self.aio = link.async_client()
        self.store = RedisTableStore(self.sync, p)
        self.lease = Lease(self.aio, self.keys.lease, self.process, LEASE_TTL_MS)
        # never sent twice: a commit whose reply was lost would publish its batch twice
        self._committer = link.async_client(retry=False)
        self._commit = self._committer.register_script(_COMMIT)
        self._state: dict[str, Any] = tournament_state(
            DirectorLoop(Director(config, secrets.SystemRandom(), now=0.0)), 0.0
        )
        self.reports = ReportQueue(self.sync, self.aio, self.keys.reports, self.process, tid)
        self.tables = TableKeeper(host.ops, self.store, self.process, tid, self.submit)
        self.failure: str | None = None
        """Why this process cannot go on with the tournament (its state in Redis is gone or
        unreadable): logged as an error, shown by :meth:`health`. None while all is well."""
        self._beating_since: float | None = None
        """Since when (monotonic) our heartbeats reach Redis without a failure."""
        self._applied = False
        """A batch of decisions was applied here (the tournament has a state in Redis)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._directing: asyncio.Task[None] | None = None
        # the director's clock: Redis time since the tournament was created, times the speed
        sec, usec = self.sync.time()
        self.sync.set(self.keys.t0, f"{sec + usec / 1e6:.6f}", nx=True)
        self._t0 = float(as_text(self.sync.get(self.keys.t0) or b"0"))

    # ------------------------------------------------------------------ interface

    def start(self) -> None:
        """Start the heartbeat, the decisions reader and the lease (in the running loop)."""
        self._beat_now()
        self._tasks = [
            asyncio.create_task(self._heartbeat(), name=f"tournament-{self.tid}-heartbeat"),
            asyncio.create_task(self._read(), name=f"tournament-{self.tid}-reader"),
            asyncio.create_task(
                self.lease.run(self._acquired, self._lost), name=f"tournament-{self.tid}-lease"
            ),
        ]

    def submit(self, kind: str, data: dict[str, Any]) -> None:
        """Queue a report for the director: in Redis when this returns if Redis answers (a
        hand's end reported just before the process dies is not lost), else kept in order
        until it does. Never raises (:class:`~server.tournament.redis_reports.ReportQueue`)."""
        self.reports.submit(kind, data)

    def hand_ended(self, report: HandEnded) -> None:
        self.submit("ended", report.to_json())

    def state(self) -> dict[str, Any]:
        return self._state

    def health(self) -> list[str]:
        """Lines for /healthz: empty while the tournament can go on."""
        return [] if self.failure is None else [f"degraded: tournament {self.tid}: {self.failure}"]

    def _fail(self, why: str) -> None:
        """Stop directing for good, visibly: the tournament's state cannot be used."""
        if self.failure is None:
            log.error("tournament %s: %s", self.tid, why)
        self.failure = why
        for task in self._tasks:
            if task.get_name().endswith("-lease"):
                task.cancel()  # never take the director's lease again in this process
        if self._directing is not None and self._directing is not asyncio.current_task():
            self._directing.cancel()
        self.lease.held = False

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._directing is not None:
            self._directing.cancel()
        self.reports.close()
        with contextlib.suppress(redis.RedisError):
            self.sync.delete(self.keys.alive)  # our tables are taken over at once
            if self.lease.held:
                self.sync.eval(
                    "if redis.call('get', KEYS[1]) == ARGV[1] then "
                    "return redis.call('del', KEYS[1]) end return 0",
                    1,
                    self.keys.lease,
                    self.process,
                )

    # ------------------------------------------------------------------ heartbeat

    def _beat_now(self) -> None:
        """Our first heartbeat, and the live processes' urls read before any decision is
        applied: a process taking the tournament up while it runs (a player of it reached
        this one) sends its players to the process that runs their table, never here."""
        pipe = self.sync.pipeline(transaction=False)
        pipe.set(self.keys.alive, self.link.ws_url, px=PROCESS_TTL_MS)
        pipe.hset(self.keys.procs, self.process, self.link.ws_url)
        pipe.hgetall(self.keys.procs)
        procs = {as_text(k): as_text(v) for k, v in pipe.execute()[-1].items()}
        pipe = self.sync.pipeline(transaction=False)
        for name in sorted(procs):
            pipe.exists(f"{self.prefix}:alive:{name}")
        alive = pipe.execute()
        self.host.ops.urls = {n: procs[n] for n, up in zip(sorted(procs), alive, strict=True) if up}

    async def _live(self) -> dict[str, str]:
        """Process -> websocket url of the processes alive now."""
        procs = {
            as_text(k): as_text(v) for k, v in (await self.aio.hgetall(self.keys.procs)).items()
        }
        names = sorted(procs)
        if not names:
            return {}
        pipe = self.aio.pipeline(transaction=False)
        for name in names:
            pipe.exists(f"{self.prefix}:alive:{name}")
        alive = await pipe.execute()
        return {name: procs[name] for name, up in zip(names, alive, strict=True) if up}

    async def _heartbeat(self) -> None:
        """Every HEARTBEAT_SECONDS: our ``alive`` key, the live processes' urls, and the
        tables' watch (:meth:`TableKeeper.check`); Redis back after an outage: the halted
        tables retry at once."""
        self._beating_since = time.monotonic()
        while True:
            try:
                pipe = self.aio.pipeline(transaction=False)
                pipe.set(self.keys.alive, self.link.ws_url, px=PROCESS_TTL_MS)
                pipe.hset(self.keys.procs, self.process, self.link.ws_url)
                await pipe.execute()
                if self._beating_since is None:
                    self._beating_since = time.monotonic()
                    log.warning("tournament %s: Redis answers again", self.tid)
                    self.tables.redis_back()
                # players are only ever sent to a live process
                self.host.ops.urls = await self._live()
            except redis.RedisError as exc:
                if self._beating_since is not None:
                    log.warning("tournament %s: heartbeat: %s", self.tid, exc)
                self._beating_since = None
            try:
                self.tables.check()
            except Exception:  # a bug: the next round tries again
                log.exception("tournament %s: watching the tables", self.tid)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def _settled(self) -> bool:
        """Our heartbeats have reached Redis for PROCESS_TTL_MS: so have every live
        process's (after a Redis outage, an expired ``alive`` key means nothing before)."""
        since = self._beating_since
        return since is not None and time.monotonic() - since >= PROCESS_TTL_MS / 1000

    # ------------------------------------------------------------------ every process

    async def _read(self) -> None:
        """Apply every batch of decisions in stream order. Batches published before this
        process started are applied without opening tables (a process restarted under the
        same name gives back the tables it ran: ``orphaned``). Redis errors: wait, go on
        from the last batch applied."""
        last = "0-0"
        catch_up = await self._stream_end()
        orphans: set[int] = set()
        while True:
            try:
                answer = await self.aio.xread({self.keys.decisions: last}, count=100, block=1000)
            except redis.RedisError as exc:
                log.warning("tournament %s: reading decisions: %s", self.tid, exc)
                await asyncio.sleep(0.5)
                continue
            entries = _entries(answer)
            for last, fields in entries:
                self._apply_entry(last, fields, catch_up, orphans)
            if catch_up is not None and (not entries or stream_id(last) >= catch_up):
                catch_up = None
                mine = sorted(t for t in orphans if self.host.ops.directory.get(t) == UNKNOWN)
                if mine:
                    log.warning("tournament %s: giving back tables %s", self.tid, mine)
                    self.submit("orphaned", {"tables": mine})

    async def _stream_end(self) -> tuple[int, int] | None:
        """The id of the last batch published before this process started (None: none)."""
        while True:
            try:
                tail = await self.aio.xrevrange(self.keys.decisions, count=1)
            except redis.RedisError as exc:
                log.warning("tournament %s: reading decisions: %s", self.tid, exc)
                await asyncio.sleep(0.5)
                continue
            entries = cast(list[tuple[bytes, _Fields]], tail)
            return stream_id(entries[0][0]) if entries else None

    def _apply_entry(
        self, entry: str, fields: _Fields, catch_up: tuple[int, int] | None, orphans: set[int]
    ) -> None:
        catching = catch_up is not None and stream_id(entry) <= catch_up
        try:
            batch = load(fields[b"b"], self.config)
        except ValueError as exc:  # written by another version of the server
            self._fail(f"cannot read the decisions batch {entry}: {exc}")
            return
        except Exception:
            log.exception("tournament %s: reading batch %s", self.tid, entry)
            return
        try:
            self._apply(batch, catching, orphans)
        except Exception:
            log.exception("tournament %s: applying batch %s", self.tid, entry)

    def _apply(self, batch: dict[str, Any], catching: bool, orphans: set[int]) -> None:
        host = self.host
        self._applied = True
        self.tables.directory(batch["directory"], catching, orphans)
        if batch["state"] is not None:
            self._state = batch["state"]
        decisions = batch["decisions"]
        if decisions or batch["state"] is not None:
            host.apply(decisions)
        for table, seats in batch["sync"].items():
            self.tables.sync(table, seats)
            if seats is not None:
                host.reattach(table)  # its players' connections, here or to its process
        if not catching:
            for table, info in batch["adopt"].items():
                if host.ops.directory.get(table) == self.process:
                    self.tables.adopt(table, info)

    # ------------------------------------------------------------------ the lease holder

    async def _acquired(self) -> None:
        log.info("tournament %s: %s directs (epoch %s)", self.tid, self.process, self.lease.epoch)
        if self._directing is not None:
            self._directing.cancel()
        self._directing = asyncio.create_task(
            self._direct(), name=f"tournament-{self.tid}-director"
        )

    async def _lost(self) -> None:
        log.warning("tournament %s: %s lost the director's lease", self.tid, self.process)
        if self._directing is not None:
            self._directing.cancel()
            self._directing = None

    def _now(self, base: tuple[float, float]) -> float:
        redis_time, mono = base
        return (redis_time + (time.monotonic() - mono) - self._t0) * self.speed

    async def _direct(self) -> None:
        """Direct until the lease is lost. Redis failing stops the director where it was
        (what it had not committed is done again); the lease loop takes the lease again
        once Redis answers (still ours if it did not expire meanwhile) and reloads the
        committed state."""
        try:
            await self._directing_loop()
        except asyncio.CancelledError:
            raise
        except redis.RedisError as exc:
            log.warning("tournament %s: the director waits for Redis: %s", self.tid, exc)
            self.lease.held = False
        except Exception:
            log.exception("tournament %s: the director failed", self.tid)
            self.lease.held = False  # the lease loop takes it again and reloads the state
            with contextlib.suppress(redis.RedisError):
                await self.lease.release()

    async def _directing_loop(self) -> None:
        """Read reports, handle them, commit the director's state with the decisions (fenced
        by the lease), until the lease is lost."""
        st, pace = await self._take_the_director()
        while True:
            wait = 0.2
            deadline = st.loop.director.next_deadline()
            if deadline is not None:
                wait = min(wait, max(0.0, (deadline - self._now(pace.base)) / self.speed))
            answer = await self.aio.xread(
                {self.keys.reports: st.last_report},
                count=REPORTS_PER_COMMIT,
                block=max(1, int(wait * 1000)),
            )
            now = self._now(pace.base)
            done = self._handle_reports(st, _entries(answer), now, pace)
            if not await self._commit_round(st, done, now, pace):
                return

    async def _take_the_director(self) -> tuple[Directing, _Pace]:
        """The director's state as the last holder committed it (a new one at first). A
        state gone while the tournament had one, or unreadable: :meth:`_fail` (raises
        CancelledError: never a tournament started afresh over the players' tables)."""
        sec, usec = await self.aio.time()
        base = (sec + usec / 1e6, time.monotonic())
        raw = await self.aio.get(self.keys.director)
        if raw is None:
            if self._applied or not await self.aio.exists(f"{self.prefix}:config"):
                self._stop(
                    "the tournament's state is gone from Redis (restarted without "
                    "persistence, or flushed): it cannot go on (docs/operations.md, Redis)"
                )
            director = Director(
                self.config, secrets.SystemRandom(), now=self._now(base), track_presence=True
            )
            st = Directing(DirectorLoop(director))
        else:
            try:
                st = load(_blob(raw), self.config)
            except ValueError as exc:  # written by another version of the server
                self._stop(f"cannot read the director's state in Redis: {exc}")
            if st.loop.finished is not None and not await self.aio.exists(
                f"{self.prefix}:results.json"
            ):
                await self._save_results(st)  # the holder that finished it failed before
        return st, _Pace(base=base, live=await self._live())

    def _stop(self, why: str) -> NoReturn:
        self._fail(why)
        raise asyncio.CancelledError

    def _handle_reports(
        self, st: Directing, entries: list[tuple[str, _Fields]], now: float, pace: _Pace
    ) -> _Round:
        done = _Round(entries=len(entries))
        for report_id, fields in entries:
            st.last_report = report_id
            try:
                kind, data, proc = msgpack.unpackb(fields[b"r"], raw=False, strict_map_key=False)
            except Exception:
                log.exception("tournament %s: bad report %s", self.tid, report_id)
                continue
            try:
                done.out += self._handle_report(st, kind, data, proc, now, done, pace)
            except Exception:  # a bug: skip the report rather than stop the tournament
                log.exception("tournament %s: handling %s %s", self.tid, kind, data)
        deadline = st.loop.director.next_deadline()
        if deadline is not None and now >= deadline:
            done.out += st.loop.handle("tick", {}, now)
        return done

    def _handle_report(
        self,
        st: Directing,
        kind: str,
        data: dict[str, Any],
        proc: str,
        now: float,
        done: _Round,
        pace: _Pace,
    ) -> list[Instruction]:
        if kind == "recovered":
            return recovered(st, data, proc, now, done.synced, self.tid)
        stale = stale_table_report(kind, data, proc, st.directory, st.adopting)
        if stale is not None:  # from a table given away: never deal a hand nobody plays
            log.warning("tournament %s: %s of %s refused: %s", self.tid, kind, proc, stale)
            return []
        if kind == "orphaned":
            for table in data.get("tables", []):
                if st.directory.get(int(table)) == proc:
                    st.directory[int(table)] = UNKNOWN
            pace.checked = 0.0
            return []
        return st.loop.handle(kind, data, now)

    async def _commit_round(self, st: Directing, done: _Round, now: float, pace: _Pace) -> bool:
        """Commit what the round changed; False once the lease is lost."""
        mono = time.monotonic()
        if (
            done.entries < REPORTS_PER_COMMIT
            and mono - pace.checked >= CHECK_EVERY
            and self._settled()
        ):
            pace.checked = mono
            pace.live = await self._live()
            take_over(st, pace.live, done.adopt, self.process, self.tid)
        if any(isinstance(x, TableAssignment | FinalTable) for x in done.out):
            pace.live = await self._live()  # a process started a moment ago takes tables too
        directory = place(st, done.out, pace.live, self.process)
        directory.update({t: st.directory[t] for t in done.adopt})
        sync = {t: seating(st, t) for t in done.synced}
        pace.dirty = pace.dirty or bool(done.entries or done.out)
        finished = any(isinstance(x, Finished) for x in done.out)
        state = None
        if pace.dirty and (finished or mono - pace.published >= STATE_EVERY):
            state = tournament_state(st.loop, now)
            pace.published, pace.dirty = mono, False
        changes = bool(done.out or done.adopt or sync or directory or state)
        if not (done.entries or changes):
            return True
        batch = b""
        if changes:
            batch = dump(decision_batch(done.out, directory, state, sync, done.adopt), self.config)
        blob = dump(st, self.config, st.loop.director.rng)
        ok = await self._commit(
            keys=[self.keys.lease, self.keys.director, self.keys.decisions],
            args=[self.process, blob, batch],
        )
        if not ok:
            log.warning("tournament %s: lease lost: the director stops here", self.tid)
            self.lease.held = False
            return False
        if finished and st.loop.finished is not None:
            await self._save_results(st)
        if mono - pace.trimmed >= 2.0:
            pace.trimmed = mono
            await self.aio.xtrim(self.keys.reports, minid=st.last_report, approximate=True)
        return True

    async def _save_results(self, st: Directing) -> None:
        assert st.loop.finished is not None
        results = st.loop.finished.results
        pipe = self.aio.pipeline(transaction=True)
        pipe.set(f"{self.prefix}:results.json", results_json(results, self.config))
        pipe.set(f"{self.prefix}:results.csv", results_csv(results))
        await pipe.execute()
