"""Leagues, seasons and scheduled league events (issue 15): pure records, roles and the event
lifecycle, nothing stored or sent here (server/league/store.py stores them,
server/league_service/desk.py puts them on the wire).

- A :class:`League` has an owner, directors and members (fpc: "Le Directeur de tournoi est un
  membre organisateur"; ligue: "Les directeurs se partagent les responsabilités"). Who may do
  what is :data:`PERMISSIONS`, asked through :func:`can`.
- A :class:`Season` adds its events' results up by a points system (:func:`season_rules`):
  fpc part B "Le Tour des Potes est un championnat composé des 10 étapes par saisons", fpc
  part C's Sit'n Go table, or a league's own table of points by place.
- A :class:`LeagueEvent` is one tournament of a season at a fixed time (ligue, "LES
  ÉTABLISSEMENTS" 1: "au moins un tournoi de poker par semaine, à une heure et une journée
  fixe"). Its lifecycle is ONE table, :data:`TRANSITIONS` (h11 style): a step the table does
  not have is a :class:`LeagueRefusal` ``league.bad_transition`` and changes nothing.

Every refusal is a :class:`LeagueRefusal`, a :class:`~server.league.errors.LeagueError` whose
``code`` (``league.*``, :class:`RefusalCode`) is stable on the wire.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from server.engine.setup import Game, Structure

from .errors import LeagueConfigError, LeagueError
from .points import PlaceTable, PointsSystem
from .results import EventKind
from .satellite import DEFAULT_SEATS, QualificationRule, SeatRule, seat_rule
from .standings import FPC_SIT_AND_GO_SEASON, FPC_TOUR_DES_POTES_SEASON, SeasonRules

__all__ = [
    "EVENT_KINDS",
    "FPC_CAPITAL",
    "FPC_DRAW_CAPITAL",
    "MAX_LEAGUES_OWNED",
    "MAX_PENDING_EVENTS",
    "MAX_PLACES",
    "MAX_QUALIFIED",
    "MAX_SEASON_EVENTS",
    "PENDING_STATUSES",
    "PERMISSIONS",
    "POINTS_SYSTEMS",
    "QUALIFIED_KINDS",
    "TRANSITIONS",
    "Action",
    "EventStatus",
    "EventStep",
    "League",
    "LeagueEvent",
    "LeagueRefusal",
    "RefusalCode",
    "Role",
    "Season",
    "advance",
    "can",
    "capital_start",
    "check_bounds",
    "check_name",
    "check_terms",
    "event_date",
    "league_of",
    "require",
    "season_rules",
]


class RefusalCode(StrEnum):
    """Why a league request was refused (stable on the wire, docs/protocol.md)."""

    NOT_FOUND = "league.not_found"
    """No such league, season or event (or not of this league)."""
    NOT_MEMBER = "league.not_member"
    """The request needs a member of the league."""
    FORBIDDEN = "league.forbidden"
    """The member's role does not allow it (:data:`PERMISSIONS`)."""
    BAD_INVITE = "league.bad_invite"
    """No league has this invite."""
    BAD_NAME = "league.bad_name"
    """A name is 1 to 64 printable characters."""
    BAD_POINTS = "league.bad_points"
    """A points system this server does not know, or a best-of it cannot apply."""
    BAD_STRUCTURE = "league.bad_structure"
    """No shipped tournament structure of this name, or one that does not load."""
    BAD_GAME = "league.bad_game"
    """A season's game that is not ``holdem`` or ``draw``, a five-card draw season that does
    not count capital (fpc: draw is a cash game), or a season's table of another game."""
    BAD_BETTING = "league.bad_betting"
    """A season's betting structure that is not ``no_limit`` or ``pot_limit``, or pot-limit
    in a season of tournaments (their structures are no-limit)."""
    BAD_EVENT = "league.bad_event"
    """An event that cannot be scheduled (kind, time, satellite target, a full season)."""
    BAD_TRANSITION = "league.bad_transition"
    """A step the event lifecycle does not allow from the event's status."""
    ACCOUNT_REQUIRED = "league.account_required"
    """The event requires a member account: log in, then register."""
    NOT_QUALIFIED = "league.not_qualified"
    """The event takes qualified players only (the top of a season's standings, or a
    satellite's ticket), and the member is not one of them."""
    AWAITING_APPROVAL = "league.awaiting_approval"
    """The member asked to join a league whose directors approve its members: nothing
    until one of them does."""
    LIMIT = "league.limit"
    """A bound of :func:`check_bounds` is reached (leagues owned, events in a season, events
    not yet played in a league): nothing was created."""


