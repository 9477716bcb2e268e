"""Satellites' tickets and qualified players in a gateway, without sockets
(server/league_service/entries.py, league_events.py, leagues.py): a satellite's winners
registered in its target (a tied bubble all of them, cdc 1.10 and 2.7), a winner registered
already keeping one entry, a ticket's ``register`` answered with its entry, tickets issued once
and entered again after a restart, and an event for qualified players only."""

from __future__ import annotations

import datetime
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from protocol import ProtocolError
from protocol import messages as m
from server.league import EventKind, QualificationRule, SeatsPerEntries, issue_tickets
from server.league.model import EventStatus, EventStep, Season, advance
from server.league.points import PlaceTable
from server.league.results import Entry, EventResult
from server.league.standings import SeasonRules, standings
from server.league_service.entries import scored_standings
from server.league_service.events import register_as
from server.league_service.standings import season_standings, tickets_csv
from server.store import Store
from tests.league.helpers import finish, names

from .test_desk import Client, Conn, World, league_with_season, schedule

ROWS = [  # a satellite's results.json: 6 entries; bob and cat out in the same hand, tied 3rd
    {"place": 1, "player_id": "m.id-ana", "name": "Ana", "entry": 1},
    {"place": 2, "player_id": "Zq3", "name": "guest", "entry": 1},
    {"place": 3, "player_id": "m.id-bob", "name": "Bob", "entry": 1},
    {"place": 3, "player_id": "m.id-cat", "name": "Cat", "entry": 1},
    {"place": 5, "player_id": "m.id-dan", "name": "Dan", "entry": 1},
    {"place": 6, "player_id": "Yy7", "name": "other guest", "entry": 1},
]
ENTERED = {"m.id-ana", "m.id-bob", "m.id-cat"}


def now() -> int:
    return int(datetime.datetime.now(datetime.UTC).timestamp())


def event_named(league: m.League, name: str) -> dict[str, Any]:
    return next(e for s in league.seasons for e in s["events"] if e["name"] == name)


def join(w: World, login: str, league: str) -> None:
    """``login`` joins the league with its invite (tickets enter members only)."""
    invite = w.ask("ana", m.LeagueGet(member=w.tokens["ana"], league=league)).invite
    assert invite is not None
    w.ask(login, m.LeagueJoin(member=w.tokens[login], invite=invite))


def satellite_into_final(w: World, seats: str = "per:2") -> tuple[str, str, dict[str, Any]]:
    """A league (ana, bob, cat), its season, a final in two hours and a satellite into it in
    one."""
    made, season = league_with_season(w)
    join(w, "cat", made.league)
    schedule(w, made.league, season, "Finale", now() + 7200)
    final = event_named(
        w.ask("ana", m.LeagueGet(member=w.tokens["ana"], league=made.league)), "Finale"
    )
    got = schedule(
        w,
        made.league,
        season,
        "Satellite",
        now() + 3600,
        kind="satellite",
        satellite_of=final["id"],
        seats=seats,
    )
    return made.league, season, {"final": final, "satellite": event_named(got, "Satellite")}


def view_of(w: World, login: str, league: str, name: str) -> dict[str, Any]:
    return event_named(w.ask(login, m.LeagueGet(member=w.tokens[login], league=league)), name)


