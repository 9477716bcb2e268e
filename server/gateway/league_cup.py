"""A league's heads-up cup on the server (fpc part C, « LA COUPE HEADS-UP »): registration,
the draw at its time, each game of each match played as a two-player tournament, the
repêchage, the bracket saved after every game, the final places stored as the event's result.

- **Registration**: a member sends ``register`` for the cup's ``tournament`` id (as for any
  league event); he is entered once, answered ``registered`` (no token yet: no table yet).
- **The draw** (at ``starts_at``, three members at least): :func:`~server.league.cup.draw_cup`
  with the system's CSPRNG; a repêchage the same way once the 1er tour is over.
- **A game** (« manche ») is a tournament of the shipped ``fpc_cup_heads_up`` structure
  (6,000 chips, 100/200 that never rise) in which the cup enters both players; it starts
  when both are entered. Each player joins it with ``register`` for the game's tournament id
  (the league's event view names it: ``cup.games``): answered with his seat token, as a
  member a satellite entered. Nobody else may register there.
- **Results**: the game's winner wins a game of the match (:meth:`Bracket.record_game`); a
  match not decided plays its next game, a decided one sends its winner on; the state (the
  bracket and the games in play) is saved after each, before the next game is created.
- **Restart**: a game cut by a restart (its in-memory tournament is not resumed, as for any
  tournament: docs/tournaments.md) is played again from the start; games already won stay
  won (they are in the saved bracket).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.gateway.connection import Connection
from server.gateway.league_entries import MEMBER_PREFIX, enter_member, league_player
from server.league.cup import Bracket, draw_cup
from server.league.model import (
    EventStatus,
    EventStep,
    LeagueEvent,
    RefusalCode,
    advance,
    event_date,
)
from server.league.results import Entry, EventKind, EventResult
from server.league.store import LeagueBook
from server.tournament.decisions import Finished

if TYPE_CHECKING:
    from server.gateway.app import Gateway

__all__ = ["CUP_STRUCTURE", "MIN_CUP", "CupRunner"]

log = logging.getLogger("brasseur.leagues")

CUP_STRUCTURE = "fpc_cup_heads_up"
"""The shipped structure of one game of a match (docs/tournaments/fpc_cup_heads_up.toml)."""
MIN_CUP = 3
"""The fewest players a cup is drawn for (two play a single heads-up, not a cup)."""


class CupRunner:
    """The league's cups (see the module docstring)."""

    def __init__(
        self,
        gateway: Gateway,
        store: LeagueBook,
        game_text: Callable[[str], str],
        rng: random.Random | None = None,
    ) -> None:
        self.g = gateway
        self.store = store
        self.game_text = game_text
        """The TOML of one game, named ``name``."""
        self.rng = rng or random.SystemRandom()
        self.games: dict[str, tuple[str, str]] = {}
        """Game tournament id -> (event id, match id), for the games in play."""

    # ------------------------------------------------------------------ registration

    def opened(self, event: LeagueEvent) -> None:
        """A cup just scheduled: its registration list starts empty."""
        if self.store.event_state(event.id) is None:
            self.store.save_event_state(event.id, {"registered": {}})

    def register(self, conn: Connection, msg: m.Register) -> bool:
        """A ``register`` for a cup (its registration) or one of its games (a player joins
        his game); False for any other tournament."""
        if msg.tournament in self.games:
            self._join_game(conn, msg)
            return True
        base, game, number = msg.tournament.rpartition("_g")
        if game and number.isdigit() and self._is_cup(base):
            # a game over, or cut by a restart and played again under a new id: its
            # tournament (restored empty) seats nobody
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this game of the cup is over")
        event = self.store.event_of_tournament(msg.tournament)
        if event is None or event.kind is not EventKind.CUP:
            return False
        state = self.store.event_state(event.id) or {"registered": {}}
        enter_member(self.store, event, state, conn, msg, "cup")
        return True

    def _is_cup(self, tournament: str) -> bool:
        event = self.store.event_of_tournament(tournament)
        return event is not None and event.kind is EventKind.CUP

    def _join_game(self, conn: Connection, msg: m.Register) -> None:
        """A player of the game's match takes his seat there (his entry is the cup's)."""
        from server.gateway.league_events import register_as

        event_id, match_id = self.games[msg.tournament]
        state = self.store.event_state(event_id)
        member = conn.member
        if state is None or member is None:
            raise ProtocolError(RefusalCode.ACCOUNT_REQUIRED.value, "log in as a player of it")
        match = Bracket.from_state(state["bracket"]).match(match_id)
        if member not in match.players:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this game is another match's")
        live = self.g.tournaments[msg.tournament]
        conn.tournaments.add(msg.tournament)
        conn.registered.add(msg.tournament)
        register_as(live, conn, f"{MEMBER_PREFIX}{member}", conn.nickname or member, msg.id)

    # ------------------------------------------------------------------ the cup

    def start(self, event: LeagueEvent) -> bool:
        """The cup's time: drawn and started (True), or left registering with a note."""
        state = self.store.event_state(event.id) or {"registered": {}}
        entered = state["registered"]
        if len(entered) < MIN_CUP:
            note = f"not started at its time: {len(entered)} registered, {MIN_CUP} needed"
            self.store.update_event(_noted(event, note))
            return False
        bracket = draw_cup(sorted(entered), self.rng)
        state |= {"bracket": bracket.to_state(), "games": {}, "next_game": 0}
        self.store.save_event_state(event.id, state)  # the draw is kept before anything is played
        self.store.update_event(advance(event, EventStep.START))
        self.play(event.id)
        return True

    def play(self, event_id: str) -> None:
        """Create the games the bracket waits for: the repêchage drawn first when due; a
        match with a game in play is left to it."""
        event = self.store.event(event_id)
        state = self.store.event_state(event_id)
        if event is None or state is None or event.status is not EventStatus.RUNNING:
            return
        bracket = Bracket.from_state(state["bracket"])
        if bracket.finished:
            self._finish(event, bracket, state)
            return
        if not bracket.ready_matches() and bracket.repechage_needed():
            bracket = bracket.draw_repechage(self.rng)
            state["bracket"] = bracket.to_state()
            self.store.save_event_state(event_id, state)
        new: list[tuple[str, str, tuple[str, str]]] = []
        for match in bracket.ready_matches():
            if match.match_id in state["games"]:
                continue
            state["next_game"] += 1
            tid = f"{event.tournament}_g{state['next_game']}"
            state["games"][match.match_id] = tid
            a, b = match.players
            assert a is not None and b is not None
            new.append((tid, match.match_id, (a, b)))
        if new:
            self.store.save_event_state(event_id, state)  # recorded first: a restart finds them
        for tid, match_id, players in new:
            self._game(event, state, tid, match_id, players)

    def _game(
        self,
        event: LeagueEvent,
        state: dict[str, Any],
        tid: str,
        match_id: str,
        players: tuple[str, str],
    ) -> None:
        names: dict[str, str] = state["registered"]
        score = Bracket.from_state(state["bracket"]).match(match_id).score
        label = f"{event.name} — {match_id} — {names[players[0]]} v {names[players[1]]}"
        live = self.g.add_tournament(tid, self.game_text(f"{label} ({sum(score) + 1})"))
        self.games[tid] = (event.id, match_id)
        live.host.observers.append(functools.partial(self._observe, tid))
        assert live.coordinator is not None
        for member in players:  # entered by the cup; it starts once both are in
            live.coordinator.submit(
                "register", {"player": f"{MEMBER_PREFIX}{member}", "name": names[member]}
            )

    def _observe(self, tid: str, decisions: list[Any]) -> None:
        """The host's observer of a game: never raises (the game goes on)."""
        try:
            for dec in decisions:
                if isinstance(dec, Finished):
                    winner = next(r.player_id for r in dec.results if r.place == 1)
                    self.game_won(tid, league_player(winner))
        except Exception:
            log.exception("cup game %s: its result not recorded", tid)

    def game_won(self, tid: str, winner: str) -> None:
        """``winner`` (a member id) won the game ``tid``: the bracket moves on, saved, and
        the games that follow are created."""
        found = self.games.pop(tid, None)
        if found is None:
            return
        event_id, match_id = found
        state = self.store.event_state(event_id)
        if state is None or state["games"].get(match_id) != tid:
            return  # a game replaced after a restart
        bracket = Bracket.from_state(state["bracket"]).record_game(match_id, winner)
        del state["games"][match_id]
        state["bracket"] = bracket.to_state()
        self.store.save_event_state(event_id, state)
        log.info("cup %s: %s won a game of %s", event_id, winner, match_id)
        self.play(event_id)

    def _finish(self, event: LeagueEvent, bracket: Bracket, state: dict[str, Any]) -> None:
        entries = tuple(Entry(player_id=p, place=place) for p, place in bracket.places())
        result = EventResult(
            event_id=event.id,
            date=event_date(event),
            kind=EventKind.CUP,
            entries=entries,
            final_table_size=None,
        )
        names = {p: str(state["registered"].get(p, p)) for p, _ in bracket.places()}
        if self.store.finish(advance(event, EventStep.FINISH), result, names):
            log.info("cup %s: won by %s", event.id, bracket.champion)

    # ------------------------------------------------------------------ restart

    def restore(self, event: LeagueEvent) -> None:
        """A running cup after a restart: a game finished meanwhile counts (its stored
        result), a game cut is played again, the others are created."""
        state = self.store.event_state(event.id)
        if state is None or "bracket" not in state:
            return
        for match_id, tid in list(state["games"].items()):
            winner = self._stored_winner(tid)
            if winner is not None:
                self.games[tid] = (event.id, match_id)
                self.game_won(tid, winner)
                state = self.store.event_state(event.id) or state
                continue
            del state["games"][match_id]  # cut by the restart: played again
        self.store.save_event_state(event.id, state)
        self.play(event.id)

    def _stored_winner(self, tid: str) -> str | None:
        text = self.g.store.get_meta(f"tournament:{tid}:results.json")
        if text is None:
            return None
        rows = json.loads(text)["results"]
        first = [r for r in rows if int(r["place"]) == 1]
        return league_player(str(first[0]["player_id"])) if first else None

    def view(self, event: LeagueEvent) -> dict[str, Any]:
        """What the league's page shows of a cup: the registered, the bracket with names,
        the games in play (their tournament ids, to join them)."""
        state = self.store.event_state(event.id) or {"registered": {}}
        out: dict[str, Any] = {"registered": len(state["registered"])}
        if "bracket" in state:
            out["bracket"] = Bracket.from_state(state["bracket"]).to_json()
            out["names"] = dict(state["registered"])
            out["games"] = dict(state["games"])
        return out


def _noted(event: LeagueEvent, note: str) -> LeagueEvent:
    return dataclasses.replace(event, note=note)
