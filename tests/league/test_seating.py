"""fpc part C: tables composed from the standings on the first Wednesday of the month from
January, and the 23:45 hard stop ranked by stacks."""

from __future__ import annotations

import datetime
import random

import pytest

from server.league import (
    FPC_SIT_AND_GO,
    Entry,
    EventKind,
    EventResult,
    PlaceTable,
    ResultError,
    SeasonRules,
    SeatingError,
    hard_stop_reached,
    is_standings_seating_day,
    rank_at_hard_stop,
    standings,
    tables_by_standings,
)

from .helpers import day, finish, names


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ("2026-01-07", True),  # first Wednesday of January
        ("2026-02-04", True),
        ("2026-06-03", True),  # June: the season's last month
        ("2026-01-14", False),  # second Wednesday
        ("2026-01-06", False),  # a Tuesday
        ("2025-10-01", False),  # first Wednesday, but before January
    ],
)
def test_the_first_wednesday_of_the_month_from_january(when: str, expected: bool) -> None:
    # "sauf le premier mercredi du mois à partir de janvier où les tables sont composées en
    # fonction du classement général"
    assert is_standings_seating_day(datetime.date.fromisoformat(when)) is expected


def test_tables_are_composed_from_the_standings() -> None:
    # 30 ranked players (p001 best ... p030), 22 of them present, plus 3 newcomers
    ranked = names(30)
    season = SeasonRules(points=PlaceTable(points=tuple(range(30, 0, -1))))
    rows = standings(season, [finish("e", ranked, when=day(0))])
    absent = set(ranked[1::4])  # p002, p006, ... not there tonight
    present = [p for p in ranked if p not in absent] + ["new1", "new2", "new3"]
    random.Random(0).shuffle(present)
    tables = tables_by_standings(present, rows, random.Random(4))
    here = [p for p in ranked if p not in absent]
    assert [len(t) for t in tables] == [9, 8, 8]  # 25 players, as few tables as 10 allow
    assert set(tables[0]) == set(here[:9])  # the leaders together
    assert set(tables[1]) == set(here[9:17])
    assert set(tables[2]) == set(here[17:]) | {"new1", "new2", "new3"}
    assert list(tables[0]) != here[:9]  # the seats are drawn
    assert tables == tables_by_standings(present, rows, random.Random(4))


def test_a_night_is_composed_by_the_standings_on_the_first_wednesday_only() -> None:
    from server.league.seating import night_tables

    ranked = names(12)
    season = SeasonRules(points=PlaceTable(points=tuple(range(12, 0, -1))))
    rows = standings(season, [finish("e", ranked, when=day(0))])
    first = night_tables(datetime.date(2027, 1, 6), ranked, rows, random.Random(1))
    assert [set(t) for t in first] == [set(ranked[:6]), set(ranked[6:])]  # the leaders' table
    # another Wednesday: at random; over a few nights the leaders do not always sit together
    draws = [
        night_tables(datetime.date(2027, 1, 13), ranked, rows, random.Random(seed))
        for seed in range(5)
    ]
    assert all(sorted(p for t in d for p in t) == sorted(ranked) for d in draws)
    assert any(set(d[0]) != set(ranked[:6]) for d in draws)
    with pytest.raises(SeatingError):
        night_tables(datetime.date(2027, 1, 13), ranked[:5], rows, random.Random(1))


def test_table_limits() -> None:
    rows = standings(SeasonRules(points=PlaceTable(points=(1,))), [finish("e", names(12))])
    assert [len(t) for t in tables_by_standings(names(12), rows, random.Random(0))] == [6, 6]
    # "de 6 joueurs (minimum) à 10 joueurs (maximum)": 11 players cannot be seated
    with pytest.raises(SeatingError):
        tables_by_standings(names(11), rows, random.Random(0))
    with pytest.raises(SeatingError):
        tables_by_standings(["a", "a"], rows, random.Random(0))
    assert tables_by_standings([], rows, random.Random(0)) == ()


def test_the_hard_stop_ranks_the_players_still_in_by_stack() -> None:
    # "Si les Sit'n Go ne sont pas terminés à 23h45, le classement sera défini par le
    # montant des stacks des joueurs encore en jeu."
    assert not hard_stop_reached(datetime.time(23, 44, 59))
    assert hard_stop_reached(datetime.time(23, 45))
    out = [
        Entry(player_id="dan", place=4, eliminated_by=("bob",)),
        Entry(player_id="eve", place=5, eliminated_by=("ann",)),
        Entry(player_id="fay", place=6, eliminated_by=("cyd",)),
    ]
    ranking = rank_at_hard_stop(out, {"ann": 9_000, "bob": 12_000, "cyd": 9_000})
    # equal stacks are ex aequo (fpc 4-4: "Si les joueurs possédaient le même tapis, ils
    # sont ex-æquo")
    assert [(e.player_id, e.place) for e in ranking] == [
        ("bob", 1),
        ("ann", 2),
        ("cyd", 2),
        ("dan", 4),
        ("eve", 5),
        ("fay", 6),
    ]
    result = EventResult(event_id="w", date=day(0), kind=EventKind.SIT_AND_GO, entries=ranking)
    points = FPC_SIT_AND_GO.event_points(result)
    assert (points["bob"], points["ann"], points["cyd"], points["dan"]) == (16, 12, 12, 4)
    with pytest.raises(ResultError):
        rank_at_hard_stop(out, {"ann": 9_000, "bob": 0})
    with pytest.raises(ResultError):
        rank_at_hard_stop(out, {"ann": 1, "dan": 2})
    with pytest.raises(ResultError):  # places that clash with the three still in
        rank_at_hard_stop([Entry(player_id="dan", place=3)], {"a": 1, "b": 2, "c": 3})
    with pytest.raises(ResultError):  # a gap
        rank_at_hard_stop([Entry(player_id="dan", place=5)], {"a": 1, "b": 2, "c": 3})
