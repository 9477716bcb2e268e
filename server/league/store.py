"""Leagues, their members' roles, seasons, events and results, in their own SQLite file
(``leagues.sqlite`` in the data directory, mode 0600; ``":memory:"`` in tests), or in Redis
for a deployment of several processes (server.league.redis_store): :class:`LeagueBook` is
what both offer the gateway.

The one module of server/league/ that does I/O: the rest is pure. Not thread-safe, like the
members' store: used from the asyncio thread only. Every write is one transaction: a write
that fails (a full disk, a read-only file) raises :class:`LeagueStoreError` and changes
nothing. An event's result is stored once: ligue 8.1 "Noter le rang d'élimination de chaque
joueur par un moyen technique fiable" and 8.2 "Conserver les données des résultats"; storing
it again (a restart that finds the tournament's results once more) is a no-op, and so are
a satellite's tickets, written with its result.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import sqlite3
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from server.engine.setup import Game, Structure

from .book import LeagueBook, LeagueStoreError, StateChange
from .model import EventStatus, League, LeagueEvent, Role, Season, league_of
from .results import Entry, EventKind, EventResult
from .satellite import Ticket
from .transaction import transaction

__all__ = ["LeagueBook", "LeagueStore", "LeagueStoreError"]

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS leagues (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        owner TEXT NOT NULL,
        invite TEXT NOT NULL UNIQUE,
        created REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS roles (
        league TEXT NOT NULL REFERENCES leagues(id),
        member TEXT NOT NULL,
        role TEXT NOT NULL,
        PRIMARY KEY (league, member)
    )""",
    """CREATE TABLE IF NOT EXISTS removed (
        league TEXT NOT NULL REFERENCES leagues(id),
        member TEXT NOT NULL,
        PRIMARY KEY (league, member)
    )""",
    """CREATE TABLE IF NOT EXISTS seasons (
        id TEXT PRIMARY KEY,
        league TEXT NOT NULL REFERENCES leagues(id),
        name TEXT NOT NULL,
        points TEXT NOT NULL,
        best_of INTEGER,
        created REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        id TEXT PRIMARY KEY,
        league TEXT NOT NULL REFERENCES leagues(id),
        season TEXT NOT NULL REFERENCES seasons(id),
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        structure TEXT NOT NULL,
        starts_at INTEGER NOT NULL,
        requires_account INTEGER NOT NULL,
        tournament TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        satellite_of TEXT,
        final_table_size INTEGER,
        note TEXT NOT NULL,
        seats TEXT,
        qualified_top INTEGER,
        qualified_season TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS results (
        event TEXT PRIMARY KEY REFERENCES events(id),
        date TEXT NOT NULL,
        kind TEXT NOT NULL,
        final_table_size INTEGER,
        sheet_error INTEGER NOT NULL,
        entries TEXT NOT NULL,
        names TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS eliminations (
        event TEXT NOT NULL,
        player TEXT NOT NULL,
        entry INTEGER NOT NULL,
        eliminated_by TEXT NOT NULL,
        PRIMARY KEY (event, player, entry)
    )""",
    """CREATE TABLE IF NOT EXISTS tickets (
        satellite TEXT NOT NULL REFERENCES events(id),
        target TEXT NOT NULL REFERENCES events(id),
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        place INTEGER NOT NULL,
        seats TEXT NOT NULL,
        seat_value INTEGER,
        cash TEXT NOT NULL,
        member INTEGER NOT NULL,
        note TEXT NOT NULL,
        PRIMARY KEY (satellite, player)
    )""",
    "CREATE INDEX IF NOT EXISTS tickets_target ON tickets (target)",
    """CREATE TABLE IF NOT EXISTS event_states (
        event TEXT PRIMARY KEY REFERENCES events(id),
        state TEXT NOT NULL
    )""",
)

_ADDED_COLUMNS = (
    ("leagues", "approval", "INTEGER NOT NULL DEFAULT 0"),
    ("events", "seats", "TEXT"),
    ("events", "qualified_top", "INTEGER"),
    ("events", "qualified_season", "TEXT"),
    ("seasons", "game", "TEXT NOT NULL DEFAULT 'holdem'"),
    ("seasons", "structure", "TEXT NOT NULL DEFAULT 'no_limit'"),
)
"""Columns added since a leagues' file was first written: added to an older file on open."""

_EVENT_COLUMNS = (
    "id, league, season, name, kind, structure, starts_at, requires_account, tournament, "
    "status, satellite_of, final_table_size, note, seats, qualified_top, qualified_season"
)
_LEAGUE_COLUMNS = "id, name, owner, invite, created, approval"
_SEASON_COLUMNS = "id, league, name, points, best_of, created, game, structure"
"""A season's columns; ``game`` and ``structure`` were added for five-card draw (issue 31),
'holdem' and 'no_limit' in a file written before."""
_TICKET_COLUMNS = "satellite, target, player, name, place, seats, seat_value, cash, member, note"


