"""Who enters a league event other than by registering freely (issue 15): a satellite's
winners, by their tickets, and, at an event for qualified players only, the ranked players.

- **Tickets**: when a satellite finishes, its seats are computed from the field by the
  event's rule (server/league/satellite.py) and its winners' :class:`Ticket` are stored with
  its result, in one transaction (a restart neither loses nor issues them twice). Each member
  whose ticket :attr:`~Ticket.enters` is then registered in the target's tournament under his
  member id, as if he had sent ``register`` (the director's ``register``: one entry, whatever
  the number of his tickets, and one if he had registered himself already). After a restart,
  the target's tournament comes back without its registrations (docs/tournaments.md): the
  ticket holders are registered again, the others register again.
- **A shared seat** (cdc 1.10 "S'il s'agit de la bulle, voir le §2.7", cdc 2.7 "ils seront
  classés à égalité (avec partage du prizepool du dernier payé le cas échéant)"): an online
  seat cannot be cut, and no player tied for it is left out: every member of the tied block
  enters the target, and each ticket records its share of a seat (``1/2``) so that a league
  paying the target's buy-in knows what the satellite's pool paid for (standings export).
- **Qualified players only** (ligue, PRÉAVIS note 1, "les joueurs classés"): the first N of a
  season's standings at the time of registering (ties at the cut qualify), and the holders of
  a ticket into the event (a satellite is another way in); anyone else is refused
  ``league.not_qualified``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.league.book import StateChange
from server.league.errors import LeagueConfigError
from server.league.membership import EntryPath, admit, standing
from server.league.model import EventStatus, LeagueEvent, LeagueRefusal, RefusalCode, Season
from server.league.results import EventResult
from server.league.satellite import Ticket, issue_tickets, qualified_players
from server.league.standings import StandingRow, standings
from server.league.store import LeagueBook
from server.league_service.ports import Entrant, Tournaments
from server.tournament.decisions import RefusalReason, Refused, Registered

__all__ = [
    "MEMBER_PREFIX",
    "Closed",
    "Entries",
    "admit_entry",
    "enter_member",
    "entering",
    "league_player",
    "scored_standings",
    "ticket_json",
]

log = logging.getLogger("brasseur.leagues")

MEMBER_PREFIX = "m."
"""A member's player id in a tournament is this prefix and his member id (conn.pid)."""

_OPEN = (EventStatus.REGISTERING, EventStatus.RUNNING)


def league_player(pid: str) -> str:
    """The league's id of a tournament's player: the member id of ``m.<member>``."""
    return pid.removeprefix(MEMBER_PREFIX)


def admit_entry(
    store: LeagueBook,
    event: LeagueEvent,
    member: str | None,
    path: EntryPath,
    *,
    members_only: bool,
) -> None:
    """The one membership decision (:func:`server.league.membership.admit`) for ``member``
    (None: a guest) entering ``event`` by ``path``, as the league stands now: returns, or
    raises ``ProtocolError`` with its stable code (``league.not_member``,
    ``league.awaiting_approval``, ``league.account_required``)."""
    league = store.league(event.league) if members_only and member is not None else None
    try:
        admit(standing(league, member), path, members_only=members_only)
    except LeagueRefusal as exc:
        raise ProtocolError(exc.code, exc.message) from None


def enter_member(
    store: LeagueBook,
    event: LeagueEvent,
    conn: Entrant,
    msg: m.Register,
    path: EntryPath,
) -> None:
    """A member's ``register`` for an event the league plays itself (a cup, a night; members
    only: :func:`admit_entry`): kept once in the event's state (:func:`entering`, one
    read-change-write: two processes registering two members at once keep both, and a
    registration racing the draw is either in it or refused), answered ``registered``
    without a token (no table yet); ``out_of_range`` once registration is closed."""
    admit_entry(store, event, conn.member, path, members_only=True)
    member = conn.member
    assert member is not None  # a guest is refused league.account_required
    what = path.value
    closed = ProtocolError(ErrorCode.OUT_OF_RANGE, f"the {what}'s registration is closed")
    if event.status is not EventStatus.REGISTERING:
        raise closed
    try:
        store.change_event_state(event.id, entering(member, conn.nickname or member))
    except Closed:
        raise closed from None
    player = f"{MEMBER_PREFIX}{member}"
    reply = m.Registered(tournament=event.tournament, player=player, token="", ref=msg.id)
    conn.deliver(encode(reply))


class Closed(Exception):
    """A registration the event's state refuses: its tables or bracket are drawn."""


def entering(member: str, name: str) -> StateChange:
    """The state with ``member`` (as ``name``) in its ``registered``, once;
    :class:`Closed` once a cup's bracket or a night's tables are drawn."""

    def change(state: dict[str, Any] | None) -> dict[str, Any] | None:
        state = state if state is not None else {"registered": {}}
        if "bracket" in state or "tables" in state:
            raise Closed
        registered: dict[str, str] = state.setdefault("registered", {})
        if member in registered:
            return None
        registered[member] = name
        return state

    return change


def scored_standings(
    season: Season, results: Sequence[EventResult]
) -> tuple[tuple[StandingRow, ...], list[str]]:
    """A season's standings from the results its points system can score, and the ids of
    those it cannot (a Sit'n Go of 4, where fpc part C prints 6 to 10 players)."""
    rules = season.rules()
    scored: list[EventResult] = []
    unscored: list[str] = []
    for result in results:
        try:
            rules.points.event_points(result)
        except LeagueConfigError:
            unscored.append(result.event_id)
        else:
            scored.append(result)
    return standings(rules, scored), unscored


