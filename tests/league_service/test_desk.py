"""The leagues' desk in a gateway, without sockets (server/league_service/desk.py,
league_events.py, league_http.py): requests act only for the token's member, roles, the
event's tournament created from a shipped structure, registration by member, a tournament's
results turned into the event's result once (after a restart too), standings documents."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from protocol import ProtocolError, decode_server
from protocol import messages as m
from server.accounts import Member, MemberStore
from server.dealing import Signer
from server.gateway.app import Gateway
from server.league import EventKind
from server.league.model import EventStatus, LeagueEvent, LeagueRefusal, Season
from server.league.points import PlaceTable
from server.league.results import Entry, EventResult
from server.league.standings import SeasonRules, standings, standings_json
from server.league.store import LeagueStore
from server.league_service.events import STRUCTURES, event_result, register_as, structure_text
from server.league_service.standings import season_standings
from server.store import Store
from tests.league.helpers import finish, names


class Conn:
    """What the desk uses of a connection: its member and where answers go."""

    def __init__(self, member: str | None = None) -> None:
        self.member = member
        self.sent: list[m.Message] = []

    def deliver(self, data: bytes) -> None:
        self.sent.append(decode_server(data))


class Client(Conn):
    """What a tournament's host uses of a connection."""

    def __init__(self, cid: str) -> None:
        super().__init__()
        self.cid = cid
        self.pid: str | None = None


class World:
    def __init__(self, path: Path | None = None, store: Store | None = None) -> None:
        self.store = store or Store(":memory:")
        self.members = MemberStore(":memory:")
        self.leagues = LeagueStore(path or ":memory:")
        self.g = Gateway(
            self.store,
            Signer.generate(),
            token_secret=b"k" * 32,
            members=self.members,
            leagues=self.leagues,
        )
        self.tokens: dict[str, str] = {}
        for login in ("ana", "bob", "cat"):
            member = Member(
                id=f"id-{login}", login=login, display=login.title(), lang="fr", password_hash="x"
            )
            self.members.add(member)
            self.tokens[login] = self.g.accounts.token(member)

    def ask(self, login: str, message: m.Message) -> m.League:
        conn = Conn(f"id-{login}")
        self.g.leagues.handle(conn, message)  # type: ignore[arg-type]
        answer = conn.sent[-1]
        assert isinstance(answer, m.League)
        return answer

    def refused(self, login: str, message: m.Message) -> str:
        with pytest.raises(ProtocolError) as refused:
            self.ask(login, message)
        return refused.value.code


def league_with_season(w: World, points: str = "places:10,6") -> tuple[m.League, str]:
    made = w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name="Les Potes", id=1))
    assert made.invite is not None
    w.ask("bob", m.LeagueJoin(member=w.tokens["bob"], invite=made.invite))
    opened = w.ask(
        "ana", m.SeasonCreate(member=w.tokens["ana"], league=made.league, name="S", points=points)
    )
    return opened, opened.seasons[0]["id"]


def schedule(w: World, league: str, season: str, name: str, at: int, **more: Any) -> m.League:
    fields: dict[str, Any] = {"structure": "tour_des_potes_bb_ante", "requires_account": True}
    fields.update(more)
    message = m.LeagueEventCreate(
        member=w.tokens["ana"], league=league, season=season, name=name, starts_at=at, **fields
    )
    return w.ask("ana", message)


# ---------------------------------------------------------------------- requests


