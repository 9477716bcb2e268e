"""Points systems against the books: fpc part B's 40-player example, fpc part C's Sit'n Go
table, the ligue's sit&go note 5, and the generic systems."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.league import (
    FPC_SIT_AND_GO,
    FPC_TOUR_DES_POTES,
    Entry,
    EventKind,
    EventResult,
    FieldSizeTable,
    Formula,
    LeagueConfigError,
    LiguePoints,
    PlaceTable,
    ResultError,
    StepFormula,
)
from server.tournament.config import SIT_AND_GO_POINTS
from server.tournament.prizes import tour_des_potes_points

from .helpers import day, finish, names

# fpc part B, "Exemple d'attribution des points pour un tournoi comportant 40 participants"
# (place, the book's "a + b (+ bonus)", points); every row the book prints.
FPC_40_PLAYERS = [
    (40, (0, 1, 0), 1),  # "40ème (le 1er sortant)  1  1 point"
    (39, (1, 1, 0), 2),  # "39ème  1+1  2 points"
    (38, (2, 1, 0), 3),
    (37, (3, 1, 0), 4),
    (36, (4, 1, 0), 5),
    (21, (19, 1, 0), 20),  # "21ème (1ère moitié atteinte)  19+1  20 points"
    (20, (20, 2, 0), 22),  # "20ème (deuxième moitié)  20+2  22 points"
    (19, (22, 2, 0), 24),
    (18, (24, 2, 0), 26),
    (10, (40, 2, 0), 42),  # "10ème (sorti à la bulle)  40+2  42 points"
    (9, (42, 3, 0), 45),  # "9ème (Table finale)  42+3  45 points"
    (8, (45, 3, 0), 48),
    (7, (48, 3, 0), 51),
    (6, (51, 3, 0), 54),
    (5, (54, 3, 0), 57),
    (4, (57, 3, 0), 60),
    (3, (60, 3, 1), 64),  # "3ème  60+3+1  64 points"
    (2, (63, 3, 3), 69),  # "2ème  63+3+3  69 points"
    (1, (66, 3, 6), 75),  # "1er (Vainqueur)  66+3+6  75 points"
]


@pytest.mark.parametrize(("place", "parts", "points"), FPC_40_PLAYERS)
def test_fpc_tour_des_potes_40_players_every_printed_row(
    place: int, parts: tuple[int, int, int], points: int
) -> None:
    table = FPC_TOUR_DES_POTES.table(40)
    base = FPC_TOUR_DES_POTES.base_table(40)
    below, step, bonus = parts
    assert table[place - 1] == points == below + step + bonus
    # the book's "a" is the place below's points before its own bonus
    assert (base[place] if place < 40 else 0) == below
    assert base[place - 1] == below + step


def test_fpc_tour_des_potes_through_an_event_result() -> None:
    players = names(40)
    points = FPC_TOUR_DES_POTES.event_points(finish("stage1", players))
    assert [points[p] for p in players[:3]] == [75, 69, 64]
    assert points[players[9]] == 42 and points[players[39]] == 1
    # the result's final table (10 a table, fpc "cas exceptionnel") moves the bubble
    ten = FPC_TOUR_DES_POTES.event_points(finish("s", players, final_table_size=10))
    assert ten[players[9]] == 42 + 1  # the 10th is now at the final table: +3 instead of +2


@given(field=st.integers(1, 150), final=st.integers(2, 10))
def test_the_formula_agrees_with_the_tournament_director(field: int, final: int) -> None:
    # server/tournament/prizes.py scores the same formula inside one tournament
    assert FPC_TOUR_DES_POTES.table(field, final) == tour_des_potes_points(field, final)


@given(field=st.integers(2, 150), final=st.integers(2, 10))
def test_a_better_place_always_scores_more(field: int, final: int) -> None:
    table = FPC_TOUR_DES_POTES.table(field, final)
    assert all(a > b for a, b in itertools.pairwise(table))
    assert table[-1] >= 1


def test_odd_field_first_half_is_rounded_down() -> None:
    # 41 entrants: the first 20 eliminated (41st..22nd) point by point, then 2 by 2
    base = FPC_TOUR_DES_POTES.base_table(41)
    assert base[21] == 20  # 22nd
    assert base[20] == 22  # 21st


# fpc part C, "En fin de Sit'n Go les points marqués sont les suivants" (every column)
FPC_SIT_AND_GO_BOOK = {
    10: [20, 16, 12, 8, 6, 5, 4, 3, 2, 1],
    9: [19, 15, 11, 7, 5, 4, 3, 2, 1],
    8: [18, 14, 10, 6, 4, 3, 2, 1],
    7: [17, 13, 9, 5, 3, 2, 1],
    6: [16, 12, 8, 4, 2, 1],
}


@pytest.mark.parametrize("size", sorted(FPC_SIT_AND_GO_BOOK))
def test_fpc_sit_and_go_table_every_column(size: int) -> None:
    players = names(size)
    result = finish("sng", players, kind=EventKind.SIT_AND_GO)
    points = FPC_SIT_AND_GO.event_points(result)
    assert [points[p] for p in players] == FPC_SIT_AND_GO_BOOK[size]
    assert list(SIT_AND_GO_POINTS[size]) == FPC_SIT_AND_GO_BOOK[size]


@pytest.mark.parametrize("size", [5, 11])
def test_fpc_sit_and_go_refuses_a_field_it_does_not_print(size: int) -> None:
    # "Les parties se jouent de 6 joueurs (minimum) à 10 joueurs (maximum)"
    with pytest.raises(LeagueConfigError):
        FPC_SIT_AND_GO.event_points(finish("sng", names(size), kind=EventKind.SIT_AND_GO))


def test_fpc_sit_and_go_match_sheet_error_costs_the_two_finalists_3_points() -> None:
    # "En cas d'erreur, une pénalité de -3 points sera appliquée aux deux finalistes."
    players = names(7)
    result = finish("sng", players, kind=EventKind.SIT_AND_GO, sheet_error=True)
    points = FPC_SIT_AND_GO.event_points(result)
    assert [points[p] for p in players] == [14, 10, 9, 5, 3, 2, 1]


def test_ex_aequo_players_both_score_the_best_place_of_their_block() -> None:
    # cdc 1.10 / fpc 4-4: "Si les joueurs possédaient le même tapis, ils sont ex-æquo"
    players = names(8)
    result = finish("sng", players, ties={players[3]: 3}, kind=EventKind.SIT_AND_GO)
    points = FPC_SIT_AND_GO.event_points(result)
    assert points[players[2]] == points[players[3]] == 10
    assert points[players[4]] == 4  # the next one is 5th


def test_a_re_entered_player_scores_his_best_entry() -> None:
    # re-entry: entry 1 busted 4th, entry 2 won
    entries = (
        Entry(player_id="ann", place=4, entry=1),
        Entry(player_id="bob", place=2),
        Entry(player_id="cyd", place=3),
        Entry(player_id="ann", place=1, entry=2),
    )
    result = EventResult(event_id="e", date=day(0), kind=EventKind.TOURNAMENT, entries=entries)
    points = PlaceTable(points=(10, 6, 3, 1)).event_points(result)
    assert points == {"ann": 10, "bob": 6, "cyd": 3}


def test_results_that_are_not_a_ranking_are_refused() -> None:
    assert finish("e", ["a", "b", "c"], ties={"c": 2}).field_size == 3  # 1, 2, 2 is one
    with pytest.raises(ResultError):
        finish("e", ["a", "b"], ties={"b": 3})  # 1, 3
    with pytest.raises(ResultError):
        finish("e", ["a", "b", "c", "d"], ties={"c": 2, "d": 3})  # 1, 2, 2, 3
    with pytest.raises(ResultError):
        finish("e", ["a", "b"], killers={"b": "b"})
    with pytest.raises(ResultError):
        finish("e", ["a", "b"], killers={"b": "zed"})
    with pytest.raises(ResultError):
        EventResult(
            event_id="e",
            date=day(0),
            kind=EventKind.TOURNAMENT,
            entries=(Entry(player_id="a", place=1), Entry(player_id="a", place=2)),
        )


def test_ligue_sit_and_go_positions_5_to_10_score_the_league_table() -> None:
    # ligue, sit & go note 5: "Le système de pointage de la Ligue s'applique en totalité
    # pour les positions 5 à 10 lors des sit&go."
    table = (100, 80, 65, 55, 45, 40, 35, 30, 25, 20, 15, 10)
    top = (60, 45, 35, 25)
    ligue = LiguePoints(table=table, sit_and_go_top=top)
    players = names(10)
    sng = ligue.event_points(finish("sng", players, kind=EventKind.SIT_AND_GO))
    assert [sng[p] for p in players[4:]] == [45, 40, 35, 30, 25, 20]
    assert [sng[p] for p in players[:4]] == list(top)
    daily = ligue.event_points(finish("daily", names(14), kind=EventKind.TOURNAMENT))
    assert daily["p001"] == 100 and daily["p012"] == 10 and daily["p014"] == 0
    plain = LiguePoints(table=table).event_points(finish("sng", players, kind=EventKind.SIT_AND_GO))
    assert [plain[p] for p in players] == list(table[:10])


def test_generic_tables_and_formulas() -> None:
    players = names(5)
    result = finish("e", players)
    assert PlaceTable(points=(5, 3), beyond=1).event_points(result) == {
        "p001": 5,
        "p002": 3,
        "p003": 1,
        "p004": 1,
        "p005": 1,
    }
    by_field = FieldSizeTable(tables={5: (9, 7, 5, 3, 1)})
    assert by_field.event_points(result)["p003"] == 5
    linear = Formula(points=lambda field, place: field - place + 1)
    assert [linear.event_points(result)[p] for p in players] == [5, 4, 3, 2, 1]
    # a step formula for another league: 1 / 1 / 5 steps, no podium bonus, final table of 3
    other = StepFormula(second_half_step=1, final_table_step=5, podium_bonus=(), final_table_size=3)
    assert other.table(6) == (18, 13, 8, 3, 2, 1)
    with pytest.raises(LeagueConfigError):
        FieldSizeTable(tables={5: (1, 2)})