@pytest.mark.asyncio
async def test_a_satellite_s_winners_enter_its_target_and_a_tied_bubble_all_of_them() -> None:
    w = World()
    league, season, ev = satellite_into_final(w)
    final, sat = ev["final"], ev["satellite"]
    live = w.g.tournaments[final["tournament"]]
    # bob registered in the final himself, before the satellite
    bobs = Client("c-bob")
    register_as(live, bobs, "m.id-bob", "Bob", 1)
    assert live.host.registrations == 1
    runner = w.g.leagues.events
    runner.started(sat["id"])
    runner.finished(sat["id"], ROWS)

    # per:2 on 6 entries: 3 seats. cdc 1.10 "S'il s'agit de la bulle, voir le §2.7"; cdc 2.7
    # "ils seront classés à égalité (avec partage du prizepool du dernier payé le cas
    # échéant)": bob and cat, tied 3rd for the 3rd seat, hold half a seat each, and both enter
    tickets = w.leagues.tickets_into(final["id"])
    assert [(t.player_id, t.place, t.seats, t.enters) for t in tickets] == [
        ("id-ana", 1, Fraction(1), True),
        ("Zq3", 2, Fraction(1), False),  # a guest: no account to enter with
        ("id-bob", 3, Fraction(1, 2), True),
        ("id-cat", 3, Fraction(1, 2), True),
    ]
    # the pure rule by hand, on the same result
    result = w.leagues.result(sat["id"])
    assert result is not None
    by_hand = issue_tickets(
        result,
        SeatsPerEntries(entries_per_seat=2).plan(6),
        target=final["id"],
        members=frozenset({"id-ana", "id-bob", "id-cat", "id-dan"}),
        names={"id-ana": "Ana", "id-bob": "Bob", "id-cat": "Cat", "Zq3": "guest"},
    )
    assert [(t.player_id, t.seats, t.note) for t in tickets] == [
        (t.player_id, t.seats, t.note) for t in by_hand
    ]
    # registered: the three members; bob, registered already, keeps his one entry
    assert set(live.host.names) == ENTERED and live.host.registrations == 3
    assert all(t.note == "" for t in tickets if t.enters)
    assert tickets[1].note.startswith("a guest")

    # what each sees of the final
    ana_view = view_of(w, "ana", league, "Finale")
    assert ana_view["tickets"] == 3
    assert ana_view["ticket"] == {
        "satellite": sat["id"],
        "seats": "1",
        "registered": True,
        "note": "",
    }
    assert view_of(w, "bob", league, "Finale")["ticket"]["seats"] == "1/2"
    assert view_of(w, "ana", league, "Satellite")["seats"] == "per:2"

    # ana's register: her entry and its token, no second entry
    desk = w.g.leagues
    assert desk.entry_for(Conn("id-ana"), final["tournament"]) == "m.id-ana"  # type: ignore[arg-type]
    anas = Client("c-ana")
    register_as(live, anas, "m.id-ana", "Ana", 7)
    answer = next(x for x in anas.sent if isinstance(x, m.Registered))
    assert (answer.player, answer.ref) == ("m.id-ana", 7)
    assert w.g.auth.verify(answer.token, "player")["p"] == "m.id-ana"
    assert anas.pid == "m.id-ana" and live.host.registrations == 3
    # dan, an account of no league, is not entered (5th, no seat) and may not register
    with pytest.raises(ProtocolError) as outsider:
        desk.entry_for(Conn("id-dan"), final["tournament"])  # type: ignore[arg-type]
    assert outsider.value.code == "league.not_member"

    # the season's export: each ticket with its share of a seat
    s = w.leagues.season(season)
    assert s is not None
    doc, _ = season_standings(
        s,
        w.leagues.events(season),
        w.leagues.results(season),
        w.leagues.names(season),
        w.leagues.season_tickets(season),
    )
    assert [(t["player_id"], t["seats"], t["shared"]) for t in doc["tickets"]] == [
        ("id-ana", "1", False),
        ("Zq3", "1", False),
        ("id-bob", "1/2", True),
        ("id-cat", "1/2", True),
    ]
    lines = tickets_csv(w.leagues.season_tickets(season)).splitlines()
    assert lines[0] == "satellite,target,player_id,name,place,seats,seat_value,cash,member,note"
    assert lines[3] == f"{sat['id']},{final['id']},id-bob,Bob,3,1/2,,0,True,"
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_tickets_into_a_target_that_no_longer_takes_players_say_why() -> None:
    w = World()
    _, _, ev = satellite_into_final(w)
    final, sat = ev["final"], ev["satellite"]
    target = w.leagues.event(final["id"])
    assert target is not None
    w.leagues.update_event(advance(target, EventStep.CANCEL, "no room"))
    runner = w.g.leagues.events
    runner.started(sat["id"])
    runner.finished(sat["id"], ROWS)
    notes = {t.player_id: t.note for t in w.leagues.tickets_into(final["id"])}
    assert notes["id-ana"] == "not entered: the target is cancelled"
    assert w.g.tournaments[final["tournament"]].host.registrations == 0
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_a_ticket_of_a_member_who_left_or_was_removed_does_not_enter_him() -> None:
    """Issue 26: the one membership decision at the ticket's registration into its target
    (a member when he won it, no longer one when it enters him): the ticket says why; he
    rejoins, and the next time the tickets enter their holders (a restart) he is entered."""
    w = World()
    league, _, ev = satellite_into_final(w)
    final, sat = ev["final"], ev["satellite"]
    removed = m.LeagueRole(member=w.tokens["ana"], league=league, target="id-bob", role="none")
    w.ask("ana", removed)
    w.g.leagues.handle(Conn("id-cat"), m.LeagueLeave(member=w.tokens["cat"], league=league))  # type: ignore[arg-type]
    runner = w.g.leagues.events
    runner.started(sat["id"])
    runner.finished(sat["id"], ROWS)
    live = w.g.tournaments[final["tournament"]]
    assert set(live.host.names) == {"m.id-ana"}
    notes = {t.player_id: t.note for t in w.leagues.tickets_into(final["id"])}
    assert notes["id-bob"] == notes["id-cat"] == "not entered: members of the league only"
    assert notes["id-ana"] == ""
    # bob's own register is refused as well; rejoining with the invite, he is entered
    with pytest.raises(ProtocolError) as no:
        w.g.leagues.entry_for(Conn("id-bob"), final["tournament"])  # type: ignore[arg-type]
    assert no.value.code == "league.not_member"
    join(w, "bob", league)
    runner.entries.seat_holders(final["id"])
    assert set(live.host.names) == {"m.id-ana", "m.id-bob"}
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_tickets_are_issued_once_and_enter_their_holders_again_after_restarts(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "brasseur.sqlite")
    w = World(tmp_path / "leagues.sqlite", store)
    _, _, ev = satellite_into_final(w)
    final, sat = ev["final"], ev["satellite"]
    w.g.leagues.events.started(sat["id"])
    # the satellite's tournament finished, the server stopped before storing its result
    results = json.dumps({"results": ROWS})
    store.set_meta(f"tournament:{sat['tournament']}:results.json", results)
    await w.g.close()

    for _ in range(2):  # a restart finds the result; the next one finds it stored
        again = World(tmp_path / "leagues.sqlite", store)
        again.g.restore_tournaments()
        again.g.leagues.restore()
        stored = again.leagues.event(sat["id"])
        assert stored is not None and stored.status is EventStatus.FINISHED
        tickets = again.leagues.tickets_into(final["id"])
        assert len(tickets) == 4  # never twice
        # the final's tournament came back without its registrations: the tickets enter
        # their holders again, each once
        live = again.g.tournaments[final["tournament"]]
        assert set(live.host.names) == ENTERED and live.host.registrations == 3
        await again.g.close()