def test_requests_act_for_the_token_s_member_and_his_role() -> None:
    w = World()
    made = w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name=" Les  Potes ", id=4))
    assert (made.name, made.role, made.members, made.ref) == ("Les Potes", "owner", 1, 4)
    assert made.invite and made.seasons == ()
    # bob joins with the invite, twice: one membership; he never sees the invite
    for _ in range(2):
        joined = w.ask("bob", m.LeagueJoin(member=w.tokens["bob"], invite=made.invite))
        assert (joined.role, joined.invite, joined.members) == ("member", None, 2)
    assert w.refused("bob", m.LeagueJoin(member=w.tokens["bob"], invite="nope")) == (
        "league.bad_invite"
    )
    # cat is not a member; bob may not open a season; a forged token is nobody
    assert w.refused("cat", m.LeagueGet(member=w.tokens["cat"], league=made.league)) == (
        "league.not_member"
    )
    season = m.SeasonCreate(member=w.tokens["bob"], league=made.league, name="S", points="x")
    assert w.refused("bob", season) == "league.forbidden"
    forged = m.LeagueGet(member=w.tokens["ana"][:-2] + "xx", league=made.league)
    assert w.refused("ana", forged) == "bad_token"
    assert w.refused("ana", m.LeagueGet(member=w.tokens["ana"], league="nope")) == (
        "league.not_found"
    )
    # the connection's own login does not matter: the token's member acts (bob, a member)
    conn = Conn("id-ana")
    w.g.leagues.handle(conn, m.LeagueGet(member=w.tokens["bob"], league=made.league))  # type: ignore[arg-type]
    seen = conn.sent[-1]
    assert isinstance(seen, m.League) and seen.role == "member" and seen.invite is None


def test_a_league_that_approves_its_members_admits_refuses_and_removes() -> None:
    w = World()
    tok = w.tokens
    made = w.ask("ana", m.LeagueCreate(member=tok["ana"], name="Le Club", approval=True))
    assert made.invite is not None and made.approval
    lid = made.league

    def role(by: str, target: str, what: str) -> m.LeagueRole:
        return m.LeagueRole(member=tok[by], league=lid, target=f"id-{target}", role=what)

    # bob asks to join, twice: one request; he is told nothing of the league yet
    for _ in range(2):
        asked = w.ask("bob", m.LeagueJoin(member=tok["bob"], invite=made.invite))
        assert (asked.role, asked.members, asked.invite, asked.seasons) == ("pending", 0, None, ())
    assert w.refused("bob", m.LeagueGet(member=tok["bob"], league=lid)) == (
        "league.awaiting_approval"
    )
    season = m.SeasonCreate(member=tok["bob"], league=lid, name="S", points="places:3,2")
    assert w.refused("bob", season) == "league.awaiting_approval"
    seen = w.ask("ana", m.LeagueGet(member=tok["ana"], league=lid))
    assert seen.members == 1  # a request is no member
    assert [(p["name"], p["role"]) for p in seen.people] == [("Bob", "pending"), ("Ana", "owner")]
    # nobody is made a director before he is admitted; a stranger admits nobody
    assert w.refused("ana", role("ana", "bob", "director")) == "league.forbidden"
    assert w.refused("cat", role("cat", "bob", "member")) == "league.not_member"
    admitted = w.ask("ana", role("ana", "bob", "member"))
    assert [p["role"] for p in admitted.people] == ["owner", "member"]
    assert w.ask("bob", m.LeagueGet(member=tok["bob"], league=lid)).role == "member"
    # cat asks; bob, a member, may not admit him; a director may, and may refuse him
    w.ask("cat", m.LeagueJoin(member=tok["cat"], invite=made.invite))
    assert w.refused("bob", role("bob", "cat", "member")) == "league.forbidden"
    w.ask("ana", role("ana", "bob", "director"))
    refused = w.ask("bob", role("bob", "cat", "none"))
    assert "id-cat" not in {p["member"] for p in refused.people}
    assert w.refused("cat", m.LeagueGet(member=tok["cat"], league=lid)) == "league.not_member"
    listed = m.LeagueList(member=tok["cat"])
    conn = Conn("id-cat")
    w.g.leagues.handle(conn, listed)  # type: ignore[arg-type]
    assert conn.sent[-1] == m.Leagues(leagues=())
    # admitted at his second request; a director removes nobody, the owner does
    w.ask("cat", m.LeagueJoin(member=tok["cat"], invite=made.invite))
    w.ask("bob", role("bob", "cat", "member"))
    assert w.refused("bob", role("bob", "cat", "none")) == "league.forbidden"
    assert w.refused("ana", role("ana", "ana", "none")) == "league.forbidden"
    removed = w.ask("ana", role("ana", "cat", "none"))
    assert removed.members == 2
    assert w.refused("cat", m.LeagueGet(member=tok["cat"], league=lid)) == "league.not_member"
    # the owner turns approval off (a director may not): the next one joins at once
    assert w.refused("bob", m.LeagueSettings(member=tok["bob"], league=lid)) == "league.forbidden"
    off = w.ask("ana", m.LeagueSettings(member=tok["ana"], league=lid, approval=False))
    assert not off.approval
    assert w.ask("cat", m.LeagueJoin(member=tok["cat"], invite=made.invite)).role == "member"
    # cat leaves by himself; the owner may not leave; a stranger has nothing to leave
    conn = Conn("id-cat")
    w.g.leagues.handle(conn, m.LeagueLeave(member=tok["cat"], league=lid, id=3))  # type: ignore[arg-type]
    assert conn.sent[-1] == m.Leagues(leagues=(), ref=3)
    assert w.refused("cat", m.LeagueGet(member=tok["cat"], league=lid)) == "league.not_member"
    for login, code in (("ana", "league.forbidden"), ("cat", "league.not_member")):
        with pytest.raises(ProtocolError) as no:
            w.g.leagues.handle(Conn(), m.LeagueLeave(member=tok[login], league=lid))  # type: ignore[arg-type]
        assert no.value.code == code


