"""The gateway: one port for the websocket endpoint (``/ws``), the static browser client, and a
few HTTP GET routes (``/healthz``, ``/metrics``, hand records and exports).

Every frame is decoded by protocol/ (size limit first), checked against the session (who is
this, which seat may they act for), and queued on the table's actor. Bad input gets an error
with a stable code; the connection and the table go on. Slow clients never block a table:
each connection has a bounded send queue and is dropped (to reconnect and resync) when full.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import resource
import secrets
import socket
import time
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, decode_client, encode
from protocol import messages as m
from server.accounts import MemberStore, reserved_name
from server.accounts.store import MemberBook
from server.cash import Ledger
from server.dealing import Signer
from server.gateway.accounts import AccountDesk
from server.gateway.cash_room import (
    closing_ledger,
    relocate,
    room_for_new_table,
    transfer,
)
from server.gateway.connection import SEND_BUFFER, WRITE_LIMIT, Connection
from server.gateway.creating import check_create, table_config
from server.gateway.guard import Guard, guarded_connection
from server.gateway.housekeeping import Activity, review, sweep_every
from server.gateway.http import Metrics
from server.gateway.league_http import LeagueRoutes
from server.gateway.limits import ACCEPT_BATCH, Limits
from server.gateway.routes import ROUTES
from server.league_service import (
    CapitalBook,
    CapitalStore,
    LeagueBook,
    LeagueDesk,
    LeagueStore,
    SeasonCapital,
)
from server.store import Store
from server.table import commands as tc
from server.table.actor import Client, TableActor
from server.table.clock import Clock, RealClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from server.table.effects import GrantSeat
from server.tokens import NonceBook, TokenAuthority
from server.tournament.live import LiveTournament, load_tournament
from server.tournament.redis_coordinator import RedisLink
from server.tournament.redis_link import as_text

__all__ = ["Gateway", "Metrics"]

log = logging.getLogger("brasseur.gateway")

_TID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
"""A tournament id worth asking Redis about (any other is no tournament)."""

_MEMBER_RIGHTS = (m.Register, m.Rebuy, m.Reenter, m.TakeSeat, m.AddChips, m.CreateTable)
"""Requests that use a logged-in member's rights (his entries, seats and purchases)."""

HOST_TOKEN_SECONDS = 30 * 86400
"""A table creator's token lasts 30 days (an idle friends table is dropped after a day)."""


