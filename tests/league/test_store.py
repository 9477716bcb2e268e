"""The leagues' stores: the SQLite file (server/league/store.py), on real files, and Redis
(server/league/redis_store.py, ``--redis``), on the suite's real redis-server. For both:
everything comes back in a store opened again (another process's view), a result is stored
once (a satellite's tickets with it), a write refused changes nothing. The SQLite file alone:
a write that fails halfway changes nothing, an older file gains the columns added since.
Redis alone (a race, a restart, an outage): tests/league/test_redis_store.py."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import redis

from server.league import EventKind, SeatPlan, SeatsPerEntries, issue_tickets
from server.league.model import (
    EventStatus,
    EventStep,
    League,
    LeagueEvent,
    Role,
    Season,
    advance,
    season_rules,
)
from server.league.redis_store import RedisLeagueStore
from server.league.standings import standings
from server.league.store import LeagueBook, LeagueStore, LeagueStoreError

from .helpers import day, finish

LEAGUE = League(
    id="l1", name="Les Potes", owner="ana", invite="inv-1", members=frozenset({"ana"}), created=1.5
)
SEASON = Season(id="s1", league="l1", name="2026", points="places:10,6,3", best_of=2, created=2.0)


def event_n(n: int, status: EventStatus = EventStatus.SCHEDULED) -> LeagueEvent:
    return LeagueEvent(
        id=f"e{n}",
        league="l1",
        season="s1",
        name=f"Etape {n}",
        kind=EventKind.TOURNAMENT,
        structure="tour_des_potes_bb_ante",
        starts_at=1_790_000_000 + n * 86400,
        requires_account=n % 2 == 1,
        tournament=f"league_e{n}",
        status=status,
        final_table_size=9,
    )


Opener = Callable[[], LeagueBook]
"""A new store object on the same data: the file opened again, or another Redis client."""


@pytest.fixture(params=["sqlite", "redis"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    clients: list[redis.Redis] = []
    if request.param == "sqlite":
        yield lambda: LeagueStore(tmp_path / "leagues.sqlite")
        return
    url: str = request.getfixturevalue("redis_url")
    prefix: str = request.getfixturevalue("redis_prefix")

    def open_redis() -> LeagueBook:
        clients.append(redis.Redis.from_url(url))
        return RedisLeagueStore(clients[-1], prefix)

    yield open_redis
    for client in clients:
        client.close()


def filled(path: Path | Opener) -> LeagueBook:
    store = LeagueStore(path) if isinstance(path, Path) else path()
    store.add_league(LEAGUE)
    store.set_role("l1", "bob", Role.MEMBER)
    store.set_role("l1", "cat", Role.DIRECTOR)
    store.add_season(SEASON)
    for n in (1, 2):
        store.add_event(event_n(n))
    return store


def test_everything_comes_back_after_a_reopen(opener: Opener) -> None:
    store = filled(opener)
    running = advance(advance(event_n(1), EventStep.OPEN), EventStep.START, "on time")
    store.update_event(running)
    store.add_elimination("e1", "bob", 1, ("ana",))
    store.close()

    again = opener()
    league = again.league("l1")
    assert league == dataclasses.replace(
        LEAGUE, members=frozenset({"ana", "bob", "cat"}), directors=frozenset({"cat"})
    )
    assert again.league_by_invite("inv-1") == league and again.league_by_invite("x") is None
    assert [league.role_of(p) for p in ("ana", "bob", "cat")] == [
        Role.OWNER,
        Role.MEMBER,
        Role.DIRECTOR,
    ]
    assert again.season("s1") == SEASON and again.seasons("l1") == [SEASON]
    assert again.events("s1") == [running, event_n(2)]
    assert again.event_of_tournament("league_e2") == event_n(2)
    assert again.events_in([EventStatus.RUNNING]) == [running]
    assert again.eliminations("e1") == {("bob", 1): ("ana",)}
    assert again.league("nope") is None and again.event("nope") is None
    again.close()


def test_a_member_s_leagues_with_any_role(opener: Opener) -> None:
    store = filled(opener)
    other = dataclasses.replace(
        LEAGUE, id="l2", name="Le Club", owner="bob", invite="inv-2", created=9.0
    )
    store.add_league(other)
    store.set_role("l2", "cat", Role.MEMBER)
    store.close()
    again = opener()
    assert [x.id for x in again.leagues_of("ana")] == ["l1"]
    assert [x.id for x in again.leagues_of("bob")] == ["l1", "l2"]  # a member, then an owner
    assert [x.id for x in again.leagues_of("cat")] == ["l1", "l2"]
    assert again.leagues_of("nobody") == []
    again.close()


def test_requests_to_join_removals_and_approval_are_kept(opener: Opener) -> None:
    store = filled(opener)  # ana owns l1; bob a member, cat a director
    store.set_approval("l1", True)
    store.set_role("l1", "dan", Role.PENDING)
    store.remove_role("l1", "bob")
    store.remove_role("l1", "ana")  # the owner stays the owner
    store.close()
    again = opener()
    league = again.league("l1")
    assert league is not None and league.approval
    assert league.members == frozenset({"ana", "cat"}) and league.pending == frozenset({"dan"})
    assert league.removed == frozenset({"bob"})
    assert [league.role_of(x) for x in ("ana", "bob", "cat", "dan")] == [
        Role.OWNER,
        None,
        Role.DIRECTOR,
        Role.PENDING,
    ]
    assert again.leagues_of("bob") == [] and [x.id for x in again.leagues_of("dan")] == ["l1"]
    again.set_role("l1", "dan", Role.MEMBER)
    again.set_approval("l1", False)
    league = again.league("l1")
    assert league is not None and not league.approval and "dan" in league.members
    assert not league.pending
    again.close()


def test_the_league_remembers_who_it_removed_until_he_rejoins(opener: Opener) -> None:
    """Removed by the owner, refused by a director, or left: kept as removed (the
    membership decision refuses them ``league.not_member``, not as strangers); joining
    again ends it, as a member or, under approval, as a request."""
    store = filled(opener)  # ana owns l1; bob a member, cat a director
    store.set_role("l1", "dan", Role.PENDING)
    store.remove_role("l1", "bob")  # removed by the owner
    store.remove_role("l1", "dan")  # his request refused
    store.remove_role("l1", "cat")  # a director who leaves
    store.remove_role("l1", "ana")  # the owner stays the owner, never removed
    store.remove_role("l1", "eve")  # never in it: not removed
    store.close()
    again = opener()
    league = again.league("l1")
    assert league is not None
    assert league.removed == frozenset({"bob", "cat", "dan"})
    assert league.members == frozenset({"ana"}) and not league.pending
    assert [league.role_of(x) for x in ("bob", "cat", "dan")] == [None, None, None]
    assert again.leagues_of("bob") == []
    again.set_role("l1", "bob", Role.MEMBER)  # rejoins with the invite
    again.set_role("l1", "dan", Role.PENDING)  # asks again, under approval
    again.close()
    third = opener()
    league = third.league("l1")
    assert league is not None and league.removed == frozenset({"cat"})
    assert "bob" in league.members and league.pending == frozenset({"dan"})
    third.close()


def test_a_cup_s_state_comes_back_as_it_was_last_saved(opener: Opener) -> None:
    store = filled(opener)
    assert store.event_state("e1") is None  # not drawn yet
    store.save_event_state("e1", {"bracket": {"players": ["ana", "bob"]}, "games": {"1/2#1": 1}})
    store.save_event_state("e1", {"bracket": {"players": ["ana", "bob"]}, "games": {"1/2#1": 2}})
    store.close()
    again = opener()
    assert again.event_state("e1") == {
        "bracket": {"players": ["ana", "bob"]},
        "games": {"1/2#1": 2},
    }
    assert again.event_state("e2") is None
    again.close()


def test_a_state_changed_in_one_step_and_an_aborted_change_writes_nothing(
    opener: Opener,
) -> None:
    store = filled(opener)

    def add(name: str) -> Callable[[dict[str, Any] | None], dict[str, Any] | None]:
        def change(state: dict[str, Any] | None) -> dict[str, Any] | None:
            state = state or {"registered": []}
            if name in state["registered"]:
                return None  # nothing to write: the state as stored is answered
            state["registered"].append(name)
            return state

        return change

    assert store.change_event_state("e1", add("ana")) == {"registered": ["ana"]}
    assert store.change_event_state("e1", add("bob")) == {"registered": ["ana", "bob"]}
    assert store.change_event_state("e1", add("ana")) == {"registered": ["ana", "bob"]}
    assert store.change_event_state("e2", lambda s: None) is None  # nothing, nothing kept

    def boom(state: dict[str, Any] | None) -> dict[str, Any] | None:
        assert state is not None
        state["registered"].append("cat")  # changed, then refused: not written
        raise ValueError("closed")

    with pytest.raises(ValueError, match="closed"):
        store.change_event_state("e1", boom)
    store.close()
    again = opener()
    assert again.event_state("e1") == {"registered": ["ana", "bob"]}
    assert again.event_state("e2") is None
    again.close()


def test_a_result_is_stored_once_with_its_event_finished(opener: Opener) -> None:
    store = filled(opener)
    running = advance(advance(event_n(1), EventStep.OPEN), EventStep.START)
    store.update_event(running)
    store.add_elimination("e1", "bob", 1, ("ana",))
    result = finish("e1", ["ana", "bob", "cat"], when=day(0), killers={"bob": "ana"})
    names = {"ana": "Ana", "bob": "Bob", "cat": "Cat"}
    assert store.finish(advance(running, EventStep.FINISH), result, names)
    # the same result found again (a restart reading the tournament's results): a no-op
    other = finish("e1", ["cat", "bob", "ana"], when=day(0))
    assert not store.finish(advance(running, EventStep.FINISH), other, {"cat": "X"})
    store.close()

    again = opener()
    assert again.result("e1") == result and again.results("s1") == [result]
    assert again.names("s1") == names
    assert again.event("e1") is not None and again.event("e1").status is EventStatus.FINISHED
    assert again.eliminations("e1") == {}  # kept in the result now
    # the standings of the stored results: ana 10, bob 6, cat 3 (places:10,6,3)
    rows = standings(season_rules(SEASON.points, SEASON.best_of), again.results("s1"))
    assert [(r.player_id, r.points) for r in rows] == [("ana", 10), ("bob", 6), ("cat", 3)]
    again.close()


def test_the_owner_stays_the_owner(opener: Opener) -> None:
    store = filled(opener)
    store.set_role("l1", "ana", Role.MEMBER)
    league = store.league("l1")
    assert league is not None and league.role_of("ana") is Role.OWNER
    store.close()


def _fail_on(path: Path, trigger: str) -> None:
    db = sqlite3.connect(path)
    db.execute(trigger)
    db.commit()
    db.close()


def test_a_write_that_fails_raises_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "leagues.sqlite"
    store = filled(path)
    running = advance(advance(event_n(1), EventStep.OPEN), EventStep.START)
    store.update_event(running)
    # the second write of a league (its owner's role) fails: no league either
    _fail_on(
        path,
        "CREATE TRIGGER no_roles BEFORE INSERT ON roles BEGIN SELECT RAISE(ABORT, 'full'); END",
    )
    other = dataclasses.replace(LEAGUE, id="l2", invite="inv-2", owner="dan")
    with pytest.raises(LeagueStoreError):
        store.add_league(other)
    assert store.league("l2") is None
    # the event's status, written after its result, fails: no result either
    _fail_on(
        path,
        "CREATE TRIGGER no_status BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'full'); END",
    )
    result = finish("e1", ["ana", "bob"], when=day(0))
    with pytest.raises(LeagueStoreError):
        store.finish(advance(running, EventStep.FINISH), result, {})
    assert store.result("e1") is None and store.event("e1") == running
    # and the store goes on once the disk has room again
    _fail_on(path, "DROP TRIGGER no_status")
    assert store.finish(advance(running, EventStep.FINISH), result, {})
    store.close()


def satellite_and_target(store: LeagueBook) -> LeagueEvent:
    """e2 becomes the target of a satellite e3 (running), which e1's season holds."""
    sat = dataclasses.replace(
        event_n(3),
        kind=EventKind.SATELLITE,
        satellite_of="e2",
        seats="per:2",
        status=EventStatus.RUNNING,
    )
    store.add_event(sat)
    return sat


