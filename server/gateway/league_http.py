"""A season's standings over HTTP (issue 15): ``GET
/api/leagues/<league>/seasons/<season>/standings.json`` and ``standings.csv``.

Public, like a tournament's results (a league publishes its standings: ligue 8.3 "Mettre à
jour les résultats ... sur le site Internet de la Ligue"): no token. Computed at each request
by :func:`server.league.standings.standings` from the results stored in the leagues' file
(a season's results are a few hundred rows: read on the event loop). A cash season's
standings are its members' capitals (server.gateway.league_cash). The other ``/api`` routes
are :class:`~server.gateway.http.HttpRoutes`'.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Response

from protocol import ErrorCode
from server.gateway.http import HttpError, HttpRoutes
from server.gateway.league_cash import capital_standings
from server.gateway.league_entries import scored_standings, ticket_json
from server.league.errors import LeagueConfigError
from server.league.model import LeagueEvent, RefusalCode, Season, capital_start, event_date
from server.league.results import EventResult
from server.league.satellite import Ticket
from server.league.standings import standings_csv, standings_json
from server.league.store import LeagueBook

__all__ = ["LeagueRoutes", "season_standings"]

_FILES = ("standings.json", "standings.csv", "tickets.csv")
_TICKET_FIELDS = ("satellite", "target", "player_id", "name", "place", "seats", "seat_value")


def tickets_csv(tickets: Sequence[Ticket]) -> str:
    """A season's satellites' tickets, one line each (``seats`` and ``cash`` exact: ``1/2``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*_TICKET_FIELDS, "cash", "member", "note"])
    for ticket in tickets:
        row = ticket_json(ticket)
        writer.writerow(
            [*(row[k] for k in _TICKET_FIELDS), row["cash"], row["member"], row["note"]]
        )
    return out.getvalue()


def season_standings(
    season: Season,
    events: list[LeagueEvent],
    results: list[EventResult],
    names: dict[str, str],
    tickets: Sequence[Ticket] = (),
) -> tuple[dict[str, Any], str]:
    """A season's standings as JSON (a map) and CSV (one column per event scored). A result
    the season's points system cannot score (a Sit'n Go of 4, where fpc part C prints 6 to 10
    players) is left out and listed under ``unscored``. ``tickets``: those won at the
    season's satellites, with their shares of a seat (cdc 2.7), listed under ``tickets``."""
    rules = season.rules()
    rows, unscored = scored_standings(season, results)
    scored = [r for r in results if r.event_id not in unscored]
    doc = {
        "league": season.league,
        "season": season.id,
        "name": season.name,
        "points": season.points,
        "best_of": rules.best_of,
        "events": [
            {
                "id": e.id,
                "name": e.name,
                "kind": e.kind.value,
                "date": event_date(e).isoformat(),
                "status": e.status.value,
            }
            for e in events
        ],
        "unscored": unscored,
        "names": {p: names.get(p, p) for p in sorted({r.player_id for r in rows})},
        "standings": standings_json(rows),
        "tickets": [ticket_json(t) for t in tickets],
    }
    order = [r.event_id for r in sorted(scored, key=lambda r: (r.date, r.event_id))]
    return doc, standings_csv(rows, order)


class LeagueRoutes(HttpRoutes):
    """The gateway's HTTP routes with the leagues' standings."""

    async def _api(self, path: str, query: dict[str, str], headers: Headers) -> Response:
        parts = path.strip("/").split("/")[1:]
        if parts[:1] == ["leagues"]:
            return self._standings(parts[1:])
        return await super()._api(path, query, headers)

    def _standings(self, parts: list[str]) -> Response:
        if len(parts) != 4 or parts[1] != "seasons" or parts[3] not in _FILES:
            raise HttpError(404, ErrorCode.NOT_FOUND, "not found")
        store: LeagueBook = self.gw.leagues.store
        season = store.season(parts[2])
        if season is None or season.league != parts[0]:
            raise HttpError(404, ErrorCode.NOT_FOUND, "no such season in this league")
        start = capital_start(season.points)
        if start is not None:
            return self._capital(season, start, parts[3].endswith(".csv"))
        tickets = store.season_tickets(season.id)
        if parts[3] == "tickets.csv":
            disposition = {"Content-Disposition": f'attachment; filename="{season.id}-tickets.csv"'}
            body = tickets_csv(tickets).encode()
            return self._response(200, body, "text/csv; charset=utf-8", disposition)
        try:
            doc, csv = season_standings(
                season,
                store.events(season.id),
                store.results(season.id),
                store.names(season.id),
                tickets,
            )
        except LeagueConfigError as exc:  # more results than the season's events
            raise HttpError(409, RefusalCode.BAD_POINTS.value, str(exc)) from None
        if parts[3].endswith(".csv"):
            disposition = {"Content-Disposition": f'attachment; filename="{season.id}.csv"'}
            return self._response(200, csv.encode(), "text/csv; charset=utf-8", disposition)
        body = json.dumps(doc, ensure_ascii=False).encode()
        return self._response(200, body, "application/json")

    def _capital(self, season: Season, start: int, as_csv: bool) -> Response:
        """A cash season's general standings: the members' capitals (server.gateway.league_cash)."""
        rows = capital_standings(self.gw, season.id, start)
        if as_csv:
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(["rank", "member", "name", "capital"])
            for rank, row in enumerate(rows, start=1):
                writer.writerow([rank, row["member"], row["name"], row["capital"]])
            disposition = {"Content-Disposition": f'attachment; filename="{season.id}.csv"'}
            return self._response(
                200, out.getvalue().encode(), "text/csv; charset=utf-8", disposition
            )
        doc = {
            "league": season.league,
            "season": season.id,
            "name": season.name,
            "points": season.points,
            "capital": start,
            "standings": rows,
        }
        return self._response(200, json.dumps(doc, ensure_ascii=False).encode(), "application/json")