class Gateway:
    def __init__(
        self,
        store: Store,
        signer: Signer,
        clock: Clock | None = None,
        name: str = "brasseur",
        public_url: str = "",
        max_tables: int = 2000,
        table_defaults: dict[str, Any] | None = None,
        redis: RedisLink | None = None,
        limits: Limits | None = None,
        token_secret: bytes | None = None,
        members: MemberBook | None = None,
        leagues: LeagueBook | None = None,
        capital: CapitalBook | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.metrics = Metrics()
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.guard = Guard(self.limits, nofile, self._count_refusal)
        self.redis = redis
        """Tournaments shared with other processes through this Redis (None: in-memory)."""
        self.signer = signer
        self.clock = clock or RealClock()
        self.name = name
        self.public_url = public_url
        # with Redis, one secret for every process: a player's token works on any of them;
        # alone, the secret file of the data directory (server.secretfile, mode 0600), or
        # without one (tests) a secret that dies with the process
        if redis is not None:
            token_secret = bytes.fromhex(redis.token_secret())
        self.auth = TokenAuthority(
            token_secret or secrets.token_bytes(32),
            time.time,
            NonceBook(store.get_meta, store.set_meta),
        )
        self.accounts: AccountDesk = AccountDesk(
            members or MemberStore(":memory:"), self.auth, time.time, limits=self.limits
        )
        self.leagues = LeagueDesk(
            self,
            leagues or LeagueStore(":memory:"),
            member_of=lambda token: self.accounts.member_of(token).id,
            display=self._display,
        )
        """The league service's requests and events (server.league_service.desk)."""
        self.capital = SeasonCapital(
            self.leagues.store, capital or CapitalStore(":memory:"), name_of=self._display
        )
        """The season capital of the leagues' cash tables (server.league_service.capital)."""
        self.tables: dict[str, TableActor] = {}
        self.connections: dict[str, Connection] = {}
        self.activity: dict[str, Activity] = {}
        """What the sweeper last saw of each friends table (server.gateway.housekeeping)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.http = LeagueRoutes(self)  # HttpRoutes with the leagues' standings
        self.server: Server | None = None
        self.max_tables = max_tables
        self.table_defaults = dict(table_defaults or {})
        """Settings for tables created over the wire (timings from the command line)."""
        self.tournaments: dict[str, LiveTournament] = {}
        self.public_tables = {
            name for name, cfg in store.tables() if "tournament" in cfg.get("extra", {})
        }
        """Tournament tables, open to anyone (spectators, hand records), closed ones too."""

    # ------------------------------------------------------------------ tables

    def create_table(self, config: TableConfig) -> TableActor:
        self.store.save_table(config.table_id, config.to_dict())
        return self._run_table(config)

    def _run_table(self, config: TableConfig) -> TableActor:
        actor = TableActor(config, self.clock, CsprngDealer(self.signer), store=self.store)
        actor.grant = self.grant_seat
        actor.transfer = lambda source, effect: transfer(self, source, effect)
        self.capital.follow(actor)
        actor.recover()
        self.capital.restored(actor)
        self.tables[config.table_id] = actor
        actor.start()
        return actor

    def restore_tables(self) -> list[TableActor]:
        """Bring back every stored table at its last completed hand (after a restart)."""
        return [
            self._run_table(TableConfig.from_dict(cfg))
            for _, cfg in self.store.tables()
            if "tournament" not in cfg.get("extra", {})
        ]

    # ------------------------------------------------------------------ tournaments

    def add_tournament(self, tid: str, text: str) -> LiveTournament:
        """Record a tournament (its TOML) in the store; it runs from the next start."""
        load_tournament(text)  # raises on a bad configuration
        if self.redis is not None:
            self.redis.add_tournament(tid, text)
            return self._run_tournament(tid, text)
        known = json.loads(self.store.get_meta("tournaments") or "[]")
        if tid not in known:
            known.append(tid)
        self.store.set_meta(f"tournament:{tid}:config", text)
        self.store.set_meta("tournaments", json.dumps(known))
        return self._run_tournament(tid, text)

    def _run_tournament(self, tid: str, text: str) -> LiveTournament:
        services: dict[str, Any] = {
            "clock": self.clock,
            "dealer": lambda: CsprngDealer(self.signer),
            "auth": self.auth,
            "drop_table": self._drop_table,
            "persist": self.store.set_meta,
        }
        if self.redis is not None:
            live = LiveTournament.redis(
                tid, text, link=self.redis, add_table=self._add_shared_table, **services
            )
        else:
            live = LiveTournament.local(
                tid, text, store=self.store, add_table=self._add_tournament_table, **services
            )
        self.tournaments[tid] = live
        return live

    def restore_tournaments(self) -> list[LiveTournament]:
        """Tournaments recorded in the store and not started yet, open for registration. A
        tournament that had started when the process stopped is not resumed by the in-memory
        coordinator (its director's state died with the process): it is logged and left in
        the store (docs/tournaments.md; Redis mode keeps tournaments through a restart)."""
        if self.redis is not None:  # the tournaments and their state live in Redis
            return [self._run_tournament(tid, text) for tid, text in self.redis.tournaments()]
        out = []
        started = {cfg.get("extra", {}).get("tournament") for _, cfg in self.store.tables()}
        for tid in json.loads(self.store.get_meta("tournaments") or "[]"):
            text = self.store.get_meta(f"tournament:{tid}:config")
            if not text or self.store.get_meta(f"tournament:{tid}:results.json") is not None:
                continue
            if tid in started:
                log.warning("tournament %s was interrupted: not resumed in-memory", tid)
                continue
            out.append(self._run_tournament(tid, text))
        return out

    def _add_shared_table(self, actor: TableActor) -> None:
        """A table of a Redis tournament: its events and records are in Redis, not here."""
        self.public_tables.add(actor.table)
        self.tables[actor.table] = actor

    def records_of(self, table: str) -> Any:
        """Where the hand records of ``table`` are: Redis for a Redis tournament's table."""
        live = self.tournaments.get(table.rsplit("-", 1)[0])
        shared = getattr(live.coordinator, "store", None) if live is not None else None
        return shared if shared is not None else self.store

    def _add_tournament_table(self, actor: TableActor) -> None:
        self.public_tables.add(actor.table)
        self.store.save_table(actor.table, actor.config.to_dict())
        self.tables[actor.table] = actor

    def _drop_table(self, table: str) -> None:
        self.tables.pop(table, None)

    # ------------------------------------------------------------------ idle tables

    async def _sweep(self) -> None:
        """Close and drop the friends tables nobody uses (server.gateway.housekeeping)."""
        every = sweep_every(self.limits)
        while True:
            await asyncio.sleep(every)
            for table in self.idle_tables():
                await self.close_table(table)

    def idle_tables(self) -> list[str]:
        """Look at every friends table created over the wire; the ones to drop now."""
        now = self.clock.now()
        out = []
        for name, actor in list(self.tables.items()):
            if "created_by" not in actor.config.extra:
                continue  # the operator's tables and tournament tables stay
            seen, drop = review(
                self.activity.get(name),
                now,
                actor.hands_played,
                watched=actor.watched,
                seated=bool(actor.seats),
                limits=self.limits,
            )
            self.activity[name] = seen
            if drop:
                out.append(name)
        return out

    async def close_table(self, table: str) -> None:
        """Stop a friends table and drop it from the store (its hand records stay)."""
        actor = self.tables.pop(table, None)
        self.activity.pop(table, None)
        if actor is None:
            return
        try:  # the seats as they are: nobody connected, no hand dealt (server.gateway.limits)
            archive = closing_ledger(actor, time.time())
            await actor.stop()
            if archive is not None:
                self.store.set_meta(f"ledger:{table}", archive)
                season = actor.config.extra.get("season")
                if isinstance(season, str):  # every stack went back to its member's capital
                    self.capital.closed(table, season, Ledger.from_json(json.loads(archive)))
            self.store.drop_table(table)
        except Exception:  # the disk is full: it is tried again at the next start
            log.exception("table %s: closed, but could not be dropped from the store", table)
        self.metrics.counters["tables_dropped"] += 1
        log.info("table %s: idle, closed and dropped (hand records kept)", table)

    def live_tournament(self, tid: str) -> LiveTournament:
        live = self.attach_tournament(tid)
        if live is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"no tournament {tid!r}")
        return live

    def attach_tournament(self, tid: str) -> LiveTournament | None:
        """The tournament ``tid`` this process runs. With ``--redis``, one that another
        process recorded since this one started (a league's event, a cup's game) is run here
        from now on, as it would be from the next start; None for no such tournament, or one
        finished."""
        live = self.tournaments.get(tid)
        if live is not None or self.redis is None or not _TID.fullmatch(tid):
            return live
        text = self.redis.tournament_text(tid)
        if text is None:
            return None
        log.info("tournament %s: recorded by another process, run here from now", tid)
        live = self._run_tournament(tid, text)
        self.leagues.taken_up(live)
        return live

    def tournament_recorded(self, tid: str) -> bool:
        """``tid`` was ever recorded (running, finished, or cut by a restart)."""
        if self.redis is not None:
            return self.redis.tournament_text(tid, finished=True) is not None
        return tid in self.tournaments or bool(self.store.get_meta(f"tournament:{tid}:config"))

    # ------------------------------------------------------------------ the leagues' port
    # (server.league_service.ports.Tournaments: what the league service asks of this process)

    @property
    def shared_by_processes(self) -> bool:
        return self.redis is not None

    def running(self, tid: str) -> LiveTournament | None:
        return self.tournaments.get(tid)

    def tournament_shared(self, tid: str) -> bool:
        link = self.redis
        if link is None:
            return False
        return bool(link.client.exists(f"{link.tournament_prefix(tid)}:config"))

    def stored_results(self, tid: str) -> list[dict[str, Any]] | None:
        """The tournament's ``results.json`` rows: in this process's store (its host wrote
        them at ``Finished``), else, with ``--redis``, in Redis (the director wrote them
        there: the tournament may have finished in another process, or while this one was
        down)."""
        text = self.store.get_meta(f"tournament:{tid}:results.json")
        link = self.redis
        if text is None and link is not None:
            raw = link.client.get(f"{link.tournament_prefix(tid)}:results.json")
            text = None if raw is None else as_text(raw)
        if text is None:
            return None
        rows: list[dict[str, Any]] = json.loads(text)["results"]
        return rows

    def director_token(self, tid: str) -> str:
        return self.auth.director(tid)

    def director_link(self, tid: str, base: str) -> str:
        token = self.auth.director(tid)
        return f"{base.rstrip('/')}/?tournament={tid}&director={token}"

    # ------------------------------------------------------------------ serving

    async def start(self, host: str, port: int) -> Server:
        self.server = await serve(
            self.handle,
            host,
            port,
            create_connection=guarded_connection(self.guard),
            process_request=self._screened,
            open_timeout=self.limits.hello_seconds,  # the HTTP request and the handshake
            # asyncio accepts up to `backlog` sockets per wake-up before any is counted: the
            # descriptor reserve of Limits covers two such batches
            backlog=ACCEPT_BATCH,
            max_size=2**16,  # the codec refuses frames over protocol.MAX_FRAME itself
            max_queue=64,
            ping_interval=20,
            ping_timeout=20,
            write_limit=WRITE_LIMIT,
        )
        self._sweeper = asyncio.create_task(self._sweep(), name="sweeper")
        return self.server

    async def close(self) -> None:
        self.leagues.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for actor in self.tables.values():
            await actor.stop()
        for live in self.tournaments.values():
            live.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def abort(self, conn: Connection) -> None:
        conn.ws.transport.abort()

    async def _screened(self, connection: ServerConnection, request: Request) -> Response | None:
        """The guard first (address caps, websockets' Origin), then the HTTP routes."""
        refusal = self.guard.screen(connection, request, self._public_origin())
        if refusal is not None:
            return refusal
        return await self.process_request(connection, request)

    def _public_origin(self) -> str:
        scheme, _, rest = self.public_url.partition("://")
        return f"{scheme}://{rest.split('/', 1)[0]}" if rest else ""

    def _count_refusal(self, code: str) -> None:
        self.metrics.counters[f"error:{code}"] += 1

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """HTTP on the websocket's port (server.gateway.http): heavy routes run off the loop."""
        return await self.http.process_request(request)

    # ------------------------------------------------------------------ websocket

    async def handle(self, ws: ServerConnection) -> None:
        sock = ws.transport.get_extra_info("socket")
        if sock is not None:
            # a small kernel buffer, so a client that does not read fills its send queue
            # (and is dropped) in seconds instead of hiding megabytes in the kernel
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        conn = Connection(ws, self.guard.address_of(ws), self.abort)
        self.connections[conn.cid] = conn
        conn.hello_timer = asyncio.get_running_loop().call_later(
            self.limits.hello_seconds, self._hello_late, conn
        )
        writer = asyncio.create_task(conn.writer())
        try:
            async for frame in ws:
                if conn.closed:
                    break
                self._frame(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            self._gone(conn)
            writer.cancel()

    def _frame(self, conn: Connection, frame: bytes | str) -> None:
        """One frame: rate limit, decode, route; bad input gets an error with a stable code."""
        self.metrics.counters["frames"] += 1
        if not conn.allow():
            now = time.monotonic()
            if now - conn.last_rate_error > 1.0:  # one error a second, not per frame
                conn.last_rate_error = now
                self._send_error(conn, ErrorCode.RATE_LIMITED, "too many frames", None)
            return
        try:
            message = decode_client(frame)
        except ProtocolError as exc:
            self._send_error(conn, exc.code, exc.message, exc.ref)
            return
        try:
            self._route(conn, message)
        except ProtocolError as exc:
            self._send_error(conn, exc.code, exc.message, getattr(message, "id", None))

    def _hello_late(self, conn: Connection) -> None:
        conn.hello_timer = None
        if not conn.hello:
            self.metrics.counters[f"error:{ErrorCode.HELLO_TIMEOUT}"] += 1
            conn.kick(ErrorCode.HELLO_TIMEOUT, f"no hello within {self.limits.hello_seconds:g} s")

    def _gone(self, conn: Connection) -> None:
        if conn.hello_timer is not None:
            conn.hello_timer.cancel()
        conn.closed = True
        self.connections.pop(conn.cid, None)
        for table in conn.tables:
            actor = self.tables.get(table)
            if actor is not None:
                actor.post(tc.Gone(conn=actor.conn(conn)), conn)
        for tid in conn.tournaments:
            live = self.tournaments.get(tid)
            if live is not None:
                live.host.gone(conn)

    def _send_error(self, conn: Connection, code: str, message: str, ref: int | None) -> None:
        self.metrics.counters[f"error:{code}"] += 1
        conn.deliver(encode(m.Error(code=str(code), message=message[:500], ref=ref)))

    def table_actor(self, name: str) -> TableActor:
        actor = self.tables.get(name)
        if actor is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"no table {name!r}")
        return actor

    def _route(self, conn: Connection, message: m.Message) -> None:
        if isinstance(message, m.Ping):
            conn.deliver(encode(m.Pong(nonce=message.nonce)))
            return
        if isinstance(message, m.Hello):
            self._hello(conn, message)
            return
        if not conn.hello:
            raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
        if conn.member is not None and isinstance(message, _MEMBER_RIGHTS):
            self.accounts.still(conn)  # a password changed on another process ends them
        route = ROUTES.get(type(message))
        if route is not None:
            route(self, conn, message)
            return
        self._to_table(conn, message)

    def _to_table(self, conn: Connection, message: m.Message) -> None:
        """A table command: to the table the connection joined."""
        table = getattr(message, "table", None)
        actor = self.tables.get(table) if isinstance(table, str) else None
        if actor is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"no table {table!r}"[:200])
        if table not in conn.tables:
            raise ProtocolError(ErrorCode.NOT_SEATED, "join the table first")
        if isinstance(message, m.JoinWaitingList):
            conn.identity()  # the list holds a person, who sits with this connection later
        command: tc.Command | None = tc.from_message(actor.conn(conn), message)
        if isinstance(command, tc.AddChips):  # a purchase: the league service's first
            command = self._admitted(conn, actor, command)
        if command is None:
            return
        actor.submit(command, conn)
        if isinstance(message, m.LeaveTable) and actor.halted_since is None:
            # (a halted table refuses the leave, table_halted: he is still there, and may
            # ask again without joining again)
            conn.tables.discard(table)

    def _admitted(
        self, conn: Connection, actor: TableActor, command: tc.Command
    ) -> tc.Command | None:
        """``command`` as the league service lets it reach the table (a season's purchase
        carries its capital's hold), or None once refused: the refusal names the table, as
        the table's own would."""
        try:
            return self.capital.admit(actor, command)
        except ProtocolError as exc:
            self.metrics.counters[f"error:{exc.code}"] += 1
            error = m.Error(
                code=exc.code,
                message=exc.message,
                ref=getattr(command, "ref", None),
                table=actor.table,
            )
            conn.deliver(encode(error))
            return None

    def join_table(self, conn: Connection, message: m.JoinTable) -> None:
        actor = self.table_actor(message.table)
        public = "tournament" in actor.config.extra  # tournament tables: anyone may watch
        if message.table not in conn.invites and not public:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "you need this table's invite link")
        conn.tables.add(message.table)
        actor.post(tc.Watch(conn=actor.conn(conn), last_seq=message.last_seq), conn)

    def take_seat(self, conn: Connection, message: m.TakeSeat) -> None:
        actor = self.table_actor(message.table)
        claims = self.auth.verify(message.token, "invite")
        if claims.get("t") != message.table:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this invite is for another table")
        conn.invites.add(message.table)
        conn.tables.add(message.table)
        pid = conn.identity()
        nickname = conn.nickname or f"player-{pid[:4]}"
        # no token yet: the table grants the seat (and the token is issued) only once the
        # seat is saved; a refused sit changes no credential
        command = self._admitted(conn, actor, tc.seat_command(actor.conn(conn), message, nickname))
        if command is not None:
            actor.post(command, conn)

    def create_on_request(self, conn: Connection, message: m.CreateTable) -> None:
        if len(self.tables) >= self.max_tables:
            raise ProtocolError(ErrorCode.TABLE_LIMIT, "this server runs as many tables as it can")
        cap = self.limits.tables_per_connection
        if cap and conn.tables_created >= cap:
            raise ProtocolError(ErrorCode.TABLE_LIMIT, f"{cap} tables per connection at most")
        cash = check_create(message)
        room = room_for_new_table(self, message)
        season = (
            self.capital.new_table(conn.member, message.season, message.game, message.structure)
            if message.season
            else None
        )
        if season and cash is not None:
            # a season's table deals the season's game and structure (league_service.capital)
            cash |= {k: season[k] for k in ("game", "structure") if k in season}
        if not self.guard.tables.take(conn.address, self.clock.now()):
            raise ProtocolError(
                ErrorCode.TABLE_LIMIT, "too many tables created from your address: try later"
            )
        conn.tables_created += 1
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        config = table_config(
            message, cash, table_id, conn.address, self.table_defaults, room, season
        )
        self.create_table(config)
        conn.invites.add(table_id)
        created = m.TableCreated(
            table=table_id,
            invite=self.auth.invite(table_id),
            host=self.host_token(table_id),
            ref=message.id,
        )
        conn.deliver(encode(created))

    def _hello(self, conn: Connection, message: m.Hello) -> None:
        if message.version != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH, f"this server speaks protocol {PROTOCOL_VERSION}"
            )
        if message.nickname and reserved_name(message.nickname):  # docs/accounts.md
            raise ProtocolError(
                ErrorCode.RESERVED_NAME, "this name is the director's or the host's"
            )
        if message.nickname:
            conn.nickname = message.nickname.strip()[:32] or None
        rejoin: tuple[str, int] | None = None
        if message.token:
            claims = self.auth.verify(message.token)
            table = str(claims.get("t"))
            conn.invites.add(table)
            if claims["k"] == "seat":
                conn.pid = str(claims["p"])
                conn.nickname = str(claims.get("n") or conn.nickname)
                conn.used_nonce = str(claims.get("j", ""))
                rejoin = (table, int(claims["s"]))
        if message.member:  # a session that ended leaves the connection a guest (member nil)
            with contextlib.suppress(ProtocolError):
                self.accounts.hello(conn, message.member)
        conn.hello = True
        conn.deliver(
            encode(
                m.Welcome(
                    version=PROTOCOL_VERSION,
                    session=conn.cid,
                    server=self.name,
                    nickname=conn.nickname,
                    member=conn.member,
                )
            )
        )
        if rejoin is not None:
            table, seat = relocate(self, conn, *rejoin)  # a cash room may have moved him
            actor = self.table_actor(table)
            assert conn.pid is not None and conn.nickname is not None
            # the seat token rotates once the table confirms the seat is still his (grant):
            # the one just used is then spent (replay protection); the client then sends
            # join(table, last_seq) to get what it missed
            conn.tables.add(table)
            actor.post(tc.Rejoin(conn=actor.conn(conn), seat=seat), conn)

    def grant_seat(self, client: Client, grant: GrantSeat) -> None:
        """The table saved the seat: issue (rotate) the seat token and send ``seated``. The
        nonce book saves the new nonce before it counts, so a failure here leaves the token
        the player holds valid."""
        conn = self.connections.get(client.cid)
        used = conn.used_nonce if conn is not None else None
        try:
            token = self.auth.seat(grant.table, grant.seat, grant.player, grant.name, used=used)
        except Exception:
            log.exception("table %s: the seat token could not be saved", grant.table)
            client.deliver(
                encode(
                    m.Error(
                        code=ErrorCode.TABLE_HALTED,
                        message="your seat is kept but a new token could not be saved: retry",
                        ref=grant.ref,
                        table=grant.table,
                    )
                )
            )
            return
        if conn is not None:
            conn.used_nonce = None
        client.deliver(
            encode(m.Seated(table=grant.table, seat=grant.seat, token=token, ref=grant.ref))
        )

    def _display(self, member: str) -> str | None:
        found = self.accounts.store.by_id(member)
        return None if found is None else found.display

    def invite_link(self, table: str, base: str) -> str:
        return f"{base.rstrip('/')}/?table={table}&invite={self.auth.invite(table)}"

    def host_token(self, table: str) -> str:
        """The creator's token of a friends table: it gets the table's invite again
        (``GET /api/tables/<table>/invite``), and opens the table as an invite does."""
        return self.auth.issue({"k": "host", "t": table}, HOST_TOKEN_SECONDS)

    def describe(self) -> dict[str, Any]:
        return {"tables": sorted(self.tables)}
