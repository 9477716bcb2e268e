"""Season standings: fpc best 9 of 10 with missed stages, ties, the Sit'n Go leader bounty,
exports, and properties of best N of M."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.league import (
    FPC_SIT_AND_GO_SEASON,
    FPC_TOUR_DES_POTES,
    FPC_TOUR_DES_POTES_SEASON,
    EventKind,
    EventResult,
    FieldSizeTable,
    LeagueConfigError,
    PlaceTable,
    SeasonRules,
    leaders,
    standings,
    standings_csv,
    standings_json,
)

from .helpers import day, finish

# (ann, bob, cyd) places at the 10 stages of 12 entrants; bob misses stages 9 and 10
STAGES = [
    (1, 2, 3),
    (2, 1, 4),
    (3, 2, 1),
    (12, 1, 2),
    (1, 3, 2),
    (4, 1, 3),
    (5, 3, 1),
    (2, 4, 1),
    (6, None, 1),
    (1, None, 2),
]


def _stage(n: int, places: tuple[int | None, ...]) -> EventResult:
    field = ["ann", "bob", "cyd"]
    order: list[str | None] = [None] * 12
    for player, place in zip(field, places, strict=True):
        if place is not None:
            order[place - 1] = player
    fillers = iter(f"f{i:02d}" for i in range(1, 13))
    full = [p if p is not None else next(fillers) for p in order]
    return finish(f"stage{n:02d}", full, when=day(4 * n))


def test_fpc_best_9_of_10_with_missed_stages() -> None:
    # fpc part B: "il sera retenu les 9 meilleurs résultats sur 10", "La non-participation
    # à une ou plusieurs étapes ne disqualifie pas le joueur du championnat."
    # 12 entrants, final table of 9, by the rule of part B: 1st 30+6, 2nd 27+3, 3rd 24+1,
    # 4th 21, ... 9th 6, 10th 3 (the first six out go point by point: 12th 1, 11th 2)
    assert FPC_TOUR_DES_POTES.table(12) == (36, 30, 25, 21, 18, 15, 12, 9, 6, 3, 2, 1)
    season = [_stage(n, places) for n, places in enumerate(STAGES, start=1)]
    rows = {r.player_id: r for r in standings(FPC_TOUR_DES_POTES_SEASON, season)}
    # ann: 36 30 25 1 36 21 18 30 15 36 = 248, the 1 (12th at stage 4) dropped
    assert (rows["ann"].points, rows["ann"].dropped, rows["ann"].counted) == (247, 1, 9)
    # bob: 8 stages, all retained: 30 36 30 36 25 36 25 21
    assert (rows["bob"].points, rows["bob"].dropped, rows["bob"].counted) == (239, 0, 8)
    # cyd: 25 21 36 30 30 25 36 36 36 30 = 305, the 21 (4th at stage 2) dropped
    assert (rows["cyd"].points, rows["cyd"].dropped) == (284, 21)
    dropped = [s.event_id for s in rows["cyd"].scores if not s.counted]
    assert dropped == ["stage02"]
    assert [rows[p].rank for p in ("cyd", "ann", "bob")] == [1, 2, 3]
    # an 11th stage does not exist
    with pytest.raises(LeagueConfigError):
        standings(FPC_TOUR_DES_POTES_SEASON, [*season, _stage(11, (1, 2, 3))])


def test_ties_more_wins_then_best_result_then_ex_aequo() -> None:
    # the books are silent: retained points, then more wins, then the best single result
    table = SeasonRules(points=PlaceTable(points=(10, 6, 4, 3, 2, 1)))
    events = [
        finish("e1", ["A", "B", "C", "E", "F", "z1"], ties={"F": 4}, when=day(0)),
        finish("e2", ["z2", "B", "C", "z3", "A", "z4"], when=day(1)),
        finish("e3", ["z5", "z6", "C", "z7"], when=day(2)),
    ]
    rows = standings(table, events)
    assert [(r.player_id, r.points, r.rank) for r in rows] == [
        ("A", 12, 1),  # 12 points, one win
        ("B", 12, 2),  # 12 points, no win, best 6
        ("C", 12, 3),  # 12 points, no win, best 4
        ("z2", 10, 4),
        ("z5", 10, 4),  # identical to z2: ex aequo
        ("z6", 6, 6),
        ("E", 3, 7),
        ("F", 3, 7),
        ("z3", 3, 7),
        ("z7", 3, 7),
        ("z1", 1, 11),
        ("z4", 1, 11),
    ]
    assert leaders(rows) == {"A"}
    assert leaders(()) == frozenset()
    # wins come before the best result: X (two wins of 5) ahead of Y (a win of 7 and a 3)
    by_field = SeasonRules(points=FieldSizeTable(tables={2: (5, 0), 3: (7, 3, 0)}))
    events = [
        finish("e1", ["X", "z1"], when=day(0)),
        finish("e2", ["X", "z2"], when=day(1)),
        finish("e3", ["Y", "z3", "z4"], when=day(2)),
        finish("e4", ["z5", "Y", "z6"], when=day(3)),
    ]
    rows = standings(by_field, events)
    assert [(r.player_id, r.points, r.wins, r.best, r.rank) for r in rows[:2]] == [
        ("X", 10, 2, 5, 1),
        ("Y", 10, 1, 7, 2),
    ]


def _sng(
    event_id: str,
    order: list[str],
    n: int,
    killers: dict[str, str | tuple[str, ...]] | None = None,
) -> EventResult:
    return finish(event_id, order, when=day(n), kind=EventKind.SIT_AND_GO, killers=killers)


def test_fpc_sit_and_go_leader_bounty() -> None:
    # fpc part C: "Bounty : on accorde 2 points supplémentaires à celui qui élimine le
    # premier du classement général."
    t1 = ["ann", "bob", "cyd", "dan", "eve", "fay"]
    t2 = ["gus", "hal", "ivy", "jon", "kim", "lea"]
    week0 = [
        _sng("w0-t1", t1, 0, killers={"bob": "ann"}),
        _sng("w0-t2", t2, 0, killers={"hal": "gus"}),
    ]
    # before the first Wednesday nobody leads: no bonus in week 0
    after0 = standings(FPC_SIT_AND_GO_SEASON, week0)
    assert leaders(after0) == {"ann", "gus"}  # 16 points, one win each: ex aequo
    assert all(s.leader_bounty == 0 for r in after0 for s in r.scores)
    week1 = [
        # bob eliminates ann (3rd): +2; ann is a leader of the standings before this night
        _sng("w1-t1", ["bob", "cyd", "ann", "dan", "eve", "fay"], 1, killers={"ann": "bob"}),
        # gus, the other leader, goes out in a split pot: ivy and jon share the 2 points
        _sng(
            "w1-t2", ["hal", "ivy", "jon", "kim", "gus", "lea"], 1, killers={"gus": ("ivy", "jon")}
        ),
    ]
    rows = {r.player_id: r for r in standings(FPC_SIT_AND_GO_SEASON, week0 + week1)}
    assert rows["bob"].scores[-1].leader_bounty == 2
    assert rows["bob"].points == 12 + 16 + 2
    assert rows["ivy"].scores[-1].leader_bounty == 1 and rows["jon"].scores[-1].leader_bounty == 1
    assert rows["ivy"].points == 8 + 12 + 1
    # week 2: bob leads (30); eliminating ann is worth nothing now, eliminating bob is
    assert leaders(tuple(sorted(rows.values(), key=lambda r: r.rank))) == {"bob"}
    week2 = [_sng("w2", ["ann", "cyd", "bob", "eve", "fay", "dan"], 2, killers={"bob": "cyd"})]
    final = {r.player_id: r for r in standings(FPC_SIT_AND_GO_SEASON, week0 + week1 + week2)}
    assert final["cyd"].scores[-1].leader_bounty == 2
    assert final["cyd"].scores[-1].total == 12 + 2


def test_best_30_sit_and_go_results() -> None:
    # fpc part C: "Le classement général de chaque joueur est défini par ses 30 meilleurs
    # résultats." 32 Wednesdays: ann wins 20 and is 6th (1 point) 12 times
    players = ["ann", "bob", "cyd", "dan", "eve", "fay"]
    events = []
    for n in range(32):
        order = players if n % 8 < 5 else [*players[1:], "ann"]
        events.append(_sng(f"w{n:02d}", order, n))
    ann = next(r for r in standings(FPC_SIT_AND_GO_SEASON, events) if r.player_id == "ann")
    assert ann.played == 32 and ann.counted == 30
    assert ann.points == 20 * 16 + 10 * 1 and ann.dropped == 2


def test_exports() -> None:
    table = SeasonRules(points=PlaceTable(points=(5, 3, 1)), best_of=1)
    events = [finish("e1", ["a", "b"], when=day(0)), finish("e2", ["b", "c", "a"], when=day(1))]
    rows = standings(table, events)
    text = standings_csv(rows, ["e1", "e2"])
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == ["rank", "player_id", "points", "played", "wins", "best", "e1", "e2"]
    assert parsed[1] == ["1", "a", "5", "2", "1", "5", "5", "(1)"]
    assert parsed[2] == ["1", "b", "5", "2", "1", "5", "(3)", "5"]
    assert parsed[3] == ["3", "c", "3", "1", "0", "3", "", "3"]
    named = list(csv.reader(io.StringIO(standings_csv(rows, ["e1"], {"a": "Ana", "b": "Bob"}))))
    assert named[0][:3] == ["rank", "player_id", "name"]  # issue 29: names, not ids only
    assert [line[2] for line in named[1:]] == ["Ana", "Bob", ""]
    doc = json.loads(json.dumps(standings_json(rows)))
    assert doc[0]["player_id"] == "a" and doc[0]["scores"][1] == {
        "event_id": "e2",
        "date": day(1).isoformat(),
        "place": 3,
        "field_size": 3,
        "points": 1,
        "leader_bounty": 0,
        "total": 1,
        "counted": False,
    }


def test_an_event_twice_is_refused() -> None:
    table = SeasonRules(points=PlaceTable(points=(1,)))
    with pytest.raises(LeagueConfigError):
        standings(table, [finish("e", ["a", "b"]), finish("e", ["b", "a"])])
    with pytest.raises(LeagueConfigError):
        SeasonRules(points=PlaceTable(points=(1,)), best_of=11, events=10)


@st.composite
def seasons(draw: st.DrawFn) -> tuple[SeasonRules, list[EventResult]]:
    players = [f"p{i}" for i in range(draw(st.integers(2, 7)))]
    rules = SeasonRules(
        points=PlaceTable(points=(10, 7, 5, 3, 2, 1)),
        best_of=draw(st.integers(1, 5)),
        leader_bounty=draw(st.sampled_from([0, 2])),
    )
    events = []
    for n in range(draw(st.integers(1, 10))):
        field = draw(st.permutations(players))[: draw(st.integers(2, len(players)))]
        killers = {p: field[draw(st.integers(0, i - 1))] for i, p in enumerate(field) if i}
        events.append(finish(f"e{n}", field, when=day(draw(st.integers(0, 5))), killers=killers))
    return rules, events


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_best_n_of_m_properties(season: tuple[SeasonRules, list[EventResult]]) -> None:
    rules, events = season
    assert rules.best_of is not None
    rows = standings(rules, events)
    assert len({r.player_id for r in rows}) == len(rows)
    for row in rows:
        played = sum(1 for e in events if row.player_id in e.players)
        assert row.played == played == len(row.scores)
        assert row.counted == min(played, rules.best_of) <= rules.best_of
        totals = sorted((s.total for s in row.scores), reverse=True)
        assert row.points == sum(totals[: rules.best_of])
        assert row.points + row.dropped == sum(totals)
    # a total order: ranks follow the tie-break key, equal keys share a rank
    keys = [(-r.points, -r.wins, -r.best) for r in rows]
    assert keys == sorted(keys)
    for row, key in zip(rows, keys, strict=True):
        assert row.rank == 1 + sum(1 for k in keys if k < key)
