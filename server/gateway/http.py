"""HTTP on the gateway's port: health, metrics, hand records and exports, tournaments'
public state, and the static browser client.

Nothing heavy runs on the event loop. ``/healthz``, ``/metrics`` and the tournaments' state are
O(tables) from memory. Every store read (a hand record, a tournament's results) and every file
of the client runs in a worker thread. Exports go by pages (``?from=HAND&count=N``) of at most
:data:`PAGE_HANDS` hands and :data:`MAX_BODY` bytes, built by :class:`ExportPool`:
:data:`EXPORT_WORKERS` worker processes (threads for a Redis store), with at most
:data:`EXPORT_WAITING` more pages waiting; beyond, ``503 busy`` and ``Retry-After``.

Every refusal is a 4xx (or that 503) with the body ``code: message``, the code one of
:class:`protocol.errors.ErrorCode`: no input gives a 500 (docs/protocol.md, "HTTP routes").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http
import json
import logging
import mimetypes
import multiprocessing
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar
from urllib.parse import parse_qs, quote, urlencode

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from protocol import ErrorCode, ProtocolError
from server.gateway.cash_room import RoomHost, archived_ledger, room_listing
from server.league_service import SeasonCapital
from server.store import ExportFormat, RecordReader, Store
from server.store.pages import Page, file_page, page_of, worker_init
from server.tournament.live import LiveTournament

__all__ = [
    "CLIENT_DIR",
    "EXPORT_WAITING",
    "EXPORT_WORKERS",
    "MAX_BODY",
    "PAGE_HANDS",
    "ExportPool",
    "HttpError",
    "HttpHost",
    "HttpRoutes",
    "Metrics",
]

log = logging.getLogger("brasseur.http")

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client_web"

PAGE_HANDS: Final = 200
"""Hands in an export page, by default and at most: about 0.15 s of one core to build, and
3.5 MB of JSON with the records of a real table (10 to 17 kB each, indented)."""
MAX_BODY: Final = 4 * 2**20
"""Bytes of an export page: it ends before the hand that would pass this (a page holds at
least one hand). 200 ordinary hands fit; a page of long hands (many all-ins, ten seats) is
cut early, its ``Link`` header saying where the next one starts."""
EXPORT_WORKERS: Final = 2
"""Export pages built at once, each in a worker process: one core's worth of work per page,
two pages at once leave the event loop a core of a small server's two."""
EXPORT_WAITING: Final = 8
"""Export pages waiting for a worker: ten pages in all take about a second, far below the
handshake's deadline; one more is refused with ``503 busy`` and ``Retry-After: 1``."""
WORKER_NICENESS: Final = 10
"""How much lower the workers' priority is than the server's (``nice``)."""
MAX_QUERY_FIELDS: Final = 16
MAX_STATIC_PATH: Final = 512

_JSON: Final = "application/json"
_EXPORTS: Final[dict[str, ExportFormat]] = {"hands.txt": "txt", "hands.json": "json"}
_KINDS: Final[dict[str, str]] = {"txt": "text/plain; charset=utf-8", "json": "application/json"}
_DECIMAL: Final = re.compile(r"0|[1-9][0-9]*")
"""A number in a path or a query: ASCII digits, no sign, no leading zero, no spaces."""
_DIGITS: Final = 18
"""Digits of the largest number accepted (below SQLite's 2**63)."""

T = TypeVar("T")


class HttpHost(RoomHost, Protocol):
    """What the HTTP routes read of the process around them (the gateway satisfies it; this
    module never imports the gateway)."""

    @property
    def store(self) -> Store: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def capital(self) -> SeasonCapital: ...
    @property
    def tournaments(self) -> Mapping[str, LiveTournament]: ...
    @property
    def public_url(self) -> str: ...
    @property
    def public_tables(self) -> Collection[str]: ...
    def records_of(self, table: str) -> Any: ...


