"""The leagues in Redis, for a deployment of several server processes (``--redis``): a league,
its seasons, events, results and tickets are the same whichever process a member reaches.
The same interface and guarantees as :class:`~server.league.store.LeagueStore` (the
:class:`~server.league.store.LeagueBook` protocol).

Keys, under ``<prefix>:league`` (``L`` below); every value is text, JSON where it is not a
plain id::

    L:l:<league>              hash: name, owner, invite, created (JSON values)
    L:roles:<league>          hash: member -> owner | director | member | pending
    L:removed:<league>        set of the members the league removed (refused, left)
    L:invite:<invite>         the league's id
    L:s:<season>              hash: id, league, name, points, best_of, created (JSON values),
                              game and structure unless hold'em no-limit (issue 31)
    L:seasons:<league>        set of the league's season ids
    L:e:<event>               hash: the event's columns of the SQLite file (JSON values)
    L:tournament:<tid>        the id of the event playing tournament <tid>
    L:events:<season>         set of the season's event ids
    L:status:<status>         set of the ids of the events in <status> (every league)
    L:elim:<event>            hash: JSON [player, entry] -> JSON [eliminated by...]
    L:r:<event>               the event's result: JSON (date, kind, entries, names...)
    L:results:<season>        set of the season's event ids that have a result
    L:tickets:<target>        hash: "<satellite>\\n<player>" -> JSON ticket
    L:ticket-targets:<sat>    set of the targets of a satellite's tickets

Every write that touches several keys is one Lua script, which checks everything it refuses
for before it writes anything: it is applied whole or not at all, and two processes racing
cannot interleave. :meth:`RedisLeagueStore.finish` writes the result, the event ``finished``
and a satellite's tickets in one script that first checks the result is not there: a result
is stored once, by one process (ligue 8.2 « Conserver les données des résultats »). A Redis
error (unreachable, a timeout, a refused script) raises
:class:`~server.league.store.LeagueStoreError`: the request gets ``internal``. A script whose
answer was lost after Redis ran it (the connection cut at that instant) raises too, though it
was written: every write here is safe to make again (``finish`` answers False the second
time, a league or an event already there is refused and the request retried gets a new id).

The synchronous client is the deployment's (server.tournament.redis_link: short timeouts), used
from the asyncio thread only, as the SQLite store is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import redis

from server.engine.setup import Game, Structure

from .model import EventStatus, League, LeagueEvent, Role, Season, league_of
from .redis_states import RedisStates, _text
from .results import EventResult
from .satellite import Ticket
from .store import _entries_json, _event, _result, _ticket

__all__ = ["RedisLeagueStore"]

_T = TypeVar("_T")

_EVENT_FIELDS = (
    "id",
    "league",
    "season",
    "name",
    "kind",
    "structure",
    "starts_at",
    "requires_account",
    "tournament",
    "status",
    "satellite_of",
    "final_table_size",
    "note",
    "seats",
    "qualified_top",
    "qualified_season",
)
_TICKET_FIELDS = (
    "satellite",
    "target",
    "player",
    "name",
    "place",
    "seats",
    "seat_value",
    "cash",
    "member",
    "note",
)

_LUA_STATUS = """
local function set_status(event_key, status_base, id, status, note)
  local old = redis.call('HGET', event_key, 'status')
  if old then redis.call('SREM', status_base .. string.sub(old, 2, -2), id) end
  redis.call('SADD', status_base .. status, id)
  redis.call('HSET', event_key, 'status', '"' .. status .. '"', 'note', note)
end
"""

_ADD_LEAGUE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('league exists') end
if redis.call('EXISTS', KEYS[2]) == 1 then return redis.error_reply('invite taken') end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('SET', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[2], 'owner')
redis.call('SADD', KEYS[4], ARGV[1])
return 1
"""
"""KEYS: league, invite, roles, the owner's leagues. ARGV: league id, owner, league hash
fields and values."""

