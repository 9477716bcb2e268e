"""Leagues, seasons and events, pure (server/league/model.py): the event lifecycle table
step by step, every role against every action, the points systems a season names."""

from __future__ import annotations

import dataclasses
import datetime
import itertools

import pytest

from server.league import EventKind, QualificationRule, SeatsPerEntries
from server.league.model import (
    EVENT_KINDS,
    FPC_CAPITAL,
    MAX_QUALIFIED,
    PERMISSIONS,
    QUALIFIED_KINDS,
    TRANSITIONS,
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
    check_name,
    event_date,
    require,
    season_rules,
)
from server.league.points import PlaceTable

from .helpers import finish, names

S, T = EventStatus, EventStep


def event(status: EventStatus = S.SCHEDULED, **changes: object) -> LeagueEvent:
    base = LeagueEvent(
        id="e1",
        league="l1",
        season="s1",
        name="Etape 1",
        kind=EventKind.TOURNAMENT,
        structure="tour_des_potes_bb_ante",
        starts_at=1_790_000_000,
        requires_account=True,
        tournament="league_e1",
        status=status,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the lifecycle

EXPECTED = {
    (S.SCHEDULED, T.OPEN): S.REGISTERING,
    (S.REGISTERING, T.START): S.RUNNING,
    (S.RUNNING, T.FINISH): S.FINISHED,
    (S.SCHEDULED, T.CANCEL): S.CANCELLED,
    (S.REGISTERING, T.CANCEL): S.CANCELLED,
    (S.RUNNING, T.CANCEL): S.CANCELLED,
}


def test_the_transition_table_is_exactly_the_lifecycle() -> None:
    assert dict(TRANSITIONS) == EXPECTED


@pytest.mark.parametrize(("status", "step"), list(itertools.product(S, T)))
def test_every_step_from_every_status_is_the_table_or_a_refusal(
    status: EventStatus, step: EventStep
) -> None:
    before = event(status, note="old")
    if (status, step) in EXPECTED:
        after = advance(before, step, "why")
        assert after.status is EXPECTED[(status, step)]
        assert after.note == "why"
        assert dataclasses.replace(after, status=status, note="old") == before
    else:
        with pytest.raises(LeagueRefusal) as refused:
            advance(before, step)
        assert refused.value.code == "league.bad_transition"
        assert before.status is status and before.note == "old"  # unchanged (frozen)


def test_finished_and_cancelled_are_terminal_and_a_walk_reaches_finished() -> None:
    for status in (S.FINISHED, S.CANCELLED):
        assert not [step for step in T if (status, step) in TRANSITIONS]
    walked = event()
    for step in (T.OPEN, T.START, T.FINISH):
        walked = advance(walked, step)
    assert walked.status is S.FINISHED


def test_an_event_kind_and_a_satellite_target_go_together() -> None:
    with pytest.raises(LeagueRefusal) as refused:
        event(kind=EventKind.SATELLITE)  # no target
    assert refused.value.code == "league.bad_event"
    with pytest.raises(LeagueRefusal):
        event(satellite_of="e0")  # a tournament with a target
    # ligue: "journalier, mensuel et sit&go" and the "Trimestriel": every kind is scheduled
    assert event(kind=EventKind.MONTHLY).kind is EventKind.MONTHLY
    assert frozenset(EventKind) == EVENT_KINDS
    assert event(kind=EventKind.SATELLITE, satellite_of="e0").satellite_of == "e0"


def test_only_a_satellite_has_a_seat_rule_and_it_must_read() -> None:
    sat = event(kind=EventKind.SATELLITE, satellite_of="e0")
    assert sat.seat_rule() == SeatsPerEntries(entries_per_seat=10)  # DEFAULT_SEATS
    assert dataclasses.replace(sat, seats="per:3").seat_rule().plan(7).seats == 2
    for changes in ({"seats": "per:0"}, {"seats": "one per table"}):
        with pytest.raises(LeagueRefusal) as refused:
            dataclasses.replace(sat, **changes)  # type: ignore[arg-type]
        assert refused.value.code == "league.bad_event"
    with pytest.raises(LeagueRefusal):
        event(seats="per:10")  # a tournament has no seats to give


def test_qualified_players_only_is_a_monthly_or_quarterly_option_for_accounts() -> None:
    # ligue PRÉAVIS note 1: "Pour les soirs de mensuel afin de permettre aux joueurs classés
    # de jouer le journalier": the monthly is the ranked players' event
    monthly = event(kind=EventKind.MONTHLY, qualified_top=10, qualified_season="s1")
    assert monthly.qualification() == QualificationRule(kind=EventKind.MONTHLY, top=10)
    assert event(kind=EventKind.MONTHLY).qualification() is None
    assert {EventKind.MONTHLY, EventKind.QUARTERLY} == QUALIFIED_KINDS
    bad: list[dict[str, object]] = [
        {"kind": EventKind.TOURNAMENT, "qualified_top": 10, "qualified_season": "s1"},
        {"kind": EventKind.QUARTERLY, "qualified_top": 0, "qualified_season": "s1"},
        {"kind": EventKind.QUARTERLY, "qualified_top": MAX_QUALIFIED + 1, "qualified_season": "s"},
        {"kind": EventKind.QUARTERLY, "qualified_top": 5},  # no season
        {"kind": EventKind.QUARTERLY, "qualified_season": "s1"},  # no top
        {
            "kind": EventKind.MONTHLY,
            "qualified_top": 5,
            "qualified_season": "s1",
            "requires_account": False,
        },
    ]
    for changes in bad:
        with pytest.raises(LeagueRefusal) as refused:
            event(**changes)
        assert refused.value.code == "league.bad_event", changes


def test_an_event_result_carries_the_utc_day_of_its_start() -> None:
    # 2026-09-02 22:30 UTC is the 2nd whatever the server's zone
    at = int(datetime.datetime(2026, 9, 2, 22, 30, tzinfo=datetime.UTC).timestamp())
    assert event_date(event(starts_at=at)) == datetime.date(2026, 9, 2)


# ---------------------------------------------------------------------- roles

ALLOWED = {
    Role.OWNER: set(Action),
    Role.DIRECTOR: set(Action) - {Action.APPOINT_DIRECTOR},
    Role.MEMBER: {Action.VIEW},
    Role.PENDING: set(),  # a request to join: nothing until admitted
}


@pytest.mark.parametrize(("role", "action"), list(itertools.product(Role, Action)))
def test_each_role_may_do_exactly_its_actions(role: Role, action: Action) -> None:
    assert can(role, action) is (action in ALLOWED[role])
    assert set(PERMISSIONS[role]) == ALLOWED[role]
    if action in ALLOWED[role]:
        require(role, action)
    else:
        with pytest.raises(LeagueRefusal) as refused:
            require(role, action)
        waiting = role is Role.PENDING
        assert refused.value.code == ("league.awaiting_approval" if waiting else "league.forbidden")


def test_nobody_outside_the_league_may_do_anything() -> None:
    assert not any(can(None, action) for action in Action)
    with pytest.raises(LeagueRefusal) as refused:
        require(None, Action.VIEW)
    assert refused.value.code == "league.not_member"


def test_a_league_knows_each_member_s_role() -> None:
    league = League(
        id="l1",
        name="Les Potes",
        owner="ana",
        invite="x",
        directors=frozenset({"bob"}),
        members=frozenset({"ana", "bob", "cat"}),
    )
    assert [league.role_of(p) for p in ("ana", "bob", "cat", "dan")] == [
        Role.OWNER,
        Role.DIRECTOR,
        Role.MEMBER,
        None,
    ]


def test_names_are_folded_and_bounded() -> None:
    assert check_name("  Tour   des Potes ") == "Tour des Potes"
    for bad in ("", "   ", "x" * 65, "a\x00b"):
        with pytest.raises(LeagueRefusal) as refused:
            check_name(bad)
        assert refused.value.code == "league.bad_name"


# ---------------------------------------------------------------------- points systems


def test_the_tour_des_potes_season_keeps_the_9_best_of_10_and_scores_the_book_s_40() -> None:
    # fpc part B: "il sera retenu les 9 meilleurs résultats sur 10"; the 40-player example:
    # "1er 66+3+6 = 75, 2ème 63+3+3 = 69, 3ème 60+3+1 = 64", the 10th 42
    rules = season_rules("fpc_tour_des_potes")
    assert (rules.best_of, rules.events, rules.leader_bounty) == (9, 10, 0)
    field = names(40)
    points = rules.points.event_points(finish("B", field))
    assert [points[p] for p in field[:3]] == [75, 69, 64]
    assert points[field[9]] == 42


def test_the_sit_and_go_season_keeps_30_results_and_the_leader_bounty() -> None:
    # fpc part C: "ses 30 meilleurs résultats", "2 points supplémentaires", and the table
    # for 10 players "20, 16, 12, 8, 6, 5, 4, 3, 2, 1"
    rules = season_rules("fpc_sit_and_go")
    assert (rules.best_of, rules.leader_bounty) == (30, 2)
    field = names(10)
    points = rules.points.event_points(finish("C", field, kind=EventKind.SIT_AND_GO))
    assert [points[p] for p in field] == [20, 16, 12, 8, 6, 5, 4, 3, 2, 1]


def test_a_places_table_scores_by_place_and_zero_beyond() -> None:
    rules = season_rules("places:10,6,3", best_of=4)
    assert rules.points == PlaceTable(points=(10, 6, 3)) and rules.best_of == 4
    field = names(4)
    points = rules.points.event_points(finish("P", field))
    assert [points[p] for p in field] == [10, 6, 3, 0]
    assert season_rules("places:5").best_of is None  # every result counts


@pytest.mark.parametrize(
    ("points", "best_of"),
    [
        ("fpc", None),
        ("places:", None),
        ("places:3,6", None),  # rising
        ("places:10,-1", None),
        ("places:a,b", None),
        ("places:" + ",".join(["1"] * 101), None),
        ("places:2000000", None),
        ("fpc_tour_des_potes", 11),  # best 11 of 10
        ("fpc_sit_and_go", 0),
    ],
)
def test_points_a_season_cannot_apply_are_refused(points: str, best_of: int | None) -> None:
    with pytest.raises(LeagueRefusal) as refused:
        season_rules(points, best_of)
    assert refused.value.code == RefusalCode.BAD_POINTS.value == "league.bad_points"


def test_a_season_gives_its_rules() -> None:
    season = Season(id="s", league="l", name="2026", points="fpc_tour_des_potes", best_of=8)
    assert season.rules().best_of == 8 and season.rules().events == 10


def test_a_cash_season_starts_each_member_with_his_capital() -> None:
    # fpc cash: « Chaque adhérent se voit attribuer un capital de départ de 40 000 jetons »
    assert capital_start("capital") == FPC_CAPITAL == 40_000
    assert capital_start("capital:1500") == 1500
    assert capital_start("places:10,6") is None and capital_start("fpc_sit_and_go") is None
    for bad in ("capital:", "capital:12", "capital:-5", "capital:1e6", "capital:99999999"):
        with pytest.raises(LeagueRefusal) as refused:
            capital_start(bad)
        assert refused.value.code == "league.bad_points"
