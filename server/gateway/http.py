"""HTTP on the gateway's port: health, metrics, hand records and exports, tournaments'
public state, and the static browser client. Every route is O(tables) or one store read;
none does unbounded work on the event loop."""

from __future__ import annotations

import http
import json
import mimetypes
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from protocol import ProtocolError
from server.store import to_json, to_pokerstars

if TYPE_CHECKING:
    from server.gateway.app import Gateway

__all__ = ["CLIENT_DIR", "HttpRoutes", "Metrics"]

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client_web"


class Metrics:
    def __init__(self) -> None:
        self.counters: Counter[str] = Counter()
        self.started = time.time()

    def render(self, gateway: Gateway) -> str:
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
            f"brasseur_store_failures_total {sum(t.core.store_failures for t in tables)}",
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


class HttpRoutes:
    def __init__(self, gateway: Gateway) -> None:
        self.gw = gateway

    def process_request(self, request: Request) -> Response | None:
        url = urlsplit(request.path)
        path = url.path
        if path == "/ws":
            return None  # the websocket upgrade
        query = parse_qs(url.query)
        if path == "/healthz":
            # O(tables) on the event loop: a flag per table, no store access
            halted = [
                f"degraded: table {name} halted since "
                f"{max(0.0, actor.clock.now() - actor.halted_since):.0f}s: "
                + " ".join(actor.core.halt_reason.split())
                for name, actor in self.gw.tables.items()
                if actor.halted_since is not None
            ]
            if halted:
                body = "\n".join(halted) + "\n"
                return self._response(503, body.encode(), "text/plain; charset=utf-8")
            return self._response(200, b"ok\n", "text/plain; charset=utf-8")
        if path == "/metrics":
            return self._response(
                200,
                self.gw.metrics.render(self.gw).encode(),
                "text/plain; version=0.0.4; charset=utf-8",
            )
        if path.startswith("/api/"):
            return self._api(path, query)
        return self._static(path)

    def _response(self, status: int, body: bytes, content_type: str) -> Response:
        headers = Headers()
        headers["Content-Type"] = content_type
        headers["Content-Length"] = str(len(body))
        headers["Cache-Control"] = "no-store"
        headers["X-Content-Type-Options"] = "nosniff"
        return Response(status, http.HTTPStatus(status).phrase, headers, body)

    def _api(self, path: str, query: dict[str, list[str]]) -> Response:
        parts = path.strip("/").split("/")
        if len(parts) >= 2 and parts[1] == "tournaments":
            return self._tournament_api(parts)
        token = (query.get("t") or [""])[0]
        if len(parts) >= 3 and (
            parts[2] in self.gw.public_tables or parts[2].rsplit("-", 1)[0] in self.gw.tournaments
        ):
            # a tournament table is public (spectators watch it): so are its hand records,
            # which open only the cards dealt face up or shown (docs/fairness.md)
            claims: dict[str, Any] = {"t": parts[2]}
        else:
            try:
                # hand records and exports of a friends table are for people holding its invite
                claims = self.gw.auth.verify(token)
            except ProtocolError as exc:
                return self._response(403, f"{exc.code}: {exc.message}\n".encode(), "text/plain")
        if len(parts) == 4 and parts[1] == "hands" and parts[3].endswith(".json"):
            table, hand = parts[2], parts[3][:-5]
            if claims.get("t") != table or not hand.isdigit():
                return self._response(403, b"not your table\n", "text/plain")
            record = self.gw._records(table).hand_record(table, int(hand))
            if record is None:
                return self._response(404, b"no such hand\n", "text/plain")
            return self._response(200, json.dumps(record, indent=1).encode(), "application/json")
        if len(parts) == 4 and parts[1] == "tables" and parts[3] in ("hands.txt", "hands.json"):
            table = parts[2]
            if claims.get("t") != table:
                return self._response(403, b"not your table\n", "text/plain")
            records = self.gw._records(table).hand_records(table)
            if parts[3] == "hands.txt":
                return self._response(
                    200, to_pokerstars(records).encode(), "text/plain; charset=utf-8"
                )
            return self._response(200, to_json(records).encode(), "application/json")
        return self._response(404, b"not found\n", "text/plain")

    def _tournament_api(self, parts: list[str]) -> Response:
        """Public: the list of tournaments, each one's state, and its results once finished."""
        if len(parts) == 2:
            body = json.dumps([t.summary() for t in self.gw.tournaments.values()])
            return self._response(200, body.encode(), "application/json")
        tid = parts[2]
        if tid not in self.gw.tournaments:
            return self._response(404, b"no such tournament\n", "text/plain")
        if len(parts) == 3:
            state = self.gw.tournaments[tid].host.public_state()
            return self._response(200, json.dumps(state).encode(), "application/json")
        if len(parts) == 4 and parts[3] in ("results.csv", "results.json"):
            text = self.gw.store.get_meta(f"tournament:{tid}:{parts[3]}")
            if text is None:
                return self._response(404, b"not finished\n", "text/plain")
            kind = "text/csv; charset=utf-8" if parts[3].endswith("csv") else "application/json"
            return self._response(200, text.encode(), kind)
        return self._response(404, b"not found\n", "text/plain")

    def _static(self, path: str) -> Response:
        if path in ("", "/"):
            path = "/index.html"
        target = (CLIENT_DIR / path.lstrip("/")).resolve()
        if CLIENT_DIR not in target.parents or not target.is_file():
            return self._response(404, b"not found\n", "text/plain")
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        return self._response(200, target.read_bytes(), kind)
