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

**One state, changed in one step** (server.league.cup_state): the draw, each game won and
each game given to a match are read-change-writes of the cup's stored state, applied once
whoever applies them. The cup moves on by :meth:`CupRunner.reconcile`, which any process may
run at any time: it records the games whose result is stored, draws or allocates what is
due, and makes sure every game in play exists and runs here. With ``--redis`` every process
runs it (at a game's end, which every process running the game sees, and every
:data:`~server.league_service.events.SWEEP_SECONDS`): a process killed in the middle of a
cup leaves its games to the others, which take them over as Redis tournaments (resumed where
they were, not replayed), and a member reaching any process joins his game there.

**Restart of a server of one process**: a game cut by a restart (its in-memory tournament is
not resumed, as for any tournament: docs/tournaments.md) is played again from the start
under a new id; games already won stay won (they are in the saved bracket).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
from collections.abc import Callable
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.league import cup_state
from server.league.cup import Bracket
from server.league.cup_state import MIN_CUP
from server.league.membership import EntryPath, admitted
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
from server.league_service.entries import (
    MEMBER_PREFIX,
    enter_member,
    league_player,
)
from server.league_service.ports import Entrant, Tournaments
from server.tournament.decisions import Finished
from server.tournament.live import LiveTournament

__all__ = ["CUP_STRUCTURE", "MIN_CUP", "CupRunner"]

log = logging.getLogger("brasseur.leagues")

CUP_STRUCTURE = "fpc_cup_heads_up"
"""The shipped structure of one game of a match (docs/tournaments/fpc_cup_heads_up.toml)."""