def test_a_satellite_s_tickets_are_stored_with_its_result_once(opener: Opener) -> None:
    store = filled(opener)
    sat = satellite_and_target(store)
    result = finish("e3", ["ana", "bob", "cat", "dan"], when=day(0), ties={"cat": 2})
    plan = SeatsPerEntries(entries_per_seat=2).plan(4)  # 2 seats: ana, and bob/cat tied 2nd
    members = frozenset({"ana", "bob", "cat"})
    tickets = issue_tickets(result, plan, target="e2", members=members, names={"ana": "Ana"})
    assert store.finish(advance(sat, EventStep.FINISH), result, {"ana": "Ana"}, tickets)
    # found again (a restart): neither the result nor the tickets twice
    assert not store.finish(advance(sat, EventStep.FINISH), result, {}, tickets)
    store.note_ticket("e2", "cat", "not entered: full")
    store.close()

    again = opener()
    into = again.tickets_into("e2")
    assert [(t.player_id, t.place, t.seats, t.member, t.note) for t in into] == [
        ("ana", 1, Fraction(1), True, ""),
        ("bob", 2, Fraction(1, 2), True, ""),
        ("cat", 2, Fraction(1, 2), True, "not entered: full"),
    ]
    assert into[0] == tickets[0]  # every field comes back
    assert again.season_tickets("s1") == into and again.tickets_into("e3") == []
    again.close()