class Metrics:
    def __init__(self) -> None:
        self.counters: Counter[str] = Counter()
        self.started = time.time()

    def render(self, gateway: HttpHost) -> str:
        tables = list(gateway.tables.values())
        lines = [
            "# HELP brasseur_connections Open websocket connections.",
            "# TYPE brasseur_connections gauge",
            f"brasseur_connections {len(gateway.connections)}",
            "# HELP brasseur_tables Tables running in this process.",
            "# TYPE brasseur_tables gauge",
            f"brasseur_tables {len(gateway.tables)}",
            "# HELP brasseur_hands_total Hands completed since start.",
            "# TYPE brasseur_hands_total counter",
            f"brasseur_hands_total {sum(t.hands_played for t in gateway.tables.values())}",
            "# HELP brasseur_tables_halted Tables halted by a failed store write.",
            "# TYPE brasseur_tables_halted gauge",
            f"brasseur_tables_halted {sum(t.halted_since is not None for t in tables)}",
            "# HELP brasseur_store_failures_total Failed store writes of the running tables.",
            "# TYPE brasseur_store_failures_total counter",
            f"brasseur_store_failures_total {sum(t.store_failures for t in tables)}",
            "# HELP brasseur_capital_failures_total Season capital writes that failed (retried).",
            "# TYPE brasseur_capital_failures_total counter",
            f"brasseur_capital_failures_total {gateway.capital.failures}",
            "# HELP brasseur_frames_total Frames received from clients.",
            "# TYPE brasseur_frames_total counter",
            f"brasseur_frames_total {self.counters['frames']}",
            "# HELP brasseur_errors_total Errors sent to clients, by code.",
            "# TYPE brasseur_errors_total counter",
        ]
        for key, value in sorted(self.counters.items()):
            if key.startswith("error:"):
                lines.append(f'brasseur_errors_total{{code="{key[6:]}"}} {value}')
        lines += [
            "# HELP brasseur_uptime_seconds Seconds since the process started.",
            "# TYPE brasseur_uptime_seconds gauge",
            f"brasseur_uptime_seconds {time.time() - self.started:.0f}",
        ]
        return "\n".join(lines) + "\n"


class HttpError(Exception):
    """A refused request: its status, stable code and message (the body ``code: message``)."""

    def __init__(
        self, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = str(code)
        self.message = message
        self.headers = dict(headers or {})


def _not_found(what: str = "not found") -> HttpError:
    return HttpError(404, ErrorCode.NOT_FOUND, what)


def _number(text: str, what: str) -> int:
    """A decimal number of a path or a query; 400 ``bad_type`` unless written as ASCII digits
    without sign or leading zero, 400 ``out_of_range`` beyond 18 digits."""
    if not _DECIMAL.fullmatch(text):
        raise HttpError(400, ErrorCode.BAD_TYPE, f"{what} must be written with digits 0-9")
    if len(text) > _DIGITS:
        raise HttpError(400, ErrorCode.OUT_OF_RANGE, f"{what} has more than {_DIGITS} digits")
    return int(text)


def _query(text: str) -> dict[str, str]:
    """The first value of each field of a query string."""
    try:
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_QUERY_FIELDS)
    except ValueError:
        raise HttpError(400, ErrorCode.OUT_OF_RANGE, "too many query fields") from None
    return {key: values[0] for key, values in fields.items()}