def test_a_season_s_points_are_checked_when_it_opens() -> None:
    w = World()
    made = w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name="L"))
    for points, best_of in (("places:3,6", None), ("fpc_tour_des_potes", 11), ("x", None)):
        message = m.SeasonCreate(
            member=w.tokens["ana"], league=made.league, name="S", points=points, best_of=best_of
        )
        assert w.refused("ana", message) == "league.bad_points"
    opened = w.ask(
        "ana",
        m.SeasonCreate(
            member=w.tokens["ana"], league=made.league, name="TdP", points="fpc_tour_des_potes"
        ),
    )
    assert opened.seasons[0]["best_of"] == 9  # fpc part B: "les 9 meilleurs résultats sur 10"


@pytest.mark.asyncio
async def test_an_event_creates_its_tournament_and_registration_goes_by_member() -> None:
    w = World()
    made, season = league_with_season(w)
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    scheduled = schedule(w, made.league, season, "Étape 1", at)
    event = scheduled.seasons[0]["events"][0]
    assert event["status"] == "registering" and event["note"] == ""
    assert event["starts_at"] == at and event["tournament"] == f"league_{event['id']}"
    live = w.g.tournaments[event["tournament"]]
    assert live.host.config.name == "Étape 1"  # the structure, named after the event
    assert live.host.config.starting_stack == 20000  # fpc part B: "20 000 jetons"
    assert w.g.auth.verify(event["director"], "director")["t"] == event["tournament"]
    assert event["id"] in w.g.leagues.events.timers  # started at its time
    # a member sees no console token
    got = w.ask("bob", m.LeagueGet(member=w.tokens["bob"], league=made.league))
    assert "director" not in got.seasons[0]["events"][0]
    # registration: a guest refused, a member under his own id, once
    desk = w.g.leagues
    with pytest.raises(ProtocolError) as refused:
        desk.entry_for(Conn(), event["tournament"])  # type: ignore[arg-type]
    assert refused.value.code == "league.account_required"
    assert desk.entry_for(Conn("id-bob"), event["tournament"]) == "m.id-bob"  # type: ignore[arg-type]
    live.host.names["m.id-bob"] = "Bob"  # registered (what the director's Registered does)
    with pytest.raises(ProtocolError) as twice:
        desk.entry_for(Conn("id-bob"), event["tournament"])  # type: ignore[arg-type]
    assert twice.value.code == "tournament.already_registered"
    assert desk.entry_for(Conn("id-bob"), "not-a-league-event") is None  # type: ignore[arg-type]
    # an event open to guests lets a guest in under the tournament's own id
    open_ = schedule(w, made.league, season, "Open", at, requires_account=False)
    tid = next(e["tournament"] for e in open_.seasons[0]["events"] if e["name"] == "Open")
    assert desk.entry_for(Conn(), tid) is None  # type: ignore[arg-type]
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_the_director_refuses_a_member_id_entered_twice() -> None:
    """Behind the gateway's check (entry_for), the director itself: "if player_id in
    self._entries: Refused(ALREADY_REGISTERED)" (server/tournament/director.py)."""
    w = World()
    made, season = league_with_season(w)
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    tid = schedule(w, made.league, season, "E", at).seasons[0]["events"][0]["tournament"]
    live = w.g.tournaments[tid]
    first, second = Client("c1"), Client("c2")
    register_as(live, first, "m.id-bob", "Bob", 1)
    entered = first.sent[-1]
    assert isinstance(entered, m.Registered) and entered.player == "m.id-bob"
    assert first.pid == "m.id-bob" and live.host.registrations == 1
    # a second registration of the id reaching the director (two connections at once)
    assert live.coordinator is not None
    live.host.pending["m.id-bob"] = (second, 2)  # type: ignore[assignment]
    live.coordinator.submit("register", {"player": "m.id-bob", "name": "Bob"})
    refused = second.sent[-1]
    assert isinstance(refused, m.Error) and refused.ref == 2
    assert refused.code == "tournament.already_registered"
    assert live.host.registrations == 1
    # register_as for an id entered already (only a satellite's ticket holder gets there:
    # entry_for refuses the others) answers that entry and its token: no second entry
    third = Client("c3")
    register_as(live, third, "m.id-bob", "Bob", 3)
    again = next(x for x in third.sent if isinstance(x, m.Registered))
    assert (again.player, again.ref) == ("m.id-bob", 3) and live.host.registrations == 1
    assert w.g.auth.verify(again.token, "player")["p"] == "m.id-bob"
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_events_that_cannot_be_scheduled_are_refused() -> None:
    w = World()
    made, season = league_with_season(w)
    now = int(datetime.datetime.now(datetime.UTC).timestamp())
    refusals = {
        "past": (now - 10, {}),
        "kind": (now + 60, {"kind": "weekly"}),
        "seats-of-a-tournament": (now + 60, {"seats": "per:2"}),
        "qualified-tournament": (now + 60, {"qualified_top": 3}),
        "qualified-guests": (
            now + 60,
            {"kind": "monthly", "qualified_top": 3, "requires_account": False},
        ),
        "qualified-elsewhere": (
            now + 60,
            {"kind": "monthly", "qualified_top": 3, "qualified_season": "nope"},
        ),
        "structure": (now + 60, {"structure": "../secret"}),
        "no-file": (now + 60, {"structure": "no_such_structure"}),
        "satellite-without-target": (now + 60, {"kind": "satellite"}),
        "bad-target": (now + 60, {"kind": "satellite", "satellite_of": "nope"}),
    }
    codes = {}
    for name, (at, more) in refusals.items():
        message = m.LeagueEventCreate(
            member=w.tokens["ana"],
            league=made.league,
            season=season,
            name=name,
            structure=more.pop("structure", "tour_des_potes_bb_ante"),
            starts_at=at,
            **more,
        )
        codes[name] = w.refused("ana", message)
    assert codes == {
        "past": "league.bad_event",
        "kind": "league.bad_event",
        "structure": "league.bad_structure",
        "no-file": "league.bad_structure",
        "satellite-without-target": "league.bad_event",
        "bad-target": "league.bad_event",
        "seats-of-a-tournament": "league.bad_event",
        "qualified-tournament": "league.bad_event",
        "qualified-guests": "league.bad_event",
        "qualified-elsewhere": "league.bad_event",
    }
    assert w.g.tournaments == {}  # nothing created
    # a member may not schedule; a season of another league is not found
    message = m.LeagueEventCreate(
        member=w.tokens["bob"],
        league=made.league,
        season=season,
        name="x",
        structure="tour_des_potes_bb_ante",
        starts_at=now + 60,
    )
    assert w.refused("bob", message) == "league.forbidden"
    other = w.ask("cat", m.LeagueCreate(member=w.tokens["cat"], name="Other"))
    elsewhere = w.ask(
        "cat",
        m.SeasonCreate(member=w.tokens["cat"], league=other.league, name="S", points="places:1"),
    ).seasons[0]["id"]
    message = m.LeagueEventCreate(
        member=w.tokens["ana"],
        league=made.league,
        season=elsewhere,
        name="x",
        structure="tour_des_potes_bb_ante",
        starts_at=now + 60,
    )
    assert w.refused("ana", message) == "league.not_found"
    # a satellite into a target of this league is scheduled
    target = schedule(w, made.league, season, "Target", now + 7200)
    target_id = target.seasons[0]["events"][0]["id"]
    sat = schedule(
        w, made.league, season, "Sat", now + 3600, kind="satellite", satellite_of=target_id
    )
    # by starting time: the satellite first; its seats are the book-less default
    assert [e["satellite_of"] for e in sat.seasons[0]["events"]] == [target_id, None]
    assert [e["seats"] for e in sat.seasons[0]["events"]] == ["per:10", None]
    # a satellite into an event that starts before it, or with a rule that does not read
    for at, seats in ((now + 7200, None), (now + 7300, None), (now + 60, "per:0")):
        late = m.LeagueEventCreate(
            member=w.tokens["ana"],
            league=made.league,
            season=season,
            name="Late",
            kind="satellite",
            satellite_of=target_id,
            seats=seats,
            structure="tour_des_potes_bb_ante",
            starts_at=at,
        )
        assert w.refused("ana", late) == "league.bad_event"
    # a season of another league does not qualify, nor does a cash season
    for points, league, login in (
        ("places:1", other.league, "cat"),
        ("capital", made.league, "ana"),
    ):
        opened = w.ask(
            login,
            m.SeasonCreate(member=w.tokens[login], league=league, name="Q", points=points),
        )
        qualifying = opened.seasons[-1]["id"]
        monthly = m.LeagueEventCreate(
            member=w.tokens["ana"],
            league=made.league,
            season=season,
            name="Monthly",
            kind="monthly",
            qualified_top=3,
            qualified_season=qualifying,
            structure="tour_des_potes_bb_ante",
            starts_at=now + 60,
        )
        assert w.refused("ana", monthly) == "league.bad_event"
    w.g.leagues.close()


