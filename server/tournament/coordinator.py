"""Coordinators: the director's side of a live tournament.

A coordinator turns what the tables and the players report into :class:`Director` calls and
hands the decisions to every :class:`~server.tournament.host.TournamentHost` (the live side:
tables and connections). Two implementations with the same interface:

- :class:`LocalCoordinator` (default, one process): the director lives in memory and each
  report is handled at once;
- :class:`~server.tournament.redis_coordinator.RedisCoordinator` (several processes): reports
  and decisions travel through Redis and one process holds the director's lease.

Reports are ``(kind, data)`` pairs of plain values (so they cross processes as msgpack):

=========== ======================================================================
``register`` ``{"player", "name"}``
``start``    ``{}``
``ready``    ``{"table"}`` the table is between hands and wants to deal
``allin``    ``{"table"}`` hand-for-hand all-in: hold or reveal?
``ended``    a :class:`~server.table.report.HandEnded` (``Coordinator.hand_ended``; its JSON,
             :meth:`~server.table.report.HandEnded.to_json`, on the Redis stream)
``tick``     ``{}``
``present``  ``{"player"}`` his connection reached his seat (no-show removal, fpc 2-2)
``pause`` / ``resume`` / ``abandon {"player"}`` / ``adjust {"player", "stack", "reason"}``
``move {"player", "table", "seat"}`` / ``spectators {"mode"}`` (director's console)
``rebuy`` / ``reenter`` ``{"player"}`` a busted player buys chips again (tda 26) or enters again
=========== ======================================================================
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from server.table.clock import Cancellable, Clock

from .decisions import (
    Adjusted,
    ConsoleRefused,
    Eliminated,
    Finished,
    HandEnded,
    Instruction,
    RefusalReason,
    Refused,
    SpectatorMode,
    TableNote,
)
from .director import Director
from .errors import DirectorError
from .lifecycle import Phase

__all__ = [
    "Adjusted",
    "ConsoleRefused",
    "Coordinator",
    "DirectorLoop",
    "LocalCoordinator",
    "Report",
    "TableNote",
]

log = logging.getLogger("brasseur.tournament")

Report = tuple[str, dict[str, Any]]


class Coordinator(Protocol):
    def submit(self, kind: str, data: dict[str, Any]) -> None:
        """A report from a table, a player or the director's console."""
        ...

    def hand_ended(self, report: HandEnded) -> None:
        """A table's report at the end of a hand (its ``table_id`` filled in)."""
        ...

    def state(self) -> dict[str, Any]:
        """The tournament as the lobby shows it."""
        ...


