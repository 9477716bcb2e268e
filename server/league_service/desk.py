"""Leagues over the wire (issue 15): ``league_create``, ``league_join``, ``league_get``,
``season_create``, ``league_event_create``, each answered by the private ``league`` message,
and the league side of a tournament's ``register``.

Every request carries the member's session token (``member``), checked with
``member_of`` (the accounts' check): a request acts only for the member the
token names, whatever the connection's own login. Refusals are ``league.*`` errors
(:class:`~server.league.model.RefusalCode`); a write the leagues' store could not make is
``internal`` and changed nothing. Events run in :mod:`server.league_service.events`;
standings are :mod:`server.league_service.standings` (served over HTTP by the gateway).
See docs/leagues.md.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.league.membership import EntryPath
from server.league.model import (
    Action,
    EventStatus,
    EventStep,
    League,
    LeagueEvent,
    LeagueRefusal,
    RefusalCode,
    Role,
    Season,
    advance,
    can,
    capital_start,
    check_bounds,
    check_name,
    check_terms,
    require,
    season_rules,
)
from server.league.results import EventKind
from server.league.store import LeagueBook, LeagueStoreError
from server.league_service.entries import admit_entry
from server.league_service.events import MEMBER_PREFIX, STRUCTURES, EventRunner
from server.league_service.ports import Entrant, Tournaments
from server.tournament.live import LiveTournament

__all__ = ["LeagueDesk"]

log = logging.getLogger("brasseur.leagues")

_Request = Callable[[Any], tuple[League, str]]


def _role_named(text: str) -> Role:
    try:
        return Role(text)
    except ValueError:
        return Role.OWNER  # nobody is made the owner: refused


def _new_id() -> str:
    return secrets.token_hex(5)


class LeagueDesk:
    def __init__(
        self,
        tournaments: Tournaments,
        store: LeagueBook,
        member_of: Callable[[str], str],
        display: Callable[[str], str | None],
        now: Callable[[], float] = time.time,
        structures: Path = STRUCTURES,
    ) -> None:
        self.t = tournaments
        self.store = store
        self.member_of = member_of
        """The member id a session token names (``bad_token`` once his session ended)."""
        self.display = display
        """A member's display name (None: no such account)."""
        self.now = now
        self.events = EventRunner(tournaments, store, now, structures)
        self._requests: dict[type[m.Message], _Request] = {
            m.LeagueCreate: self._create,
            m.LeagueJoin: self._join,
            m.LeagueGet: self._get,
            m.SeasonCreate: self._season,
            m.LeagueEventCreate: self._event,
            m.LeagueRole: self._role,
            m.LeagueEventCancel: self._cancel,
            m.LeagueEventClose: self._close,
            m.LeagueSettings: self._settings,
        }

    # ------------------------------------------------------------------ requests

    def handle(self, conn: Entrant, msg: m.Message) -> None:
        """One league request: answered by ``league`` (``leagues`` for ``league_list``), or
        refused (``ProtocolError``)."""
        try:
            if isinstance(msg, m.LeagueList):
                conn.deliver(encode(self._list(msg.member, msg.id)))
                return
            if isinstance(msg, m.LeagueLeave):
                conn.deliver(encode(self._leave(msg)))
                return
            league, member = self._requests[type(msg)](msg)
        except LeagueRefusal as exc:
            raise ProtocolError(exc.code, exc.message) from None
        except LeagueStoreError:
            log.exception("the leagues' store failed")
            raise ProtocolError(ErrorCode.INTERNAL, "not saved: retry later") from None
        conn.deliver(encode(self.view(league, member, getattr(msg, "id", None))))

    def _member(self, token: str) -> str:
        return self.member_of(token)

    def _league(self, league_id: str) -> League:
        league = self.store.league(league_id)
        if league is None:
            raise LeagueRefusal(RefusalCode.NOT_FOUND, "no such league")
        return league

    def _create(self, msg: m.LeagueCreate) -> tuple[League, str]:
        """A new league, its owner the member (``league.limit`` past
        :data:`~server.league.model.MAX_LEAGUES_OWNED`)."""
        member = self._member(msg.member)
        name = check_name(msg.name)
        owned = sum(1 for x in self.store.leagues_of(member) if x.owner == member)
        check_bounds(leagues_owned=owned)
        league = League(
            id=_new_id(),
            name=name,
            owner=member,
            invite=secrets.token_urlsafe(12),
            members=frozenset({member}),
            created=self.now(),
            approval=msg.approval,
        )
        self.store.add_league(league)
        return league, member

    def _join(self, msg: m.LeagueJoin) -> tuple[League, str]:
        member = self._member(msg.member)
        league = self.store.league_by_invite(msg.invite)
        if league is None:
            raise LeagueRefusal(RefusalCode.BAD_INVITE, "no league has this invite")
        if league.role_of(member) is None:  # joining twice changes nothing
            role = Role.PENDING if league.approval else Role.MEMBER
            self.store.set_role(league.id, member, role)
            league = self._league(league.id)
        return league, member

    def _get(self, msg: m.LeagueGet) -> tuple[League, str]:
        member = self._member(msg.member)
        league = self._league(msg.league)
        require(league.role_of(member), Action.VIEW)
        return league, member

    def _leave(self, msg: m.LeagueLeave) -> m.Leagues:
        """The member leaves (or withdraws his request); the owner may not: his leagues."""
        member = self._member(msg.member)
        league = self._league(msg.league)
        role = league.role_of(member)
        if role is None:
            raise LeagueRefusal(RefusalCode.NOT_MEMBER, "you are not a member of this league")
        if role is Role.OWNER:
            raise LeagueRefusal(RefusalCode.FORBIDDEN, "the owner does not leave his league")
        self.store.remove_role(league.id, member)
        return self._list(msg.member, msg.id)

    def _list(self, token: str, ref: int | None) -> m.Leagues:
        """The member's leagues from the store, whatever browser asks (his own only: the
        session names him)."""
        member = self._member(token)
        leagues = [
            {"league": x.id, "name": x.name, "role": role.value, "members": len(x.members)}
            for x in self.store.leagues_of(member)
            if (role := x.role_of(member)) is not None
        ]
        return m.Leagues(leagues=tuple(leagues), ref=ref)

    def _role(self, msg: m.LeagueRole) -> tuple[League, str]:
        """Who is what: the owner appoints a director (fpc: « un membre organisateur »),
        makes him a member again or removes a member (``none``); the owner or a director
        admits a request to join (``member``) or refuses it (``none``). Never the owner."""
        member = self._member(msg.member)
        league = self._league(msg.league)
        current = league.role_of(msg.target)
        wanted = None if msg.role == "none" else _role_named(msg.role)
        if current is Role.PENDING:
            require(league.role_of(member), Action.ADMIT)
            allowed: tuple[Role | None, ...] = (Role.MEMBER, None)
        else:
            require(league.role_of(member), Action.APPOINT_DIRECTOR)
            allowed = (Role.MEMBER, Role.DIRECTOR, None)
        if current in (None, Role.OWNER) or wanted is Role.OWNER or wanted not in allowed:
            raise LeagueRefusal(
                RefusalCode.FORBIDDEN,
                "the owner names a member director or member, or removes him; a director "
                "admits or refuses a request to join",
            )
        if wanted is None:
            self.store.remove_role(league.id, msg.target)
        elif current is not wanted:
            self.store.set_role(league.id, msg.target, wanted)
        return self._league(league.id), member

    def _settings(self, msg: m.LeagueSettings) -> tuple[League, str]:
        """The owner: whether whoever joins from now on waits for approval."""
        member = self._member(msg.member)
        league = self._league(msg.league)
        require(league.role_of(member), Action.APPOINT_DIRECTOR)
        if league.approval is not msg.approval:
            self.store.set_approval(league.id, msg.approval)
        return self._league(league.id), member

    def _directed_event(
        self, msg: m.LeagueEventCancel | m.LeagueEventClose, action: Action
    ) -> tuple[League, str, LeagueEvent]:
        """The league, the member and the event of a director's request about one event:
        ``league.not_member`` / ``league.forbidden`` unless his role allows ``action``,
        ``league.not_found`` for an event of another league."""
        member = self._member(msg.member)
        league = self._league(msg.league)
        require(league.role_of(member), action)
        event = self.store.event(msg.event)
        if event is None or event.league != league.id:
            raise LeagueRefusal(RefusalCode.NOT_FOUND, "no such event in this league")
        return league, member, event

    def _cancel(self, msg: m.LeagueEventCancel) -> tuple[League, str]:
        """An event that has not started is cancelled (ligue, « LES ÉTABLISSEMENTS » 4);
        its timer stops and nobody registers any more. A started one plays to its end
        (``league.bad_transition``)."""
        league, member, event = self._directed_event(msg, Action.CANCEL_EVENT)
        if event.status is EventStatus.RUNNING:
            raise LeagueRefusal(RefusalCode.BAD_TRANSITION, "a started event plays to its end")
        self.events.cancel(advance(event, EventStep.CANCEL, "cancelled by a director"))
        return league, member

    def _close(self, msg: m.LeagueEventClose) -> tuple[League, str]:
        """A started event's late registration is closed now (cdc 1.8: « Un délai de retard
        [...] peut étre spécifié aux joueurs dans un reglement »; fpc 2-2 by default): the
        tournament's director closes it as from his console, and an event with one player
        left ends at once. ``league.bad_transition`` when it is not open (not started,
        finished, or closed already); nothing changes."""
        league, member, event = self._directed_event(msg, Action.CLOSE_REGISTRATION)
        live = None
        single = event.kind is not EventKind.CUP and self.events.nights.night_of(event) is None
        if event.status is EventStatus.RUNNING and single:
            live = self.t.attach_tournament(event.tournament)
        state = live.coordinator.state() if live is not None and live.coordinator else {}
        if live is None or live.coordinator is None or state.get("late_left") is None:
            raise LeagueRefusal(RefusalCode.BAD_TRANSITION, "late registration is not open")
        live.coordinator.submit("close_late", {"text": f"from the league page by {member}"})
        return league, member

    def _season(self, msg: m.SeasonCreate) -> tuple[League, str]:
        member = self._member(msg.member)
        league = self._league(msg.league)
        require(league.role_of(member), Action.CREATE_SEASON)
        if capital_start(msg.points) is None:  # a cash season counts capital, not points
            season_rules(msg.points, msg.best_of)  # refuses what it cannot apply
        elif msg.best_of is not None:
            raise LeagueRefusal(RefusalCode.BAD_POINTS, "a capital season has no best-of")
        # issue 31: a cash season's game (its own capital: « Les caves sont spécifiques à
        # chaque jeu ») and its tables' betting structure
        game, structure = check_terms(msg.points, msg.game, msg.structure)
        season = Season(
            id=_new_id(),
            league=league.id,
            name=check_name(msg.name),
            points=msg.points,
            best_of=msg.best_of,
            created=self.now(),
            game=game,
            structure=structure,
        )
        self.store.add_season(season)
        return league, member

    def _event(self, msg: m.LeagueEventCreate) -> tuple[League, str]:
        member = self._member(msg.member)
        league = self._league(msg.league)
        require(league.role_of(member), Action.CREATE_EVENT)
        season = self.store.season(msg.season)
        if season is None or season.league != league.id:
            raise LeagueRefusal(RefusalCode.NOT_FOUND, "no such season in this league")
        self.events.schedule(season, msg, _new_id())
        return league, member

    # ------------------------------------------------------------------ the answer

    def view(self, league: League, member: str, ref: int | None) -> m.League:
        """The league as ``member`` sees it: the invite and the events' console tokens for
        its owner and directors only."""
        role = league.role_of(member)
        assert role is not None
        if role is Role.PENDING:  # his request is said, nothing of the league
            return m.League(league=league.id, name=league.name, role=role.value, members=0, ref=ref)
        directing = can(role, Action.SEE_INVITE)
        seasons = tuple(
            {
                "id": season.id,
                "name": season.name,
                "points": season.points,
                "best_of": None if season.capital() else season.rules().best_of,
                "capital": season.capital(),
                "game": season.game.value,
                "structure": season.structure.value,
                "events": [
                    self._event_view(e, directing, member) for e in self.store.events(season.id)
                ],
            }
            for season in self.store.seasons(league.id)
        )
        return m.League(
            league=league.id,
            name=league.name,
            role=role.value,
            members=len(league.members),
            invite=league.invite if directing else None,
            seasons=seasons,
            people=self._people(league) if can(role, Action.ADMIT) else (),
            approval=league.approval,
            ref=ref,
        )

    def _people(self, league: League) -> tuple[dict[str, Any], ...]:
        """The league's members with their roles and display names, for its owner (who
        appoints the directors) and directors (who admit the requests to join): those
        waiting first, then the owner, the directors, the members, by name."""
        rank = {Role.PENDING: 0, Role.OWNER: 1, Role.DIRECTOR: 2, Role.MEMBER: 3}
        rows = []
        for member in league.members | league.pending:
            role = league.role_of(member)
            name = self.display(member) or member
            if role is not None:
                rows.append({"member": member, "name": name, "role": role.value})
        rows.sort(key=lambda r: (rank[Role(r["role"])], r["name"].casefold(), r["member"]))
        return tuple(rows)

    def _entries_view(self, event: LeagueEvent) -> dict[str, Any]:
        """How one enters it now, from its tournament here: ``late_registration`` (started,
        still taking newcomers: fpc 2-2, ligue 6.22) and ``reentries`` (per player, tda 7)."""
        live = self.t.running(event.tournament)
        if live is None or event.status not in (EventStatus.REGISTERING, EventStatus.RUNNING):
            return {}
        state = live.coordinator.state() if live.coordinator is not None else {}
        window = live.host.config.reentry
        settings = live.host.settings
        running = event.status is EventStatus.RUNNING
        return {
            "late_registration": running and bool(state.get("late_registration")),
            # what a started event waits for and until when (issue 29): late registration
            # open to the end of level ``late_until_level`` (cdc 1.8, fpc 2-2), the seconds of
            # the tournament clock left until then, and the players still in
            "late_until_level": state.get("late_until_level"),
            "late_left": state.get("late_left") if running else None,
            "paused": bool(state.get("paused")),
            "players_left": state.get("players_left"),
            "reentries": window.max if window is not None else 0,
            "hard_stop": settings.hard_stop,
            "hard_stop_zone": settings.hard_stop_zone if settings.hard_stop else "",
        }

    def _event_view(self, event: LeagueEvent, directing: bool, member: str) -> dict[str, Any]:
        tickets = [t for t in self.store.tickets_into(event.id) if t.enters]
        out: dict[str, Any] = {
            "id": event.id,
            "name": event.name,
            "kind": event.kind.value,
            "structure": event.structure,
            "starts_at": event.starts_at,
            "requires_account": event.requires_account,
            "tournament": event.tournament,
            "status": event.status.value,
            "satellite_of": event.satellite_of,
            "note": event.note,
            "seats": event.seats,
            "qualified_top": event.qualified_top,
            "qualified_season": event.qualified_season,
            "tickets": len({t.player_id for t in tickets}),
        }
        if event.kind is EventKind.CUP:
            out["cup"] = self.events.cups.view(event)
        if self.events.nights.night_of(event) is not None:
            out["night"] = self.events.nights.view(event, member)
        out |= self._entries_view(event)
        mine = [t for t in tickets if t.player_id == member]
        if mine:
            out["ticket"] = {
                "satellite": mine[0].satellite,
                "seats": str(sum(t.seats for t in mine)),
                "registered": self.events.entries.registered(event, member),
                "note": mine[0].note,
            }
        if directing:
            out["director"] = self.t.director_token(event.tournament)
        return out

    # ------------------------------------------------------------------ registration

    def entry_for(self, conn: Entrant, tournament: str) -> str | None:
        """The player id a ``register`` of ``conn`` for ``tournament`` takes: None for a
        tournament of no league event, or a guest where the event lets guests in;
        ``m.<member>`` for a member (one person, one entry). First the one membership
        decision (:func:`~server.league_service.entries.admit_entry`, a late registration
        once the event runs): at an event that requires an account, a guest is refused
        ``league.account_required``, a member awaiting approval ``league.awaiting_approval``,
        a removed member or an account of no league ``league.not_member``. Then
        ``tournament.already_registered`` for a member entered already (from another
        connection: the director would refuse his id too) unless a satellite's ticket entered
        him (his ``register`` is then answered with his entry), and ``league.not_qualified``
        at an event for qualified players that does not admit him."""
        event = self.store.event_of_tournament(tournament)
        if event is None:
            return None
        if event.status is EventStatus.CANCELLED:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this event is cancelled")
        path = EntryPath.LATE if event.status is EventStatus.RUNNING else EntryPath.REGISTER
        admit_entry(self.store, event, conn.member, path, members_only=event.requires_account)
        if conn.member is None:
            return None
        player = f"{MEMBER_PREFIX}{conn.member}"
        live = self.t.running(tournament)
        entered = live is not None and (player in live.host.names or player in live.host.pending)
        ticket = self.events.entries.holds(event.id, conn.member)
        # a seat given by a night of Sit'n Gos, as by a ticket: answered with the entry
        ticket = ticket or self.events.nights.seated(event, conn.member)
        if entered and not (ticket and live is not None and player in live.host.names):
            raise ProtocolError(ErrorCode.ALREADY_REGISTERED, "you are already registered")
        if not entered and not ticket:
            self.events.entries.check_qualified(event, conn.member)
        return player

    def answers_itself(self, conn: Entrant, msg: m.Register) -> bool:
        """A ``register`` the league answers itself: for a heads-up cup or one of its games
        (:mod:`server.league_service.cup`), or a night of Sit'n Gos
        (:mod:`server.league_service.night`); False for any other tournament."""
        return self.events.cups.register(conn, msg) or self.events.nights.register(conn, msg)

    def taken_up(self, live: LiveTournament) -> None:
        """This process runs from now on a tournament another made (``--redis``)."""
        self.events.taken_up(live)

    def again(self, conn: Entrant, tournament: str) -> None:
        """Before a ``rebuy`` or ``reenter`` at a league event's tournament (tda 7, 26: more
        chips into it): the one membership decision again, as the league stands now
        (:attr:`~server.league.membership.EntryPath.REENTRY`): a member removed, or who
        left, since he registered is refused with its code. Nothing for another tournament."""
        event = self.store.event_of_tournament(tournament)
        if event is not None:
            admit_entry(
                self.store,
                event,
                conn.member,
                EntryPath.REENTRY,
                members_only=event.requires_account,
            )

    # ------------------------------------------------------------------ life

    def restore(self) -> None:
        """After the gateway restored its tournaments (server/__main__.py)."""
        self.events.restore()

    def close(self) -> None:
        self.events.close()