def _event(row: tuple[Any, ...]) -> LeagueEvent:
    (
        eid,
        league,
        season,
        name,
        kind,
        structure,
        starts,
        account,
        tid,
        status,
        target,
        final,
        note,
        seats,
        top,
        qualified_season,
    ) = row
    return LeagueEvent(
        id=eid,
        league=league,
        season=season,
        name=name,
        kind=EventKind(kind),
        structure=structure,
        starts_at=int(starts),
        requires_account=bool(account),
        tournament=tid,
        status=EventStatus(status),
        satellite_of=target,
        final_table_size=None if final is None else int(final),
        note=note,
        seats=seats,
        qualified_top=None if top is None else int(top),
        qualified_season=qualified_season,
    )


def _ticket(row: tuple[Any, ...]) -> Ticket:
    satellite, target, player, name, place, seats, value, cash, member, note = row
    return Ticket(
        satellite=satellite,
        target=target,
        player_id=player,
        name=name,
        place=int(place),
        seats=Fraction(seats),
        seat_value=None if value is None else int(value),
        cash=Fraction(cash),
        member=bool(member),
        note=note,
    )


def _entries_json(result: EventResult) -> str:
    return json.dumps(
        [
            {
                "player_id": e.player_id,
                "place": e.place,
                "entry": e.entry,
                "eliminated_by": list(e.eliminated_by),
            }
            for e in result.entries
        ]
    )


def _result(row: tuple[Any, ...]) -> EventResult:
    event, date, kind, final, sheet_error, entries = row[:6]
    return EventResult(
        event_id=event,
        date=datetime.date.fromisoformat(date),
        kind=EventKind(kind),
        entries=tuple(
            Entry(
                player_id=e["player_id"],
                place=int(e["place"]),
                entry=int(e["entry"]),
                eliminated_by=tuple(e["eliminated_by"]),
            )
            for e in json.loads(entries)
        ),
        final_table_size=None if final is None else int(final),
        sheet_error=bool(sheet_error),
    )


