"""The messages a member sends about his account and his leagues (docs/accounts.md,
docs/leagues.md): client -> server, gathered with the others in :mod:`protocol.messages`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import BIG, NAME, Message, _f

__all__ = [
    "AccountLogin",
    "AccountRegister",
    "AccountUpdate",
    "LeagueCreate",
    "LeagueEventCancel",
    "LeagueEventClose",
    "LeagueEventCreate",
    "LeagueGet",
    "LeagueJoin",
    "LeagueLeave",
    "LeagueList",
    "LeagueRole",
    "LeagueSettings",
    "SeasonCreate",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountRegister(Message):
    """Open a member account (leagues): answered by ``account`` with a session token."""

    TYPE: ClassVar[str] = "account_register"
    login: str = _f(32)
    password: str = _f(256)
    display: str = _f(32, "")
    lang: str = _f(8, "fr")
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountLogin(Message):
    """Log in: answered by ``account`` with a new session token."""

    TYPE: ClassVar[str] = "account_login"
    login: str = _f(32)
    password: str = _f(256)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountUpdate(Message):
    """Change one's profile (``display``, ``lang``) or password (``password`` the current
    one, ``new_password``): answered by ``account``; a new password ends every older session."""

    TYPE: ClassVar[str] = "account_update"
    token: str = _f(1024)
    display: str | None = _f(32, None)
    lang: str | None = _f(8, None)
    password: str | None = _f(256, None)
    new_password: str | None = _f(256, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueCreate(Message):
    """Create a league owned by the member of the session token ``member``: answered by
    ``league`` (with its invite)."""

    TYPE: ClassVar[str] = "league_create"
    member: str = _f(1024)
    name: str = _f(NAME)
    approval: bool = _f(1, False)
    """Whoever joins with the invite waits for an owner's or a director's approval."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueJoin(Message):
    """Join the league of an ``invite`` as a member: answered by ``league``."""

    TYPE: ClassVar[str] = "league_join"
    member: str = _f(1024)
    invite: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueGet(Message):
    """A league as the member sees it (his role, its seasons and events): ``league``."""

    TYPE: ClassVar[str] = "league_get"
    member: str = _f(1024)
    league: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueList(Message):
    """The leagues the member belongs to, whatever browser he uses: ``leagues``."""

    TYPE: ClassVar[str] = "league_list"
    member: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueLeave(Message):
    """The member leaves a league (or withdraws his request to join it); never its owner.
    Answered by ``leagues``, his leagues now."""

    TYPE: ClassVar[str] = "league_leave"
    member: str = _f(1024)
    league: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueRole(Message):
    """Who is what in a league (``target``, a member id): the owner makes a member a
    ``director`` or a plain ``member`` again, or removes him (``none``); the owner or a
    director admits a request to join (``member``) or refuses it (``none``). Answered by
    ``league``."""

    TYPE: ClassVar[str] = "league_role"
    member: str = _f(1024)
    league: str = _f(NAME)
    target: str = _f(NAME)
    role: str = _f(16)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueSettings(Message):
    """The owner changes his league's settings: ``approval`` (whoever joins with the invite
    from now on waits for an owner's or a director's approval; those waiting already stay
    so). Answered by ``league``."""

    TYPE: ClassVar[str] = "league_settings"
    member: str = _f(1024)
    league: str = _f(NAME)
    approval: bool = _f(1, False)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueEventCancel(Message):
    """An owner or director cancels an event that has not started (ligue, « LES
    ÉTABLISSEMENTS » 4: an event may not take place): ``league``."""

    TYPE: ClassVar[str] = "league_event_cancel"
    member: str = _f(1024)
    league: str = _f(NAME)
    event: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueEventClose(Message):
    """An owner or director closes the late registration of a started event now (cdc 1.8:
    the delay is the organiser's; fpc 2-2): one player left wins at once. Answered by
    ``league``; ``league.bad_transition`` when it is not open."""

    TYPE: ClassVar[str] = "league_event_close"
    member: str = _f(1024)
    league: str = _f(NAME)
    event: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonCreate(Message):
    """A league's owner or director opens a season: ``points`` is ``fpc_tour_des_potes``,
    ``fpc_sit_and_go`` or ``places:<points of the 1st,2nd,...>``; ``best_of`` overrides the
    system's N of "best N results". Answered by ``league``.

    A cash season (``points`` ``capital`` or ``capital:<N>``) names its ``game``: ``holdem``
    (the default) or ``draw`` (the fpc's « LE FIVE-CARD DRAW »: ``capital`` is then 50,000,
    an account of its own per member) and its tables' ``structure``, ``no_limit`` (default) or
    ``pot_limit``. Refused ``league.bad_game`` / ``league.bad_betting``."""

    TYPE: ClassVar[str] = "season_create"
    member: str = _f(1024)
    league: str = _f(NAME)
    name: str = _f(NAME)
    points: str = _f(1024)
    best_of: int | None = _f(1000, None)
    game: str = _f(16, "")
    """``holdem`` or ``draw``; empty: hold'em."""
    structure: str = _f(16, "")
    """``no_limit`` or ``pot_limit``; empty: no-limit."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueEventCreate(Message):
    """A league's owner or director schedules an event of a season: its tournament (the
    shipped ``structure``) is created at once, registration open, and starts by itself at
    ``starts_at`` (unix seconds) if enough players registered. Answered by ``league``.

    A ``satellite`` names its target (``satellite_of``, a later event of the league still
    registering) and its ``seats`` rule (``per:<entries per seat>[,<minimum>]`` or
    ``pool:<buy-in>,<target buy-in>[,<added>]``; default ``per:10``): its winners are
    registered in the target. A ``monthly`` or ``quarterly`` event may take qualified players
    only: ``qualified_top`` (the first N of ``qualified_season``'s standings, by default its
    own season's) and the holders of a ticket into it."""

    TYPE: ClassVar[str] = "league_event_create"
    member: str = _f(1024)
    league: str = _f(NAME)
    season: str = _f(NAME)
    name: str = _f(NAME)
    kind: str = _f(16, "tournament")
    structure: str = _f(NAME)
    starts_at: int = _f(BIG)
    requires_account: bool = _f(1, True)
    satellite_of: str | None = _f(NAME, None)
    seats: str | None = _f(NAME, None)
    qualified_top: int | None = _f(1000, None)
    qualified_season: str | None = _f(NAME, None)
    reentries: int = _f(10, 0)
    """Re-entries each player may make while late registration is open (tda 7: « Les
    joueurs ... qui « Ré-entre » »); 0: none. Refused for a structure without late
    registration."""
    hard_stop: str | None = _f(16, None)
    """``HH:MM``: the time of day the tournament is stopped at and its players still in
    ranked by their chips (fpc part C: « Si les Sit'n Go ne sont pas terminés à 23h45 »);
    ``""``: none; absent: the structure's default (``fpc_sit_and_go``: 23:45)."""
    hard_stop_zone: str = _f(NAME, "")
    """The IANA time zone of ``hard_stop``; empty: Europe/Paris."""
    night: bool = _f(1, False)
    """A night of Sit'n Gos (``kind`` ``sit_and_go``): one registration, the tables composed
    at the start (by the standings on the first Wednesday from January, fpc part C), each
    table an event of its own."""
    id: int | None = _f(BIG, None)
