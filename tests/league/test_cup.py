"""The fpc heads-up cup: draw, repêchage to fill the 16ème, first to 2 then first to 3,
refusals, and a property: every bracket ends with one champion."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.league import (
    FPC_CUP,
    FPC_CUP_GAME,
    Bracket,
    BracketError,
    CupRound,
    LeagueConfigError,
    draw_cup,
)

from .helpers import names


def _play_first_round(bracket: Bracket) -> Bracket:
    for match in bracket.round_matches(CupRound.FIRST_ROUND):
        if not match.bye:
            first = match.players[0]
            assert first is not None
            bracket = bracket.record_match(match.match_id, first, loser_games=1)
    return bracket


def test_the_game_of_every_match() -> None:
    # "Stack de départ : 6 000 jetons", "Blinds: 100/200", "Les blinds restent fixes"
    assert (FPC_CUP_GAME.starting_stack, FPC_CUP_GAME.small_blind, FPC_CUP_GAME.big_blind) == (
        6_000,
        100,
        200,
    )
    assert FPC_CUP.game is FPC_CUP_GAME


def test_games_to_win_by_round() -> None:
    # "1er Tour : deux manches gagnées, 16ème : deux ..., 8ème : deux ..., Quart : trois
    # manches gagnées, Demi-finale : trois ..., Finale et petite finale : trois ..."
    need = FPC_CUP.wins_needed
    assert [need[r] for r in (CupRound.FIRST_ROUND, CupRound.SIXTEENTH, CupRound.EIGHTH)] == [
        2,
        2,
        2,
    ]
    assert [
        need[r] for r in (CupRound.QUARTER, CupRound.SEMI, CupRound.FINAL, CupRound.THIRD_PLACE)
    ] == [3, 3, 3, 3]


def test_draw_and_repechage_fill_the_table_of_the_16eme() -> None:
    # "Un tirage au sort est fait pour déterminer les duels"; "à l'issu du 1er tour un
    # repêchage par tirage au sort pourra avoir lieu pour compléter le tableau des 16ème"
    players = names(50)
    bracket = draw_cup(players, random.Random(7))
    assert sorted(bracket.players) == players and list(bracket.players) != players
    first = bracket.round_matches(CupRound.FIRST_ROUND)
    assert len(first) == 25 and not any(m.bye for m in first)
    assert all(m.wins_needed == 2 for m in first)
    assert [m.players for m in first[:2]] == [bracket.players[0:2], bracket.players[2:4]]
    bracket = _play_first_round(bracket)
    # 25 winners: 7 losers are drawn back to make the 32 of the 16ème
    assert bracket.repechage_needed() == 7 and bracket.ready_matches() == ()
    assert not bracket.main_started
    with pytest.raises(BracketError):
        bracket.record_game("1/16#1", players[0])
    drawn = bracket.draw_repechage(random.Random(3))
    losers = {m.loser for m in bracket.round_matches(CupRound.FIRST_ROUND)}
    assert len(drawn.repechage) == 7 and set(drawn.repechage) <= losers
    sixteenth = drawn.round_matches(CupRound.SIXTEENTH)
    assert len(sixteenth) == 16
    winners = [m.winner for m in drawn.round_matches(CupRound.FIRST_ROUND)]
    # the i-th repêché meets the i-th winner; the other winners meet in order
    assert [m.players for m in sixteenth[:7]] == list(
        zip(winners[:7], drawn.repechage, strict=True)
    )
    assert [m.players for m in sixteenth[7:]] == [
        (winners[i], winners[i + 1]) for i in range(7, 25, 2)
    ]
    seated = [p for m in sixteenth for p in m.players]
    assert len(set(seated)) == 32
    rounds = [(r, len(drawn.round_matches(r))) for r in CupRound]
    assert rounds == [
        (CupRound.FIRST_ROUND, 25),
        (CupRound.THIRTY_SECOND, 0),
        (CupRound.SIXTEENTH, 16),
        (CupRound.EIGHTH, 8),
        (CupRound.QUARTER, 4),
        (CupRound.SEMI, 2),
        (CupRound.FINAL, 1),
        (CupRound.THIRD_PLACE, 1),
    ]
    with pytest.raises(BracketError):
        drawn.draw_repechage(random.Random(3))  # already drawn


def test_a_power_of_two_needs_no_repechage_and_an_odd_player_gets_a_bye() -> None:
    bracket = _play_first_round(draw_cup(names(64), random.Random(1)))
    assert bracket.repechage == () and len(bracket.round_matches(CupRound.SIXTEENTH)) == 16
    odd = draw_cup(names(33), random.Random(2))
    bye = odd.round_matches(CupRound.FIRST_ROUND)[-1]
    assert bye.bye and bye.winner == odd.players[-1] and bye.players == (odd.players[-1], None)
    with pytest.raises(BracketError):
        odd.record_game(bye.match_id, odd.players[-1])
    odd = _play_first_round(odd)
    assert odd.repechage_needed() == 32 - 17


def test_best_of_3_then_best_of_5() -> None:
    bracket = _play_first_round(draw_cup(names(16), random.Random(5)))
    # 8 winners: no repêchage, straight to the quarters (first to 3)
    quarter = bracket.round_matches(CupRound.QUARTER)[0]
    a, b = quarter.players
    assert a is not None and b is not None and quarter.wins_needed == 3
    for winner in (a, b, a, b):
        bracket = bracket.record_game(quarter.match_id, winner)
    assert bracket.match(quarter.match_id).score == (2, 2)
    assert bracket.match(quarter.match_id).winner is None  # 2-2 decides nothing at best of 5
    bracket = bracket.record_game(quarter.match_id, b)
    assert bracket.match(quarter.match_id).winner == b
    assert bracket.round_matches(CupRound.SEMI)[0].players == (b, None)
    # the 1er tour was first to 2: a 2-1 decides it
    small = draw_cup(names(4), random.Random(5))
    m = small.round_matches(CupRound.FIRST_ROUND)[0]
    x, y = m.players
    assert x is not None and y is not None
    small = small.record_game(m.match_id, y).record_game(m.match_id, x)
    assert small.match(m.match_id).winner is None
    small = small.record_game(m.match_id, x)
    assert small.match(m.match_id).winner == x and small.match(m.match_id).score == (2, 1)


def test_refusals_leave_the_bracket_as_it_was() -> None:
    bracket = _play_first_round(draw_cup(names(16), random.Random(9)))
    before = bracket
    semi = bracket.round_matches(CupRound.SEMI)[0]
    quarter = bracket.round_matches(CupRound.QUARTER)[0]
    outsider = bracket.round_matches(CupRound.QUARTER)[1].players[0]
    assert outsider is not None and quarter.players[0] is not None
    with pytest.raises(BracketError, match="not ready"):
        bracket.record_game(semi.match_id, quarter.players[0])
    with pytest.raises(BracketError, match="does not play"):
        bracket.record_game(quarter.match_id, outsider)
    with pytest.raises(BracketError, match="no match"):
        bracket.record_game("1/4#9", outsider)
    with pytest.raises(BracketError):
        bracket.record_match(quarter.match_id, quarter.players[0], loser_games=3)
    done = bracket.record_match(quarter.match_id, quarter.players[0], loser_games=2)
    with pytest.raises(BracketError, match="already decided"):
        done.record_game(quarter.match_id, quarter.players[0])
    assert bracket == before and bracket.match(quarter.match_id).score == (0, 0)


def test_draw_limits() -> None:
    with pytest.raises(LeagueConfigError):
        draw_cup(["a", "b"], random.Random(0))
    with pytest.raises(LeagueConfigError):
        draw_cup(["a", "b", "a"], random.Random(0))
    with pytest.raises(LeagueConfigError):
        draw_cup(names(129), random.Random(0))
    three = _play_first_round(draw_cup(["a", "b", "c"], random.Random(0)))
    assert [m.round for m in three.matches[2:]] == [CupRound.FINAL]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 100), seed=st.integers(0, 2**32), games=st.randoms(use_true_random=False))
def test_every_bracket_ends_with_one_champion(n: int, seed: int, games: random.Random) -> None:
    rng = random.Random(seed)
    bracket = draw_cup(names(n), rng)
    lost: set[str] = set()
    while not bracket.finished:
        ready = bracket.ready_matches()
        if not ready:
            bracket = bracket.draw_repechage(rng)
            continue
        match = ready[0]
        winner = match.players[games.randrange(2)]
        assert winner is not None
        assert not bracket.places()  # no ranking before the end
        bracket = bracket.record_game(match.match_id, winner)
        assert Bracket.from_state(json.loads(json.dumps(bracket.to_state()))) == bracket
        decided = bracket.match(match.match_id)
        if decided.loser is not None and decided.round is not CupRound.FIRST_ROUND:
            lost.add(decided.loser)
    champion = bracket.champion
    assert champion is not None and champion not in lost
    winners = (n + 1) // 2
    main = 1 << (winners - 1).bit_length()
    assert len(bracket.matches) == winners + (main - 1) + (1 if main >= 4 else 0)
    assert len(bracket.repechage) == main - winners
    json.dumps(bracket.to_json())
    # every player placed once; the champion first, the final's loser second; a player out
    # in an earlier round never ahead of one out in a later round
    places = bracket.places()
    assert sorted(p for p, _ in places) == sorted(names(n))
    assert places[0] == (champion, 1) and places[1][1] == 2
    assert [place for _, place in places] == sorted(place for _, place in places)


def test_places_of_a_cup_of_five() -> None:
    # 5 players: a 1er tour of 2 matches and a bye, 3 winners, a repêchage of 1 loser to make
    # a main bracket of 4: semi-finals, final, « petite finale »
    bracket = _play_first_round(draw_cup(["a", "b", "c", "d", "e"], random.Random(3)))
    losers = [m.loser for m in bracket.round_matches(CupRound.FIRST_ROUND) if m.loser]
    bracket = bracket.draw_repechage(random.Random(1))
    (back,) = bracket.repechage
    out = next(p for p in losers if p != back)
    while not bracket.finished:
        match = bracket.ready_matches()[0]
        first = match.players[0]
        assert first is not None
        bracket = bracket.record_match(match.match_id, first)
    places = dict(bracket.places())
    assert sorted(places.values()) == [1, 2, 3, 4, 5]
    assert places[out] == 5  # out in the 1er tour, not drawn back in