class LeagueRefusal(LeagueError):
    """A league request refused; ``code`` is a :class:`RefusalCode` value."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(message)
        self.code = code.value
        self.message = message


# ============================================================ roles


class Role(StrEnum):
    OWNER = "owner"
    """Created the league; one per league."""
    DIRECTOR = "director"
    """Runs the league's events (fpc: "un membre organisateur")."""
    MEMBER = "member"
    """Joined with the invite; plays and reads the league."""
    PENDING = "pending"
    """Asked to join with the invite a league that approves its members (``approval``):
    may do nothing until an owner or a director admits him (or refuses him)."""


class Action(StrEnum):
    VIEW = "view"
    """Read the league, its seasons and events."""
    SEE_INVITE = "see_invite"
    """Read the invite that makes new members."""
    CREATE_SEASON = "create_season"
    CREATE_EVENT = "create_event"
    """Schedule an event (its tournament is created at once, registration open)."""
    CANCEL_EVENT = "cancel_event"
    CLOSE_REGISTRATION = "close_registration"
    """Close a started event's late registration now (cdc 1.8: the organiser's delay)."""
    ADMIT = "admit"
    """Admit or refuse a request to join (a ``pending`` member)."""
    APPOINT_DIRECTOR = "appoint_director"
    """Make a member a director or a member again, remove a member, set the league's
    settings: the owner's."""


_DIRECTING = frozenset(
    {
        Action.VIEW,
        Action.SEE_INVITE,
        Action.CREATE_SEASON,
        Action.CREATE_EVENT,
        Action.CANCEL_EVENT,
        Action.CLOSE_REGISTRATION,
        Action.ADMIT,
    }
)

PERMISSIONS: Mapping[Role, frozenset[Action]] = MappingProxyType(
    {
        Role.OWNER: _DIRECTING | {Action.APPOINT_DIRECTOR},
        Role.DIRECTOR: _DIRECTING,
        Role.MEMBER: frozenset({Action.VIEW}),
        Role.PENDING: frozenset(),
    }
)
"""What each role may do; nobody outside the league (role None) may do anything."""


def can(role: Role | None, action: Action) -> bool:
    """Whether ``role`` (None: not a member) may do ``action``."""
    return role is not None and action in PERMISSIONS[role]


def require(role: Role | None, action: Action) -> None:
    """Raise ``league.not_member`` (role None) or ``league.forbidden`` unless :func:`can`."""
    if role is None:
        raise LeagueRefusal(RefusalCode.NOT_MEMBER, "you are not a member of this league")
    if role is Role.PENDING:
        raise LeagueRefusal(
            RefusalCode.AWAITING_APPROVAL, "your request to join waits for a director's approval"
        )
    if not can(role, action):
        raise LeagueRefusal(RefusalCode.FORBIDDEN, f"a {role.value} may not {action.value}")


def check_name(text: str) -> str:
    """A league, season or event name: spaces folded, 1 to 64 printable characters."""
    name = " ".join(text.split()) if isinstance(text, str) else ""
    if not name or len(name) > 64 or not name.isprintable():
        raise LeagueRefusal(RefusalCode.BAD_NAME, "a name is 1 to 64 printable characters")
    return name


