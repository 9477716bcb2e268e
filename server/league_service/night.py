"""A night of Sit'n Gos (fpc part C, « LE SIT'N GO »): one registration for the night, the
tables composed at the start, each table a Sit'n Go of its own (issue 15).

« L'attribution des places (table et siège) s'effectue par le logiciel de gestion Tournament
Director, sauf le premier mercredi du mois à partir de janvier où les tables sont composées
en fonction du classement général. » « Tous les Sit'n Go commencent en même temps. » « Les
parties se jouent de 6 joueurs (minimum) à 10 joueurs (maximum). »

- A director schedules ``league_event_create`` with ``night``: a ``sit_and_go`` event that has
  no tournament of its own. Members ``register`` with its ``tournament`` id (answered
  ``registered``, no token: no table yet).
- At its time the registered are split over tables of the structure's size
  (:func:`~server.league.seating.night_tables`: by the season's standings on the first
  Wednesday from January, at random otherwise); each table is an event of the season
  (``<night> — table N``) with its own tournament, which the night enters its players in
  and starts; the tables' results are the season's results. A member takes his seat with
  ``register`` for his table's tournament (the view's ``night.mine``), answered with his seat
  token. The tables are recorded (events and who sits where) before any tournament is made.
- The night is ``finished`` once every table is (it has no result of its own).
- After a restart, a table whose tournament had not started is entered and started again; a
  started one is cancelled as any interrupted in-memory tournament (docs/tournaments.md).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from collections.abc import Callable
from typing import Any

from protocol import messages as m
from server.league.errors import SeatingError
from server.league.membership import EntryPath, admitted
from server.league.model import (
    EventStatus,
    EventStep,
    LeagueEvent,
    LeagueRefusal,
    RefusalCode,
    Season,
    advance,
    event_date,
)
from server.league.results import EventKind
from server.league.seating import night_tables
from server.league.store import LeagueBook, LeagueStoreError
from server.league_service.entries import MEMBER_PREFIX, enter_member, scored_standings
from server.league_service.ports import Entrant, Tournaments
from server.tournament.live import LiveTournament, load_tournament

__all__ = ["HARD_STOPS", "NightRunner", "hard_stop_of", "hard_stop_text"]

log = logging.getLogger("brasseur.leagues")


HARD_STOPS = {"fpc_sit_and_go": "23:45"}
"""Structures stopped at a time of day unless the event says otherwise (fpc part C: « Si les
Sit'n Go ne sont pas terminés à 23h45, le classement sera défini par le montant des stacks
des joueurs encore en jeu »)."""


def hard_stop_of(msg: m.LeagueEventCreate) -> tuple[str, str]:
    """The event's hard stop and its zone (the structure's default when not said)."""
    stop = msg.hard_stop if msg.hard_stop is not None else HARD_STOPS.get(msg.structure, "")
    return stop, msg.hard_stop_zone or "Europe/Paris"


def hard_stop_text(text: str, stop: str, zone: str) -> str:
    """``text`` with ``[server] hard_stop = stop`` in ``zone`` (unchanged for no stop)."""
    if not stop:
        return text
    out = f"{text.rstrip()}\n\n[server]\nhard_stop = {json.dumps(stop)}\n"
    out += f"hard_stop_zone = {json.dumps(zone)}\n"
    try:
        load_tournament(out)
    except Exception as exc:  # a time or zone that is none, a structure with its own [server]
        raise LeagueRefusal(RefusalCode.BAD_EVENT, f"hard stop: {exc}"[:300]) from None
    return out


class NightRunner:
    """The league's nights of Sit'n Gos (see the module docstring)."""

    def __init__(
        self,
        tournaments: Tournaments,
        store: LeagueBook,
        structure_text: Callable[[str, str], str],
        watch: Callable[[LeagueEvent, LiveTournament], None],
        rng: random.Random | None = None,
    ) -> None:
        self.t = tournaments
        self.store = store
        self.structure_text = structure_text
        """The TOML of a shipped structure, named: (structure, name) -> text."""
        self.watch = watch
        self.rng = rng or random.SystemRandom()

    # ------------------------------------------------------------------ reading

    def night_of(self, event: LeagueEvent) -> dict[str, Any] | None:
        state = self.store.event_state(event.id)
        return state if state is not None and state.get("night") else None

    def is_table(self, event: LeagueEvent) -> bool:
        state = self.store.event_state(event.id)
        return state is not None and "table_of" in state

    def text(self, event: LeagueEvent, name: str) -> str:
        """The TOML of a table of a night (or of the night itself: the same), named ``name``:
        its structure with the night's hard stop."""
        state = self.store.event_state(event.id) or {}
        if "table_of" in state:
            state = self.store.event_state(str(state["table_of"])) or {}
        parent = state
        text = self.structure_text(event.structure, name)
        return hard_stop_text(text, str(parent.get("hard_stop", "")), str(parent.get("zone", "")))

    def seated(self, event: LeagueEvent, member: str) -> bool:
        """``member`` was given a seat at ``event``, a table of a night."""
        state = self.store.event_state(event.id)
        return state is not None and member in state.get("players", ())

    # ------------------------------------------------------------------ registration

    def schedule(
        self, season: Season, msg: m.LeagueEventCreate, event_id: str, name: str
    ) -> LeagueEvent:
        """Record a night (its hard stop checked on its structure), registration open."""
        if msg.kind != EventKind.SIT_AND_GO.value:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "a night is of Sit'n Gos")
        if msg.satellite_of or msg.qualified_top or msg.qualified_season or msg.reentries:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "a night has no seats nor qualification")
        stop, zone = hard_stop_of(msg)
        text = hard_stop_text(self.structure_text(msg.structure, name), stop, zone)
        config, _ = load_tournament(text)
        event = LeagueEvent(
            id=event_id,
            league=season.league,
            season=season.id,
            name=name,
            kind=EventKind.SIT_AND_GO,
            structure=msg.structure,
            starts_at=msg.starts_at,
            requires_account=True,
            tournament=f"league_{event_id}",
            final_table_size=config.final_table_size,
        )
        self.store.add_event(event)
        state = {"night": True, "registered": {}, "hard_stop": stop, "zone": zone}
        self.store.save_event_state(event.id, state)
        event = advance(event, EventStep.OPEN)
        self.store.update_event(event)
        return event

    def register(self, conn: Entrant, msg: m.Register) -> bool:
        """A ``register`` for a night (its registration); False for any other tournament."""
        event = self.store.event_of_tournament(msg.tournament)
        state = None if event is None else self.night_of(event)
        if event is None or state is None:
            return False
        enter_member(self.store, event, conn, msg, EntryPath.NIGHT)
        return True

    # ------------------------------------------------------------------ the night

    def start(self, event: LeagueEvent) -> bool:
        """The night's time: its tables composed and recorded (in the night's state first,
        then as events: a crash in between finds them again), then made and started (True);
        or it stays registering with a note (too few to fill a table)."""
        config, _ = load_tournament(self.text(event, event.name))  # the tables' sizes
        league = self.store.league(event.league)

        def compose(state: dict[str, Any] | None) -> dict[str, Any] | None:
            # once, whichever process is first; on the registrations as stored then, less a
            # member removed (or who left) since he registered (issue 26)
            if state is not None and "tables" in state:
                return None
            registered = (state or {}).get("registered", {})
            members = sorted(admitted(registered, league, EntryPath.NIGHT))
            tables = self._compose(event, members, config.table_size, config.min_players)
            assert state is not None  # _compose raises for nobody registered
            state["tables"] = [f"{event.id}t{k}" for k in range(1, len(tables) + 1)]
            state["seats"] = [list(t) for t in tables]
            return state

        try:
            state = self.store.change_event_state(event.id, compose)
        except SeatingError as exc:
            have = len((self.night_of(event) or {"registered": {}})["registered"])
            note = f"not started at its time: {have} registered ({exc})"
            self.store.update_event(dataclasses.replace(event, note=note))
            return False
        assert state is not None  # composed, by this process or another
        names: dict[str, str] = state["registered"]
        children = []
        for k, (table, players) in enumerate(zip(state["tables"], state["seats"], strict=True)):
            child = self.store.event(table)
            if child is None:
                child = LeagueEvent(
                    id=table,
                    league=event.league,
                    season=event.season,
                    name=f"{event.name} — table {k + 1}"[:64],
                    kind=event.kind,
                    structure=event.structure,
                    starts_at=event.starts_at,
                    requires_account=True,
                    tournament=f"{event.tournament}t{k + 1}",
                    final_table_size=config.final_table_size,
                )
                child = self._add(child)
            if self.store.event_state(table) is None:
                self.store.save_event_state(table, {"table_of": event.id, "players": players})
            children.append(child)
        self.store.update_event(advance(event, EventStep.START))
        for child in children:
            self._open(child, names)
        return True

    def _add(self, child: LeagueEvent) -> LeagueEvent:
        """A table's event recorded, or the one another process recorded first (Redis)."""
        try:
            self.store.add_event(child)
        except LeagueStoreError:
            found = self.store.event(child.id)
            if found is None:
                raise
            return found
        return child

    def _compose(
        self, event: LeagueEvent, members: list[str], most: int, least: int
    ) -> tuple[tuple[str, ...], ...]:
        """The night's tables (server.league.seating.night_tables), by this season's
        standings as they are now; SeatingError for nobody or too few."""
        if not members:
            raise SeatingError("nobody registered")
        season = self.store.season(event.season)
        rows = () if season is None else scored_standings(season, self.store.results(season.id))[0]
        day = event_date(event)
        return night_tables(day, members, rows, self.rng, max_per_table=most, min_per_table=least)

    def _open(self, child: LeagueEvent, names: dict[str, str]) -> None:
        """Make a table's tournament (or take the one a restart brought back, empty), enter
        its players and start it."""
        live = self.t.running(child.tournament)
        if live is None:
            live = self.t.add_tournament(child.tournament, self.text(child, child.name))
        state = self.store.event_state(child.id) or {}
        if child.status is EventStatus.SCHEDULED:
            child = advance(child, EventStep.OPEN)
            self.store.update_event(child)
        self.watch(child, live)
        assert live.coordinator is not None
        for member in state.get("players", ()):
            player = {"player": f"{MEMBER_PREFIX}{member}", "name": names.get(member, member)}
            live.coordinator.submit("register", player)
        live.coordinator.submit("start", {})  # « Tous les Sit'n Go commencent en même temps »

    def table_done(self, child: LeagueEvent) -> None:
        """A table finished (or was cancelled): the night is finished once every one is."""
        state = self.store.event_state(child.id) or {}
        parent = self.store.event(str(state.get("table_of", "")))
        night = None if parent is None else self.night_of(parent)
        if parent is None or night is None or parent.status is not EventStatus.RUNNING:
            return
        tables = [self.store.event(t) for t in night.get("tables", ())]
        over = (EventStatus.FINISHED, EventStatus.CANCELLED)
        if all(t is not None and t.status in over for t in tables):
            self.store.update_event(advance(parent, EventStep.FINISH, "every table is over"))
            log.info("league night %s: every table is over", parent.id)

    def restore(self, event: LeagueEvent) -> None:
        """A running night after a restart: its tables not started yet are entered and
        started again (the others restore as any event)."""
        night = self.night_of(event)
        if night is None:
            return
        for table in night.get("tables", ()):
            child = self.store.event(table)
            if child is not None and child.status in (
                EventStatus.SCHEDULED,
                EventStatus.REGISTERING,
            ):
                self._open(child, night["registered"])

    def view(self, event: LeagueEvent, member: str) -> dict[str, Any]:
        """What the league's page shows of a night: how many registered, its tables (their
        events and tournaments, their players' names) and the member's own table."""
        night = self.night_of(event) or {"registered": {}}
        names: dict[str, str] = night["registered"]
        out: dict[str, Any] = {"registered": len(names), "tables": []}
        for table in night.get("tables", ()):
            child = self.store.event(table)
            players = (self.store.event_state(table) or {}).get("players", [])
            if child is None:
                continue
            out["tables"].append(
                {
                    "event": child.id,
                    "name": child.name,
                    "tournament": child.tournament,
                    "players": [names.get(p, p) for p in players],
                }
            )
            if member in players:
                out["mine"] = child.tournament
        return out