class CupRunner:
    """The league's cups (see the module docstring)."""

    def __init__(
        self,
        tournaments: Tournaments,
        store: LeagueBook,
        game_text: Callable[[str], str],
        rng: random.Random | None = None,
    ) -> None:
        self.t = tournaments
        self.store = store
        self.game_text = game_text
        """The TOML of one game, named ``name``."""
        self.rng = rng or random.SystemRandom()
        self.watched: set[str] = set()
        """The games this process observes (one observer each)."""

    # ------------------------------------------------------------------ registration

    def opened(self, event: LeagueEvent) -> None:
        """A cup just scheduled: its registration list starts empty."""
        if self.store.event_state(event.id) is None:
            self.store.save_event_state(event.id, {"registered": {}})

    def register(self, conn: Entrant, msg: m.Register) -> bool:
        """A ``register`` for a cup (its registration) or one of its games (a player joins
        his game); False for any other tournament."""
        found = self._game_of(msg.tournament)
        if found is not None:
            self._join_game(conn, msg, *found)
            return True
        base, game, number = msg.tournament.rpartition("_g")
        if game and number.isdigit() and self._is_cup(base):
            # a game over, or cut by a restart and played again under a new id: its
            # tournament (restored empty) seats nobody
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this game of the cup is over")
        event = self.store.event_of_tournament(msg.tournament)
        if event is None or event.kind is not EventKind.CUP:
            return False
        enter_member(self.store, event, conn, msg, EntryPath.CUP)
        return True

    def _is_cup(self, tournament: str) -> bool:
        event = self.store.event_of_tournament(tournament)
        return event is not None and event.kind is EventKind.CUP

    def _game_of(self, tid: str) -> tuple[LeagueEvent, str] | None:
        """The cup and the match whose game in play is ``tid`` (from the stored state: any
        process answers alike)."""
        base, game, number = tid.rpartition("_g")
        if not game or not number.isdigit():
            return None
        event = self.store.event_of_tournament(base)
        if event is None or event.kind is not EventKind.CUP:
            return None
        match = cup_state.game_of(self.store.event_state(event.id), tid)
        return None if match is None else (event, match)

    def _join_game(self, conn: Entrant, msg: m.Register, event: LeagueEvent, match_id: str) -> None:
        """A player of the game's match takes his seat there (his entry is the cup's)."""
        state = self.store.event_state(event.id)
        member = conn.member
        if state is None or member is None:
            raise ProtocolError(RefusalCode.ACCOUNT_REQUIRED.value, "log in as a player of it")
        match = Bracket.from_state(state["bracket"]).match(match_id)
        if member not in match.players:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this game is another match's")
        live = self._run_game(event, state, match_id, msg.tournament)
        if live is None:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "this game of the cup is over")
        # the cup entered him: his seat token, as for any registered player (not a second
        # registration, which a process that just took the game up would send before it has
        # read the director's decisions, and have refused)
        player = f"{MEMBER_PREFIX}{member}"
        token = live.host.player_token(player, state["registered"].get(member, member))
        conn.tournaments.add(msg.tournament)
        conn.registered.add(msg.tournament)
        reply = m.Registered(tournament=msg.tournament, player=player, token=token, ref=msg.id)
        conn.deliver(encode(reply))
        live.host.follow(conn, token)

    # ------------------------------------------------------------------ the cup

    def start(self, event: LeagueEvent) -> bool:
        """The cup's time: drawn and started (True), or left registering with a note."""
        # issue 26: a member removed (or who left) since he registered is not drawn
        league = self.store.league(event.league)
        draw = cup_state.drawn(self.rng)

        def withdraw_then_draw(state: dict[str, Any] | None) -> dict[str, Any] | None:
            if state is not None and "bracket" not in state:
                kept = admitted(state["registered"], league, EntryPath.CUP)
                if len(kept) != len(state["registered"]):
                    state = state | {"registered": kept}
                    return draw(state) or state  # withdrawn even when too few are left
            return draw(state)

        state = self.store.change_event_state(event.id, withdraw_then_draw)
        if state is None or "bracket" not in state:
            have = len((state or {}).get("registered", {}))
            note = f"not started at its time: {have} registered, {MIN_CUP} needed"
            self.store.update_event(dataclasses.replace(event, note=note))
            return False
        if event.status is EventStatus.REGISTERING:  # whoever drew (the draw is kept first)
            self.store.update_event(advance(event, EventStep.START))
        self.reconcile(event.id)
        return True

    def reconcile(self, event_id: str) -> None:
        """Bring the cup up to date, from its stored state whoever wrote it: the games whose
        result is stored recorded, the repêchage drawn and the next games given when due (each
        once, whichever process is first), every game in play made if missing and run and
        watched here; the result stored once the bracket is complete."""
        event = self.store.event(event_id)
        state = self.store.event_state(event_id)
        if event is None or state is None or event.status is not EventStatus.RUNNING:
            return
        for match_id, tid in list(state.get("games", {}).items()):
            winner = self._stored_winner(tid)
            if winner is not None:
                self._record(event_id, match_id, tid, winner)
        state = self.store.change_event_state(
            event_id, cup_state.allocated(event.tournament, self.rng)
        )
        if state is None or "bracket" not in state:
            return
        bracket = Bracket.from_state(state["bracket"])
        if bracket.finished:
            self._finish(event, bracket, state)
            return
        for match_id, tid in state["games"].items():
            self._run_game(event, state, match_id, tid)

    def _run_game(
        self, event: LeagueEvent, state: dict[str, Any], match_id: str, tid: str
    ) -> LiveTournament | None:
        """The game ``tid`` running here and watched: made (its two players entered) if
        nobody made it yet, else run here as it is (with ``--redis``, one another process
        made); None for a game over or cut by a restart."""
        live = self.t.attach_tournament(tid)
        made = False
        if live is None:
            if self.t.tournament_recorded(tid):
                return None  # over (its result is read next), or cut (restore replaces it)
            names: dict[str, str] = state["registered"]
            match = Bracket.from_state(state["bracket"]).match(match_id)
            a, b = match.players
            label = f"{event.name} — {match_id} — {names.get(a or '')} v {names.get(b or '')}"
            live = self.t.add_tournament(tid, self.game_text(f"{label} ({sum(match.score) + 1})"))
            made = True
        if tid not in self.watched:
            self.watched.add(tid)
            live.host.observers.append(functools.partial(self._observe, tid))
            if made or live.host.registrations < 2:
                # entered by the cup (the director refuses a second entry of a player: a
                # process taking over a game someone made enters them again, harmlessly)
                self._enter_players(live, state, match_id)
        return live

    def _enter_players(self, live: LiveTournament, state: dict[str, Any], match_id: str) -> None:
        names: dict[str, str] = state["registered"]
        assert live.coordinator is not None
        for member in Bracket.from_state(state["bracket"]).match(match_id).players:
            if member is not None:  # it starts once both are in
                player = {"player": f"{MEMBER_PREFIX}{member}", "name": names.get(member, member)}
                live.coordinator.submit("register", player)

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
        found = self._game_of(tid)
        if found is None:
            return  # recorded already (by another process), or a game replaced
        event, match_id = found
        self._record(event.id, match_id, tid, winner)
        self.reconcile(event.id)

    def _record(self, event_id: str, match_id: str, tid: str, winner: str) -> None:
        before = self.store.event_state(event_id)
        after = self.store.change_event_state(event_id, cup_state.recorded(match_id, tid, winner))
        if before != after:
            log.info("cup %s: %s won a game of %s (%s)", event_id, winner, match_id, tid)

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
        """A running cup after a restart. With ``--redis`` its games are Redis tournaments:
        resumed, and the cup goes on (:meth:`reconcile`). On one process, a game whose
        in-memory tournament the restart cut (no result, not brought back) is dropped first,
        to be played again under a new id."""
        state = self.store.event_state(event.id)
        if state is None or "bracket" not in state:
            return
        if not self.t.shared_by_processes:
            cut = frozenset(
                tid
                for tid in state["games"].values()
                if self._stored_winner(tid) is None and self.t.running(tid) is None
            )
            if cut:
                self.store.change_event_state(event.id, cup_state.dropped(cut))
                log.info("cup %s: games cut by the restart, played again: %s", event.id, cut)
        self.reconcile(event.id)

    def _stored_winner(self, tid: str) -> str | None:
        rows = self.t.stored_results(tid)
        first = [r for r in rows or () if int(r["place"]) == 1]
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