def test_a_write_refused_changes_nothing(opener: Opener) -> None:
    """An invite or a tournament taken, a role in no league, a ticket into no event: the
    store's error, and nothing of the write is there."""
    store = filled(opener)
    taken = dataclasses.replace(LEAGUE, id="l2", owner="dan")  # inv-1 is l1's
    with pytest.raises(LeagueStoreError):
        store.add_league(taken)
    assert store.league("l2") is None and store.league_by_invite("inv-1") == store.league("l1")
    with pytest.raises(LeagueStoreError):
        store.set_role("nope", "bob", Role.MEMBER)
    assert store.league("nope") is None
    twin = dataclasses.replace(event_n(3), tournament="league_e1")
    with pytest.raises(LeagueStoreError):
        store.add_event(twin)
    assert store.event("e3") is None and store.event_of_tournament("league_e1") == event_n(1)
    with pytest.raises(LeagueStoreError):
        store.add_season(dataclasses.replace(SEASON, id="s2", league="nope"))
    assert store.season("s2") is None
    # a satellite's ticket into an event that does not exist: neither result nor tickets
    sat = satellite_and_target(store)
    result = finish("e3", ["ana", "bob"], when=day(0))
    tickets = issue_tickets(
        result, SeatPlan(seats=1), target="e9", members=frozenset({"ana"}), names={}
    )
    with pytest.raises(LeagueStoreError):
        store.finish(advance(sat, EventStep.FINISH), result, {}, tickets)
    again = opener()
    assert again.result("e3") is None and again.event("e3") == sat
    assert again.tickets_into("e9") == [] and again.season_tickets("s1") == []
    assert again.events_in([EventStatus.FINISHED]) == []
    store.close()
    again.close()