def _bearer(headers: Headers) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ("" without one)."""
    scheme, _, token = (headers.get("Authorization") or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _yield_gil() -> None:
    """Let the event loop's thread take the GIL now rather than at the next switch interval
    (sleep(0) releases it): a page built in a thread has this between hands."""
    time.sleep(0)


class ExportPool:
    """Where export pages are built: :data:`EXPORT_WORKERS` worker processes for the SQLite
    store (each reads the file itself; :mod:`server.store.pages` says why not threads),
    threads for a Redis store (its client cannot go to another process), and threads too
    where processes cannot start (no POSIX semaphores: logged once). :data:`EXPORT_WAITING`
    more pages may wait; one more is refused (``503 busy``) rather than queued without end.
    The processes start at the first export (about 0.1 s each) and stay until the server
    stops (and stop if it is killed). A page whose client went away still finishes, and is
    counted until then."""

    def __init__(self, workers: int = EXPORT_WORKERS, waiting: int = EXPORT_WAITING) -> None:
        self.workers = workers
        self.limit = workers + waiting
        self.admitted = 0
        """Pages submitted and not finished (being built, or waiting for a worker)."""
        self._processes: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._no_processes = False

    def _executor(self, process: bool) -> Executor:
        if process and self._processes is None and not self._no_processes:
            try:
                self._processes = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),  # never fork a server
                    initializer=worker_init,
                    initargs=(os.getpid(), WORKER_NICENESS),
                )
            except (OSError, ImportError, NotImplementedError) as exc:
                log.warning("no worker processes (%s): threads build the export pages", exc)
                self._no_processes = True
        if process and self._processes is not None:
            return self._processes
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="export")
        return self._threads

    async def run(self, job: Callable[[], T], *, process: bool) -> T:
        """``job()`` in a worker process (it must pickle) or thread; 503 ``busy`` if full."""
        if self.admitted >= self.limit:
            raise _busy("too many exports at once: retry in a second")
        loop = asyncio.get_running_loop()

        def finished(_: Future[T]) -> None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the process is stopping
                loop.call_soon_threadsafe(self._release)

        executor = self._executor(process)
        try:
            future = executor.submit(job)
        except (BrokenProcessPool, OSError) as exc:  # no worker process could start
            self._restart(exc)
            raise _busy("no export worker could start: retry in a second") from None
        self.admitted += 1
        future.add_done_callback(finished)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as exc:  # a worker was killed (out of memory...)
            self._restart(exc)
            raise _busy("an export worker stopped: retry in a second") from None

    def _restart(self, exc: BaseException) -> None:
        """Drop a broken pool of processes: new ones start with the next page."""
        log.warning("export worker processes failed (%s): new ones next time", exc)
        broken, self._processes = self._processes, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def _release(self) -> None:
        self.admitted -= 1


def _busy(message: str) -> HttpError:
    return HttpError(503, ErrorCode.BUSY, message, {"Retry-After": "1"})


class HttpRoutes:
    def __init__(self, gateway: HttpHost) -> None:
        self.gw = gateway
        self.exports = ExportPool()
        self._reader: Any = None
        self._reader_made = False

    async def process_request(self, request: Request) -> Response | None:
        """The response to a plain HTTP request, or None for the websocket upgrade."""
        path, _, query = request.path.partition("?")
        if path == "/ws":
            return None
        try:
            return await self._route(path, query, request.headers)
        except HttpError as exc:
            self.gw.metrics.counters[f"error:{exc.code}"] += 1
            body = f"{exc.code}: {exc.message}\n".encode()
            return self._response(exc.status, body, "text/plain; charset=utf-8", exc.headers)
        except Exception:  # a bug: logged, answered, and the server goes on
            log.exception("HTTP %r failed", request.path[:200])
            self.gw.metrics.counters[f"error:{ErrorCode.INTERNAL}"] += 1
            body = f"{ErrorCode.INTERNAL}: a bug on our side\n".encode()
            return self._response(500, body, "text/plain; charset=utf-8")

    async def _route(self, path: str, query: str, headers: Headers) -> Response:
        if path == "/healthz":
            return self._health()
        if path == "/metrics":
            return self._response(
                200,
                self.gw.metrics.render(self.gw).encode(),
                "text/plain; version=0.0.4; charset=utf-8",
            )
        if path == "/api" or path.startswith("/api/"):
            return await self._api(path, _query(query), headers)
        return await asyncio.to_thread(self._static, path)

    def _health(self) -> Response:
        # O(tables) on the event loop: a flag per table, no store access
        halted = [
            f"degraded: table {name} halted since "
            f"{max(0.0, actor.clock.now() - actor.halted_since):.0f}s: "
            + " ".join(actor.halt_reason.split())
            for name, actor in self.gw.tables.items()
            if actor.halted_since is not None
        ]
        for live in self.gw.tournaments.values():  # a Redis tournament that cannot go on
            health = getattr(live.coordinator, "health", None)
            if callable(health):
                halted += health()
        if halted:
            body = "\n".join(halted) + "\n"
            return self._response(503, body.encode(), "text/plain; charset=utf-8")
        return self._response(200, b"ok\n", "text/plain; charset=utf-8")

    def _response(
        self,
        status: int,
        body: bytes,
        content_type: str,
        extra: Mapping[str, str] | None = None,
    ) -> Response:
        headers = Headers()
        headers["Content-Type"] = content_type
        headers["Content-Length"] = str(len(body))
        headers["Cache-Control"] = "no-store"
        headers["X-Content-Type-Options"] = "nosniff"
        for name, value in (extra or {}).items():
            headers[name] = value
        return Response(status, http.HTTPStatus(status).phrase, headers, body)

    # ------------------------------------------------------------------ hand records

    async def _api(self, path: str, query: dict[str, str], headers: Headers) -> Response:
        parts = path.strip("/").split("/")[1:]
        if parts[:1] == ["tournaments"]:
            return await self._tournament_api(parts[1:])
        if len(parts) == 3 and parts[0] == "tables" and parts[2] == "invite":
            return self._invite(parts[1], _bearer(headers) or query.get("t", ""), headers)
        if len(parts) == 3 and parts[0] == "hands" and parts[2].endswith(".json"):
            return await self._hand(parts[1], parts[2][:-5], query)
        if len(parts) == 3 and parts[0] == "tables" and parts[2] in _EXPORTS:
            return await self._export(parts[1], _EXPORTS[parts[2]], query)
        if len(parts) == 3 and parts[0] == "tables" and parts[2] in ("ledger.csv", "room"):
            return self._ledger(parts[1], query.get("t", ""), parts[2] == "room")
        raise _not_found()

    def _ledger(self, table: str, token: str, room: bool = False) -> Response:
        """A cash table's ledger as CSV (every buy-in, rebuy, cash-out and the rake, then
        each player's totals and net), or its room's tables as JSON (``room``): for the
        people at the table (its invite, a seat token, the host's token). 404 for a table
        without a ledger."""
        claims = self._claims(token)
        if claims.get("t") != table or claims.get("k") not in ("invite", "seat", "host"):
            raise HttpError(403, ErrorCode.BAD_TOKEN, "this token does not open this ledger")
        actor = self.gw.tables.get(table)
        ledger = None if actor is None else actor.ledger()
        archived = archived_ledger(self.gw.store, table) if actor is None and not room else None
        if archived is not None:  # a cash table dropped after its idle hours: its archive
            return self._response(200, archived.csv().encode(), "text/csv; charset=utf-8")
        if actor is None or ledger is None:
            raise HttpError(404, ErrorCode.UNKNOWN_TABLE, "no such cash table")
        if room:
            return self._response(200, json.dumps(room_listing(self.gw, actor)).encode(), _JSON)
        stacks = {s.player: s.stack for s in actor.seats.values()}
        body = ledger.csv(stacks).encode()
        disposition = {"Content-Disposition": f'attachment; filename="{table}-ledger.csv"'}
        return self._response(200, body, "text/csv; charset=utf-8", disposition)

    def _authorize(self, table: str, query: Mapping[str, str]) -> tuple[str | None, str | None]:
        """``(token, player)``: the token (``t``) that opens ``table``'s records (None for a
        public table), and the player id it names, whose own hole cards an export shows (a
        seat token of this table, a player token of its tournament; None for an invite).
        403 ``bad_token`` (or ``token_expired``...) for a token that opens nothing."""
        token = query.get("t", "")
        tournament = table.rsplit("-", 1)[0]
        public = table in self.gw.public_tables or tournament in self.gw.tournaments
        if public and not token:
            # a tournament table is public (spectators watch it): so are its hand records,
            # which open only the cards dealt face up or shown (docs/fairness.md)
            return None, None
        # hand records and exports of a friends table are for people holding its invite
        claims = self._claims(token)
        kind, where = claims.get("k"), claims.get("t")
        if kind == "player" and where == tournament and tournament in self.gw.tournaments:
            return token, str(claims["p"])
        if where != table:
            raise HttpError(403, ErrorCode.BAD_TOKEN, "this token is for another table")
        return token, str(claims["p"]) if kind == "seat" else None

    def _invite(self, table: str, token: str, headers: Headers) -> Response:
        """A friends table's invite, again, for its creator (the ``host`` token of
        ``table_created``) or a player seated there now (his newest seat token): JSON
        ``{"table", "invite", "url"}``. 403 for any other token, 404 ``unknown_table`` for a
        table this process does not run."""
        claims = self._claims(token)
        kind, pid = claims.get("k"), str(claims.get("p"))
        if claims.get("t") != table or kind not in ("host", "seat"):
            raise HttpError(403, ErrorCode.BAD_TOKEN, "this token does not open this invite")
        actor = self.gw.tables.get(table)
        if actor is None or "tournament" in actor.config.extra:
            raise HttpError(404, ErrorCode.UNKNOWN_TABLE, "no such friends table")
        if kind == "seat" and not any(s.player == pid for s in actor.seats.values()):
            raise HttpError(403, ErrorCode.BAD_TOKEN, "you no longer sit at this table")
        base = self.gw.public_url or f"http://{headers.get('Host') or 'localhost'}"
        invite = self.gw.auth.invite(table)
        url = f"{base.rstrip('/')}/?{urlencode({'table': table, 'invite': invite})}"
        body = json.dumps({"table": table, "invite": invite, "url": url})
        return self._response(200, body.encode(), "application/json")

    def _claims(self, token: str) -> dict[str, Any]:
        try:
            return self.gw.auth.verify(token)
        except ProtocolError as exc:
            raise HttpError(403, exc.code, exc.message) from None

    def _source(self, table: str) -> tuple[Any, bool]:
        """Where the records of ``table`` are read, and whether from a worker thread: the
        SQLite store's read-only reader, or Redis (its client is thread-safe); a
        ``":memory:"`` store (tests) is read on the loop, no other connection sees it."""
        records = self.gw.records_of(table)
        if records is not self.gw.store:
            return records, True
        reader = self._store_reader()
        return (records, False) if reader is None else (reader, True)

    def _store_reader(self) -> Any:
        """The SQLite store's reader for worker threads (made once), None if it has none."""
        if not self._reader_made:
            make = getattr(self.gw.store, "reader", None)
            self._reader = make() if make is not None else None
            self._reader_made = True
        return self._reader

    async def _hand(self, table: str, number: str, query: Mapping[str, str]) -> Response:
        self._authorize(table, query)
        hand = _number(number, "the hand number")
        source, threaded = self._source(table)

        def job() -> bytes | None:
            record = source.hand_record(table, hand)
            return None if record is None else json.dumps(record, indent=1).encode()

        body = await asyncio.to_thread(job) if threaded else job()
        if body is None:
            raise _not_found(f"no hand {hand} at this table")
        return self._response(200, body, "application/json")

    async def _export(self, table: str, fmt: ExportFormat, query: Mapping[str, str]) -> Response:
        token, player = self._authorize(table, query)
        start = _number(query.get("from", "0"), "from")
        count = min(_number(query.get("count", str(PAGE_HANDS)), "count"), PAGE_HANDS)
        if count < 1:
            raise HttpError(400, ErrorCode.OUT_OF_RANGE, "count must be 1 or more")
        page = await self._page(table, fmt, start, count, player)
        headers: dict[str, str] = {}
        if page.total is not None:
            headers["X-Total-Count"] = str(page.total)
        if page.next is not None:
            fields: dict[str, str | int] = {"from": page.next, "count": count}
            if token is not None:
                fields["t"] = token
            url = f"/api/tables/{quote(table, safe='')}/hands.{fmt}?{urlencode(fields)}"
            headers["Link"] = f'<{url}>; rel="next"'
        return self._response(200, page.body, _KINDS[fmt], headers)

    async def _page(
        self, table: str, fmt: ExportFormat, start: int, count: int, player: str | None
    ) -> Page:
        """An export page, built in a worker process (the SQLite store: from its file), a
        thread (Redis), or on the loop (a ``":memory:"`` store of the tests); with the hole
        cards of ``player``, exporting his own hands."""
        source, threaded = self._source(table)
        if isinstance(source, RecordReader):
            job = functools.partial(
                file_page, str(source.path), table, fmt, start, count, MAX_BODY, player
            )
            return await self.exports.run(job, process=True)
        build = functools.partial(
            page_of, source, table, fmt, start, count, max_bytes=MAX_BODY, player=player
        )
        if not threaded:
            return build()
        return await self.exports.run(functools.partial(build, pause=_yield_gil), process=False)

    # ------------------------------------------------------------------ tournaments

    async def _tournament_api(self, parts: list[str]) -> Response:
        """Public: the list of tournaments, each one's state, and its results once finished."""
        if not parts:
            body = json.dumps([t.summary() for t in self.gw.tournaments.values()])
            return self._response(200, body.encode(), "application/json")
        tid = parts[0]
        if tid not in self.gw.tournaments:
            raise HttpError(404, ErrorCode.UNKNOWN_TABLE, "no such tournament")
        if len(parts) == 1:
            state = self.gw.tournaments[tid].host.public_state()
            return self._response(200, json.dumps(state).encode(), "application/json")
        if len(parts) == 2 and parts[1] in ("results.csv", "results.json"):
            key = f"tournament:{tid}:{parts[1]}"
            reader = self._store_reader()
            if reader is not None:
                text = await asyncio.to_thread(reader.get_meta, key)
            else:
                text = self.gw.store.get_meta(key)
            if text is None:
                raise _not_found("not finished")
            kind = "text/csv; charset=utf-8" if parts[1].endswith("csv") else "application/json"
            return self._response(200, text.encode(), kind)
        raise _not_found()

    # ------------------------------------------------------------------ the browser client

    def _static(self, path: str) -> Response:
        """A file of ``client_web/`` (run in a worker thread: it reads the disk)."""
        if path in ("", "/"):
            path = "/index.html"
        if not path.startswith("/") or len(path) > MAX_STATIC_PATH:
            raise _not_found()
        try:
            target = (CLIENT_DIR / path.lstrip("/")).resolve()
            if CLIENT_DIR not in target.parents or not target.is_file():
                raise _not_found()
            body = target.read_bytes()
        except (OSError, ValueError):  # a name too long, a NUL byte...
            raise _not_found() from None
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        return self._response(200, body, kind)