@pytest.mark.asyncio
async def test_the_tour_des_potes_season_takes_ten_events_at_most() -> None:
    # fpc part B: "un championnat composé des 10 étapes par saisons"
    w = World()
    made, season = league_with_season(w, "fpc_tour_des_potes")
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    for n in range(10):
        schedule(w, made.league, season, f"Etape {n + 1}", at + n)
    message = m.LeagueEventCreate(
        member=w.tokens["ana"],
        league=made.league,
        season=season,
        name="Etape 11",
        structure="tour_des_potes_bb_ante",
        starts_at=at + 11,
    )
    assert w.refused("ana", message) == "league.bad_event"
    w.g.leagues.close()


# ---------------------------------------------------------------------- results


def test_a_tournament_s_results_become_the_event_s_result() -> None:
    event = LeagueEvent(
        id="e1",
        league="l",
        season="s",
        name="E",
        kind=EventKind.SIT_AND_GO,
        structure="fpc_sit_and_go",
        starts_at=int(datetime.datetime(2026, 9, 2, 18, 30, tzinfo=datetime.UTC).timestamp()),
        requires_account=False,
        tournament="league_e1",
        final_table_size=10,
    )
    rows = [  # as results.json has them: a member, a guest, a tie for 2nd (cdc 1.10)
        {"place": 2, "player_id": "m.bob", "name": "Bob", "entry": 1},
        {"place": 1, "player_id": "m.ana", "name": "Ana", "entry": 1},
        {"place": 2, "player_id": "Zq3", "name": "guest", "entry": 1},
        {"place": 5, "player_id": "m.cat", "name": "Cat", "entry": 1},  # the 4th removed
    ]
    killers = {("m.bob", 1): ("m.ana",), ("Zq3", 1): ("m.ana", "m.gone"), ("m.cat", 1): ("Zq3",)}
    result, players = event_result(event, rows, killers)
    assert result == EventResult(
        event_id="e1",
        date=datetime.date(2026, 9, 2),
        kind=EventKind.SIT_AND_GO,
        final_table_size=10,
        entries=(
            Entry(player_id="ana", place=1),
            Entry(player_id="bob", place=2, eliminated_by=("ana",)),
            Entry(player_id="Zq3", place=2, eliminated_by=("ana",)),  # a stranger dropped
            Entry(player_id="cat", place=4, eliminated_by=("Zq3",)),
        ),
    )
    assert players == {"ana": "Ana", "bob": "Bob", "Zq3": "guest", "cat": "Cat"}