_SET_ROLE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('no such league') end
if redis.call('HGET', KEYS[2], ARGV[1]) == 'owner' then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SREM', KEYS[4], ARGV[1])
return 1
"""
"""KEYS: league, roles, the member's leagues, the league's removed. ARGV: member, role,
league id."""

_REMOVE_ROLE = """
local role = redis.call('HGET', KEYS[1], ARGV[1])
if not role or role == 'owner' then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
"""
"""KEYS: roles, the member's leagues, the league's removed. ARGV: member, league id."""

_ADD_SEASON = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('season exists') end
if redis.call('EXISTS', KEYS[2]) == 0 then return redis.error_reply('no such league') end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SADD', KEYS[3], ARGV[1])
return 1
"""
"""KEYS: season, league, the league's seasons. ARGV: season id, season hash fields and values."""

_ADD_EVENT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('event exists') end
if redis.call('EXISTS', KEYS[2]) == 1 then return redis.error_reply('tournament taken') end
if redis.call('EXISTS', KEYS[4]) == 0 then return redis.error_reply('no such league') end
if redis.call('EXISTS', KEYS[5]) == 0 then return redis.error_reply('no such season') end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('SADD', KEYS[6], ARGV[1])
return 1
"""
"""KEYS: event, tournament index, season's events, league, season, status set.
ARGV: event id, unused, event hash fields and values."""

_UPDATE_EVENT = (
    _LUA_STATUS
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local old = redis.call('HGET', KEYS[1], 'status')
if (old == '"finished"' or old == '"cancelled"') and old ~= '"' .. ARGV[3] .. '"' then
  return 0
end
set_status(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return 1
"""
)
"""KEYS: event. ARGV: status sets' base, event id, status, note (JSON). An event finished or
cancelled stays so (model.TRANSITIONS has no step out of them): a process that read the event
before another finished it cannot write it back to ``running``."""