@pytest.mark.asyncio
async def test_a_monthly_takes_the_top_of_the_standings_and_the_satellite_s_winners() -> None:
    # ligue PRÉAVIS note 1: "afin de permettre aux joueurs classés de jouer le journalier":
    # the monthly is for ranked players; here the first of the standings, and a ticket
    w = World()
    made, season = league_with_season(w, "places:10,6,3")
    league = made.league
    join(w, "cat", league)
    schedule(w, league, season, "Journalier", now() + 3600)
    got = schedule(w, league, season, "Mensuel", now() + 9000, kind="monthly", qualified_top=1)
    monthly = event_named(got, "Mensuel")
    assert (monthly["qualified_top"], monthly["qualified_season"]) == (1, season)
    got = schedule(
        w,
        league,
        season,
        "Satellite",
        now() + 5000,
        kind="satellite",
        satellite_of=monthly["id"],
        seats="per:3",
    )
    daily, sat = event_named(got, "Journalier"), event_named(got, "Satellite")
    runner, desk = w.g.leagues.events, w.g.leagues
    tid = monthly["tournament"]
    live = w.g.tournaments[tid]

    def entry(member: str | None) -> str | None:
        return desk.entry_for(Conn(member), tid)  # type: ignore[arg-type]

    def refused(member: str | None) -> str:
        with pytest.raises(ProtocolError) as no:
            entry(member)
        return no.value.code

    # nobody is ranked yet: nobody qualifies, and a guest needs an account anyway
    assert refused("id-ana") == "league.not_qualified"
    assert refused(None) == "league.account_required"
    day = [
        {"place": 1, "player_id": "m.id-ana", "name": "Ana", "entry": 1},
        {"place": 2, "player_id": "m.id-bob", "name": "Bob", "entry": 1},
        {"place": 3, "player_id": "m.id-cat", "name": "Cat", "entry": 1},
    ]
    runner.started(daily["id"])
    runner.finished(daily["id"], day)
    # ana 10, bob 6, cat 3: the top 1 is ana
    assert entry("id-ana") == "m.id-ana"
    register_as(live, Client("c-ana"), "m.id-ana", "Ana", 1)
    assert refused("id-bob") == "league.not_qualified"
    # the satellite (3 entries, per:3: one seat): cat wins it and enters the monthly
    runner.started(sat["id"])
    runner.finished(
        sat["id"],
        [
            {"place": 1, "player_id": "m.id-cat", "name": "Cat", "entry": 1},
            {"place": 2, "player_id": "m.id-bob", "name": "Bob", "entry": 1},
            {"place": 3, "player_id": "m.id-dan", "name": "Dan", "entry": 1},
        ],
    )
    assert set(live.host.names) == {"m.id-ana", "m.id-cat"}
    assert entry("id-cat") == "m.id-cat"  # his ticket's entry, answered with its token
    # by hand: cat 13, bob 12, ana 10: the top 1 is now cat; ana, registered when she was,
    # keeps her entry; bob is still out
    rules = SeasonRules(points=PlaceTable(points=(10, 6, 3)))
    results = w.leagues.results(season)
    won = next(r for r in results if r.event_id == sat["id"])
    assert won == EventResult(
        event_id=sat["id"],
        date=won.date,
        kind=EventKind.SATELLITE,
        final_table_size=9,  # the Tour des Potes structure's
        entries=(
            Entry(player_id="id-cat", place=1),
            Entry(player_id="id-bob", place=2),
            Entry(player_id="id-dan", place=3),
        ),
    )
    rows = standings(rules, results)
    assert [(r.player_id, r.points) for r in rows[:3]] == [
        ("id-cat", 13),
        ("id-bob", 12),
        ("id-ana", 10),
    ]
    rule = QualificationRule(kind=EventKind.MONTHLY, top=1)
    assert desk.events.entries.qualified(w.leagues.event(monthly["id"])) == {"id-cat"}  # type: ignore[arg-type]
    assert rule.admits(rows[0]) and not rule.admits(rows[1])
    assert refused("id-bob") == "league.not_qualified"
    assert refused("id-ana") == "tournament.already_registered"
    assert refused("id-dan") == "league.not_member"  # an account of no league: not asked more
    w.g.leagues.close()


def test_the_qualifying_season_s_unscored_results_do_not_rank() -> None:
    # fpc part C prints 6 to 10 players: a Sit'n Go of 4 ranks nobody
    season = Season(id="s", league="l", name="Mercredis", points="fpc_sit_and_go")
    rows, unscored = scored_standings(
        season,
        [
            finish("a", names(6), kind=EventKind.SIT_AND_GO),
            finish("b", names(4, "q"), kind=EventKind.SIT_AND_GO),
        ],
    )
    assert unscored == ["b"]
    assert {r.player_id for r in rows} == set(names(6))