@dataclass(frozen=True, slots=True, kw_only=True)
class League:
    id: str
    name: str
    owner: str
    """The owner's member id."""
    invite: str
    """Whoever holds it may join as a member (shown to the owner and directors only)."""
    directors: frozenset[str] = frozenset()
    members: frozenset[str] = frozenset()
    """Every member id of the league, the owner and the directors included."""
    created: float = 0.0
    approval: bool = False
    """Whoever joins with the invite waits for an owner's or a director's approval."""
    pending: frozenset[str] = frozenset()
    """Who asked to join and waits (not members)."""
    removed: frozenset[str] = frozenset()
    """Who was in the league (or asked to be) and is no more: removed by the owner, refused
    by a director, or who left. Not members; rejoining with the invite takes one out of it
    (:mod:`server.league.membership` refuses them ``league.not_member``)."""

    def role_of(self, member: str) -> Role | None:
        if member == self.owner:
            return Role.OWNER
        if member in self.directors:
            return Role.DIRECTOR
        if member in self.members:
            return Role.MEMBER
        if member in self.pending:
            return Role.PENDING
        return None


def league_of(
    lid: str,
    name: str,
    owner: str,
    invite: str,
    created: float,
    approval: bool,
    roles: Iterable[tuple[str, str]],
    removed: Iterable[str] = (),
) -> League:
    """A league from its stored fields, its ``(member, role)`` rows and the members it
    removed (either store)."""
    by_role: dict[str, set[str]] = {role.value: set() for role in Role}
    for member, role in roles:
        by_role.setdefault(role, set()).add(member)
    pending = by_role[Role.PENDING.value]
    return League(
        id=lid,
        name=name,
        owner=owner,
        invite=invite,
        directors=frozenset(by_role[Role.DIRECTOR.value]),
        members=frozenset(set().union(*by_role.values()) - pending),
        created=created,
        approval=approval,
        pending=frozenset(pending),
        removed=frozenset(removed) - set().union(*by_role.values()),
    )


# ============================================================ seasons and points

POINTS_SYSTEMS = ("fpc_tour_des_potes", "fpc_sit_and_go", "places:")
"""The points systems a season may name (``places:`` is followed by the points by place)."""

MAX_PLACES = 100
"""Places a ``places:`` table may print."""


def _places(spec: str) -> PointsSystem:
    """``places:20,16,12``: points of the 1st, 2nd, 3rd...; places beyond the table score 0.
    The points may not rise from one place to the next (a rising table is a typing error)."""
    cells = spec.split(",")
    if not 1 <= len(cells) <= MAX_PLACES or not all(c.strip().isdigit() for c in cells):
        raise LeagueRefusal(
            RefusalCode.BAD_POINTS, f"places: 1 to {MAX_PLACES} numbers separated by commas"
        )
    points = tuple(int(c) for c in cells)
    if any(p > 1_000_000 for p in points) or list(points) != sorted(points, reverse=True):
        raise LeagueRefusal(
            RefusalCode.BAD_POINTS, "places: points from the 1st down, none above 1,000,000"
        )
    return PlaceTable(points=points)


FPC_CAPITAL = 40_000
"""fpc cash: « Chaque adhérent se voit attribuer un capital de départ de 40 000 jetons »."""


FPC_DRAW_CAPITAL = 50_000
"""fpc LE FIVE-CARD DRAW: « Chaque adhérent se voit attribuer un capital de départ de 50 000
jetons » (server.cash.rules.FPC_DRAW_CAPITAL, the same book's line)."""


def capital_start(points: str, game: Game = Game.HOLDEM) -> int | None:
    """A cash season's starting capital (``capital``: the fpc's, 40,000 at hold'em and
    50,000 at five-card draw; ``capital:<N>``), None for a points season. Its standings are
    the members' capitals, moved by their cash tables' ledgers (« Ses gains et ses pertes
    feront évoluer son capital et ainsi donnera le classement général »). Raises
    ``league.bad_points`` for a capital that is not a whole number from 500 to
    10,000,000."""
    if points == "capital":
        return FPC_DRAW_CAPITAL if game is Game.DRAW else FPC_CAPITAL
    if not points.startswith("capital:"):
        return None
    text = points.removeprefix("capital:")
    if not text.isdecimal() or not 500 <= int(text) <= 10_000_000:
        raise LeagueRefusal(RefusalCode.BAD_POINTS, "capital:<a whole number of chips>")
    return int(text)