class DirectorLoop:
    """The director plus what the console needs around it: queued stack adjustments and
    manual moves (applied when the table is between hands), names, and results."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.names: dict[str, str] = {}
        self.adjust: dict[str, tuple[int, str]] = {}
        self.moves: dict[str, tuple[int, int]] = {}
        self.log: list[dict[str, Any]] = []
        """The director's console actions, with their reasons (kept with the results)."""
        self.started = False
        self.finished: Finished | None = None
        self.eliminated: list[Eliminated] = []
        self.calls: list[dict[str, Any]] = []
        """Players' calls for the director waiting for a ruling (oldest first)."""
        self.next_call = 1

    def _handlers(self) -> dict[str, Callable[[dict[str, Any], float], Sequence[Instruction]]]:
        """Report kind -> its handler (``ended`` as JSON: the Redis stream's)."""
        return {
            "register": self._register,
            "start": self._start,
            "ready": self._ready,
            "allin": self._allin,
            "ended": self._ended,
            "tick": self._tick,
            "present": self._present,
            "pause": self._pause,
            "resume": self._resume,
            "stop": self._stop,
            "close_late": self._close_late,
            "abandon": self._abandon,
            "rebuy": self._rebuy,
            "reenter": self._reenter,
            "spectators": self._spectators,
            "adjust": self._adjust,
            "move": self._move,
            "warn": self._warn,
            "penalty": self._penalty,
            "call": self._call,
            "rule": self._rule,
        }

    def handle(self, kind: str, data: dict[str, Any], now: float) -> list[Instruction]:
        """One report (see the module doc): the decisions to carry out."""
        handler = self._handlers().get(kind)
        if handler is None:
            log.warning("unknown report %s", kind)
            return []
        try:
            out = handler(data, now)
        except DirectorError as exc:
            log.warning("director refused %s %s: %s", kind, data, exc)
            if kind in ("register", "rebuy", "reenter"):
                return [Refused(player_id=data["player"], reason=RefusalReason.NOT_ALLOWED)]
            return []
        return self._keep(out)

    def hand_ended(self, report: HandEnded, now: float) -> list[Instruction]:
        """A table's hand is over."""
        try:
            out = self.director.hand_ended(report, now)
        except DirectorError as exc:
            log.warning("director refused the report %s: %s", report, exc)
            return []
        return self._keep(out)

    def _keep(self, out: Sequence[Instruction]) -> list[Instruction]:
        for dec in out:
            if isinstance(dec, Eliminated):
                self.eliminated.append(dec)
            elif isinstance(dec, Finished):
                self.finished = dec
        return list(out)

    # ------------------------------------------------------------------ the reports

    def _register(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self.names[data["player"]] = data["name"]
        return self.director.register(data["player"], data["name"], now)

    def _start(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        if self.started:
            return []
        out = self.director.start(now)
        self.started = True
        return out

    def _ready(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        table = int(data["table"])
        return [*self._between_hands(table, now), *self.director.ready(table, now)]

    def _allin(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        return self.director.allin_showdown(int(data["table"]), now)

    def _ended(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        return self.director.hand_ended(HandEnded.from_json(data), now)

    def _tick(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        return self.director.tick(now)

    def _present(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self.director.mark_present(data["player"])  # his connection reached his seat (fpc 2-2)
        return []

    def _pause(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("pause", data, now)
        return self.director.pause(now)

    def _resume(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("resume", data, now)
        return self.director.resume(now)

    def _stop(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("stop", data, now)
        return self.director.stop(now)

    def _close_late(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        """Late registration closed by the director (his console, or a league's director):
        a tournament with one player left is won."""
        d = self.director
        if not d.registration_open or d.phase in (Phase.REGISTERING, Phase.FINISHED):
            return [ConsoleRefused(op="close_late", text="late registration is not open")]
        self._log("close_late", data, now)
        return self.director.close_registration(now)

    def _rebuy(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        return self.director.rebuy(data["player"], now)

    def _reenter(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        return self.director.reenter(data["player"], now)

    def _spectators(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        """The rail of every table (each host applies it to its tables and keeps it)."""
        self._log("spectators", data, now)
        return [SpectatorMode(commentary=data["mode"] == "commentary")]

    def _abandon(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("disqualify" if data.get("dq") else "abandon", data, now)
        return self.director.abandon(data["player"], now)

    def _adjust(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self.adjust[data["player"]] = (int(data["stack"]), str(data.get("reason", "")))
        self._log("adjust", data, now)
        return self._now_if_between_hands(data["player"], now)

    def _move(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self.moves[data["player"]] = (int(data["table"]), int(data["seat"]))
        self._log("move", data, now)
        return self._now_if_between_hands(data["player"], now)

    def _warn(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("warn", data, now)
        return self._note("warn", data)

    def _penalty(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("penalty", data, now)
        return self._note("penalty", data)

    def _rule(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        self._log("rule", data, now)
        return self._ruling(data)

    # ------------------------------------------------------------------ the console

    def _now_if_between_hands(self, pid: str, now: float) -> list[Instruction]:
        """A queued console action, carried out now if the player's table is between hands."""
        d = self.director
        table, _ = d.where(pid)
        return [] if table is None or d.busy(table) else self._between_hands(table, now)

    def _note(self, kind: str, data: dict[str, Any]) -> list[Instruction]:
        """cdc 11.1, tda 71: a warning, or missed hands (dealt dead, blinds posted)."""
        pid = data["player"]
        table, _ = self.director.where(pid)
        if table is None:
            return []
        name = self.names.get(pid, pid)
        hands = int(data.get("hands") or 0)
        text = str(data.get("text") or "")
        if kind == "penalty":
            note = f"penalty: {name} misses {hands} hand(s) (cdc 11.1). {text}".strip()
            return [TableNote(table_id=table, text=note, player_id=pid, dead_hands=hands)]
        note = f"warning to {name} (cdc 11.1). {text}".strip()
        return [TableNote(table_id=table, text=note, player_id=pid)]

    def _call(self, data: dict[str, Any], now: float) -> Sequence[Instruction]:
        """A player calls the director to his table (a dispute): a pending decision."""
        pid = data["player"]
        table, seat = self.director.where(pid)
        if table is None:
            return []
        call = {
            "id": self.next_call,
            "table": table,
            "seat": seat,
            "player": pid,
            "name": self.names.get(pid, pid),
            "hand": data.get("hand"),
            "text": str(data.get("text") or "")[:300],
            "at": now,
        }
        self.next_call += 1
        self.calls.append(call)
        del self.calls[:-50]
        note = f"{call['name']} calls the director (#{call['id']}): {call['text']}"
        return [TableNote(table_id=table, text=note)]

    def _ruling(self, data: dict[str, Any]) -> list[Instruction]:
        """The director's ruling on a pending call, said at the table it came from."""
        call = next((c for c in self.calls if c["id"] == data.get("call")), None)
        if call is None:
            return []
        self.calls.remove(call)
        note = f"director's ruling on #{call['id']} ({call['name']}): {data.get('text', '')}"
        return [TableNote(table_id=call["table"], text=note)]

    def _log(self, op: str, data: dict[str, Any], now: float) -> None:
        self.log.append({"op": op, "at": now, **data})

    def _between_hands(self, table_id: int, now: float) -> list[Instruction]:
        """Console actions waiting for this table to be between hands."""
        return self._adjustments(table_id) + self._moves(table_id)

    def _adjustments(self, table_id: int) -> list[Instruction]:
        d = self.director
        out: list[Instruction] = []
        for pid, (stack, reason) in list(self.adjust.items()):
            where, seat = d.where(pid)
            if where != table_id or seat is None:
                continue
            del self.adjust[pid]
            try:
                d.adjust_stack(pid, stack)
            except DirectorError as exc:
                out.append(ConsoleRefused(op="adjust", text=str(exc)))
                continue
            out.append(
                Adjusted(table_id=table_id, seat=seat, player_id=pid, stack=stack, reason=reason)
            )
        return out

    def _moves(self, table_id: int) -> list[Instruction]:
        d = self.director
        out: list[Instruction] = []
        for pid, (to_table, to_seat) in list(self.moves.items()):
            where, seat = d.where(pid)
            if where != table_id or seat is None:
                continue
            if to_table in d.table_ids() and d.busy(to_table):
                continue  # waits for that table's hand to end too
            del self.moves[pid]
            move = None
            if to_table in d.table_ids() and to_seat not in d.seating(to_table):
                move = d.move(pid, to_table, to_seat)
            if move is None:
                name = self.names.get(pid, pid)
                text = f"{name} cannot go to table {to_table}, seat {to_seat}"
                out.append(ConsoleRefused(op="move", text=text))
            else:
                out.append(move)
        return out

    def state(self, now: float) -> dict[str, Any]:
        return tournament_state(self, now)


def tournament_state(loop: DirectorLoop, now: float) -> dict[str, Any]:
    """What the lobby shows (one map, small enough for one frame)."""
    d = loop.director
    level = d.level
    counts = d.table_counts()
    seated = [(t, seat, pid) for t in counts for seat, pid in d.seating(t).items()]
    stacks = [d.stack(pid) for _, _, pid in seated]
    ends = d.next_deadline()
    late_left = d.late_registration_left()
    blinds = level.blinds
    return {
        "name": d.config.name,
        "profile": d.config.profile,
        "phase": d.phase.value,
        "paused": d.paused,
        "level": level.number,
        "level_index": level.index,
        "break": level.is_break,
        "blinds": [blinds.sb, blinds.bb, blinds.ante] if blinds else None,
        # whole seconds (integers only on the wire), rounded up: 0 only when it is over
        "level_left": None if ends is None else max(0, int(-((now - ends) // 1))),
        "players_left": d.remaining,
        "entries": d.entries,
        "average": (sum(stacks) // len(stacks)) if stacks else 0,
        "payouts": list(d.payouts),
        "hand_for_hand": d.hand_for_hand is not None,
        "tables": [[t, n] for t, n in sorted(counts.items())],
        "registered": sorted(loop.names.values())[:200],
        "players": [
            [pid, loop.names.get(pid, pid), t, seat, d.stack(pid)] for t, seat, pid in seated[:500]
        ],
        "calls": [[c["id"], c["table"], c["name"], c["hand"], c["text"]] for c in loop.calls],
        "results": [
            [r.place, loop.names.get(r.player_id, r.player_id), r.prize, r.points]
            for r in (loop.finished.results if loop.finished else ())
        ],
        "late_registration": d.phase is not Phase.REGISTERING and d.open_to_newcomers(),
        # until when: the level at whose end it closes by itself (cdc 1.8, fpc 2-2) and the
        # whole seconds of the tournament clock left until then (nil: closed, or never)
        "late_until_level": d.late_registration_level,
        "late_left": None if late_left is None else max(0, int(-(-late_left // 1))),
        # per player, for the host's ``you`` (never sent as such): the busted players who may
        # rebuy or re-enter now
        "second_chances": {p: list(c) for p, c in d.second_chances().items()},
        "places": d.places(),  # per player too: each busted player's place, once known
    }


class LocalCoordinator:
    """The director in this process: every report handled at once, the decisions applied
    by the host right away (they only queue commands on the tables' inboxes). The director's
    clock is ticked at its next deadline by a timer of the tables' clock."""

    def __init__(
        self, loop: DirectorLoop, clock: Clock, apply: Callable[[list[Instruction]], None]
    ) -> None:
        self.loop = loop
        self.clock = clock
        self._apply = apply
        self._timer: Cancellable | None = None
        self._armed: float | None = None

    def submit(self, kind: str, data: dict[str, Any]) -> None:
        self._carry_out(self.loop.handle(kind, data, self.clock.now()))

    def hand_ended(self, report: HandEnded) -> None:
        self._carry_out(self.loop.hand_ended(report, self.clock.now()))

    def _carry_out(self, decisions: list[Instruction]) -> None:
        if decisions:
            self._apply(decisions)
        self._arm()

    def state(self) -> dict[str, Any]:
        return self.loop.state(self.clock.now())

    def _arm(self) -> None:
        deadline = self.loop.director.next_deadline()
        if deadline == self._armed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed = deadline
        if deadline is not None:
            self._timer = self.clock.call_at(deadline + 0.001, self._tick)

    def _tick(self) -> None:
        self._armed = None
        self._timer = None
        self.submit("tick", {})

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
