"""The cup's stored state and its changes (server/league/cup_state.py, fpc part C « LA COUPE
HEADS-UP »): each change is made once however many processes apply it. With ``--redis`` every
process that runs a game sees it end and records it, and every process may allocate the next
games: the property below plays whole cups with every change applied twice, in a shuffled
order of the games in play, and gets the same bracket a single process would."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.league import cup_state
from server.league.cup import Bracket, CupRound
from server.league_service.entries import Closed, entering

State = dict[str, Any]
Change = Callable[[State | None], State | None]


def apply(state: State | None, change: Change) -> State | None:
    """What the store does: the change on a copy; the stored state if it writes nothing."""
    new = change(copy.deepcopy(state))
    return state if new is None else new


def registered(n: int) -> State:
    return {"registered": {f"p{k:02}": f"P{k}" for k in range(n)}}


def test_the_draw_needs_three_and_is_made_once() -> None:
    assert cup_state.drawn(random.Random(1))(registered(2)) is None  # two play no cup
    assert cup_state.drawn(random.Random(1))(None) is None
    state = apply(registered(5), cup_state.drawn(random.Random(1)))
    assert state is not None and state["games"] == {} and state["next_game"] == 0
    bracket = Bracket.from_state(state["bracket"])
    assert sorted(bracket.players) == sorted(registered(5)["registered"])
    # a second process's draw (another shuffle) changes nothing: the first stands
    assert cup_state.drawn(random.Random(2))(copy.deepcopy(state)) is None


def test_a_registration_counts_once_and_none_after_the_draw() -> None:
    state = apply(None, entering("ana", "Ana"))
    assert state == {"registered": {"ana": "Ana"}}
    assert entering("ana", "Ana again")(copy.deepcopy(state)) is None  # once
    state = apply(apply(state, entering("bob", "Bob")), entering("cat", "Cat"))
    drawn = apply(state, cup_state.drawn(random.Random(1)))
    # a registration that lost the race with the draw is refused, not written after it
    for closed in (drawn, {"night": True, "registered": {}, "tables": ["n1t1"]}):
        with pytest.raises(Closed):
            entering("dan", "Dan")(copy.deepcopy(closed))


def test_games_are_given_once_and_a_game_is_recorded_once() -> None:
    state = apply(registered(5), cup_state.drawn(random.Random(3)))
    assert state is not None
    state = apply(state, cup_state.allocated("league_c1", random.Random(0)))
    assert state is not None
    first = Bracket.from_state(state["bracket"]).round_matches(CupRound.FIRST_ROUND)
    played = [x for x in first if not x.bye]
    assert len(played) == 2
    assert sorted(state["games"].values()) == ["league_c1_g1", "league_c1_g2"]
    assert cup_state.allocated("league_c1", random.Random(0))(copy.deepcopy(state)) is None
    match = played[0]
    tid = state["games"][match.match_id]
    assert cup_state.game_of(state, tid) == match.match_id
    winner = match.players[0]
    assert winner is not None
    after = apply(state, cup_state.recorded(match.match_id, tid, winner))
    assert after is not None
    assert Bracket.from_state(after["bracket"]).match(match.match_id).score == (1, 0)
    assert cup_state.game_of(after, tid) is None  # over: nobody joins it any more
    # the same end seen by another process, or a wrong game's: nothing more
    assert cup_state.recorded(match.match_id, tid, winner)(copy.deepcopy(after)) is None
    assert cup_state.recorded(match.match_id, "league_c1_g9", winner)(copy.deepcopy(after)) is None
    # the match's next game: a new id
    again = apply(after, cup_state.allocated("league_c1", random.Random(0)))
    assert again is not None and again["games"][match.match_id] == "league_c1_g3"


def test_games_cut_by_a_restart_are_dropped_and_given_new_ids() -> None:
    state = apply(registered(4), cup_state.drawn(random.Random(5)))
    state = apply(state, cup_state.allocated("t", random.Random(0)))
    assert state is not None
    cut = frozenset(state["games"].values())
    dropped = apply(state, cup_state.dropped(cut))
    assert dropped is not None and dropped["games"] == {}
    assert cup_state.dropped(cut)(copy.deepcopy(dropped)) is None
    again = apply(dropped, cup_state.allocated("t", random.Random(0)))
    assert again is not None and not cut & set(again["games"].values())


def play(players: int, seed: int, twice: bool) -> Bracket:
    """A whole cup; with ``twice`` every change is applied a second time by "another
    process", and the games in play end in a shuffled order."""
    rng = random.Random(seed)
    draws = random.Random(seed + 1)
    state = apply(registered(players), cup_state.drawn(draws))
    for _ in range(500):
        assert state is not None
        for _ in range(2 if twice else 1):
            state = apply(state, cup_state.allocated("t", draws))
        assert state is not None
        if Bracket.from_state(state["bracket"]).finished:
            return Bracket.from_state(state["bracket"])
        games = sorted(state["games"].items())
        match_id, tid = games[rng.randrange(len(games))]
        match = Bracket.from_state(state["bracket"]).match(match_id)
        winner = match.players[rng.randrange(2)]
        assert winner is not None
        for _ in range(2 if twice else 1):
            state = apply(state, cup_state.recorded(match_id, tid, winner))
    raise AssertionError("the cup never ended")


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 24), seed=st.integers(0, 10_000))
def test_a_cup_whose_every_change_is_applied_twice_ends_as_with_one_process(
    players: int, seed: int
) -> None:
    once = play(players, seed, twice=False)
    twice = play(players, seed, twice=True)
    assert once == twice
    assert once.finished and len(once.places()) == players
    for match in once.matches:
        if not match.bye:  # every match decided by exactly its games: none counted twice
            assert max(match.score) == match.wins_needed