def season_rules(points: str, best_of: int | None = None) -> SeasonRules:
    """The :class:`SeasonRules` of a season's points system name, ``best_of`` overriding the
    book's N. Raises ``league.bad_points``.

    - ``fpc_tour_des_potes``: fpc part B, "il sera retenu les 9 meilleurs résultats sur 10"
      (at most 10 events a season);
    - ``fpc_sit_and_go``: fpc part C, "ses 30 meilleurs résultats", and "on accorde 2 points
      supplémentaires à celui qui élimine le premier du classement général";
    - ``places:<points by place>``: every result counts unless ``best_of`` is given.
    """
    system: SeasonRules
    if points == "fpc_tour_des_potes":
        system = FPC_TOUR_DES_POTES_SEASON
    elif points == "fpc_sit_and_go":
        system = FPC_SIT_AND_GO_SEASON
    elif points.startswith("places:"):
        system = SeasonRules(points=_places(points.removeprefix("places:")))
    else:
        raise LeagueRefusal(
            RefusalCode.BAD_POINTS,
            "points: fpc_tour_des_potes, fpc_sit_and_go or places:<points by place>",
        )
    if best_of is None:
        return system
    try:
        return dataclasses.replace(system, best_of=best_of)
    except LeagueConfigError as exc:
        raise LeagueRefusal(RefusalCode.BAD_POINTS, str(exc)) from None


def check_terms(points: str, game: str, structure: str) -> tuple[Game, Structure]:
    """The game and betting structure of a season a director opens (empty: hold'em,
    no-limit). Raises ``league.bad_game`` for another game or a draw season that counts
    points (fpc: « LE FIVE-CARD DRAW » is a cash game, with its own capital),
    ``league.bad_betting`` for another structure or pot-limit in a points season."""
    try:
        chosen = Game(game or Game.HOLDEM.value)
    except ValueError:
        raise LeagueRefusal(RefusalCode.BAD_GAME, "game: holdem or draw") from None
    try:
        betting = Structure(structure or Structure.NO_LIMIT.value)
    except ValueError:
        raise LeagueRefusal(RefusalCode.BAD_BETTING, "structure: no_limit or pot_limit") from None
    cash = capital_start(points, chosen) is not None
    if chosen is Game.DRAW and not cash:
        raise LeagueRefusal(
            RefusalCode.BAD_GAME, "a five-card draw season counts capital (points: capital)"
        )
    if betting is not Structure.NO_LIMIT and not cash:
        raise LeagueRefusal(RefusalCode.BAD_BETTING, "a season of tournaments is no-limit")
    return chosen, betting


@dataclass(frozen=True, slots=True, kw_only=True)
class Season:
    id: str
    league: str
    name: str
    points: str
    """A points system name (:func:`season_rules`)."""
    best_of: int | None = None
    """N of "best N of M" when the director sets it; None: the system's own."""
    created: float = 0.0
    game: Game = Game.HOLDEM
    """A cash season's game: its tables deal it and its capital is that game's (fpc: « Les
    caves sont spécifiques à chaque jeu »). A season stored before draw existed is hold'em."""
    structure: Structure = Structure.NO_LIMIT
    """A cash season's betting structure: its tables' unless one names another."""

    def rules(self) -> SeasonRules:
        return season_rules(self.points, self.best_of)

    def capital(self) -> int | None:
        """The starting capital of each member's account (None: a points season)."""
        return capital_start(self.points, self.game)


# ============================================================ events and their lifecycle


class EventStatus(StrEnum):
    SCHEDULED = "scheduled"
    """Recorded; its tournament is being created."""
    REGISTERING = "registering"
    """Its tournament exists and takes registrations until it starts."""
    RUNNING = "running"
    FINISHED = "finished"
    """Its result is stored: it counts in the season's standings."""
    CANCELLED = "cancelled"


