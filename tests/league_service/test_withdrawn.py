"""Issue 26: a member removed from the league (or who left it) after registering for its cup
or one of its nights is not drawn nor seated: the draw and the composition ask the one
membership decision again, as the league stands at the event's time (in a gateway, without
sockets)."""

from __future__ import annotations

import datetime

import pytest

from protocol import messages as m
from server.accounts import Member
from server.league.cup import Bracket
from server.league.model import EventStatus

from .test_desk import Conn, World, league_with_season, schedule

LOGINS = ("ana", "bob", "cat", "dan")
NIGHT = (*LOGINS, "eve", "fay", "gus")  # fpc Sit'n Go: « de 6 joueurs (minimum) »


class Entrant:
    """What the league service uses of a connection that registers."""

    def __init__(self, login: str) -> None:
        self.member: str | None = f"id-{login}"
        self.nickname = login.title()
        self.sent: list[bytes] = []
        self.tournaments: set[str] = set()
        self.registered: set[str] = set()

    def deliver(self, data: bytes) -> None:
        self.sent.append(data)


def world_of(logins: tuple[str, ...] = LOGINS) -> World:
    w = World()  # ana, bob and cat
    for login in logins[3:]:
        member = Member(
            id=f"id-{login}", login=login, display=login.title(), lang="fr", password_hash="x"
        )
        w.members.add(member)
        w.tokens[login] = w.g.accounts.token(member)
    return w


def club(
    w: World, kind: str, logins: tuple[str, ...] = LOGINS, **more: object
) -> tuple[str, dict[str, object]]:
    """A league of ana (owner) and ``logins``, and one event of ``kind`` in an hour."""
    made, season = league_with_season(w)  # ana and bob
    assert made.invite is not None
    for login in logins[2:]:
        w.ask(login, m.LeagueJoin(member=w.tokens[login], invite=made.invite))
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    got = schedule(w, made.league, season, "Soirée", at, kind=kind, **more)
    event = next(e for s in got.seasons for e in s["events"] if e["name"] == "Soirée")
    return made.league, event


def register_all(w: World, tournament: str, logins: tuple[str, ...] = LOGINS) -> None:
    for login in logins:
        assert w.g.leagues.answers_itself(Entrant(login), m.Register(tournament=tournament, id=1))


@pytest.mark.asyncio
async def test_a_member_removed_after_registering_for_the_cup_is_not_drawn() -> None:
    w = world_of()
    league, cup = club(w, "cup", structure="")
    register_all(w, str(cup["tournament"]))
    w.ask("ana", m.LeagueRole(member=w.tokens["ana"], league=league, target="id-dan", role="none"))
    event = w.leagues.event(str(cup["id"]))
    assert event is not None
    assert w.g.leagues.events.cups.start(event)
    state = w.leagues.event_state(event.id)
    assert state is not None
    assert set(state["registered"]) == {"id-ana", "id-bob", "id-cat"}
    bracket = Bracket.from_state(state["bracket"])
    drawn = {p for match in bracket.matches for p in match.players if p is not None}
    assert drawn == {"id-ana", "id-bob", "id-cat"}  # dan, removed, is not drawn
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_too_few_left_after_withdrawals_the_cup_waits_and_says_so() -> None:
    w = world_of()
    league, cup = club(w, "cup", structure="")
    register_all(w, str(cup["tournament"]))
    for login in ("cat", "dan"):  # one removed, one leaves
        if login == "cat":
            target = m.LeagueRole(
                member=w.tokens["ana"], league=league, target="id-cat", role="none"
            )
            w.ask("ana", target)
        else:
            conn = Conn("id-dan")
            w.g.leagues.handle(conn, m.LeagueLeave(member=w.tokens["dan"], league=league))  # type: ignore[arg-type]
    event = w.leagues.event(str(cup["id"]))
    assert event is not None
    assert not w.g.leagues.events.cups.start(event)
    state = w.leagues.event_state(event.id)
    assert state is not None and "bracket" not in state
    assert set(state["registered"]) == {"id-ana", "id-bob"}
    again = w.leagues.event(event.id)
    assert again is not None and again.status is EventStatus.REGISTERING
    assert "2 registered" in again.note
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_a_member_removed_after_registering_for_a_night_is_not_seated() -> None:
    w = world_of(NIGHT)
    league, night = club(w, "sit_and_go", NIGHT, structure="fpc_sit_and_go", night=True)
    register_all(w, str(night["tournament"]), NIGHT)
    w.ask("ana", m.LeagueRole(member=w.tokens["ana"], league=league, target="id-bob", role="none"))
    event = w.leagues.event(str(night["id"]))
    assert event is not None
    w.g.leagues.events.nights.start(event)
    state = w.leagues.event_state(event.id)
    assert state is not None and "seats" in state, state
    seated = {p for table in state["seats"] for p in table}
    assert seated == {f"id-{login}" for login in NIGHT} - {"id-bob"}
    w.g.leagues.close()