_FINISH = (
    _LUA_STATUS
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 0 then return redis.error_reply('no such event') end
local n = tonumber(ARGV[6])
for i = 1, n do
  if redis.call('EXISTS', KEYS[4 + 3 * i]) == 0 then
    return redis.error_reply('no such target event')
  end
end
redis.call('SET', KEYS[1], ARGV[5])
set_status(KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
redis.call('DEL', KEYS[3])
redis.call('SADD', KEYS[4], ARGV[2])
for i = 1, n do
  redis.call('HSET', KEYS[2 + 3 * i], ARGV[4 + 3 * i], ARGV[5 + 3 * i])
  redis.call('SADD', KEYS[3 + 3 * i], ARGV[6 + 3 * i])
end
return 1
"""
)
"""KEYS: result, event, eliminations, season's results, then for each ticket: the target's
tickets, the satellite's targets, the target event. ARGV: status sets' base, event id,
status, note (JSON), result (JSON), number of tickets, then for each ticket: field, ticket
(JSON), target id."""


def _fields(raw: dict[Any, Any]) -> dict[str, Any]:
    """A hash of JSON values, decoded."""
    return {_text(k): json.loads(_text(v)) for k, v in raw.items()}


def _hash_args(values: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for name, value in values.items():
        out += [name, json.dumps(value)]
    return out


def _event_values(event: LeagueEvent) -> dict[str, Any]:
    return {
        "id": event.id,
        "league": event.league,
        "season": event.season,
        "name": event.name,
        "kind": event.kind.value,
        "structure": event.structure,
        "starts_at": event.starts_at,
        "requires_account": int(event.requires_account),
        "tournament": event.tournament,
        "status": event.status.value,
        "satellite_of": event.satellite_of,
        "final_table_size": event.final_table_size,
        "note": event.note,
        "seats": event.seats,
        "qualified_top": event.qualified_top,
        "qualified_season": event.qualified_season,
    }


def _ticket_values(t: Ticket) -> dict[str, Any]:
    return {
        "satellite": t.satellite,
        "target": t.target,
        "player": t.player_id,
        "name": t.name,
        "place": t.place,
        "seats": str(t.seats),
        "seat_value": t.seat_value,
        "cash": str(t.cash),
        "member": int(t.member),
        "note": t.note,
    }


def _ticket_of(text: bytes | str) -> Ticket:
    data = json.loads(_text(text))
    return _ticket(tuple(data[f] for f in _TICKET_FIELDS))


class RedisLeagueStore(RedisStates):
    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self._r = client
        self._p = f"{prefix}:league"
        self._remove_role = client.register_script(_REMOVE_ROLE)
        self._add_league = client.register_script(_ADD_LEAGUE)
        self._set_role = client.register_script(_SET_ROLE)
        self._add_season = client.register_script(_ADD_SEASON)
        self._add_event = client.register_script(_ADD_EVENT)
        self._update_event = client.register_script(_UPDATE_EVENT)
        self._finish = client.register_script(_FINISH)

    def close(self) -> None:
        """The client is the deployment's link: it stays open."""

    def _hashes(self, keys: Sequence[str]) -> Iterator[dict[str, Any]]:
        """The hashes at ``keys`` read together (one MULTI: one moment), the missing left out."""

        def read() -> list[Any]:
            pipe = self._r.pipeline(transaction=True)
            for key in keys:
                pipe.hgetall(key)
            return pipe.execute() if keys else []

        for raw in self._call(read):
            if raw:
                yield _fields(raw)

    def _members(self, key: str) -> list[str]:
        return sorted(_text(m) for m in self._call(lambda: self._r.smembers(key)))

    # ------------------------------------------------------------------ leagues and roles

    def add_league(self, league: League) -> None:
        """A new league and its owner's role."""
        values = {
            "name": league.name,
            "owner": league.owner,
            "invite": league.invite,
            "created": league.created,
            "approval": league.approval,
        }
        keys = [
            self._k("l", league.id),
            self._k("invite", league.invite),
            self._k("roles", league.id),
            self._k("mine", league.owner),
        ]
        self._call(
            lambda: self._add_league(keys=keys, args=[league.id, league.owner, *_hash_args(values)])
        )

    def set_role(self, league: str, member: str, role: Role) -> None:
        """Make ``member`` a member (or director) of ``league``; the owner stays the owner."""
        keys = [
            self._k("l", league),
            self._k("roles", league),
            self._k("mine", member),
            self._k("removed", league),
        ]
        self._call(lambda: self._set_role(keys=keys, args=[member, role.value, league]))

    def remove_role(self, league: str, member: str) -> None:
        """``member`` is no longer of ``league`` and the league remembers him as removed; the
        owner stays."""
        keys = [self._k("roles", league), self._k("mine", member), self._k("removed", league)]
        self._call(lambda: self._remove_role(keys=keys, args=[member, league]))

    def set_approval(self, league: str, approval: bool) -> None:
        """Whether whoever joins with the invite waits for approval from now on."""
        key = self._k("l", league)
        self._call(lambda: self._r.hset(key, "approval", json.dumps(approval)))

    def leagues_of(self, member: str) -> list[League]:
        """The leagues ``member`` belongs to (any role), by creation."""
        ids = self._call(lambda: self._r.smembers(self._k("mine", member)))
        found = [self.league(_text(i)) for i in ids]
        return sorted((x for x in found if x is not None), key=lambda x: (x.created, x.id))

    def league(self, league_id: str) -> League | None:
        def read() -> tuple[Any, Any, Any]:
            pipe = self._r.pipeline(transaction=True)
            pipe.hgetall(self._k("l", league_id))
            pipe.hgetall(self._k("roles", league_id))
            pipe.smembers(self._k("removed", league_id))
            head, roles, removed = pipe.execute()
            return head, roles, removed

        head, roles, removed = self._call(read)
        if not head:
            return None
        data = _fields(head)
        return league_of(
            league_id,
            data["name"],
            data["owner"],
            data["invite"],
            float(data["created"]),
            bool(data.get("approval", False)),
            ((_text(k), _text(v)) for k, v in roles.items()),
            (_text(m) for m in removed),
        )

    def league_by_invite(self, invite: str) -> League | None:
        raw = self._call(lambda: self._r.get(self._k("invite", invite)))
        return None if raw is None else self.league(_text(raw))

    # ------------------------------------------------------------------ seasons

    def add_season(self, season: Season) -> None:
        values = {
            "id": season.id,
            "league": season.league,
            "name": season.name,
            "points": season.points,
            "best_of": season.best_of,
            "created": season.created,
        }
        # five-card draw (issue 31): the game and structure are written when they are not
        # hold'em no-limit, so a hold'em season's hash is as it always was
        if season.game is not Game.HOLDEM:
            values["game"] = season.game.value
        if season.structure is not Structure.NO_LIMIT:
            values["structure"] = season.structure.value
        keys = [
            self._k("s", season.id),
            self._k("l", season.league),
            self._k("seasons", season.league),
        ]
        self._call(lambda: self._add_season(keys=keys, args=[season.id, *_hash_args(values)]))

    def season(self, season_id: str) -> Season | None:
        found = list(self._hashes([self._k("s", season_id)]))
        return _season(found[0]) if found else None

    def seasons(self, league: str) -> list[Season]:
        ids = self._members(self._k("seasons", league))
        found = [_season(d) for d in self._hashes([self._k("s", i) for i in ids])]
        return sorted(found, key=lambda s: (s.created, s.id))

    # ------------------------------------------------------------------ events

    def add_event(self, event: LeagueEvent) -> None:
        keys = [
            self._k("e", event.id),
            self._k("tournament", event.tournament),
            self._k("events", event.season),
            self._k("l", event.league),
            self._k("s", event.season),
            self._k("status", event.status.value),
        ]
        args = [event.id, "", *_hash_args(_event_values(event))]
        self._call(lambda: self._add_event(keys=keys, args=args))

    def update_event(self, event: LeagueEvent) -> None:
        """Save an event's status and note (what changes in its lifecycle); a finished or
        cancelled event keeps its status (another process may have ended it meanwhile)."""
        keys = [self._k("e", event.id)]
        args = [self._k("status", ""), event.id, event.status.value, json.dumps(event.note)]
        self._call(lambda: self._update_event(keys=keys, args=args))

    def _events(self, ids: Iterable[str]) -> list[LeagueEvent]:
        """The events ``ids`` that exist, by starting time."""
        found = self._hashes([self._k("e", i) for i in ids])
        events = [_event(tuple(d[f] for f in _EVENT_FIELDS)) for d in found]
        return sorted(events, key=lambda e: (e.starts_at, e.id))

    def event(self, event_id: str) -> LeagueEvent | None:
        found = self._events([event_id])
        return found[0] if found else None

    def event_of_tournament(self, tournament: str) -> LeagueEvent | None:
        raw = self._call(lambda: self._r.get(self._k("tournament", tournament)))
        return None if raw is None else self.event(_text(raw))

    def events(self, season: str) -> list[LeagueEvent]:
        """A season's events, by starting time."""
        return self._events(self._members(self._k("events", season)))

    def events_in(self, statuses: Iterable[EventStatus]) -> list[LeagueEvent]:
        """Every event (of every league) in one of ``statuses``, by starting time."""
        wanted = sorted({s.value for s in statuses})

        def read() -> list[Any]:
            pipe = self._r.pipeline(transaction=True)
            for status in wanted:
                pipe.smembers(self._k("status", status))
            return pipe.execute() if wanted else []

        ids = {_text(i) for found in self._call(read) for i in found}
        # a set read before a status moved on: the event as it is now decides
        return [e for e in self._events(ids) if e.status.value in wanted]

    # ------------------------------------------------------------------ results

    def add_elimination(self, event: str, player: str, entry: int, by: tuple[str, ...]) -> None:
        """Who eliminated an entry, kept as the tournament goes (the leader bounty needs it);
        the first report of an entry stands."""
        field = json.dumps([player, entry])
        value = json.dumps(list(by))
        self._call(lambda: self._r.hsetnx(self._k("elim", event), field, value))

    def eliminations(self, event: str) -> dict[tuple[str, int], tuple[str, ...]]:
        raw = self._call(lambda: self._r.hgetall(self._k("elim", event)))
        out: dict[tuple[str, int], tuple[str, ...]] = {}
        for field, by in _fields(raw).items():
            player, entry = json.loads(field)
            out[(str(player), int(entry))] = tuple(by)
        return out

    def finish(
        self,
        event: LeagueEvent,
        result: EventResult,
        names: dict[str, str],
        tickets: Iterable[Ticket] = (),
    ) -> bool:
        """Store ``result``, the event as it is now (``finished``) and a satellite's
        ``tickets``, together (one script): all of them or none. False (and nothing
        written) when the event's result is stored already, by this process or another:
        tickets are issued once."""
        stored = {
            "event": event.id,
            "date": result.date.isoformat(),
            "kind": result.kind.value,
            "final_table_size": result.final_table_size,
            "sheet_error": int(result.sheet_error),
            "entries": _entries_json(result),
            "names": names,
        }
        keys = [
            self._k("r", event.id),
            self._k("e", event.id),
            self._k("elim", event.id),
            self._k("results", event.season),
        ]
        args: list[Any] = [self._k("status", ""), event.id, event.status.value]
        args += [json.dumps(event.note), json.dumps(stored, sort_keys=True)]
        issued = list(tickets)
        args.append(len(issued))
        for t in issued:
            keys += [
                self._k("tickets", t.target),
                self._k("ticket-targets", t.satellite),
                self._k("e", t.target),
            ]
            args += [f"{t.satellite}\n{t.player_id}", json.dumps(_ticket_values(t)), t.target]
        return bool(self._call(lambda: self._finish(keys=keys, args=args)))

    def _stored_results(self, event_ids: Iterable[str]) -> list[dict[str, Any]]:
        """The stored results of ``event_ids``, by date and event."""
        ids = list(event_ids)

        def read() -> list[Any]:
            pipe = self._r.pipeline(transaction=True)
            for i in ids:
                pipe.get(self._k("r", i))
            return pipe.execute() if ids else []

        found = [json.loads(_text(raw)) for raw in self._call(read) if raw is not None]
        return sorted(found, key=lambda d: (d["date"], d["event"]))

    def result(self, event: str) -> EventResult | None:
        found = self._stored_results([event])
        return _result_of(found[0]) if found else None

    def results(self, season: str) -> list[EventResult]:
        """The stored results of a season's events."""
        stored = self._stored_results(self._members(self._k("results", season)))
        return [_result_of(d) for d in stored]

    def names(self, season: str) -> dict[str, str]:
        """The names players had in a season's events (the latest event's name wins)."""
        out: dict[str, str] = {}
        for stored in self._stored_results(self._members(self._k("results", season))):
            out.update(stored["names"])
        return out

    # ------------------------------------------------------------------ tickets

    def _tickets(self, target: str) -> list[Ticket]:
        raw = self._call(lambda: self._r.hgetall(self._k("tickets", target)))
        return [_ticket_of(text) for text in raw.values()]

    def tickets_into(self, target: str) -> list[Ticket]:
        """The tickets into an event, best place first (by satellite)."""
        return sorted(self._tickets(target), key=lambda t: (t.satellite, t.place, t.player_id))

    def season_tickets(self, season: str) -> list[Ticket]:
        """The tickets won at a season's satellites."""
        out: list[Ticket] = []
        for event in self.events(season):
            won: list[Ticket] = []
            for target in self._members(self._k("ticket-targets", event.id)):
                won += [t for t in self._tickets(target) if t.satellite == event.id]
            out += sorted(won, key=lambda t: (t.place, t.player_id))
        return out

    def note_ticket(self, target: str, player: str, note: str) -> None:
        """Say why ``player``'s tickets into ``target`` have (not) entered him."""
        key = self._k("tickets", target)

        def write(pipe: Any) -> None:
            changed: dict[str, str] = {}
            for field, text in pipe.hgetall(key).items():
                data = json.loads(_text(text))
                if data["player"] == player:
                    data["note"] = note
                    changed[_text(field)] = json.dumps(data)
            pipe.multi()
            if changed:
                pipe.hset(key, mapping=changed)

        self._call(lambda: self._r.transaction(write, key))


def _season(data: dict[str, Any]) -> Season:
    return Season(
        id=data["id"],
        league=data["league"],
        name=data["name"],
        points=data["points"],
        best_of=None if data["best_of"] is None else int(data["best_of"]),
        created=float(data["created"]),
        game=Game(data.get("game") or Game.HOLDEM.value),
        structure=Structure(data.get("structure") or Structure.NO_LIMIT.value),
    )


def _result_of(data: dict[str, Any]) -> EventResult:
    return _result(
        (
            data["event"],
            data["date"],
            data["kind"],
            data["final_table_size"],
            data["sheet_error"],
            data["entries"],
        )
    )