class EventStep(StrEnum):
    OPEN = "open"
    """The tournament is created, registration opens."""
    START = "start"
    """The tournament started (at its time, or from the director's console)."""
    FINISH = "finish"
    """The tournament finished and its result is stored."""
    CANCEL = "cancel"


S, T = EventStatus, EventStep

TRANSITIONS: Mapping[tuple[EventStatus, EventStep], EventStatus] = MappingProxyType(
    {
        (S.SCHEDULED, T.OPEN): S.REGISTERING,
        (S.REGISTERING, T.START): S.RUNNING,
        (S.RUNNING, T.FINISH): S.FINISHED,
        (S.SCHEDULED, T.CANCEL): S.CANCELLED,
        (S.REGISTERING, T.CANCEL): S.CANCELLED,
        # ligue, "LES ÉTABLISSEMENTS" 4: an event may not take place; an in-memory tournament
        # that a restart interrupted is not resumed (docs/tournaments.md)
        (S.RUNNING, T.CANCEL): S.CANCELLED,
    }
)
"""Every allowed step of an event: a pair not here is refused (``league.bad_transition``)."""

EVENT_KINDS = frozenset(
    {
        EventKind.TOURNAMENT,
        EventKind.SIT_AND_GO,
        EventKind.SATELLITE,
        EventKind.MONTHLY,
        EventKind.QUARTERLY,
        EventKind.CUP,
    }
)
"""The kinds of event a director schedules (ligue: "journalier, mensuel et sit&go", and the
"Trimestriel")."""

QUALIFIED_KINDS = frozenset({EventKind.MONTHLY, EventKind.QUARTERLY})
"""The kinds that may take qualified players only (ligue, PRÉAVIS note 1: "Pour les soirs de
mensuel afin de permettre aux joueurs classés de jouer le journalier")."""

MAX_QUALIFIED = 1000
"""The largest "top N" a qualification names."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueEvent:
    id: str
    league: str
    season: str
    name: str
    kind: EventKind
    structure: str
    """The shipped tournament structure it plays (a file name of docs/tournaments/)."""
    starts_at: int
    """Unix seconds: the tournament starts then if enough players registered."""
    requires_account: bool
    """Only members logged in may register, each once (one person, one entry)."""
    tournament: str
    """The id of its tournament on this server."""
    status: EventStatus = EventStatus.SCHEDULED
    satellite_of: str | None = None
    """A satellite's target event: its winners' tickets register them there."""
    seats: str | None = None
    """A satellite's seat rule (:func:`~server.league.satellite.seat_rule`: ``per:10``...)."""
    qualified_top: int | None = None
    """Qualified players only: the first N of :attr:`qualified_season`'s standings (ties at
    the cut included), and the holders of a satellite's ticket into this event."""
    qualified_season: str | None = None
    """The season whose standings qualify (this league's; by default the event's own)."""
    final_table_size: int | None = None
    """The structure's final table (fpc part B: it sets the Tour des Potes points)."""
    note: str = ""
    """Why it is where it is (not started at its time, interrupted...), for the directors."""

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise LeagueRefusal(RefusalCode.BAD_EVENT, f"kind: one of {sorted(EVENT_KINDS)}")
        if (self.kind is EventKind.SATELLITE) != (self.satellite_of is not None):
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT, "a satellite, and only a satellite, names its target"
            )
        if self.seats is not None:
            if self.kind is not EventKind.SATELLITE:
                raise LeagueRefusal(RefusalCode.BAD_EVENT, "only a satellite has seats")
            try:
                seat_rule(self.seats)
            except LeagueConfigError as exc:
                raise LeagueRefusal(RefusalCode.BAD_EVENT, str(exc)) from None
        if self.qualified_top is not None or self.qualified_season is not None:
            self._check_qualification()

    def _check_qualification(self) -> None:
        top = self.qualified_top
        if self.kind not in QUALIFIED_KINDS:
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT, "qualified players only: a monthly or quarterly event"
            )
        if top is None or not 1 <= top <= MAX_QUALIFIED or self.qualified_season is None:
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT,
                f"qualified players only: the top 1 to {MAX_QUALIFIED} of a season",
            )
        if not self.requires_account:
            raise LeagueRefusal(
                RefusalCode.BAD_EVENT, "qualified players only: an event that requires accounts"
            )

    def seat_rule(self) -> SeatRule:
        """A satellite's rule (:data:`~server.league.satellite.DEFAULT_SEATS` if none)."""
        return seat_rule(self.seats or DEFAULT_SEATS)

    def qualification(self) -> QualificationRule | None:
        """The event's "qualified players only" rule, None for an open event."""
        if self.qualified_top is None:
            return None
        return QualificationRule(kind=self.kind, top=self.qualified_top)