@pytest.mark.asyncio
async def test_results_are_stored_once_and_found_again_after_a_restart(tmp_path: Path) -> None:
    store = Store(tmp_path / "brasseur.sqlite")
    w = World(tmp_path / "leagues.sqlite", store)
    made, season = league_with_season(w)
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    schedule(w, made.league, season, "E1", at)
    schedule(w, made.league, season, "E2", at)
    got = w.ask("ana", m.LeagueGet(member=w.tokens["ana"], league=made.league))
    e1, e2 = got.seasons[0]["events"]
    runner = w.g.leagues.events
    runner.started(e1["id"])
    runner.started(e2["id"])
    rows = [
        {"place": 1, "player_id": "m.id-bob", "name": "Bob", "entry": 1},
        {"place": 2, "player_id": "m.id-ana", "name": "Ana", "entry": 1},
    ]
    # e1 finished while the server ran; e2's tournament finished, its result not stored yet
    runner.finished(e1["id"], rows)
    runner.finished(e1["id"], list(reversed(rows)))  # again: the first one stands
    store.set_meta(f"tournament:{e2['tournament']}:results.json", json.dumps({"results": rows}))
    await w.g.close()

    # a restart: e2's result is found in its tournament's results, e1's not stored twice
    w2 = World(tmp_path / "leagues.sqlite", store)
    w2.g.restore_tournaments()
    w2.g.leagues.restore()
    leagues = w2.leagues
    statuses = [e.status for e in leagues.events(season)]
    assert statuses == [EventStatus.FINISHED, EventStatus.FINISHED]
    results = leagues.results(season)
    assert [[(x.player_id, x.place) for x in r.entries] for r in results] == [
        [("id-bob", 1), ("id-ana", 2)]
    ] * 2
    doc, csv = season_standings(
        leagues.season(season) or Season(id="", league="", name="", points=""),
        leagues.events(season),
        results,
        leagues.names(season),
    )
    expected = standings(SeasonRules(points=PlaceTable(points=(10, 6))), results)
    assert doc["standings"] == standings_json(expected)
    assert [(r["player_id"], r["points"]) for r in doc["standings"]] == [
        ("id-bob", 20),
        ("id-ana", 12),
    ]
    assert doc["names"] == {"id-ana": "Ana", "id-bob": "Bob"}
    assert csv.splitlines()[1].startswith("1,id-bob,Bob,20,2,2,10,")  # with his name
    await w2.g.close()


