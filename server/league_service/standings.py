"""A season's standings, public like a tournament's results (a league publishes its
standings: ligue 8.3 « Mettre à jour les résultats ... sur le site Internet de la Ligue»):
``standings.json``, ``standings.csv`` and ``tickets.csv`` of a season, computed at each
request by :func:`server.league.standings.standings` from the results stored in the leagues'
store (a season's results are a few hundred rows). A cash season's standings are its
members' capitals (:mod:`server.league_service.capital`). The gateway serves them over HTTP
(``GET /api/leagues/<league>/seasons/<season>/<file>``); this module decides what they say.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.league.book import LeagueBook
from server.league.errors import LeagueConfigError
from server.league.model import (
    LeagueEvent,
    LeagueRefusal,
    RefusalCode,
    Season,
    event_date,
)
from server.league.results import EventResult
from server.league.satellite import Ticket
from server.league.standings import standings_csv, standings_json
from server.league_service.capital import SeasonCapital
from server.league_service.entries import scored_standings, ticket_json

__all__ = ["FILES", "SeasonFile", "season_file", "season_standings", "tickets_csv"]

FILES = ("standings.json", "standings.csv", "tickets.csv")
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
    shown = {p: names.get(p, p) for p in sorted({r.player_id for r in rows})}
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
        "names": shown,
        "standings": standings_json(rows),
        "tickets": [ticket_json(t) for t in tickets],
    }
    order = [r.event_id for r in sorted(scored, key=lambda r: (r.date, r.event_id))]
    return doc, standings_csv(rows, order, shown)


@dataclass(frozen=True, slots=True)
class SeasonFile:
    """One of a season's public files: its body, its media type and its file name."""

    body: bytes
    media_type: str
    filename: str | None = None


_CSV = "text/csv; charset=utf-8"
_JSON = "application/json"


def season_file(
    store: LeagueBook, capital: SeasonCapital, league: str, season_id: str, name: str
) -> SeasonFile:
    """``name`` (one of :data:`FILES`) of a season of ``league``: ``league.not_found`` for no
    such season or file, ``league.bad_points`` for results the season's points cannot add
    up (more results than the season has events)."""
    season = store.season(season_id)
    if name not in FILES or season is None or season.league != league:
        raise LeagueRefusal(RefusalCode.NOT_FOUND, "no such season in this league")
    start = season.capital()
    if start is not None:
        return _capital(capital, season, start, name.endswith(".csv"))
    tickets = store.season_tickets(season.id)
    if name == "tickets.csv":
        return SeasonFile(tickets_csv(tickets).encode(), _CSV, f"{season.id}-tickets.csv")
    try:
        doc, table = season_standings(
            season,
            store.events(season.id),
            store.results(season.id),
            store.names(season.id),
            tickets,
        )
    except LeagueConfigError as exc:
        raise LeagueRefusal(RefusalCode.BAD_POINTS, str(exc)) from None
    if name.endswith(".csv"):
        return SeasonFile(table.encode(), _CSV, f"{season.id}.csv")
    return SeasonFile(json.dumps(doc, ensure_ascii=False).encode(), _JSON)


def _capital(capital: SeasonCapital, season: Season, start: int, as_csv: bool) -> SeasonFile:
    """A cash season's general standings: the members' capitals."""
    rows = capital.standings(season.id, start)
    if as_csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "member", "name", "capital"])
        for rank, row in enumerate(rows, start=1):
            writer.writerow([rank, row["member"], row["name"], row["capital"]])
        return SeasonFile(out.getvalue().encode(), _CSV, f"{season.id}.csv")
    doc = {
        "league": season.league,
        "season": season.id,
        "name": season.name,
        "points": season.points,
        "capital": start,
        "standings": rows,
    }
    return SeasonFile(json.dumps(doc, ensure_ascii=False).encode(), _JSON)
