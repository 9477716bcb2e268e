"""The messages the gateway answers itself (the rest go to their table), and its handlers of
a tournament's registration: a module beside the gateway, which reads ``ROUTES``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.gateway.accounts import AccountDesk
from server.gateway.cash_room import RoomHost, change_table, host_or_room
from server.gateway.connection import Connection
from server.gateway.guard import Guard
from server.league_service import LeagueDesk, register_as
from server.table.clock import Clock
from server.tournament.live import LiveTournament

__all__ = ["ROUTES", "RouteHost", "call_director", "follow", "register"]


class RouteHost(RoomHost, Protocol):
    """What the routes ask of the process around them (the gateway satisfies it; this module
    never imports the gateway)."""

    @property
    def guard(self) -> Guard: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def accounts(self) -> AccountDesk: ...
    @property
    def leagues(self) -> LeagueDesk: ...
    @property
    def tournaments(self) -> Mapping[str, LiveTournament]: ...
    def live_tournament(self, tid: str) -> LiveTournament: ...
    def create_on_request(self, conn: Connection, message: m.CreateTable) -> None: ...
    def join_table(self, conn: Connection, message: m.JoinTable) -> None: ...
    def take_seat(self, conn: Connection, message: m.TakeSeat) -> None: ...


def register(g: RouteHost, conn: Connection, message: m.Register) -> None:
    if not conn.nickname:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "say hello with a nickname first")
    if g.leagues.answers_itself(conn, message):
        return  # a league's heads-up cup, one of its games, or a night of Sit'n Gos
    live = g.live_tournament(message.tournament)
    # a league event: an account may be required, and a member enters under his own id
    player = g.leagues.entry_for(conn, message.tournament)
    if message.tournament in conn.registered:
        # one entry per person: a new nickname on the same connection is the same person
        raise ProtocolError(ErrorCode.ALREADY_REGISTERED, "you are already registered")
    if not g.guard.registrations.take(conn.address, g.clock.now()):
        raise ProtocolError(
            ErrorCode.REGISTRATION_LIMIT,
            "too many registrations from your address: try again later",
        )
    conn.registered.add(message.tournament)
    conn.tournaments.add(message.tournament)
    if player is None:
        live.host.register(conn, conn.nickname, message.id, lobby=message.lobby)
    else:
        register_as(live, conn, player, conn.nickname, message.id, lobby=message.lobby)


def again(g: RouteHost, conn: Connection, message: m.Rebuy | m.Reenter) -> None:
    """A ``rebuy`` or ``reenter``: at a league event, the league admits the member again
    first (server.league_service.desk.LeagueDesk.again), then the host asks the director."""
    live = g.live_tournament(message.tournament)
    g.leagues.again(conn, message.tournament)
    live.host.again(conn, message)


def follow(g: RouteHost, conn: Connection, message: m.FollowTournament) -> None:
    live = g.live_tournament(message.tournament)
    conn.tournaments.add(message.tournament)
    live.host.follow(conn, message.token, lobby=message.lobby)
    if message.token:  # a registered player (the token was checked): no second entry
        conn.registered.add(message.tournament)


def call_director(g: RouteHost, conn: Connection, message: m.CallDirector) -> None:
    tid = g.table_actor(message.table).config.extra.get("tournament")
    if not isinstance(tid, str) or tid not in g.tournaments:
        raise ProtocolError(ErrorCode.NOT_SEATED, "no director at a friends table")
    g.tournaments[tid].host.call_director(conn, message.table, message.hand, message.text)


def league_request(g: RouteHost, conn: Connection, msg: m.Message) -> None:
    """Every league request goes to the league service's desk."""
    g.leagues.handle(conn, msg)


ROUTES: dict[type[m.Message], Callable[[RouteHost, Connection, Any], None]] = {
    m.CreateTable: lambda g, conn, msg: g.create_on_request(conn, msg),
    m.Register: register,
    m.FollowTournament: follow,
    m.Direct: lambda g, conn, msg: g.live_tournament(msg.tournament).host.console(conn, msg),
    m.Abandon: lambda g, conn, msg: g.live_tournament(msg.tournament).host.abandon(msg.token),
    m.Rebuy: again,
    m.Reenter: again,
    m.CallDirector: call_director,
    m.JoinTable: lambda g, conn, msg: g.join_table(conn, msg),
    m.TakeSeat: lambda g, conn, msg: g.take_seat(conn, msg),
    m.Host: host_or_room,
    m.ChangeTable: change_table,
    m.AccountRegister: lambda g, conn, msg: g.accounts.register(conn, msg),
    m.AccountLogin: lambda g, conn, msg: g.accounts.login(conn, msg),
    m.AccountUpdate: lambda g, conn, msg: g.accounts.update(conn, msg),
    m.LeagueCreate: league_request,
    m.LeagueJoin: league_request,
    m.LeagueGet: league_request,
    m.SeasonCreate: league_request,
    m.LeagueEventCreate: league_request,
    m.LeagueList: league_request,
    m.LeagueLeave: league_request,
    m.LeagueRole: league_request,
    m.LeagueEventCancel: league_request,
    m.LeagueEventClose: league_request,
    m.LeagueSettings: league_request,
}
"""The messages the gateway answers itself (the rest go to their table)."""
