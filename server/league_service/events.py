"""League events on the server: their tournaments created, started on time, and their results
stored (issue 15). The desk (server/league_service/desk.py) asks; this module runs.

- **Scheduling**: an event's tournament is created with the gateway's ``add_tournament`` at
  once, registration open; an asyncio timer starts it at ``starts_at`` (wall-clock unix
  seconds, whatever ``--clock-speed``) through the path of the director's console ``start``
  (the coordinator's ``start`` report), if enough players registered; otherwise the event
  stays ``registering`` and its note says so (the league's directors hold the console token:
  they may start it by hand). Timers are armed again at startup from the store.
- **Results**: an observer of the tournament's decisions keeps who eliminated whom (the fpc
  leader bounty needs it) and, at ``Finished``, stores the places as the event's
  :class:`~server.league.results.EventResult` (the event ``finished``). At startup and every
  :data:`SWEEP_SECONDS` the tournaments' stored results (``results.json``) are read for the
  events still running: a result missed (a failed write, another process) is stored then,
  and never twice (:meth:`~server.league.store.LeagueBook.finish`).

- **Satellites**: a satellite's result comes with its winners' tickets, and the winners are
  registered in the target (server/league_service/entries.py).

Player ids: a member's entry is ``m.<member id>`` in the tournament (conn.pid's form) and
``<member id>`` in the league's results, so that results follow the person; a guest's entry
keeps the tournament's random id.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import functools
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.league.errors import ResultError
from server.league.model import (
    PENDING_STATUSES,
    EventStatus,
    EventStep,
    LeagueEvent,
    LeagueRefusal,
    RefusalCode,
    Season,
    advance,
    check_bounds,
    check_name,
    event_date,
)
from server.league.results import Entry, EventKind, EventResult
from server.league.satellite import DEFAULT_SEATS
from server.league.store import LeagueBook
from server.league_service.cup import CUP_STRUCTURE, CupRunner
from server.league_service.entries import MEMBER_PREFIX, Entries, league_player
from server.league_service.night import NightRunner, hard_stop_of, hard_stop_text
from server.league_service.ports import Tournaments
from server.table.actor import Client
from server.tournament.decisions import (
    Eliminated,
    Finished,
    Refused,
    Registered,
    TableAssignment,
)
from server.tournament.live import LiveTournament, load_tournament

__all__ = [
    "MEMBER_PREFIX",
    "STRUCTURES",
    "SWEEP_SECONDS",
    "EventRunner",
    "event_result",
    "league_player",
    "register_as",
    "structure_text",
]

log = logging.getLogger("brasseur.leagues")

STRUCTURES = Path(__file__).resolve().parents[2] / "docs" / "tournaments"
"""The shipped tournament structures an event may play (``<structure>.toml``)."""
SWEEP_SECONDS = 10.0

_STRUCTURE = re.compile(r"[a-z0-9_]{1,64}")
_NAME_LINE = re.compile(r'^name\s*=\s*"(?:[^"\\]|\\.)*"[ \t]*(?:#.*)?$', re.M)


def register_as(
    live: LiveTournament,
    client: Client,
    player: str,
    nickname: str,
    ref: int | None,
    *,
    lobby: bool = True,
) -> None:
    """The host's ``register`` under a chosen player id (a member's; see
    :meth:`~server.tournament.host.TournamentHost.register`)."""
    live.host.register(client, nickname, ref, player=player, lobby=lobby)


def structure_text(structures: Path, structure: str, name: str) -> str:
    """The TOML of a shipped structure, its ``name`` the event's; ``league.bad_structure``
    for no such file or one that does not load."""
    path = structures / f"{structure}.toml"
    if not _STRUCTURE.fullmatch(structure) or not path.is_file():
        raise LeagueRefusal(RefusalCode.BAD_STRUCTURE, f"no structure {structure!r}"[:200])
    text = path.read_text("utf-8")
    # a TOML basic string takes JSON's escapes
    text = _NAME_LINE.sub(lambda _: f"name = {json.dumps(name)}", text, count=1)
    try:
        load_tournament(text)
    except Exception as exc:  # a broken shipped file: say which
        raise LeagueRefusal(RefusalCode.BAD_STRUCTURE, f"{structure}: {exc}"[:300]) from None
    return text


def with_reentries(text: str, reentries: int) -> str:
    """A structure's TOML with a ``[reentry]`` window of ``reentries`` per player that closes
    with its late registration (the director settles busts' places when it closes);
    ``league.bad_event`` for a structure without late registration, or one that has its own
    window."""
    if reentries == 0:
        return text
    config, _ = load_tournament(text)
    late = config.late_registration_until_level
    if late <= 0 or config.reentry is not None:
        raise LeagueRefusal(
            RefusalCode.BAD_EVENT,
            "re-entries close with late registration: this structure has none",
        )
    return f"{text.rstrip()}\n\n[reentry]\nuntil_level = {late}\nmax = {reentries}\n"


def with_hard_stop(text: str, msg: m.LeagueEventCreate) -> str:
    """A structure's TOML with the event's hard stop (``[server] hard_stop``, see
    server.tournament.hard_stop); ``league.bad_event`` for a time or zone that is none."""
    return hard_stop_text(text, *hard_stop_of(msg))


def event_result(
    event: LeagueEvent,
    rows: Sequence[Mapping[str, Any]],
    eliminated: Mapping[tuple[str, int], tuple[str, ...]],
) -> tuple[EventResult, dict[str, str]]:
    """An event's result from its tournament's results (``results.json`` rows or the
    ``Finished`` decision's: ``place``, ``player_id``, ``name``, ``entry``) and who
    eliminated each entry; with each player's name. Ties keep the tournament's shared place
    (cdc 1.10: "ils sont ex-aequo"); places are renumbered as a competition ranking should
    an entry be missing (a no-show removed, fpc 2-2: "le joueur supprimé de la liste des
    participants"). Raises :class:`ResultError` for an empty result."""
    ordered = sorted(rows, key=lambda r: int(r["place"]))
    places = [int(r["place"]) for r in ordered]
    players = {league_player(str(r["player_id"])) for r in ordered}
    entries: list[Entry] = []
    names: dict[str, str] = {}
    for row, place in zip(ordered, places, strict=True):
        raw = str(row["player_id"])
        player = league_player(raw)
        entry = int(row.get("entry") or 1)
        killers = (league_player(k) for k in eliminated.get((raw, entry), ()))
        by = tuple(dict.fromkeys(k for k in killers if k in players and k != player))
        rank = bisect.bisect_left(places, place) + 1
        entries.append(Entry(player_id=player, place=rank, eliminated_by=by, entry=entry))
        names[player] = str(row.get("name") or player)
    result = EventResult(
        event_id=event.id,
        date=event_date(event),
        kind=event.kind,
        entries=tuple(entries),
        final_table_size=event.final_table_size,
    )
    return result, names


def _rows(decision: Finished) -> list[dict[str, Any]]:
    return [
        {"place": r.place, "player_id": r.player_id, "name": r.name, "entry": r.entry}
        for r in decision.results
    ]


class EventRunner:
    """The events' tournaments, timers and results (see the module docstring)."""

    def __init__(
        self,
        tournaments: Tournaments,
        store: LeagueBook,
        now: Callable[[], float],
        structures: Path = STRUCTURES,
    ) -> None:
        self.t = tournaments
        self.store = store
        self.now = now
        self.structures = structures
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.armed: set[str] = set()
        """The events this process has timed (from their creation, its start, or taken up)."""
        self.watched: set[str] = set()
        """The tournaments this process observes (one observer each)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.entries = Entries(tournaments, store)
        self.cups = CupRunner(
            tournaments, store, lambda name: structure_text(self.structures, CUP_STRUCTURE, name)
        )
        self.nights = NightRunner(
            tournaments,
            store,
            lambda structure, name: structure_text(self.structures, structure, name),
            self.watch,
        )

    # ------------------------------------------------------------------ scheduling

    def schedule(self, season: Season, msg: m.LeagueEventCreate, event_id: str) -> LeagueEvent:
        """Record the event, create its tournament (registration open), arm its timer."""
        name = check_name(msg.name)
        try:
            kind = EventKind(msg.kind)
        except ValueError:
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT, f"no event kind {msg.kind!r}"[:200]
            ) from None
        if msg.starts_at < self.now():
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "starts_at is in the past")
        if season.capital() is not None:
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT, "a cash season plays at its cash tables (create a table)"
            )
        self._check_room(season)
        if kind is EventKind.CUP:
            return self._schedule_cup(season, msg, event_id, name)
        if msg.night:
            event = self.nights.schedule(season, msg, event_id, name)
            self.arm(event)
            return event
        self._check_target(season, msg)
        qualified_season = self._qualified_season(season, msg)
        text = with_reentries(structure_text(self.structures, msg.structure, name), msg.reentries)
        text = with_hard_stop(text, msg)
        config, _ = load_tournament(text)
        event = LeagueEvent(
            id=event_id,
            league=season.league,
            season=season.id,
            name=name,
            kind=kind,
            structure=msg.structure,
            starts_at=msg.starts_at,
            requires_account=msg.requires_account,
            tournament=f"league_{event_id}",
            satellite_of=msg.satellite_of,
            final_table_size=config.final_table_size,
            seats=msg.seats or (DEFAULT_SEATS if kind is EventKind.SATELLITE else None),
            qualified_top=msg.qualified_top,
            qualified_season=qualified_season,
        )
        self.store.add_event(event)  # recorded first: a restart finds it
        try:
            live = self.t.add_tournament(event.tournament, text)
        except Exception:
            log.exception("league event %s: its tournament could not be created", event.id)
            note = "its tournament could not be created"
            self.store.update_event(advance(event, EventStep.CANCEL, note))
            raise ProtocolError(ErrorCode.INTERNAL, "the tournament could not be created") from None
        event = advance(event, EventStep.OPEN)
        self.store.update_event(event)
        self.watch(event, live)
        self.arm(event)
        return event

    def _schedule_cup(
        self, season: Season, msg: m.LeagueEventCreate, event_id: str, name: str
    ) -> LeagueEvent:
        """A heads-up cup: members only, its games the cup's structure; no tournament of
        its own (server.league_service.cup)."""
        if msg.satellite_of or msg.seats or msg.qualified_top or msg.qualified_season:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "a cup has no seats nor qualification")
        event = LeagueEvent(
            id=event_id,
            league=season.league,
            season=season.id,
            name=name,
            kind=EventKind.CUP,
            structure=CUP_STRUCTURE,
            starts_at=msg.starts_at,
            requires_account=True,
            tournament=f"league_{event_id}",
        )
        self.store.add_event(event)
        event = advance(event, EventStep.OPEN)
        self.store.update_event(event)
        self.cups.opened(event)
        self.arm(event)
        return event

    def _check_room(self, season: Season) -> None:
        """fpc part B: "10 étapes par saisons": no more events than the season has; and the
        bounds of every league (``league.limit``: events of a season, events of the league
        not played yet, server.league.model.check_bounds)."""
        live = [e for e in self.store.events(season.id) if e.status is not EventStatus.CANCELLED]
        pending = sum(
            1
            for other in self.store.seasons(season.league)
            for e in (live if other.id == season.id else self.store.events(other.id))
            if e.status in PENDING_STATUSES
        )
        check_bounds(season_events=len(live), pending_events=pending)
        limit = season.rules().events
        if limit is not None and len(live) >= limit:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, f"this season has its {limit} events")

    def _check_target(self, season: Season, msg: m.LeagueEventCreate) -> None:
        """A satellite's target: a later event of the same league, still registering."""
        if msg.satellite_of is None:
            return
        event = self.store.event(msg.satellite_of)
        if event is None or event.league != season.league:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "no such target event in this league")
        if event.status not in (EventStatus.SCHEDULED, EventStatus.REGISTERING):
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "the target event has started")
        if event.starts_at <= msg.starts_at:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "the target event starts before it")

    def _qualified_season(self, season: Season, msg: m.LeagueEventCreate) -> str | None:
        """The season whose standings qualify: one of this league's with points (by
        default the event's own), None for an event open to all."""
        if msg.qualified_top is None and msg.qualified_season is None:
            return None
        if msg.qualified_season is None:
            return season.id
        other = self.store.season(msg.qualified_season)
        if other is None or other.league != season.league:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "no such qualifying season in this league")
        if other.capital() is not None:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, "a cash season's capitals do not qualify")
        return other.id

    def cancel(self, event: LeagueEvent) -> None:
        """Record a cancelled event and stop its timer (its tournament, if any, never
        starts: registrations are refused, server.league_service.desk.LeagueDesk.entry_for)."""
        self.store.update_event(event)
        timer = self.timers.pop(event.id, None)
        if timer is not None:
            timer.cancel()

    def arm(self, event: LeagueEvent) -> None:
        """Start ``event`` at its time (at once if the time has passed)."""
        old = self.timers.pop(event.id, None)
        if old is not None:
            old.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a command-line tool): nothing runs here anyway
            return
        delay = max(0.0, event.starts_at - self.now())
        self.timers[event.id] = loop.call_later(delay, self._due, event.id)
        self.armed.add(event.id)

    def _due(self, event_id: str) -> None:
        self.timers.pop(event_id, None)
        try:
            self._start(event_id)
        except Exception:
            log.exception("league event %s: not started", event_id)

    def _start(self, event_id: str) -> None:
        event = self.store.event(event_id)
        if event is None or event.status is not EventStatus.REGISTERING:
            return
        if event.kind is EventKind.CUP:
            self.cups.start(event)
            return
        if self.nights.night_of(event) is not None:
            self.nights.start(event)
            return
        live = self.t.attach_tournament(event.tournament)
        if live is None:
            return
        have, need = live.host.registrations, live.host.config.min_players
        if have < need:
            note = (
                f"not started at its time: {have} registered, {need} needed "
                "(the director may start it from the console)"
            )
            self.store.update_event(dataclasses.replace(event, note=note))
            log.info("league event %s: %s", event.id, note)
            return
        assert live.coordinator is not None
        live.coordinator.submit("start", {})  # the director's console start (host.console)
        self.started(event_id)

    # ------------------------------------------------------------------ the tournament

    def watch(self, event: LeagueEvent, live: LiveTournament) -> None:
        if live.tid not in self.watched:
            self.watched.add(live.tid)
            live.host.observers.append(functools.partial(self._observe, event.id))

    def _observe(self, event_id: str, decisions: list[Any]) -> None:
        """Called by the host with every batch of decisions, before it applies them: never
        raises (the tournament goes on whatever happens here)."""
        try:
            for dec in decisions:
                if isinstance(dec, Eliminated) and dec.eliminated_by:
                    by = tuple(dec.eliminated_by)
                    self.store.add_elimination(event_id, dec.player_id, dec.entry, by)
                elif isinstance(dec, TableAssignment):
                    self.started(event_id)
                elif isinstance(dec, (Registered, Refused)):
                    self.entries.heard(event_id, dec)
                elif isinstance(dec, Finished):
                    self.finished(event_id, _rows(dec))
        except Exception:
            log.exception("league event %s: its tournament's decisions not recorded", event_id)

    def started(self, event_id: str) -> None:
        """The tournament started (at its time, or from the console): the event runs."""
        event = self.store.event(event_id)
        if event is not None and event.status is EventStatus.REGISTERING:
            self.store.update_event(advance(event, EventStep.START))
            timer = self.timers.pop(event_id, None)
            if timer is not None:
                timer.cancel()

    def finished(self, event_id: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """The tournament finished with ``rows``: store the event's result, once (with a
        satellite's tickets; its winners are then registered in the target)."""
        event = self.store.event(event_id)
        if event is None or event.status not in (EventStatus.REGISTERING, EventStatus.RUNNING):
            return
        if event.status is EventStatus.REGISTERING:
            event = advance(event, EventStep.START)
        try:
            result, names = event_result(event, rows, self.store.eliminations(event_id))
        except ResultError as exc:
            log.error("league event %s: its result cannot be stored: %s", event_id, exc)
            return
        tickets = self.entries.issue(event, result, rows, names)
        if self.store.finish(advance(event, EventStep.FINISH), result, names, tickets):
            log.info("league event %s: finished, %d entries", event_id, result.field_size)
            if event.satellite_of is not None:
                self.entries.seat_holders(event.satellite_of)
        self.nights.table_done(event)  # a table of a night: the night may be over

    def _stored_results(self, event: LeagueEvent) -> list[dict[str, Any]] | None:
        return self.t.stored_results(event.tournament)

    # ------------------------------------------------------------------ restart

    def restore(self) -> None:
        """After the gateway restored its tournaments: store the results of events that
        finished meanwhile, cancel those whose in-memory tournament a restart interrupted,
        watch and time the others; then sweep every :data:`SWEEP_SECONDS`."""
        statuses = (EventStatus.SCHEDULED, EventStatus.REGISTERING, EventStatus.RUNNING)
        for event in self.store.events_in(statuses):
            try:
                self._restore(event)
            except Exception:
                log.exception("league event %s: not restored", event.id)
        # every event watched again: the tickets' holders registered in their targets (those
        # registered above, before their target was watched, are asked again if refused)
        self.entries.asked.clear()
        for event in self.store.events_in((EventStatus.REGISTERING, EventStatus.RUNNING)):
            try:
                self.entries.seat_holders(event.id)
            except Exception:
                log.exception("league event %s: its tickets not registered", event.id)
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="leagues")

    def _restore(self, event: LeagueEvent) -> None:
        if event.kind is EventKind.CUP or self.nights.night_of(event) is not None:
            runner = self.cups if event.kind is EventKind.CUP else self.nights
            if event.status is EventStatus.RUNNING:
                runner.restore(event)
            elif event.status is EventStatus.REGISTERING:
                self.arm(event)
            return
        if self.nights.is_table(event) and event.status is not EventStatus.RUNNING:
            return  # a night's table not started yet: its night enters and starts it
        rows = self._stored_results(event)
        if rows is not None:
            self.finished(event.id, rows)
            return
        live = self.t.attach_tournament(event.tournament)  # with --redis: whoever made it
        if live is None and self._shared(event):
            log.info("league event %s: its tournament runs in another process", event.id)
            return
        if live is None:
            # the in-memory coordinator does not resume a tournament that had started
            # (docs/tournaments.md): nothing will finish it
            note = "interrupted: the server stopped while its tournament was not over"
            cancelled = advance(event, EventStep.CANCEL, note)
            self.store.update_event(cancelled)
            log.warning("league event %s: %s", event.id, note)
            self.nights.table_done(cancelled)
            return
        self.watch(event, live)
        if event.status is EventStatus.SCHEDULED:
            event = advance(event, EventStep.OPEN)
            self.store.update_event(event)
        if event.status is EventStatus.REGISTERING:
            self.arm(event)

    def _shared(self, event: LeagueEvent) -> bool:
        """With ``--redis``: the event's tournament is recorded in Redis (every process runs
        it from its next start, server.tournament.redis_link.RedisLink.add_tournament)."""
        return self.t.tournament_shared(event.tournament)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep()

    def sweep(self) -> None:
        """What another process may have done meanwhile: results stored (an event's, a cup
        game's), and, with ``--redis``, events it created since this process started (this
        one runs their tournaments and times them too from now on)."""
        for event in self.store.events_in((EventStatus.RUNNING,)):
            try:
                if event.kind is EventKind.CUP:
                    self.cups.reconcile(event.id)
                    continue
                rows = self._stored_results(event)
                if rows is not None:
                    self.finished(event.id, rows)
                else:  # with --redis, run here too: this process goes on if its maker dies
                    self.t.attach_tournament(event.tournament)
            except Exception:
                log.exception("league event %s: results not read", event.id)
        if not self.t.shared_by_processes:
            return
        for event in self.store.events_in((EventStatus.REGISTERING,)):
            if event.id in self.armed:
                continue  # timed here once already (a start put off stays so)
            try:
                self._adopt(event)
            except Exception:
                log.exception("league event %s: not taken up", event.id)

    def _adopt(self, event: LeagueEvent) -> None:
        """A registering event another process created: its tournament run and watched
        here, its start timed here (whoever starts it first, its director starts it once)."""
        if event.kind is not EventKind.CUP and self.nights.night_of(event) is None:
            if self.nights.is_table(event):
                return  # its night enters and starts it
            if self.t.attach_tournament(event.tournament) is None:
                return  # (watched once taken up: taken_up)
        self.arm(event)

    def taken_up(self, live: LiveTournament) -> None:
        """With ``--redis``: a tournament another process made, which this one runs from
        now on (:meth:`Tournaments.attach_tournament`): watched if it is an
        event's, so that this process keeps its eliminations and stores its result too."""
        event = self.store.event_of_tournament(live.tid)
        if event is not None:
            self.watch(event, live)

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
