"""The stored state of a league's heads-up cup, and its changes as pure functions (fpc part C,
« LA COUPE HEADS-UP »; the bracket itself is :mod:`server.league.cup`).

The state is one JSON object kept with the event (``event_states``, or ``L:state:<event>`` in
Redis)::

    {"registered": {member: name}, "bracket": {...}, "games": {match_id: tid}, "next_game": n}

``registered`` fills while it registers (server.league_service.entries.entering);
``bracket``, ``games`` and ``next_game`` appear at the draw. Each function here is a
:data:`~server.league.book.StateChange`: given the state as stored, it returns the state to
write, or None when there is nothing to change, so that the store can apply it in one
read-change-write that another process's write in between makes it compute again. Each is
safe to apply twice: a process that saw a game end, and another that saw it too, record it
once; a draw is made once whoever is first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .cup import Bracket, draw_cup

__all__ = [
    "MIN_CUP",
    "allocated",
    "drawn",
    "dropped",
    "game_of",
    "recorded",
]

MIN_CUP = 3
"""The fewest players a cup is drawn for (two play a single heads-up, not a cup)."""

State = dict[str, Any]


def drawn(rng: random.Random) -> Callable[[State | None], State | None]:
    """The 1er tour drawn among the registered (:func:`~server.league.cup.draw_cup`); nothing
    when drawn already or with fewer than :data:`MIN_CUP` registered."""

    def change(state: State | None) -> State | None:
        if state is None or "bracket" in state or len(state["registered"]) < MIN_CUP:
            return None
        bracket = draw_cup(sorted(state["registered"]), rng)
        return state | {"bracket": bracket.to_state(), "games": {}, "next_game": 0}

    return change


def recorded(match_id: str, tid: str, winner: str) -> Callable[[State | None], State | None]:
    """The game ``tid`` of ``match_id`` won by ``winner``; nothing when that game is no longer
    the match's game in play (recorded already, or replaced after a restart)."""

    def change(state: State | None) -> State | None:
        if state is None or state.get("games", {}).get(match_id) != tid:
            return None
        bracket = Bracket.from_state(state["bracket"]).record_game(match_id, winner)
        del state["games"][match_id]
        state["bracket"] = bracket.to_state()
        return state

    return change


def allocated(tournament: str, rng: random.Random) -> Callable[[State | None], State | None]:
    """The repêchage drawn when it is due, and a game (a new tournament id,
    ``<tournament>_g<n>``) for every match ready to play that has none."""

    def change(state: State | None) -> State | None:
        if state is None or "bracket" not in state:
            return None
        bracket = Bracket.from_state(state["bracket"])
        changed = False
        if not bracket.finished and not bracket.ready_matches() and bracket.repechage_needed():
            bracket = bracket.draw_repechage(rng)
            state["bracket"] = bracket.to_state()
            changed = True
        for match in bracket.ready_matches():
            if match.match_id not in state["games"]:
                state["next_game"] += 1
                state["games"][match.match_id] = f"{tournament}_g{state['next_game']}"
                changed = True
        return state if changed else None

    return change


def dropped(tids: frozenset[str]) -> Callable[[State | None], State | None]:
    """The games ``tids`` forgotten (cut by a restart of a server of one process: played
    again under new ids by :func:`allocated`)."""

    def change(state: State | None) -> State | None:
        if state is None or not tids & set(state.get("games", {}).values()):
            return None
        state["games"] = {k: v for k, v in state["games"].items() if v not in tids}
        return state

    return change


def game_of(state: State | None, tid: str) -> str | None:
    """The match whose game in play is ``tid``; None for a game over or replaced."""
    games: dict[str, str] = (state or {}).get("games", {})
    return next((match for match, t in games.items() if t == tid), None)