@pytest.mark.asyncio
async def test_an_interrupted_event_is_cancelled_at_restart(tmp_path: Path) -> None:
    store = Store(tmp_path / "brasseur.sqlite")
    w = World(tmp_path / "leagues.sqlite", store)
    made, season = league_with_season(w)
    at = int(datetime.datetime.now(datetime.UTC).timestamp()) + 3600
    scheduled = schedule(w, made.league, season, "E1", at)
    event = scheduled.seasons[0]["events"][0]
    w.g.leagues.events.started(event["id"])
    await w.g.close()
    w2 = World(tmp_path / "leagues.sqlite", store)
    w2.g.leagues.restore()  # no tournament restored: it had started in-memory
    after = w2.leagues.event(event["id"])
    assert after is not None and after.status is EventStatus.CANCELLED
    assert after.note.startswith("interrupted")
    await w2.g.close()


def test_a_result_the_points_cannot_score_is_listed_not_counted() -> None:
    # fpc part C: "Les parties se jouent de 6 joueurs (minimum) à 10 joueurs (maximum)"
    season = Season(id="s", league="l", name="Mercredis", points="fpc_sit_and_go")
    six, four = names(6), names(4, "q")
    results = [
        finish("a", six, kind=EventKind.SIT_AND_GO),
        finish("b", four, kind=EventKind.SIT_AND_GO),
    ]
    doc, _ = season_standings(season, [], results, {})
    assert doc["unscored"] == ["b"]
    assert [(r["player_id"], r["points"]) for r in doc["standings"][:2]] == [
        ("p001", 16),
        ("p002", 12),
    ]


def test_a_structure_is_a_shipped_file_named_after_its_event() -> None:
    text = structure_text(STRUCTURES, "fpc_sit_and_go", 'Mercredi "7"')
    assert 'name = "Mercredi \\"7\\""' in text
    for bad in ("../README", "FPC", "nope", ""):
        with pytest.raises(LeagueRefusal) as refused:
            structure_text(STRUCTURES, bad, "x")
        assert refused.value.code == "league.bad_structure"