def test_a_ticket_is_not_written_without_its_result(tmp_path: Path) -> None:
    path = tmp_path / "leagues.sqlite"
    store = filled(path)
    sat = satellite_and_target(store)
    result = finish("e3", ["ana", "bob"], when=day(0))
    tickets = issue_tickets(
        result, SeatPlan(seats=1), target="e2", members=frozenset({"ana"}), names={}
    )
    _fail_on(
        path,
        "CREATE TRIGGER no_tickets BEFORE INSERT ON tickets BEGIN SELECT RAISE(ABORT, 'x'); END",
    )
    with pytest.raises(LeagueStoreError):
        store.finish(advance(sat, EventStep.FINISH), result, {}, tickets)
    assert store.result("e3") is None and store.event("e3") == sat
    store.close()


def test_an_older_file_gains_the_new_event_columns(tmp_path: Path) -> None:
    """A leagues' file written before satellites had seats and events qualifications."""
    path = tmp_path / "leagues.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        """CREATE TABLE events (id TEXT PRIMARY KEY, league TEXT NOT NULL, season TEXT NOT NULL,
        name TEXT NOT NULL, kind TEXT NOT NULL, structure TEXT NOT NULL,
        starts_at INTEGER NOT NULL, requires_account INTEGER NOT NULL,
        tournament TEXT NOT NULL UNIQUE, status TEXT NOT NULL, satellite_of TEXT,
        final_table_size INTEGER, note TEXT NOT NULL)"""
    )
    db.execute(
        "INSERT INTO events VALUES ('e1', 'l1', 's1', 'Old', 'tournament', 'x', 1, 1, "
        "'league_e1', 'finished', NULL, 9, '')"
    )
    db.commit()
    db.close()
    store = LeagueStore(path)
    old = store.event("e1")
    assert old is not None and old.name == "Old"
    assert (old.seats, old.qualified_top, old.qualified_season) == (None, None, None)
    store.close()


def test_an_older_file_gains_the_removed_members(tmp_path: Path) -> None:
    """A leagues' file written before leagues remembered whom they removed: opened, it has
    none removed, and removing a member is kept."""
    path = tmp_path / "leagues.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE leagues (id TEXT PRIMARY KEY, name TEXT NOT NULL, owner TEXT NOT NULL, "
        "invite TEXT NOT NULL UNIQUE, created REAL NOT NULL)"
    )
    db.execute(
        "CREATE TABLE roles (league TEXT NOT NULL REFERENCES leagues(id), "
        "member TEXT NOT NULL, role TEXT NOT NULL, PRIMARY KEY (league, member))"
    )
    db.execute("INSERT INTO leagues VALUES ('l1', 'Old', 'ana', 'inv', 1.0)")
    db.executemany("INSERT INTO roles VALUES ('l1', ?, ?)", [("ana", "owner"), ("bob", "member")])
    db.commit()
    db.close()
    store = LeagueStore(path)
    old = store.league("l1")
    assert old is not None and old.removed == frozenset() and "bob" in old.members
    store.remove_role("l1", "bob")
    store.close()
    again = LeagueStore(path)
    league = again.league("l1")
    assert league is not None and league.removed == frozenset({"bob"})
    again.close()