# ============================================================ bounds (issue 26)

MAX_LEAGUES_OWNED = 5
"""Leagues one account may own. A person runs a league or two (a club, a bar, friends, one
per game); five leaves room, and bounds what one account can make others list and keep."""

MAX_SEASON_EVENTS = 400
"""Events of one season, every kind and status but cancelled (a night's tables count: they
are events of the season). A season is a year at most: an event every day is 365, weekly
nights of Sit'n Gos with a few tables each (52 x (1 + tables)) about 250; 400 covers both,
and stops a flood at 400 stored rows per season."""

MAX_PENDING_EVENTS = 40
"""Events of one league not played yet (scheduled, registering or running). Each holds a
tournament in memory and is listed publicly until it is played: a weekly event scheduled
nine months ahead, or every day for more than a month, fits; one account's leagues hold at
most ``MAX_LEAGUES_OWNED * MAX_PENDING_EVENTS`` (200) such tournaments, not 300 in 14 s."""

PENDING_STATUSES = frozenset({EventStatus.SCHEDULED, EventStatus.REGISTERING, EventStatus.RUNNING})
"""The statuses of an event not played yet (:data:`MAX_PENDING_EVENTS`)."""


def check_bounds(
    *,
    leagues_owned: int | None = None,
    season_events: int | None = None,
    pending_events: int | None = None,
) -> None:
    """Refuse ``league.limit`` a new league when its owner owns :data:`MAX_LEAGUES_OWNED`
    already, or a new event when its season has :data:`MAX_SEASON_EVENTS` or its league
    :data:`MAX_PENDING_EVENTS` not played yet (counts as they are before the creation;
    None: not asked)."""
    if leagues_owned is not None and leagues_owned >= MAX_LEAGUES_OWNED:
        raise LeagueRefusal(
            RefusalCode.LIMIT, f"an account owns at most {MAX_LEAGUES_OWNED} leagues"
        )
    if season_events is not None and season_events >= MAX_SEASON_EVENTS:
        raise LeagueRefusal(RefusalCode.LIMIT, f"a season has at most {MAX_SEASON_EVENTS} events")
    if pending_events is not None and pending_events >= MAX_PENDING_EVENTS:
        raise LeagueRefusal(
            RefusalCode.LIMIT,
            f"a league has at most {MAX_PENDING_EVENTS} events not played yet: "
            "schedule more once some are played",
        )


def advance(event: LeagueEvent, step: EventStep, note: str = "") -> LeagueEvent:
    """The event after ``step`` (:data:`TRANSITIONS`); ``league.bad_transition`` otherwise."""
    after = TRANSITIONS.get((event.status, step))
    if after is None:
        raise LeagueRefusal(
            RefusalCode.BAD_TRANSITION,
            f"event {event.id}: cannot {step.value} when {event.status.value}",
        )
    return dataclasses.replace(event, status=after, note=note)


def event_date(event: LeagueEvent) -> datetime.date:
    """The date an event's result carries: the UTC day of its start (fpc part C: "Tous les
    Sit'n Go commencent en même temps", one date for the tables of one night)."""
    return datetime.datetime.fromtimestamp(event.starts_at, datetime.UTC).date()