class LeagueStore:
    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        for statement in _SCHEMA:
            self._db.execute(statement)
        for table, column, kind in _ADDED_COLUMNS:
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def close(self) -> None:
        self._db.close()

    def _write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One transaction: everything in it is written, or nothing (and it raises)."""
        return transaction(self._db, LeagueStoreError, "leagues")

    # ------------------------------------------------------------------ leagues and roles

    def add_league(self, league: League) -> None:
        """A new league and its owner's role."""
        with self._write() as db:
            db.execute(
                "INSERT INTO leagues (id, name, owner, invite, created, approval) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    league.id,
                    league.name,
                    league.owner,
                    league.invite,
                    league.created,
                    int(league.approval),
                ),
            )
            db.execute(
                "INSERT INTO roles VALUES (?, ?, ?)", (league.id, league.owner, Role.OWNER.value)
            )

    def set_role(self, league: str, member: str, role: Role) -> None:
        """Make ``member`` a member (or director, or pending) of ``league``, no longer removed;
        the owner stays the owner."""
        with self._write() as db:
            db.execute(
                "INSERT INTO roles VALUES (?, ?, ?) ON CONFLICT (league, member) "
                "DO UPDATE SET role = excluded.role WHERE roles.role != 'owner'",
                (league, member, role.value),
            )
            db.execute("DELETE FROM removed WHERE league = ? AND member = ?", (league, member))

    def remove_role(self, league: str, member: str) -> None:
        """``member`` is no longer of ``league`` (a request refused, a member removed, a
        member who left) and the league remembers him as removed; the owner stays."""
        with self._write() as db:
            cursor = db.execute(
                "DELETE FROM roles WHERE league = ? AND member = ? AND role != 'owner'",
                (league, member),
            )
            if cursor.rowcount:
                db.execute("INSERT OR IGNORE INTO removed VALUES (?, ?)", (league, member))

    def set_approval(self, league: str, approval: bool) -> None:
        """Whether whoever joins with the invite waits for approval from now on."""
        with self._write() as db:
            db.execute("UPDATE leagues SET approval = ? WHERE id = ?", (int(approval), league))

    def leagues_of(self, member: str) -> list[League]:
        """The leagues ``member`` belongs to (any role), by creation."""
        rows = self._db.execute(
            "SELECT id FROM leagues JOIN roles ON roles.league = leagues.id "
            "WHERE roles.member = ? ORDER BY leagues.created, leagues.id",
            (member,),
        ).fetchall()
        found = [self.league(str(r[0])) for r in rows]
        return [x for x in found if x is not None]

    def league(self, league_id: str) -> League | None:
        row = self._db.execute(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,)
        ).fetchone()
        return None if row is None else self._league(row)

    def league_by_invite(self, invite: str) -> League | None:
        row = self._db.execute(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE invite = ?", (invite,)
        ).fetchone()
        return None if row is None else self._league(row)

    def _league(self, row: tuple[Any, ...]) -> League:
        lid, name, owner, invite, created, approval = row
        roles = self._db.execute("SELECT member, role FROM roles WHERE league = ?", (lid,))
        gone = self._db.execute("SELECT member FROM removed WHERE league = ?", (lid,))
        return league_of(
            lid,
            name,
            owner,
            invite,
            float(created),
            bool(approval),
            roles.fetchall(),
            (str(m) for (m,) in gone),
        )

    # ------------------------------------------------------------------ seasons

    def add_season(self, season: Season) -> None:
        with self._write() as db:
            db.execute(
                f"INSERT INTO seasons ({_SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    season.id,
                    season.league,
                    season.name,
                    season.points,
                    season.best_of,
                    season.created,
                    season.game.value,
                    season.structure.value,
                ),
            )

    def season(self, season_id: str) -> Season | None:
        row = self._db.execute(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE id = ?",
            (season_id,),
        ).fetchone()
        return None if row is None else self._season(row)

    def seasons(self, league: str) -> list[Season]:
        rows = self._db.execute(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league = ? ORDER BY created, id",
            (league,),
        )
        return [self._season(row) for row in rows]

    @staticmethod
    def _season(row: tuple[Any, ...]) -> Season:
        sid, league, name, points, best_of, created, game, structure = row
        return Season(
            id=sid,
            league=league,
            name=name,
            points=points,
            best_of=None if best_of is None else int(best_of),
            created=float(created),
            game=Game(game),
            structure=Structure(structure),
        )

    # ------------------------------------------------------------------ events

    def add_event(self, event: LeagueEvent) -> None:
        with self._write() as db:
            db.execute(
                f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event.id,
                    event.league,
                    event.season,
                    event.name,
                    event.kind.value,
                    event.structure,
                    event.starts_at,
                    int(event.requires_account),
                    event.tournament,
                    event.status.value,
                    event.satellite_of,
                    event.final_table_size,
                    event.note,
                    event.seats,
                    event.qualified_top,
                    event.qualified_season,
                ),
            )

    def update_event(self, event: LeagueEvent) -> None:
        """Save an event's status and note (what changes in its lifecycle)."""
        with self._write() as db:
            self._set_status(db, event)

    @staticmethod
    def _set_status(db: sqlite3.Connection, event: LeagueEvent) -> None:
        db.execute(
            "UPDATE events SET status = ?, note = ? WHERE id = ?",
            (event.status.value, event.note, event.id),
        )

    def event(self, event_id: str) -> LeagueEvent | None:
        return self._one_event("id", event_id)

    def event_of_tournament(self, tournament: str) -> LeagueEvent | None:
        return self._one_event("tournament", tournament)

    def _one_event(self, column: str, value: str) -> LeagueEvent | None:
        row = self._db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE {column} = ?", (value,)
        ).fetchone()
        return None if row is None else _event(row)

    def events(self, season: str) -> list[LeagueEvent]:
        """A season's events, by starting time."""
        rows = self._db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE season = ? ORDER BY starts_at, id",
            (season,),
        )
        return [_event(row) for row in rows]

    def events_in(self, statuses: Iterable[EventStatus]) -> list[LeagueEvent]:
        """Every event (of every league) in one of ``statuses``, by starting time."""
        wanted = [s.value for s in statuses]
        marks = ", ".join("?" for _ in wanted)
        rows = self._db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE status IN ({marks}) ORDER BY starts_at, id",
            wanted,
        )
        return [_event(row) for row in rows]

    # ------------------------------------------------------------------ results

    def add_elimination(self, event: str, player: str, entry: int, by: tuple[str, ...]) -> None:
        """Who eliminated an entry, kept as the tournament goes (the leader bounty needs it);
        the first report of an entry stands."""
        with self._write() as db:
            db.execute(
                "INSERT OR IGNORE INTO eliminations VALUES (?, ?, ?, ?)",
                (event, player, entry, json.dumps(list(by))),
            )

    def eliminations(self, event: str) -> dict[tuple[str, int], tuple[str, ...]]:
        rows = self._db.execute(
            "SELECT player, entry, eliminated_by FROM eliminations WHERE event = ?", (event,)
        )
        return {(p, int(n)): tuple(json.loads(by)) for p, n, by in rows}

    def finish(
        self,
        event: LeagueEvent,
        result: EventResult,
        names: dict[str, str],
        tickets: Iterable[Ticket] = (),
    ) -> bool:
        """Store ``result``, the event as it is now (``finished``) and a satellite's
        ``tickets``, together: a crash leaves all of them or none. False (and nothing
        written) when the event's result is stored already: tickets are issued once."""
        with self._write() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    event.id,
                    result.date.isoformat(),
                    result.kind.value,
                    result.final_table_size,
                    int(result.sheet_error),
                    _entries_json(result),
                    json.dumps(names, sort_keys=True),
                ),
            )
            if cursor.rowcount == 0:
                return False
            self._set_status(db, event)
            db.execute("DELETE FROM eliminations WHERE event = ?", (event.id,))
            db.executemany(
                f"INSERT INTO tickets ({_TICKET_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        t.satellite,
                        t.target,
                        t.player_id,
                        t.name,
                        t.place,
                        str(t.seats),
                        t.seat_value,
                        str(t.cash),
                        int(t.member),
                        t.note,
                    )
                    for t in tickets
                ],
            )
        return True

    # ------------------------------------------------------------------ tickets

    def tickets_into(self, target: str) -> list[Ticket]:
        """The tickets into an event, best place first (by satellite)."""
        rows = self._db.execute(
            f"SELECT {_TICKET_COLUMNS} FROM tickets WHERE target = ? "
            "ORDER BY satellite, place, player",
            (target,),
        )
        return [_ticket(row) for row in rows]

    def season_tickets(self, season: str) -> list[Ticket]:
        """The tickets won at a season's satellites."""
        rows = self._db.execute(
            f"SELECT {', '.join('t.' + c for c in _TICKET_COLUMNS.split(', '))} "
            "FROM tickets t JOIN events e ON e.id = t.satellite WHERE e.season = ? "
            "ORDER BY e.starts_at, t.satellite, t.place, t.player",
            (season,),
        )
        return [_ticket(row) for row in rows]

    def event_state(self, event: str) -> dict[str, Any] | None:
        """The running state of an event the league itself plays (a heads-up cup: its
        registrations, bracket, games in play; a night of Sit'n Gos: its registrations and
        tables); None before anything is kept."""
        row = self._db.execute(
            "SELECT state FROM event_states WHERE event = ?", (event,)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def save_event_state(self, event: str, state: dict[str, Any]) -> None:
        """That state, whole, in one write (after each change)."""
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO event_states VALUES (?, ?)", (event, json.dumps(state))
            )

    def change_event_state(self, event: str, change: StateChange) -> dict[str, Any] | None:
        """Read, change and write the event's state in one transaction (:data:`StateChange`);
        the state as stored after it."""
        with self._write() as db:
            row = db.execute("SELECT state FROM event_states WHERE event = ?", (event,)).fetchone()
            new = change(None if row is None else dict(json.loads(row[0])))
            if new is None:
                return None if row is None else dict(json.loads(row[0]))
            db.execute(
                "INSERT OR REPLACE INTO event_states VALUES (?, ?)", (event, json.dumps(new))
            )
            return new

    def note_ticket(self, target: str, player: str, note: str) -> None:
        """Say why ``player``'s tickets into ``target`` have (not) entered him."""
        with self._write() as db:
            db.execute(
                "UPDATE tickets SET note = ? WHERE target = ? AND player = ?",
                (note, target, player),
            )

    def result(self, event: str) -> EventResult | None:
        row = self._db.execute(
            "SELECT event, date, kind, final_table_size, sheet_error, entries FROM results "
            "WHERE event = ?",
            (event,),
        ).fetchone()
        return None if row is None else _result(row)

    def results(self, season: str) -> list[EventResult]:
        """The stored results of a season's events."""
        rows = self._db.execute(
            "SELECT r.event, r.date, r.kind, r.final_table_size, r.sheet_error, r.entries "
            "FROM results r JOIN events e ON e.id = r.event WHERE e.season = ? "
            "ORDER BY r.date, r.event",
            (season,),
        )
        return [_result(row) for row in rows]

    def names(self, season: str) -> dict[str, str]:
        """The names players had in a season's events (the latest event's name wins)."""
        rows = self._db.execute(
            "SELECT r.names FROM results r JOIN events e ON e.id = r.event "
            "WHERE e.season = ? ORDER BY r.date, r.event",
            (season,),
        )
        out: dict[str, str] = {}
        for (text,) in rows:
            out.update(json.loads(text))
        return out