def ticket_json(ticket: Ticket) -> dict[str, Any]:
    """A ticket in the standings export (fractions as exact text: ``"1/2"``)."""
    return {
        "satellite": ticket.satellite,
        "target": ticket.target,
        "player_id": ticket.player_id,
        "name": ticket.name,
        "place": ticket.place,
        "seats": str(ticket.seats),
        "shared": ticket.shared,
        "seat_value": ticket.seat_value,
        "cash": str(ticket.cash),
        "member": ticket.member,
        "note": ticket.note,
    }


class Entries:
    """Tickets issued and used, qualification checked (see the module docstring)."""

    def __init__(self, tournaments: Tournaments, store: LeagueBook) -> None:
        self.t = tournaments
        self.store = store
        self.asked: dict[str, set[str]] = {}
        """Target event -> its ticket holders' registrations sent, not answered yet."""

    # ------------------------------------------------------------------ tickets

    def issue(
        self,
        event: LeagueEvent,
        result: EventResult,
        rows: Sequence[Mapping[str, Any]],
        names: Mapping[str, str],
    ) -> tuple[Ticket, ...]:
        """A finished satellite's tickets (none for another event): the seats from its field
        by its rule; its members are the entries ``m.<member>`` of its tournament."""
        if event.satellite_of is None:
            return ()
        members = frozenset(
            league_player(pid)
            for pid in (str(r["player_id"]) for r in rows)
            if pid.startswith(MEMBER_PREFIX)
        )
        plan = event.seat_rule().plan(result.field_size)
        return issue_tickets(result, plan, target=event.satellite_of, members=members, names=names)

    def seat_holders(self, target_id: str) -> None:
        """Register in ``target_id``'s tournament every member whose ticket enters him and
        who is not registered there yet; say on the tickets why not when it cannot."""
        target = self.store.event(target_id)
        tickets = [t for t in self.store.tickets_into(target_id) if t.enters]
        if target is None or not tickets:
            return
        live = self.t.running(target.tournament)
        if target.status not in _OPEN or live is None or live.host.done:
            self._note(target_id, tickets, f"not entered: the target is {target.status.value}")
            return
        assert live.coordinator is not None
        asked = self.asked.setdefault(target_id, set())
        league = self.store.league(target.league)
        for ticket in tickets:
            pid = f"{MEMBER_PREFIX}{ticket.player_id}"
            host = live.host
            if pid in host.names or pid in host.pending or pid in asked:
                continue
            try:  # the holder may have left the league (or been removed) since he won it
                admit(standing(league, ticket.player_id), EntryPath.TICKET, members_only=True)
            except LeagueRefusal as exc:
                self._note(target_id, [ticket], f"not entered: {exc.message}")
                continue
            asked.add(pid)
            live.coordinator.submit("register", {"player": pid, "name": ticket.name})

    def heard(self, target_id: str, decision: Registered | Refused) -> None:
        """The director's answer to a ticket's registration: kept on the ticket."""
        asked = self.asked.get(target_id)
        if asked is None or decision.player_id not in asked:
            return
        asked.discard(decision.player_id)
        note = ""
        if (
            isinstance(decision, Refused)
            and decision.reason is not RefusalReason.ALREADY_REGISTERED
        ):
            note = f"not entered: {decision.detail or decision.reason.value.replace('_', ' ')}"
        player = league_player(decision.player_id)
        tickets = [t for t in self.store.tickets_into(target_id) if t.player_id == player]
        self._note(target_id, tickets, note)
        if note:
            log.warning("league event %s: ticket of %s %s", target_id, player, note)

    def _note(self, target_id: str, tickets: Sequence[Ticket], note: str) -> None:
        for player in {t.player_id for t in tickets if t.note != note}:
            self.store.note_ticket(target_id, player, note)

    def holds(self, target_id: str, member: str) -> bool:
        """Whether ``member`` holds a ticket that enters him in ``target_id``."""
        return any(t.enters and t.player_id == member for t in self.store.tickets_into(target_id))

    def registered(self, event: LeagueEvent, member: str) -> bool:
        """Whether ``member`` is registered in ``event``'s tournament now."""
        live = self.t.running(event.tournament)
        return live is not None and f"{MEMBER_PREFIX}{member}" in live.host.names

    # ------------------------------------------------------------------ qualification

    def qualified(self, event: LeagueEvent) -> frozenset[str] | None:
        """The members an event for qualified players admits by the standings (None: an
        open event), as the standings are now."""
        rule = event.qualification()
        if rule is None:
            return None
        season = self.store.season(event.qualified_season or event.season)
        if season is None:
            return frozenset()
        rows, _ = scored_standings(season, self.store.results(season.id))
        return frozenset(qualified_players(rows, rule))

    def check_qualified(self, event: LeagueEvent, member: str) -> None:
        """Refuse ``league.not_qualified`` a member an event for qualified players does not
        admit (neither in its top N nor holding a ticket into it)."""
        qualified = self.qualified(event)
        if qualified is None or member in qualified or self.holds(event.id, member):
            return
        raise ProtocolError(
            RefusalCode.NOT_QUALIFIED.value,
            f"this event takes the first {event.qualified_top} of the standings and the "
            "satellites' winners only",
        )
